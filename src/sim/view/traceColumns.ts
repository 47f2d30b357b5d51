/**
 * The trace's messages as typed-array columns: what the worker posts to the page (transferable,
 * so a 10-minute run's hundred thousand messages cross in a few ms) and what the space-time view
 * culls by time. Message i of the run is row i; rows are in send order, so `sentAt` never
 * decreases and a time window is found by binary search.
 *
 * The spans (roles, crashes, partitions, pauses, leases, store writes) are few and stay objects.
 */
import type { ClientSpan, LeaseSpan, NodeSpan, PartitionSpan, StoreMark, TraceActors, TraceMessage } from './traceTypes';
import { MESSAGE_TYPES, type MessageType } from '../model/types';

/** Column `type` holds an index into this list (model/types.ts). */
export { MESSAGE_TYPES };
const TYPE_CODE = new Map<MessageType, number>(MESSAGE_TYPES.map((t, i) => [t, i]));

/** Column `fate`. */
export const FATE = { inFlight: 0, delivered: 1, loss: 2, down: 3, partition: 4 } as const;
export type FateCode = (typeof FATE)[keyof typeof FATE];
export const FATE_NAMES = ['in flight', 'delivered', 'lost', 'receiver down', 'partitioned'] as const;

export interface MessageColumns {
  /** Rows in use (the arrays may be longer). */
  readonly count: number;
  /** The message id (envelope seq). */
  readonly id: Int32Array;
  /** Index into MESSAGE_TYPES. */
  readonly type: Uint8Array;
  /** Index into `TraceView.actorIds`. */
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly sentAt: Float64Array;
  /** Delivery or drop time; NaN while in flight at the trace's end. */
  readonly endAt: Float64Array;
  readonly fate: Uint8Array;
  /** 1 for a heartbeat (an AppendEntries with no entries) or the reply to one. */
  readonly heartbeat: Uint8Array;
  /** 1 when a reply says yes (VoteReply granted, AppendReply success), else 0: the ring's shapes differ by it. */
  readonly ok: Uint8Array;
  /** The id of the message whose delivery caused this one, or -1. */
  readonly cause: Int32Array;
  /** A short line per message for tooltips and accessible names (`AppendEntries term 2, prev 2/1, 1 entry, commit 2`). */
  readonly label: readonly string[];
  /** The longest sentAt→endAt of any row (in-flight rows count to `untilMs`): how far back a window must look. */
  readonly maxSpanMs: number;
}

/** What the space-time view draws: the trace of the viewed run's schedule, up to `untilMs`. */
export interface TraceView {
  /** Changes whenever the trace starts over (a new run, or the schedule changed before `untilMs`). */
  readonly traceId: number;
  readonly untilMs: number;
  readonly actors: TraceActors;
  /** nodes, then clients, then stores: what the `from`/`to` columns index. */
  readonly actorIds: readonly string[];
  readonly messages: MessageColumns;
  readonly nodeSpans: readonly NodeSpan[];
  readonly clientSpans: readonly ClientSpan[];
  readonly partitions: readonly PartitionSpan[];
  readonly leases: readonly LeaseSpan[];
  readonly storeMarks: readonly StoreMark[];
}

export function typeCode(type: MessageType): number {
  const code = TYPE_CODE.get(type);
  if (code === undefined) throw new RangeError(`Unknown message type "${type}".`);
  return code;
}

export function fateCode(m: Pick<TraceMessage, 'deliveredAt' | 'droppedAt' | 'dropReason'>): FateCode {
  if (m.deliveredAt !== null) return FATE.delivered;
  if (m.droppedAt !== null) return m.dropReason === 'loss' ? FATE.loss : m.dropReason === 'down' ? FATE.down : FATE.partition;
  return FATE.inFlight;
}

/**
 * What the worker posts while the space-time view is open: the rows from `fromRow` on (rows before
 * it are final: their fates were known at the last post), and the spans whole (they are few).
 * `reset`: the trace started over, drop everything held for it.
 */
export interface TraceDelta {
  readonly traceId: number;
  readonly reset: boolean;
  readonly untilMs: number;
  readonly actors: TraceActors;
  readonly actorIds: readonly string[];
  readonly fromRow: number;
  readonly rows: MessageColumns;
  readonly nodeSpans: readonly NodeSpan[];
  readonly clientSpans: readonly ClientSpan[];
  readonly partitions: readonly PartitionSpan[];
  readonly leases: readonly LeaseSpan[];
  readonly storeMarks: readonly StoreMark[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Empty columns with room for `capacity` rows. */
export function emptyColumns(capacity = 0): MessageColumns {
  return {
    count: 0,
    id: new Int32Array(capacity),
    type: new Uint8Array(capacity),
    from: new Uint8Array(capacity),
    to: new Uint8Array(capacity),
    sentAt: new Float64Array(capacity),
    endAt: new Float64Array(capacity),
    fate: new Uint8Array(capacity),
    heartbeat: new Uint8Array(capacity),
    ok: new Uint8Array(capacity),
    cause: new Int32Array(capacity),
    label: [],
    maxSpanMs: 0,
  };
}

const TYPED_COLUMNS = ['id', 'type', 'from', 'to', 'sentAt', 'endAt', 'fate', 'heartbeat', 'ok', 'cause'] as const;

/** The typed arrays of `columns` (rows 0..count), for a postMessage transfer list. */
export function transferablesOf(columns: MessageColumns): ArrayBuffer[] {
  return TYPED_COLUMNS.map((k) => columns[k].buffer as ArrayBuffer);
}

/**
 * `held` with `rows` written from row `at` on: rows past `at + rows.count` go. Grows by doubling,
 * writing into `held`'s arrays when they are big enough (the caller gives up `held`).
 */
export function spliceColumns(held: MessageColumns, at: number, rows: MessageColumns): MessageColumns {
  const count = at + rows.count;
  if (at > held.count) throw new RangeError(`Trace rows from ${at} cannot follow the ${held.count} rows held.`);
  let out: Mutable<MessageColumns>;
  if (count > held.id.length) {
    const grown = emptyColumns(Math.max(count, held.id.length * 2, 1024)) as Mutable<MessageColumns>;
    for (const k of TYPED_COLUMNS) (grown[k] as Int32Array | Uint8Array | Float64Array).set(held[k].subarray(0, at) as never);
    grown.label = held.label.slice(0, at);
    out = grown;
  } else {
    out = { ...held, label: held.label.length > at ? held.label.slice(0, at) : (held.label as string[]) };
  }
  for (const k of TYPED_COLUMNS) (out[k] as Int32Array | Uint8Array | Float64Array).set(rows[k].subarray(0, rows.count) as never, at);
  const labels = out.label as string[];
  labels.length = at;
  for (let i = 0; i < rows.count; i++) labels.push(rows.label[i]);
  out.count = count;
  out.maxSpanMs = Math.max(at === 0 ? 0 : held.maxSpanMs, rows.maxSpanMs);
  return out;
}

/** The trace the page holds after a delta arrives. */
export function applyTraceDelta(held: TraceView | null, delta: TraceDelta): TraceView {
  const fresh = held === null || delta.reset || held.traceId !== delta.traceId;
  const base = fresh ? emptyColumns() : held.messages;
  const from = fresh ? 0 : Math.min(delta.fromRow, base.count);
  if (fresh && delta.fromRow !== 0) throw new RangeError(`A new trace must start at row 0, not ${delta.fromRow}.`);
  return {
    traceId: delta.traceId,
    untilMs: delta.untilMs,
    actors: delta.actors,
    actorIds: delta.actorIds,
    messages: spliceColumns(base, from, delta.rows),
    nodeSpans: delta.nodeSpans,
    clientSpans: delta.clientSpans,
    partitions: delta.partitions,
    leases: delta.leases,
    storeMarks: delta.storeMarks,
  };
}
