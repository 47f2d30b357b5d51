/**
 * The nodes plus a simulated network, advanced one millisecond per `step()`, exactly as the
 * chapter's RaftCluster: one seeded CPython-compatible random stream for every election timeout
 * and every message latency, integer-millisecond time, delivery in (deliverAt, seq) order, and a
 * message dropped at delivery time when its receiver is down or the two ends are in different
 * partition groups. Features the chapter does not have (lock service, clients, loss, drift) draw
 * from the same stream only when used, so a Raft-only run stays reference-exact.
 */
import { featuresOf, snapshotEveryOf, MAX_NODES, validateConfig, type BugName, type SimConfig } from '../model/config';
import { nodeBugs, nodeFeatures, type NodeFeatures } from '../model/features';
import { describe, eventLine, sortedIds } from '../model/describe';
import type { DetailBody, DetailEvent, EventKind, SimEvent } from '../model/events';
import { DetailLog } from '../model/detailLog';
import type { CommitRule } from '../model/hotDetails';
import { MessageQueue } from './messageQueue';
// Issue 28: a precise network (whole microseconds) and its latency models.
import { isPreciseNetwork, latencyBoundsMs, persistOf } from '../model/network';
import { LatencyDraws } from './latency';
import { PreciseQueue } from './preciseQueue';
// Issue 28: the failure detectors other than the chapter's fixed timer.
import { gossipParams, phiParams, type LeaderWatch } from '../model/detector';
import { GossipMembership } from '../detect/gossip';
import { PhiLeaderWatch } from '../detect/phiWatch';
import { detectorRandom } from '../detect/stream';
import { RaftNode, type NodeBugs, type NodeHost } from '../raft/node';
import { CPythonRandom, randintParams, type RandintParams } from '../model/prng';
import type { ApplyResult, Command, Envelope, LogEntry, Message, MessageType, RaftMessage, SnapshotState } from '../model/types';

/**
 * A service on top of Raft (the lock service) plugs in here; the cluster stays a Raft cluster
 * without it. It owns every actor that is not a node (clients, stores) and every message that
 * is not a Raft RPC, and keeps one copy of its state machine per node.
 */
export interface ClusterExtension {
  /** Applies committed entry `index` to `node`'s copy of the state machine. */
  apply(node: RaftNode, index: number, entry: LogEntry): ApplyResult;
  /** What follows an apply (events, replies to clients), after the apply observers saw it. */
  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void;
  /** `node` restarted: its copy of the state machine is volatile and starts over. */
  onRestart(node: RaftNode): void;
  /** A delivered message that is not a Raft RPC, or whose receiver is not a node. */
  onMessage(dst: string, src: string, msg: Message): void;
  /** Whether `id` is an actor of the extension (a client or a store) that is up to receive. */
  canReceive(id: string): boolean;
  /** Whether `id` is an actor of the extension at all. */
  knows(id: string): boolean;
  /** After nodes tick, once per simulated millisecond. */
  tick(): void;
  /** Faults stop: every crashed actor of the extension comes back. */
  calm(): void;
  /** Snapshots (§5): `node`'s state machine as it has applied it, to keep in a snapshot. */
  snapshotStateOf?(node: RaftNode): SnapshotState | null;
  /** Snapshots: `node`'s state machine becomes a snapshot's (installed, or restored at restart). */
  restoreSnapshotState?(node: RaftNode, state: SnapshotState | null): void;
  /** A server joined the run (membership changes): it needs its own copy of the state machine. */
  onNodeAdded?(node: RaftNode): void;
  /** Issue 28, the gossip detector: whether client `id` is up to gossip (alive and not paused). */
  clientAwake?(id: string): boolean;
}

export interface DroppedMessage {
  readonly envelope: Envelope;
  readonly droppedAt: number;
  readonly reason: 'down' | 'partition' | 'loss';
}

/**
 * A trace recorder's sink (traceRecorder.ts): told of every message from send to delivery or
 * drop, and called once at the end of every step. It only observes: nothing it does reaches
 * back into the run, and the hot path pays one null check when there is none. Unlike a step
 * observer it leaves the quiet-millisecond skipping on.
 */
export interface ClusterTracer {
  /**
   * Message `id` (the envelope's seq) was queued. A network duplicate is a message of its own,
   * queued right after its original, whose id is `copyOf` (-1 for every message a sender sent).
   */
  sent(id: number, sentAt: number, dueAt: number, src: string, dst: string, msg: Message, copyOf?: number): void;
  /** Message `id` is handed to its receiver now; what is sent until `deliveriesDone` answers it. */
  delivering(id: number): void;
  /** The network dropped message `id` now. */
  dropped(id: number, reason: 'down' | 'partition' | 'loss'): void;
  /** This step's deliveries are over: what is sent from here on (ticks, actions) has no cause. */
  deliveriesDone(): void;
  /** The end of a step, or of a schedule action: state may have changed. */
  afterStep(): void;
}

/** Observers run after every step (invariant checkers live outside node code). */
export type StepObserver = (cluster: Cluster) => void;

/**
 * Sees every message as it is sent and as it is handed to its receiver (before the receiver acts
 * on it), so a checker can judge what nodes say as well as what they hold: a pre-vote granted, a
 * hint answered, a TimeoutNow sent. It only observes; a duplicate is sent once and delivered twice.
 */
export interface MessageObserver {
  sent(cluster: Cluster, src: string, dst: string, msg: Message): void;
  delivering(cluster: Cluster, src: string, dst: string, msg: Message): void;
}

/**
 * Sees every entry a node applies, as it happens (invariant checkers), with the state machine's
 * result; null in a run without a service on top of Raft.
 */
export type ApplyObserver = (node: RaftNode, index: number, entry: LogEntry, result: ApplyResult | null) => void;

const RECENT_DROPS_MS = 400;

export class Cluster implements NodeHost {
  readonly config: SimConfig;
  readonly rng: CPythonRandom;
  readonly heartbeatMs: number;
  readonly electionTimeoutMinMs: number;
  /** Protocol features switched on; all false is the chapter's engine. */
  readonly features: NodeFeatures;
  /** Snapshots (§5): applied entries a node gathers before it compacts them. */
  readonly snapshotEvery: number;
  readonly initialServers: readonly string[];
  nowMs = 0;
  readonly nodes: RaftNode[] = [];
  readonly nodeById = new Map<string, RaftNode>();
  /** The messages in flight: due at whole ms (the chapter's), or at whole µs in a precise run. */
  readonly inflight: MessageQueue | PreciseQueue;
  /**
   * Issue 28 (docs/semantics.md, "Time"): messages are due at whole microseconds — a latency with a
   * fraction, a lognormal or regions. Timers, heartbeats and the schedule stay in whole ms, and
   * each step still covers one millisecond; within it messages are delivered in the order they fall
   * due, and a reply sent while one is delivered leaves at that message's microsecond. False: the
   * chapter's whole-millisecond network, untouched.
   */
  readonly precise: boolean;
  private readonly latencyDraws: LatencyDraws | null;
  /** While a precise run delivers a message, that message's due time in µs (when its handler runs); -1 otherwise. */
  private atUs = -1;
  /** `slow` (issue 28): every latency drawn is multiplied by this until `slowUntilMs` (null: until changed). */
  slowFactor = 1;
  slowUntilMs: number | null = null;
  /**
   * Issue 28, the failure detector (src/sim/detect/): null for the chapter's fixed timer. Nodes
   * read `leaderWatch` when they hear their leader; `gossip` also runs rounds and takes Gossip
   * messages. Their draws come from `detectorRng` (the detectors' own stream), never from `rng`.
   */
  readonly leaderWatch: LeaderWatch | null = null;
  readonly phiWatch: PhiLeaderWatch | null = null;
  readonly gossip: GossipMembership | null = null;
  readonly detectorRng: CPythonRandom | null = null;
  /** The stream a send draws from: the run's own, or the detectors' while `sendDetector` sends. */
  private sendRng: CPythonRandom;
  private seq = 0;
  /** Partition groups; empty means everyone reaches everyone. */
  groups: string[][] = [];
  private groupOf = new Map<string, number>();
  readonly events: SimEvent[] = [];
  /**
   * Detail events (the second stream), recorded only while `recordDetails` is on: the CLI with
   * --verbose or --json and the page's viewed run turn it on; the fuzzer, the checker's copy and
   * the bench leave it off. Either way no draw, message or state changes. Kept compactly
   * (detailLog.ts): a reader that comes back for new ones reads `detailLog`.
   */
  readonly detailLog = new DetailLog();
  recordDetails = false;
  readonly sent: Record<string, number> = { RequestVote: 0, VoteReply: 0, AppendEntries: 0, AppendReply: 0 };
  dropped = 0;
  readonly leadersByTerm = new Map<number, string[]>();
  readonly recentDrops: DroppedMessage[] = [];
  readonly bugs: NodeBugs;
  readonly bugSet: ReadonlySet<BugName>;
  /** Percent of messages lost in flight; 0 draws nothing. */
  lossPct = 0;
  /** Extra latency for every message, and for messages from or to one actor (`delay`). */
  delayAllMs = 0;
  readonly delayByActor = new Map<string, number>();
  /** Percent of messages delivered twice / held back so later ones overtake; 0 draws nothing. */
  duplicatePct = 0;
  reorderPct = 0;
  /** Any of delay, duplicates or reordering is on: the send path has more to do. */
  private unreliable = false;
  /** When faults stopped (`calm`), or null; from then on each new leader takes a probe entry. */
  calmAtMs: number | null = null;
  private probedTerm = -1;
  readonly driftPct: number[];
  /**
   * Each node's wall clock minus its monotonic one (`clockjump`, issue 26): a jump moves only the
   * wall clock, which Redis reads for key expiry; timers (Raft's, the lock services') read the
   * monotonic clock, `localNowMs`, which drift alone moves.
   */
  readonly clockJumpMs: number[];
  /**
   * Whether nodes run Raft. A lock service that runs none (Redis, Redlock, the database, gossip)
   * uses the nodes as its servers' seats — alive or crashed, partitioned, drifting — and they never
   * tick, so no election timer fires and no Raft message is sent.
   */
  raftActive = true;
  private readonly driftBaseLocal: number[];
  private readonly driftBaseNow: number[];
  extension: ClusterExtension | null = null;
  /** A trace recorder, or null; never copied into a checkpoint (see Simulation.clone). */
  tracer: ClusterTracer | null = null;
  private readonly observers: StepObserver[] = [];
  private readonly applyObservers: ApplyObserver[] = [];
  private readonly messageObservers: MessageObserver[] = [];
  /**
   * Issue 28, Figure 16: a server's persist delay before its replies leave (Figure 2: stable
   * storage is updated before responding to RPCs), ms; 0 is none, the chapter's. A whole number
   * on the chapter's network; any on the precise one (a fraction makes a run precise).
   */
  readonly persistMs: number;
  private readonly timeoutRange: readonly [number, number];
  private readonly latencyRange: readonly [number, number];
  // The two fixed randint ranges, with their bit lengths worked out once (same draws as randint).
  private readonly timeoutDraw: RandintParams | null;
  private readonly latencyDraw: RandintParams | null;

  /**
   * `preciseNetwork: true` runs a whole-millisecond configuration on the precise network's
   * machinery (its queue, its draws, its send times); the run is the same run, which is what
   * test/network-time.test.ts checks.
   */
  constructor(config: SimConfig, options: { readonly preciseNetwork?: boolean } = {}) {
    this.config = validateConfig(config);
    this.precise = options.preciseNetwork === true || isPreciseNetwork(config);
    this.inflight = this.precise ? new PreciseQueue() : new MessageQueue();
    this.latencyDraws = this.precise ? new LatencyDraws(config) : null;
    this.rng = new CPythonRandom(config.seed);
    this.sendRng = this.rng;
    this.heartbeatMs = config.heartbeatMs;
    this.persistMs = persistOf(config);
    this.timeoutRange = config.electionTimeoutMs;
    this.latencyRange = config.latencyMs;
    this.timeoutDraw = randintParams(config.electionTimeoutMs[0], config.electionTimeoutMs[1]);
    this.latencyDraw = randintParams(config.latencyMs[0], config.latencyMs[1]);
    // checkConfig lets a Raft run name only Raft's bugs (Paxos's need the protocol).
    this.bugSet = new Set(config.bugs as readonly BugName[]);
    this.bugs = nodeBugs(this.bugSet);
    this.electionTimeoutMinMs = config.electionTimeoutMs[0];
    this.features = nodeFeatures(featuresOf(config));
    this.snapshotEvery = snapshotEveryOf(config);
    const ids = config.nodeIds;
    this.initialServers = ids;
    this.driftPct = ids.map(() => 0);
    this.clockJumpMs = ids.map(() => 0);
    this.driftBaseLocal = ids.map(() => 0);
    this.driftBaseNow = ids.map(() => 0);
    // One election timeout per node at construction, in node order.
    ids.forEach((id, i) => {
      const node = new RaftNode(
        id,
        i,
        ids.filter((p) => p !== id),
        this,
      );
      this.nodes.push(node);
      this.nodeById.set(id, node);
    });
    const detector = config.detector;
    if (detector !== undefined) this.detectorRng = detectorRandom(config.seed);
    if (detector !== undefined && this.detectorRng !== null && detector.kind !== 'fixed') {
      if (detector.kind === 'phi-accrual')
        this.leaderWatch = this.phiWatch = new PhiLeaderWatch(phiParams(detector, config), config.heartbeatMs, this.detectorRng);
      else
        this.leaderWatch = this.gossip = new GossipMembership(
          gossipParams(detector, config),
          this,
          ids,
          config.clientIds,
          this.detectorRng,
        );
    }
  }

  /**
   * Issue 28: a failure detector's own message (gossip, a keep-alive): sent like any message, but
   * its draws (latency, loss, …) come from the detectors' stream, so the run's main stream draws
   * exactly what the run without the detector draws until the two behave differently.
   */
  sendDetector(src: string, dst: string, msg: Message): void {
    const rng = this.detectorRng;
    if (rng === null) {
      this.send(src, dst, msg);
      return;
    }
    this.sendRng = rng;
    try {
      this.send(src, dst, msg);
    } finally {
      this.sendRng = this.rng;
    }
  }

  /** Issue 28, the gossip detector's host: a client gossips while it is alive and not paused. */
  clientAwake(id: string): boolean {
    return this.extension?.clientAwake?.(id) ?? false;
  }

  // -- services the nodes call ------------------------------------------------------------

  randomElectionTimeout(): number {
    const p = this.timeoutDraw;
    if (p !== null) return this.rng.randintShifted(p.a, p.width, p.shift);
    return this.rng.randint(this.timeoutRange[0], this.timeoutRange[1]);
  }

  send(src: string, dst: string, msg: Message): void {
    const watchers = this.messageObservers;
    if (watchers.length !== 0) for (let i = 0; i < watchers.length; i++) watchers[i].sent(this, src, dst, msg);
    const type: MessageType = msg.type;
    const sent = this.sent;
    // Constant keys for the four Raft types keep this store monomorphic on the hot path.
    switch (type) {
      case 'AppendEntries':
        sent.AppendEntries++;
        break;
      case 'AppendReply':
        sent.AppendReply++;
        break;
      case 'RequestVote':
        sent.RequestVote++;
        break;
      case 'VoteReply':
        sent.VoteReply++;
        break;
      default:
        sent[type] = (sent[type] ?? 0) + 1;
    }
    // Issue 28: a reply waits for its sender's disk (the persist delay); the draws are the same.
    const persist = this.persistMs !== 0 && isReply(type) ? this.persistMs : 0;
    if (this.precise) {
      this.sendPrecise(src, dst, msg, persist);
      return;
    }
    const p = this.latencyDraw;
    const latency =
      p !== null ? this.sendRng.randintShifted(p.a, p.width, p.shift) : this.sendRng.randint(this.latencyRange[0], this.latencyRange[1]);
    const deliverAt = this.nowMs + latency + persist;
    // Loss draws only when switched on, so runs without it stay reference-exact.
    const lost = this.lossPct > 0 && this.sendRng.random() * 100 < this.lossPct;
    if (this.unreliable) {
      this.sendUnreliably(src, dst, msg, deliverAt - persist, lost, persist);
      return;
    }
    const seq = this.seq++;
    this.inflight.enqueue(deliverAt, seq, this.nowMs, src, dst, msg, lost);
    if (this.tracer !== null) this.tracer.sent(seq, this.nowMs, deliverAt, src, dst, msg);
  }

  /**
   * The network's slower faults, drawing (after latency and loss) only what is switched on:
   * a fixed extra delay draws nothing; reordering draws a chance, then how far back; a duplicate
   * draws a chance, then the copy's own latency.
   */
  private sendUnreliably(src: string, dst: string, msg: Message, deliverAt: number, lost: boolean, persist: number): void {
    let extra = this.delayAllMs;
    const bySrc = this.delayByActor.get(src) ?? 0;
    const byDst = this.delayByActor.get(dst) ?? 0;
    if (bySrc > extra) extra = bySrc;
    if (byDst > extra) extra = byDst;
    // `slow` (issue 28): the drawn latency times the factor, to the nearest whole ms.
    const slow = this.slowing() ? this.slowFactor : 1;
    // The persist delay is the sender's disk, not the network: `slow` does not stretch it.
    let at = (slow === 1 ? deliverAt : this.nowMs + Math.round((deliverAt - this.nowMs) * slow)) + extra + persist;
    if (this.reorderPct > 0 && this.sendRng.random() * 100 < this.reorderPct)
      at += 1 + this.sendRng.randbelow(2 * this.latencyRange[1] + 1);
    const seq = this.seq++;
    this.inflight.enqueue(at, seq, this.nowMs, src, dst, msg, lost);
    if (this.tracer !== null) this.tracer.sent(seq, this.nowMs, at, src, dst, msg);
    if (this.duplicatePct > 0 && this.sendRng.random() * 100 < this.duplicatePct) {
      const copyLatency = this.sendRng.randint(this.latencyRange[0], this.latencyRange[1]);
      const copyAt = this.nowMs + (slow === 1 ? copyLatency : Math.round(copyLatency * slow)) + extra + persist;
      const copySeq = this.seq++;
      this.inflight.enqueue(copyAt, copySeq, this.nowMs, src, dst, msg, false);
      if (this.tracer !== null) this.tracer.sent(copySeq, this.nowMs, copyAt, src, dst, msg, seq);
    }
  }

  /**
   * A precise run's send (issue 28): the same draws in the same order as the chapter's send and
   * its slower faults (latency, loss, reordering, duplicate), in whole microseconds. The message
   * leaves now — or, while a message is being delivered, at that message's microsecond.
   */
  private sendPrecise(src: string, dst: string, msg: Message, persistMs: number): void {
    const rng = this.sendRng;
    const draws = this.latencyDraws as LatencyDraws;
    const nowUs = this.atUs >= 0 ? this.atUs : this.nowMs * 1000;
    const slow = this.slowing() ? this.slowFactor : 1;
    let latencyUs = draws.drawUs(rng, src, dst);
    if (slow !== 1) latencyUs = Math.round(latencyUs * slow);
    const lost = this.lossPct > 0 && rng.random() * 100 < this.lossPct;
    // A reply's persist delay (issue 28), after the network's own (`slow` does not stretch it).
    const persistUs = persistMs === 0 ? 0 : Math.round(persistMs * 1000);
    let atUs = nowUs + latencyUs + persistUs;
    let extraUs = 0;
    if (this.unreliable) {
      let extra = this.delayAllMs;
      const bySrc = this.delayByActor.get(src) ?? 0;
      const byDst = this.delayByActor.get(dst) ?? 0;
      if (bySrc > extra) extra = bySrc;
      if (byDst > extra) extra = byDst;
      extraUs = extra * 1000;
      atUs += extraUs;
      // Held back by whole ms, as in the chapter's network: 1..(2·longest latency + 1) ms.
      if (this.reorderPct > 0 && rng.random() * 100 < this.reorderPct) {
        atUs += (1 + rng.randbelow(2 * Math.ceil(latencyBoundsMs(this.config)[1]) + 1)) * 1000;
      }
    }
    const sentAt = nowUs / 1000;
    const seq = this.seq++;
    this.inflight.enqueue(atUs / 1000, seq, sentAt, src, dst, msg, lost);
    if (this.tracer !== null) this.tracer.sent(seq, sentAt, atUs / 1000, src, dst, msg);
    if (this.unreliable && this.duplicatePct > 0 && rng.random() * 100 < this.duplicatePct) {
      let copyUs = draws.drawUs(rng, src, dst);
      if (slow !== 1) copyUs = Math.round(copyUs * slow);
      const copyAt = (nowUs + copyUs + extraUs + persistUs) / 1000;
      const copySeq = this.seq++;
      this.inflight.enqueue(copyAt, copySeq, sentAt, src, dst, msg, false);
      if (this.tracer !== null) this.tracer.sent(copySeq, sentAt, copyAt, src, dst, msg);
    }
  }

  /** Whether a `slow` phase is on now (issue 28). */
  private slowing(): boolean {
    return this.slowFactor !== 1 && (this.slowUntilMs === null || this.nowMs < this.slowUntilMs);
  }

  /** Now, to the microsecond: while a precise run delivers a message, that message's due time; otherwise `nowMs`. */
  get exactNowMs(): number {
    return this.atUs >= 0 ? this.atUs / 1000 : this.nowMs;
  }

  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void {
    // A precise run's event is stamped with its microsecond (issue 28); otherwise nowMs, the chapter's.
    const t = this.atUs >= 0 ? this.atUs / 1000 : this.nowMs;
    // Frozen so that checkpoints share events rather than copy them.
    this.events.push(Object.freeze({ t, kind, subjects, text, line: eventLine(t, text) }));
  }

  /** Every kept detail event as records, oldest first (unpacked afresh on each call: for readers that read once). */
  get details(): readonly DetailEvent[] {
    return this.detailLog.toArray();
  }

  /**
   * Keep only about this many of the newest details (at least this many, at most twice): the
   * page's viewed run shows only the newest, and every checkpoint copies what is kept, so an
   * unbounded log would make each seek and checkpoint cost more the longer the run. The CLI
   * keeps all (Infinity).
   */
  get detailLimit(): number {
    return this.detailLog.limit;
  }

  set detailLimit(limit: number) {
    this.detailLog.limit = limit;
  }

  /** Details trimmed from the front: the run's index of `details[0]`. */
  get detailsBase(): number {
    return this.detailLog.base;
  }

  detail(body: DetailBody): void {
    this.detailLog.push(body, this.detailMs, this.events.length);
  }

  /** A detail's time: now, to the microsecond while a precise network delivers (issue 28). */
  private get detailMs(): number {
    return this.atUs >= 0 ? this.atUs / 1000 : this.nowMs;
  }

  // The hot kinds, coded without a body (hotDetails.ts).

  leaderAppended(node: string, term: number, index: number, command: Command, noop: boolean): void {
    this.detailLog.leaderAppended(node, term, index, command, noop, this.detailMs, this.events.length);
  }

  appendAccepted(node: string, leader: string, term: number, from: number, to: number, added: number): void {
    this.detailLog.appendAccepted(node, leader, term, from, to, added, this.detailMs, this.events.length);
  }

  commitAdvanced(
    node: string,
    from: number,
    to: number,
    term: number,
    rule: CommitRule,
    replicas: number | null,
    majority: number | null,
    leader: string | null,
    leaderCommit: number | null,
    memberCount: boolean,
  ): void {
    this.detailLog.commitAdvanced(
      node,
      from,
      to,
      term,
      rule,
      replicas,
      majority,
      leader,
      leaderCommit,
      memberCount,
      this.detailMs,
      this.events.length,
    );
  }

  recordLeader(term: number, id: string, voters: readonly string[]): void {
    let list = this.leadersByTerm.get(term);
    if (!list) this.leadersByTerm.set(term, (list = []));
    list.push(id);
    this.logEvent(describe.wins(id, term, voters), 'leader', [id]);
  }

  onCommitted(node: RaftNode, index: number, entry: LogEntry): void {
    const extension = this.extension;
    const result = extension !== null ? extension.apply(node, index, entry) : null;
    if (this.recordDetails) this.detailLog.applied(node.id, index, entry.term, entry.command, result, this.detailMs, this.events.length);
    const observers = this.applyObservers;
    for (let i = 0; i < observers.length; i++) observers[i](node, index, entry, result);
    if (extension !== null) extension.onApplied(node, index, entry, result as ApplyResult);
  }

  snapshotStateOf(node: RaftNode): SnapshotState | null {
    const extension = this.extension;
    return extension !== null && extension.snapshotStateOf !== undefined ? extension.snapshotStateOf(node) : null;
  }

  restoreSnapshotState(node: RaftNode, state: SnapshotState | null): void {
    this.extension?.restoreSnapshotState?.(node, state);
  }

  /** This node's local clock reading (drift applies), in ms. */
  localNowMs(node: RaftNode): number {
    const i = node.index;
    const pct = this.driftPct[i];
    if (pct === 0) return this.driftBaseLocal[i] + (this.nowMs - this.driftBaseNow[i]);
    return this.driftBaseLocal[i] + ((this.nowMs - this.driftBaseNow[i]) * (100 + pct)) / 100;
  }

  /** This node's wall clock: its local clock plus every jump it took (issue 26). */
  wallNowMs(node: RaftNode): number {
    return this.localNowMs(node) + this.clockJumpMs[node.index];
  }

  // -- the simulation loop ----------------------------------------------------------------

  reachable(a: string, b: string): boolean {
    if (this.groups.length === 0) return true;
    const ga = this.groupOf.get(a);
    const gb = this.groupOf.get(b);
    // Actors named in no group (clients, stores) reach everyone.
    return ga === undefined || gb === undefined || ga === gb;
  }

  private canReceive(id: string): boolean {
    const node = this.nodeById.get(id);
    if (node) return node.alive;
    const extension = this.extension;
    // A message to nobody is an engine slip, not a network fault: fail loudly, not as a drop.
    if (extension === null || !extension.knows(id))
      throw new RangeError(`A message was sent to "${id}", which is no node, client or store of this run.`);
    return extension.canReceive(id);
  }

  step(): void {
    const now = ++this.nowMs;
    if (this.slowUntilMs !== null && now >= this.slowUntilMs) this.endSlow();
    const queue = this.inflight;
    const tracer = this.tracer;
    while (queue.peekDeliverAt() <= now) {
      const env = queue.pop() as Envelope;
      // A precise run hands each message over at its own microsecond (issue 28).
      if (this.precise) this.atUs = Math.round(env.deliverAt * 1000);
      // One lookup serves both the liveness check (canReceive) and the delivery.
      const node = this.nodeById.get(env.dst);
      const reason = env.lost
        ? 'loss'
        : !(node !== undefined ? node.alive : this.canReceive(env.dst))
          ? 'down'
          : this.groups.length !== 0 && !this.reachable(env.src, env.dst)
            ? 'partition'
            : null;
      if (reason !== null) {
        this.dropped++;
        this.noteDrop(env, reason);
        if (tracer !== null) tracer.dropped(env.seq, reason);
        if (this.recordDetails) {
          this.detail({
            kind: 'dropped',
            subjects: [env.src, env.dst],
            values: { from: env.src, to: env.dst, message: env.payload.type, reason, sentAt: env.sentAt },
            lines: [reason === 'loss' ? 'net.drop.loss' : reason === 'down' ? 'net.drop.down' : 'net.drop.partition'],
          });
        }
        continue;
      }
      const payload = env.payload;
      if (tracer !== null) tracer.delivering(env.seq);
      // Issue 28: a Gossip message is the gossip detector's, whoever it reaches.
      if (payload.type === 'Gossip' && this.gossip !== null && node !== undefined) {
        this.gossip.receive(node.index, payload);
        queue.release(env);
        continue;
      }
      const watchers = this.messageObservers;
      if (watchers.length !== 0) for (let i = 0; i < watchers.length; i++) watchers[i].delivering(this, env.src, env.dst, payload);
      // Raft RPCs go to the node; everything else (client requests, replies, store writes) to the
      // service on top. Without one, every message is a Raft RPC between nodes.
      if (node !== undefined && (this.extension === null || isRaftMessage(payload))) node.onMessage(env.src, payload as RaftMessage);
      else this.extension?.onMessage(env.dst, env.src, payload);
      queue.release(env); // delivered: nothing refers to the envelope any more (drops keep theirs)
    }
    this.atUs = -1;
    if (tracer !== null) tracer.deliveriesDone();
    const nodes = this.nodes;
    if (this.raftActive) for (let i = 0; i < nodes.length; i++) nodes[i].tick();
    if (this.gossip !== null) this.gossip.tick(now);
    if (this.extension) this.extension.tick();
    if (this.calmAtMs !== null) this.probe();
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i](this);
    if (tracer !== null) tracer.afterStep();
  }

  private noteDrop(envelope: Envelope, reason: DroppedMessage['reason']): void {
    const drops = this.recentDrops;
    drops.push({ envelope, droppedAt: this.nowMs, reason });
    if (drops.length > 256 || drops[0].droppedAt < this.nowMs - RECENT_DROPS_MS) {
      let cut = 0;
      while (cut < drops.length && (drops[cut].droppedAt < this.nowMs - RECENT_DROPS_MS || drops.length - cut > 256)) cut++;
      drops.splice(0, cut);
    }
  }

  run(ms: number): void {
    for (let i = 0; i < ms; i++) this.step();
  }

  runUntil(t: number): void {
    while (this.nowMs < t) {
      this.skipQuiet(t);
      if (this.nowMs < t) this.step();
    }
  }

  /**
   * The first time after now at which step() can change anything: a message falling due or a
   * node's timer or heartbeat firing. Every step before it would only move the clock. With step
   * observers or an extension (they act every millisecond) it is always the next millisecond.
   */
  nextEventMs(): number {
    const soonest = this.nowMs + 1;
    if (this.extension !== null || this.observers.length > 0) return soonest;
    let next = this.inflight.peekDeliverAt();
    // The end of a slow phase is logged at its time, and gossip rounds run at theirs.
    if (this.slowUntilMs !== null && this.slowUntilMs < next) next = this.slowUntilMs;
    if (this.gossip !== null && this.gossip.nextDueMs() < next) next = this.gossip.nextDueMs();
    const nodes = this.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const due = nodes[i].nextTickDue();
      if (due < next) next = due;
    }
    return next > soonest ? next : soonest;
  }

  /**
   * Moves the clock over quiet milliseconds (see nextEventMs), to `limitMs` at most. Exactly
   * what stepping through them would do, minus the work: nothing happens and nothing draws.
   */
  skipQuiet(limitMs: number): void {
    const now = this.nowMs;
    if (limitMs <= now || this.extension !== null || this.observers.length > 0) return;
    // The last quiet millisecond: before the next delivery (checked first, as it is often next)...
    let last = this.inflight.peekDeliverAt() - 1;
    if (last <= now) return;
    if (limitMs < last) last = limitMs;
    // Not past the end of a slow phase (issue 28), which is logged at its time, nor a gossip round.
    const slowEnd = this.slowUntilMs;
    if (slowEnd !== null && slowEnd - 1 < last) {
      if (slowEnd - 1 <= now) return;
      last = slowEnd - 1;
    }
    if (this.gossip !== null) {
      const round = this.gossip.nextDueMs() - 1;
      if (round < last) {
        if (round <= now) return;
        last = round;
      }
    }
    // ...and before any node's timer or heartbeat.
    const nodes = this.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const due = nodes[i].nextTickDue() - 1;
      if (due < last) {
        if (due <= now) return;
        last = due;
      }
    }
    // `| 0` keeps nowMs a small integer: a limit computed with Math.min or a division may be a
    // boxed double, and storing one would turn every read of nowMs into a float conversion.
    if (last < 0x40000000) this.nowMs = last | 0;
    else if (last < Infinity) this.nowMs = last;
  }

  addObserver(observer: StepObserver): void {
    this.observers.push(observer);
  }

  addApplyObserver(observer: ApplyObserver): void {
    this.applyObservers.push(observer);
  }

  addMessageObserver(observer: MessageObserver): void {
    this.messageObservers.push(observer);
  }

  /** The live leader with the highest term; a stale one may linger in a minority partition. */
  leader(): RaftNode | null {
    let best: RaftNode | null = null;
    for (const node of this.nodes) {
      if (node.alive && node.role === 'leader' && (best === null || node.term > best.term)) best = node;
    }
    return best;
  }

  node(id: string): RaftNode {
    const node = this.nodeById.get(id);
    if (!node) throw new Error(`There is no node "${id}"; the nodes are ${this.nodes.map((n) => n.id).join(', ')}.`);
    return node;
  }

  // -- fault injection --------------------------------------------------------------------

  /** Split the network into `groups`; nodes named in none of them form one more group. */
  partition(groups: readonly (readonly string[])[]): void {
    const named = groups.map((g) => [...g]);
    const mentioned = new Set(named.flat());
    // Every node of the run, in node order (with membership changes, servers added too).
    const rest = this.nodes.filter((n) => !mentioned.has(n.id)).map((n) => n.id);
    this.groups = rest.length > 0 ? [...named, rest] : named;
    this.groupOf = new Map();
    this.groups.forEach((g, i) => g.forEach((id) => this.groupOf.set(id, i)));
    const subjects = sortedIds(mentioned);
    this.logEvent(describe.partition(this.groups), 'partition', subjects);
  }

  heal(): void {
    this.groups = [];
    this.groupOf = new Map();
    this.logEvent(describe.healed(), 'heal', []);
  }

  crash(id: string): void {
    this.node(id).alive = false;
    this.logEvent(describe.crashes(id), 'crash', [id]);
  }

  /** Back from a crash with its persistent state (term, vote, log) and nothing else. */
  restart(id: string): void {
    const node = this.node(id);
    node.restart(this.bugSet.has('forget-vote'));
    // Issue 28: what a detector learnt on this node is volatile too.
    this.phiWatch?.forget(node.index);
    this.gossip?.forget(node.index);
    this.extension?.onRestart(node);
    // Snapshots (§5): the state machine starts from the snapshot, not from nothing.
    if (node.snapshot !== null) this.restoreSnapshotState(node, node.snapshot.state);
    this.logEvent(describe.restarts(id, node.term), 'restart', [id]);
  }

  /**
   * A client command to `target` (default: the current leader). Returns the entry's index, or
   * null when rejected; a rejection is logged as an event, as the schedule language says.
   */
  submit(command: Command, target: string | null = null): number | null {
    const text = typeof command === 'string' ? command : JSON.stringify(command);
    const node = target === null ? this.leader() : this.node(target);
    let reason: string | null = null;
    if (node === null) reason = 'no leader';
    else if (!node.alive) reason = `${node.id} is down`;
    else if (node.role !== 'leader') reason = `${node.id} is not the leader`;
    else if (node.transferTo !== null) reason = `${node.id} is handing leadership to ${node.transferTo}`;
    if (reason !== null || node === null) {
      this.logEvent(describe.submitRejected(text, target, reason ?? 'no leader'), 'submit-rejected', target ? [target] : []);
      return null;
    }
    return node.submit(command);
  }

  /**
   * The `timeout` verb: `id`'s election timer fires now, as if no heartbeat had come (RaftScope's
   * "time out"). With pre-vote on the node asks for pre-votes first, as a fired timer does.
   * becomeCandidate resets the timer, so this draws one election timeout, then one
   * latency per RequestVote, exactly as a natural timeout does. A down node or a leader (which has
   * no election timer) refuses, with an event saying why.
   */
  forceTimeout(id: string): void {
    const node = this.node(id);
    const reason = !node.alive ? `${id} is down` : node.role === 'leader' ? `${id} is the leader and has no election timer` : null;
    if (reason !== null) {
      this.logEvent(describe.electionForceRefused(id, reason), 'election-force-refused', [id]);
      return;
    }
    this.logEvent(describe.electionForced(id), 'election-forced', [id]);
    node.startElection(); // with pre-vote, a fired timer asks first (§9.6)
  }

  /**
   * The `transfer` verb (§3.10, feature transfer): the live leader hands leadership to `id`. No
   * leader, `id` down, or `id` already leading refuses, with an event saying why.
   */
  transferLeadership(id: string): void {
    const target = this.node(id);
    const leader = this.leader();
    const reason =
      leader === null
        ? 'no leader'
        : leader === target
          ? `${id} is the leader`
          : !target.alive
            ? `${id} is down`
            : leader.transferTo !== null
              ? `${leader.id} is already handing leadership to ${leader.transferTo}`
              : leader.membership !== null && !leader.membership.isVoter(id)
                ? `${id} is not a voter of the configuration {${leader.membership.voters.join(', ')}} in force (a learner or a removed server cannot lead, §4.1)`
                : null;
    if (reason !== null || leader === null) {
      this.logEvent(describe.transferRefused(id, reason ?? 'no leader'), 'transfer-refused', [id]);
      return;
    }
    leader.startTransfer(id);
  }

  /**
   * The add and remove verbs (membership, §4.1): the current leader starts the change, or it is
   * refused with an event saying why (no leader, a change already under way, an id that is or is
   * not a server, the limits of 1 and 9 servers). A server added for the first time is created
   * here, with its election timeout drawn now (the feature's only draw besides its messages); it
   * starts empty, outside its own configuration, so it does not campaign.
   */
  changeMembership(op: 'add' | 'remove', id: string): void {
    const leader = this.features.membership ? this.leader() : null;
    const m = leader?.membership ?? null;
    let reason: string | null;
    if (!this.features.membership) reason = 'membership changes need the feature membership (switch it on with --features membership)';
    else if (leader === null || m === null) reason = 'no leader';
    else if (op === 'add' && m.isVoter(id)) reason = `${id} is already a server of the configuration {${m.voters.join(', ')}}`;
    else if (op === 'add' && m.learners.includes(id)) reason = `${id} is already catching up as a learner`;
    else if (op === 'add' && !this.nodeById.has(id) && this.nodes.length >= MAX_NODES) reason = `a run has at most ${MAX_NODES} servers`;
    else if (op === 'remove' && !m.isVoter(id)) reason = `${id} is not a server of the configuration {${m.voters.join(', ')}}`;
    else if (op === 'remove' && m.voters.length <= 1) reason = `the configuration {${m.voters.join(', ')}} must keep at least 1 server`;
    else reason = leader.changeBlocked();
    if (reason !== null || leader === null) {
      this.logEvent(describe.memberChangeRefused(op, id, reason ?? 'no leader'), 'member-change-refused', [id]);
      return;
    }
    if (op === 'add' && !this.nodeById.has(id)) this.addNode(id);
    this.logEvent(op === 'add' ? describe.memberAdding(leader.id, id) : describe.memberRemoving(leader.id, id), 'member-change', [
      leader.id,
      id,
    ]);
    leader.proposeChange(op, id);
  }

  /** A new, empty server: it knows only the run's initial configuration, which lacks it. */
  private addNode(id: string): void {
    const node = new RaftNode(
      id,
      this.nodes.length,
      this.initialServers.filter((p) => p !== id),
      this,
    );
    this.nodes.push(node);
    this.nodeById.set(id, node);
    this.driftPct.push(0);
    this.clockJumpMs.push(0);
    this.driftBaseLocal.push(this.nowMs);
    this.driftBaseNow.push(this.nowMs);
    this.extension?.onNodeAdded?.(node);
  }

  setDrift(id: string, pct: number): void {
    const node = this.node(id);
    const i = node.index;
    // Keep the local clock continuous: rebase it at the moment the rate changes.
    this.driftBaseLocal[i] = this.localNowMs(node);
    this.driftBaseNow[i] = this.nowMs;
    this.driftPct[i] = pct;
    this.logEvent(describe.drift(id, pct), 'drift', [id]);
  }

  /** `clockjump`: `id`'s wall clock jumps by `ms` (its monotonic clock, and so its timers, do not). */
  jumpClock(id: string, ms: number): void {
    const node = this.node(id);
    this.clockJumpMs[node.index] += ms;
    this.logEvent(describe.clockJump(id, ms), 'clock-jump', [id]);
  }

  setLoss(pct: number): void {
    this.lossPct = pct;
    this.logEvent(describe.loss(pct), 'loss', []);
  }

  /** Messages sent from now on (all of them, or those from or to `target`) take `ms` longer. */
  setDelay(target: string | null, ms: number): void {
    if (target === null) this.delayAllMs = ms;
    else if (ms === 0) this.delayByActor.delete(target);
    else this.delayByActor.set(target, ms);
    this.updateUnreliable();
    this.logEvent(describe.delay(target, ms), 'delay', target !== null ? [target] : []);
  }

  setDuplicates(pct: number): void {
    this.duplicatePct = pct;
    this.updateUnreliable();
    this.logEvent(describe.duplicates(pct), 'duplicate', []);
  }

  setReorder(pct: number): void {
    this.reorderPct = pct;
    this.updateUnreliable();
    this.logEvent(describe.reorder(pct), 'reorder', []);
  }

  /**
   * `slow FACTORx [for MS]` (issue 28): every latency drawn from now on is multiplied by `factor`
   * (1 ends it), for `forMs` ms or until changed. Draws nothing itself.
   */
  setSlow(factor: number, forMs: number | null): void {
    this.slowFactor = factor;
    this.slowUntilMs = factor !== 1 && forMs !== null ? this.nowMs + forMs : null;
    this.updateUnreliable();
    this.logEvent(describe.slow(factor, forMs), 'slow', []);
  }

  private endSlow(): void {
    this.slowFactor = 1;
    this.slowUntilMs = null;
    this.updateUnreliable();
    this.logEvent(describe.slowEnds(), 'slow', []);
  }

  private updateUnreliable(): void {
    this.unreliable =
      this.delayAllMs > 0 || this.delayByActor.size > 0 || this.duplicatePct > 0 || this.reorderPct > 0 || this.slowFactor !== 1;
  }

  /**
   * Faults stop (the liveness check starts here): the network heals and becomes reliable again,
   * and every crashed node and client restarts. Clock drift stays: it slows no election.
   */
  calm(): void {
    this.logEvent(describe.calm(), 'calm', []);
    this.calmAtMs = this.nowMs;
    if (this.groups.length > 0) this.heal();
    if (this.lossPct !== 0) this.setLoss(0);
    this.delayAllMs = 0;
    this.delayByActor.clear();
    this.duplicatePct = 0;
    this.reorderPct = 0;
    this.slowFactor = 1;
    this.slowUntilMs = null;
    this.unreliable = false;
    for (const node of this.nodes) if (!node.alive) this.restart(node.id);
    this.extension?.calm();
  }

  /**
   * After `calm`, each new leader takes one probe entry of its own term: it can commit only once
   * the leader holds a majority, and it commits everything before it, so every log converging on
   * it shows the cluster is live again.
   */
  private probe(): void {
    const leader = this.leader();
    if (leader === null || leader.term === this.probedTerm) return;
    this.probedTerm = leader.term;
    leader.submit(`probe${leader.term}`);
  }

  /** Election Safety: at most one leader was elected in any term. */
  electionSafetyHolds(): boolean {
    for (const ids of this.leadersByTerm.values()) if (new Set(ids).size > 1) return false;
    return true;
  }
}

/** A Raft reply: what a server sends only once its persistent state is on disk (Figure 2). */
function isReply(type: MessageType): boolean {
  return type === 'VoteReply' || type === 'AppendReply' || type === 'InstallSnapshotReply';
}

/**
 * The messages a node handles: every RaftMessage. TimeoutNow was missing, so with a lock service
 * on top it went to the service, which dropped it, and every transfer ran out.
 */
function isRaftMessage(msg: Message): msg is RaftMessage {
  const type = msg.type;
  return (
    type === 'AppendEntries' ||
    type === 'AppendReply' ||
    type === 'RequestVote' ||
    type === 'VoteReply' ||
    type === 'InstallSnapshot' ||
    type === 'InstallSnapshotReply' ||
    type === 'TimeoutNow'
  );
}
