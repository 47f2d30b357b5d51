/**
 * The speed playback runs at, moment by moment, when it is not simply the speed the person chose:
 * - a tour beat's pace plan (src/sim/teach/tours/pace.ts): fast through the wait, slow through
 *   the key moment, by simulated time, so the slow-down starts exactly where the beat says;
 * - "slow around events" (presenter mode): a copy of the run plays LOOKAHEAD_MS ahead of the one
 *   on screen, so the landmarks coming up (elections, crashes, partitions…) are known before they
 *   happen and playback slows SLOW_BEFORE_MS before each one, not after it.
 * Both only choose speeds: the run is the same run at any speed.
 */
import { MIN_SPEED } from '../sim/model/limits';
import type { AnyRun } from '../sim/run/run';
import { LANDMARK_KINDS } from '../sim/run/timeline';
import { choiceAtMost, speedAt, type PaceStep } from '../sim/teach/tours/pace';

/** How far (simulated ms) before a landmark "slow around events" slows down, and how long after it stays slow. */
export const SLOW_BEFORE_MS = 100;
export const SLOW_AFTER_MS = 50;
/** Around a landmark playback runs at the speed choice nearest below this share of the chosen speed. */
export const SLOW_FACTOR = 0.25;
/** How far ahead of the run on screen its copy plays, to see landmarks coming. */
export const LOOKAHEAD_MS = SLOW_BEFORE_MS + 20;

/** The speed around a landmark, for a chosen speed: a round value at or below a quarter of it. */
export function slowAroundSpeed(chosen: number): number {
  return Math.max(MIN_SPEED, choiceAtMost(chosen * SLOW_FACTOR));
}

export class Pacing {
  /** The loaded tour beat's plan, until its end is reached or the person picks a speed. */
  plan: readonly PaceStep[] | null = null;
  /** The plan's last time: playing past it (after the beat) goes back to the chosen speed. */
  planEndMs: number | null = null;
  slowAround = false;
  private ahead: AnyRun | null = null;
  /** The run the copy was made from, and the schedule it had: either changing makes it stale. */
  private aheadOf: AnyRun | null = null;
  private aheadSchedule: readonly unknown[] | null = null;
  private eventCursor = 0;
  /** Landmark times the copy has seen, ascending. */
  private marks: number[] = [];

  setPlan(plan: readonly PaceStep[] | null, endMs: number | null): void {
    this.plan = plan !== null && plan.length > 0 ? plan : null;
    this.planEndMs = this.plan !== null ? endMs : null;
  }

  /** Whether playback follows anything but the chosen speed now. */
  get active(): boolean {
    return this.plan !== null || this.slowAround;
  }

  /** Makes sure landmarks up to `toMs` are known, playing the copy of `current` on as needed. */
  lookAhead(current: AnyRun, schedule: readonly unknown[], toMs: number): void {
    if (!this.slowAround) return;
    const stale = this.ahead === null || this.aheadOf !== current || this.aheadSchedule !== schedule || this.ahead.nowMs < current.nowMs;
    if (stale) {
      // A seek, an action or a new run: start again from the run on screen.
      this.ahead = current.clone();
      this.aheadOf = current;
      this.aheadSchedule = schedule;
      this.eventCursor = current.cluster.events.length;
      this.marks = [];
    }
    const ahead = this.ahead as AnyRun;
    ahead.advanceTo(Math.max(ahead.nowMs, Math.floor(toMs)));
    const events = ahead.cluster.events;
    for (; this.eventCursor < events.length; this.eventCursor++) {
      const e = events[this.eventCursor];
      if (LANDMARK_KINDS.has(e.kind) && (this.marks.length === 0 || this.marks[this.marks.length - 1] !== e.t)) this.marks.push(e.t);
    }
    // Landmarks long passed are of no more use.
    const keepFrom = current.nowMs - SLOW_AFTER_MS;
    let drop = 0;
    while (drop < this.marks.length && this.marks[drop] < keepFrom) drop++;
    if (drop > 0) this.marks.splice(0, drop);
  }

  /** The speed at simulated time `t`, given the speed the person chose. */
  speedAt(t: number, chosen: number): number {
    let s = chosen;
    if (this.plan !== null && (this.planEndMs === null || t < this.planEndMs)) s = speedAt(this.plan, t);
    if (this.slowAround && this.nearMark(t)) s = Math.min(s, slowAroundSpeed(chosen));
    return s;
  }

  private nearMark(t: number): boolean {
    for (const m of this.marks) if (t >= m - SLOW_BEFORE_MS && t < m + SLOW_AFTER_MS) return true;
    return false;
  }

  /** The first time after `t` where the speed may change (a plan step or a slow window's edge); Infinity if none. */
  nextChange(t: number): number {
    let next = Infinity;
    if (this.plan !== null) {
      for (const step of this.plan) if (step.fromMs > t && step.fromMs < next) next = step.fromMs;
      if (this.planEndMs !== null && this.planEndMs > t && this.planEndMs < next) next = this.planEndMs;
    }
    if (this.slowAround)
      for (const m of this.marks) {
        const a = m - SLOW_BEFORE_MS;
        const b = m + SLOW_AFTER_MS;
        if (a > t && a < next) next = a;
        if (b > t && b < next) next = b;
      }
    return next;
  }

  /** Where simulated time is after `realMs` of playing from `fromMs`, speed changes and all. */
  advanceFrom(fromMs: number, realMs: number, chosen: number): number {
    let pos = fromMs;
    let remaining = realMs;
    for (let i = 0; i < 64 && remaining > 0; i++) {
      const s = this.speedAt(pos, chosen);
      const next = this.nextChange(pos);
      const need = (next - pos) / s;
      if (need >= remaining) return pos + remaining * s;
      pos = next;
      remaining -= need;
    }
    return pos;
  }
}
