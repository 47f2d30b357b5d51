/**
 * Drives one run for the worker: play, pause, step, seek, speed, actions, undo/redo, the live
 * invariant checker and the counterexample search. Pure logic — the real clock and the frame
 * scheduler are injected, so tests run it in Node with a fake clock over a MessageChannel.
 *
 * Playback advances simulated time by speed × elapsed real time, once per frame, and posts at
 * most one message per frame. A slow frame is not made up for later: the gap counted per frame
 * is capped and the stepping has a time budget, so a throttled tab never builds a backlog.
 *
 * Time travel goes through a `Timeline` (checkpoints every 2 s, replay from the nearest), and
 * actions are recorded with `Timeline.act`, so acting in the past forks the run.
 */
import type { SimConfig } from '../sim/config';
import { fuzz, type FuzzProgress, type FuzzResult } from '../sim/fuzz';
import { attachInvariants, type InvariantChecker, type Violation } from '../sim/invariants';
import { formatSchedule, parseSchedule, ScheduleError, type Action } from '../sim/schedule';
import { Simulation } from '../sim/simulation';
import { eventsSince, takeSnapshot } from '../sim/snapshot';
import { Timeline } from '../sim/timeline';
import {
  clampSpeed,
  DEFAULT_SPEED,
  MAX_SEEK_MS,
  NEXT_EVENT_HORIZON_MS,
  type CheckStatus,
  type HostToWorker,
  type LandmarkView,
  type ViolationView,
  type WorkerEndpoint,
  type WorkerToHost,
} from './protocol';

export interface FrameScheduler {
  /** Real time in ms (performance.now in the worker). */
  now(): number;
  /** Calls `callback` at the next frame. */
  requestFrame(callback: () => void): void;
}

export interface DriverOptions {
  /** Real ms of stepping allowed per frame before the rest of the frame's time is dropped. */
  readonly frameBudgetMs?: number;
  /** The longest real gap a frame may account for (a throttled tab does not catch up). */
  readonly maxFrameGapMs?: number;
  /** Real ms per frame the invariant checker may spend catching up (while paused: twice this). */
  readonly checkBudgetMs?: number;
  /** Real ms per frame the counterexample search may spend (at least one fuzz step runs). */
  readonly fuzzBudgetMs?: number;
  /** At most this many fuzz steps (runs or shrink replays) per frame, whatever the clock says. */
  readonly fuzzStepsPerFrame?: number;
}

export { MAX_SEEK_MS };
/** Events sent with a fresh log (after load or seek back); older lines are summarised away. */
export const MAX_EVENTS_ON_RESET = 2_000;
/** Landmarks are recomputed at most this often (real ms) while the horizon grows. */
const LANDMARK_EVERY_MS = 250;

interface Checked {
  readonly sim: Simulation;
  readonly checker: InvariantChecker;
}

interface FuzzJob {
  readonly gen: Generator<FuzzProgress, FuzzResult, void>;
  readonly runs: number;
  readonly startedAt: number;
  runsDone: number;
  shrinkAttempts: number;
  phase: 'search' | 'shrink';
}

export function violationView(v: Violation): ViolationView {
  return { invariant: v.invariant, title: v.title, t: v.t, nodes: [...v.nodes], sentence: v.sentence, line: v.line };
}

/** The time of the first action that differs between two schedules (Infinity if none). */
export function firstChangeAt(before: readonly Action[], after: readonly Action[]): number {
  const n = Math.min(before.length, after.length);
  for (let i = 0; i < n; i++) if (before[i] !== after[i]) return Math.min(before[i].at, after[i].at);
  if (before.length > n) return before[n].at;
  if (after.length > n) return after[n].at;
  return Infinity;
}

export class SimDriver {
  private timeline: Timeline | null = null;
  private config: SimConfig | null = null;
  private scheduleText = '';
  private runId = 0;
  private label: string | null = null;
  /** The run whose events the host has, up to `eventCursor`. */
  private eventSource: Simulation | null = null;
  private eventCursor = 0;
  private resetEvents = true;
  private playing = false;
  private speed = DEFAULT_SPEED;
  private stopAtMs: number | null = null;
  /** Simulated clock including the elapsed fraction of the next ms. */
  private clockMs = 0;
  private lastFrameAt: number | null = null;
  private dirty = false;
  private frameRequested = false;
  private pendingSeek: number | null = null;
  private checked: Checked | null = null;
  private lastCheck: CheckStatus | null = null;
  private landmarkVersion = 0;
  private sentLandmarks: { version: number; horizon: number; count: number } | null = null;
  private landmarksAt = -Infinity;
  private job: FuzzJob | null = null;
  private readonly frameBudgetMs: number;
  private readonly maxFrameGapMs: number;
  private readonly checkBudgetMs: number;
  private readonly fuzzBudgetMs: number;
  private readonly fuzzStepsPerFrame: number;
  private readonly onMessage = (event: MessageEvent<HostToWorker>) => this.handle(event.data);

  constructor(
    private readonly endpoint: WorkerEndpoint,
    private readonly scheduler: FrameScheduler,
    options: DriverOptions = {},
  ) {
    this.frameBudgetMs = options.frameBudgetMs ?? 10;
    this.maxFrameGapMs = options.maxFrameGapMs ?? 100;
    this.checkBudgetMs = options.checkBudgetMs ?? 5;
    this.fuzzBudgetMs = options.fuzzBudgetMs ?? 30;
    this.fuzzStepsPerFrame = options.fuzzStepsPerFrame ?? 50;
    endpoint.addEventListener('message', this.onMessage);
  }

  dispose(): void {
    this.endpoint.removeEventListener('message', this.onMessage);
    this.playing = false;
    this.job = null;
  }

  handle(msg: HostToWorker): void {
    // A seek waits for the frame (so a dragged scrubber costs one replay per frame), but every
    // other command happens after it, at the time it was sent.
    if (msg.type === 'load') this.pendingSeek = null;
    else if (msg.type !== 'seek' && msg.type !== 'speed' && msg.type !== 'fuzz-cancel') this.flushSeek();
    switch (msg.type) {
      case 'load':
        this.load(msg);
        break;
      case 'play':
        if (!this.timeline) return;
        if (this.stopAtMs !== null && this.timeline.nowMs >= this.stopAtMs) this.stopAtMs = null;
        this.playing = true;
        this.lastFrameAt = null;
        break;
      case 'pause':
        this.playing = false;
        if (this.timeline) this.clockMs = this.timeline.nowMs;
        break;
      case 'step':
        if (!this.timeline) return;
        this.playing = false;
        if (msg.by === 'ms') this.stepMs(Math.max(1, Math.min(MAX_SEEK_MS, Math.floor(msg.ms ?? 1))));
        else if (msg.direction === -1) this.stepToEvent(-1);
        else this.stepToEvent(1);
        break;
      case 'seek':
        if (!this.timeline) return;
        if (!Number.isSafeInteger(msg.toMs) || msg.toMs < 0 || msg.toMs > MAX_SEEK_MS) {
          this.post({ type: 'error', message: `A time to go to is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${msg.toMs}.` });
          return;
        }
        this.pendingSeek = msg.toMs;
        break;
      case 'speed':
        this.speed = clampSpeed(msg.speed);
        break;
      case 'action': {
        const timeline = this.timeline;
        if (!timeline) return;
        const before = timeline.schedule;
        const result = timeline.act(msg.body);
        if (typeof result === 'string') {
          this.post({ type: 'error', message: result });
          return;
        }
        this.scheduleChanged(before);
        break;
      }
      case 'undo':
      case 'redo': {
        const timeline = this.timeline;
        if (!timeline) return;
        const before = timeline.schedule;
        const done = msg.type === 'undo' ? timeline.undo() : timeline.redo();
        if (!done) return;
        this.playing = false;
        this.clockMs = timeline.nowMs;
        this.scheduleChanged(before);
        break;
      }
      case 'fuzz':
        this.startFuzz(msg);
        break;
      case 'fuzz-cancel':
        if (this.job) this.finishFuzz(null, true);
        return;
    }
    this.dirty = true;
    this.wake();
  }

  // -- runs -----------------------------------------------------------------------------------

  private load(msg: Extract<HostToWorker, { type: 'load' }>): void {
    let actions: Action[];
    try {
      actions = parseSchedule(msg.schedule);
    } catch (e) {
      this.post({ type: 'error', message: e instanceof ScheduleError ? e.message : String(e) });
      return;
    }
    this.loadRun(msg.config, actions, msg.startAtMs ?? 0, msg.stopAtMs ?? null, msg.playing ?? this.playing, msg.label ?? null);
  }

  private loadRun(config: SimConfig, actions: readonly Action[], startAt: number, stopAtMs: number | null, playing: boolean, label: string | null): boolean {
    if (!Number.isSafeInteger(startAt) || startAt < 0 || startAt > MAX_SEEK_MS) {
      this.post({ type: 'error', message: `A start time is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${startAt}.` });
      return false;
    }
    let timeline: Timeline;
    try {
      timeline = new Timeline(config, actions);
      timeline.advanceTo(startAt);
    } catch (e) {
      this.post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      return false;
    }
    this.timeline = timeline;
    this.config = config;
    this.scheduleText = formatSchedule(timeline.schedule);
    this.runId++;
    this.label = label;
    this.stopAtMs = stopAtMs;
    this.playing = playing;
    this.pendingSeek = null;
    this.lastFrameAt = null;
    this.clockMs = timeline.nowMs;
    this.checked = null;
    this.lastCheck = null;
    this.landmarkVersion++;
    this.sentLandmarks = null;
    this.rebuildCheck();
    return true;
  }

  /** The schedule changed (an action, undo or redo): the checked run and landmarks follow. */
  private scheduleChanged(before: readonly Action[]): void {
    const timeline = this.timeline as Timeline;
    this.scheduleText = formatSchedule(timeline.schedule);
    this.clockMs = timeline.nowMs;
    this.landmarkVersion++;
    const at = firstChangeAt(before, timeline.schedule);
    const checked = this.checked;
    // The checked run has not reached the change yet: only its future differs.
    if (checked && checked.sim.nowMs < at) checked.sim.replaceFutureActions(timeline.schedule);
    else this.rebuildCheck();
  }

  private rebuildCheck(): void {
    const timeline = this.timeline as Timeline;
    const sim = new Simulation(timeline.config, timeline.schedule);
    this.checked = { sim, checker: attachInvariants(sim, { maxViolations: 1 }) };
  }

  private checkStatus(): CheckStatus {
    const c = this.checked as Checked;
    const first = c.checker.first;
    const last = this.lastCheck;
    if (last && last.checkedToMs === c.sim.nowMs && last.staleWrites === c.checker.findings.length && (last.violation === null) === (first === null)) return last;
    return (this.lastCheck = {
      checkedToMs: c.sim.nowMs,
      violation: first ? violationView(first) : null,
      staleWrites: c.checker.findings.length,
    });
  }

  /** Advances the checked run towards the horizon for at most `budgetMs` of real time. */
  private advanceCheck(budgetMs: number): void {
    const c = this.checked;
    const timeline = this.timeline;
    if (!c || !timeline) return;
    const target = timeline.horizonMs;
    if (c.sim.nowMs >= target) return;
    const deadline = this.scheduler.now() + budgetMs;
    while (c.sim.nowMs < target) {
      c.sim.step();
      if ((c.sim.nowMs & 15) === 0 && this.scheduler.now() > deadline) break;
    }
    this.dirty = true;
  }

  // -- time travel ----------------------------------------------------------------------------

  private flushSeek(): void {
    if (this.pendingSeek === null || !this.timeline) return;
    const to = this.pendingSeek;
    this.pendingSeek = null;
    this.timeline.seek(to);
    this.clockMs = this.timeline.nowMs;
    this.lastFrameAt = null;
    this.dirty = true;
  }

  private stepMs(ms: number): void {
    const timeline = this.timeline as Timeline;
    timeline.advanceTo(Math.min(MAX_SEEK_MS, timeline.nowMs + ms));
    this.clockMs = timeline.nowMs;
  }

  /** To the previous or next event line's time; past the horizon, runs until one appears. */
  private stepToEvent(direction: 1 | -1): void {
    const timeline = this.timeline as Timeline;
    const known = timeline.eventTimeFrom(direction);
    if (known !== null) timeline.seek(known);
    else if (direction < 0) timeline.seek(0);
    else {
      const sim = timeline.current;
      const before = sim.cluster.events.length;
      const limit = Math.min(MAX_SEEK_MS, timeline.nowMs + NEXT_EVENT_HORIZON_MS);
      while (timeline.current.cluster.events.length === before && timeline.nowMs < limit) timeline.step();
    }
    this.clockMs = timeline.nowMs;
    this.lastFrameAt = null;
  }

  // -- counterexample search ------------------------------------------------------------------

  private startFuzz(msg: Extract<HostToWorker, { type: 'fuzz' }>): void {
    const runs = Math.max(1, Math.min(100_000, Math.floor(msg.runs)));
    this.playing = false;
    this.job = {
      gen: fuzz({ seed: msg.seed, runs, bugs: msg.bugs, durationMs: msg.durationMs }),
      runs,
      startedAt: this.scheduler.now(),
      runsDone: 0,
      shrinkAttempts: 0,
      phase: 'search',
    };
  }

  /** One slice of the search: fuzz steps until the budget is spent (at least one). */
  private fuzzSlice(): void {
    const job = this.job as FuzzJob;
    const deadline = this.scheduler.now() + this.fuzzBudgetMs;
    let steps = 0;
    do {
      const step = job.gen.next();
      if (step.done) {
        this.finishFuzz(step.value, false);
        return;
      }
      const p = step.value;
      job.phase = p.phase;
      if (p.phase === 'search') job.runsDone = p.runsDone;
      else job.shrinkAttempts = p.attempts;
    } while (++steps < this.fuzzStepsPerFrame && this.scheduler.now() < deadline);
    const seconds = Math.max(1e-3, (this.scheduler.now() - job.startedAt) / 1000);
    this.post({
      type: 'fuzz-progress',
      phase: job.phase,
      runsDone: job.runsDone,
      runs: job.runs,
      runsPerSec: job.runsDone / seconds,
      shrinkAttempts: job.shrinkAttempts,
    });
  }

  private finishFuzz(result: FuzzResult | null, cancelled: boolean): void {
    const job = this.job as FuzzJob;
    this.job = null;
    const seconds = (this.scheduler.now() - job.startedAt) / 1000;
    const cx = result?.counterexample ?? null;
    if (cx && this.loadRun(cx.config, cx.schedule, cx.untilMs, null, false, 'counterexample')) {
      this.dirty = true;
      this.wake();
    }
    this.post({
      type: 'fuzz-done',
      runsDone: result?.runsDone ?? job.runsDone,
      runs: job.runs,
      cancelled,
      seconds,
      found: cx ? { violation: violationView(cx.violation), schedule: cx.scheduleText, actions: cx.schedule.length, run: cx.run } : null,
    });
  }

  // -- frames ---------------------------------------------------------------------------------

  private wake(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.scheduler.requestFrame(() => {
      this.frameRequested = false;
      this.frame();
    });
  }

  /** One frame: seek or advance by speed × elapsed real time (when playing), check, then post once. */
  frame(): void {
    if (this.job) this.fuzzSlice();
    const timeline = this.timeline;
    if (!timeline) {
      if (this.job) this.wake();
      return;
    }
    this.flushSeek();
    if (this.playing) {
      const t = this.scheduler.now();
      const gap = this.lastFrameAt === null ? 0 : Math.min(Math.max(0, t - this.lastFrameAt), this.maxFrameGapMs);
      this.lastFrameAt = t;
      let target = Math.max(this.clockMs, timeline.nowMs) + gap * this.speed;
      if (this.stopAtMs !== null) target = Math.min(target, this.stopAtMs);
      target = Math.min(target, MAX_SEEK_MS);
      const whole = Math.floor(target);
      const deadline = t + this.frameBudgetMs;
      let stepped = false;
      while (timeline.nowMs < whole) {
        timeline.step();
        stepped = true;
        if ((timeline.nowMs & 31) === 0 && this.scheduler.now() > deadline) {
          target = timeline.nowMs; // out of budget: drop the rest of this frame's time
          break;
        }
      }
      this.clockMs = Math.max(target, timeline.nowMs);
      if ((this.stopAtMs !== null && timeline.nowMs >= this.stopAtMs) || timeline.nowMs >= MAX_SEEK_MS) {
        this.playing = false;
        this.clockMs = timeline.nowMs;
        this.dirty = true;
      }
      if (stepped) this.dirty = true;
    }
    if (!this.job) this.advanceCheck(this.playing ? this.checkBudgetMs : this.checkBudgetMs * 2);
    if (this.dirty) this.postSnapshot();
    else if (this.playing) this.post({ type: 'clock', runId: this.runId, clockMs: this.clockMs });
    const checking = this.checked !== null && this.checked.sim.nowMs < timeline.horizonMs;
    if (this.playing || this.job || checking) this.wake();
  }

  /** The landmarks if they may have changed since the last post (throttled while the horizon grows). */
  private landmarksToSend(): LandmarkView[] | null {
    const timeline = this.timeline as Timeline;
    const sent = this.sentLandmarks;
    if (sent && sent.version === this.landmarkVersion && sent.horizon === timeline.horizonMs) return null;
    const now = this.scheduler.now();
    if (sent && sent.version === this.landmarkVersion && this.playing && now - this.landmarksAt < LANDMARK_EVERY_MS) return null;
    const marks = timeline.landmarks();
    this.landmarksAt = now;
    const unchanged = sent !== null && sent.version === this.landmarkVersion && sent.count === marks.length;
    this.sentLandmarks = { version: this.landmarkVersion, horizon: timeline.horizonMs, count: marks.length };
    return unchanged ? null : marks;
  }

  private postSnapshot(): void {
    const timeline = this.timeline as Timeline;
    const sim = timeline.current;
    if (sim !== this.eventSource || sim.cluster.events.length - this.eventCursor > MAX_EVENTS_ON_RESET) {
      // Another copy of the run (a seek back, undo, a load) or a long jump: the host's log starts afresh.
      this.eventSource = sim;
      this.eventCursor = Math.max(0, sim.cluster.events.length - MAX_EVENTS_ON_RESET);
      this.resetEvents = true;
    }
    const events = eventsSince(sim, this.eventCursor);
    this.eventCursor = sim.cluster.events.length;
    this.post({
      type: 'snapshot',
      runId: this.runId,
      label: this.label,
      snapshot: takeSnapshot(sim),
      events,
      resetEvents: this.resetEvents,
      clockMs: this.clockMs,
      playing: this.playing,
      speed: this.speed,
      stopAtMs: this.stopAtMs,
      config: this.config as SimConfig,
      schedule: this.scheduleText,
      horizonMs: timeline.horizonMs,
      canUndo: timeline.canUndo,
      canRedo: timeline.canRedo,
      landmarks: this.landmarksToSend(),
      check: this.checkStatus(),
    });
    this.resetEvents = false;
    this.dirty = false;
  }

  private post(message: WorkerToHost): void {
    this.endpoint.postMessage(message);
  }
}
