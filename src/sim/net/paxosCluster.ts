/**
 * The Paxos family's cluster: PaxosNodes (src/sim/paxos/) on the same simulated network as
 * Raft's cluster — one seeded CPython-compatible stream, integer-millisecond time, the same
 * message queue delivering in (deliverAt, seq) order, one latency draw per message, loss drawn
 * only when on, and a message dropped at delivery when its receiver is down or the two ends are
 * in different partition groups. A sibling of cluster.ts rather than a mode of it, so Raft's hot
 * paths (send, step, skipQuiet) carry no protocol test at all; docs/semantics.md ("Paxos") says
 * why and lists the draws:
 *
 * - single-decree `paxos`: one latency per message sent (then one loss draw when loss is on);
 *   one back-off per pre-emption when the run has a back-off range. Nothing at construction.
 * - `multi-paxos`: one election timeout per node at construction (node order), one at every
 *   election-timer reset (a campaign, a promise granted, an Accept heard, a step-down, a
 *   restart), plus the latencies, losses and back-offs above.
 */
import { DetailLog } from '../model/detailLog';
import { ballotText, type Ballot } from '../model/ballot';
import { isPaxosConfig, validateConfig, type SimConfig } from '../model/config';
import { describe, eventLine, sortedIds } from '../model/describe';
import { paxosText } from '../model/describePaxos';
import type { DetailBody, DetailEvent, EventKind, SimEvent } from '../model/events';
import { NO_FEATURES, paxosNodeBugs, type PaxosNodeBugs } from '../model/features';
import { majorityOf } from '../model/majority';
import { CPythonRandom, randintParams, type RandintParams } from '../model/prng';
import type { Envelope, Message, PaxosMessage } from '../model/types';
import { PaxosNode, type PaxosHost } from '../paxos/node';
import type { ClusterTracer, DroppedMessage } from './cluster';
import { MessageQueue } from './messageQueue';

/** Sees every acceptance (with the promise the acceptor held before) and every learn: the checkers. */
export interface PaxosObserver {
  accepted(node: PaxosNode, slot: number, ballot: Ballot, value: string, promisedBefore: Ballot): void;
  learned(node: PaxosNode, slot: number, value: string, ballot: Ballot): void;
}

/** A slot's first learn anywhere: the moment the run saw it chosen. */
export interface ChosenRecord {
  readonly slot: number;
  readonly value: string;
  readonly ballot: Ballot;
  readonly atMs: number;
  readonly by: string;
}

const RECENT_DROPS_MS = 400;

export class PaxosCluster implements PaxosHost {
  readonly config: SimConfig;
  readonly protocol: 'paxos' | 'multi-paxos';
  readonly multi: boolean;
  readonly rng: CPythonRandom;
  readonly heartbeatMs: number;
  readonly retryMs: number;
  readonly majority: number;
  readonly bugs: PaxosNodeBugs;
  /** Raft's features: none in a Paxos run (the views read this field of either cluster). */
  readonly features = NO_FEATURES;
  readonly backoffRange: readonly [number, number] | null;
  nowMs = 0;
  readonly nodes: PaxosNode[] = [];
  readonly nodeById = new Map<string, PaxosNode>();
  readonly nodeIds: readonly string[];
  readonly inflight = new MessageQueue();
  private seq = 0;
  groups: string[][] = [];
  private groupOf = new Map<string, number>();
  readonly events: SimEvent[] = [];
  /** Detail events, kept compactly as Raft's cluster keeps them (model/detailLog.ts); off unless recordDetails. */
  readonly detailLog = new DetailLog();
  recordDetails = false;
  readonly sent: Record<string, number> = { Prepare: 0, Promise: 0, Accept: 0, Accepted: 0, Nack: 0 };
  dropped = 0;
  readonly recentDrops: DroppedMessage[] = [];
  lossPct = 0;
  /** No drift in a Paxos run (the views read it of either cluster). */
  readonly driftPct: number[];
  /** Every slot's first learn, in the order they happened. */
  readonly chosen: ChosenRecord[] = [];
  private readonly chosenSlots = new Set<number>();
  /** Commands submitted (Multi-Paxos `submit`, `--submit-every`), with when: the experiments' commit latency. */
  readonly submitted: { readonly value: string; readonly atMs: number; readonly leader: string }[] = [];
  tracer: ClusterTracer | null = null;
  private readonly observers: PaxosObserver[] = [];
  private readonly stepObservers: ((cluster: PaxosCluster) => void)[] = [];
  private readonly latencyDraw: RandintParams | null;
  private readonly timeoutDraw: RandintParams | null;
  private readonly backoffDraw: RandintParams | null;

  constructor(config: SimConfig) {
    this.config = validateConfig(config);
    if (!isPaxosConfig(config)) throw new RangeError('A Paxos cluster needs the protocol paxos or multi-paxos.');
    this.protocol = config.protocol as 'paxos' | 'multi-paxos';
    this.multi = this.protocol === 'multi-paxos';
    this.rng = new CPythonRandom(config.seed);
    this.heartbeatMs = config.heartbeatMs;
    // A single-decree proposer that hears nothing tries a higher ballot after the longest election
    // timeout (a fixed time: it draws nothing).
    this.retryMs = config.electionTimeoutMs[1];
    this.majority = majorityOf(config.nodeIds.length);
    this.bugs = paxosNodeBugs(config.bugs);
    this.backoffRange = config.backoffMs ?? null;
    this.latencyDraw = randintParams(config.latencyMs[0], config.latencyMs[1]);
    this.timeoutDraw = randintParams(config.electionTimeoutMs[0], config.electionTimeoutMs[1]);
    this.backoffDraw = this.backoffRange === null ? null : randintParams(this.backoffRange[0], this.backoffRange[1]);
    const ids = config.nodeIds;
    this.nodeIds = ids;
    this.driftPct = ids.map(() => 0);
    ids.forEach((id, i) => {
      const node = new PaxosNode(
        id,
        i,
        ids.filter((p) => p !== id),
        this,
      );
      this.nodes.push(node);
      this.nodeById.set(id, node);
    });
  }

  // -- services the nodes call ------------------------------------------------------------

  randomElectionTimeout(): number {
    const p = this.timeoutDraw;
    const [a, b] = this.config.electionTimeoutMs;
    return p !== null ? this.rng.randintShifted(p.a, p.width, p.shift) : this.rng.randint(a, b);
  }

  randomBackoff(): number | null {
    const range = this.backoffRange;
    if (range === null) return null;
    const p = this.backoffDraw;
    return p !== null ? this.rng.randintShifted(p.a, p.width, p.shift) : this.rng.randint(range[0], range[1]);
  }

  send(src: string, dst: string, msg: PaxosMessage): void {
    this.sent[msg.type]++;
    const p = this.latencyDraw;
    const [lMin, lMax] = this.config.latencyMs;
    const latency = p !== null ? this.rng.randintShifted(p.a, p.width, p.shift) : this.rng.randint(lMin, lMax);
    const deliverAt = this.nowMs + latency;
    const lost = this.lossPct > 0 && this.rng.random() * 100 < this.lossPct;
    const seq = this.seq++;
    this.inflight.enqueue(deliverAt, seq, this.nowMs, src, dst, msg, lost);
    if (this.tracer !== null) this.tracer.sent(seq, this.nowMs, deliverAt, src, dst, msg);
  }

  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void {
    this.events.push(Object.freeze({ t: this.nowMs, kind, subjects, text, line: eventLine(this.nowMs, text) }));
  }

  /** Every kept detail event as records, oldest first. */
  get details(): readonly DetailEvent[] {
    return this.detailLog.toArray();
  }

  /** Keep only about this many of the newest details (the page's viewed run); Infinity (the CLI) keeps all. */
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
    this.detailLog.push(body, this.nowMs, this.events.length);
  }

  accepted(node: PaxosNode, slot: number, ballot: Ballot, value: string, promisedBefore: Ballot): void {
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i].accepted(node, slot, ballot, value, promisedBefore);
  }

  learned(node: PaxosNode, slot: number, value: string, ballot: Ballot, acceptors: readonly string[]): void {
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i].learned(node, slot, value, ballot);
    if (this.chosenSlots.has(slot)) return;
    this.chosenSlots.add(slot);
    this.chosen.push({ slot, value, ballot, atMs: this.nowMs, by: node.id });
    // Single-decree: the one decision gets a line; a Multi-Paxos log's slots are details.
    if (!this.multi) this.logEvent(paxosText.chosen(value, ballot, acceptors), 'paxos-chosen', [node.id]);
  }

  addObserver(observer: PaxosObserver): void {
    this.observers.push(observer);
  }

  /** Runs after every step (the invariant checker's liveness-free copy uses none; tests may). */
  addStepObserver(observer: (cluster: PaxosCluster) => void): void {
    this.stepObservers.push(observer);
  }

  /** No drift in a Paxos run: every node's clock is the run's. */
  localNowMs(_node: PaxosNode): number {
    return this.nowMs;
  }

  // -- the simulation loop ----------------------------------------------------------------

  reachable(a: string, b: string): boolean {
    if (this.groups.length === 0) return true;
    const ga = this.groupOf.get(a);
    const gb = this.groupOf.get(b);
    return ga === undefined || gb === undefined || ga === gb;
  }

  step(): void {
    const now = ++this.nowMs;
    const queue = this.inflight;
    const tracer = this.tracer;
    while (queue.peekDeliverAt() <= now) {
      const env = queue.pop() as Envelope;
      const node = this.nodeById.get(env.dst);
      if (node === undefined) throw new RangeError(`A message was sent to "${env.dst}", which is no node of this run.`);
      const reason = env.lost ? 'loss' : !node.alive ? 'down' : !this.reachable(env.src, env.dst) ? 'partition' : null;
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
      if (tracer !== null) tracer.delivering(env.seq);
      node.onMessage(env.src, env.payload as PaxosMessage);
      queue.release(env);
    }
    if (tracer !== null) tracer.deliveriesDone();
    const nodes = this.nodes;
    for (let i = 0; i < nodes.length; i++) nodes[i].tick();
    const observers = this.stepObservers;
    for (let i = 0; i < observers.length; i++) observers[i](this);
    if (tracer !== null) tracer.afterStep();
  }

  private noteDrop(envelope: Envelope, reason: DroppedMessage['reason']): void {
    const drops = this.recentDrops;
    drops.push({ envelope, droppedAt: this.nowMs, reason });
    let cut = 0;
    while (cut < drops.length && (drops[cut].droppedAt < this.nowMs - RECENT_DROPS_MS || drops.length - cut > 256)) cut++;
    if (cut > 0) drops.splice(0, cut);
  }

  /** The first time after now at which step() can change anything (see Cluster.nextEventMs). */
  nextEventMs(): number {
    const soonest = this.nowMs + 1;
    if (this.stepObservers.length > 0) return soonest;
    let next = this.inflight.peekDeliverAt();
    for (const node of this.nodes) {
      const due = node.nextTickDue();
      if (due < next) next = due;
    }
    return next > soonest ? next : soonest;
  }

  /** Moves the clock over quiet milliseconds, to `limitMs` at most: nothing happens and nothing draws. */
  skipQuiet(limitMs: number): void {
    if (limitMs <= this.nowMs || this.stepObservers.length > 0) return;
    const last = Math.min(limitMs, this.nextEventMs() - 1);
    if (last > this.nowMs && last < Infinity) this.nowMs = last;
  }

  runUntil(t: number): void {
    while (this.nowMs < t) {
      this.skipQuiet(t);
      if (this.nowMs < t) this.step();
    }
  }

  /** Multi-Paxos: the live leader with the highest ballot (a deposed one may linger in a minority); single-decree: null. */
  leader(): PaxosNode | null {
    let best: PaxosNode | null = null;
    for (const node of this.nodes) if (node.alive && node.phase === 'leading' && (best === null || node.ballot > best.ballot)) best = node;
    return best;
  }

  node(id: string): PaxosNode {
    const node = this.nodeById.get(id);
    if (!node) throw new Error(`There is no node "${id}"; the nodes are ${this.nodeIds.join(', ')}.`);
    return node;
  }

  // -- the schedule's verbs -----------------------------------------------------------------

  partition(groups: readonly (readonly string[])[]): void {
    const named = groups.map((g) => [...g]);
    const mentioned = new Set(named.flat());
    const rest = this.nodeIds.filter((id) => !mentioned.has(id));
    this.groups = rest.length > 0 ? [...named, rest] : named;
    this.groupOf = new Map();
    this.groups.forEach((g, i) => g.forEach((id) => this.groupOf.set(id, i)));
    this.logEvent(describe.partition(this.groups), 'partition', sortedIds(mentioned));
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

  restart(id: string): void {
    const node = this.node(id);
    node.restart();
    this.logEvent(paxosText.restarts(id, node.acceptor.promised), 'restart', [id]);
  }

  setLoss(pct: number): void {
    this.lossPct = pct;
    this.logEvent(describe.loss(pct), 'loss', []);
  }

  /** Faults stop: the network heals and loses nothing, every crashed node restarts. */
  calm(): void {
    this.logEvent(describe.calm(), 'calm', []);
    if (this.groups.length > 0) this.heal();
    if (this.lossPct !== 0) this.setLoss(0);
    for (const node of this.nodes) if (!node.alive) this.restart(node.id);
  }

  /** The `propose` verb: a client hands `value` to proposer `id`; a refusal is logged as an event. */
  propose(value: string, id: string): boolean {
    const reason = this.node(id).propose(value);
    if (reason === null) return true;
    this.logEvent(paxosText.proposeRejected('propose', value, id, reason), 'paxos-propose-rejected', [id]);
    return false;
  }

  /** Multi-Paxos `submit`: to the leader (or to `target`, which must lead), as Raft's submit; a refusal is an event. */
  submit(value: string, target: string | null = null): boolean {
    const node = target === null ? this.leader() : this.node(target);
    const reason =
      node === null ? 'no leader' : !node.alive ? `${node.id} is down` : node.phase !== 'leading' ? `${node.id} is not the leader` : null;
    if (reason !== null || node === null) {
      this.logEvent(
        paxosText.proposeRejected('submit', value, target, reason ?? 'no leader'),
        'paxos-propose-rejected',
        target ? [target] : [],
      );
      return false;
    }
    this.submitted.push({ value, atMs: this.nowMs, leader: node.id });
    node.submit(value);
    return true;
  }

  /** Multi-Paxos `timeout`: the node's election timer fires now (it draws a new one, as a natural timeout does). */
  forceTimeout(id: string): void {
    const node = this.node(id);
    const reason = !node.alive ? `${id} is down` : node.phase === 'leading' ? `${id} is the leader and has no election timer` : null;
    if (reason !== null) {
      this.logEvent(describe.electionForceRefused(id, reason), 'election-force-refused', [id]);
      return;
    }
    this.logEvent(describe.electionForced(id), 'election-forced', [id]);
    node.leaderId = null;
    node.startPrepare(true);
  }

  /** Ballot text for sentences about this run. */
  ballotText(ballot: Ballot): string {
    return ballotText(ballot);
  }
}

/** A message of the Paxos family (the views and the trace tell the two families' messages apart by it). */
export function isPaxosMessage(msg: Message): msg is PaxosMessage {
  const t = msg.type;
  return t === 'Prepare' || t === 'Promise' || t === 'Accept' || t === 'Accepted' || t === 'Nack';
}
