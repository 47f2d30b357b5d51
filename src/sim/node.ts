/**
 * One Raft server, following the paper's server rules exactly as the chapter's RaftNode has them.
 * Indices are 1-based as in the paper: `log[i - 1]` is entry `i`. `term`, `votedFor` and `log`
 * are persistent; everything else is volatile and rebuilt after a restart.
 *
 * The node is a state machine (etcd-io/raft's `Step`): messages and ticks come in, sends and
 * events go out through its host. Role changes happen only in becomeFollower/Candidate/Leader.
 */
import { describe } from './describe';
import type { DetailBody, EventKind } from './events';
import type { NodeFeatures } from './features';
import { configEntry, Membership } from './membership';
import { NOOP_COMMAND, type AppendEntries, type AppendReply, type Command, type LogEntry, type RaftMessage, type RequestVote, type Role, type VoteReply } from './types';

/** What a node needs from the cluster: time, randomness, the network and the event log. */
export interface NodeHost {
  readonly nowMs: number;
  readonly heartbeatMs: number;
  /** The shortest election timeout: how long a leader counts as heard from (§6.2, §9.6). */
  readonly electionTimeoutMinMs: number;
  /** The run's first servers: every node's configuration until its log holds a configuration entry (§4.1). */
  readonly initialServers?: readonly string[];
  randomElectionTimeout(): number;
  send(src: string, dst: string, msg: RaftMessage): void;
  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void;
  recordLeader(term: number, id: string, voters: readonly string[]): void;
  /** Entry `index` is committed and this node applies it now, in log order (lastApplied moved to it). */
  onCommitted(node: RaftNode, index: number, entry: LogEntry): void;
  readonly bugs: NodeBugs;
  /** Protocol features (src/sim/features.ts); all false is the chapter's Raft. */
  readonly features: NodeFeatures;
  /**
   * Whether detail events are recorded. Callers test it before building one, so a run that does
   * not record them pays one boolean read per site and nothing else.
   */
  readonly recordDetails: boolean;
  detail(body: DetailBody): void;
}

export interface NodeBugs {
  /** Commit earlier-term entries by counting replicas (violates Figure 8). */
  figure8: boolean;
  /** Vote without the up-to-date check (violates the election restriction, §5.4.1). */
  noLogCheck: boolean;
  /** pre-vote: the pre-candidate raises its term as a real candidate would (defeats §9.6). */
  preVoteRaisesTerm?: boolean;
  /** check-quorum: the leader counts itself twice when it checks for a majority (§6.2). */
  quorumCountsSelfTwice?: boolean;
  /** leader-noop: the new leader takes its no-op as committed before any follower holds it (§8). */
  noopCommitsAtOnce?: boolean;
  /** membership: a leader starts a second configuration change before the first commits (defeats §4.1). */
  configChangesAtOnce?: boolean;
}

export class RaftNode {
  readonly id: string;
  /** Whom this node sends to; fixed without membership changes, its configuration's servers with them. */
  peers: readonly string[];
  private readonly host: NodeHost;
  /** Position in the cluster's node order. */
  readonly index: number;

  // Persistent state (a real server fsyncs these before answering any RPC).
  term = 0;
  votedFor: string | null = null;
  log: LogEntry[] = [];

  // Volatile state.
  role: Role = 'follower';
  leaderId: string | null = null;
  commitIndex = 0;
  lastApplied = 0;
  alive = true;
  readonly votes = new Set<string>();
  /**
   * Leader state per peer, stored by peer position (`peers[i]`) so the replication hot path does
   * array reads instead of Map lookups. Like the chapter's dicts it is empty until the node first
   * leads (`hasLed`) and keeps its values after.
   */
  private nextIdx: number[];
  private matchIdx: number[];
  private peerSlot = new Map<string, number>();
  private hasLeaderState = false;
  heartbeatDue = 0;
  electionDeadline = 0;
  /** When the current election timer was last reset (for drawing the draining arc). */
  electionTimerStart = 0;
  private lastAppendReply: AppendReply | null = null;
  /** Heartbeat rounds sent while leader (the chapter's "80 heartbeats sent"). */
  heartbeatsSent = 0;
  /**
   * Pre-vote (§9.6): this follower's timer fired and it is asking whether it could win term + 1,
   * without raising its term. `preVotes` holds who said yes (itself included).
   */
  preCandidate = false;
  readonly preVotes = new Set<string>();
  /** When this node last accepted AppendEntries from a leader of its term (volatile). */
  leaderHeardMs = -1;
  /** CheckQuorum (§6.2): the leader's next check for a majority heard from, or Infinity when off. */
  quorumCheckDue = Infinity;
  /** CheckQuorum: which peers (by slot) the leader heard from since its last check. */
  private heardSince: boolean[];
  /** Membership changes (§4.1): this node's configuration, or null without the feature. */
  readonly membership: Membership | null;

  constructor(id: string, index: number, peers: readonly string[], host: NodeHost) {
    this.id = id;
    this.index = index;
    this.peers = peers;
    this.host = host;
    this.nextIdx = peers.map(() => 0);
    this.matchIdx = peers.map(() => 0);
    this.heardSince = peers.map(() => false);
    peers.forEach((peer, slot) => this.peerSlot.set(peer, slot));
    this.membership = host.features.membership ? new Membership(host.initialServers ?? []) : null;
    this.resetElectionTimer();
  }

  /** Whether this node has ever led (its nextIndex/matchIndex exist from then on). */
  get hasLed(): boolean {
    return this.hasLeaderState;
  }

  get majority(): number {
    const m = this.membership;
    return m !== null ? m.majority : ((this.peers.length + 1) >> 1) + 1;
  }

  /** The leader's next index for `peer`; lastLogIndex + 1 before this node first led. */
  nextIndexOf(peer: string): number {
    const slot = this.peerSlot.get(peer);
    return slot === undefined || !this.hasLeaderState ? this.lastLogIndex + 1 : this.nextIdx[slot];
  }

  /** The highest index the leader knows `peer` holds; 0 before this node first led. */
  matchIndexOf(peer: string): number {
    const slot = this.peerSlot.get(peer);
    return slot === undefined || !this.hasLeaderState ? 0 : this.matchIdx[slot];
  }

  get lastLogIndex(): number {
    return this.log.length;
  }

  get lastLogTerm(): number {
    const n = this.log.length;
    return n > 0 ? this.log[n - 1].term : 0;
  }

  resetElectionTimer(): void {
    const now = this.host.nowMs;
    this.electionTimerStart = now;
    this.electionDeadline = now + this.host.randomElectionTimeout();
  }

  /** One simulated millisecond: a leader heartbeats, everyone else watches the timer. */
  tick(): void {
    if (!this.alive) return;
    const now = this.host.nowMs;
    if (this.role === 'leader') {
      if (now >= this.quorumCheckDue) this.checkQuorum();
      if (this.role === 'leader' && now >= this.heartbeatDue) {
        this.heartbeatsSent++;
        this.broadcastAppend();
      }
    } else if (now >= this.electionDeadline) {
      this.startElection();
    }
  }

  /** The election timer fired (or was forced to): campaign, or with pre-vote ask first (§9.6). */
  startElection(): void {
    if (this.membership !== null && this.membership.removedFor(this.id, this.commitIndex)) {
      this.sitOut();
      return;
    }
    if (this.host.features.preVote) this.becomePreCandidate();
    else this.becomeCandidate();
  }

  /**
   * The earliest time at which tick() does something (Infinity while down), so a driver can
   * skip the quiet milliseconds before it. Must mirror tick() exactly.
   */
  nextTickDue(): number {
    if (!this.alive) return Infinity;
    if (this.role !== 'leader') return this.electionDeadline;
    return this.heartbeatDue < this.quorumCheckDue ? this.heartbeatDue : this.quorumCheckDue;
  }

  /** The timer fired without a heartbeat: new term, vote for self, ask everyone else. */
  becomeCandidate(): void {
    this.term += 1;
    this.role = 'candidate';
    this.preCandidate = false;
    this.votedFor = this.id;
    this.leaderId = null;
    this.votes.clear();
    this.votes.add(this.id);
    this.resetElectionTimer();
    this.host.logEvent(describe.electionTimeout(this.id, this.term), 'election', [this.id]);
    const request: RequestVote = {
      type: 'RequestVote',
      term: this.term,
      candidate: this.id,
      lastLogIndex: this.lastLogIndex,
      lastLogTerm: this.lastLogTerm,
    };
    for (const peer of this.peers) this.host.send(this.id, peer, request);
    this.maybeBecomeLeader();
  }

  /** Rule for all servers: a higher term makes this node's term, vote and role stale. */
  becomeFollower(term: number): void {
    if (term > this.term) {
      this.term = term;
      this.votedFor = null;
    }
    if (this.role !== 'follower') {
      this.host.logEvent(describe.stepsDown(this.id, term), 'step-down', [this.id]);
      if (this.role === 'leader' && this.membership !== null) this.leaveLeadership();
    }
    this.role = 'follower';
    this.leaderId = null;
    this.preCandidate = false;
  }

  /**
   * Pre-vote (§9.6): ask every peer whether it would vote for this node in term + 1, keeping
   * the term as it is; only a majority of yeses starts the real election. A node cut off from a
   * majority so never raises its term, and cannot depose a leader when it rejoins.
   */
  becomePreCandidate(): void {
    if (this.host.bugs.preVoteRaisesTerm) {
      // The bug: the pre-candidate raises its term, as a real candidate would.
      this.term += 1;
      this.votedFor = null;
    }
    this.role = 'follower';
    this.leaderId = null;
    this.preCandidate = true;
    this.preVotes.clear();
    this.preVotes.add(this.id);
    this.resetElectionTimer(); // a pre-vote that fails is retried when the timer fires again
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'pre-vote-started',
        subjects: [this.id],
        values: { node: this.id, term: this.term, preVoteTerm: this.term + 1, lastLogIndex: this.lastLogIndex, lastLogTerm: this.lastLogTerm },
        lines: ['prevote.start'],
      });
    }
    const request: RequestVote = {
      type: 'RequestVote',
      term: this.term + 1,
      candidate: this.id,
      lastLogIndex: this.lastLogIndex,
      lastLogTerm: this.lastLogTerm,
      preVote: true,
    };
    for (const peer of this.peers) this.host.send(this.id, peer, request);
    this.maybeWinPreVote();
  }

  private maybeWinPreVote(): void {
    if ((this.membership !== null ? this.membership.countVoters(this.preVotes) : this.preVotes.size) < this.majority) return;
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'pre-vote-won',
        subjects: [this.id],
        values: { node: this.id, term: this.term + 1, voters: [...this.preVotes].sort(), majority: this.majority },
        lines: ['prevote.win'],
      });
    }
    this.becomeCandidate();
  }

  /**
   * Whether this node counts as hearing from a leader: it is one, or it accepted AppendEntries
   * from one within the shortest election timeout (§6.2's and §9.6's lease on votes).
   */
  private hearsLeader(): boolean {
    return this.role === 'leader' || (this.leaderId !== null && this.host.nowMs - this.leaderHeardMs < this.host.electionTimeoutMinMs);
  }

  /**
   * CheckQuorum (§6.2): once per shortest election timeout the leader counts the peers it heard
   * from since the last check; without a majority (itself included) it steps down, so a leader
   * cut off in a minority stops taking requests instead of leading a term nobody follows.
   */
  private checkQuorum(): void {
    const heard = this.heardSince;
    let count = this.host.bugs.quorumCountsSelfTwice ? 2 : 1;
    const m = this.membership;
    if (m !== null) {
      // §4.1: only the configuration's voters count (not a learner, nor this leader if removing itself).
      if (!m.isVoter(this.id)) count--;
      for (let slot = 0; slot < heard.length; slot++) if (heard[slot] && m.isVoter(this.peers[slot])) count++;
    } else for (let slot = 0; slot < heard.length; slot++) if (heard[slot]) count++;
    const now = this.host.nowMs;
    if (count >= this.majority) {
      heard.fill(false);
      this.quorumCheckDue = now + this.host.electionTimeoutMinMs;
      return;
    }
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'quorum-lost',
        subjects: [this.id],
        values: { node: this.id, term: this.term, heard: count, majority: this.majority, sinceMs: now - this.host.electionTimeoutMinMs },
        lines: ['cq.step-down'],
      });
    }
    this.quorumCheckDue = Infinity;
    this.becomeFollower(this.term);
    this.resetElectionTimer(); // a leader has no election timer running: it starts one now
  }

  private maybeBecomeLeader(): void {
    if ((this.membership !== null ? this.membership.countVoters(this.votes) : this.votes.size) < this.majority) return;
    this.becomeLeader();
  }

  private becomeLeader(): void {
    this.role = 'leader';
    this.leaderId = this.id;
    if (this.membership !== null) this.setPeers(this.membership.peersOf(this.id, true, this.commitIndex));
    const next = this.lastLogIndex + 1;
    this.nextIdx.fill(next);
    this.matchIdx.fill(0);
    this.hasLeaderState = true;
    this.host.recordLeader(this.term, this.id, [...this.votes].sort());
    const features = this.host.features;
    if (features.checkQuorum) {
      this.heardSince.fill(false);
      this.quorumCheckDue = this.host.nowMs + this.host.electionTimeoutMinMs;
    }
    if (features.leaderNoop) this.appendNoop();
    this.broadcastAppend(); // the first heartbeat stops everyone else's timer
  }

  /**
   * §8: a new leader cannot know which of its entries are committed, and Figure 8's rule lets it
   * commit an earlier term's entry only once an entry of its own term is on a majority. A no-op
   * of its term, appended at once, makes that happen without waiting for a client.
   */
  private appendNoop(): void {
    this.log.push(Object.freeze({ term: this.term, command: NOOP_COMMAND }));
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'leader-append',
        subjects: [this.id],
        values: { node: this.id, term: this.term, index: this.log.length, command: NOOP_COMMAND },
        lines: ['leader.noop'],
      });
    }
    if (this.host.bugs.noopCommitsAtOnce) {
      // The bug: the no-op (and so everything before it) counts as committed before anyone has it.
      this.commitIndex = this.log.length;
      this.applyCommitted();
    }
  }

  /** Dispatch one delivered message; the reply (if any) goes back to the sender. */
  onMessage(src: string, msg: RaftMessage): void {
    if (!this.alive) return;
    if (msg.term > this.term) {
      if (!this.keepsTermFor(msg)) this.becomeFollower(msg.term);
      else if (msg.type === 'RequestVote' && msg.preVote !== true) {
        // CheckQuorum (§6.2): a voter that hears from a leader ignores the request altogether.
        if (this.host.recordDetails) this.voteIgnored(msg);
        return;
      }
    }
    let reply: RaftMessage | null = null;
    switch (msg.type) {
      case 'RequestVote':
        reply = msg.preVote === true ? this.handlePreVote(msg) : this.handleRequestVote(msg);
        break;
      case 'VoteReply':
        this.handleVoteReply(src, msg);
        break;
      case 'AppendEntries':
        reply = this.handleAppendEntries(msg);
        break;
      case 'AppendReply':
        this.handleAppendReply(src, msg);
        break;
    }
    if (reply !== null) this.host.send(this.id, src, reply);
  }

  /**
   * A message of a higher term that leaves this node's term as it is: a pre-vote request (its
   * term is only proposed), a granted pre-vote (it carries the proposed term), and with
   * CheckQuorum a RequestVote while this node hears from a leader.
   */
  private keepsTermFor(msg: RaftMessage): boolean {
    switch (msg.type) {
      case 'RequestVote':
        // §4.2.3 (membership) uses CheckQuorum's rule, so a removed server cannot disrupt.
        return msg.preVote === true || ((this.host.features.checkQuorum || this.membership !== null) && this.hearsLeader());
      case 'VoteReply':
        return msg.preVote === true && msg.granted;
      default:
        return false;
    }
  }

  private voteIgnored(msg: RequestVote): void {
    this.host.detail({
      kind: 'vote-ignored',
      subjects: [this.id, msg.candidate],
      values: {
        node: this.id,
        candidate: msg.candidate,
        term: this.term,
        candidateTerm: msg.term,
        leader: this.leaderId,
        heardAgoMs: this.role === 'leader' ? 0 : this.host.nowMs - this.leaderHeardMs,
        ...(this.host.features.checkQuorum ? {} : { disruption: true as const }),
      },
      lines: ['cq.ignore-vote'],
    });
  }

  /**
   * Pre-vote receiver (§9.6): yes if the proposed term is newer than ours, the candidate's log is
   * at least as up to date, and we have not heard from a leader within the shortest election
   * timeout. Nothing is recorded: no term, no vote, no timer reset.
   */
  private handlePreVote(msg: RequestVote): VoteReply {
    const myLastTerm = this.lastLogTerm;
    const upToDate = msg.lastLogTerm > myLastTerm || (msg.lastLogTerm === myLastTerm && msg.lastLogIndex >= this.lastLogIndex);
    const reason = msg.term <= this.term ? 'stale-term' : !upToDate ? 'log-not-up-to-date' : this.hearsLeader() ? 'hears-leader' : null;
    if (reason !== null && this.host.recordDetails) {
      this.host.detail({
        kind: 'pre-vote-refused',
        subjects: [this.id, msg.candidate],
        values: {
          node: this.id,
          candidate: msg.candidate,
          reason,
          term: this.term,
          preVoteTerm: msg.term,
          leader: this.leaderId,
          lastLogTerm: myLastTerm,
          lastLogIndex: this.lastLogIndex,
          candidateLastLogTerm: msg.lastLogTerm,
          candidateLastLogIndex: msg.lastLogIndex,
        },
        lines: [reason === 'stale-term' ? 'prevote.refuse.stale-term' : reason === 'log-not-up-to-date' ? 'prevote.refuse.log' : 'prevote.refuse.hears-leader'],
      });
    }
    // A yes carries the proposed term (the pre-candidate matches it to its round); a no our own.
    return reason === null ? { type: 'VoteReply', term: msg.term, granted: true, preVote: true } : { type: 'VoteReply', term: this.term, granted: false, preVote: true };
  }

  /** One vote per term, only for a candidate whose log is at least as up to date as ours (§5.4.1). */
  private handleRequestVote(msg: RequestVote): VoteReply {
    const myLastTerm = this.lastLogTerm;
    const upToDate =
      this.host.bugs.noLogCheck ||
      msg.lastLogTerm > myLastTerm ||
      (msg.lastLogTerm === myLastTerm && msg.lastLogIndex >= this.lastLogIndex);
    const granted =
      msg.term === this.term && (this.votedFor === null || this.votedFor === msg.candidate) && upToDate;
    if (granted) {
      this.votedFor = msg.candidate;
      this.resetElectionTimer(); // granting a vote counts as hearing from a leader
    } else if (this.host.recordDetails) {
      this.voteRefused(msg);
    }
    return { type: 'VoteReply', term: this.term, granted };
  }

  /** Why a vote was refused, in the order Figure 2's receiver checks: term, vote, log. */
  private voteRefused(msg: RequestVote): void {
    const reason = msg.term < this.term ? 'stale-term' : this.votedFor !== null && this.votedFor !== msg.candidate ? 'already-voted' : 'log-not-up-to-date';
    this.host.detail({
      kind: 'vote-refused',
      subjects: [this.id, msg.candidate],
      values: {
        node: this.id,
        candidate: msg.candidate,
        reason,
        term: this.term,
        candidateTerm: msg.term,
        votedFor: this.votedFor,
        lastLogTerm: this.lastLogTerm,
        lastLogIndex: this.lastLogIndex,
        candidateLastLogTerm: msg.lastLogTerm,
        candidateLastLogIndex: msg.lastLogIndex,
      },
      lines: [reason === 'stale-term' ? 'rv.refuse.stale-term' : reason === 'already-voted' ? 'rv.refuse.already-voted' : 'rv.refuse.log-not-up-to-date'],
    });
  }

  private handleVoteReply(src: string, msg: VoteReply): void {
    if (msg.preVote === true) {
      if (this.preCandidate && msg.granted && msg.term === this.term + 1) {
        this.preVotes.add(src);
        this.maybeWinPreVote();
      }
      return;
    }
    if (this.role === 'candidate' && msg.term === this.term && msg.granted) {
      this.votes.add(src);
      this.maybeBecomeLeader();
    }
  }

  /** Leader: send every follower the entries it is missing, or an empty heartbeat. */
  broadcastAppend(): void {
    this.heartbeatDue = this.host.nowMs + this.host.heartbeatMs;
    const n = this.peers.length;
    const next = this.nextIdx;
    // Peers at the same next index get the same (immutable) message: one object, one slice.
    let shared: AppendEntries | null = null;
    for (let slot = 0; slot < n; slot++) {
      if (shared === null || shared.prevLogIndex !== next[slot] - 1) shared = this.appendFor(next[slot] - 1);
      this.host.send(this.id, this.peers[slot], shared);
    }
  }

  private sendAppend(slot: number): void {
    this.host.send(this.id, this.peers[slot], this.appendFor(this.nextIdx[slot] - 1));
  }

  /** AppendEntries carrying every entry after `prevIndex` (none: a heartbeat). */
  private appendFor(prevIndex: number): AppendEntries {
    const log = this.log;
    return {
      type: 'AppendEntries',
      term: this.term,
      leader: this.id,
      prevLogIndex: prevIndex,
      prevLogTerm: prevIndex > 0 ? log[prevIndex - 1].term : 0,
      entries: prevIndex < log.length ? log.slice(prevIndex) : EMPTY,
      leaderCommit: this.commitIndex,
    };
  }

  /** Client write: append to the leader's log and replicate; returns the entry's index. */
  submit(command: Command): number {
    if (this.role !== 'leader') throw new Error(`${this.id} is not the leader`);
    // Frozen: entries never change, so checkpoints (deep copies) share them instead of copying.
    this.log.push(Object.freeze({ term: this.term, command }));
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'leader-append',
        subjects: [this.id],
        values: { node: this.id, term: this.term, index: this.log.length, command },
        lines: ['leader.append'],
      });
    }
    this.broadcastAppend();
    // Membership: a leader that alone makes its configuration's majority commits at once.
    if (this.membership !== null) this.advanceCommitByConfig(this.membership);
    return this.lastLogIndex;
  }

  private handleAppendEntries(msg: AppendEntries): AppendReply {
    const record = this.host.recordDetails;
    if (msg.term < this.term) {
      if (record) this.appendRejected(msg, 'stale-term');
      return this.appendReply(false, 0);
    }
    this.becomeFollower(msg.term); // a candidate that hears from this term's leader yields
    this.leaderId = msg.leader;
    this.leaderHeardMs = this.host.nowMs;
    this.resetElectionTimer();
    const prev = msg.prevLogIndex;
    if (prev > this.log.length || (prev > 0 && this.log[prev - 1].term !== msg.prevLogTerm)) {
      if (record) this.appendRejected(msg, prev > this.log.length ? 'prev-missing' : 'prev-term-mismatch');
      // Consistency check failed: the leader backs up one entry and retries.
      return this.appendReply(false, 0);
    }
    const entries = msg.entries;
    const lengthBefore = this.log.length;
    let truncatedTo = -1;
    for (let offset = 0; offset < entries.length; offset++) {
      const position = prev + offset;
      const entry = entries[offset];
      if (position < this.log.length && this.log[position].term !== entry.term) {
        if (record) this.truncated(msg, position, entry.term);
        truncatedTo = position;
        this.log.length = position; // conflicting tail: the leader's log wins
      }
      if (position >= this.log.length) this.log.push(entry);
    }
    const lastNew = prev + entries.length;
    if (this.membership !== null && entries.length > 0) this.refreshConfig(msg.leader);
    if (record && entries.length > 0) {
      const kept = truncatedTo >= 0 ? truncatedTo : lengthBefore;
      this.host.detail({
        kind: 'append-accepted',
        subjects: [this.id, msg.leader],
        values: { node: this.id, leader: msg.leader, term: this.term, from: prev + 1, to: lastNew, added: lastNew > kept ? lastNew - kept : 0 },
        lines: ['ae.append-new'],
      });
    }
    if (msg.leaderCommit > this.commitIndex) {
      const from = this.commitIndex;
      this.commitIndex = Math.max(this.commitIndex, Math.min(msg.leaderCommit, lastNew));
      if (record && this.commitIndex > from) {
        this.host.detail({
          kind: 'commit-advanced',
          subjects: [this.id, msg.leader],
          values: { node: this.id, from, to: this.commitIndex, term: this.term, rule: 'leader-commit', replicas: null, majority: null, leader: msg.leader, leaderCommit: msg.leaderCommit },
          lines: ['ae.commit.leader-commit'],
        });
      }
      this.applyCommitted();
    }
    return this.appendReply(true, lastNew);
  }

  private appendRejected(msg: AppendEntries, reason: 'stale-term' | 'prev-missing' | 'prev-term-mismatch'): void {
    const prev = msg.prevLogIndex;
    this.host.detail({
      kind: 'append-rejected',
      subjects: [this.id, msg.leader],
      values: {
        node: this.id,
        leader: msg.leader,
        reason,
        term: this.term,
        leaderTerm: msg.term,
        prevLogIndex: prev,
        prevLogTerm: msg.prevLogTerm,
        lastLogIndex: this.log.length,
        termAtPrev: prev > 0 && prev <= this.log.length ? this.log[prev - 1].term : null,
      },
      lines: [reason === 'stale-term' ? 'ae.reject.stale-term' : reason === 'prev-missing' ? 'ae.reject.prev-missing' : 'ae.reject.prev-term-mismatch'],
    });
  }

  /** Entry `position + 1` conflicts with the leader's: it and everything after it go (§5.3). */
  private truncated(msg: AppendEntries, position: number, leaderEntryTerm: number): void {
    this.host.detail({
      kind: 'truncated',
      subjects: [this.id, msg.leader],
      values: { node: this.id, leader: msg.leader, from: position + 1, removed: this.log.length - position, localTerm: this.log[position].term, leaderEntryTerm },
      lines: ['ae.truncate-conflict'],
    });
  }

  /** Replies are immutable, so an answer equal to the last one (a heartbeat's) is sent again as is. */
  private appendReply(success: boolean, matchIndex: number): AppendReply {
    const last = this.lastAppendReply;
    if (last !== null && last.term === this.term && last.success === success && last.matchIndex === matchIndex) return last;
    return (this.lastAppendReply = { type: 'AppendReply', term: this.term, success, matchIndex });
  }

  private handleAppendReply(src: string, msg: AppendReply): void {
    if (this.role !== 'leader' || msg.term !== this.term) return;
    const slot = this.peerSlot.get(src);
    if (slot === undefined) return;
    this.heardSince[slot] = true; // CheckQuorum counts any answer of this term (§6.2)
    if (msg.success) {
      const match = this.matchIdx[slot] > msg.matchIndex ? this.matchIdx[slot] : msg.matchIndex;
      this.matchIdx[slot] = match;
      this.nextIdx[slot] = match + 1;
      // A reply at or below the commit index changes no count that could commit anything new.
      if (match > this.commitIndex) this.advanceCommitIndex();
      if (this.membership !== null && this.membership.learners.includes(src) && this.role === 'leader') this.maybePromote(src, match);
    } else {
      const next = this.nextIdx[slot] - 1;
      this.nextIdx[slot] = next > 1 ? next : 1;
      this.sendAppend(slot); // retry one entry earlier until the logs agree
    }
  }

  /**
   * Commit the highest index a majority holds, counting only entries of the current term
   * (paper, Figure 8); older entries are committed indirectly, once a newer one is.
   */
  private advanceCommitIndex(): void {
    if (this.membership !== null) {
      this.advanceCommitByConfig(this.membership);
      return;
    }
    const log = this.log;
    const match = this.matchIdx;
    const n = match.length;
    const majority = this.majority;
    for (let index = log.length; index > this.commitIndex; index--) {
      if (log[index - 1].term !== this.term && !this.host.bugs.figure8) return;
      let replicas = 1;
      for (let slot = 0; slot < n; slot++) if (match[slot] >= index) replicas++;
      if (replicas >= majority) {
        if (this.host.recordDetails) {
          const earlier = log[index - 1].term !== this.term;
          this.host.detail({
            kind: 'commit-advanced',
            subjects: [this.id],
            values: { node: this.id, from: this.commitIndex, to: index, term: this.term, rule: earlier ? 'earlier-term-by-counting' : 'majority', replicas, majority, leader: null, leaderCommit: null },
            lines: earlier ? ['commit.earlier-term-by-counting'] : ['commit.majority'],
          });
        }
        this.commitIndex = index;
        this.applyCommitted();
        return;
      }
    }
  }

  /** Hand every committed entry not yet applied to the state machine, in log order (Figure 2). */
  applyCommitted(): void {
    while (this.lastApplied < this.commitIndex) {
      const index = ++this.lastApplied;
      this.host.onCommitted(this, index, this.log[index - 1]);
    }
  }

  // -- membership changes (§4.1, §4.2.1), only in runs with the feature ----------------------

  /**
   * Points the leader state at a new set of peers, keeping what it knew of the ones that stay;
   * a new peer starts at this node's next index (a learner at 1: it is known to be behind).
   */
  private setPeers(peers: readonly string[]): void {
    const learners = this.membership?.learners ?? NO_LEARNERS;
    const slots = new Map<string, number>();
    const next: number[] = [];
    const match: number[] = [];
    const heard: boolean[] = [];
    peers.forEach((peer, slot) => {
      slots.set(peer, slot);
      const old = this.peerSlot.get(peer);
      next.push(old !== undefined && this.hasLeaderState ? this.nextIdx[old] : learners.includes(peer) ? 1 : this.lastLogIndex + 1);
      match.push(old !== undefined ? this.matchIdx[old] : 0);
      heard.push(old !== undefined ? this.heardSince[old] : false);
    });
    this.peers = peers;
    this.peerSlot = slots;
    this.nextIdx = next;
    this.matchIdx = match;
    this.heardSince = heard;
  }

  /** No longer leading (stepped down or restarted): no learner, and peers are the voters again. */
  private leaveLeadership(): void {
    const m = this.membership as Membership;
    m.learners = [];
    this.setPeers(m.peersOf(this.id, false, this.commitIndex));
  }

  /**
   * §4.2.2: a server whose removal it knows is committed does not campaign; its timer just runs
   * again. Until then it still may (it can be needed to commit its own removal), without counting
   * its own vote.
   */
  private sitOut(): void {
    this.resetElectionTimer();
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'not-campaigning',
        subjects: [this.id],
        values: { node: this.id, term: this.term, voters: (this.membership as Membership).voters },
        lines: ['member.no-campaign'],
      });
    }
  }

  /** Entries arrived from `leader`: a configuration entry among them takes effect now (§4.1). */
  private refreshConfig(leader: string): void {
    const m = this.membership as Membership;
    if (!m.refresh(this.log)) return;
    this.setPeers(m.peersOf(this.id, false, this.commitIndex));
    if (this.host.recordDetails && m.entry !== null) this.configAppended(m, leader);
  }

  private configAppended(m: Membership, leader: string | null): void {
    const entry = m.entry;
    if (entry === null) return;
    this.host.detail({
      kind: 'config-appended',
      subjects: [this.id, entry.node],
      values: { node: this.id, term: this.term, index: m.configIndex, op: entry.op, server: entry.node, voters: entry.voters, previous: m.previous, leader, committed: this.commitIndex >= m.configIndex },
      lines: ['member.append'],
    });
  }

  /**
   * The leader starts a change (the add and remove verbs): an add first catches the server up as
   * a learner (§4.2.1), a remove appends its configuration at once. One change at a time: while
   * an entry is uncommitted or a learner catches up, it refuses (`changeBlocked` says why); the
   * change is not queued, the person asks again.
   */
  changeBlocked(): string | null {
    const m = this.membership as Membership;
    if (this.host.bugs.configChangesAtOnce) return null; // the bug: a second change goes ahead
    if (m.learners.length > 0) return `${this.id} is still catching up ${m.learners[0]} as a learner (one change at a time, §4.1)`;
    if (m.changePending(this.commitIndex)) return `${this.id}'s configuration entry at index ${m.configIndex} is not committed yet (one change at a time, §4.1)`;
    // The fix to single-server changes (Ongaro, raft-dev 2015): a new leader first commits an entry
    // of its own term, so a change an earlier leader left uncommitted cannot overlap a new one.
    if (this.commitIndex === 0 || this.log[this.commitIndex - 1].term !== this.term) return `${this.id} has not yet committed an entry of its term ${this.term} (a new leader commits one before a change; leader-noop does it at once)`;
    return null;
  }

  /** Starts a change `changeBlocked` allows. */
  proposeChange(op: 'add' | 'remove', id: string): void {
    const m = this.membership as Membership;
    if (op === 'remove') {
      this.appendConfig(configEntry(m.voters, 'remove', id));
      return;
    }
    m.learners = [...m.learners, id];
    m.learnerSinceMs = this.host.nowMs;
    this.setPeers(m.peersOf(this.id, true, this.commitIndex));
    if (this.host.recordDetails) {
      this.host.detail({ kind: 'learner-added', subjects: [this.id, id], values: { node: this.id, term: this.term, learner: id, voters: m.voters }, lines: ['member.learner'] });
    }
    this.sendAppend(this.peerSlot.get(id) as number);
  }

  /** §4.2.1: a learner that holds the leader's last entry joins, by a configuration entry. */
  private maybePromote(learner: string, match: number): void {
    if (match < this.lastLogIndex) return;
    const m = this.membership as Membership;
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'learner-promoted',
        subjects: [this.id, learner],
        values: { node: this.id, term: this.term, learner, matchIndex: match, lastLogIndex: this.lastLogIndex, sinceMs: m.learnerSinceMs },
        lines: ['member.promote'],
      });
    }
    m.learners = m.learners.filter((l) => l !== learner);
    this.appendConfig(configEntry(m.voters, 'add', learner));
  }

  /** The leader appends a configuration entry; like any server it uses it at once (§4.1). */
  private appendConfig(entry: LogEntry['command'] & { type: 'config' }): void {
    const m = this.membership as Membership;
    this.log.push(Object.freeze({ term: this.term, command: entry }));
    m.refresh(this.log);
    this.setPeers(m.peersOf(this.id, true, this.commitIndex));
    if (this.host.recordDetails) this.configAppended(m, this.id);
    this.broadcastAppend();
    // A configuration this leader alone makes a majority of commits at once.
    this.advanceCommitByConfig(m);
  }

  /**
   * Figure 8's rule, counting only the voters of the configuration in force (§4.1): this leader
   * counts itself only if it is one of them. Once its latest change commits, servers it removed
   * are no longer sent entries, and a leader that removed itself steps down (§4.2.2).
   */
  private advanceCommitByConfig(m: Membership): void {
    const log = this.log;
    const majority = m.majority;
    const selfVotes = m.isVoter(this.id) ? 1 : 0;
    for (let index = log.length; index > this.commitIndex; index--) {
      if (log[index - 1].term !== this.term && !this.host.bugs.figure8) break;
      let replicas = selfVotes;
      for (let slot = 0; slot < this.peers.length; slot++) if (this.matchIdx[slot] >= index && m.isVoter(this.peers[slot])) replicas++;
      if (replicas < majority) continue;
      if (this.host.recordDetails) {
        const earlier = log[index - 1].term !== this.term;
        this.host.detail({
          kind: 'commit-advanced',
          subjects: [this.id],
          values: { node: this.id, from: this.commitIndex, to: index, term: this.term, rule: earlier ? 'earlier-term-by-counting' : 'majority', replicas, majority, leader: null, leaderCommit: null },
          lines: earlier ? ['commit.earlier-term-by-counting', 'member.count'] : ['commit.majority', 'member.count'],
        });
      }
      const pendingBefore = m.changePending(this.commitIndex);
      this.commitIndex = index;
      this.applyCommitted();
      if (pendingBefore && !m.changePending(index)) this.changeCommitted(m);
      return;
    }
  }

  private changeCommitted(m: Membership): void {
    if (m.isVoter(this.id)) {
      // One more round tells the servers the change removed that it is committed, so they stop campaigning.
      if (m.previous.some((id) => !m.voters.includes(id))) this.broadcastAppend();
      this.setPeers(m.peersOf(this.id, true, this.commitIndex));
      return;
    }
    if (this.host.recordDetails) {
      this.host.detail({ kind: 'removed-leader-steps-down', subjects: [this.id], values: { node: this.id, term: this.term, index: m.configIndex, voters: m.voters }, lines: ['member.removed-leader'] });
    }
    this.becomeFollower(this.term);
    this.resetElectionTimer();
  }

  /**
   * Restart after a crash: persistent state kept, volatile state rebuilt. The state machine is
   * volatile too: the host resets it, and it is re-applied as commits are re-learned.
   */
  restart(forgetVote: boolean): void {
    this.alive = true;
    this.role = 'follower';
    this.leaderId = null;
    this.commitIndex = 0; // volatile: re-learned from the leader's next heartbeat
    this.lastApplied = 0;
    this.preCandidate = false;
    this.leaderHeardMs = -1;
    if (this.membership !== null) this.leaveLeadership();
    if (forgetVote) {
      // Bug `forget-vote`: a server that did not persist its term and vote.
      this.term = 0;
      this.votedFor = null;
    }
    this.resetElectionTimer();
  }
}

const EMPTY: readonly LogEntry[] = Object.freeze([]);
const NO_LEARNERS: readonly string[] = Object.freeze([]);
