// Rules tier: each of the paper's server rules on its own, named by section. A RaftNode is driven
// directly through a fake NodeHost, so every message in and every send out is visible and no
// other node, timer or network delay takes part.
import { describe, expect, it } from 'vitest';
import type { DetailBody, EventKind } from '../src/sim/model/events';
import { NO_FEATURES, type NodeFeatures } from '../src/sim/model/features';
import { RaftNode, type NodeBugs, type NodeHost } from '../src/sim/raft/node';
import type { AppendEntries, AppendReply, LogEntry, RaftMessage, RequestVote, VoteReply } from '../src/sim/model/types';
import { matchIndexMap, nextIndexMap } from './helpers/leaderState';

interface Sent {
  readonly src: string;
  readonly dst: string;
  readonly msg: RaftMessage;
}

class FakeHost implements NodeHost {
  nowMs = 0;
  heartbeatMs = 50;
  /** What randomElectionTimeout returns; every draw is counted. */
  timeoutMs = 200;
  draws = 0;
  sent: Sent[] = [];
  events: { text: string; kind: EventKind }[] = [];
  leaders: { term: number; id: string; voters: readonly string[] }[] = [];
  applied: { node: string; index: number; entry: LogEntry }[] = [];
  electionTimeoutMinMs = 150;
  bugs: NodeBugs = { figure8: false, noLogCheck: false, staleAppendReply: false };
  features: NodeFeatures = NO_FEATURES;
  recordDetails = false;
  details: DetailBody[] = [];

  randomElectionTimeout(): number {
    this.draws++;
    return this.timeoutMs;
  }
  send(src: string, dst: string, msg: RaftMessage): void {
    this.sent.push({ src, dst, msg });
  }
  logEvent(text: string, kind: EventKind): void {
    this.events.push({ text, kind });
  }
  recordLeader(term: number, id: string, voters: readonly string[]): void {
    this.leaders.push({ term, id, voters });
  }
  onCommitted(node: RaftNode, index: number, entry: LogEntry): void {
    this.applied.push({ node: node.id, index, entry });
  }
  detail(body: DetailBody): void {
    this.details.push(body);
  }
  /** Sends since the last call. */
  take(): Sent[] {
    const out = this.sent;
    this.sent = [];
    return out;
  }
}

const PEERS = ['n2', 'n3', 'n4', 'n5'];

function makeNode(options: { id?: string; peers?: string[]; term?: number; logTerms?: number[] } = {}) {
  const host = new FakeHost();
  const node = new RaftNode(options.id ?? 'n1', 0, options.peers ?? PEERS, host);
  node.term = options.term ?? 0;
  node.log = (options.logTerms ?? []).map((term, i) => ({ term, command: `c${i + 1}` }));
  return { host, node };
}

/** Times the node out and feeds it granted votes from the first peers until it leads. */
function makeLeader(options: { term?: number; logTerms?: number[]; peers?: string[] } = {}) {
  const { host, node } = makeNode({ ...options, term: (options.term ?? 1) - 1 });
  node.becomeCandidate();
  for (const peer of node.peers) {
    if (node.role === 'leader') break;
    node.onMessage(peer, voteReply(node.term, true));
  }
  expect(node.role).toBe('leader');
  host.take();
  host.events = [];
  return { host, node };
}

const requestVote = (term: number, candidate: string, lastLogIndex = 0, lastLogTerm = 0): RequestVote => ({
  type: 'RequestVote',
  term,
  candidate,
  lastLogIndex,
  lastLogTerm,
});
const voteReply = (term: number, granted: boolean): VoteReply => ({ type: 'VoteReply', term, granted });
const append = (
  term: number,
  prevLogIndex: number,
  prevLogTerm: number,
  entryTerms: number[] = [],
  leaderCommit = 0,
  leader = 'n2',
): AppendEntries => ({
  type: 'AppendEntries',
  term,
  leader,
  prevLogIndex,
  prevLogTerm,
  entries: entryTerms.map((t, i) => ({ term: t, command: `e${prevLogIndex + i + 1}` })),
  leaderCommit,
});
const appendReply = (term: number, success: boolean, matchIndex: number): AppendReply => ({
  type: 'AppendReply',
  term,
  success,
  matchIndex,
});

const terms = (node: RaftNode) => node.log.map((e) => e.term);
const only = <T extends RaftMessage['type']>(sent: Sent[], type: T) =>
  sent.filter((s) => s.msg.type === type).map((s) => ({ ...s, msg: s.msg as Extract<RaftMessage, { type: T }> }));

describe('§5.1 terms: a stale term is refused, a newer term demotes', () => {
  const stale: { name: string; msg: RaftMessage }[] = [
    { name: 'RequestVote', msg: requestVote(2, 'n2', 9, 2) },
    { name: 'AppendEntries', msg: append(2, 0, 0, [2]) },
  ];
  for (const { name, msg } of stale) {
    it(`a ${name} from term 2 at a term-3 follower is refused with term 3 and changes nothing`, () => {
      const { host, node } = makeNode({ term: 3 });
      const deadline = node.electionDeadline;
      node.onMessage('n2', msg);
      const [{ dst, msg: reply }] = host.take() as { dst: string; msg: VoteReply | AppendReply }[];
      expect(dst).toBe('n2');
      expect(reply.term).toBe(3);
      expect(reply.type === 'VoteReply' ? reply.granted : reply.success).toBe(false);
      expect(node.votedFor).toBeNull();
      expect(node.leaderId).toBeNull();
      expect(node.log).toEqual([]);
      expect(node.electionDeadline).toBe(deadline); // a stale leader does not reset the timer
    });
  }

  it("a stale VoteReply does not count toward a candidate's majority", () => {
    const { host, node } = makeNode({ term: 2 });
    node.becomeCandidate(); // term 3
    node.onMessage('n2', voteReply(2, true));
    node.onMessage('n3', voteReply(2, true));
    expect(node.role).toBe('candidate');
    expect([...node.votes]).toEqual(['n1']);
    expect(host.leaders).toEqual([]);
  });

  it("a stale AppendReply does not move a leader's matchIndex", () => {
    const { node } = makeLeader({ term: 3, logTerms: [3] });
    node.onMessage('n2', appendReply(2, true, 1));
    expect(node.matchIndexOf('n2')).toBe(0);
    expect(node.commitIndex).toBe(0);
  });

  const demoting: { name: string; msg: RaftMessage }[] = [
    { name: 'RequestVote', msg: requestVote(5, 'n3') },
    { name: 'VoteReply', msg: voteReply(5, false) },
    { name: 'AppendEntries', msg: append(5, 0, 0) },
    { name: 'AppendReply', msg: appendReply(5, false, 0) },
  ];
  for (const { name, msg } of demoting) {
    it(`a ${name} from term 5 turns a term-2 leader into a follower of term 5`, () => {
      const { host, node } = makeLeader({ term: 2 });
      node.onMessage('n3', msg);
      expect(node.role).toBe('follower');
      expect(node.term).toBe(5);
      expect(host.events.map((e) => e.text)).toEqual(['n1 steps down, follower in term 5']);
      // The vote of the old term is gone; it may vote again in term 5 (and does for n3's request).
      expect(node.votedFor).toBe(msg.type === 'RequestVote' ? 'n3' : null);
    });

    it(`a ${name} from term 5 turns a term-2 candidate into a follower of term 5`, () => {
      const { host, node } = makeNode({ term: 1 });
      node.becomeCandidate();
      host.events = [];
      node.onMessage('n3', msg);
      expect(node.role).toBe('follower');
      expect(node.term).toBe(5);
      expect(host.events.map((e) => e.text)).toEqual(['n1 steps down, follower in term 5']);
    });
  }

  it('a follower adopts a newer term silently (no step-down event)', () => {
    const { host, node } = makeNode({ term: 1 });
    node.onMessage('n2', append(4, 0, 0));
    expect(node.term).toBe(4);
    expect(node.role).toBe('follower');
    expect(host.events).toEqual([]);
  });

  it('a candidate that hears from a leader of its own term yields to it', () => {
    const { host, node } = makeNode({ term: 1 });
    node.becomeCandidate(); // term 2
    host.events = [];
    node.onMessage('n4', append(2, 0, 0, [], 0, 'n4'));
    expect(node.role).toBe('follower');
    expect(node.term).toBe(2);
    expect(node.leaderId).toBe('n4');
    expect(node.votedFor).toBe('n1'); // same term: its own vote stands
    expect(host.events.map((e) => e.text)).toEqual(['n1 steps down, follower in term 2']);
  });
});

describe('§5.2 leader election', () => {
  it('an election timeout starts a term: vote for self, one RequestVote per peer with the last log position', () => {
    const { host, node } = makeNode({ term: 3, logTerms: [1, 3] });
    host.nowMs = 500;
    node.tick(); // the deadline (200 ms) has passed
    expect(node.role).toBe('candidate');
    expect(node.term).toBe(4);
    expect(node.votedFor).toBe('n1');
    expect(host.events).toEqual([{ text: 'n1 election timeout, candidate in term 4', kind: 'election' }]);
    const requests = only(host.take(), 'RequestVote');
    expect(requests.map((s) => s.dst)).toEqual(PEERS);
    for (const r of requests) expect(r.msg).toEqual(requestVote(4, 'n1', 2, 3));
    expect(node.electionDeadline).toBe(700); // the timer is drawn again
  });

  it('the timer does not fire before its deadline', () => {
    const { host, node } = makeNode();
    host.nowMs = 199;
    node.tick();
    expect(node.role).toBe('follower');
    expect(host.sent).toEqual([]);
  });

  const votes: { name: string; votedFor: string | null; candidate: string; granted: boolean }[] = [
    { name: 'grants a vote when it has none in the term', votedFor: null, candidate: 'n2', granted: true },
    { name: 'grants the same candidate again (a retried request)', votedFor: 'n2', candidate: 'n2', granted: true },
    { name: 'refuses a second candidate in the same term', votedFor: 'n2', candidate: 'n3', granted: false },
    { name: 'refuses everyone else after voting for itself', votedFor: 'n1', candidate: 'n3', granted: false },
  ];
  for (const v of votes) {
    it(`one vote per term: ${v.name}`, () => {
      const { host, node } = makeNode({ term: 4 });
      node.votedFor = v.votedFor;
      const draws = host.draws;
      node.onMessage(v.candidate, requestVote(4, v.candidate));
      const [reply] = host.take();
      expect(reply.msg).toEqual(voteReply(4, v.granted));
      expect(node.votedFor).toBe(v.granted ? v.candidate : v.votedFor);
      // Granting a vote resets the election timer (one draw); refusing does not.
      expect(host.draws - draws).toBe(v.granted ? 1 : 0);
    });
  }

  it('one vote per term: a new term frees the vote', () => {
    const { host, node } = makeNode({ term: 4 });
    node.onMessage('n2', requestVote(4, 'n2'));
    node.onMessage('n3', requestVote(5, 'n3'));
    expect(only(host.take(), 'VoteReply').map((s) => s.msg.granted)).toEqual([true, true]);
    expect(node.votedFor).toBe('n3');
  });

  it('a majority of votes (3 of 5) makes a leader that heartbeats at once; duplicates do not count', () => {
    const { host, node } = makeNode();
    node.becomeCandidate();
    host.take();
    node.onMessage('n2', voteReply(1, true));
    node.onMessage('n2', voteReply(1, true)); // the same voter twice is still one vote
    node.onMessage('n3', voteReply(1, false));
    expect(node.role).toBe('candidate');
    node.onMessage('n4', voteReply(1, true));
    expect(node.role).toBe('leader');
    expect(host.leaders).toEqual([{ term: 1, id: 'n1', voters: ['n1', 'n2', 'n4'] }]);
    const beats = only(host.take(), 'AppendEntries');
    expect(beats.map((s) => s.dst)).toEqual(PEERS);
    for (const b of beats) expect(b.msg).toMatchObject({ term: 1, prevLogIndex: 0, entries: [] });
    for (const peer of PEERS) {
      expect(node.nextIndexOf(peer)).toBe(1);
      expect(node.matchIndexOf(peer)).toBe(0);
    }
  });

  it('a single-node cluster elects itself without messages', () => {
    const { host, node } = makeNode({ peers: [] });
    node.becomeCandidate();
    expect(node.role).toBe('leader');
    expect(host.sent).toEqual([]);
  });

  it('a leader heartbeats every heartbeatMs and counts the rounds', () => {
    const { host, node } = makeLeader();
    host.nowMs = 49;
    node.tick();
    expect(host.sent).toEqual([]);
    host.nowMs = 50;
    node.tick();
    expect(only(host.take(), 'AppendEntries')).toHaveLength(4);
    expect(node.heartbeatsSent).toBe(1);
    expect(node.heartbeatDue).toBe(100);
  });
});

describe('§5.4.1 election restriction: no vote for a candidate whose log is behind', () => {
  // The voter's log has terms [1, 2]: last term 2, last index 2.
  const cases: { name: string; lastLogIndex: number; lastLogTerm: number; granted: boolean }[] = [
    { name: 'lower last term, even with a longer log', lastLogIndex: 5, lastLogTerm: 1, granted: false },
    { name: 'same last term, shorter log', lastLogIndex: 1, lastLogTerm: 2, granted: false },
    { name: 'same last term, same length', lastLogIndex: 2, lastLogTerm: 2, granted: true },
    { name: 'same last term, longer log', lastLogIndex: 3, lastLogTerm: 2, granted: true },
    { name: 'higher last term, even with a shorter log', lastLogIndex: 1, lastLogTerm: 3, granted: true },
    { name: 'an empty log', lastLogIndex: 0, lastLogTerm: 0, granted: false },
  ];
  for (const c of cases) {
    it(`${c.granted ? 'grants' : 'refuses'}: ${c.name}`, () => {
      const { host, node } = makeNode({ term: 3, logTerms: [1, 2] });
      node.onMessage('n2', requestVote(3, 'n2', c.lastLogIndex, c.lastLogTerm));
      expect(host.take()[0].msg).toEqual(voteReply(3, c.granted));
      expect(node.votedFor).toBe(c.granted ? 'n2' : null);
    });
  }

  it('the no-log-check bug grants a stale candidate (the negative control)', () => {
    const { host, node } = makeNode({ term: 3, logTerms: [1, 2] });
    host.bugs.noLogCheck = true;
    node.onMessage('n2', requestVote(3, 'n2', 0, 0));
    expect(host.take()[0].msg).toEqual(voteReply(3, true));
  });
});

describe('§5.3 log replication: the consistency check and conflicting entries', () => {
  const checks: { name: string; logTerms: number[]; prevLogIndex: number; prevLogTerm: number; success: boolean }[] = [
    { name: 'accepts at the start of the log', logTerms: [], prevLogIndex: 0, prevLogTerm: 0, success: true },
    { name: 'accepts a matching previous entry', logTerms: [1, 2], prevLogIndex: 2, prevLogTerm: 2, success: true },
    { name: 'refuses a previous index past its log', logTerms: [1], prevLogIndex: 2, prevLogTerm: 1, success: false },
    { name: 'refuses a previous entry of another term', logTerms: [1, 1], prevLogIndex: 2, prevLogTerm: 2, success: false },
  ];
  for (const c of checks) {
    it(`the consistency check ${c.name}`, () => {
      const { host, node } = makeNode({ term: 2, logTerms: c.logTerms });
      node.onMessage('n2', append(2, c.prevLogIndex, c.prevLogTerm, [2]));
      const reply = host.take()[0].msg as AppendReply;
      expect(reply.success).toBe(c.success);
      expect(reply.matchIndex).toBe(c.success ? c.prevLogIndex + 1 : 0);
      expect(node.log.length).toBe(c.success ? c.prevLogIndex + 1 : c.logTerms.length);
      expect(node.leaderId).toBe('n2'); // the current leader is known either way
    });
  }

  it("deletes a conflicting tail and appends the leader's entries", () => {
    const { host, node } = makeNode({ term: 3, logTerms: [1, 1, 2, 2] });
    node.onMessage('n2', append(3, 1, 1, [3]));
    expect(terms(node)).toEqual([1, 3]);
    expect((host.take()[0].msg as AppendReply).matchIndex).toBe(2);
  });

  it('keeps entries past a matching (stale, shorter) AppendEntries', () => {
    const { host, node } = makeNode({ term: 1, logTerms: [1, 1, 1] });
    node.onMessage('n2', append(1, 0, 0, [1]));
    expect(terms(node)).toEqual([1, 1, 1]);
    expect(node.log[0].command).toBe('c1'); // not replaced: same index and term is the same entry
    expect((host.take()[0].msg as AppendReply).matchIndex).toBe(1);
  });

  it('a failed check makes the leader back up one entry and retry at once', () => {
    const { host, node } = makeLeader({ term: 3, logTerms: [1, 2, 3] });
    expect(node.nextIndexOf('n2')).toBe(4);
    node.onMessage('n2', appendReply(3, false, 0));
    expect(node.nextIndexOf('n2')).toBe(3);
    const [retry] = only(host.take(), 'AppendEntries');
    expect(retry.dst).toBe('n2');
    expect(retry.msg).toMatchObject({ prevLogIndex: 2, prevLogTerm: 2, entries: [{ term: 3, command: 'c3' }] });
  });

  it('backing up stops at index 1', () => {
    const { host, node } = makeLeader({ term: 2, logTerms: [1] });
    node.onMessage('n3', appendReply(2, false, 0));
    node.onMessage('n3', appendReply(2, false, 0));
    node.onMessage('n3', appendReply(2, false, 0));
    expect(node.nextIndexOf('n3')).toBe(1);
    const retries = only(host.take(), 'AppendEntries');
    expect(retries.at(-1)?.msg).toMatchObject({ prevLogIndex: 0, entries: [{ term: 1 }] });
  });

  it('a success moves matchIndex and nextIndex, and a late smaller reply cannot move them back', () => {
    const { node } = makeLeader({ term: 2, logTerms: [2, 2, 2] });
    node.onMessage('n2', appendReply(2, true, 3));
    expect([node.matchIndexOf('n2'), node.nextIndexOf('n2')]).toEqual([3, 4]);
    node.onMessage('n2', appendReply(2, true, 1));
    expect([node.matchIndexOf('n2'), node.nextIndexOf('n2')]).toEqual([3, 4]);
  });

  it("a follower commits up to the leader's commit index, but never past what it was sent", () => {
    const { node } = makeNode({ term: 2 });
    node.onMessage('n2', append(2, 0, 0, [2, 2], 5));
    expect(node.commitIndex).toBe(2);
    node.onMessage('n2', append(2, 2, 2, [], 1));
    expect(node.commitIndex).toBe(2); // never backwards
  });

  it('entries are applied in log order as the commit index passes them', () => {
    const { host, node } = makeNode({ term: 2 });
    node.onMessage('n2', append(2, 0, 0, [2, 2, 2], 2));
    expect(host.applied.map((a) => [a.index, a.entry.command])).toEqual([
      [1, 'e1'],
      [2, 'e2'],
    ]);
    expect(node.lastApplied).toBe(2);
  });

  it('peers at the same next index receive the same entries; each AppendEntries carries only what that peer lacks', () => {
    const { host, node } = makeLeader({ term: 2, logTerms: [2] });
    node.onMessage('n2', appendReply(2, true, 1));
    node.submit('x=1');
    const byPeer = new Map(only(host.take(), 'AppendEntries').map((s) => [s.dst, s.msg]));
    expect(byPeer.get('n2')).toMatchObject({ prevLogIndex: 1, entries: [{ command: 'x=1' }] });
    for (const peer of ['n3', 'n4', 'n5']) {
      expect(byPeer.get(peer)).toMatchObject({ prevLogIndex: 1, prevLogTerm: 2, entries: [{ command: 'x=1' }] });
    }
  });
});

describe('§5.4.2 / Figure 8: only current-term entries commit by counting', () => {
  it('a majority holding a previous-term entry does not commit it', () => {
    const { node } = makeLeader({ term: 4, logTerms: [2, 2] });
    node.onMessage('n2', appendReply(4, true, 2));
    node.onMessage('n3', appendReply(4, true, 2));
    node.onMessage('n4', appendReply(4, true, 2));
    expect(node.commitIndex).toBe(0);
  });

  it('it commits indirectly once a current-term entry after it reaches a majority', () => {
    const { host, node } = makeLeader({ term: 4, logTerms: [2, 2] });
    node.onMessage('n2', appendReply(4, true, 2));
    node.onMessage('n3', appendReply(4, true, 2));
    expect(node.submit('x=1')).toBe(3);
    node.onMessage('n2', appendReply(4, true, 3));
    expect(node.commitIndex).toBe(0); // 2 of 5 hold index 3
    node.onMessage('n3', appendReply(4, true, 3));
    expect(node.commitIndex).toBe(3); // 3 of 5: index 3 commits, and 1-2 with it
    expect(host.applied.map((a) => a.index)).toEqual([1, 2, 3]);
  });

  it('with the figure8 bug the leader commits a previous-term entry by counting (the negative control)', () => {
    const { host, node } = makeLeader({ term: 4, logTerms: [2, 2] });
    host.bugs.figure8 = true;
    node.onMessage('n2', appendReply(4, true, 2));
    node.onMessage('n3', appendReply(4, true, 2));
    expect(node.commitIndex).toBe(2);
  });

  it('a current-term entry on a minority stays uncommitted', () => {
    const { node } = makeLeader({ term: 1 });
    node.submit('x=1');
    node.onMessage('n2', appendReply(1, true, 1));
    expect(node.commitIndex).toBe(0);
  });
});

describe('restart (persistent and volatile state)', () => {
  it('keeps term, vote and log; resets role, leader, commit and applied index; draws a new timer', () => {
    const { host, node } = makeNode({ term: 2 });
    node.onMessage('n2', append(2, 0, 0, [2, 2], 2));
    node.onMessage('n3', requestVote(3, 'n3', 2, 2));
    expect([node.term, node.votedFor, node.commitIndex, node.lastApplied]).toEqual([3, 'n3', 2, 2]);
    node.alive = false;
    host.nowMs = 1000;
    const draws = host.draws;
    node.restart(false);
    expect(node.alive).toBe(true);
    expect(node.role).toBe('follower');
    expect(node.term).toBe(3);
    expect(node.votedFor).toBe('n3');
    expect(terms(node)).toEqual([2, 2]);
    expect(node.commitIndex).toBe(0);
    expect(node.lastApplied).toBe(0);
    expect(node.leaderId).toBeNull();
    expect(host.draws - draws).toBe(1);
    expect(node.electionDeadline).toBe(1200);
  });

  it('a restarted leader comes back a follower', () => {
    const { node } = makeLeader({ term: 2 });
    node.alive = false;
    node.restart(false);
    expect(node.role).toBe('follower');
    expect(node.term).toBe(2);
  });

  it('the forget-vote bug forgets term and vote (the negative control)', () => {
    const { node } = makeNode({ term: 5 });
    node.votedFor = 'n2';
    node.restart(true);
    expect([node.term, node.votedFor]).toEqual([0, null]);
  });

  it('a crashed node ignores messages and does not tick', () => {
    const { host, node } = makeNode({ term: 1 });
    node.alive = false;
    node.onMessage('n2', requestVote(9, 'n2'));
    host.nowMs = 10_000;
    node.tick();
    expect(node.term).toBe(1);
    expect(node.role).toBe('follower');
    expect(host.sent).toEqual([]);
  });
});

describe('leader state views', () => {
  it('nextIndex and matchIndex read as Maps over the peers once the node has led', () => {
    const { node: follower } = makeNode();
    expect(nextIndexMap(follower).size).toBe(0);
    expect(matchIndexMap(follower).get('n2')).toBeUndefined();
    expect(follower.nextIndexOf('n2')).toBe(1);
    const { node } = makeLeader({ term: 2, logTerms: [1, 2] });
    node.onMessage('n3', appendReply(2, true, 2));
    expect([...nextIndexMap(node)]).toEqual([
      ['n2', 3],
      ['n3', 3],
      ['n4', 3],
      ['n5', 3],
    ]);
    expect(Object.fromEntries(matchIndexMap(node))).toEqual({ n2: 0, n3: 2, n4: 0, n5: 0 });
    expect(matchIndexMap(node).has('n1')).toBe(false);
    expect([...matchIndexMap(node).keys()]).toEqual(PEERS);
  });

  it('an AppendReply from a node that is not a peer is ignored', () => {
    const { node } = makeLeader({ term: 2 });
    node.onMessage('n9', appendReply(2, true, 5));
    expect(node.commitIndex).toBe(0);
    expect(node.matchIndexOf('n9')).toBe(0);
  });
});
