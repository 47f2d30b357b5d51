/**
 * The trace's messages as typed-array columns: what the worker posts to the page (transferable,
 * so a 10-minute run's hundred thousand messages cross in a few ms) and what the space-time view
 * culls by time. Message i of the run is row i; rows are in send order, so `sentAt` never
 * decreases and a time window is found by binary search.
 *
 * The spans (roles, crashes, partitions, pauses, leases, store writes) are few and stay objects.
 */
import type { ClientSpan, LeaseSpan, NodeSpan, PartitionSpan, StoreMark, TraceActors, TraceMessage } from './traceTypes';
import type { MessageType } from './types';

/** Column `type` holds an index into this list. */
export const MESSAGE_TYPES: readonly MessageType[] = [
  'RequestVote', 'VoteReply', 'AppendEntries', 'AppendReply', 'ClientRequest', 'ClientReply', 'StoreWrite',
];
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
