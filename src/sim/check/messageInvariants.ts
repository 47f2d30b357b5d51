/**
 * Invariants on what nodes say, not only on what they hold (issue 24): each is judged at the
 * moment a message is sent or handed to its receiver, from the message and the state of the two
 * ends, by rules written here independently of the node's code — so a slip in the node's rule is
 * not copied into its check. The cluster's message observer feeds them (cluster.ts), in runs
 * with the feature each belongs to:
 *
 * - pre-vote (§9.6) `pre-vote-heard-leader`: a node that leads, or accepted AppendEntries from a
 *   leader less than the shortest election timeout ago, says no to a pre-vote.
 * - pre-vote `pre-vote-round`: a pre-candidate starts its campaign for term T only once yeses for
 *   T, received since its latest round for T began, make a majority with its own (a yes carries
 *   the term it answers, and a yes from an earlier round of another term counts for nothing).
 * - fast-backup (§5.3) `backup-rule`: after a rejection with a hint, the leader's retry starts at
 *   just past its own last entry of the hinted term if it holds one (walking back from nextIndex
 *   − 1), else at the follower's first index of that term (its log's end when too short), never
 *   above nextIndex − 1 nor below 1.
 * - transfer (§3.10) `transfer-caught-up`: TimeoutNow goes only to a target of the leader's term
 *   that holds the leader's last entry.
 * - reads (§6.4.1) `lease-bound`: while the leader's clock runs no slower than the lease's drift
 *   margin allows, it answers a lease read less than the shortest election timeout (simulated
 *   time) after sending the newest heartbeat round a majority has answered — before which no voter
 *   that answered it votes for anyone else (CheckQuorum, §6.2).
 */
import type { Cluster } from '../net/cluster';
import { featuresOf } from '../model/config';
import { messageInvariant as say } from '../model/describe';
import type { Violate } from './ids';
import { LEASE_DRIFT_MARGIN_PCT } from '../service/reads';
import type { RaftNode } from '../raft/node';
import type { ReadMode } from '../model/config';
import type { AppendReply, ClientReply, Message } from '../model/types';

/** A pre-candidate's latest round: the term it asks for, when it began, and who has said yes to it. */
interface Round {
  readonly term: number;
  readonly startMs: number;
  readonly yes: Set<string>;
}

/** What a leader's retry after a hinted rejection must look like. */
interface ExpectedRetry {
  readonly leader: string;
  readonly peer: string;
  readonly from: number;
  readonly next: number;
  readonly conflictTerm: number;
  readonly conflictIndex: number;
}

/** Reads: what the checker itself knows of one leader's heartbeat rounds in its current term. */
interface Rounds {
  term: number;
  /** Round → simulated time it was first sent. */
  readonly sentAt: Map<number, number>;
  /** Peer → the newest round it answered in this term. */
  readonly acked: Map<string, number>;
}

export class MessageInvariants {
  private readonly preVote: boolean;
  private readonly fastBackup: boolean;
  private readonly transfer: boolean;
  private readonly reads: boolean;
  private readonly rounds = new Map<string, Round>();
  /** The term each node's campaign was last checked for. */
  private readonly campaignChecked = new Map<string, number>();
  private expected: ExpectedRetry | null = null;
  private readonly leaderRounds = new Map<string, Rounds>();
  /** Client → the request id and mode of the newest get it sent to a node. */
  private readonly getModes = new Map<string, { readonly id: number; readonly mode: ReadMode }>();
  /** Node → the last time its clock ran slower than the lease's drift margin allows (-Infinity: never). */
  private readonly slowAt = new Map<string, number>();

  constructor(
    private readonly cluster: Cluster,
    private readonly violate: Violate,
  ) {
    const features = featuresOf(cluster.config);
    this.preVote = features.includes('pre-vote');
    this.fastBackup = features.includes('fast-backup');
    this.transfer = features.includes('transfer');
    this.reads = features.includes('reads');
  }

  /** Whether any of these checks applies to the run. */
  get active(): boolean {
    return this.preVote || this.fastBackup || this.transfer || this.reads;
  }

  /** After every step: which clocks ran too slow for a lease (drift is set between messages). */
  step(): void {
    if (!this.reads) return;
    const nodes = this.cluster.nodes;
    const drift = this.cluster.driftPct;
    for (let i = 0; i < nodes.length; i++) if (drift[i] < -LEASE_DRIFT_MARGIN_PCT) this.slowAt.set(nodes[i].id, this.cluster.nowMs);
  }

  sent(src: string, dst: string, msg: Message): void {
    const expected = this.expected;
    if (expected !== null && src === expected.leader && dst === expected.peer) this.checkRetry(expected, msg);
    switch (msg.type) {
      case 'VoteReply':
        if (this.preVote && msg.preVote === true && msg.granted) this.checkGrant(src, dst);
        return;
      case 'RequestVote':
        if (!this.preVote) return;
        if (msg.preVote === true) this.roundStarted(src, msg.term);
        else if (msg.transfer !== true) this.checkCampaign(src, msg.term);
        return;
      case 'AppendEntries':
        if (this.reads && msg.round !== undefined) this.roundSent(src, msg.term, msg.round);
        return;
      case 'TimeoutNow':
        if (this.transfer) this.checkTimeoutNow(src, dst, msg.term);
        return;
      case 'ClientReply':
        if (this.reads && msg.op === 'get' && msg.outcome === 'ok' && msg.index === null) this.checkLeaseRead(src, dst, msg);
        return;
      default:
        return;
    }
  }

  delivering(src: string, dst: string, msg: Message): void {
    this.expected = null; // a retry is sent while its rejection is handled, or not at all
    switch (msg.type) {
      case 'VoteReply':
        if (this.preVote && msg.preVote === true && msg.granted) this.yes(dst, src, msg.term);
        return;
      case 'AppendReply':
        if (this.fastBackup && !msg.success && msg.conflictIndex !== undefined) this.expectRetry(dst, src, msg);
        if (this.reads && msg.round !== undefined) this.roundAnswered(dst, src, msg);
        return;
      case 'ClientRequest':
        if (this.reads && msg.op === 'get') this.getModes.set(src, { id: msg.id, mode: msg.readMode ?? 'log' });
        return;
      default:
        return;
    }
  }

  // -- pre-vote ---------------------------------------------------------------------------

  private checkGrant(voterId: string, candidate: string): void {
    const v = this.cluster.nodeById.get(voterId);
    if (v === undefined) return;
    const now = this.cluster.nowMs;
    const heardAgo = v.role === 'leader' ? 0 : v.leaderId !== null && v.leaderHeardMs >= 0 ? now - v.leaderHeardMs : Infinity;
    const tMin = this.cluster.electionTimeoutMinMs;
    if (heardAgo < tMin)
      this.violate(
        'pre-vote-heard-leader',
        [voterId, candidate],
        say.preVoteWhileHearing(voterId, candidate, v.role === 'leader' ? null : v.leaderId, heardAgo, tMin),
      );
  }

  private roundStarted(node: string, term: number): void {
    const r = this.rounds.get(node);
    const now = this.cluster.nowMs;
    if (r === undefined || r.term !== term || r.startMs !== now) this.rounds.set(node, { term, startMs: now, yes: new Set() });
  }

  private yes(node: string, voter: string, term: number): void {
    const p = this.cluster.nodeById.get(node);
    const r = this.rounds.get(node);
    if (p === undefined || r === undefined || !p.alive || !p.preCandidate || term !== r.term) return;
    r.yes.add(voter);
  }

  private checkCampaign(node: string, term: number): void {
    if (this.campaignChecked.get(node) === term) return;
    this.campaignChecked.set(node, term);
    const p = this.cluster.nodeById.get(node);
    if (p === undefined) return;
    const r = this.rounds.get(node);
    const yes = r !== undefined && r.term === term ? [...r.yes] : [];
    if (p.quorum.won([...yes, node])) return;
    this.violate('pre-vote-round', [node], say.campaignWithoutMajority(node, term, yes.sort(), p.quorum.majority, r?.term ?? null));
  }

  // -- fast back-up -----------------------------------------------------------------------

  private expectRetry(leaderId: string, peer: string, msg: AppendReply): void {
    const l = this.cluster.nodeById.get(leaderId);
    if (l === undefined || !l.alive || l.role !== 'leader' || msg.term !== l.term || !l.peers.includes(peer)) return;
    const from = l.nextIndexOf(peer);
    const conflictTerm = msg.conflictTerm ?? 0;
    const conflictIndex = msg.conflictIndex as number;
    this.expected = { leader: leaderId, peer, from, next: expectedNext(l, from, conflictTerm, conflictIndex), conflictTerm, conflictIndex };
  }

  private checkRetry(e: ExpectedRetry, msg: Message): void {
    this.expected = null;
    let next: number;
    if (msg.type === 'AppendEntries') next = msg.prevLogIndex + 1;
    else if (msg.type === 'InstallSnapshot') {
      // A next index at or below the snapshot is sent the snapshot: only that much can be told.
      const l = this.cluster.nodeById.get(e.leader) as RaftNode;
      if (e.next <= l.snapshotIndex) return;
      next = msg.snapshot.index + 1;
    } else return;
    if (next === e.next) return;
    this.violate(
      'backup-rule',
      [e.leader, e.peer],
      say.backupOffRule(e.leader, e.peer, e.conflictTerm, e.conflictIndex, e.from, next, e.next),
    );
  }

  // -- transfer ---------------------------------------------------------------------------

  private checkTimeoutNow(leaderId: string, targetId: string, term: number): void {
    const l = this.cluster.nodeById.get(leaderId);
    const t = this.cluster.nodeById.get(targetId);
    if (l === undefined || t === undefined || t.term !== term) return;
    const last = l.lastLogIndex;
    if (last <= t.snapshotIndex || t.termAt(last) === l.lastLogTerm) return;
    this.violate(
      'transfer-caught-up',
      [leaderId, targetId],
      say.timeoutNowTooEarly(leaderId, targetId, last, l.lastLogTerm, t.lastLogIndex),
    );
  }

  // -- reads: the lease -------------------------------------------------------------------

  private roundsOf(leader: RaftNode): Rounds {
    let r = this.leaderRounds.get(leader.id);
    if (r === undefined) this.leaderRounds.set(leader.id, (r = { term: leader.term, sentAt: new Map(), acked: new Map() }));
    else if (r.term !== leader.term) {
      // A new term of leadership: no round counts until answered in it (rounds keep their numbers).
      r.term = leader.term;
      r.acked.clear();
    }
    return r;
  }

  private roundSent(leaderId: string, term: number, round: number): void {
    const l = this.cluster.nodeById.get(leaderId);
    if (l === undefined || l.role !== 'leader' || l.term !== term) return;
    const r = this.roundsOf(l);
    if (!r.sentAt.has(round)) {
      r.sentAt.set(round, this.cluster.nowMs);
      r.sentAt.delete(round - 256); // far older than any lease
    }
  }

  private roundAnswered(leaderId: string, peer: string, msg: AppendReply): void {
    const l = this.cluster.nodeById.get(leaderId);
    if (l === undefined || !l.alive || l.role !== 'leader' || msg.term !== l.term || !l.peers.includes(peer)) return;
    const r = this.roundsOf(l);
    const round = msg.round as number;
    if (round > (r.acked.get(peer) ?? 0)) r.acked.set(peer, round);
  }

  private checkLeaseRead(leaderId: string, client: string, msg: ClientReply): void {
    const get = this.getModes.get(client);
    if (get === undefined || get.id !== msg.id || get.mode !== 'lease') return;
    const l = this.cluster.nodeById.get(leaderId);
    if (l === undefined) return;
    const self = l.quorum.has(l.id);
    if (self && l.majority === 1) return; // a majority of one: the leader alone
    const r = this.roundsOf(l);
    const answered: number[] = self ? [l.readRound] : [];
    for (const peer of l.peers) if (l.quorum.has(peer)) answered.push(r.acked.get(peer) ?? 0);
    answered.sort((a, b) => b - a);
    const round = answered.length >= l.majority ? answered[l.majority - 1] : 0;
    const sentAt = round > 0 ? r.sentAt.get(round) : undefined;
    const now = this.cluster.nowMs;
    const since = sentAt ?? -Infinity;
    // Only while the clock stayed within the margin since that round: beyond it a stale lease read is a finding (§6.4.1).
    if ((this.slowAt.get(leaderId) ?? -Infinity) >= since || this.cluster.driftPct[l.index] < -LEASE_DRIFT_MARGIN_PCT) return;
    const tMin = this.cluster.electionTimeoutMinMs;
    if (sentAt !== undefined && now - sentAt < tMin) return;
    this.violate(
      'lease-bound',
      [leaderId, client],
      say.leaseOverrun(leaderId, client, msg.key, round, sentAt ?? null, now, tMin, this.cluster.driftPct[l.index], LEASE_DRIFT_MARGIN_PCT),
    );
  }
}

/**
 * fast-backup's rule (§5.3's optimization), written from its description: the next index after a
 * rejection that names `conflictTerm` and `conflictIndex`, for a leader whose next index was `from`.
 * `slips` works the two ways the rule is easy to get wrong, for the reachability check of each
 * (check/sometimes.ts): no cap at `from − 1`, and skipping past the leader's own entries down to
 * the first of a term at or below the hinted one without checking that it is the hinted term.
 */
export function expectedNext(
  leader: RaftNode,
  from: number,
  conflictTerm: number,
  conflictIndex: number,
  slips: { readonly noCap?: boolean; readonly anyTerm?: boolean } = {},
): number {
  let target = conflictIndex;
  if (conflictTerm !== 0) {
    const lowest = Math.max(leader.snapshotIndex, 1);
    for (let i = Math.min(leader.lastLogIndex, from - 1); i >= lowest; i--) {
      const term = leader.termAt(i);
      if (term === null) break;
      if (term === conflictTerm || (term < conflictTerm && slips.anyTerm === true)) {
        target = i + 1;
        break;
      }
      if (term < conflictTerm) break;
    }
  }
  return Math.max(1, slips.noCap === true ? target : Math.min(target, from - 1));
}
