/**
 * The run as a trace: every message from send to delivery or drop, and the spans of state that the
 * space-time view draws (roles and terms, crashes, partitions, pauses, leases on both sides, store
 * writes). Recorded by `TraceRecorder` (traceRecorder.ts) while a run advances; it only observes, so
 * a run with a recorder draws, sends and logs exactly what it does without one.
 *
 * Two shapes of the same record:
 * - `RunTrace`: the versioned JSON trace people export (`--trace FILE`, the Export menu);
 * - `TraceColumns`: the same messages as typed-array columns, cheap to post from the worker
 *   and to cull by time in the view (traceColumns.ts).
 */
import type { SimConfig } from '../model/config';
import type { detailJson } from './report';
import type { Message, MessageType, Role } from '../model/types';

/** Bumped whenever a field of `RunTrace` changes meaning or shape. */
export const TRACE_VERSION = 1;

export type DropReason = 'down' | 'partition' | 'loss';

export interface TraceMessage {
  /** The envelope's sequence number: unique in the run, and the order of sending. */
  readonly id: number;
  readonly type: MessageType;
  readonly from: string;
  readonly to: string;
  /** The payload, field for field as it went on the wire. */
  readonly fields: Message;
  readonly sentAt: number;
  /** When the network scheduled it to arrive (latency, delay and reordering included). */
  readonly dueAt: number;
  /** When it was handed to its receiver; null if dropped or still in flight at the trace's end. */
  readonly deliveredAt: number | null;
  /** When and why the network dropped it; null otherwise. */
  readonly droppedAt: number | null;
  readonly dropReason: DropReason | null;
  /** The message whose delivery made the sender send this one (a reply's request), or null for a timer, a tick or a person's action. */
  readonly cause: number | null;
  /** An AppendEntries with no entries, or the reply to one: folded into a tick row when heartbeats are hidden. */
  readonly heartbeat: boolean;
  /**
   * Present only on a network duplicate (the `duplicate` fault): the id of the message it copies.
   * The sender sent the original once; `--json`'s `sent` counts the messages without this field.
   */
  readonly copyOf?: number;
}

/** What a node was during [from, to): its role and term, or down. `to` null: still so at the trace's end. */
export interface NodeSpan {
  readonly node: string;
  readonly from: number;
  readonly to: number | null;
  readonly state: Role | 'down';
  readonly term: number;
}

/** A client process's state during [from, to): running, paused (a pause it cannot see) or crashed. */
export interface ClientSpan {
  readonly client: string;
  readonly from: number;
  readonly to: number | null;
  readonly state: 'up' | 'paused' | 'crashed';
}

export interface PartitionSpan {
  readonly from: number;
  readonly to: number | null;
  /** The groups as the schedule gave them (actors in no group reach everyone). */
  readonly groups: readonly (readonly string[])[];
}

/**
 * A lease, as one side counts it.
 * - `client`: from the client hearing its grant to the end it believes in (its own count, from when it
 *   asked), or to when it dropped the holding (release, crash), whichever came first.
 * - `service`: on the node that led while the lock was held, from applying the grant to the moment
 *   that node's (possibly drifting) clock said the lease ran out, or the lock left its table, or it
 *   stopped leading.
 */
export interface LeaseSpan {
  readonly side: 'client' | 'service';
  /** The client for `client`, the leader for `service`. */
  readonly holder: string;
  /** The client holding the lock (the same as `holder` on the client side). */
  readonly owner: string;
  readonly key: string;
  /** Null with a lock service that has no fencing token (issue 26). */
  readonly token: number | null;
  readonly from: number;
  readonly to: number | null;
  /** Why it ended: 'ran-out' (its count reached the end), 'released', 'expired' (removed from the table), 'crashed', 'deposed' (the leader stopped leading), 'renewed'; null while open. */
  readonly ended: 'ran-out' | 'released' | 'expired' | 'crashed' | 'deposed' | 'renewed' | null;
}

/** A write that reached a store: accepted, or refused with the token comparison. */
export interface StoreMark {
  readonly store: 'fenced' | 'unfenced';
  readonly t: number;
  /** The StoreWrite message that carried it. */
  readonly message: number | null;
  readonly client: string;
  readonly key: string;
  readonly value: string;
  readonly token: number | null;
  readonly accepted: boolean;
  /** The store's highest token for the key before this write (null: none yet). */
  readonly highestBefore: number | null;
  /** The writer's lease had already ended when the write landed. */
  readonly leaseEnded: boolean;
  /** Why it was refused, one sentence; null when accepted. */
  readonly reason: string | null;
}

/** The lanes of the run, in the view's default order: nodes, clients, stores. */
export interface TraceActors {
  readonly nodes: readonly string[];
  readonly clients: readonly string[];
  readonly stores: readonly string[];
}

/** Everything the recorder saw, up to `untilMs`. */
export interface TraceRecord {
  readonly untilMs: number;
  readonly actors: TraceActors;
  readonly messages: readonly TraceMessage[];
  readonly nodeSpans: readonly NodeSpan[];
  readonly clientSpans: readonly ClientSpan[];
  readonly partitions: readonly PartitionSpan[];
  readonly leases: readonly LeaseSpan[];
  readonly storeMarks: readonly StoreMark[];
}

/** The run a trace is of: enough to replay it (`npm run sim -- --seed … --schedule … --until …`). */
export interface TraceRunSpec {
  readonly seed: string;
  readonly config: Omit<SimConfig, 'seed'>;
  /** The schedule in the schedule language (`formatSchedule`). */
  readonly schedule: string;
  readonly untilMs: number;
  readonly submitEveryMs: number | null;
  /**
   * Present only when the run stopped before `untilMs` because the engine or a checker threw:
   * the trace ends there (spans still open at `atMs` are open at its end), and `reason` says why.
   * Replaying `untilMs` stops at the same moment.
   */
  readonly stopped?: RunStop;
}

/** Where and why a run stopped early (an exception: the engine never throws, so it is a finding). */
export interface RunStop {
  readonly atMs: number;
  readonly reason: string;
}

/** The exported trace (JSON). Keys are written in this order; numbers as integers. */
export interface RunTrace extends Omit<TraceRecord, 'untilMs'> {
  readonly format: 'lockstep-trace';
  readonly version: typeof TRACE_VERSION;
  readonly run: TraceRunSpec;
  /** The chapter's event lines, structured (t, kind, subjects, text, line). */
  readonly events: readonly {
    readonly t: number;
    readonly kind: string;
    readonly subjects: readonly string[];
    readonly text: string;
    readonly line: string;
  }[];
  /** Detail events (the second stream), as `--json` prints them. */
  readonly details: readonly ReturnType<typeof detailJson>[];
}
