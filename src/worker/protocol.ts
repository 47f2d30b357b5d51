/**
 * Every message between the page (host) and the simulation worker, both ways, as discriminated
 * unions. The host never reaches into the simulation: it sends these and receives snapshots.
 * Host and worker talk through an `Endpoint`, so tests connect them over a `MessageChannel`.
 */
import type { SimConfig } from '../sim/config';
import type { SimEvent } from '../sim/events';
import type { ActionBody } from '../sim/schedule';
import type { Snapshot } from '../sim/snapshot';

/** Speeds are simulated ms per real ms. 0.1x: a 50 ms heartbeat takes half a second to see. */
export const MIN_SPEED = 0.01;
export const MAX_SPEED = 100;
export const DEFAULT_SPEED = 0.1;
export const SPEED_CHOICES = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;

/** How far "step to the next event" looks before giving up, in simulated ms. */
export const NEXT_EVENT_HORIZON_MS = 60_000;

export type HostToWorker =
  /**
   * Start a new run. The old run stays if the config or schedule is bad (an error comes back).
   * `startAtMs` replays the run up to that time at once (time travel, adding a client mid-run).
   * `stopAtMs` pauses playback when simulated time reaches it (a preset's end).
   */
  | {
      readonly type: 'load';
      readonly config: SimConfig;
      readonly schedule: string;
      readonly startAtMs?: number;
      readonly stopAtMs?: number | null;
      readonly playing?: boolean;
      /** Echoed back so the host knows which load a snapshot belongs to. */
      readonly label?: string;
    }
  | { readonly type: 'play' }
  | { readonly type: 'pause' }
  /** `ms`: advance this many ms (default 1); `event`: advance until a new event line appears. */
  | { readonly type: 'step'; readonly by: 'ms'; readonly ms?: number }
  | { readonly type: 'step'; readonly by: 'event' }
  /** Go to a time: forward by stepping, backward by replaying the recorded schedule from 0. */
  | { readonly type: 'seek'; readonly toMs: number }
  | { readonly type: 'speed'; readonly speed: number }
  /** A person's action, applied and recorded at the current simulated time. */
  | { readonly type: 'action'; readonly body: ActionBody };

export interface SnapshotMessage {
  readonly type: 'snapshot';
  /** Increments with every load; a host drops events from older runs. */
  readonly runId: number;
  readonly label: string | null;
  readonly snapshot: Snapshot;
  /** Events since the previous snapshot message of this run (all of them after a load/seek). */
  readonly events: readonly SimEvent[];
  /** True when `events` starts the log afresh (after a load or a backward seek). */
  readonly resetEvents: boolean;
  /** Simulated clock with the fraction of the next ms already elapsed, for smooth motion. */
  readonly clockMs: number;
  readonly playing: boolean;
  readonly speed: number;
  readonly stopAtMs: number | null;
  readonly config: SimConfig;
  /** The run's schedule with every recorded action, in the schedule language. */
  readonly schedule: string;
}

/** Sent instead of a snapshot when only the fractional clock moved (very slow playback). */
export interface ClockMessage {
  readonly type: 'clock';
  readonly runId: number;
  readonly clockMs: number;
}

export interface ErrorMessage {
  readonly type: 'error';
  /** One sentence naming what was wrong and what is allowed. */
  readonly message: string;
}

export type WorkerToHost = SnapshotMessage | ClockMessage | ErrorMessage;

/** The part of `Worker`, `MessagePort` and a worker's global scope both sides use. */
export interface Endpoint<In, Out> {
  postMessage(message: Out): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<In>) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent<In>) => void): void;
}

export type HostEndpoint = Endpoint<WorkerToHost, HostToWorker>;
export type WorkerEndpoint = Endpoint<HostToWorker, WorkerToHost>;

export function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return DEFAULT_SPEED;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

export function speedLabel(speed: number): string {
  return `${speed}×`;
}
