// Rules tier for the protocol features, named by the dissertation's sections (Ongaro 2014): a
// RaftNode driven through a fake host, so every message in and every send out is visible.
import { describe, expect, it } from 'vitest';
import { commandText } from '../src/sim/model/describe';
import type { DetailBody, EventKind } from '../src/sim/model/events';
import { NO_FEATURES, type NodeFeatures } from '../src/sim/model/features';
import { LockStateMachine } from '../src/sim/service/lockStateMachine';
import { RaftNode, type NodeBugs, type NodeHost } from '../src/sim/raft/node';
import {
  NOOP_COMMAND,
  isLockCommand,
  type AppendEntries,
  type AppendReply,
  type LogEntry,
  type RaftMessage,
  type RequestVote,
  type VoteReply,
} from '../src/sim/model/types';

interface Sent {
  readonly dst: string;
  readonly msg: RaftMessage;
}

class Host implements NodeHost {
  nowMs = 0;
  heartbeatMs = 50;
  electionTimeoutMinMs = 150;
  timeoutMs = 200;
  draws = 0;
  sent: Sent[] = [];
  events: { text: string; kind: EventKind }[] = [];
  applied: { index: number; entry: LogEntry }[] = [];
  details: DetailBody[] = [];
  recordDetails = true;
  constructor(
    readonly features: NodeFeatures,
    readonly bugs: NodeBugs = { figure8: false, noLogCheck: false, staleAppendReply: false },
  ) {}
  randomElectionTimeout(): number {
    this.draws++;
    return this.timeoutMs;
  }
  send(_src: string, dst: string, msg: RaftMessage): void {
    this.sent.push({ dst, msg });
  }
  logEvent(text: string, kind: EventKind): void {
    this.events.push({ text, kind });
  }
  recordLeader(): void {}
  onCommitted(_node: RaftNode, index: number, entry: LogEntry): void {
    this.applied.push({ index, entry });
  }
  detail(body: DetailBody): void {
    this.details.push(body);
  }
  take(): Sent[] {
    const out = this.sent;
    this.sent = [];
    return out;
  }
}

const PEERS = ['n2', 'n3', 'n4', 'n5'];
const PRE_VOTE: NodeFeatures = { ...NO_FEATURES, preVote: true };
const CHECK_QUORUM: NodeFeatures = { ...NO_FEATURES, checkQuorum: true };
const NOOP: NodeFeatures = { ...NO_FEATURES, leaderNoop: true };

function makeNode(features: NodeFeatures, options: { term?: number; logTerms?: number[]; bugs?: Partial<NodeBugs> } = {}) {
  const host = new Host(features, { figure8: false, noLogCheck: false, staleAppendReply: false, ...options.bugs });
  const node = new RaftNode('n1', 0, PEERS, host);
  node.term = options.term ?? 0;
  node.log = (options.logTerms ?? []).map((term, i) => ({ term, command: `c${i + 1}` }));
  return { host, node };
}

function makeLeader(features: NodeFeatures, options: { term?: number; logTerms?: number[]; bugs?: Partial<NodeBugs> } = {}) {
  const { host, node } = makeNode({ ...features, preVote: false }, { ...options, term: (options.term ?? 1) - 1 });
  node.becomeCandidate();
  for (const peer of ['n2', 'n3']) node.onMessage(peer, { type: 'VoteReply', term: node.term, granted: true });
  expect(node.role).toBe('leader');
  // The host's features stay as asked (pre-vote was off only for the election above).
  (host as { features: NodeFeatures }).features = features;
  host.take();
  host.events = [];
  host.details = [];
  return { host, node };
}

const requestVote = (term: number, candidate: string, lastLogIndex = 0, lastLogTerm = 0, preVote = false): RequestVote =>
  preVote
    ? { type: 'RequestVote', term, candidate, lastLogIndex, lastLogTerm, preVote: true }
    : { type: 'RequestVote', term, candidate, lastLogIndex, lastLogTerm };
const preVoteReply = (term: number, granted: boolean): VoteReply => ({ type: 'VoteReply', term, granted, preVote: true });
const heartbeat = (term: number, leader = 'n2'): AppendEntries => ({
  type: 'AppendEntries',
  term,
  leader,
  prevLogIndex: 0,
  prevLogTerm: 0,
  entries: [],
  leaderCommit: 0,
});
const appendReply = (term: number, success: boolean, matchIndex: number): AppendReply => ({
  type: 'AppendReply',
  term,
  success,
  matchIndex,
});
const votes = (sent: Sent[]) => sent.filter((s) => s.msg.type === 'VoteReply').map((s) => s.msg as VoteReply);

describe('§9.6 pre-vote: a would-be candidate asks first, without raising its term', () => {
  it('a timer that fires sends PreVote for term + 1 to every peer; term, vote and role stay', () => {
    const { host, node } = makeNode(PRE_VOTE, { term: 2, logTerms: [1, 2] });
    node.votedFor = 'n3';
    host.nowMs = node.electionDeadline;
    const drawsBefore = host.draws;
    node.tick();
    const sent = host.take();
    expect(sent.map((s) => s.dst)).toEqual(PEERS);
    for (const s of sent)
      expect(s.msg).toEqual({ type: 'RequestVote', term: 3, candidate: 'n1', lastLogIndex: 2, lastLogTerm: 2, preVote: true });
    expect([node.term, node.votedFor, node.role, node.preCandidate]).toEqual([2, 'n3', 'follower', true]);
    expect(host.draws - drawsBefore).toBe(1); // the timer restarts: a failed pre-vote is retried
    expect(host.events).toEqual([]); // no chapter line: nothing the chapter knows happened yet
    expect(host.details.map((d) => d.kind)).toEqual(['pre-vote-started']);
  });

  it('a majority of pre-votes (itself and two) starts the real election for term + 1', () => {
    const { host, node } = makeNode(PRE_VOTE, { term: 2 });
    node.startElection();
    host.take();
    node.onMessage('n2', preVoteReply(3, true));
    expect(node.term).toBe(2);
    node.onMessage('n3', preVoteReply(3, true));
    expect([node.term, node.role, node.votedFor, node.preCandidate]).toEqual([3, 'candidate', 'n1', false]);
    const sent = host.take();
    expect(sent.filter((s) => s.msg.type === 'RequestVote' && s.msg.preVote === undefined)).toHaveLength(4);
    expect(host.events.map((e) => e.text)).toEqual(['n1 election timeout, candidate in term 3']);
  });

  it('refusals, duplicates and yeses for another term do not count', () => {
    const { node } = makeNode(PRE_VOTE, { term: 2 });
    node.startElection();
    node.onMessage('n2', preVoteReply(3, true));
    node.onMessage('n2', preVoteReply(3, true));
    node.onMessage('n3', preVoteReply(2, false));
    node.onMessage('n4', preVoteReply(4, true));
    expect([node.term, node.role, node.preCandidate]).toEqual([2, 'follower', true]);
    expect([...node.preVotes].sort()).toEqual(['n1', 'n2']);
  });

  it('a granted pre-vote never counts as a real vote', () => {
    const { node } = makeNode(NO_FEATURES, { term: 2 });
    node.becomeCandidate();
    node.onMessage('n2', preVoteReply(3, true));
    node.onMessage('n3', preVoteReply(3, true));
    expect(node.role).toBe('candidate');
  });

  it('a refusal with a higher term makes the pre-candidate adopt it', () => {
    const { node } = makeNode(PRE_VOTE, { term: 2 });
    node.startElection();
    node.onMessage('n2', preVoteReply(5, false));
    expect([node.term, node.role, node.preCandidate]).toEqual([5, 'follower', false]);
  });

  it('a pre-candidate that hears AppendEntries of its term follows that leader', () => {
    const { node } = makeNode(PRE_VOTE, { term: 2 });
    node.startElection();
    node.onMessage('n2', heartbeat(2));
    expect([node.preCandidate, node.leaderId]).toEqual([false, 'n2']);
  });

  it('the receiver grants with the proposed term and records nothing: no term, no vote, no timer draw', () => {
    const { host, node } = makeNode(PRE_VOTE, { term: 2, logTerms: [1] });
    const draws = host.draws;
    node.onMessage('n3', requestVote(3, 'n3', 1, 1, true));
    expect(votes(host.take())).toEqual([{ type: 'VoteReply', term: 3, granted: true, preVote: true }]);
    expect([node.term, node.votedFor, host.draws - draws]).toEqual([2, null, 0]);
  });

  it.each([
    { name: 'the proposed term is not newer', term: 2, last: [1, 1], reason: 'stale-term' },
    { name: "the candidate's log is behind", term: 3, last: [0, 0], reason: 'log-not-up-to-date' },
  ])('the receiver refuses when $name, answering with its own term', ({ term, last, reason }) => {
    const { host, node } = makeNode(PRE_VOTE, { term: 2, logTerms: [1] });
    node.onMessage('n3', requestVote(term, 'n3', last[0], last[1], true));
    expect(votes(host.take())).toEqual([{ type: 'VoteReply', term: 2, granted: false, preVote: true }]);
    expect(host.details.find((d) => d.kind === 'pre-vote-refused')?.values).toMatchObject({ reason });
  });

  it('the receiver refuses while it heard from a leader within the shortest election timeout, and grants after', () => {
    const { host, node } = makeNode(PRE_VOTE, { term: 1 });
    host.nowMs = 1000;
    node.onMessage('n2', heartbeat(1));
    host.take();
    host.nowMs = 1149;
    node.onMessage('n3', requestVote(2, 'n3', 0, 0, true));
    expect(votes(host.take())[0].granted).toBe(false);
    expect(host.details.at(-1)?.values).toMatchObject({ reason: 'hears-leader', leader: 'n2' });
    host.nowMs = 1150;
    node.onMessage('n3', requestVote(2, 'n3', 0, 0, true));
    expect(votes(host.take())[0].granted).toBe(true);
  });

  it('a leader refuses pre-votes and keeps leading', () => {
    const { host, node } = makeLeader(PRE_VOTE, { term: 2 });
    node.onMessage('n4', requestVote(3, 'n4', 5, 2, true));
    expect(votes(host.take())[0].granted).toBe(false);
    expect([node.role, node.term]).toEqual(['leader', 2]);
  });

  it('with the pre-vote-raises-term bug the pre-candidate raises its term anyway (the negative control)', () => {
    const { node } = makeNode(PRE_VOTE, { term: 2, bugs: { preVoteRaisesTerm: true } });
    node.startElection();
    expect(node.term).toBe(3);
  });
});

describe('§6.2 CheckQuorum: a leader steps down without a majority; voters ignore RequestVote while they hear a leader', () => {
  it('a leader that heard from a majority in the last shortest election timeout keeps leading', () => {
    const { host, node } = makeLeader(CHECK_QUORUM, { term: 1 });
    expect(node.quorumCheckDue).toBe(150);
    host.nowMs = 20;
    node.onMessage('n2', appendReply(1, true, 0));
    node.onMessage('n3', appendReply(1, false, 0)); // a rejection is an answer too
    host.nowMs = 150;
    node.tick();
    expect(node.role).toBe('leader');
    expect(node.quorumCheckDue).toBe(300);
    expect(node.nextTickDue()).toBe(200); // the next heartbeat (sent at 150) is due before the next check
  });

  it('a leader that heard from fewer steps down at its check, with a detail, and starts an election timer', () => {
    const { host, node } = makeLeader(CHECK_QUORUM, { term: 1 });
    host.nowMs = 20;
    node.onMessage('n2', appendReply(1, true, 0));
    host.nowMs = 149;
    node.tick();
    expect(node.role).toBe('leader');
    const draws = host.draws;
    host.nowMs = 150;
    node.tick();
    expect(node.role).toBe('follower');
    expect(node.term).toBe(1);
    expect(host.events.map((e) => e.text)).toEqual(['n1 steps down, follower in term 1']);
    expect(host.details.find((d) => d.kind === 'quorum-lost')?.values).toMatchObject({ heard: 2, majority: 3 });
    expect(host.draws - draws).toBe(1);
    expect(node.electionDeadline).toBe(350);
  });

  it('each check counts only answers since the one before', () => {
    const { host, node } = makeLeader(CHECK_QUORUM, { term: 1 });
    host.nowMs = 20;
    node.onMessage('n2', appendReply(1, true, 0));
    node.onMessage('n3', appendReply(1, true, 0));
    host.nowMs = 150;
    node.tick();
    host.nowMs = 300;
    node.tick();
    expect(node.role).toBe('follower');
  });

  it('with the quorum-counts-self-twice bug a leader hearing one peer of four stays (the negative control)', () => {
    const { host, node } = makeLeader(CHECK_QUORUM, { term: 1, bugs: { quorumCountsSelfTwice: true } });
    node.onMessage('n2', appendReply(1, true, 0));
    host.nowMs = 150;
    node.tick();
    expect(node.role).toBe('leader');
  });

  it('a follower that heard a leader less than the shortest election timeout ago ignores a higher-term RequestVote: no reply, no new term', () => {
    const { host, node } = makeNode(CHECK_QUORUM, { term: 1 });
    host.nowMs = 1000;
    node.onMessage('n2', heartbeat(1));
    host.take();
    host.nowMs = 1100;
    node.onMessage('n3', requestVote(2, 'n3'));
    expect(host.take()).toEqual([]);
    expect([node.term, node.votedFor]).toEqual([1, null]);
    expect(host.details.at(-1)).toMatchObject({ kind: 'vote-ignored', values: { heardAgoMs: 100, leader: 'n2' } });
    host.nowMs = 1150;
    node.onMessage('n3', requestVote(2, 'n3'));
    expect(votes(host.take())).toEqual([{ type: 'VoteReply', term: 2, granted: true }]);
  });

  it('a leader ignores a higher-term RequestVote with CheckQuorum, and steps down without it', () => {
    const on = makeLeader(CHECK_QUORUM, { term: 2 });
    on.node.onMessage('n4', requestVote(3, 'n4'));
    expect([on.node.role, on.node.term]).toEqual(['leader', 2]);
    const off = makeLeader(NO_FEATURES, { term: 2 });
    off.node.onMessage('n4', requestVote(3, 'n4'));
    expect([off.node.role, off.node.term]).toEqual(['follower', 3]);
  });

  it('without CheckQuorum a leader never checks (no timer, nothing due)', () => {
    const { node } = makeLeader(NO_FEATURES, { term: 1 });
    expect(node.quorumCheckDue).toBe(Infinity);
  });
});

describe('§8 leader no-op: a new leader appends an empty entry of its term', () => {
  it('the first entry after election is a no-op of the new term, and the first AppendEntries carries it', () => {
    const { host, node } = makeNode(NOOP, { term: 1, logTerms: [1, 1] });
    node.becomeCandidate();
    node.onMessage('n2', { type: 'VoteReply', term: 2, granted: true });
    node.onMessage('n3', { type: 'VoteReply', term: 2, granted: true });
    expect(node.role).toBe('leader');
    expect(node.log.at(-1)).toEqual({ term: 2, command: NOOP_COMMAND });
    const appends = host
      .take()
      .filter((s) => s.msg.type === 'AppendEntries')
      .map((s) => s.msg as AppendEntries);
    expect(appends).toHaveLength(4);
    for (const a of appends) expect(a.entries).toEqual([{ term: 2, command: NOOP_COMMAND }]);
    expect(host.details.find((d) => d.kind === 'leader-append')).toMatchObject({ lines: ['leader.noop'], values: { index: 3, term: 2 } });
  });

  it("an earlier term's entries commit as soon as the no-op is on a majority (Figure 8's rule, unchanged)", () => {
    const { host, node } = makeLeader(NOOP, { term: 2, logTerms: [1] });
    expect(node.log.map((e) => e.term)).toEqual([1, 2]);
    node.onMessage('n2', appendReply(2, true, 1));
    node.onMessage('n3', appendReply(2, true, 1));
    expect(node.commitIndex).toBe(0); // index 1 is term 1's: not by counting
    node.onMessage('n2', appendReply(2, true, 2));
    node.onMessage('n3', appendReply(2, true, 2));
    expect(node.commitIndex).toBe(2);
    expect(host.applied.map((a) => commandText(a.entry.command))).toEqual(['c1', 'no-op']);
  });

  it('the lock state machine applies a no-op as Noop, and no lock rule reads it', () => {
    const machine = new LockStateMachine();
    expect(machine.apply(NOOP_COMMAND, 0)).toEqual({ type: 'Noop' });
    expect(machine.locks.size).toBe(0);
    expect(isLockCommand(NOOP_COMMAND)).toBe(false);
    expect(commandText(NOOP_COMMAND)).toBe('no-op');
  });

  it('without the feature a new leader appends nothing', () => {
    const { node } = makeLeader(NO_FEATURES, { term: 2, logTerms: [1] });
    expect(node.log.map((e) => e.term)).toEqual([1]);
  });

  it('with the noop-commits-at-once bug the leader commits before anyone holds the no-op (the negative control)', () => {
    const { node, host } = makeNode(NOOP, { term: 1, logTerms: [1], bugs: { noopCommitsAtOnce: true } });
    node.becomeCandidate();
    node.onMessage('n2', { type: 'VoteReply', term: 2, granted: true });
    node.onMessage('n3', { type: 'VoteReply', term: 2, granted: true });
    expect(node.commitIndex).toBe(2);
    expect(host.applied).toHaveLength(2);
  });
});
