/**
 * The host side of the worker protocol: sends commands, and writes what comes back into the
 * store with `setState` from outside React — at most once per animation frame, however many
 * messages arrived in between (their event lines are concatenated, the latest snapshot wins).
 * A snapshot message becomes the store's one `frame`; nothing is mirrored field by field.
 */
import type { BugName, SimConfig } from '../../sim/model/config';
import type { FeatureName } from '../../sim/model/features';
import type { DetailEvent, SimEvent } from '../../sim/model/events';
import type { Action, ActionBody } from '../../sim/model/schedule';
import { applyTraceDelta, type TraceDelta } from '../../sim/view/traceColumns';
import type { PaceStep } from '../../sim/teach/tours/pace';
import {
  clampSpeed,
  type ExportFormat,
  type ExportMessage,
  type FuzzDoneMessage,
  type FuzzProgressMessage,
  type HistoryMessage,
  type HostEndpoint,
  type HostToWorker,
  type LandmarkView,
  type SnapshotMessage,
  type WorkerToHost,
} from '../../worker/protocol';
import { MAX_DETAILS_KEPT, MAX_EVENTS_KEPT, type Frame, type LabState, type LabStore } from '../store/labStore';

export interface BridgeOptions {
  /** Runs `flush` before the next paint (requestAnimationFrame in the page). */
  readonly scheduleFlush?: (flush: () => void) => void;
}

export interface LoadOptions {
  readonly startAtMs?: number;
  readonly stopAtMs?: number | null;
  readonly playing?: boolean;
  readonly label?: string;
  /** A tour beat's speeds by simulated time, until its stop (src/sim/teach/tours/pace.ts). */
  readonly pace?: readonly PaceStep[];
}

const defaultScheduleFlush = (flush: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 0);
};

export class HostBridge {
  private pendingSnapshot: SnapshotMessage | null = null;
  /**
   * The speed the person last asked for, until a frame from the worker carries it: frames the
   * worker sent before it heard still carry the old speed, and must not put it back (two quick
   * presses of − would step once).
   */
  private askedSpeed: number | null = null;
  private pendingEvents: SimEvent[] = [];
  private pendingDetails: DetailEvent[] = [];
  /** The run's index of pendingEvents[0] when they start the log afresh. */
  private pendingEventsFrom = 0;
  private pendingReset = false;
  private pendingClock: number | null = null;
  private pendingError: string | null = null;
  private pendingLandmarks: readonly LandmarkView[] | null = null;
  /** The schedule of the pending snapshot's run, if a message since the last flush carried one. */
  private pendingSchedule: readonly Action[] | null = null;
  private pendingFuzzProgress: FuzzProgressMessage | null = null;
  private pendingFuzzDone: FuzzDoneMessage | null = null;
  /** Trace deltas since the last flush, applied in order. */
  private pendingTrace: TraceDelta[] = [];
  private traceOn = false;
  private nextExportId = 1;
  private nextPainterId = 1;
  private readonly exportWaiters = new Map<number, (message: ExportMessage) => void>();
  private readonly historyWaiters = new Map<number, (message: HistoryMessage) => void>();
  private historyInFlight = false;
  private historyNext: Promise<HistoryMessage> | null = null;
  private readonly historyNextWaiters: ((message: HistoryMessage) => void)[] = [];
  private flushQueued = false;
  private readonly scheduleFlush: (flush: () => void) => void;
  private readonly onMessage = (event: MessageEvent<WorkerToHost>) => this.receive(event.data);

  constructor(
    private readonly endpoint: HostEndpoint,
    readonly store: LabStore,
    options: BridgeOptions = {},
  ) {
    this.scheduleFlush = options.scheduleFlush ?? defaultScheduleFlush;
    endpoint.addEventListener('message', this.onMessage);
  }

  dispose(): void {
    this.endpoint.removeEventListener('message', this.onMessage);
  }

  // -- commands -----------------------------------------------------------------------------

  load(config: SimConfig, schedule: readonly Action[], options: LoadOptions = {}): void {
    // The first step of a pace plan is what the speed box shows until the worker answers.
    if (options.pace && options.pace.length > 0) this.setFrame({ speed: options.pace[0].speed });
    this.send({ type: 'load', config, schedule, ...options });
  }

  /** What the page shows at once, before the worker's next snapshot confirms it. */
  private setFrame(change: Partial<Frame>): void {
    this.store.setState((s) => ({ frame: { ...s.frame, ...change } }));
  }

  play(): void {
    this.setFrame({ playing: true });
    this.send({ type: 'play' });
  }

  pause(): void {
    this.setFrame({ playing: false });
    this.send({ type: 'pause' });
  }

  togglePlay(): void {
    if (this.store.getState().frame.playing) this.pause();
    else this.play();
  }

  stepMs(ms = 1): void {
    this.setFrame({ playing: false });
    this.send({ type: 'step', by: 'ms', ms });
  }

  stepToNextEvent(): void {
    this.setFrame({ playing: false });
    this.send({ type: 'step', by: 'event' });
  }

  stepToPreviousEvent(): void {
    this.setFrame({ playing: false });
    this.send({ type: 'step', by: 'event', direction: -1 });
  }

  /**
   * Gives the simulation worker a paint worker's channel: every frame it posts here it also
   * posts there (src/worker/paint.worker.ts). The function returned closes the channel.
   */
  attachPainter(port: MessagePort): () => void {
    const id = this.nextPainterId++;
    this.endpoint.postMessage({ type: 'painter', id, port }, [port]);
    return () => this.endpoint.postMessage({ type: 'painter-detach', id });
  }

  seek(toMs: number): void {
    this.send({ type: 'seek', toMs });
  }

  /** Pauses (if playing) and goes to a time, landing there exactly: Go to, the scrubber, To end. */
  goTo(toMs: number): void {
    if (this.store.getState().frame.playing) this.pause();
    this.seek(toMs);
  }

  /** Plays the stretch [fromMs, toMs] of the run and pauses at its end. */
  playWindow(fromMs: number, toMs: number): void {
    this.setFrame({ playing: true });
    this.send({ type: 'play-window', fromMs: Math.round(fromMs), toMs: Math.round(toMs) });
  }

  /** Pauses and goes to the previous/next landmark of the run (elections, crashes, ...). */
  jumpToLandmark(direction: 1 | -1): boolean {
    const s = this.store.getState();
    const now = s.frame.snapshot?.now ?? 0;
    const marks = s.landmarks;
    let to: number | null = null;
    if (direction < 0) {
      for (let i = marks.length - 1; i >= 0; i--)
        if (marks[i].t < now) {
          to = marks[i].t;
          break;
        }
    } else {
      for (const m of marks)
        if (m.t > now) {
          to = m.t;
          break;
        }
    }
    if (to === null) return false;
    this.goTo(to);
    return true;
  }

  undo(): void {
    this.setFrame({ playing: false });
    this.send({ type: 'undo' });
  }

  redo(): void {
    this.setFrame({ playing: false });
    this.send({ type: 'redo' });
  }

  /** Searches for a counterexample in the worker; the run it finds is loaded, paused at the violation. */
  findCounterexample(options: {
    seed: number;
    runs: number;
    bugs: readonly BugName[];
    features?: readonly FeatureName[];
    durationMs?: number;
  }): void {
    this.setFrame({ playing: false });
    this.store.setState({ fuzzRunning: true, fuzzProgress: null, fuzzDone: null });
    this.send({ type: 'fuzz', ...options });
  }

  cancelFuzz(): void {
    this.send({ type: 'fuzz-cancel' });
  }

  /** The person's speed (a tour beat's pace gives way to it). */
  setSpeed(speed: number): void {
    const s = clampSpeed(speed);
    this.askedSpeed = s;
    this.setFrame({ speed: s, chosenSpeed: s });
    this.send({ type: 'speed', speed: s });
  }

  /** "Slow around events": the worker slows down before each landmark it sees coming. */
  setSlowAround(on: boolean): void {
    this.endpoint.postMessage({ type: 'assist', slowAround: on });
  }

  act(body: ActionBody): void {
    this.send({ type: 'action', body });
  }

  /** Streams the run's trace into the store (the space-time view is open) or stops it. */
  setTraceStreaming(on: boolean): void {
    if (on === this.traceOn) return;
    this.traceOn = on;
    this.pendingTrace = [];
    if (!on) this.store.setState({ trace: null });
    this.endpoint.postMessage({ type: 'trace', on });
  }

  /** Asks the worker for an export of the run from time 0 to now. */
  requestExport(format: ExportFormat): Promise<ExportMessage> {
    const requestId = this.nextExportId++;
    return new Promise((resolve) => {
      this.exportWaiters.set(requestId, resolve);
      this.endpoint.postMessage({ type: 'export', requestId, format });
    });
  }

  /** Asks the worker for the clients' history at the time on screen, with its verdicts. */
  /**
   * The history checked at the time on screen. The History tab and the space-time view may both
   * ask: one check is in flight at a time, and everyone who asks meanwhile shares the one sent when
   * it returns, so each caller's answer is taken after its call and the worker checks once per turn.
   */
  requestHistory(): Promise<HistoryMessage> {
    if (!this.historyInFlight) {
      this.historyInFlight = true;
      return this.postHistoryRequest();
    }
    this.historyNext ??= new Promise((resolve) => this.historyNextWaiters.push(resolve));
    return this.historyNext;
  }

  private postHistoryRequest(): Promise<HistoryMessage> {
    const requestId = this.nextExportId++;
    return new Promise((resolve) => {
      this.historyWaiters.set(requestId, (message) => {
        resolve(message);
        this.historyAnswered();
      });
      this.endpoint.postMessage({ type: 'history', requestId });
    });
  }

  /** A check came back: send the one the others are waiting for, if any. */
  private historyAnswered(): void {
    const waiters = this.historyNextWaiters.splice(0);
    this.historyNext = null;
    if (waiters.length === 0) {
      this.historyInFlight = false;
      return;
    }
    void this.postHistoryRequest().then((message) => {
      for (const w of waiters) w(message);
    });
  }

  private send(message: HostToWorker): void {
    if (this.store.getState().error !== null) this.store.setState({ error: null });
    this.endpoint.postMessage(message);
  }

  // -- results ------------------------------------------------------------------------------

  private receive(message: WorkerToHost): void {
    switch (message.type) {
      case 'snapshot': {
        const prev = this.pendingSnapshot;
        const sameRun = prev ? prev.runId === message.runId : message.runId === this.store.getState().frame.runId;
        if (message.resetEvents || !sameRun) {
          this.pendingEvents = [...message.events];
          this.pendingDetails = [...message.details];
          this.pendingEventsFrom = message.eventsFrom;
          this.pendingReset = true;
        } else {
          for (const e of message.events) this.pendingEvents.push(e);
          for (const d of message.details) this.pendingDetails.push(d);
        }
        if (!sameRun) {
          this.pendingLandmarks = null;
          this.pendingSchedule = null;
        }
        if (message.landmarks !== null) this.pendingLandmarks = message.landmarks;
        if (message.schedule !== null) this.pendingSchedule = message.schedule;
        this.pendingSnapshot = message;
        this.pendingClock = null;
        break;
      }
      case 'fuzz-progress':
        this.pendingFuzzProgress = message;
        break;
      case 'fuzz-done':
        this.pendingFuzzDone = message;
        break;
      case 'clock':
        if (message.runId === (this.pendingSnapshot?.runId ?? this.store.getState().frame.runId)) this.pendingClock = message.clockMs;
        break;
      case 'error':
        this.pendingError = message.message;
        break;
      case 'trace':
        if (!this.traceOn) return;
        this.pendingTrace.push(message.delta);
        break;
      case 'export': {
        const resolve = this.exportWaiters.get(message.requestId);
        this.exportWaiters.delete(message.requestId);
        resolve?.(message);
        return;
      }
      case 'history': {
        const resolve = this.historyWaiters.get(message.requestId);
        this.historyWaiters.delete(message.requestId);
        resolve?.(message);
        return;
      }
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      this.scheduleFlush(() => this.flush());
    }
  }

  /** Writes everything received since the last flush into the store in one setState. */
  flush(): void {
    this.flushQueued = false;
    const snap = this.pendingSnapshot;
    const events = this.pendingEvents;
    const details = this.pendingDetails;
    const eventsFrom = this.pendingEventsFrom;
    const reset = this.pendingReset;
    const clock = this.pendingClock;
    const error = this.pendingError;
    const landmarks = this.pendingLandmarks;
    const schedule = this.pendingSchedule;
    this.pendingSchedule = null;
    const fuzzProgress = this.pendingFuzzProgress;
    const fuzzDone = this.pendingFuzzDone;
    const traceDeltas = this.pendingTrace;
    this.pendingTrace = [];
    this.pendingLandmarks = null;
    this.pendingFuzzProgress = null;
    this.pendingFuzzDone = null;
    this.pendingSnapshot = null;
    this.pendingEvents = [];
    this.pendingDetails = [];
    this.pendingReset = false;
    this.pendingClock = null;
    this.pendingError = null;
    // A playing run's frame is drawn from here on: tell the worker, which holds back new frames
    // while this page is behind (not through send(): this is no action and clears no error).
    if ((snap !== null && snap.playing) || clock !== null) this.endpoint.postMessage({ type: 'shown' });
    this.store.setState((s): Partial<LabState> => {
      const next: { -readonly [K in keyof LabState]?: LabState[K] } = {};
      if (snap) {
        let log = reset ? events : events.length > 0 ? s.events.concat(events) : s.events;
        let base = reset ? eventsFrom : s.eventsBase;
        if (log.length > MAX_EVENTS_KEPT) {
          base += log.length - MAX_EVENTS_KEPT;
          log = log.slice(log.length - MAX_EVENTS_KEPT);
        }
        let detailLog = reset ? details : details.length > 0 ? s.details.concat(details) : s.details;
        if (detailLog.length > MAX_DETAILS_KEPT) detailLog = detailLog.slice(detailLog.length - MAX_DETAILS_KEPT);
        const ids = new Set(snap.snapshot.nodes.map((n) => n.id));
        const {
          type: _type,
          events: _events,
          details: _details,
          eventsFrom: _from,
          resetEvents: _reset,
          landmarks: _marks,
          schedule: _schedule,
          ...fields
        } = snap;
        const sameRun = snap.runId === s.frame.runId;
        if (this.askedSpeed !== null && fields.chosenSpeed === this.askedSpeed) this.askedSpeed = null;
        const asked = this.askedSpeed;
        next.frame = {
          ...fields,
          ...(asked !== null ? { speed: asked, chosenSpeed: asked } : {}),
          // A run's configuration never changes and its schedule comes only when it changed:
          // both keep their identity between snapshots, so what depends on them is not redone.
          config: sameRun ? s.frame.config : snap.config,
          schedule: schedule ?? (sameRun ? s.frame.schedule : []),
        };
        next.events = log;
        next.eventsBase = base;
        next.details = detailLog;
        if (landmarks !== null) next.landmarks = landmarks;
        if (!sameRun) {
          // A new run may have fewer nodes: forget selections that no longer exist.
          next.selectedNodes = s.selectedNodes.filter((id) => ids.has(id));
          next.focusedNode = s.focusedNode !== null && ids.has(s.focusedNode) ? s.focusedNode : null;
        }
      }
      if (clock !== null) next.frame = { ...(next.frame ?? s.frame), clockMs: clock };
      if (traceDeltas.length > 0) {
        let trace = s.trace;
        for (const delta of traceDeltas) trace = applyTraceDelta(trace, delta);
        next.trace = trace;
      }
      if (error !== null) next.error = error;
      if (fuzzProgress !== null) next.fuzzProgress = fuzzProgress;
      if (fuzzDone !== null) {
        next.fuzzDone = fuzzDone;
        next.fuzzRunning = false;
      }
      return next;
    });
  }
}
