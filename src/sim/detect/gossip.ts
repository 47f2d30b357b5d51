/**
 * Gossip membership for elections and lock handover (issue 28), after van Renesse, Minsky and
 * Hayden, "A Gossip-Style Failure Detection Service" (Middleware 1998), with SWIM's spreading of
 * suspicion (Das, Gupta and Motivala, DSN 2002):
 *
 * - Members are the run's nodes, then its clients. Each keeps a heartbeat counter of its own and
 *   raises it once a round (every `roundMs`, at a phase of its own drawn at the start).
 * - Every node keeps a view: each member's highest counter it has heard of, when that counter last
 *   grew, and whom it suspects. Each round a live node tells `fanout` random peers (among the
 *   nodes it does not suspect) its view; a client, up and not paused, tells `fanout` random nodes
 *   its counter.
 * - A receiver takes every higher counter (news: the member is alive, any suspicion of it ends)
 *   and the sender's suspicions of members it knows no newer news of. At its round a node suspects
 *   every member whose counter has not grown for `suspectMs`. So suspicion, like news, spreads in a
 *   logarithmic number of rounds, and nobody probes all N.
 * - A follower campaigns once its view's news of its leader is `suspectMs` old, or as soon as its
 *   view suspects the leader, a random 0..stagger ms later (stagger: the run's election-timeout
 *   spread). Its leader's AppendEntries do not reset anything: gossip is the only liveness signal.
 * - The lock service's leader hands a lock over once its view suspects the holder.
 *
 * A node's counter survives its restarts (as a persisted incarnation number would); its view does
 * not: a restarted node starts with an empty view, every member heard of "now". Servers added by
 * membership changes are not members. Draws (detectors' stream): every member's phase at the
 * start, the peers of each round (one randbelow per peer), a follower's stagger each time it
 * starts following a leader and each time it comes to suspect it, and each Gossip message's latency
 * (and loss, …): a detector's messages draw from its stream, so the main stream is the fixed run's.
 */
import type { GossipParams, LeaderWatch } from '../model/detector';
import type { CPythonRandom } from '../model/prng';
import type { Gossip, Message } from '../model/types';
import type { RaftNode } from '../raft/node';

export interface GossipHost {
  readonly nowMs: number;
  readonly nodes: readonly RaftNode[];
  /** Sends a detector's message: its draws come from the detectors' stream (Cluster.sendDetector). */
  sendDetector(src: string, dst: string, msg: Message): void;
  /** Whether client `id` is up to gossip now: alive and not paused (the lock service knows). */
  clientAwake(id: string): boolean;
}

/** A node came to suspect a member: by its own view going silent, or by a peer's view saying so. */
export interface Suspicion {
  readonly t: number;
  readonly by: string;
  readonly member: string;
  readonly how: 'silence' | 'gossip';
}

export class GossipMembership implements LeaderWatch {
  readonly members: readonly string[];
  private readonly indexOf = new Map<string, number>();
  private readonly nodeCount: number;
  /** Per node (viewer), per member. */
  private readonly counts: Int32Array[];
  private readonly heardAt: Float64Array[];
  private readonly suspected: Uint8Array[];
  /** Each member's own counter. */
  private readonly own: Int32Array;
  private readonly nextRound: Float64Array;
  private nextDue = Infinity;
  /** Per node: the leader it follows in the gossip's eyes, and the stagger drawn for it. */
  private readonly followed: (string | null)[];
  private readonly stagger: Int32Array;
  /** Every suspicion as it began (0 → 1 in a view), in time order. */
  readonly suspicions: Suspicion[] = [];
  /** Gossip rounds run (of nodes and clients), for the bench and the page. */
  rounds = 0;

  constructor(
    readonly params: GossipParams,
    private readonly host: GossipHost,
    nodeIds: readonly string[],
    clientIds: readonly string[],
    private readonly rng: CPythonRandom,
  ) {
    this.members = [...nodeIds, ...clientIds];
    this.members.forEach((id, i) => this.indexOf.set(id, i));
    this.nodeCount = nodeIds.length;
    const m = this.members.length;
    this.counts = nodeIds.map(() => new Int32Array(m));
    this.heardAt = nodeIds.map(() => new Float64Array(m));
    this.suspected = nodeIds.map(() => new Uint8Array(m));
    this.own = new Int32Array(m);
    this.nextRound = new Float64Array(m);
    for (let i = 0; i < m; i++) this.nextRound[i] = 1 + rng.randbelow(params.roundMs);
    this.followed = nodeIds.map(() => null);
    this.stagger = new Int32Array(nodeIds.length);
    this.recomputeNextDue();
  }

  /** The next millisecond at which a round is due (the cluster's quiet-time skipping asks). */
  nextDueMs(): number {
    return this.nextDue;
  }

  private recomputeNextDue(): void {
    let next = Infinity;
    const rounds = this.nextRound;
    for (let i = 0; i < rounds.length; i++) if (rounds[i] < next) next = rounds[i];
    this.nextDue = next;
  }

  /** After the nodes tick: every member whose round is due gossips. */
  tick(now: number): void {
    if (now < this.nextDue) return;
    const rounds = this.nextRound;
    for (let i = 0; i < rounds.length; i++) {
      if (rounds[i] > now) continue;
      rounds[i] += this.params.roundMs;
      if (i < this.nodeCount) this.nodeRound(i, now);
      else this.clientRound(i);
    }
    this.recomputeNextDue();
  }

  private nodeRound(i: number, now: number): void {
    const node = this.host.nodes[i];
    if (!node.alive) return;
    this.rounds++;
    const counts = this.counts[i];
    const heard = this.heardAt[i];
    const suspected = this.suspected[i];
    this.own[i]++;
    counts[i] = this.own[i];
    heard[i] = now;
    const limit = now - this.params.suspectMs;
    for (let m = 0; m < counts.length; m++) {
      if (m !== i && suspected[m] === 0 && heard[m] <= limit) this.suspect(i, m, now, 'silence');
    }
    const peers: number[] = [];
    for (let p = 0; p < this.nodeCount; p++) if (p !== i && suspected[p] === 0) peers.push(p);
    if (peers.length === 0) return;
    // One snapshot of the view for this round's peers: messages in flight never change.
    const msg: Gossip = { type: 'Gossip', counts: counts.slice(), suspects: suspected.slice() };
    for (const p of this.pick(peers)) this.host.sendDetector(node.id, this.members[p], msg);
  }

  private clientRound(c: number): void {
    const id = this.members[c];
    if (!this.host.clientAwake(id)) return;
    this.rounds++;
    this.own[c]++;
    const counts = new Int32Array(this.members.length);
    counts[c] = this.own[c];
    const msg: Gossip = { type: 'Gossip', counts, suspects: new Uint8Array(this.members.length) };
    const peers = Array.from({ length: this.nodeCount }, (_, p) => p);
    for (const p of this.pick(peers)) this.host.sendDetector(id, this.members[p], msg);
  }

  /** `fanout` of `candidates` at random, without repeats (a partial Fisher–Yates shuffle: one randbelow per pick). */
  private pick(candidates: number[]): number[] {
    const k = Math.min(this.params.fanout, candidates.length);
    for (let j = 0; j < k; j++) {
      const r = j + this.rng.randbelow(candidates.length - j);
      const t = candidates[j];
      candidates[j] = candidates[r];
      candidates[r] = t;
    }
    return candidates.slice(0, k);
  }

  /** A Gossip message reached node `i` (up: the cluster drops it otherwise). */
  receive(i: number, msg: Gossip): void {
    if (i >= this.nodeCount) return; // a server added later keeps no view
    const now = this.host.nowMs;
    const counts = this.counts[i];
    const heard = this.heardAt[i];
    const suspected = this.suspected[i];
    const theirs = msg.counts;
    const theirSuspects = msg.suspects;
    const leader = this.leaderIndex(i);
    let leaderNews = false;
    for (let m = 0; m < counts.length; m++) {
      const c = theirs[m];
      if (c > counts[m]) {
        counts[m] = c;
        heard[m] = now;
        if (suspected[m] !== 0) suspected[m] = 0;
        if (m === leader) leaderNews = true;
      } else if (theirSuspects[m] !== 0 && suspected[m] === 0 && m !== i && c >= counts[m]) {
        this.suspect(i, m, now, 'gossip');
      }
    }
    if (leaderNews) this.setDeadline(i);
  }

  private leaderIndex(i: number): number {
    const node = this.host.nodes[i];
    if (!node.alive) return -1;
    const leader = node.role === 'follower' ? node.leaderId : null;
    return leader === null ? -1 : (this.indexOf.get(leader) ?? -1);
  }

  private suspect(i: number, m: number, now: number, how: Suspicion['how']): void {
    this.suspected[i][m] = 1;
    this.suspicions.push({ t: now, by: this.members[i], member: this.members[m], how });
    if (m === this.leaderIndex(i)) {
      // The view says the leader is gone: campaign soon, not at the silence deadline.
      const node = this.host.nodes[i];
      const soon = now + 1 + (this.params.staggerMs > 0 ? this.rng.randint(0, this.params.staggerMs) : 0);
      if (soon < node.electionDeadline) node.electionDeadline = soon;
    }
  }

  /** A follower's deadline from its view: news of its leader `suspectMs` old, plus its stagger. */
  private setDeadline(i: number): void {
    const m = this.leaderIndex(i);
    if (m < 0 || this.suspected[i][m] !== 0) return;
    const node = this.host.nodes[i];
    node.electionDeadline = Math.max(this.host.nowMs + 1, Math.ceil(this.heardAt[i][m] + this.params.suspectMs)) + this.stagger[i];
  }

  heardLeader(index: number, leader: string, nowMs: number): number {
    // A server added later keeps no view: it waits the suspicion time from each heartbeat.
    if (index >= this.nodeCount) return nowMs + this.params.suspectMs;
    if (this.followed[index] !== leader) {
      this.followed[index] = leader;
      this.stagger[index] = this.params.staggerMs > 0 ? this.rng.randint(0, this.params.staggerMs) : 0;
    }
    const m = this.indexOf.get(leader);
    const node = this.host.nodes[index];
    // A leader that is no member (a server added later) is watched by nobody: the chapter's timer.
    if (m === undefined) return node.electionDeadline > nowMs ? node.electionDeadline : nowMs + 1;
    if (this.suspected[index][m] !== 0) return node.electionDeadline > nowMs ? node.electionDeadline : nowMs + 1;
    return Math.max(nowMs + 1, Math.ceil(this.heardAt[index][m] + this.params.suspectMs)) + this.stagger[index];
  }

  /** A restarted node's view is gone (volatile): it has heard of everyone "now" and suspects nobody. */
  forget(index: number): void {
    if (index >= this.nodeCount) return;
    const now = this.host.nowMs;
    this.counts[index].fill(0);
    this.counts[index][index] = this.own[index];
    this.heardAt[index].fill(now);
    this.suspected[index].fill(0);
    this.followed[index] = null;
  }

  /** Whether node `viewer`'s view suspects `member` (the lock service asks about holders). */
  suspects(viewer: number, member: string): boolean {
    const m = this.indexOf.get(member);
    return m !== undefined && viewer < this.nodeCount && this.suspected[viewer][m] !== 0;
  }

  /** The members node `viewer`'s view suspects now, in member order (for the page and the Why answers). */
  suspectedIn(viewer: number): string[] {
    if (viewer >= this.nodeCount) return [];
    return this.members.filter((_m, j) => this.suspected[viewer][j] !== 0);
  }

  /** How long ago node `viewer` last heard news of `member` (ms), or null for no member. */
  silenceMs(viewer: number, member: string): number | null {
    const m = this.indexOf.get(member);
    return m === undefined || viewer >= this.nodeCount ? null : this.host.nowMs - this.heardAt[viewer][m];
  }

  /** The live nodes whose views suspect `member` now, and all live nodes but it. */
  suspectedBy(member: string): { readonly by: number; readonly of: number } {
    const m = this.indexOf.get(member);
    let by = 0;
    let of = 0;
    for (let i = 0; i < this.nodeCount; i++) {
      if (!this.host.nodes[i].alive || i === m) continue;
      of++;
      if (m !== undefined && this.suspected[i][m] !== 0) by++;
    }
    return { by, of };
  }
}
