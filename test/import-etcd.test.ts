/**
 * etcd raft's state trace (formats.md §4, issue 27): events per node, sends matched to their
 * receives (unmatched sends are dropped messages), commits and configuration changes, and the
 * Raft invariants a real run must pass, each with a hand-built trace that breaks it once.
 */
import { describe, expect, it } from 'vitest';
import { readEtcdTrace } from '../src/sim/import/etcdTrace';
import { ImportError, readImported } from '../src/sim/import';
import { etcdTraceView } from '../src/sim/import/etcdView';

interface Ev {
  ts?: number;
  name: string;
  nid: string;
  term: number;
  vote?: string;
  commit?: number;
  role?: string;
  log?: number;
  conf?: [string[], string[]];
  msg?: Record<string, unknown>;
  prop?: Record<string, unknown>;
}

const line = (e: Ev) =>
  JSON.stringify({
    ts: e.ts ?? 0,
    msg: 'trace',
    event: {
      name: e.name,
      nid: e.nid,
      state: { term: e.term, vote: e.vote ?? '0', commit: e.commit ?? 0 },
      role: e.role ?? 'StateFollower',
      log: e.log ?? 0,
      conf: e.conf ?? [['1', '2', '3'], []],
      ...(e.msg ? { msg: { entries: 0, logTerm: 0, index: 0, commit: 0, reject: false, rejectHint: 0, ...e.msg } } : {}),
      ...(e.prop ? { prop: e.prop } : {}),
    },
  });

/** n1 wins term 1 with n2's vote, replicates one entry to n2 (n3's copy is lost) and commits it. */
function election(): Ev[] {
  const c = { role: 'StateCandidate', vote: '1', term: 1 };
  const l = { role: 'StateLeader', vote: '1', term: 1, log: 1 };
  return [
    { ts: 1.0, name: 'InitState', nid: '1', term: 0 },
    { ts: 1.0, name: 'InitState', nid: '2', term: 0 },
    { ts: 1.0, name: 'InitState', nid: '3', term: 0 },
    { ts: 1.1, name: 'BecomeCandidate', nid: '1', ...c },
    { ts: 1.101, name: 'SendRequestVoteRequest', nid: '1', ...c, msg: { type: 'MsgVote', term: 1, from: '1', to: '2' } },
    { ts: 1.102, name: 'SendRequestVoteRequest', nid: '1', ...c, msg: { type: 'MsgVote', term: 1, from: '1', to: '3' } },
    { ts: 1.105, name: 'ReceiveRequestVoteRequest', nid: '2', term: 1, vote: '1', msg: { type: 'MsgVote', term: 1, from: '1', to: '2' } },
    { ts: 1.106, name: 'SendRequestVoteResponse', nid: '2', term: 1, vote: '1', msg: { type: 'MsgVoteResp', term: 1, from: '2', to: '1' } },
    { ts: 1.11, name: 'ReceiveRequestVoteResponse', nid: '1', ...c, msg: { type: 'MsgVoteResp', term: 1, from: '2', to: '1' } },
    { ts: 1.111, name: 'BecomeLeader', nid: '1', ...l },
    {
      ts: 1.112,
      name: 'SendAppendEntriesRequest',
      nid: '1',
      ...l,
      msg: { type: 'MsgApp', term: 1, from: '1', to: '2', entries: 1 },
      prop: { match: 0, next: 1 },
    },
    { ts: 1.113, name: 'SendAppendEntriesRequest', nid: '1', ...l, msg: { type: 'MsgApp', term: 1, from: '1', to: '3', entries: 1 } },
    {
      ts: 1.115,
      name: 'ReceiveAppendEntriesRequest',
      nid: '2',
      term: 1,
      vote: '1',
      log: 1,
      msg: { type: 'MsgApp', term: 1, from: '1', to: '2', entries: 1 },
    },
    {
      ts: 1.116,
      name: 'SendAppendEntriesResponse',
      nid: '2',
      term: 1,
      vote: '1',
      log: 1,
      msg: { type: 'MsgAppResp', term: 1, from: '2', to: '1', index: 1 },
    },
    { ts: 1.12, name: 'ReceiveAppendEntriesResponse', nid: '1', ...l, msg: { type: 'MsgAppResp', term: 1, from: '2', to: '1', index: 1 } },
    { ts: 1.121, name: 'Commit', nid: '1', ...l, commit: 1 },
  ];
}

const text = (evs: readonly Ev[], extra = '') => evs.map(line).join('\n') + '\n' + extra;

describe("etcd raft's state trace", () => {
  it('reads events per node with their role, term and commit; lanes n1, n2, n3', () => {
    const t = readEtcdTrace(text(election()));
    expect(t.nodes).toEqual(['n1', 'n2', 'n3']);
    expect(t.events).toHaveLength(16);
    expect(t.events[9]).toMatchObject({ name: 'BecomeLeader', node: 'n1', role: 'leader', term: 1 });
    // ts is wall-clock seconds: ms from the first event.
    expect(t.events[3].ms).toBeCloseTo(100, 6);
  });

  it('matches each send to its receive (type, from, to, term, index, in order); a send never received is dropped', () => {
    const t = readEtcdTrace(text(election()));
    const summary = t.messages.map((m) => `${m.msg.type} ${m.msg.from}→${m.msg.to} ${m.receivedAt === null ? 'dropped' : 'received'}`);
    expect(summary).toEqual([
      'MsgVote n1→n2 received',
      'MsgVote n1→n3 dropped',
      'MsgVoteResp n2→n1 received',
      'MsgApp n1→n2 received',
      'MsgApp n1→n3 dropped',
      'MsgAppResp n2→n1 received',
    ]);
    expect(t.unmatchedReceives).toBe(0);
  });

  it('marks commits and configuration changes on the node that made them', () => {
    const evs = election();
    evs.push({
      ts: 1.2,
      name: 'ApplyConfChange',
      nid: '1',
      role: 'StateLeader',
      vote: '1',
      term: 1,
      log: 2,
      commit: 1,
      conf: [['1', '2', '3', '4'], []],
      prop: { cc: { newconf: ['1', '2', '3', '4'] } },
    });
    const t = readEtcdTrace(text(evs));
    expect(t.marks.map((m) => `${m.node} ${m.kind} ${m.text}`)).toEqual(['n1 commit commit 1', 'n1 conf configuration now n1, n2, n3, n4']);
  });

  it('a clean run violates no invariant', () => {
    expect(readEtcdTrace(text(election())).violations).toEqual([]);
  });

  it('at most one leader per term (§5.2)', () => {
    const evs = election();
    evs.push({ ts: 1.3, name: 'BecomeLeader', nid: '3', role: 'StateLeader', term: 1, vote: '3' });
    const v = readEtcdTrace(text(evs)).violations;
    expect(v.map((x) => x.invariant)).toEqual(['one-leader-per-term']);
    expect(v[0].sentence).toBe(
      'n1 (from line 10) and n3 (at line 17) both lead term 1: at most one leader per term (§5.2, Election Safety: a candidate needs a majority, and a voter votes once per term).',
    );
  });

  it("a node's term never decreases", () => {
    const evs = election();
    evs.push({ ts: 1.3, name: 'BecomeFollower', nid: '2', term: 0 });
    expect(readEtcdTrace(text(evs)).violations[0]).toMatchObject({ invariant: 'term-never-decreases', node: 'n2', line: 17 });
  });

  it("a node's commit index never decreases", () => {
    const evs = election();
    evs.push({ ts: 1.3, name: 'Ready', nid: '1', role: 'StateLeader', vote: '1', term: 1, log: 1, commit: 0 });
    expect(readEtcdTrace(text(evs)).violations[0]).toMatchObject({ invariant: 'commit-never-decreases', node: 'n1' });
  });

  it('a node votes at most once per term', () => {
    const evs = election();
    evs.push({
      ts: 1.3,
      name: 'ReceiveRequestVoteRequest',
      nid: '2',
      term: 1,
      vote: '3',
      msg: { type: 'MsgVote', term: 1, from: '3', to: '2' },
    });
    const v = readEtcdTrace(text(evs)).violations;
    expect(v[0].invariant).toBe('one-vote-per-term');
    expect(v[0].sentence).toContain('n2 voted for n1 (line 7) and then for n3 (line 17) in term 1');
  });

  it("a leader commits only what a quorum of its configuration's voters acknowledged", () => {
    // Without n2's MsgAppResp, n1 alone holds index 1 of three voters.
    const evs = election().filter((e) => !(e.msg?.type === 'MsgAppResp'));
    const v = readEtcdTrace(text(evs)).violations;
    expect(v.map((x) => x.invariant)).toEqual(['commit-needs-quorum']);
    expect(v[0].sentence).toBe(
      'n1 committed up to index 1 in term 1 at line 14, but only n1 of n1, n2 and n3 had acknowledged it: a leader commits only entries a majority of voters hold (§5.3, §5.4).',
    );
    // In a joint configuration both halves need a majority.
    const joint = election().map((e) =>
      e.nid === '1' && e.role === 'StateLeader'
        ? {
            ...e,
            conf: [
              ['1', '2', '3'],
              ['4', '5', '6'],
            ] as [string[], string[]],
          }
        : e,
    );
    expect(readEtcdTrace(text(joint)).violations.map((x) => x.invariant)).toEqual(['commit-needs-quorum']);
  });

  it('skips and counts other log lines; a broken JSON line is named', () => {
    const t = readEtcdTrace(text(election(), 'plain text from the test harness\n{"level":"info","msg":"started"}\n'));
    expect(t.skipped).toEqual({ count: 2, reasons: { 'not JSON (other log output)': 1, 'a log line without a trace event': 1 } });
    expect(() => readEtcdTrace(text(election(), '{"ts": 1.5, "event": {"name": "Commit"'))).toThrow(ImportError);
    try {
      readEtcdTrace('{"ts":1,"event":{"name":"Commit","nid":"1","state":{"term":1},"role":"Boss"}}');
    } catch (e) {
      expect((e as ImportError).sentence).toBe(
        'line 1: expected "role" to be StateFollower, StateCandidate, StatePreCandidate or StateLeader, found "Boss".',
      );
    }
  });

  it('is recognised by its content and drawn as lanes, role bands and message arrows', () => {
    const f = readImported(text(election()));
    expect(f.format).toBe('etcd-trace');
    if (f.format !== 'etcd-trace') return;
    const view = etcdTraceView(f.trace);
    expect(view.actors.nodes).toEqual(['n1', 'n2', 'n3']);
    expect(view.messages.count).toBe(6);
    expect(view.nodeSpans.filter((s) => s.node === 'n1').map((s) => `${s.state} ${s.term}`)).toEqual([
      'follower 0',
      'candidate 1',
      'leader 1',
    ]);
  });

  it('reads a trace longer than a call takes arguments (no Math.min(...lines)): 150,000 lines', () => {
    const one = (i: number) => line({ ts: i / 1000, name: 'Ready', nid: '1', term: 1, vote: '1' });
    const f = readEtcdTrace(Array.from({ length: 150_000 }, (_, i) => one(i)).join('\n'));
    expect(f.events.length).toBe(150_000);
    expect(f.endMs).toBeCloseTo(149_999, 3);
  });
});
