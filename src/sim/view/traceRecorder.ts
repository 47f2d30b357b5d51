/**
 * Records a run as a trace (traceTypes.ts) while it moves forward: every message from send to
 * delivery or drop, and the spans of state the space-time view draws. It hooks the cluster as
 * its `tracer` (a null check on the hot path when absent) and only reads: it draws nothing,
 * sends nothing and logs nothing, so a run with a recorder is the run without one.
 *
 * Messages are kept as growable typed-array columns plus the payloads, so a 10-minute run's
 * hundred thousand messages cost little; `record()` makes the JSON-shaped objects on demand and
 * `columnsFrom(row)` the columns the worker posts. Spans are sampled after every step and
 * after every schedule action by comparing with what was last seen: a span is appended or
 * closed only when something changed.
 *
 * Attach it to a fresh run that moves forward: a checkpoint (`Simulation.clone`) is made
 * without it, so replays from checkpoints never feed it.
 */
import { paxosMessageLabel } from '../model/describePaxos';
import { rpcLabel } from '../model/lockWire';
import { MAX_NODES } from '../model/config';
import type { ClientActor } from '../service/clientActor';
import type { Cluster, ClusterTracer } from '../net/cluster';
import type { LockService } from '../service/lockService';
import type { RaftNode } from '../raft/node';
import type { AnyRun } from '../run/run';
import type { PaxosCluster } from '../net/paxosCluster';
import type { Store } from '../service/stores';
import { FATE, typeCode, type MessageColumns, type TraceView } from './traceColumns';
import type {
  ClientSpan,
  DropReason,
  LeaseSpan,
  NodeSpan,
  PartitionSpan,
  StoreMark,
  TraceActors,
  TraceMessage,
  TraceRecord,
} from './traceTypes';
import { isLockCommand, type Message, type Role } from '../model/types';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const APPEND_ENTRIES = typeCode('AppendEntries');
const STORE_WRITE = typeCode('StoreWrite');
const DROP_REASONS: readonly (DropReason | null)[] = [null, null, 'loss', 'down', 'partition'];
const INITIAL_ROWS = 1024;

interface ClientLease {
  readonly token: number | null;
  /** The open span, or null once it ran out (the holding may linger past its deadline). */
  span: Mutable<LeaseSpan> | null;
}

interface ServiceLease {
  readonly token: number;
  span: Mutable<LeaseSpan> | null;
}

export class TraceRecorder implements ClusterTracer {
  /** A Raft run or a Paxos run (its nodes have Raft's role and, for a term, a ballot: paxos/node.ts). */
  readonly sim: AnyRun;
  readonly actors: TraceActors;
  /** nodes, then clients, then stores: what the `from`/`to` columns index. */
  readonly actorIds: readonly string[];
  private readonly cluster: Cluster | PaxosCluster;
  private readonly service: LockService | null;
  private readonly actorIndex = new Map<string, number>();

  // -- messages: row i is message baseId + i ------------------------------------------------
  private baseId = -1;
  private rows = 0;
  private type = new Uint8Array(INITIAL_ROWS);
  private from = new Uint8Array(INITIAL_ROWS);
  private to = new Uint8Array(INITIAL_ROWS);
  private sentAt = new Float64Array(INITIAL_ROWS);
  private dueAt = new Float64Array(INITIAL_ROWS);
  private endAt = new Float64Array(INITIAL_ROWS);
  private fate = new Uint8Array(INITIAL_ROWS);
  private heartbeat = new Uint8Array(INITIAL_ROWS);
  private ok = new Uint8Array(INITIAL_ROWS);
  private cause = new Int32Array(INITIAL_ROWS);
  /** The original's id for a network duplicate, else -1. */
  private copyOf = new Int32Array(INITIAL_ROWS);
  private payloads: Message[] = [];
  /** Labels made so far (rows 0..labels.length-1): each row's is made once, when first asked for. */
  private readonly labels: string[] = [];
  /** The message being delivered right now (its id), or -1. */
  private delivering_ = -1;
  private openFrom = 0;
  private closedMaxSpan = 0;

  // -- spans --------------------------------------------------------------------------------
  private readonly nodeSpans_: Mutable<NodeSpan>[] = [];
  private readonly openNode: (Mutable<NodeSpan> | null)[];
  private readonly clientSpans_: Mutable<ClientSpan>[] = [];
  private readonly openClient: (Mutable<ClientSpan> | null)[];
  private readonly clients: readonly ClientActor[];
  private readonly partitions_: Mutable<PartitionSpan>[] = [];
  private lastGroups: readonly (readonly string[])[] | null = null;
  private openPartition: Mutable<PartitionSpan> | null = null;
  private readonly leases_: Mutable<LeaseSpan>[] = [];
  private readonly clientLeases: Map<string, ClientLease>[];
  private leader: RaftNode | null = null;
  private leaderTerm = -1;
  private leaderApplied = 0;
  private readonly serviceLeases = new Map<string, ServiceLease>();
  private readonly storeMarks_: StoreMark[] = [];
  private readonly stores: readonly Store[];
  private readonly storeSeen: number[];
  /** Per store: the StoreWrite ids delivered to it whose write record is not yet read. */
  private readonly storeQueue: number[][];
  private readonly highest: Map<string, number>[];
  private readonly storeBase: number;

  private constructor(sim: AnyRun) {
    this.sim = sim;
    this.cluster = sim.cluster;
    this.service = sim.lockService;
    const config = this.cluster.config;
    const service = this.service;
    this.stores = service !== null ? [service.fenced, service.unfenced] : [];
    // With membership changes every id a server may join as (n1..n9) has its lane from the start.
    const joinable = this.cluster.features.membership
      ? Array.from({ length: MAX_NODES }, (_, i) => `n${i + 1}`).filter((id) => !config.nodeIds.includes(id))
      : [];
    this.actors = {
      nodes: [...config.nodeIds, ...joinable],
      clients: service !== null ? [...config.clientIds] : [],
      stores: this.stores.map((s) => s.id),
    };
    this.actorIds = [...this.actors.nodes, ...this.actors.clients, ...this.actors.stores];
    this.actorIds.forEach((id, i) => this.actorIndex.set(id, i));
    this.storeBase = this.actors.nodes.length + this.actors.clients.length;
    this.openNode = this.cluster.nodes.map(() => null);
    this.clients = service !== null ? config.clientIds.map((id) => service.client(id)) : [];
    this.openClient = this.clients.map(() => null);
    this.clientLeases = this.clients.map(() => new Map());
    this.storeSeen = this.stores.map((s) => s.writes.length);
    this.storeQueue = this.stores.map(() => []);
    this.highest = this.stores.map((s) => new Map(s.highest));
  }

  /** Starts recording `sim` from its current instant. A run has at most one recorder. */
  static attach(sim: AnyRun): TraceRecorder {
    if (sim.cluster.tracer !== null) throw new RangeError('This run already has a trace recorder.');
    const recorder = new TraceRecorder(sim);
    sim.cluster.tracer = recorder;
    recorder.sample();
    return recorder;
  }

  /** Stops recording; what was recorded stays readable. */
  detach(): void {
    if (this.cluster.tracer === this) this.cluster.tracer = null;
  }

  get nowMs(): number {
    return this.cluster.nowMs;
  }

  // -- ClusterTracer ------------------------------------------------------------------------

  sent(id: number, sentAt: number, dueAt: number, src: string, dst: string, msg: Message, copyOf = -1): void {
    if (this.baseId < 0) this.baseId = id;
    const row = this.rows;
    if (id - this.baseId !== row) throw new RangeError(`The trace expected message ${this.baseId + row}, not ${id}.`);
    if (row === this.type.length) this.grow();
    const type = typeCode(msg.type);
    this.type[row] = type;
    this.from[row] = this.actor(src);
    this.to[row] = this.actor(dst);
    this.sentAt[row] = sentAt;
    this.dueAt[row] = dueAt;
    this.endAt[row] = NaN;
    this.fate[row] = FATE.inFlight;
    const cause = this.delivering_;
    this.cause[row] = cause;
    this.copyOf[row] = copyOf;
    let heartbeat = 0;
    let ok = 0;
    switch (msg.type) {
      case 'AppendEntries':
        heartbeat = msg.entries.length === 0 ? 1 : 0;
        break;
      case 'AppendReply': {
        const causeRow = cause - this.baseId;
        heartbeat = cause >= 0 && causeRow >= 0 && this.type[causeRow] === APPEND_ENTRIES ? this.heartbeat[causeRow] : 0;
        ok = msg.success ? 1 : 0;
        break;
      }
      case 'VoteReply':
        ok = msg.granted ? 1 : 0;
        break;
      // Paxos: an Accept with no values is the Multi-Paxos leader's heartbeat; a promise and an
      // acceptance say yes, a Nack no (ok stays 0).
      case 'Accept':
        heartbeat = msg.entries.length === 0 ? 1 : 0;
        break;
      case 'Promise':
      case 'Accepted':
        ok = 1;
        break;
    }
    this.heartbeat[row] = heartbeat;
    this.ok[row] = ok;
    this.payloads.push(msg);
    this.rows = row + 1;
  }

  delivering(id: number): void {
    this.delivering_ = id;
    const row = id - this.baseId;
    if (this.baseId < 0 || row < 0) return; // sent before the recorder was attached
    this.close(row, FATE.delivered);
    if (this.type[row] === STORE_WRITE) this.storeQueue[this.to[row] - this.storeBase].push(id);
  }

  dropped(id: number, reason: DropReason): void {
    const row = id - this.baseId;
    if (this.baseId < 0 || row < 0) return;
    this.close(row, reason === 'loss' ? FATE.loss : reason === 'down' ? FATE.down : FATE.partition);
  }

  deliveriesDone(): void {
    this.delivering_ = -1;
  }

  afterStep(): void {
    this.delivering_ = -1;
    this.sample();
  }

  // -- reading ------------------------------------------------------------------------------

  /** Messages recorded so far (in flight included). */
  get messageCount(): number {
    return this.rows;
  }

  /** The lowest row whose fate is still open (messageCount when none is): rows below it never change again. */
  get firstOpenRow(): number {
    let row = this.openFrom;
    while (row < this.rows && this.fate[row] !== FATE.inFlight) row++;
    this.openFrom = row;
    return row;
  }

  /** Message `row` (in send order) as the JSON trace has it, as of now. */
  messageAt(row: number): TraceMessage {
    if (!(row >= 0 && row < this.rows)) throw new RangeError(`There is no message row ${row}; the trace has ${this.rows}.`);
    const fate = this.fate[row];
    const end = this.endAt[row];
    const ids = this.actorIds;
    const payload = this.payloads[row];
    const cause = this.cause[row];
    return {
      id: this.baseId + row,
      type: payload.type,
      from: ids[this.from[row]],
      to: ids[this.to[row]],
      fields: payload,
      sentAt: this.sentAt[row],
      dueAt: this.dueAt[row],
      deliveredAt: fate === FATE.delivered ? end : null,
      droppedAt: fate > FATE.delivered ? end : null,
      dropReason: DROP_REASONS[fate],
      cause: cause < 0 ? null : cause,
      heartbeat: this.heartbeat[row] === 1,
      // Only on a copy, so a trace without duplicates keeps its bytes.
      ...(this.copyOf[row] >= 0 ? { copyOf: this.copyOf[row] } : {}),
    };
  }

  get nodeSpans(): readonly NodeSpan[] {
    return this.nodeSpans_;
  }

  get clientSpans(): readonly ClientSpan[] {
    return this.clientSpans_;
  }

  get partitions(): readonly PartitionSpan[] {
    return this.partitions_;
  }

  get leases(): readonly LeaseSpan[] {
    return this.leases_;
  }

  get storeMarks(): readonly StoreMark[] {
    return this.storeMarks_;
  }

  /** Everything recorded up to now; messages still in flight have null fates. A copy: later steps do not change it. */
  record(): TraceRecord {
    const messages: TraceMessage[] = new Array(this.rows);
    for (let i = 0; i < this.rows; i++) messages[i] = this.messageAt(i);
    return {
      untilMs: this.cluster.nowMs,
      actors: this.actors,
      messages,
      ...this.spans(),
    };
  }

  /** Copies of the span arrays as of now. */
  spans(): Pick<TraceRecord, 'nodeSpans' | 'clientSpans' | 'partitions' | 'leases' | 'storeMarks'> {
    return {
      nodeSpans: this.nodeSpans_.map((s) => ({ ...s })),
      clientSpans: this.clientSpans_.map((s) => ({ ...s })),
      partitions: this.partitions_.map((s) => ({ ...s, groups: s.groups.map((g) => [...g]) })),
      leases: this.leases_.map((s) => ({ ...s })),
      storeMarks: [...this.storeMarks_],
    };
  }

  /**
   * Rows `row`.. as typed-array columns (row `row` of the run is row 0 of the columns). The
   * worker posts rows from `firstOpenRow` on each time, since rows below it never change.
   */
  columnsFrom(row: number): { from: number; columns: MessageColumns } {
    const start = Math.max(0, Math.min(row, this.rows));
    const end = this.rows;
    const count = end - start;
    const id = new Int32Array(count);
    for (let i = 0; i < count; i++) id[i] = this.baseId + start + i;
    const labels = this.labels;
    for (let i = labels.length; i < end; i++) {
      // The space-time view's tooltip and accessible name say which message a duplicate copies.
      const copyOf = this.copyOf[i];
      labels.push(copyOf < 0 ? messageLabel(this.payloads[i]) : `${messageLabel(this.payloads[i])} (a network copy of #${copyOf})`);
    }
    const label = labels.slice(start, end);
    const cause = this.cause.slice(start, end);
    return {
      from: start,
      columns: {
        count,
        id,
        type: this.type.slice(start, end),
        from: this.from.slice(start, end),
        to: this.to.slice(start, end),
        sentAt: this.sentAt.slice(start, end),
        endAt: this.endAt.slice(start, end),
        fate: this.fate.slice(start, end),
        heartbeat: this.heartbeat.slice(start, end),
        ok: this.ok.slice(start, end),
        cause,
        label,
        maxSpanMs: this.maxSpanMs(),
      },
    };
  }

  /**
   * Makes the labels of rows not labelled yet, until `clock()` passes `deadline`; true when every
   * row has one. The worker runs it in idle frames, so opening the space-time view on a long run
   * does not first spend a few hundred ms building a hundred thousand strings.
   */
  prepareLabels(deadline: number, clock: () => number): boolean {
    const labels = this.labels;
    while (labels.length < this.rows) {
      const end = Math.min(this.rows, labels.length + 512);
      for (let i = labels.length; i < end; i++) labels.push(messageLabel(this.payloads[i]));
      if (clock() > deadline) break;
    }
    return labels.length >= this.rows;
  }

  /** The longest sentAt→endAt of any row so far, counting rows in flight to now. */
  maxSpanMs(): number {
    const open = this.firstOpenRow;
    const inFlight = open < this.rows ? this.cluster.nowMs - this.sentAt[open] : 0;
    return inFlight > this.closedMaxSpan ? inFlight : this.closedMaxSpan;
  }

  // -- internals ----------------------------------------------------------------------------

  private actor(id: string): number {
    const index = this.actorIndex.get(id);
    if (index === undefined) throw new RangeError(`The trace has no actor "${id}".`);
    return index;
  }

  private close(row: number, fate: number): void {
    const now = this.cluster.nowMs;
    this.endAt[row] = now;
    this.fate[row] = fate;
    const span = now - this.sentAt[row];
    if (span > this.closedMaxSpan) this.closedMaxSpan = span;
  }

  private grow(): void {
    const size = this.type.length * 2;
    const more = <A extends Uint8Array | Int32Array | Float64Array>(a: A, make: (n: number) => A): A => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.type = more(this.type, (n) => new Uint8Array(n));
    this.from = more(this.from, (n) => new Uint8Array(n));
    this.to = more(this.to, (n) => new Uint8Array(n));
    this.sentAt = more(this.sentAt, (n) => new Float64Array(n));
    this.dueAt = more(this.dueAt, (n) => new Float64Array(n));
    this.endAt = more(this.endAt, (n) => new Float64Array(n));
    this.fate = more(this.fate, (n) => new Uint8Array(n));
    this.heartbeat = more(this.heartbeat, (n) => new Uint8Array(n));
    this.ok = more(this.ok, (n) => new Uint8Array(n));
    this.cause = more(this.cause, (n) => new Int32Array(n));
    this.copyOf = more(this.copyOf, (n) => new Int32Array(n));
  }

  /** Compares the run with what was last seen and appends or closes spans where it changed. */
  private sample(): void {
    const now = this.cluster.nowMs;
    this.sampleNodes(now);
    this.samplePartition(now);
    if (this.service === null) return;
    this.sampleClients(now);
    this.sampleServiceLeases(now);
    this.sampleStores();
  }

  private sampleNodes(now: number): void {
    const nodes = this.cluster.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const state: Role | 'down' = node.alive ? node.role : 'down';
      const open = i < this.openNode.length ? this.openNode[i] : null;
      if (open !== null && open.state === state && open.term === node.term) continue;
      if (open !== null) open.to = now;
      const span: Mutable<NodeSpan> = { node: node.id, from: now, to: null, state, term: node.term };
      this.nodeSpans_.push(span);
      this.openNode[i] = span;
    }
  }

  private samplePartition(now: number): void {
    const groups = this.cluster.groups;
    if (groups === this.lastGroups) return;
    this.lastGroups = groups;
    if (this.openPartition !== null) {
      this.openPartition.to = now;
      this.openPartition = null;
    }
    if (groups.length === 0) return;
    const span: Mutable<PartitionSpan> = { from: now, to: null, groups: groups.map((g) => [...g]) };
    this.partitions_.push(span);
    this.openPartition = span;
  }

  private sampleClients(now: number): void {
    const clients = this.clients;
    for (let i = 0; i < clients.length; i++) {
      const client = clients[i];
      const state = !client.alive ? 'crashed' : client.paused(now) ? 'paused' : 'up';
      const open = this.openClient[i];
      if (open === null || open.state !== state) {
        if (open !== null) open.to = now;
        const span: Mutable<ClientSpan> = { client: client.id, from: now, to: null, state };
        this.clientSpans_.push(span);
        this.openClient[i] = span;
      }
      const tracked = this.clientLeases[i];
      const holdings = client.holdings;
      if (tracked.size === 0 && holdings.size === 0) continue;
      for (const [key, lease] of tracked) {
        const holding = holdings.get(key);
        if (holding !== undefined && holding.token === lease.token) {
          if (lease.span !== null && now >= holding.deadline) {
            endLease(lease.span, Math.max(lease.span.from, holding.deadline), 'ran-out');
            lease.span = null;
          }
          continue;
        }
        if (lease.span !== null) endLease(lease.span, now, holding !== undefined ? 'renewed' : client.alive ? 'released' : 'crashed');
        tracked.delete(key);
      }
      for (const [key, holding] of holdings) {
        if (tracked.has(key)) continue;
        const span: Mutable<LeaseSpan> = {
          side: 'client',
          holder: client.id,
          owner: client.id,
          key,
          token: holding.token,
          from: now,
          to: null,
          ended: null,
        };
        this.leases_.push(span);
        const lease: ClientLease = { token: holding.token, span };
        if (now >= holding.deadline) {
          endLease(span, Math.max(now, holding.deadline), 'ran-out');
          lease.span = null;
        }
        tracked.set(key, lease);
      }
    }
  }

  private sampleServiceLeases(now: number): void {
    const service = this.service as LockService;
    const leader = (this.cluster as Cluster).leader(); // a service runs on Raft only
    const tracked = this.serviceLeases;
    if (leader !== this.leader || (leader !== null && leader.term !== this.leaderTerm)) {
      for (const lease of tracked.values()) if (lease.span !== null) endLease(lease.span, now, 'deposed');
      tracked.clear();
      this.leader = leader;
      this.leaderTerm = leader !== null ? leader.term : -1;
      this.leaderApplied = leader !== null ? leader.lastApplied : 0;
    }
    if (leader === null) return;
    const locks = service.machineOf(leader).locks;
    if (locks.size === 0 && tracked.size === 0) {
      this.leaderApplied = leader.lastApplied;
      return;
    }
    const local = (this.cluster as Cluster).localNowMs(leader);
    for (const [key, lease] of tracked) {
      const holder = locks.get(key);
      if (holder !== undefined && holder.token === lease.token) {
        if (lease.span !== null && local >= holder.grantedAtLocalMs + holder.leaseMs) {
          endLease(lease.span, now, 'ran-out');
          lease.span = null;
        }
        continue;
      }
      if (lease.span !== null) endLease(lease.span, now, holder !== undefined ? 'renewed' : this.howLeft(leader, key));
      tracked.delete(key);
    }
    for (const [key, holder] of locks) {
      if (tracked.has(key)) continue;
      let span: Mutable<LeaseSpan> | null = null;
      if (local < holder.grantedAtLocalMs + holder.leaseMs) {
        span = { side: 'service', holder: leader.id, owner: holder.owner, key, token: holder.token, from: now, to: null, ended: null };
        this.leases_.push(span);
      }
      tracked.set(key, { token: holder.token, span });
    }
    this.leaderApplied = leader.lastApplied;
  }

  /** Why `key` left the leader's table since the last sample: the last entry it applied for the key. */
  private howLeft(leader: RaftNode, key: string): 'released' | 'expired' {
    for (let i = leader.lastApplied; i > this.leaderApplied; i--) {
      const command = leader.entryAt(i)?.command;
      if (command === undefined || !isLockCommand(command) || command.key !== key) continue;
      if (command.type === 'release') return 'released';
      if (command.type === 'expire') return 'expired';
    }
    return 'expired';
  }

  private sampleStores(): void {
    const stores = this.stores;
    for (let s = 0; s < stores.length; s++) {
      const writes = stores[s].writes;
      if (writes.length === this.storeSeen[s]) continue;
      const queue = this.storeQueue[s];
      const highest = this.highest[s];
      for (let w = this.storeSeen[s]; w < writes.length; w++) {
        const record = writes[w];
        const before = highest.get(record.key) ?? null;
        if (record.accepted && record.token !== null && (before === null || record.token > before)) highest.set(record.key, record.token);
        this.storeMarks_.push({
          store: stores[s].id,
          t: record.t,
          message: queue.length > 0 ? (queue.shift() as number) : null,
          client: record.client,
          key: record.key,
          value: record.value,
          token: record.token,
          accepted: record.accepted,
          highestBefore: before,
          leaseEnded: record.leaseEnded,
          reason: record.reason,
        });
      }
      this.storeSeen[s] = writes.length;
      queue.length = 0;
    }
  }
}

function endLease(span: Mutable<LeaseSpan>, to: number, ended: NonNullable<LeaseSpan['ended']>): void {
  span.to = to;
  span.ended = ended;
}

/** A short line for a message: tooltips and accessible names (`AppendEntries term 2, prev 2/1, 1 entry, commit 2`). */
export function messageLabel(msg: Message): string {
  switch (msg.type) {
    case 'RequestVote':
      return `RequestVote term ${msg.term}, last ${msg.lastLogIndex}/${msg.lastLogTerm}`;
    case 'VoteReply':
      return `VoteReply term ${msg.term} ${msg.granted ? 'granted' : 'refused'}`;
    case 'AppendEntries': {
      const n = msg.entries.length;
      return `AppendEntries term ${msg.term}, prev ${msg.prevLogIndex}/${msg.prevLogTerm}, ${n} ${n === 1 ? 'entry' : 'entries'}, commit ${msg.leaderCommit}`;
    }
    case 'AppendReply':
      return `AppendReply term ${msg.term} ${msg.success ? 'success' : 'failure'}, match ${msg.matchIndex}`;
    case 'TimeoutNow':
      return `TimeoutNow term ${msg.term}`;
    case 'ClientRequest':
      return msg.op === 'acquire'
        ? `ClientRequest acquire ${msg.key} (lease ${msg.leaseMs} ms) #${msg.id}`
        : `ClientRequest release ${msg.key}${msg.token !== null ? ` token ${msg.token}` : ''} #${msg.id}`;
    case 'ClientReply':
      return `ClientReply ${msg.outcome} ${msg.key}${msg.token !== null ? ` token ${msg.token}` : ''}${msg.outcome === 'not-leader' && msg.leaderHint !== null ? ` (try ${msg.leaderHint})` : ''}`;
    case 'StoreWrite':
      return `StoreWrite ${msg.key}=${msg.value} ${msg.token !== null ? `token ${msg.token}` : 'no token'}`;
    case 'InstallSnapshot':
      return `InstallSnapshot term ${msg.term}, snapshot ≤ ${msg.snapshot.index} (term ${msg.snapshot.term})`;
    case 'InstallSnapshotReply':
      return `InstallSnapshotReply term ${msg.term}, match ${msg.matchIndex}`;
    case 'ServiceRpc':
      return rpcLabel(msg);
    // Issue 28: the failure detectors' messages.
    case 'Gossip':
      return `Gossip, ${msg.counts.length} counters`;
    case 'KeepAlive':
      return `KeepAlive ${msg.keys.join(', ')}`;
    default:
      return paxosMessageLabel(msg);
  }
}

/** What the space-time view draws, from a recorder, as of now (a pure snapshot). */
export function traceView(recorder: TraceRecorder, traceId: number): TraceView {
  return {
    traceId,
    untilMs: recorder.nowMs,
    actors: recorder.actors,
    actorIds: recorder.actorIds,
    messages: recorder.columnsFrom(0).columns,
    ...recorder.spans(),
  };
}
