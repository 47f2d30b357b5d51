// Rules tier for the snapshots feature, named by the dissertation's section (Ongaro 2014, §5.1
// "Snapshotting memory-based state machines"): a RaftNode driven through a fake host, then whole
// runs for the restart rule, the invariants and the preset.
import { describe, expect, it } from 'vitest';
import { configFromFields, DEFAULT_CONFIG, checkConfig } from '../src/sim/model/config';
import { commandText } from '../src/sim/model/describe';
import type { DetailBody, EventKind } from '../src/sim/model/events';
import { NO_FEATURES, type NodeFeatures } from '../src/sim/model/features';
import { attachInvariants } from '../src/sim/check/invariants';
import { RaftNode, type NodeBugs, type NodeHost } from '../src/sim/raft/node';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import type { AppendEntries, InstallSnapshot, InstallSnapshotReply, LogEntry, RaftMessage, SnapshotState } from '../src/sim/model/types';
import { decodeLink, encodeLink } from '../src/share/link';
import { buildRunTrace } from '../src/sim/view/traceJson';
import { messageKind } from '../src/paint/messageShapes';

interface Sent {
  readonly dst: string;
  readonly msg: RaftMessage;
}

const STATE: SnapshotState = Object.freeze({ locks: Object.freeze([{ key: 'k1', owner: 'A', token: 3, leaseMs: 500 }]), nextToken: 4 });

class Host implements NodeHost {
  nowMs = 0;
  heartbeatMs = 50;
  electionTimeoutMinMs = 150;
  snapshotEvery = 4;
  sent: Sent[] = [];
  applied: number[] = [];
  details: DetailBody[] = [];
  restored: (SnapshotState | null)[] = [];
  recordDetails = true;
  constructor(
    readonly features: NodeFeatures,
    readonly bugs: NodeBugs = { figure8: false, noLogCheck: false, staleAppendReply: false },
  ) {}
  randomElectionTimeout(): number {
    return 200;
  }
  send(_src: string, dst: string, msg: RaftMessage): void {
    this.sent.push({ dst, msg });
  }
  logEvent(_text: string, _kind: EventKind): void {}
  recordLeader(): void {}
  onCommitted(_node: RaftNode, index: number, _entry: LogEntry): void {
    this.applied.push(index);
  }
  detail(body: DetailBody): void {
    this.details.push(body);
  }
  snapshotStateOf(): SnapshotState {
    return STATE;
  }
  restoreSnapshotState(_node: RaftNode, state: SnapshotState | null): void {
    this.restored.push(state);
  }
  take(): Sent[] {
    const out = this.sent;
    this.sent = [];
    return out;
  }
}

const PEERS = ['n2', 'n3', 'n4', 'n5'];
const SNAPSHOTS: NodeFeatures = { ...NO_FEATURES, snapshots: true };

function makeNode(features: NodeFeatures, logTerms: number[] = [], bugs: Partial<NodeBugs> = {}) {
  const host = new Host(features, { figure8: false, noLogCheck: false, staleAppendReply: false, ...bugs });
  const node = new RaftNode('n1', 0, PEERS, host);
  node.log = logTerms.map((term, i) => ({ term, command: `c${i + 1}` }));
  node.term = logTerms.length > 0 ? logTerms[logTerms.length - 1] : 0;
  return { host, node };
}

/** A follower that heard `commit` from a leader of `term` and applied up to it. */
function commitTo(node: RaftNode, term: number, commit: number): void {
  node.onMessage('n2', {
    type: 'AppendEntries',
    term,
    leader: 'n2',
    prevLogIndex: node.lastLogIndex,
    prevLogTerm: node.lastLogTerm,
    entries: [],
    leaderCommit: commit,
  });
}

function leaderWithSnapshot(logTerms: number[], commit: number) {
  const { host, node } = makeNode(SNAPSHOTS, logTerms);
  commitTo(node, node.term, commit);
  node.becomeCandidate();
  for (const peer of ['n2', 'n3']) node.onMessage(peer, { type: 'VoteReply', term: node.term, granted: true });
  expect(node.role).toBe('leader');
  host.take();
  return { host, node };
}

const snapshotMsg = (index: number, term: number, leaderTerm = term): InstallSnapshot => ({
  type: 'InstallSnapshot',
  term: leaderTerm,
  leader: 'n2',
  snapshot: Object.freeze({ index, term, state: STATE }),
});

describe('§5.1 a node compacts what it has applied', () => {
  it('after snapshotEvery applied entries, the prefix becomes a snapshot; indexes stay global', () => {
    const { node, host } = makeNode(SNAPSHOTS, [1, 1, 1, 1, 1, 1]);
    commitTo(node, 1, 5);
    expect(host.applied).toEqual([1, 2, 3, 4, 5]);
    expect(node.snapshotIndex).toBe(5);
    expect(node.snapshotTerm).toBe(1);
    expect(node.snapshot).toEqual({ index: 5, term: 1, state: STATE });
    expect(node.log.map((e) => commandText(e.command))).toEqual(['c6']);
    expect(node.lastLogIndex).toBe(6);
    expect(node.entryAt(6)?.command).toBe('c6');
    expect(node.entryAt(5)).toBeUndefined();
    expect(node.termAt(5)).toBe(1);
    expect(host.details.find((d) => d.kind === 'snapshot-taken')?.values).toMatchObject({ index: 5, removed: 5, commitIndex: 5 });
  });

  it('below the threshold nothing is compacted', () => {
    const { node } = makeNode(SNAPSHOTS, [1, 1, 1, 1]);
    commitTo(node, 1, 3);
    expect(node.snapshot).toBeNull();
    expect(node.log).toHaveLength(4);
  });

  it('without the feature a node never compacts', () => {
    const { node } = makeNode(NO_FEATURES, [1, 1, 1, 1, 1, 1]);
    commitTo(node, 1, 6);
    expect(node.snapshot).toBeNull();
    expect(node.snapshotIndex).toBe(0);
    expect(node.log).toHaveLength(6);
  });

  it('never past the commit index; with the compact-uncommitted bug it compacts the uncommitted tail (the negative control)', () => {
    const good = makeNode(SNAPSHOTS, [1, 1, 1, 1, 1, 1]);
    commitTo(good.node, 1, 4);
    expect(good.node.snapshotIndex).toBe(4);
    expect(good.node.snapshotIndex).toBeLessThanOrEqual(good.node.commitIndex);
    const bad = makeNode(SNAPSHOTS, [1, 1, 1, 1, 1, 1], { compactUncommitted: true });
    commitTo(bad.node, 1, 4);
    expect(bad.node.snapshotIndex).toBe(6);
    expect(bad.node.commitIndex).toBe(4);
  });
});

describe('§5.1 the leader sends InstallSnapshot to a follower it compacted past', () => {
  it('a follower whose next entry is in the snapshot gets the snapshot, then AppendEntries after it', () => {
    const { node, host } = leaderWithSnapshot([1, 1, 1, 1, 1, 1], 5);
    expect(node.snapshotIndex).toBe(5);
    // n2 refuses: nextIndex backs up from 7 to 6, whose predecessor is the snapshot's last entry...
    node.onMessage('n2', { type: 'AppendReply', term: node.term, success: false, matchIndex: 0 });
    const first = host.take().find((s) => s.dst === 'n2')?.msg as AppendEntries;
    expect(first).toMatchObject({ type: 'AppendEntries', prevLogIndex: 5, prevLogTerm: 1 });
    // ...and refuses again: nextIndex 5 is inside the snapshot, so the snapshot goes instead.
    node.onMessage('n2', { type: 'AppendReply', term: node.term, success: false, matchIndex: 0 });
    const sent = host
      .take()
      .filter((s) => s.dst === 'n2')
      .map((s) => s.msg);
    expect(sent.at(-1)).toMatchObject({ type: 'InstallSnapshot', term: node.term, leader: 'n1', snapshot: { index: 5, term: 1 } });
    const reply: InstallSnapshotReply = { type: 'InstallSnapshotReply', term: node.term, matchIndex: 5 };
    node.onMessage('n2', reply);
    expect(node.matchIndexOf('n2')).toBe(5);
    expect(node.nextIndexOf('n2')).toBe(6);
    node.broadcastAppend();
    const next = host.take().find((s) => s.dst === 'n2')?.msg as AppendEntries;
    // The entry after the snapshot names the snapshot's last included index and term as its predecessor.
    expect(next).toMatchObject({ type: 'AppendEntries', prevLogIndex: 5, prevLogTerm: 1 });
    expect(next.entries.map((e) => commandText(e.command))).toEqual(['c6']);
  });

  it('without the feature a leader backs up to index 1 and sends entries, never a snapshot', () => {
    const { node, host } = makeNode(NO_FEATURES, [1, 1, 1]);
    commitTo(node, 1, 3);
    node.becomeCandidate();
    for (const peer of ['n2', 'n3']) node.onMessage(peer, { type: 'VoteReply', term: node.term, granted: true });
    host.take();
    for (let i = 0; i < 4; i++) node.onMessage('n2', { type: 'AppendReply', term: node.term, success: false, matchIndex: 0 });
    const types = host.take().map((s) => s.msg.type);
    expect(types).not.toContain('InstallSnapshot');
    expect(node.nextIndexOf('n2')).toBe(1);
  });
});

describe('§5.1 a follower installs the snapshot', () => {
  it('keeps the suffix after the snapshot when its entry there has the snapshot term', () => {
    const { node, host } = makeNode(SNAPSHOTS, [1, 1, 1, 2, 2]);
    node.onMessage('n2', snapshotMsg(3, 1, 2));
    const reply = host.take().find((s) => s.dst === 'n2')?.msg;
    expect(reply).toEqual({ type: 'InstallSnapshotReply', term: 2, matchIndex: 3 });
    expect(node.snapshotIndex).toBe(3);
    expect(node.log.map((e) => e.term)).toEqual([2, 2]);
    expect(node.lastLogIndex).toBe(5);
    expect(node.commitIndex).toBe(3);
    expect(node.lastApplied).toBe(3);
    expect(host.restored).toEqual([STATE]);
    expect(host.details.find((d) => d.kind === 'snapshot-installed')?.lines).toEqual(['snap.install.keep-suffix']);
  });

  it('discards its whole log when the entry at the snapshot index conflicts (or is missing)', () => {
    const { node, host } = makeNode(SNAPSHOTS, [1, 1, 1, 2, 2]);
    node.onMessage('n2', snapshotMsg(4, 3, 3));
    expect(node.snapshotIndex).toBe(4);
    expect(node.snapshotTerm).toBe(3);
    expect(node.log).toEqual([]);
    expect(node.lastLogIndex).toBe(4);
    expect(node.lastLogTerm).toBe(3);
    expect(host.details.find((d) => d.kind === 'snapshot-installed')?.lines).toEqual(['snap.install.discard']);
  });

  it('ignores a snapshot it already covers by its commit index, but still answers', () => {
    const { node, host } = makeNode(SNAPSHOTS, [1, 1, 1]);
    commitTo(node, 1, 3);
    host.take();
    node.onMessage('n2', snapshotMsg(2, 1));
    expect(node.snapshot).toBeNull();
    expect(node.log).toHaveLength(3);
    expect(host.take().at(-1)?.msg).toEqual({ type: 'InstallSnapshotReply', term: 1, matchIndex: 2 });
  });

  it('refuses a snapshot of an older term', () => {
    const { node, host } = makeNode(SNAPSHOTS, [1, 3]);
    node.onMessage('n2', snapshotMsg(5, 2, 2));
    expect(node.snapshot).toBeNull();
    expect(host.take().at(-1)?.msg).toEqual({ type: 'InstallSnapshotReply', term: 3, matchIndex: 0 });
  });

  it('accepts AppendEntries whose entries start inside its snapshot, appending only the ones after it', () => {
    const { node } = makeNode(SNAPSHOTS, []);
    node.onMessage('n2', snapshotMsg(4, 1));
    node.onMessage('n2', {
      type: 'AppendEntries',
      term: 1,
      leader: 'n2',
      prevLogIndex: 2,
      prevLogTerm: 1,
      entries: [
        { term: 1, command: 'c3' },
        { term: 1, command: 'c4' },
        { term: 1, command: 'c5' },
      ],
      leaderCommit: 4,
    });
    expect(node.log.map((e) => commandText(e.command))).toEqual(['c5']);
    expect(node.lastLogIndex).toBe(5);
  });
});

describe('§5.1 a restarted node starts from its snapshot', () => {
  const schedule = (extra: string) => parseSchedule(`@300 submit a; @350 submit b; @400 submit c; @450 submit d; @500 submit e${extra}`);

  it('its commit index and state come back at the snapshot, never below', () => {
    const config = { ...DEFAULT_CONFIG, clientIds: ['A'], features: ['snapshots' as const], snapshotEvery: 3 };
    const sim = new Simulation(config, [
      ...schedule(''),
      ...parseSchedule('@600 client A acquire k1 5000; @1200 crash n3; @1300 restart n3'),
    ]);
    sim.advanceTo(1299);
    const n3 = sim.cluster.node('n3');
    const snapshot = n3.snapshot;
    expect(snapshot).not.toBeNull();
    sim.advanceTo(1300);
    expect(n3.commitIndex).toBe(snapshot?.index);
    expect(n3.lastApplied).toBe(snapshot?.index);
    const table = sim.lockService?.machineOf(n3);
    expect(table?.nextToken).toBe(snapshot?.state?.nextToken);
    expect([...(table?.locks.keys() ?? [])]).toEqual(snapshot?.state?.locks.map((l) => l.key));
  });

  it('without the feature its commit index restarts at 0 (the chapter)', () => {
    const sim = new Simulation({ ...DEFAULT_CONFIG }, [...schedule(''), ...parseSchedule('@1200 crash n3; @1300 restart n3')]);
    sim.advanceTo(1300);
    expect(sim.cluster.node('n3').commitIndex).toBe(0);
  });
});

describe('snapshots: configuration, invariants and the preset', () => {
  it('the threshold is checked with one sentence, and carried in links (left out at the default)', () => {
    expect(configFromFields(DEFAULT_CONFIG, { snapshotEvery: '0' })).toBe(
      'The snapshot threshold must be a whole number of entries from 1 to 1000, not "0".',
    );
    expect(checkConfig({ ...DEFAULT_CONFIG, snapshotEvery: 2.5 })).toBe(
      'The snapshot threshold must be a whole number of entries from 1 to 1000, not 2.5.',
    );
    const config = configFromFields(DEFAULT_CONFIG, { features: 'snapshots', snapshotEvery: '5' });
    expect(config).toMatchObject({ snapshotEvery: 5 });
    const link = encodeLink({ config: config as never, schedule: [], atMs: 100 });
    expect(link).toContain('snapshot=5');
    const back = decodeLink(link);
    expect(back.ok && back.spec.config.snapshotEvery).toBe(5);
    expect(configFromFields(DEFAULT_CONFIG, { snapshotEvery: '8' })).not.toHaveProperty('snapshotEvery');
  });

  it('a run with snapshots holds every invariant; the same run with compact-uncommitted breaks "a snapshot covers only committed entries"', () => {
    const schedule = parseSchedule(
      '@3138 submit v6 to n4; @3138 submit v7; @4185 client C acquire k1 37; @6607 submit v13 to n4; @6607 submit v14; @6607 submit v15',
    );
    const base = {
      seed: 3830206549,
      nodeIds: ['n1', 'n2', 'n3', 'n4', 'n5'],
      electionTimeoutMs: [109, 252] as const,
      heartbeatMs: 24,
      latencyMs: [3, 32] as const,
      clientIds: ['A', 'B', 'C'],
      features: ['pre-vote' as const, 'check-quorum' as const, 'snapshots' as const],
      snapshotEvery: 6,
    };
    for (const bugs of [[], ['compact-uncommitted' as const]]) {
      const sim = new Simulation({ ...base, bugs }, schedule);
      const checker = attachInvariants(sim);
      sim.advanceTo(6629);
      expect(sim.cluster.nodes.some((n) => n.snapshot !== null)).toBe(true);
      if (bugs.length === 0) expect(checker.violations).toEqual([]);
      else expect(checker.first?.invariant).toBe('snapshot-committed');
    }
  });

  it('a snapshot whose state or term differs from the committed log is caught (hand-built violations)', () => {
    const schedule = parseSchedule('@300 client A acquire k1 5000; @400 submit a; @450 submit b; @500 submit c; @550 submit d');
    const make = () => {
      const sim = new Simulation({ ...DEFAULT_CONFIG, clientIds: ['A'], features: ['snapshots'], snapshotEvery: 3 }, schedule);
      const checker = attachInvariants(sim);
      sim.advanceTo(1500);
      expect(checker.violations).toEqual([]);
      const node = sim.cluster.nodes.find((n) => n.snapshot !== null && n.snapshot.state !== null && n.snapshot.state.locks.length > 0)!;
      expect(node).toBeDefined();
      return { sim, checker, node, snap: node.snapshot! };
    };
    const a = make();
    a.node.snapshot = Object.freeze({ ...a.snap, state: Object.freeze({ ...a.snap.state!, nextToken: a.snap.state!.nextToken + 1 }) });
    a.checker.check();
    expect(a.checker.first?.invariant).toBe('snapshot-state');
    expect(a.checker.first?.sentence).toContain(`its next token is ${a.snap.state!.nextToken + 1}, not ${a.snap.state!.nextToken}`);
    const b = make();
    b.node.snapshot = Object.freeze({ ...b.snap, term: b.snap.term + 5 });
    b.checker.check();
    expect(b.checker.first?.invariant).toBe('snapshot-matching');
  });

  it('the preset: without snapshots n5 is sent all 20 entries; with them one InstallSnapshot and the tail', () => {
    const preset = findPreset('snapshot-catch-up');
    expect(preset).not.toBeNull();
    const run = (features: readonly 'snapshots'[]) => {
      const sim = new Simulation({ ...preset!.config, features }, presetActions(preset!));
      const checker = attachInvariants(sim);
      sim.advanceTo(preset!.untilMs);
      expect(checker.violations).toEqual([]);
      return sim;
    };
    const off = run([]);
    expect(off.cluster.sent.InstallSnapshot ?? 0).toBe(0);
    expect(off.cluster.node('n5').log).toHaveLength(20);
    const on = run(['snapshots']);
    expect(on.cluster.sent.InstallSnapshot).toBeGreaterThan(0);
    const n5 = on.cluster.node('n5');
    expect(n5.snapshot?.index).toBe(16);
    expect(n5.log.map((e) => commandText(e.command))).toEqual(['x17', 'x18', 'x19', 'x20']);
    expect(n5.commitIndex).toBe(20);
    // Fewer rejected round trips: the leader stops backing up at its snapshot.
    expect(on.cluster.sent.AppendEntries).toBeLessThan(off.cluster.sent.AppendEntries);
  });
});

describe('snapshots in the trace and the diagrams', () => {
  it('InstallSnapshot and its reply are messages of their own in the trace, drawn as their own kinds', () => {
    const preset = findPreset('snapshot-catch-up')!;
    const trace = buildRunTrace({ ...preset.config, features: ['snapshots'] }, presetActions(preset), 3000);
    const toN5 = trace.messages.filter((m) => m.type === 'InstallSnapshot' && m.to === 'n5');
    expect(toN5.length).toBeGreaterThan(0);
    expect(toN5.some((m) => m.deliveredAt !== null)).toBe(true);
    expect(trace.messages.some((m) => m.type === 'InstallSnapshotReply' && m.from === 'n5')).toBe(true);
    expect(messageKind({ type: 'InstallSnapshot', ok: null, heartbeat: false })).toBe('snapshot');
    expect(messageKind({ type: 'InstallSnapshotReply', ok: null, heartbeat: false })).toBe('snapshot-reply');
    const off = buildRunTrace(preset.config, presetActions(preset), 3000);
    expect(off.messages.some((m) => m.type === 'InstallSnapshot')).toBe(false);
  });
});
