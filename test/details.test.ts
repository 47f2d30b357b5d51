// Detail events (the second stream): one rules-style case per kind, asserting kind, values and the
// pseudocode line ids; then the CLI's --verbose and --json, and that recording off records nothing.
// Node-level kinds drive one RaftNode through a fake host; the rest use tiny runs.
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { DEFAULT_CONFIG, makeConfig } from '../src/sim/model/config';
import { describeDetail, detailLine } from '../src/sim/model/describe';
import { DETAIL_KINDS, type DetailBody, type DetailEvent, type EventKind } from '../src/sim/model/events';
import { RaftNode, type NodeBugs, type NodeHost } from '../src/sim/raft/node';
import { findPreset } from '../src/sim/run/presets';
import { PSEUDOCODE_IDS } from '../src/sim/model/pseudocodeIds';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { detailsSince } from '../src/sim/view/runView';
import type { AppendEntries, LogEntry, RaftMessage, RequestVote } from '../src/sim/model/types';
import { NO_FEATURES, type NodeFeatures } from '../src/sim/model/features';

class DetailHost implements NodeHost {
  nowMs = 0;
  heartbeatMs = 50;
  electionTimeoutMinMs = 150;
  bugs: NodeBugs = { figure8: false, noLogCheck: false, staleAppendReply: false };
  features: NodeFeatures = NO_FEATURES;
  recordDetails = true;
  details: DetailBody[] = [];
  sent: { dst: string; msg: RaftMessage }[] = [];
  randomElectionTimeout(): number {
    return 200;
  }
  send(_src: string, dst: string, msg: RaftMessage): void {
    this.sent.push({ dst, msg });
  }
  logEvent(_text: string, _kind: EventKind): void {}
  recordLeader(): void {}
  onCommitted(_node: RaftNode, _index: number, _entry: LogEntry): void {}
  detail(body: DetailBody): void {
    this.details.push(body);
  }
  take(): DetailBody[] {
    const out = this.details;
    this.details = [];
    return out;
  }
}

function makeNode(term: number, logTerms: number[], peers = ['n2', 'n3', 'n4', 'n5']) {
  const host = new DetailHost();
  const node = new RaftNode('n1', 0, peers, host);
  node.term = term;
  node.log = logTerms.map((t, i) => ({ term: t, command: `c${i + 1}` }));
  return { host, node };
}

const rv = (term: number, candidate: string, lastLogIndex: number, lastLogTerm: number): RequestVote => ({
  type: 'RequestVote',
  term,
  candidate,
  lastLogIndex,
  lastLogTerm,
});
const ae = (term: number, prevLogIndex: number, prevLogTerm: number, entryTerms: number[] = [], leaderCommit = 0): AppendEntries => ({
  type: 'AppendEntries',
  term,
  leader: 'n2',
  prevLogIndex,
  prevLogTerm,
  entries: entryTerms.map((t, i) => ({ term: t, command: `e${prevLogIndex + i + 1}` })),
  leaderCommit,
});

/** A detail as the cluster stores it, for the formatter. */
const stamped = (body: DetailBody, t = 156): DetailEvent => ({ ...body, t, afterEvent: 0 }) as DetailEvent;

describe('Figure 2, RequestVote receiver: a refused vote says why, with both logs', () => {
  const cases = [
    { name: 'stale term', term: 3, log: [], msg: rv(2, 'n2', 0, 0), voted: null, reason: 'stale-term', line: 'rv.refuse.stale-term' },
    {
      name: 'already voted',
      term: 1,
      log: [],
      msg: rv(1, 'n2', 0, 0),
      voted: 'n3',
      reason: 'already-voted',
      line: 'rv.refuse.already-voted',
    },
    {
      name: 'log not up to date (§5.4.1)',
      term: 2,
      log: [1, 2],
      msg: rv(2, 'n2', 5, 1),
      voted: null,
      reason: 'log-not-up-to-date',
      line: 'rv.refuse.log-not-up-to-date',
    },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const { host, node } = makeNode(c.term, [...c.log]);
      node.votedFor = c.voted;
      node.onMessage('n2', c.msg);
      const [d] = host.take();
      expect(d.kind).toBe('vote-refused');
      expect(d.lines).toEqual([c.line]);
      expect(d.subjects).toEqual(['n1', 'n2']);
      expect(d.values).toMatchObject({
        node: 'n1',
        candidate: 'n2',
        reason: c.reason,
        term: c.term,
        candidateTerm: c.msg.term,
        votedFor: c.voted,
        lastLogTerm: c.log.length ? c.log[c.log.length - 1] : 0,
        lastLogIndex: c.log.length,
        candidateLastLogTerm: c.msg.lastLogTerm,
        candidateLastLogIndex: c.msg.lastLogIndex,
      });
    });
  }

  it('a granted vote records nothing', () => {
    const { host, node } = makeNode(1, []);
    node.onMessage('n2', rv(1, 'n2', 0, 0));
    expect(host.take()).toEqual([]);
  });

  it('reads as the chapter-style sentence', () => {
    const { host, node } = makeNode(1, []);
    node.votedFor = 'n1';
    node.onMessage('n2', rv(1, 'n2', 0, 0));
    expect(detailLine(stamped(host.take()[0]))).toBe('t=  156 ms  · n1 refuses vote for n2: already voted for n1 in term 1');
  });
});

describe('Figure 2, AppendEntries receiver (§5.3)', () => {
  const rejects = [
    { name: 'stale term', term: 3, log: [1], msg: ae(2, 1, 1), reason: 'stale-term', line: 'ae.reject.stale-term', termAtPrev: 1 },
    {
      name: 'no entry at prevLogIndex',
      term: 2,
      log: [1],
      msg: ae(2, 3, 2),
      reason: 'prev-missing',
      line: 'ae.reject.prev-missing',
      termAtPrev: null,
    },
    {
      name: 'term mismatch at prevLogIndex',
      term: 2,
      log: [1, 1],
      msg: ae(2, 2, 2),
      reason: 'prev-term-mismatch',
      line: 'ae.reject.prev-term-mismatch',
      termAtPrev: 1,
    },
  ] as const;
  for (const c of rejects) {
    it(`rejects: ${c.name}`, () => {
      const { host, node } = makeNode(c.term, [...c.log]);
      node.onMessage('n2', c.msg);
      const [d] = host.take();
      expect(d.kind).toBe('append-rejected');
      expect(d.lines).toEqual([c.line]);
      expect(d.values).toEqual({
        node: 'n1',
        leader: 'n2',
        reason: c.reason,
        term: c.term,
        leaderTerm: c.msg.term,
        prevLogIndex: c.msg.prevLogIndex,
        prevLogTerm: c.msg.prevLogTerm,
        lastLogIndex: c.log.length,
        termAtPrev: c.termAtPrev,
      });
    });
  }

  it('accepts entries i..j, counting the new ones; a heartbeat records nothing', () => {
    const { host, node } = makeNode(2, [1]);
    node.onMessage('n2', ae(2, 1, 1));
    expect(host.take()).toEqual([]);
    node.onMessage('n2', ae(2, 0, 0, [1, 2, 2]));
    const [d] = host.take();
    expect(d).toEqual({
      kind: 'append-accepted',
      subjects: ['n1', 'n2'],
      lines: ['ae.append-new'],
      values: { node: 'n1', leader: 'n2', term: 2, from: 1, to: 3, added: 2 },
    });
  });

  it('truncates a conflicting tail, then accepts', () => {
    const { host, node } = makeNode(3, [1, 2, 2]);
    node.onMessage('n2', ae(3, 1, 1, [3]));
    const [t, a] = host.take();
    expect(t).toEqual({
      kind: 'truncated',
      subjects: ['n1', 'n2'],
      lines: ['ae.truncate-conflict'],
      values: { node: 'n1', leader: 'n2', from: 2, removed: 2, localTerm: 2, leaderEntryTerm: 3 },
    });
    expect(a.kind).toBe('append-accepted');
    expect(a.values).toMatchObject({ from: 2, to: 2, added: 1 });
    expect(node.log.map((e) => e.term)).toEqual([1, 3]);
  });

  it('advances the commit index to min(leaderCommit, last new entry)', () => {
    const { host, node } = makeNode(2, []);
    node.onMessage('n2', ae(2, 0, 0, [2, 2], 5));
    const commit = host.take().find((d) => d.kind === 'commit-advanced');
    expect(commit).toEqual({
      kind: 'commit-advanced',
      subjects: ['n1', 'n2'],
      lines: ['ae.commit.leader-commit'],
      values: { node: 'n1', from: 0, to: 2, term: 2, rule: 'leader-commit', replicas: null, majority: null, leader: 'n2', leaderCommit: 5 },
    });
  });
});

describe('leader rules: append, commit by majority (Figure 8)', () => {
  function leader(logTerms: number[], term: number, figure8 = false) {
    const made = makeNode(term - 1, logTerms, ['n2', 'n3']);
    made.host.bugs = { figure8, noLogCheck: false, staleAppendReply: false };
    made.node.becomeCandidate();
    made.node.onMessage('n2', { type: 'VoteReply', term, granted: true });
    expect(made.node.role).toBe('leader');
    made.host.take();
    return made;
  }

  it('a leader appends a client entry', () => {
    const { host, node } = leader([], 1);
    node.submit('x=1');
    expect(host.take()).toEqual([
      { kind: 'leader-append', subjects: ['n1'], lines: ['leader.append'], values: { node: 'n1', term: 1, index: 1, command: 'x=1' } },
    ]);
  });

  it('commits a current-term entry once a majority holds it', () => {
    const { host, node } = leader([], 1);
    node.submit('x=1');
    host.take();
    node.onMessage('n2', { type: 'AppendReply', term: 1, success: true, matchIndex: 1 });
    const [d] = host.take();
    expect(d).toEqual({
      kind: 'commit-advanced',
      subjects: ['n1'],
      lines: ['commit.majority'],
      values: { node: 'n1', from: 0, to: 1, term: 1, rule: 'majority', replicas: 2, majority: 2, leader: null, leaderCommit: null },
    });
  });

  it('under bug figure8, says it counted an earlier term', () => {
    const { host, node } = leader([1], 2, true);
    node.onMessage('n2', { type: 'AppendReply', term: 2, success: true, matchIndex: 1 });
    const [d] = host.take();
    expect(d.kind).toBe('commit-advanced');
    expect(d.lines).toEqual(['commit.earlier-term-by-counting']);
    expect(d.values).toMatchObject({ rule: 'earlier-term-by-counting', from: 0, to: 1, term: 2 });
  });
});

function run(config: Parameters<typeof makeConfig>[0], schedule: string, until: number, recordDetails = true): Simulation {
  const sim = new Simulation(makeConfig(config), parseSchedule(schedule), { recordDetails });
  sim.advanceTo(until);
  return sim;
}

describe('the cluster: applies and drops', () => {
  it('an applied entry carries the state machine result (null in a Raft-only run)', () => {
    const sim = run({}, '@400 submit x=1', 800);
    const applied = sim.cluster.details.filter((d) => d.kind === 'applied');
    expect(applied).toHaveLength(5);
    for (const d of applied) {
      expect(d.lines).toEqual(['apply']);
      expect(d.values).toMatchObject({ index: 1, command: 'x=1', result: null });
    }
  });

  it('a lock command applies with its result', () => {
    const sim = run({ clientIds: ['A'] }, '@500 client A acquire job 5000', 1500);
    const d = sim.cluster.details.find((x) => x.kind === 'applied');
    expect(d?.values).toMatchObject({ result: { type: 'Granted', token: 1 } });
    expect(describeDetail(d as DetailEvent)).toMatch(/applies index 1 \(term \d+\) grant job to A \(5000 ms\) -> Granted token 1$/);
  });

  const drops = [
    { reason: 'down', schedule: '@400 crash n3', line: 'net.drop.down' },
    { reason: 'partition', schedule: '@400 partition n3', line: 'net.drop.partition' },
    { reason: 'loss', schedule: '@400 loss 100', line: 'net.drop.loss' },
  ] as const;
  for (const c of drops) {
    it(`a message dropped (${c.reason}) names both ends and the reason`, () => {
      const sim = run({}, c.schedule, 700);
      const d = sim.cluster.details.find((x) => x.kind === 'dropped');
      expect(d?.lines).toEqual([c.line]);
      expect(d?.values).toMatchObject({ reason: c.reason });
      const v = d?.values as { from: string; to: string; sentAt: number };
      expect(d?.subjects).toEqual([v.from, v.to]);
      expect(v.sentAt).toBeLessThanOrEqual(d?.t ?? 0);
      expect(sim.cluster.details.filter((x) => x.kind === 'dropped')).toHaveLength(sim.cluster.dropped);
    });
  }
});

describe('the lock service: the fencing preset', () => {
  const preset = findPreset('fencing');
  if (!preset) throw new Error('no fencing preset');
  const sim = new Simulation(preset.config, parseSchedule(preset.schedule), { recordDetails: true });
  sim.advanceTo(preset.untilMs);

  it("a lease expires by the leader's clock", () => {
    const d = sim.cluster.details.find((x) => x.kind === 'lease-expired');
    expect(d?.lines).toEqual(['lease.expire.leader-clock']);
    expect(d?.values).toMatchObject({ key: 'job:42', owner: 'A', token: 1 });
    const v = d?.values as { localMs: number; endsAtLocalMs: number };
    expect(v.localMs).toBeGreaterThanOrEqual(v.endsAtLocalMs);
  });

  it('a fenced write names its token and the highest accepted', () => {
    const d = sim.cluster.details.find((x) => x.kind === 'write-fenced');
    expect(d?.lines).toEqual(['store.fence.reject']);
    expect(d?.values).toEqual({ store: 'fenced', client: 'A', key: 'result', value: 'A-second', token: 1, highest: 2 });
    expect(describeDetail(d as DetailEvent)).toBe('fenced store fences result=A-second from A: token 1 vs highest 2');
  });
});

describe('recording', () => {
  it('every detail cites known pseudocode ids, has a known kind and a sentence', () => {
    const sim = run(
      { clientIds: ['A', 'B'] },
      '@500 client A acquire k 300; @600 crash n2; @900 restart n2; @900 partition n1,n3; @1400 heal',
      3000,
    );
    const ids = new Set<string>(PSEUDOCODE_IDS);
    for (const d of sim.cluster.details) {
      expect(DETAIL_KINDS).toContain(d.kind);
      for (const line of d.lines) expect(ids.has(line)).toBe(true);
      expect(Object.isFrozen(d)).toBe(true);
      expect(describeDetail(d).length).toBeGreaterThan(0);
    }
  });

  it("a detail limit keeps the newest ones and counts the trimmed (the page's viewed run)", () => {
    const schedule = '@400 crash n3; @400 submit x=1';
    const all = run({}, schedule, 5000);
    const sim = new Simulation(makeConfig({}), parseSchedule(schedule), { recordDetails: true, detailLimit: 10 });
    sim.advanceTo(5000);
    const { details, detailsBase } = sim.cluster;
    expect(details.length).toBeGreaterThanOrEqual(10);
    expect(details.length).toBeLessThanOrEqual(20);
    expect(detailsBase + details.length).toBe(all.cluster.details.length);
    expect(details).toEqual(all.cluster.details.slice(detailsBase));
    expect(detailsSince(sim, detailsBase + 3)).toEqual(details.slice(3));
    expect(detailsSince(sim, 0)).toEqual(details);
  });

  it('off (the default) records nothing and changes nothing', () => {
    const on = run({}, '@400 submit x=1; @500 crash n1; @700 partition n2', 2000, true);
    const off = run({}, '@400 submit x=1; @500 crash n1; @700 partition n2', 2000, false);
    expect(off.cluster.details).toEqual([]);
    expect(new Simulation(DEFAULT_CONFIG).cluster.recordDetails).toBe(false);
    expect(on.cluster.details.length).toBeGreaterThan(0);
    expect(off.cluster.events).toEqual(on.cluster.events);
    expect(off.cluster.sent).toEqual(on.cluster.sent);
    expect(off.cluster.nodes.map((n) => n.log)).toEqual(on.cluster.nodes.map((n) => n.log));
  });
});

describe('the CLI', () => {
  const plain = runSimCli(['--preset', 'chapter']).stdout.split('\n');
  const verbose = runSimCli(['--preset', 'chapter', '--verbose']).stdout.split('\n');

  it('--verbose keeps every chapter line, in order, and adds only marked detail lines', () => {
    const chapterOnly = verbose.filter((l) => !/^t=[ \d]{5} ms {2}· /.test(l));
    expect(chapterOnly).toEqual(plain);
    expect(verbose.length).toBeGreaterThan(plain.length);
    expect(verbose).toContain("t= 1962 ms  · n3 truncates its log from index 3 (1 entry): term 2 there conflicts with n1's term 3");
    // Chapter and detail lines merge in time order.
    const times = verbose.filter((l) => l.startsWith('t=')).map((l) => Number(l.slice(2, 7)));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The step-down at 1962 ms comes before the truncation it leads to.
    expect(verbose.indexOf('t= 1962 ms n3 steps down, follower in term 3')).toBeLessThan(
      verbose.findIndex((l) => l.includes('n3 truncates')),
    );
  });

  it('--json keeps events unchanged and adds structured details', () => {
    const report = JSON.parse(runSimCli(['--preset', 'chapter', '--json']).stdout) as {
      events: string[];
      details: { t: number; kind: string; subjects: string[]; values: Record<string, unknown>; lines: string[]; text: string }[];
    };
    expect(report.events).toEqual(plain.filter((l) => l.startsWith('t=')));
    expect(report.details.length).toBeGreaterThan(0);
    const kinds = new Set(report.details.map((d) => d.kind));
    for (const k of ['leader-append', 'append-accepted', 'append-rejected', 'truncated', 'commit-advanced', 'applied', 'dropped'])
      expect(kinds).toContain(k);
    expect(report.details[0]).toEqual({
      t: 1180,
      kind: 'dropped',
      subjects: ['n4', 'n2'],
      values: { from: 'n4', to: 'n2', message: 'AppendReply', reason: 'down', sentAt: 1174 },
      lines: ['net.drop.down'],
      text: 'AppendReply n4 -> n2 (sent t=1174 ms) dropped: n2 is down',
    });
  });
});
