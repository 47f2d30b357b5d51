/**
 * Drives one simulation for the worker: play, pause, step, seek, speed, actions. Pure logic —
 * the real clock and the frame scheduler are injected, so tests run it in Node with a fake
 * clock over a MessageChannel.
 *
 * Playback advances simulated time by speed × elapsed real time, once per frame, and posts at
 * most one message per frame. A slow frame is not made up for later: the gap counted per frame
 * is capped and the stepping has a time budget, so a throttled tab never builds a backlog.
 */
import type { SimConfig } from '../sim/config';
import { formatSchedule, parseSchedule, ScheduleError, type Action } from '../sim/schedule';
import { Simulation } from '../sim/simulation';
import { eventsSince, takeSnapshot } from '../sim/snapshot';
import {
  clampSpeed,
  DEFAULT_SPEED,
  NEXT_EVENT_HORIZON_MS,
  type HostToWorker,
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
}

/** The furthest a seek or a load's start time may go: replaying is fast, but not free. */
export const MAX_SEEK_MS = 600_000;
/** Events sent with a fresh log (after load or seek back); older lines are summarised away. */
export const MAX_EVENTS_ON_RESET = 2_000;

export class SimDriver {
  private sim: Simulation | null = null;
  private config: SimConfig | null = null;
  private scheduleText = '';
  private runId = 0;
  private label: string | null = null;
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
  private readonly frameBudgetMs: number;
  private readonly maxFrameGapMs: number;
  private readonly onMessage = (event: MessageEvent<HostToWorker>) => this.handle(event.data);

  constructor(
    private readonly endpoint: WorkerEndpoint,
    private readonly scheduler: FrameScheduler,
    options: DriverOptions = {},
  ) {
    this.frameBudgetMs = options.frameBudgetMs ?? 10;
    this.maxFrameGapMs = options.maxFrameGapMs ?? 100;
    endpoint.addEventListener('message', this.onMessage);
  }

  dispose(): void {
    this.endpoint.removeEventListener('message', this.onMessage);
    this.playing = false;
  }

  handle(msg: HostToWorker): void {
    switch (msg.type) {
      case 'load':
        this.load(msg);
        break;
      case 'play':
        if (!this.sim) return;
        if (this.stopAtMs !== null && this.sim.nowMs >= this.stopAtMs) this.stopAtMs = null;
        this.playing = true;
        this.lastFrameAt = null;
        break;
      case 'pause':
        this.playing = false;
        if (this.sim) this.clockMs = this.sim.nowMs;
        break;
      case 'step':
        if (!this.sim) return;
        this.playing = false;
        if (msg.by === 'ms') this.stepMs(Math.max(1, Math.min(MAX_SEEK_MS, Math.floor(msg.ms ?? 1))));
        else this.stepToNextEvent();
        break;
      case 'seek':
        this.seek(msg.toMs);
        break;
      case 'speed':
        this.speed = clampSpeed(msg.speed);
        break;
      case 'action': {
        if (!this.sim) return;
        const result = this.sim.act(msg.body);
        if (typeof result === 'string') {
          this.post({ type: 'error', message: result });
          return;
        }
        this.scheduleText = formatSchedule(this.sim.schedule);
        break;
      }
    }
    this.dirty = true;
    this.wake();
  }

  private load(msg: Extract<HostToWorker, { type: 'load' }>): void {
    let actions: Action[];
    try {
      actions = parseSchedule(msg.schedule);
    } catch (e) {
      this.post({ type: 'error', message: e instanceof ScheduleError ? e.message : String(e) });
      return;
    }
    const startAt = msg.startAtMs ?? 0;
    if (!Number.isSafeInteger(startAt) || startAt < 0 || startAt > MAX_SEEK_MS) {
      this.post({ type: 'error', message: `A start time is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${startAt}.` });
      return;
    }
    let sim: Simulation;
    try {
      sim = new Simulation(msg.config, actions);
      sim.advanceTo(startAt);
    } catch (e) {
      this.post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    this.sim = sim;
    this.config = msg.config;
    this.scheduleText = formatSchedule(sim.schedule);
    this.runId++;
    this.label = msg.label ?? null;
    this.stopAtMs = msg.stopAtMs ?? null;
    this.playing = msg.playing ?? this.playing;
    this.lastFrameAt = null;
    this.clockMs = sim.nowMs;
    this.restartEvents();
  }

  private restartEvents(): void {
    const total = this.sim?.cluster.events.length ?? 0;
    this.eventCursor = Math.max(0, total - MAX_EVENTS_ON_RESET);
    this.resetEvents = true;
  }

  private stepMs(ms: number): void {
    const sim = this.sim as Simulation;
    const target = sim.nowMs + ms;
    while (sim.nowMs < target) sim.step();
    this.clockMs = sim.nowMs;
  }

  private stepToNextEvent(): void {
    const sim = this.sim as Simulation;
    const before = sim.cluster.events.length;
    const limit = sim.nowMs + NEXT_EVENT_HORIZON_MS;
    while (sim.cluster.events.length === before && sim.nowMs < limit) sim.step();
    this.clockMs = sim.nowMs;
  }

  private seek(toMs: number): void {
    const sim = this.sim;
    if (!sim || !this.config) return;
    if (!Number.isSafeInteger(toMs) || toMs < 0 || toMs > MAX_SEEK_MS) {
      this.post({ type: 'error', message: `A time to go to is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${toMs}.` });
      return;
    }
    if (toMs >= sim.nowMs) {
      sim.advanceTo(toMs);
    } else {
      // Going back replays the run: it is a pure function of (config, schedule).
      const replay = new Simulation(this.config, sim.schedule);
      replay.advanceTo(toMs);
      this.sim = replay;
      this.restartEvents();
    }
    this.clockMs = toMs;
    this.lastFrameAt = null;
  }

  private wake(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.scheduler.requestFrame(() => {
      this.frameRequested = false;
      this.frame();
    });
  }

  /** One frame: advance by speed × elapsed real time (when playing), then post once. */
  frame(): void {
    const sim = this.sim;
    if (!sim) return;
    if (this.playing) {
      const t = this.scheduler.now();
      const gap = this.lastFrameAt === null ? 0 : Math.min(Math.max(0, t - this.lastFrameAt), this.maxFrameGapMs);
      this.lastFrameAt = t;
      let target = Math.max(this.clockMs, sim.nowMs) + gap * this.speed;
      if (this.stopAtMs !== null) target = Math.min(target, this.stopAtMs);
      const whole = Math.floor(target);
      const deadline = t + this.frameBudgetMs;
      let stepped = false;
      while (sim.nowMs < whole) {
        sim.step();
        stepped = true;
        if ((sim.nowMs & 31) === 0 && this.scheduler.now() > deadline) {
          target = sim.nowMs; // out of budget: drop the rest of this frame's time
          break;
        }
      }
      this.clockMs = Math.max(target, sim.nowMs);
      if (this.stopAtMs !== null && sim.nowMs >= this.stopAtMs) {
        this.playing = false;
        this.clockMs = sim.nowMs;
        this.dirty = true;
      }
      if (stepped) this.dirty = true;
    }
    if (this.dirty) this.postSnapshot();
    else if (this.playing) this.post({ type: 'clock', runId: this.runId, clockMs: this.clockMs });
    if (this.playing) this.wake();
  }

  private postSnapshot(): void {
    const sim = this.sim as Simulation;
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
    });
    this.resetEvents = false;
    this.dirty = false;
  }

  private post(message: WorkerToHost): void {
    this.endpoint.postMessage(message);
  }
}
