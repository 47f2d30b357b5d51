/**
 * Every message between the page (host) and the simulation worker, both ways, as discriminated
 * unions. The host never reaches into the simulation: it sends these and receives snapshots.
 * Host and worker talk through an `Endpoint`, so tests connect them over a `MessageChannel`.
 */
import type { BugName, SimConfig } from '../sim/model/config';
import type { FeatureName } from '../sim/model/features';
import type { DetailEvent, EventKind, SimEvent } from '../sim/model/events';
import type { ExperimentSpec, RunJob, RunResult } from '../sim/experiments/experiment';
import type { HistoryOpJson } from '../sim/model/history';
import type { Violation } from '../sim/check/invariants';
import { DEFAULT_SPEED, MAX_SEEK_MS, MAX_SPEED, MIN_SPEED } from '../sim/model/limits';
import type { LinearizabilityReport } from '../sim/check/linearizability/check';
import type { Action, ActionBody } from '../sim/model/schedule';
import type { PaintDrop, PaintMessage, PaintNode, PaintView, RunView } from '../sim/view/runView';
import type { TraceDelta } from '../sim/view/traceColumns';
import type { PaceStep } from '../sim/teach/tours/pace';
import type { PaintLook } from '../paint/messagePainter';
import type { ImportedView, ModelName } from '../sim/import/view';
import type { FailedCas } from '../sim/import/checkImported';

/**
 * The run's end, which "Next event" and the scrubber never pass: the furthest of the preset's end
 * (stopAt), the time a person reached (by playing, stepping or going to a time: the timeline's
 * horizon) and the last scheduled action; never past the cap. Playing goes beyond it and moves it.
 */
export function runEndMs(stopAtMs: number | null, horizonMs: number, schedule: readonly Action[]): number {
  let end = Math.max(stopAtMs ?? 0, horizonMs);
  for (const a of schedule) if (a.at > end) end = a.at;
  return Math.min(end, MAX_SEEK_MS);
}

export type HostToWorker =
  /**
   * Start a new run. The old run stays if the config or schedule is bad (an error comes back).
   * The schedule is already parsed: text exists only at the edges (link, CLI, schedule editor).
   * `startAtMs` replays the run up to that time at once (time travel, adding a client mid-run).
   * `stopAtMs` pauses playback when simulated time reaches it (a preset's end).
   */
  | {
      readonly type: 'load';
      readonly config: SimConfig;
      readonly schedule: readonly Action[];
      readonly startAtMs?: number;
      readonly stopAtMs?: number | null;
      readonly playing?: boolean;
      /** Echoed back so the host knows which load a snapshot belongs to. */
      readonly label?: string;
      /**
       * A tour beat's speeds by simulated time (src/sim/teach/tours/pace.ts), followed while this
       * load plays to its stop; a 'speed' message (the person's choice) drops it.
       */
      readonly pace?: readonly PaceStep[];
    }
  | { readonly type: 'play' }
  | { readonly type: 'pause' }
  /** `ms`: advance this many ms (default 1); `event`: go to the next (or previous) event's time. */
  | { readonly type: 'step'; readonly by: 'ms'; readonly ms?: number }
  | { readonly type: 'step'; readonly by: 'event'; readonly direction?: 1 | -1 }
  /**
   * Go to a time (the timeline replays from the nearest checkpoint). Seeks that arrive faster
   * than frames (a dragged scrubber) are coalesced: only the last one is computed.
   */
  | { readonly type: 'seek'; readonly toMs: number }
  /** Go to `fromMs` and play until `toMs`, then pause there. */
  | { readonly type: 'play-window'; readonly fromMs: number; readonly toMs: number }
  /** The person's speed: played at from now on (a tour beat's pace plan is dropped). */
  | { readonly type: 'speed'; readonly speed: number }
  /** "Slow around events": slow down before each landmark coming up, and a little after it. */
  | { readonly type: 'assist'; readonly slowAround: boolean }
  /**
   * A person's action, applied and recorded at the current simulated time. In the past it forks
   * the run: the actions after now are set aside (undo brings them back).
   */
  | { readonly type: 'action'; readonly body: ActionBody }
  | { readonly type: 'undo' }
  | { readonly type: 'redo' }
  /** Search for a counterexample with the swarm fuzzer, in slices between frames. */
  /** The counterexample search: swarm runs with these bugs, and these protocol features in every run (absent: drawn per run). */
  | {
      readonly type: 'fuzz';
      readonly seed: number;
      readonly runs: number;
      readonly bugs: readonly BugName[];
      readonly features?: readonly FeatureName[];
      readonly durationMs?: number;
    }
  | { readonly type: 'fuzz-cancel' }
  /** Stream the trace (for the space-time view) while `on`; turning it on resends it whole. */
  | { readonly type: 'trace'; readonly on: boolean }
  /** Make an export of the run as it stands now (time 0 to the current time); answered by `export` with the same id. */
  | { readonly type: 'export'; readonly requestId: number; readonly format: ExportFormat }
  /** The clients' history up to the time on screen and its linearizability verdicts; answered by `history`. */
  | { readonly type: 'history'; readonly requestId: number }
  /**
   * The page drew what it had received (sent once per page frame that had a playing run's
   * snapshot or clock). From the first one on, a playing run's frames wait while
   * MAX_UNSHOWN_FRAMES posts are still undrawn, so a busy page is not sent frames it would
   * only decode and drop; a waiting worker posts its next frame as soon as this arrives.
   */
  | { readonly type: 'shown' }
  /**
   * A paint worker's end of a channel (src/worker/paint.worker.ts): from now on every frame of
   * the run goes there as a PaintFrame, so the message canvas is drawn off the page's main
   * thread (and the page gets snapshots at PAGE_FRAME_MS while playing). `painter-detach`
   * closes it when the canvas goes away.
   */
  | { readonly type: 'painter'; readonly id: number; readonly port: MessagePort }
  | { readonly type: 'painter-detach'; readonly id: number };

/**
 * What the paint worker draws a frame from, sent by the simulation worker every frame the run
 * changes or its clock moves: the whole `view` after a reset, else its `change` since the last
 * frame (src/worker/paintFeed.ts). A clock-only frame (neither) keeps the last messages, drops
 * and timers.
 */
export interface PaintFrame {
  readonly type: 'paint-frame';
  readonly clockMs: number;
  readonly view?: PaintView;
  readonly change?: PaintChange;
}

/** The view since the last frame: drops and timers whole (they are few), messages as a change. */
export interface PaintChange {
  /** Messages new since the last frame, or whose fields changed (their old copy is in `gone`), in seq order. */
  readonly added: readonly PaintMessage[];
  /** Seqs of the messages the painter has that are no longer in flight (or were replaced). */
  readonly gone: readonly number[];
  readonly drops: readonly PaintDrop[];
  readonly nodes: readonly PaintNode[];
}

/**
 * Playing, with a paint worker drawing the motion, the page needs a snapshot only this often
 * (real ms): its glyphs, panels and clock follow at up to 20 a second, while the canvas gets
 * every frame. A person's command is still answered in the next frame.
 */
export const PAGE_FRAME_MS = 50;

/**
 * The page to its paint worker: the canvas (once, with the channel the simulation worker's
 * frames arrive on), then the look whenever the layout, size, colours or motion setting change.
 */
export type HostToPainter =
  | { readonly type: 'canvas'; readonly canvas: OffscreenCanvas; readonly frames: MessagePort }
  | { readonly type: 'look'; readonly look: PaintLook };

/** Playing, the worker posts at most this many frames ahead of the page's last 'shown'. */
export const MAX_UNSHOWN_FRAMES = 1;

/** The exports the worker makes: they need the whole run, not just what the page holds. */
export const EXPORT_FORMATS = ['trace-json', 'events-md', 'events-csv', 'shiviz'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A scrubber mark: an election, crash, restart, partition, heal, lock grant/expiry or rejected write. */
export interface LandmarkView {
  readonly t: number;
  readonly kind: EventKind;
  readonly text: string;
}

export type ViolationView = Pick<Violation, 'invariant' | 'title' | 't' | 'nodes' | 'sentence' | 'line'>;

/**
 * The invariant checker's view of this run. It checks a separate copy of the run, advanced to
 * the timeline's horizon in slices; a run is a pure function of its inputs, so what it finds is
 * exactly what the viewed run does.
 */
export interface CheckStatus {
  /** The checker has looked at every millisecond up to here. */
  readonly checkedToMs: number;
  readonly violation: ViolationView | null;
  /** Writes the unfenced store accepted from a client whose lease had ended (not failures). */
  readonly staleWrites: number;
  /** Leases the service ended before the client's own count, with clock drift set (findings); absent when none. */
  readonly leasesEndedEarly?: number;
  /** The liveness check after `calm`: absent until the run has one. */
  readonly liveness?: { readonly state: 'waiting' | 'held' | 'skipped' | 'interrupted'; readonly note: string };
}

export interface SnapshotMessage {
  readonly type: 'snapshot';
  /** Increments with every load; a host drops events from older runs. */
  readonly runId: number;
  readonly label: string | null;
  readonly snapshot: RunView;
  /** Events since the previous snapshot message of this run (all of them after a load/seek). */
  readonly events: readonly SimEvent[];
  /** Detail events since the previous snapshot message, built the same way as `events`. */
  readonly details: readonly DetailEvent[];
  /** The run's index of `events[0]`, so the host can place each detail (`afterEvent`) among the lines. */
  readonly eventsFrom: number;
  /** True when `events` and `details` start the log afresh (after a load or a backward seek). */
  readonly resetEvents: boolean;
  /** Simulated clock with the fraction of the next ms already elapsed, for smooth motion. */
  readonly clockMs: number;
  readonly playing: boolean;
  /** The speed playing at now: the chosen one, or a tour beat's pace, or slowed around an event. */
  readonly speed: number;
  /** The speed the person chose (what a link keeps, and what playback returns to). */
  readonly chosenSpeed: number;
  readonly stopAtMs: number | null;
  readonly config: SimConfig;
  /** The run's schedule with every recorded action; null when unchanged since the last snapshot of this run. */
  readonly schedule: readonly Action[] | null;
  /** The furthest time computed for this schedule. */
  readonly horizonMs: number;
  /** The run's end (`runEndMs`): the scrubber's extent, and as far as Next event looks. */
  readonly endMs: number;
  /** Whether the run has been forked by an action in its past (undo takes it back). */
  readonly fork: ForkView | null;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** The run's landmarks up to the horizon; null when unchanged since the last snapshot of this run. */
  readonly landmarks: readonly LandmarkView[] | null;
  readonly check: CheckStatus;
}

/** A run changed in its past: a person's action at a time before what was already computed, or before scheduled actions. */
export interface ForkView {
  /** The earliest time the run was changed in its past (the scenario label says "forked at"). */
  readonly atMs: number;
  /** The last action taken, when it forked the run: Undo takes exactly it back. Null otherwise. */
  readonly last: { readonly atMs: number; readonly setAside: number } | null;
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

export interface FuzzProgressMessage {
  readonly type: 'fuzz-progress';
  readonly phase: 'search' | 'shrink';
  readonly runsDone: number;
  readonly runs: number;
  readonly runsPerSec: number;
  /** Replays spent shrinking the counterexample so far. */
  readonly shrinkAttempts: number;
}

export interface FuzzDoneMessage {
  readonly type: 'fuzz-done';
  readonly runsDone: number;
  readonly runs: number;
  readonly cancelled: boolean;
  readonly seconds: number;
  /** What was found; the worker has loaded its run, paused at the violation. */
  readonly found: {
    readonly violation: ViolationView;
    readonly schedule: readonly Action[];
    readonly actions: number;
    readonly run: number;
  } | null;
}

/** New trace rows and the spans, while the host has the trace switched on. */
export interface TraceMessage {
  readonly type: 'trace';
  readonly runId: number;
  readonly delta: TraceDelta;
}

/** An export's text, or the sentence saying why it could not be made. */
export interface ExportMessage {
  readonly type: 'export';
  readonly requestId: number;
  readonly format: ExportFormat;
  readonly text: string | null;
  readonly error: string | null;
  /** The run's seed and the time the export covers, for the file name. */
  readonly seed: string;
  readonly untilMs: number;
}

/** Per model, the page's history check may search this long before it says "unknown". */
export const HISTORY_CHECK_LIMIT_MS = 300;

/** The clients' history of the viewed run at `atMs`, checked (null verdicts: the run has no clients). */
export interface HistoryMessage {
  readonly type: 'history';
  readonly requestId: number;
  readonly runId: number;
  readonly atMs: number;
  readonly ops: readonly HistoryOpJson[];
  readonly verdicts: LinearizabilityReport | null;
}

export type WorkerToHost =
  SnapshotMessage | ClockMessage | ErrorMessage | FuzzProgressMessage | FuzzDoneMessage | TraceMessage | ExportMessage | HistoryMessage;

/** The part of `Worker`, `MessagePort` and a worker's global scope both sides use. */
export interface Endpoint<In, Out> {
  postMessage(message: Out, transfer?: Transferable[]): void;
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

// -- experimentProtocol ------------------------------------------------------------------------
// The page and its pool of experiment workers (experiment.worker.ts): a batch of (point, seed)
// runs of one experiment out, their results back. Separate from the simulation worker's messages
// above; the workers share no state, so any batch may go to any worker.

export interface ExperimentBatchMessage {
  readonly type: 'experiment-batch';
  /** Matches the answer to its batch; the pool ignores answers to a cancelled experiment. */
  readonly batch: number;
  readonly spec: ExperimentSpec;
  readonly jobs: readonly RunJob[];
}

export type HostToExperimentWorker = ExperimentBatchMessage;

export type ExperimentWorkerToHost =
  | { readonly type: 'experiment-results'; readonly batch: number; readonly results: readonly RunResult[] }
  | { readonly type: 'experiment-failed'; readonly batch: number; readonly error: string };

// -- importProtocol --------------------------------------------------------------------------
// The page and the import worker (import.worker.ts, issue 27): one file from another tool read
// and checked off the main thread, with progress while the search runs and a time limit, after
// which the verdict is "unknown" (never a wrong one). The page cancels by ending the worker.

export interface ImportFileMessage {
  readonly type: 'import-file';
  /** Matches the answer to its request; the page ignores answers to one it has replaced. */
  readonly request: number;
  readonly name: string;
  readonly text: string;
  readonly model?: ModelName;
  /** The registers' initial value as EDN text (nil when absent). */
  readonly initial?: string;
  /** What a failed cas tells; absent: as the file's tool reads it. */
  readonly failedCas?: FailedCas;
  readonly timeLimitMs: number;
}

export type HostToImportWorker = ImportFileMessage;

export type ImportWorkerToHost =
  /** How far the search got: the most completed operations placed so far, of all. */
  | {
      readonly type: 'import-progress';
      readonly request: number;
      readonly placed: number;
      readonly total: number;
      readonly elapsedMs: number;
    }
  | { readonly type: 'import-done'; readonly request: number; readonly view: ImportedView; readonly elapsedMs: number }
  /** One sentence; `choices` when the file does not say which model (the page shows a picker). */
  | { readonly type: 'import-failed'; readonly request: number; readonly error: string; readonly choices?: readonly ModelName[] };
