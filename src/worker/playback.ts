/**
 * One loaded run: its timeline, playback (play, pause, step, seek, actions, undo/redo), the event
 * lines streamed to the host and the scrubber's landmarks. A run exists or it does not — the
 * driver holds a `Playback` or null, never a half-loaded one.
 *
 * Playback advances simulated time by speed × elapsed real time, once per frame. A slow frame is
 * not made up for later: the gap counted per frame is capped and the stepping has a time budget,
 * so a throttled tab never builds a backlog.
 *
 * Time travel goes through a `Timeline` (checkpoints every 2 s, replay from the nearest), and
 * actions are recorded with `Timeline.act`, so acting in the past forks the run.
 */
import type { SimConfig } from '../sim/model/config';
import { AT_CAP_SENTENCE, MAX_SEEK_MS, scheduleCapProblem } from '../sim/model/limits';
import type { Action, ActionBody } from '../sim/model/schedule';
import type { AnyRun } from '../sim/run/run';
import { detailCount, detailsSince, eventsSince, paintView, takeRunView } from '../sim/view/runView';
import { Timeline } from '../sim/run/timeline';
import type { PaintFeed } from './paintFeed';
import { LOOKAHEAD_MS, Pacing } from './pacing';
import type { PaceStep } from '../sim/teach/tours/pace';
import { runEndMs, type CheckStatus, type ClockMessage, type LandmarkView, type PaintFrame, type SnapshotMessage } from './protocol';

/** Events sent with a fresh log (after load or seek back); older lines are summarised away. */
export const MAX_EVENTS_ON_RESET = 2_000;
/** Detail events sent with a fresh log, likewise. */
export const MAX_DETAILS_ON_RESET = 1_000;
/** Landmarks are recomputed at most this often (real ms) while the horizon grows. */
const LANDMARK_EVERY_MS = 250;

export interface LoadRequest {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  readonly startAtMs: number;
  readonly stopAtMs: number | null;
  readonly playing: boolean;
  readonly label: string | null;
  /** A tour beat's speeds by simulated time, until the stop (or the person picks a speed). */
  readonly pace?: readonly PaceStep[] | null;
}

export interface FrameLimits {
  /** Real ms of stepping allowed per frame before the rest of the frame's time is dropped. */
  readonly frameBudgetMs: number;
  /** The longest real gap a frame may account for. */
  readonly maxFrameGapMs: number;
}

/** The time of the first action that differs between two schedules (Infinity if none). */
export function firstChangeAt(before: readonly Action[], after: readonly Action[]): number {
  const n = Math.min(before.length, after.length);
  for (let i = 0; i < n; i++) if (before[i] !== after[i]) return Math.min(before[i].at, after[i].at);
  if (before.length > n) return before[n].at;
  if (after.length > n) return after[n].at;
  return Infinity;
}

export class Playback {
  /** Simulated clock including the elapsed fraction of the next ms. */
  private clockMs: number;
  private lastFrameAt: number | null = null;
  private pendingSeek: number | null = null;
  /** The copy of the run whose events the host has, up to `eventCursor`. */
  private eventSource: AnyRun | null = null;
  private eventCursor = 0;
  private detailCursor = 0;
  private resetEvents = true;
  /** The schedule last posted; the host keeps it until it changes. */
  private sentSchedule: readonly Action[] | null = null;
  /** Bumped whenever the schedule changes, so the landmarks are recomputed. */
  private landmarkVersion = 0;
  private sentLandmarks: { version: number; horizon: number; count: number } | null = null;
  private landmarksAt = -Infinity;
  /** A sentence for the host that came from playing on (playback stopped at the cap), posted once. */
  private notice: string | null = null;
  /** A tour beat's pace and "slow around events": the speed moment by moment (pacing.ts). */
  readonly pacing = new Pacing();

  private constructor(
    readonly timeline: Timeline,
    readonly runId: number,
    readonly label: string | null,
    private stopAtMs: number | null,
    public playing: boolean,
  ) {
    this.clockMs = timeline.nowMs;
  }

  /** A run replayed to its start time, or one sentence saying why it cannot be. */
  static load(request: LoadRequest, runId: number): Playback | string {
    const startAt = request.startAtMs;
    if (!Number.isSafeInteger(startAt) || startAt < 0 || startAt > MAX_SEEK_MS) {
      return `A start time is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${startAt}.`;
    }
    const pastCap = scheduleCapProblem(request.schedule);
    if (pastCap !== null) return pastCap;
    try {
      // The viewed run records detail events for the event log; the checker's copy does not.
      // It keeps only the newest details, as many as a fresh log gets.
      const timeline = new Timeline(request.config, request.schedule, undefined, undefined, {
        recordDetails: true,
        detailLimit: MAX_DETAILS_ON_RESET,
      });
      timeline.advanceTo(startAt);
      const run = new Playback(timeline, runId, request.label, request.stopAtMs, request.playing);
      if (request.pace) run.pacing.setPlan(request.pace, request.stopAtMs);
      return run;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  get config(): SimConfig {
    return this.timeline.config;
  }

  get schedule(): readonly Action[] {
    return this.timeline.schedule;
  }

  get horizonMs(): number {
    return this.timeline.horizonMs;
  }

  /** The run's end (see `runEndMs`): Next event and the scrubber never pass it; playing moves it on. */
  get endMs(): number {
    return runEndMs(this.stopAtMs, this.timeline.horizonMs, this.timeline.schedule);
  }

  /** The sentence left by playback stopping at the cap, once. */
  takeNotice(): string | null {
    const notice = this.notice;
    this.notice = null;
    return notice;
  }

  /** Plays on; at the cap it does not, and says why. */
  play(): string | null {
    if (this.timeline.nowMs >= MAX_SEEK_MS) {
      this.pause();
      return AT_CAP_SENTENCE;
    }
    if (this.stopAtMs !== null && this.timeline.nowMs >= this.stopAtMs) this.stopAtMs = null;
    this.playing = true;
    this.lastFrameAt = null;
    return null;
  }

  /** Goes to `fromMs` and plays until `toMs`, where playback pauses (a window brushed on the space-time view). */
  playWindow(fromMs: number, toMs: number): string | null {
    const problem =
      this.requestSeek(fromMs) ??
      (Number.isSafeInteger(toMs) && toMs > fromMs && toMs <= MAX_SEEK_MS
        ? null
        : `A window to play ends after it starts and by ${MAX_SEEK_MS} ms, not at ${toMs}.`);
    if (problem !== null) {
      this.pendingSeek = null;
      return problem;
    }
    this.flushSeek();
    this.stopAtMs = toMs;
    return this.play();
  }

  pause(): void {
    this.playing = false;
    this.clockMs = this.timeline.nowMs;
  }

  /** Remembers a seek for the next frame (a dragged scrubber costs one replay per frame). */
  requestSeek(toMs: number): string | null {
    if (!Number.isSafeInteger(toMs) || toMs < 0 || toMs > MAX_SEEK_MS) {
      return `A time to go to is a whole number of ms from 0 to ${MAX_SEEK_MS}, not ${toMs}.`;
    }
    this.pendingSeek = toMs;
    return null;
  }

  /** Forgets a pending seek (a load supersedes it). */
  cancelSeek(): void {
    this.pendingSeek = null;
  }

  /** Carries out a pending seek; true if there was one. */
  flushSeek(): boolean {
    if (this.pendingSeek === null) return false;
    const to = this.pendingSeek;
    this.pendingSeek = null;
    this.timeline.seek(to);
    this.clockMs = this.timeline.nowMs;
    this.lastFrameAt = null;
    return true;
  }

  /** Steps forward (a person reaching further moves the run's end); at the cap it says why not. */
  stepMs(ms: number): string | null {
    this.playing = false;
    const timeline = this.timeline;
    if (timeline.nowMs >= MAX_SEEK_MS) {
      this.clockMs = timeline.nowMs;
      return AT_CAP_SENTENCE;
    }
    timeline.advanceTo(Math.min(MAX_SEEK_MS, timeline.nowMs + Math.max(1, Math.min(MAX_SEEK_MS, Math.floor(ms)))));
    this.clockMs = timeline.nowMs;
    return null;
  }

  /**
   * To the previous or next event line's time. Forward it looks no further than the run's end
   * (computing up to it if need be, which never moves the end); with no event before the end it
   * stays where it is and says so in one sentence.
   */
  stepToEvent(direction: 1 | -1): string | null {
    this.playing = false;
    this.lastFrameAt = null;
    const timeline = this.timeline;
    const end = this.endMs;
    const from = timeline.nowMs;
    const known = timeline.eventTimeFrom(direction);
    let problem: string | null = null;
    if (direction < 0) timeline.seek(known ?? 0);
    else if (known !== null && known <= end) timeline.seek(known);
    else if (known === null && timeline.horizonMs < end) {
      // Events between the horizon and the end are not computed yet: compute up to the end at most.
      timeline.seek(timeline.horizonMs);
      const before = timeline.current.cluster.events.length;
      while (timeline.current.cluster.events.length === before && timeline.nowMs < end) timeline.step();
      if (timeline.current.cluster.events.length === before) {
        timeline.seek(from);
        problem = this.nothingAhead(from, end);
      }
    } else problem = this.nothingAhead(from, end);
    this.clockMs = timeline.nowMs;
    return problem;
  }

  private nothingAhead(from: number, end: number): string {
    if (from >= MAX_SEEK_MS) return AT_CAP_SENTENCE;
    return `No event after t = ${from} ms up to the run's end at ${end} ms; press Play or → to run further.`;
  }

  /** Records a person's action now; returns the schedule before it, or the error sentence. */
  act(body: ActionBody): readonly Action[] | string {
    const before = this.timeline.schedule;
    const result = this.timeline.act(body);
    if (typeof result === 'string') return result;
    this.scheduleChanged();
    return before;
  }

  /** Undo or redo; returns the schedule before it, or null when there was nothing to do. */
  history(kind: 'undo' | 'redo'): readonly Action[] | null {
    const before = this.timeline.schedule;
    const done = kind === 'undo' ? this.timeline.undo() : this.timeline.redo();
    if (!done) return null;
    this.playing = false;
    this.scheduleChanged();
    return before;
  }

  private scheduleChanged(): void {
    this.clockMs = this.timeline.nowMs;
    this.landmarkVersion++;
  }

  /** Advances by speed × the real time since the last frame; true if simulated time moved or playback stopped. */
  advance(now: number, speed: number, limits: FrameLimits, clock: () => number): boolean {
    if (!this.playing) return false;
    const timeline = this.timeline;
    const gap = this.lastFrameAt === null ? 0 : Math.min(Math.max(0, now - this.lastFrameAt), limits.maxFrameGapMs);
    this.lastFrameAt = now;
    const from = Math.max(this.clockMs, timeline.nowMs);
    const pacing = this.pacing;
    if (pacing.slowAround) pacing.lookAhead(timeline.current, timeline.schedule, from + gap * speed + 1 + LOOKAHEAD_MS);
    let target = pacing.active ? pacing.advanceFrom(from, gap, speed) : from + gap * speed;
    if (this.stopAtMs !== null) target = Math.min(target, this.stopAtMs);
    target = Math.min(target, MAX_SEEK_MS);
    const whole = Math.floor(target);
    const deadline = now + limits.frameBudgetMs;
    let changed = false;
    while (timeline.nowMs < whole) {
      timeline.step();
      changed = true;
      if ((timeline.nowMs & 31) === 0 && clock() > deadline) {
        target = timeline.nowMs; // out of budget: drop the rest of this frame's time
        break;
      }
    }
    this.clockMs = Math.max(target, timeline.nowMs);
    if ((this.stopAtMs !== null && timeline.nowMs >= this.stopAtMs) || timeline.nowMs >= MAX_SEEK_MS) {
      if (timeline.nowMs >= MAX_SEEK_MS) this.notice = AT_CAP_SENTENCE;
      // The beat is over: from here on the person's own speed.
      pacing.setPlan(null, null);
      this.playing = false;
      this.clockMs = timeline.nowMs;
      changed = true;
    }
    return changed;
  }

  /** For a paint worker: the clock, and the canvas's view of the run now (paintView, through `feed`) unless only the clock moved. */
  paintFrame(withView: boolean, feed: PaintFeed): PaintFrame {
    return withView ? feed.frame(this.clockMs, paintView(this.timeline.current)) : { type: 'paint-frame', clockMs: this.clockMs };
  }

  clockMessage(): ClockMessage {
    return { type: 'clock', runId: this.runId, clockMs: this.clockMs };
  }

  /** The speed playing at now, for the speed the person chose (a tour's pace or a slow-down may differ). */
  speedNow(chosen: number): number {
    if (!this.pacing.active) return chosen;
    if (this.pacing.slowAround && this.playing)
      this.pacing.lookAhead(this.timeline.current, this.timeline.schedule, this.clockMs + LOOKAHEAD_MS);
    return this.pacing.speedAt(this.clockMs, chosen);
  }

  /** The run as the host sees it now: new events, and the schedule and landmarks only when they changed. */
  snapshotMessage(now: number, chosenSpeed: number, check: CheckStatus): SnapshotMessage {
    const timeline = this.timeline;
    const sim = timeline.current;
    const allEvents = sim.cluster.events;
    const detailTotal = detailCount(sim);
    if (
      sim !== this.eventSource ||
      allEvents.length - this.eventCursor > MAX_EVENTS_ON_RESET ||
      detailTotal - this.detailCursor > MAX_DETAILS_ON_RESET
    ) {
      // Another copy of the run (a seek back, undo, a load) or a long jump: the host's log starts afresh.
      this.eventSource = sim;
      this.eventCursor = Math.max(0, allEvents.length - MAX_EVENTS_ON_RESET);
      this.detailCursor = Math.max(0, detailTotal - MAX_DETAILS_ON_RESET);
      this.resetEvents = true;
    }
    const eventsFrom = this.eventCursor;
    const events = eventsSince(sim, this.eventCursor);
    this.eventCursor = allEvents.length;
    const details = detailsSince(sim, this.detailCursor);
    this.detailCursor = detailTotal;
    const schedule = timeline.schedule === this.sentSchedule ? null : timeline.schedule;
    this.sentSchedule = timeline.schedule;
    const message: SnapshotMessage = {
      type: 'snapshot',
      runId: this.runId,
      label: this.label,
      snapshot: takeRunView(sim),
      events,
      details,
      eventsFrom,
      resetEvents: this.resetEvents,
      clockMs: this.clockMs,
      playing: this.playing,
      speed: this.speedNow(chosenSpeed),
      chosenSpeed,
      stopAtMs: this.stopAtMs,
      config: timeline.config,
      schedule,
      horizonMs: timeline.horizonMs,
      endMs: this.endMs,
      fork: timeline.fork,
      canUndo: timeline.canUndo,
      canRedo: timeline.canRedo,
      landmarks: this.landmarksToSend(now),
      check,
    };
    this.resetEvents = false;
    return message;
  }

  /** The landmarks if they may have changed since the last post (throttled while the horizon grows). */
  private landmarksToSend(now: number): LandmarkView[] | null {
    const timeline = this.timeline;
    const sent = this.sentLandmarks;
    if (sent && sent.version === this.landmarkVersion && sent.horizon === timeline.horizonMs) return null;
    if (sent && sent.version === this.landmarkVersion && this.playing && now - this.landmarksAt < LANDMARK_EVERY_MS) return null;
    const marks = timeline.landmarks();
    this.landmarksAt = now;
    const unchanged = sent !== null && sent.version === this.landmarkVersion && sent.count === marks.length;
    this.sentLandmarks = { version: this.landmarkVersion, horizon: timeline.horizonMs, count: marks.length };
    return unchanged ? null : marks;
  }
}
