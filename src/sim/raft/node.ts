/**
 * One Raft server, following the paper's server rules exactly as the chapter's RaftNode has them.
 * Indices are 1-based as in the paper: `log[i - 1]` is entry `i`. `term`, `votedFor` and `log`
 * are persistent; everything else is volatile and rebuilt after a restart.
 *
 * The node is a state machine (etcd-io/raft's `Step`): messages and ticks come in, sends and
 * events go out through its host. Role changes happen only in becomeFollower/Candidate/Leader.
 */
import { describe } from '../model/describe';
import { backUp, conflictHint } from './fastBackup';
import type { DetailBody, EventKind } from '../model/events';
import { recordAppendAccepted, recordCommitAdvanced, recordLeaderAppend, type DetailHost } from '../model/hotDetails';
import type { NodeBugs, NodeFeatures } from '../model/features';
import { compactIfDue, installSnapshotFor } from './compaction';
import { RaftLog } from './log';
import { configEntry, Membership } from './membership';
import { Progress } from './progress';
import { majorityValue, Voters } from './quorum';
import {
  NOOP_COMMAND,
  type AppendEntries,
  type AppendReply,
  type Command,
  type InstallSnapshot,
  type InstallSnapshotReply,
  type LogEntry,
  type RaftMessage,
  type RaftSnapshot,
  type RequestVote,
  type Role,
  type SnapshotState,
  type TimeoutNow,
  type VoteReply,
} from '../model/types';

/** What a node needs from the cluster: time, randomness, the network and the event log. */
export interface NodeHost extends DetailHost {
  readonly nowMs: number;
  readonly heartbeatMs: number;
  /** The shortest election timeout: how long a leader counts as heard from (§6.2, §9.6). */
  readonly electionTimeoutMinMs: number;
  /** The run's first servers: every node's configuration until its log holds a configuration entry (§4.1). */
  readonly initialServers?: readonly string[];
  randomElectionTimeout(): number;
  /** `node`'s own clock reading (clock drift applies): what a lease is counted by (§6.4.1); the simulated time if absent. */
  localNowMs?(node: RaftNode): number;
  send(src: string, dst: string, msg: RaftMessage): void;
  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void;
  recordLeader(term: number, id: string, voters: readonly string[]): void;
  /** Entry `index` is committed and this node applies it now, in log order (lastApplied moved to it). */
  onCommitted(node: RaftNode, index: number, entry: LogEntry): void;
  readonly bugs: NodeBugs;
  /** Protocol features (src/sim/model/features/); all false is the chapter's Raft. */
  readonly features: NodeFeatures;
  /**
   * Whether detail events are recorded. Callers test it before building one, so a run that does
   * not record them pays one boolean read per site and nothing else. The kinds every entry makes
   * go through hotDetails.ts's record functions, which reach `detail` only when the host has no
   * body-free path for them.
   */
  readonly recordDetails: boolean;
  detail(body: DetailBody): void;
  /** Snapshots (§5): compact once this many entries have been applied since the last snapshot. */
  /** Absent (a host for tests of the chapter's rules): the default threshold. */
  readonly snapshotEvery?: number;
  /** The state machine's state as `node` has applied it (null, or absent, without a service on top of Raft). */
  snapshotStateOf?(node: RaftNode): SnapshotState | null;
  /** `node` installs a leader's snapshot: its state machine becomes the snapshot's. */
  restoreSnapshotState?(node: RaftNode, state: SnapshotState | null): void;
}

/** The bugs this code reads, one flag each: derived from the manifests (src/sim/model/features/). */
export type { NodeBugs };

/** Reads: how many recent heartbeat rounds' send times a leader keeps (far more than a lease lasts). */
const ROUND_MEMORY = 64;

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
  /** The log and the snapshot below it (§5); indexes stay global. */
  readonly raftLog = new RaftLog();

  // Volatile state.
  role: Role = 'follower';
  leaderId: string | null = null;
  commitIndex = 0;
  lastApplied = 0;
  alive = true;
  readonly votes = new Set<string>();
  /**
   * Leader state, one record per peer in `peers` order. Like the chapter's dicts its indexes mean
   * nothing until the node first leads (`hasLed`) and keep their values after.
   */
  private progress: Progress[];
  private progressById = new Map<string, Progress>();
  private hasLeaderState = false;
  /** Without membership changes: every server of the run, one fixed configuration. */
  private readonly fixedVoters: Voters;
  /** Whether this node counts toward its own configuration's majorities (a removed leader does not, §4.2.2). */
  private selfVoter: boolean;
  /** Scratch for counting a majority's values (at most one per server). */
  private readonly counted: number[] = [];
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
  /**
   * Reads (§6.4): the leader's heartbeat round, raised by every broadcast and carried by its
   * AppendEntries (each peer's progress keeps the newest round it answered); and when recent
   * rounds were sent, by this node's own clock (the lease counts from there, §6.4.1).
   */
  readRound = 0;
  private readonly roundSentLocal: number[];
  /**
   * Leadership transfer (§3.10): the follower this leader is handing over to (null: none), when it
   * gives up (an election timeout after it began; Infinity when none), and whether TimeoutNow went.
   */
  transferTo: string | null = null;
  transferDeadline = Infinity;
  private timeoutNowSent = false;
  /** The term this node last campaigned in on TimeoutNow (-1: never); pre-vote's invariant allows it. */
  transferTerm = -1;
  /** Bug hint-skips-check: the term of the leader this follower last sent a hint to (-1: none). */
  private hintedTerm = -1;
  /** Membership changes (§4.1): this node's configuration, or null without the feature. */
  readonly membership: Membership | null;

  constructor(id: string, index: number, peers: readonly string[], host: NodeHost) {
    this.id = id;
    this.index = index;
    this.peers = peers;
    this.host = host;
    this.roundSentLocal = host.features.reads ? new Array<number>(ROUND_MEMORY).fill(0) : [];
    this.membership = host.features.membership ? new Membership(host.initialServers ?? []) : null;
    this.fixedVoters = new Voters([id, ...peers]);
    const quorum = this.quorum;
    this.selfVoter = quorum.has(id);
    this.progress = peers.map((peer) => {
      const p = new Progress(peer);
      p.voter = quorum.has(peer);
      this.progressById.set(peer, p);
      return p;
    });
    this.resetElectionTimer();
  }

  /** The configuration in force: whose votes and answers count, and how many make a majority. */
  get quorum(): Voters {
    const m = this.membership;
    return m !== null ? m.quorum : this.fixedVoters;
  }

  /** The stored entries after the snapshot (`log[k]` is index `snapshotIndex + 1 + k`). */
  get log(): LogEntry[] {
    return this.raftLog.entries;
  }

  set log(entries: LogEntry[]) {
    this.raftLog.entries = entries;
  }

  /** Snapshots (§5): the last index and term the snapshot covers (0 and 0 without one), and the snapshot. */
  get snapshotIndex(): number {
    return this.raftLog.snapshotIndex;
  }

  get snapshotTerm(): number {
    return this.raftLog.snapshotTerm;
  }

  get snapshot(): RaftSnapshot | null {
    return this.raftLog.snapshot;
  }

  set snapshot(snapshot: RaftSnapshot | null) {
    this.raftLog.snapshot = snapshot;
  }

  /** Whether this node has ever led (its nextIndex/matchIndex exist from then on). */
  get hasLed(): boolean {
    return this.hasLeaderState;
  }

  get majority(): number {
    return this.quorum.majority;
  }

  /** The leader's next index for `peer`; lastLogIndex + 1 before this node first led. */
  nextIndexOf(peer: string): number {
    const p = this.progressById.get(peer);
    return p === undefined || !this.hasLeaderState ? this.lastLogIndex + 1 : p.next;
  }

  /** fast-backup: how many rejections in a row the leader has had from `peer` (0 without the feature). */
  backupRoundsOf(peer: string): number {
    const p = this.progressById.get(peer);
    return p === undefined ? 0 : p.backupRounds;
  }

  /** The highest index the leader knows `peer` holds; 0 before this node first led. */
  matchIndexOf(peer: string): number {
    const p = this.progressById.get(peer);
    return p === undefined || !this.hasLeaderState ? 0 : p.match;
  }

  get lastLogIndex(): number {
    return this.raftLog.lastIndex;
  }

  get lastLogTerm(): number {
    return this.raftLog.lastTerm;
  }

  /** Entry `index`, or undefined when it is past the end or compacted into the snapshot. */
  entryAt(index: number): LogEntry | undefined {
    return this.raftLog.entryAt(index);
  }

  /** The term of entry `index` (the snapshot's term at its last included index), or null if not held. */
  termAt(index: number): number | null {
    return this.raftLog.termAt(index);
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
      if (now >= this.transferDeadline) this.abortTransfer();
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
    const due = this.heartbeatDue < this.quorumCheckDue ? this.heartbeatDue : this.quorumCheckDue;
    return due < this.transferDeadline ? due : this.transferDeadline;
  }

  /** The timer fired without a heartbeat: new term, vote for self, ask everyone else. */
  becomeCandidate(transfer = false): void {
    // The bug transfer-keeps-term: on TimeoutNow the target campaigns in the leader's own term.
    if (!(transfer && this.host.bugs.transferKeepsTerm)) this.term += 1;
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
      ...(transfer ? { transfer: true as const } : {}),
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
    if (this.transferTo !== null) this.endTransfer();
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
        values: {
          node: this.id,
          term: this.term,
          preVoteTerm: this.term + 1,
          lastLogIndex: this.lastLogIndex,
          lastLogTerm: this.lastLogTerm,
        },
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
    if (!this.quorum.won(this.preVotes)) return;
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
    // §4.1: only the configuration's voters count (not a learner, nor this leader if removing itself).
    let count = this.selfVoter ? 1 : 0;
    if (this.host.bugs.quorumCountsSelfTwice) count++;
    const progress = this.progress;
    for (let slot = 0; slot < progress.length; slot++) if (progress[slot].heard && progress[slot].voter) count++;
    const now = this.host.nowMs;
    if (count >= this.majority) {
      for (let slot = 0; slot < progress.length; slot++) progress[slot].heard = false;
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
    if (!this.quorum.won(this.votes)) return;
    this.becomeLeader();
  }

  private becomeLeader(): void {
    this.role = 'leader';
    this.leaderId = this.id;
    if (this.membership !== null) this.setPeers(this.membership.peersOf(this.id, true, this.commitIndex));
    const next = this.lastLogIndex + 1;
    const progress = this.progress;
    for (let slot = 0; slot < progress.length; slot++) progress[slot].lead(next);
    this.hasLeaderState = true;
    this.host.recordLeader(this.term, this.id, [...this.votes].sort());
    const features = this.host.features;
    if (features.checkQuorum) {
      for (let slot = 0; slot < progress.length; slot++) progress[slot].heard = false;
      this.quorumCheckDue = this.host.nowMs + this.host.electionTimeoutMinMs;
    }
    if (features.leaderNoop) this.appendNoop();
    // A round counts only once answered in this term; fast-backup's count starts again.
    if (features.reads) for (let slot = 0; slot < progress.length; slot++) progress[slot].ackRound = 0;
    if (features.fastBackup) for (let slot = 0; slot < progress.length; slot++) progress[slot].backupRounds = 0;
    this.broadcastAppend(); // the first heartbeat stops everyone else's timer
  }

  /**
   * §8: a new leader cannot know which of its entries are committed, and Figure 8's rule lets it
   * commit an earlier term's entry only once an entry of its own term is on a majority. A no-op
   * of its term, appended at once, makes that happen without waiting for a client.
   */
  private appendNoop(): void {
    this.raftLog.append(Object.freeze({ term: this.term, command: NOOP_COMMAND }));
    if (this.host.recordDetails) recordLeaderAppend(this.host, this.id, this.term, this.lastLogIndex, NOOP_COMMAND, true);
    if (this.host.bugs.noopCommitsAtOnce) {
      // The bug: the no-op (and so everything before it) counts as committed before anyone has it.
      this.commitIndex = this.lastLogIndex;
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
      case 'InstallSnapshot':
        reply = this.handleInstallSnapshot(msg);
        break;
      case 'InstallSnapshotReply':
        this.handleSnapshotReply(src, msg);
        break;
      case 'TimeoutNow':
        this.handleTimeoutNow(msg);
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
        // A transfer's RequestVote is not ignored: the leader itself asked for it (§3.10, §9.6).
        // §4.2.3 (membership) uses CheckQuorum's rule, so a removed server cannot disrupt.
        return (
          msg.preVote === true ||
          ((this.host.features.checkQuorum || this.membership !== null) && msg.transfer !== true && this.hearsLeader())
        );
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
    // The bug pre-vote-ignores-leader: a voter that hears a leader says yes all the same.
    const hears = this.hearsLeader() && !this.host.bugs.preVoteIgnoresLeader;
    const reason = msg.term <= this.term ? 'stale-term' : !upToDate ? 'log-not-up-to-date' : hears ? 'hears-leader' : null;
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
        lines: [
          reason === 'stale-term'
            ? 'prevote.refuse.stale-term'
            : reason === 'log-not-up-to-date'
              ? 'prevote.refuse.log'
              : 'prevote.refuse.hears-leader',
        ],
      });
    }
    // A yes carries the proposed term (the pre-candidate matches it to its round); a no our own.
    return reason === null
      ? { type: 'VoteReply', term: msg.term, granted: true, preVote: true }
      : { type: 'VoteReply', term: this.term, granted: false, preVote: true };
  }

  /** One vote per term, only for a candidate whose log is at least as up to date as ours (§5.4.1). */
  private handleRequestVote(msg: RequestVote): VoteReply {
    const myLastTerm = this.lastLogTerm;
    const upToDate =
      this.host.bugs.noLogCheck ||
      msg.lastLogTerm > myLastTerm ||
      (msg.lastLogTerm === myLastTerm && msg.lastLogIndex >= this.lastLogIndex);
    const granted = msg.term === this.term && (this.votedFor === null || this.votedFor === msg.candidate) && upToDate;
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
    const reason =
      msg.term < this.term
        ? 'stale-term'
        : this.votedFor !== null && this.votedFor !== msg.candidate
          ? 'already-voted'
          : 'log-not-up-to-date';
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
      lines: [
        reason === 'stale-term'
          ? 'rv.refuse.stale-term'
          : reason === 'already-voted'
            ? 'rv.refuse.already-voted'
            : 'rv.refuse.log-not-up-to-date',
      ],
    });
  }

  private handleVoteReply(src: string, msg: VoteReply): void {
    if (msg.preVote === true) {
      // A yes carries the term it answers: one for an earlier round's term counts for nothing (the
      // bug pre-vote-stale-yes counts it).
      if (this.preCandidate && msg.granted && (msg.term === this.term + 1 || this.host.bugs.preVoteStaleYes === true)) {
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
    if (this.host.features.reads) this.newRound();
    const progress = this.progress;
    // Peers at the same next index get the same (immutable) message: one object, one slice.
    let shared: AppendEntries | null = null;
    const base = this.raftLog.snapshotIndex;
    for (let slot = 0; slot < progress.length; slot++) {
      const p = progress[slot];
      if (p.next <= base) {
        // Snapshots (§5.1): the entry this follower needs next is compacted away; send the snapshot.
        this.host.send(this.id, p.id, this.snapshotMessage());
        continue;
      }
      if (shared === null || shared.prevLogIndex !== p.next - 1) shared = this.appendFor(p.next - 1);
      this.host.send(this.id, p.id, shared);
    }
  }

  private sendAppend(p: Progress): void {
    const next = p.next;
    this.host.send(this.id, p.id, next <= this.raftLog.snapshotIndex ? this.snapshotMessage() : this.appendFor(next - 1));
  }

  private snapshotMessage(): InstallSnapshot {
    return installSnapshotFor(this.term, this.id, this.raftLog.snapshot as RaftSnapshot);
  }

  /** AppendEntries carrying every entry after `prevIndex` (none: a heartbeat); never below the snapshot. */
  private appendFor(prevIndex: number): AppendEntries {
    const log = this.raftLog;
    const msg: AppendEntries = {
      type: 'AppendEntries',
      term: this.term,
      leader: this.id,
      prevLogIndex: prevIndex,
      prevLogTerm: log.heldTermAt(prevIndex),
      entries: log.entriesAfter(prevIndex, EMPTY),
      leaderCommit: this.commitIndex,
    };
    return this.host.features.reads ? { ...msg, round: this.readRound } : msg;
  }

  /** This node's own clock (drift applies), in ms. */
  localNowMs(): number {
    const host = this.host;
    return host.localNowMs !== undefined ? host.localNowMs(this) : host.nowMs;
  }

  /** Reads: a new heartbeat round starts now (its send time by this node's clock kept for the lease). */
  private newRound(): void {
    const round = ++this.readRound;
    this.roundSentLocal[round % ROUND_MEMORY] = this.localNowMs();
  }

  /**
   * Reads (§6.4): the newest round a majority has answered in this term (this node counts as
   * answering every round), or 0 when none has been.
   */
  confirmedRound(): number {
    // Only the voters of the configuration in force answer for a round (not a learner, nor a
    // server being removed, nor this leader if it is removing itself, §4.1).
    const values = this.counted;
    let count = 0;
    if (this.selfVoter) values[count++] = this.readRound;
    const progress = this.progress;
    for (let slot = 0; slot < progress.length; slot++) if (progress[slot].voter) values[count++] = progress[slot].ackRound;
    return majorityValue(values, count, this.majority);
  }

  /**
   * A leader's contact with its quorum: the latest time by which a majority of the voters (this
   * leader counting as heard now) had each answered it in this term, or -Infinity. The lock
   * services on the Raft engine serve clients only while this is recent, as a ZooKeeper leader
   * abandons leadership once a quorum of followers stops answering within syncLimit.
   */
  quorumHeardSinceMs(): number {
    if (this.role !== 'leader') return -Infinity;
    const values = this.counted;
    let count = 0;
    if (this.selfVoter) values[count++] = this.host.nowMs;
    const progress = this.progress;
    for (let slot = 0; slot < progress.length; slot++) if (progress[slot].voter) values[count++] = progress[slot].heardAtMs;
    if (count < this.majority) return -Infinity;
    return majorityValue(values, count, this.majority);
  }

  /**
   * Reads (§6.4.1): when, by this node's clock, the newest round a majority answered was sent:
   * the followers that answered it reset their election timers after that. -Infinity if none.
   */
  leaseStartLocalMs(): number {
    if (this.selfVoter && this.majority === 1) return this.localNowMs(); // a majority of one: itself
    const round = this.confirmedRound();
    if (round === 0 || this.readRound - round >= ROUND_MEMORY) return -Infinity;
    return this.roundSentLocal[round % ROUND_MEMORY];
  }

  /** Client write: append to the leader's log and replicate; returns the entry's index. */
  submit(command: Command): number {
    if (this.role !== 'leader') throw new Error(`${this.id} is not the leader`);
    // Frozen: entries never change, so checkpoints (deep copies) share them instead of copying.
    this.raftLog.append(Object.freeze({ term: this.term, command }));
    if (this.host.recordDetails) recordLeaderAppend(this.host, this.id, this.term, this.lastLogIndex, command, false);
    this.broadcastAppend();
    // Membership: a leader that alone makes its configuration's majority commits at once.
    if (this.membership !== null) this.advanceCommitIndex();
    return this.lastLogIndex;
  }

  private handleAppendEntries(msg: AppendEntries): AppendReply {
    const record = this.host.recordDetails;
    if (msg.term < this.term) {
      if (record) this.appendRejected(msg, 'stale-term');
      return this.appendReply(false, 0, msg.round);
    }
    this.becomeFollower(msg.term); // a candidate that hears from this term's leader yields
    this.leaderId = msg.leader;
    this.leaderHeardMs = this.host.nowMs;
    this.resetElectionTimer();
    const prev = msg.prevLogIndex;
    const log = this.raftLog;
    // Snapshots (§5): entries up to `base` are in this node's snapshot, all committed and matching.
    const base = log.snapshotIndex;
    // The bug hint-skips-check: after a hint, the next AppendEntries of that leader goes unchecked.
    let unchecked = false;
    if (this.hintedTerm >= 0) {
      unchecked = this.hintedTerm === msg.term && prev <= log.lastIndex;
      this.hintedTerm = -1;
    }
    if (!unchecked && (prev > log.lastIndex || (prev > base && log.heldTermAt(prev) !== msg.prevLogTerm))) {
      if (this.host.features.fastBackup) return this.conflictReply(msg, record);
      if (record) this.appendRejected(msg, prev > log.lastIndex ? 'prev-missing' : 'prev-term-mismatch');
      // Consistency check failed: the leader backs up one entry and retries.
      return this.appendReply(false, 0, msg.round);
    }
    const entries = msg.entries;
    // The last index this log keeps of what it had: its end, or just before a conflict.
    let kept = log.lastIndex;
    for (let offset = prev < base ? base - prev : 0; offset < entries.length; offset++) {
      const index = prev + offset + 1;
      const entry = entries[offset];
      if (index <= log.lastIndex && log.heldTermAt(index) !== entry.term) {
        if (record) this.truncated(msg, index, entry.term);
        kept = index - 1;
        log.truncateFrom(index); // conflicting tail: the leader's log wins
      }
      if (index > log.lastIndex) log.append(entry);
    }
    const lastNew = prev + entries.length;
    if (this.membership !== null && entries.length > 0) this.refreshConfig(msg.leader);
    if (record && entries.length > 0) {
      recordAppendAccepted(this.host, this.id, msg.leader, this.term, prev + 1, lastNew, lastNew > kept ? lastNew - kept : 0);
    }
    if (msg.leaderCommit > this.commitIndex) {
      const from = this.commitIndex;
      this.commitIndex = Math.max(this.commitIndex, Math.min(msg.leaderCommit, lastNew));
      if (record && this.commitIndex > from) {
        recordCommitAdvanced(
          this.host,
          this.id,
          from,
          this.commitIndex,
          this.term,
          'leader-commit',
          null,
          null,
          msg.leader,
          msg.leaderCommit,
          false,
        );
      }
      this.applyCommitted();
    }
    return this.appendReply(true, lastNew, msg.round);
  }

  /** fast-backup (§5.3): the rejection names the conflicting term and where this log's run of it starts. */
  private conflictReply(msg: AppendEntries, record: boolean): AppendReply {
    const hint = conflictHint(this.raftLog, msg.prevLogIndex);
    if (this.host.bugs.hintSkipsCheck) this.hintedTerm = msg.term;
    if (record)
      this.appendRejected(msg, hint.conflictTerm === 0 ? 'prev-missing' : 'prev-term-mismatch', hint.conflictTerm, hint.conflictIndex);
    // Not kept as lastAppendReply: a plain rejection must not be answered with a hint.
    return {
      type: 'AppendReply',
      term: this.term,
      success: false,
      matchIndex: 0,
      conflictTerm: hint.conflictTerm,
      conflictIndex: hint.conflictIndex,
    };
  }

  private appendRejected(
    msg: AppendEntries,
    reason: 'stale-term' | 'prev-missing' | 'prev-term-mismatch',
    conflictTerm?: number,
    conflictIndex?: number,
  ): void {
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
        lastLogIndex: this.lastLogIndex,
        termAtPrev: prev > 0 ? this.termAt(prev) : null,
        ...(conflictIndex !== undefined ? { conflictTerm, conflictIndex } : {}),
      },
      lines: [
        reason === 'stale-term'
          ? 'ae.reject.stale-term'
          : reason === 'prev-missing'
            ? 'ae.reject.prev-missing'
            : 'ae.reject.prev-term-mismatch',
        ...(conflictIndex !== undefined ? (['fb.hint'] as const) : []),
      ],
    });
  }

  /** Entry `index` conflicts with the leader's: it and everything after it go (§5.3). */
  private truncated(msg: AppendEntries, index: number, leaderEntryTerm: number): void {
    const log = this.raftLog;
    this.host.detail({
      kind: 'truncated',
      subjects: [this.id, msg.leader],
      values: {
        node: this.id,
        leader: msg.leader,
        from: index,
        removed: log.lastIndex - index + 1,
        localTerm: log.heldTermAt(index),
        leaderEntryTerm,
      },
      lines: ['ae.truncate-conflict'],
    });
  }

  /** Replies are immutable, so an answer equal to the last one (a heartbeat's) is sent again as is. */
  private appendReply(success: boolean, matchIndex: number, round: number | undefined): AppendReply {
    // Reads: the reply echoes the round it answers (§6.4), so it is a new message each time.
    if (round !== undefined) return { type: 'AppendReply', term: this.term, success, matchIndex, round };
    const last = this.lastAppendReply;
    if (last !== null && last.term === this.term && last.success === success && last.matchIndex === matchIndex) return last;
    return (this.lastAppendReply = { type: 'AppendReply', term: this.term, success, matchIndex });
  }

  private handleAppendReply(src: string, msg: AppendReply): void {
    // Only an answer of this term (Figure 2); the bug stale-append-reply takes an older term's too.
    if (this.role !== 'leader' || (msg.term !== this.term && !this.host.bugs.staleAppendReply)) return;
    const p = this.progressById.get(src);
    if (p === undefined) return;
    p.heard = true; // CheckQuorum counts any answer of this term (§6.2)
    p.heardAtMs = this.host.nowMs;
    // Reads: any answer of this term confirms this node still led when the peer sent it (§6.4).
    const round = msg.round;
    if (round !== undefined && round > p.ackRound) p.ackRound = round;
    if (msg.success) {
      const match = p.acknowledge(msg.matchIndex);
      if (p.backupRounds !== 0) p.backupRounds = 0; // only ever non-zero with fast-backup
      if (this.transferTo === src && match >= this.lastLogIndex) this.sendTimeoutNow(p);
      // A reply at or below the commit index changes no count that could commit anything new.
      if (match > this.commitIndex) this.advanceCommitIndex();
      if (this.membership !== null && this.membership.learners.includes(src) && this.role === 'leader') this.maybePromote(src, match);
    } else if (this.host.features.fastBackup && msg.conflictIndex !== undefined) {
      this.fastBackUp(p, msg.conflictTerm ?? 0, msg.conflictIndex);
    } else {
      p.backOne();
      this.sendAppend(p); // retry one entry earlier until the logs agree
    }
  }

  /**
   * Follower (§5.1): a snapshot from the current leader replaces everything up to its last
   * included index, and the log keeps the suffix after it if that suffix matches (RaftLog.install).
   * The state machine becomes the snapshot's. A snapshot the node already covers (by its own
   * snapshot or its commit index) changes nothing. Either way the reply tells the leader the
   * follower holds its index.
   */
  private handleInstallSnapshot(msg: InstallSnapshot): InstallSnapshotReply {
    if (msg.term < this.term) return { type: 'InstallSnapshotReply', term: this.term, matchIndex: 0 };
    this.becomeFollower(msg.term);
    this.leaderId = msg.leader;
    this.leaderHeardMs = this.host.nowMs;
    this.resetElectionTimer();
    const snap = msg.snapshot;
    const log = this.raftLog;
    if (snap.index > this.commitIndex && snap.index > log.snapshotIndex) {
      const before = log.entries.length;
      const keptSuffix = log.install(snap, this.host.bugs.installDropsSuffix === true);
      this.commitIndex = snap.index;
      this.lastApplied = snap.index;
      this.host.restoreSnapshotState?.(this, snap.state);
      if (this.membership !== null) this.useSnapshotConfig(); // the snapshot's configuration, under any kept suffix
      if (this.host.recordDetails) {
        this.host.detail({
          kind: 'snapshot-installed',
          subjects: [this.id, msg.leader],
          values: {
            node: this.id,
            leader: msg.leader,
            index: snap.index,
            term: snap.term,
            kept: log.entries.length,
            discarded: before - log.entries.length,
          },
          lines: [keptSuffix ? 'snap.install.keep-suffix' : 'snap.install.discard'],
        });
      }
    }
    return { type: 'InstallSnapshotReply', term: this.term, matchIndex: snap.index };
  }

  /** Snapshots (§5.1): the follower holds everything up to the snapshot it installed. */
  private handleSnapshotReply(src: string, msg: InstallSnapshotReply): void {
    if (this.role !== 'leader' || msg.term !== this.term) return;
    const p = this.progressById.get(src);
    if (p === undefined) return;
    p.heard = true;
    p.heardAtMs = this.host.nowMs;
    const match = p.acknowledge(msg.matchIndex);
    if (match > this.commitIndex) this.advanceCommitIndex();
    // Transfer (§3.10): a target brought up to date by a snapshot is told to time out, as by AppendEntries.
    if (this.transferTo === src && match >= this.lastLogIndex) this.sendTimeoutNow(p);
  }

  /**
   * Leadership transfer (§3.10): stop taking requests, bring `target` up to date, then tell it to
   * time out now. Given up after an election timeout, as §3.10 says, so a target that cannot
   * win leaves the cluster with its leader.
   */
  startTransfer(target: string): void {
    const p = this.progressById.get(target);
    if (p === undefined || this.role !== 'leader') return;
    this.transferTo = target;
    this.transferDeadline = this.host.nowMs + this.host.electionTimeoutMinMs;
    this.timeoutNowSent = false;
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'transfer-started',
        subjects: [this.id, target],
        values: {
          node: this.id,
          target,
          term: this.term,
          matchIndex: p.match,
          lastLogIndex: this.lastLogIndex,
          deadlineMs: this.transferDeadline,
        },
        lines: ['transfer.start'],
      });
    }
    // The bug transfer-too-early: TimeoutNow at once, whether or not the target has caught up.
    if (p.match >= this.lastLogIndex || this.host.bugs.transferTooEarly === true) this.sendTimeoutNow(p);
    else this.sendAppend(p);
  }

  private sendTimeoutNow(p: Progress): void {
    if (this.timeoutNowSent) return;
    this.timeoutNowSent = true;
    const target = p.id;
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'timeout-now-sent',
        subjects: [this.id, target],
        values: { node: this.id, target, term: this.term, matchIndex: p.match },
        lines: ['transfer.timeout-now'],
      });
    }
    const msg: TimeoutNow = { type: 'TimeoutNow', term: this.term, leader: this.id };
    this.host.send(this.id, target, msg);
  }

  /** The transfer did not finish within an election timeout: lead on and take requests again. */
  private abortTransfer(): void {
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'transfer-aborted',
        subjects: [this.id, this.transferTo ?? ''],
        values: { node: this.id, target: this.transferTo ?? '', term: this.term, afterMs: this.host.electionTimeoutMinMs },
        lines: ['transfer.abort'],
      });
    }
    this.endTransfer();
  }

  private endTransfer(): void {
    this.transferTo = null;
    this.transferDeadline = Infinity;
    this.timeoutNowSent = false;
  }

  /**
   * The target of a transfer: campaign at once, skipping pre-vote and marked as a transfer (§3.10).
   * A server outside its own configuration does not campaign (§4.2.2), TimeoutNow or not: it would
   * lead a configuration it is not in.
   */
  private handleTimeoutNow(msg: TimeoutNow): void {
    if (msg.term !== this.term || this.role === 'leader') return;
    if (this.membership !== null && !this.membership.isVoter(this.id)) {
      // Ignored, timer and all: no liveness needs it (the leader that sent it is alive), unlike a
      // timeout before the removal commits (sitOut), so the transfer just runs out.
      if (this.host.recordDetails) {
        this.host.detail({
          kind: 'timeout-now-ignored',
          subjects: [this.id, msg.leader],
          values: { node: this.id, leader: msg.leader, term: this.term, voters: this.membership.voters },
          lines: ['member.no-campaign'],
        });
      }
      return;
    }
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'timeout-now-received',
        subjects: [this.id, msg.leader],
        values: { node: this.id, leader: msg.leader, term: this.term },
        lines: ['transfer.campaign'],
      });
    }
    this.becomeCandidate(true);
    this.transferTerm = this.term;
  }

  /** fast-backup (§5.3): skip the follower's whole conflicting term in one round trip, then retry. */
  private fastBackUp(p: Progress, conflictTerm: number, conflictIndex: number): void {
    const from = p.next;
    const bugs = this.host.bugs;
    const { next, rule } = backUp(
      this.raftLog,
      from,
      { conflictTerm, conflictIndex },
      bugs.hintMovesForward === true,
      bugs.hintSkipsOwnTerm === true,
    );
    p.next = next;
    const rounds = ++p.backupRounds;
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'backed-up',
        subjects: [this.id, p.id],
        values: { node: this.id, peer: p.id, term: this.term, from, to: next, rule, conflictTerm, conflictIndex, rounds },
        lines: [rule === 'to-follower-end' ? 'fb.to-end' : rule === 'past-own-term' ? 'fb.skip-term' : 'fb.to-first'],
      });
    }
    this.sendAppend(p);
  }

  /**
   * Commit the highest index a majority of the configuration's voters holds (Figure 2), counting
   * only an entry of the current term (Figure 8); older entries are committed indirectly, once a
   * newer one is. Once a change commits, servers it removed are no longer sent entries, and a
   * leader that removed itself steps down (§4.2.2).
   */
  private advanceCommitIndex(): void {
    const log = this.raftLog;
    const m = this.membership;
    // Without membership the count never looks at the snapshot's own index: only the bug
    // compact-uncommitted puts a snapshot above the commit index.
    const floor = m === null && log.snapshotIndex > this.commitIndex ? log.snapshotIndex : this.commitIndex;
    const index = this.quorumMatch();
    if (index <= floor) return;
    const earlier = log.termAt(index) !== this.term;
    if (earlier && !this.host.bugs.figure8) return;
    if (this.host.recordDetails) {
      const rule = earlier ? 'earlier-term-by-counting' : 'majority';
      recordCommitAdvanced(
        this.host,
        this.id,
        this.commitIndex,
        index,
        this.term,
        rule,
        this.replicasOf(index),
        this.majority,
        null,
        null,
        m !== null,
      );
    }
    const pendingBefore = m !== null && m.changePending(this.commitIndex);
    this.commitIndex = index;
    this.applyCommitted();
    if (m !== null && pendingBefore && !m.changePending(index)) this.changeCommitted(m);
  }

  /** The highest index a majority of the voters holds: this leader holds its whole log. */
  private quorumMatch(): number {
    const values = this.counted;
    let count = 0;
    if (this.selfVoter) values[count++] = this.raftLog.lastIndex;
    const progress = this.progress;
    for (let slot = 0; slot < progress.length; slot++) {
      const p = progress[slot];
      if (p.voter) values[count++] = p.match;
    }
    return majorityValue(values, count, this.majority);
  }

  /** How many voters hold entry `index` (this leader among them, if it is one). */
  private replicasOf(index: number): number {
    let replicas = this.selfVoter ? 1 : 0;
    for (const p of this.progress) if (p.voter && p.match >= index) replicas++;
    return replicas;
  }

  /** Hand every committed entry not yet applied to the state machine, in log order (Figure 2). */
  applyCommitted(): void {
    const log = this.raftLog; // the host's apply never compacts; only compactIfDue below does
    while (this.lastApplied < this.commitIndex) {
      const index = ++this.lastApplied;
      this.host.onCommitted(this, index, log.entryAt(index) as LogEntry);
    }
    if (this.host.features.snapshots) compactIfDue(this, this.host, () => this.host.snapshotStateOf?.(this) ?? null);
  }

  // -- membership changes (§4.1, §4.2.1), only in runs with the feature ----------------------

  /**
   * Points the leader state at a new set of peers, keeping what it knew of the ones that stay;
   * a new peer starts at this node's next index (a learner at 1: it is known to be behind).
   */
  private setPeers(peers: readonly string[]): void {
    const learners = this.membership?.learners ?? NO_LEARNERS;
    const quorum = this.quorum;
    const byId = new Map<string, Progress>();
    // A peer that stays keeps its record: match, and the features' per-peer state (answered
    // rounds, round trips backing up, heard since the last check); a new one starts from nothing.
    this.progress = peers.map((peer) => {
      let p = this.progressById.get(peer);
      if (p === undefined) p = new Progress(peer);
      else if (this.hasLeaderState) {
        byId.set(peer, p);
        p.voter = quorum.has(peer);
        return p;
      }
      p.next = learners.includes(peer) ? 1 : this.lastLogIndex + 1;
      p.voter = quorum.has(peer);
      byId.set(peer, p);
      return p;
    });
    this.progressById = byId;
    this.selfVoter = quorum.has(this.id);
    this.peers = peers;
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

  /**
   * Snapshots (§5.1): an installed snapshot's configuration lies under whatever suffix was kept;
   * the node uses the latest of the two at once, as it would an appended entry.
   */
  useSnapshotConfig(): void {
    const m = this.membership as Membership;
    m.hold(this.snapshot?.config);
    if (m.refresh(this.raftLog)) this.setPeers(m.peersOf(this.id, this.role === 'leader', this.commitIndex));
  }

  /** Entries arrived from `leader`: a configuration entry among them takes effect now (§4.1). */
  private refreshConfig(leader: string): void {
    const m = this.membership as Membership;
    if (!m.refresh(this.raftLog)) return;
    this.setPeers(m.peersOf(this.id, false, this.commitIndex));
    if (this.host.recordDetails && m.entry !== null) this.configAppended(m, leader);
  }

  private configAppended(m: Membership, leader: string | null): void {
    const entry = m.entry;
    if (entry === null) return;
    this.host.detail({
      kind: 'config-appended',
      subjects: [this.id, entry.node],
      values: {
        node: this.id,
        term: this.term,
        index: m.configIndex,
        op: entry.op,
        server: entry.node,
        voters: entry.voters,
        previous: m.previous,
        leader,
        committed: this.commitIndex >= m.configIndex,
      },
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
    // The bug config-changes-at-once: a second change goes ahead.
    if (!this.host.bugs.configChangesAtOnce) {
      if (m.learners.length > 0) return `${this.id} is still catching up ${m.learners[0]} as a learner (one change at a time, §4.1)`;
      if (m.changePending(this.commitIndex))
        return `${this.id}'s configuration entry at index ${m.configIndex} is not committed yet (one change at a time, §4.1)`;
      // The fix to single-server changes (Ongaro, raft-dev 2015): a new leader first commits an entry
      // of its own term, so a change an earlier leader left uncommitted cannot overlap a new one.
      if (this.commitIndex === 0 || this.termAt(this.commitIndex) !== this.term)
        return `${this.id} has not yet committed an entry of its term ${this.term} (a new leader commits one before a change; leader-noop does it at once)`;
    }
    // A leader handing over takes no request (§3.10), and a change is one: etcd's leader drops every
    // proposal while a transfer is under way. Accepted, "remove n2" during a transfer to n2 let n2
    // take over a configuration it is not in. (Last, so a change refused for another reason too is
    // refused with the sentence it always had.)
    if (this.transferTo !== null)
      return `${this.id} is handing leadership to ${this.transferTo} (a change waits until the transfer ends, §3.10)`;
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
      this.host.detail({
        kind: 'learner-added',
        subjects: [this.id, id],
        values: { node: this.id, term: this.term, learner: id, voters: m.voters },
        lines: ['member.learner'],
      });
    }
    this.sendAppend(this.progressById.get(id) as Progress);
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
    this.raftLog.append(Object.freeze({ term: this.term, command: entry }));
    m.refresh(this.raftLog);
    this.setPeers(m.peersOf(this.id, true, this.commitIndex));
    if (this.host.recordDetails) this.configAppended(m, this.id);
    this.broadcastAppend();
    // A configuration this leader alone makes a majority of commits at once.
    this.advanceCommitIndex();
  }

  private changeCommitted(m: Membership): void {
    if (m.isVoter(this.id)) {
      // One more round tells the servers the change removed that it is committed, so they stop campaigning.
      if (m.previous.some((id) => !m.voters.includes(id))) this.broadcastAppend();
      this.setPeers(m.peersOf(this.id, true, this.commitIndex));
      return;
    }
    if (this.host.bugs.removedLeaderStays === true) return; // the bug: it leads on outside its configuration
    if (this.host.recordDetails) {
      this.host.detail({
        kind: 'removed-leader-steps-down',
        subjects: [this.id],
        values: { node: this.id, term: this.term, index: m.configIndex, voters: m.voters },
        lines: ['member.removed-leader'],
      });
    }
    this.becomeFollower(this.term);
    this.resetElectionTimer();
  }

  /**
   * Restart after a crash: persistent state kept, volatile state rebuilt. The state machine is
   * volatile too: the host resets it, and it is re-applied as commits are re-learned. With a
   * snapshot (§5) the node starts from it: the host restores its state, and the commit index starts
   * at its last included index (everything in a snapshot is committed), never below.
   */
  restart(forgetVote: boolean): void {
    this.alive = true;
    this.role = 'follower';
    this.leaderId = null;
    this.commitIndex = this.snapshotIndex; // volatile: re-learned from the leader's next heartbeat
    this.lastApplied = this.snapshotIndex;
    this.preCandidate = false;
    this.leaderHeardMs = -1;
    if (this.transferTo !== null) this.endTransfer();
    if (this.membership !== null) {
      // The configuration is rebuilt from what persists: the snapshot's, then the log's (§4.1, §5).
      this.membership.hold(this.snapshot?.config);
      this.membership.refresh(this.raftLog);
      this.leaveLeadership();
    }
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
