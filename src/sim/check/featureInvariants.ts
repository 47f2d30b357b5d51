/**
 * Invariants of the protocol features, checked after every step like the rest (invariants.ts
 * calls `check` only in runs with a feature on, so a run of the chapter's Raft pays nothing):
 *
 * - pre-vote (§9.6): a node whose partition group is smaller than a majority cannot win a new
 *   pre-vote round, so it never reaches a term above the highest its group held when the
 *   partition began, plus one for a round already open then (messages across groups are dropped
 *   at delivery; in-flight ones from its own group carry terms its group already had).
 * - check-quorum (§6.2): a leader cut off from a majority (partitions and crashes) steps down
 *   within two quorum checks (2 × the shortest election timeout) once the last message that could
 *   still reach it has arrived (the longest latency, any extra delay, a reordering hold-back).
 *   "Cut off" counts from when even the union of the nodes it could reach since stopped being a
 *   majority: a partition that moves lets it hear a majority over one window.
 * - leader-noop (§8): the first entry of a leader's term in its log is its no-op, checked once that
 *   first entry appears (a leader may hold none of its term at first: the check waits for it).
 * - snapshots (§5): see snapshotInvariants.ts.
 * - membership (§4.1): no leader's log holds two configuration entries above the highest index
 *   any server has committed (a new leader's own commit index lags: it is volatile);
 *   a new leader's votes, and the servers holding what a leader commits, are a majority of the
 *   voters of that leader's configuration in force (its latest configuration entry, or the
 *   initial one); and no server leads a configuration that lacks it once its own commit index
 *   covers that configuration (§4.2.2: a removed leader steps down when its removal commits, a
 *   removed server never campaigns; TimeoutNow once made one a leader). All read the node's own
 *   state, so servers added during the run are covered. A leader removing itself leads until then,
 *   and a stale leader cut off elsewhere cannot know the commit, so only its own commit index counts.
 */
import { deliveryBoundsMs } from '../model/network';
import type { Cluster } from '../net/cluster';
import { featuresOf } from '../model/config';
import { featureInvariant } from '../model/describe';
import type { CommittedLog, Violate } from './ids';
import { SnapshotInvariants } from './snapshotInvariants';
import { isConfigCommand } from '../raft/membership';
import { majorityOf } from '../raft/quorum';
import type { RaftNode } from '../raft/node';
import type { LogEntry } from '../model/types';

export class FeatureInvariants {
  private readonly preVote: boolean;
  private readonly checkQuorum: boolean;
  private readonly leaderNoop: boolean;
  private readonly transfer: boolean;
  private readonly majority: number;
  /** pre-vote: the partition seen last, and per node the term cap of its minority group (-1: none). */
  private groupsSeen: readonly (readonly string[])[] = [];
  private readonly termCap: number[];
  private readonly capGroup: (readonly string[] | null)[];
  /** check-quorum: when each leader was first seen cut off from a majority (-1: it is not). */
  private readonly cutOffSince: number[];
  private readonly cutOffTerm: number[];
  /**
   * check-quorum: every node (by index, a bit each) the leader could reach at some moment since
   * `cutOffSince`. CheckQuorum counts answers over a whole window, so a leader that reaches n3 early
   * in it and n5 late (the partition moved) has heard a majority: the cut-off counts from when even
   * the union of those it could reach stopped being a majority.
   */
  private readonly cutOffReach: number[];
  /** The largest extra delay set so far: a message sent under it may still be on its way. */
  private maxExtraMs = 0;
  /** The largest `slow` factor seen (issue 28): a message sent in a slow phase may land after it. */
  private maxSlow = 1;
  /** leader-noop: the term each node was last checked as leader of. */
  private readonly noopCheckedTerm: number[];
  /** snapshots (§5): its own checks (snapshotInvariants.ts), or null with the feature off. */
  private readonly snapshots: SnapshotInvariants | null;
  private readonly membership: boolean;
  /** membership: per node (by id, servers join), the term it was last checked as leader of and its commit index then. */
  private readonly electedChecked = new Map<string, number>();
  private readonly commitSeen = new Map<string, number>();
  /** The highest commit index any server has had: every entry up to it is committed. */
  private committedUpTo = 0;
  /** membership: per node, the term it was last reported leading a configuration it is not in. */
  private readonly removedLeaderSeen = new Map<string, number>();

  constructor(
    private readonly cluster: Cluster,
    private readonly violate: Violate,
    committed: CommittedLog | null = null,
  ) {
    const features = featuresOf(cluster.config);
    this.preVote = features.includes('pre-vote');
    this.checkQuorum = features.includes('check-quorum');
    this.leaderNoop = features.includes('leader-noop');
    this.transfer = features.includes('transfer');
    this.membership = features.includes('membership');
    const n = cluster.nodes.length;
    this.majority = majorityOf(n);
    this.termCap = cluster.nodes.map(() => -1);
    this.capGroup = cluster.nodes.map(() => null);
    this.cutOffSince = cluster.nodes.map(() => -1);
    this.cutOffTerm = cluster.nodes.map(() => -1);
    this.cutOffReach = cluster.nodes.map(() => 0);
    this.noopCheckedTerm = cluster.nodes.map((node) => (node.role === 'leader' ? node.term : -1));
    this.snapshots =
      features.includes('snapshots') && committed !== null
        ? new SnapshotInvariants(cluster, violate, committed, cluster.extension !== null)
        : null;
  }

  check(): void {
    if (this.termCap.length < this.cluster.nodes.length) this.growArrays();
    // Both premises are a majority of the initial servers: once a configuration changed they no longer hold.
    const resized = this.membership && this.configChanged();
    if (this.preVote && !resized) this.checkPreVote();
    if (this.checkQuorum && !resized) this.checkCheckQuorum();
    if (this.leaderNoop) this.checkNoop();
    if (this.snapshots !== null) this.snapshots.check();
    if (this.membership) this.checkMembership();
  }

  /** Servers added by membership changes get their slots. */
  private growArrays(): void {
    for (const node of this.cluster.nodes.slice(this.termCap.length)) {
      this.termCap.push(-1);
      this.capGroup.push(null);
      this.cutOffSince.push(-1);
      this.cutOffTerm.push(-1);
      this.cutOffReach.push(0);
      this.noopCheckedTerm.push(node.role === 'leader' ? node.term : -1);
    }
  }

  private configChanged(): boolean {
    if (this.cluster.nodes.length > this.cluster.config.nodeIds.length) return true;
    for (const node of this.cluster.nodes)
      if (node.membership !== null && (node.membership.configIndex > 0 || node.membership.learners.length > 0)) return true;
    return false;
  }

  private checkMembership(): void {
    const nodes = this.cluster.nodes;
    for (let i = 0; i < nodes.length; i++) if (nodes[i].commitIndex > this.committedUpTo) this.committedUpTo = nodes[i].commitIndex;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const m = node.membership;
      if (node.role !== 'leader' || m === null) continue;
      if (!m.isVoter(node.id) && node.commitIndex >= m.configIndex && this.removedLeaderSeen.get(node.id) !== node.term) {
        this.removedLeaderSeen.set(node.id, node.term); // once per term
        this.violate(
          'removed-not-leading',
          [node.id],
          featureInvariant.leadsWithout(node.id, node.term, m.voters, m.configIndex, node.commitIndex),
        );
      }
      let newest = 0;
      // Global indexes (snapshots): everything at or below the snapshot is committed, so never looked at.
      for (let index = node.lastLogIndex; index > this.committedUpTo && index > node.snapshotIndex; index--) {
        if (!isConfigCommand((node.entryAt(index) as LogEntry).command)) continue;
        if (newest === 0) newest = index;
        else {
          this.violate('one-config-change', [node.id], featureInvariant.twoChanges(node.id, node.term, index, newest));
          break;
        }
      }
      if (this.electedChecked.get(node.id) !== node.term) {
        this.electedChecked.set(node.id, node.term);
        this.commitSeen.set(node.id, node.commitIndex);
        const votes = [...node.votes].sort();
        if (m.countVoters(votes) < m.majority)
          this.violate('config-majority', [node.id], featureInvariant.electedByMinority(node.id, node.term, votes, m.voters));
      } else if ((this.commitSeen.get(node.id) ?? 0) < node.commitIndex) {
        this.commitSeen.set(node.id, node.commitIndex);
        const holders = holdersOf(node, node.commitIndex);
        if (m.countVoters(holders) < m.majority)
          this.violate(
            'config-majority',
            [node.id],
            featureInvariant.committedByMinority(node.id, node.term, node.commitIndex, holders, m.voters),
          );
      }
    }
  }

  private checkPreVote(): void {
    const c = this.cluster;
    if (c.groups !== this.groupsSeen) {
      this.groupsSeen = c.groups;
      this.termCap.fill(-1);
      this.capGroup.fill(null);
      for (const named of c.groups) {
        // A group may name clients (and stores) too: only its servers vote, so only they count.
        const group = named.filter((id) => c.nodeById.has(id));
        if (group.length === 0 || group.length >= this.majority) continue;
        // A pre-vote round open when the partition began may still win with the yeses it already
        // has (from either side) plus its own side's: its term + 1 is within reach, nothing more.
        let cap = 0;
        for (const id of group) {
          const member = c.node(id);
          cap = Math.max(cap, member.term + (member.preCandidate ? 1 : 0));
        }
        for (const id of group) {
          const i = c.node(id).index;
          this.termCap[i] = cap;
          this.capGroup[i] = group;
        }
      }
    }
    const nodes = c.nodes;
    if (this.transfer) {
      // A TimeoutNow campaign skips pre-vote by design (§3.10): its term, and only it, is within
      // reach of its side too.
      for (const node of nodes) {
        const group = this.capGroup[node.index];
        if (group === null || node.transferTerm <= this.termCap[node.index]) continue;
        for (const id of group) this.termCap[c.node(id).index] = node.transferTerm;
      }
    }
    for (let i = 0; i < nodes.length; i++) {
      const cap = this.termCap[i];
      if (cap < 0 || nodes[i].term <= cap) continue;
      this.violate(
        'pre-vote-term',
        [nodes[i].id],
        featureInvariant.termRose(nodes[i].id, nodes[i].term, cap, [...(this.capGroup[i] ?? [])].sort(), this.majority),
      );
      this.termCap[i] = -1; // once is enough
    }
  }

  private checkCheckQuorum(): void {
    const c = this.cluster;
    let extra = c.delayAllMs;
    for (const ms of c.delayByActor.values()) if (ms > extra) extra = ms;
    if (extra > this.maxExtraMs) this.maxExtraMs = extra;
    const [tMin] = c.config.electionTimeoutMs;
    // The network's longest latency (issue 28), times the largest slow phase's factor seen.
    if (c.slowFactor > this.maxSlow) this.maxSlow = c.slowFactor;
    const lMax = deliveryBoundsMs(c.config)[1] * this.maxSlow;
    // The last message that can still arrive: latency plus any delay, plus a reordering hold-back.
    const boundMs = 2 * tMin + lMax + this.maxExtraMs + 2 * lMax + 1 + 1;
    const nodes = c.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (!node.alive || node.role !== 'leader') {
        this.cutOffSince[i] = -1;
        continue;
      }
      let reach = 0;
      let mask = 0;
      for (let j = 0; j < nodes.length; j++) {
        const other = nodes[j];
        if (other.alive && (other === node || c.reachable(node.id, other.id))) {
          reach++;
          mask |= 1 << j;
        }
      }
      if (reach >= this.majority) {
        this.cutOffSince[i] = -1;
        continue;
      }
      const union = this.cutOffReach[i] | mask;
      if (
        this.cutOffSince[i] < 0 ||
        this.cutOffTerm[i] !== node.term ||
        (this.cutOffSince[i] !== Infinity && bitCount(union) >= this.majority)
      ) {
        // Newly cut off, or the partition moved so that over the window a majority could answer.
        this.cutOffSince[i] = c.nowMs;
        this.cutOffTerm[i] = node.term;
        this.cutOffReach[i] = mask;
        continue;
      }
      this.cutOffReach[i] = union;
      const forMs = c.nowMs - this.cutOffSince[i];
      if (forMs > boundMs) {
        this.violate(
          'check-quorum-step-down',
          [node.id],
          featureInvariant.stillLeads(node.id, node.term, forMs, reach, this.majority, boundMs),
        );
        this.cutOffSince[i] = Infinity; // once per cut-off
      }
    }
  }

  private checkNoop(): void {
    const nodes = this.cluster.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node.role !== 'leader' || this.noopCheckedTerm[i] === node.term) continue;
      const log = node.log;
      let first = log.length;
      while (first > 0 && log[first - 1].term === node.term) first--;
      // Snapshots: a leader that commits at once (one voter) may compact its no-op in the ms it won;
      // the term's first entry is then in the snapshot, which keeps no entries to look at.
      if (first === 0 && node.snapshotIndex > 0 && node.snapshotTerm === node.term) {
        this.noopCheckedTerm[i] = node.term;
        continue;
      }
      const entry = log[first];
      // No entry of its term yet: look again next step, until the first one appears.
      if (entry === undefined) continue;
      this.noopCheckedTerm[i] = node.term;
      if (typeof entry.command !== 'string' && entry.command.type === 'noop') continue;
      const text = typeof entry.command === 'string' ? entry.command : entry.command.type;
      this.violate('noop-first', [node.id], featureInvariant.noopNotFirst(node.id, node.term, first + 1 + node.snapshotIndex, text));
    }
  }
}

/** The servers a leader knows hold entry `index`: itself and the peers whose match index reaches it. */
function holdersOf(leader: RaftNode, index: number): string[] {
  const holders = leader.lastLogIndex >= index ? [leader.id] : [];
  for (const peer of leader.peers) if (leader.matchIndexOf(peer) >= index) holders.push(peer);
  return holders.sort();
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}
