/**
 * The host side of the worker protocol: sends commands, and writes what comes back into the
 * store with `setState` from outside React — at most once per animation frame, however many
 * messages arrived in between (their event lines are concatenated, the latest snapshot wins).
 */
import type { BugName, SimConfig } from '../../sim/config';
import type { SimEvent } from '../../sim/events';
import type { ActionBody } from '../../sim/schedule';
import {
  clampSpeed,
  type FuzzDoneMessage,
  type FuzzProgressMessage,
  type HostEndpoint,
  type HostToWorker,
  type LandmarkView,
  type SnapshotMessage,
  type WorkerToHost,
} from '../../worker/protocol';
import { MAX_EVENTS_KEPT, type LabState, type LabStore } from '../store/labStore';

export interface BridgeOptions {
  /** Runs `flush` before the next paint (requestAnimationFrame in the page). */
  readonly scheduleFlush?: (flush: () => void) => void;
}

export interface LoadOptions {
  readonly startAtMs?: number;
  readonly stopAtMs?: number | null;
  readonly playing?: boolean;
  readonly label?: string;
}

const defaultScheduleFlush = (flush: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 0);
};

export class HostBridge {
  private pendingSnapshot: SnapshotMessage | null = null;
  private pendingEvents: SimEvent[] = [];
  private pendingReset = false;
  private pendingClock: number | null = null;
  private pendingError: string | null = null;
  private pendingLandmarks: readonly LandmarkView[] | null = null;
  private pendingFuzzProgress: FuzzProgressMessage | null = null;
  private pendingFuzzDone: FuzzDoneMessage | null = null;
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

  load(config: SimConfig, schedule: string, options: LoadOptions = {}): void {
    this.send({ type: 'load', config, schedule, ...options });
  }

  play(): void {
    this.store.setState({ playing: true });
    this.send({ type: 'play' });
  }

  pause(): void {
    this.store.setState({ playing: false });
    this.send({ type: 'pause' });
  }

  togglePlay(): void {
    if (this.store.getState().playing) this.pause();
    else this.play();
  }

  stepMs(ms = 1): void {
    this.store.setState({ playing: false });
    this.send({ type: 'step', by: 'ms', ms });
  }

  stepToNextEvent(): void {
    this.store.setState({ playing: false });
    this.send({ type: 'step', by: 'event' });
  }

  stepToPreviousEvent(): void {
    this.store.setState({ playing: false });
    this.send({ type: 'step', by: 'event', direction: -1 });
  }

  seek(toMs: number): void {
    this.send({ type: 'seek', toMs });
  }

  /** Pauses and goes to the previous/next landmark of the run (elections, crashes, ...). */
  jumpToLandmark(direction: 1 | -1): boolean {
    const s = this.store.getState();
    const now = s.snapshot?.now ?? 0;
    const marks = s.landmarks;
    let to: number | null = null;
    if (direction < 0) {
      for (let i = marks.length - 1; i >= 0; i--) if (marks[i].t < now) { to = marks[i].t; break; }
    } else {
      for (const m of marks) if (m.t > now) { to = m.t; break; }
    }
    if (to === null) return false;
    if (s.playing) this.pause();
    this.seek(to);
    return true;
  }

  undo(): void {
    this.store.setState({ playing: false });
    this.send({ type: 'undo' });
  }

  redo(): void {
    this.store.setState({ playing: false });
    this.send({ type: 'redo' });
  }

  /** Searches for a counterexample in the worker; the run it finds is loaded, paused at the violation. */
  findCounterexample(options: { seed: number; runs: number; bugs: readonly BugName[]; durationMs?: number }): void {
    this.store.setState({ playing: false, fuzzRunning: true, fuzzProgress: null, fuzzDone: null });
    this.send({ type: 'fuzz', ...options });
  }

  cancelFuzz(): void {
    this.send({ type: 'fuzz-cancel' });
  }

  setSpeed(speed: number): void {
    const s = clampSpeed(speed);
    this.store.setState({ speed: s });
    this.send({ type: 'speed', speed: s });
  }

  act(body: ActionBody): void {
    this.send({ type: 'action', body });
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
        const sameRun = prev ? prev.runId === message.runId : message.runId === this.store.getState().runId;
        if (message.resetEvents || !sameRun) {
          this.pendingEvents = [...message.events];
          this.pendingReset = true;
        } else {
          for (const e of message.events) this.pendingEvents.push(e);
        }
        if (!sameRun) this.pendingLandmarks = null;
        if (message.landmarks !== null) this.pendingLandmarks = message.landmarks;
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
        if (message.runId === (this.pendingSnapshot?.runId ?? this.store.getState().runId)) this.pendingClock = message.clockMs;
        break;
      case 'error':
        this.pendingError = message.message;
        break;
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
    const reset = this.pendingReset;
    const clock = this.pendingClock;
    const error = this.pendingError;
    const landmarks = this.pendingLandmarks;
    const fuzzProgress = this.pendingFuzzProgress;
    const fuzzDone = this.pendingFuzzDone;
    this.pendingLandmarks = null;
    this.pendingFuzzProgress = null;
    this.pendingFuzzDone = null;
    this.pendingSnapshot = null;
    this.pendingEvents = [];
    this.pendingReset = false;
    this.pendingClock = null;
    this.pendingError = null;
    this.store.setState((s): Partial<LabState> => {
      const next: { -readonly [K in keyof LabState]?: LabState[K] } = {};
      if (snap) {
        let log = reset ? events : events.length > 0 ? s.events.concat(events) : s.events;
        if (log.length > MAX_EVENTS_KEPT) log = log.slice(log.length - MAX_EVENTS_KEPT);
        const ids = new Set(snap.snapshot.nodes.map((n) => n.id));
        Object.assign(next, {
          runId: snap.runId,
          snapshot: snap.snapshot,
          events: log,
          clockMs: snap.clockMs,
          playing: snap.playing,
          speed: snap.speed,
          stopAtMs: snap.stopAtMs,
          config: snap.config,
          schedule: snap.schedule,
          label: snap.label,
          horizonMs: snap.horizonMs,
          canUndo: snap.canUndo,
          canRedo: snap.canRedo,
          check: snap.check,
        });
        if (landmarks !== null) next.landmarks = landmarks;
        if (snap.runId !== s.runId) {
          // A new run may have fewer nodes: forget selections that no longer exist.
          next.selectedNodes = s.selectedNodes.filter((id) => ids.has(id));
          next.focusedNode = s.focusedNode !== null && ids.has(s.focusedNode) ? s.focusedNode : null;
        }
      }
      if (clock !== null) next.clockMs = clock;
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
