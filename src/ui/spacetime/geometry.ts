/**
 * The space-time view's geometry: time runs down, so a time maps to a y; a window [t0, t1] fills
 * [top, top + height]. Zooming and panning change the window only (lanes never move), and every
 * change is clamped to the run: at least MIN_WINDOW_MS, at most the whole run.
 */

import { foldedT, foldedY, type Fold, type FoldedScale } from './folds';

/** The shortest window the view zooms to (ms). */
export const MIN_WINDOW_MS = 5;

export type TimeWindow = readonly [number, number];

export interface TimeScale {
  readonly t0: number;
  readonly t1: number;
  readonly top: number;
  readonly height: number;
  /** Quiet stretches drawn `foldPx` tall each ("compress quiet time"); none: time to scale. */
  readonly folds?: readonly Fold[];
  readonly foldPx?: number;
}

export function yOf(s: TimeScale, t: number): number {
  if (s.folds !== undefined && s.folds.length > 0) return foldedY(s as FoldedScale, t);
  const span = s.t1 - s.t0;
  return s.top + (span > 0 ? ((t - s.t0) / span) * s.height : 0);
}

export function tOf(s: TimeScale, y: number): number {
  if (s.folds !== undefined && s.folds.length > 0) return foldedT(s as FoldedScale, y);
  return s.t0 + (s.height > 0 ? ((y - s.top) / s.height) * (s.t1 - s.t0) : 0);
}

/** Keeps a window inside [0, runMs] and at least MIN_WINDOW_MS long (or the whole run if shorter), keeping its length when it can. */
export function clampWindow(w: TimeWindow, runMs: number): TimeWindow {
  const run = Math.max(runMs, MIN_WINDOW_MS);
  let span = Math.min(Math.max(w[1] - w[0], MIN_WINDOW_MS), run);
  if (!Number.isFinite(span)) span = run;
  let t0 = Number.isFinite(w[0]) ? w[0] : 0;
  t0 = Math.min(Math.max(0, t0), run - span);
  return [t0, t0 + span];
}

/** Zooms by `factor` (> 1 zooms in) keeping time `anchor` at the same y. */
export function zoomWindow(w: TimeWindow, factor: number, anchor: number, runMs: number): TimeWindow {
  const span = w[1] - w[0];
  const next = Math.min(Math.max(span / factor, MIN_WINDOW_MS), Math.max(runMs, MIN_WINDOW_MS));
  const f = span > 0 ? (anchor - w[0]) / span : 0.5;
  return clampWindow([anchor - f * next, anchor - f * next + next], runMs);
}

/** Pans by `fraction` of the window's length (positive: later). */
export function panWindow(w: TimeWindow, fraction: number, runMs: number): TimeWindow {
  const d = (w[1] - w[0]) * fraction;
  return clampWindow([w[0] + d, w[1] + d], runMs);
}

/** How near the window's bottom edge (a share of its span) the cursor may come before the window moves on. */
export const FOLLOW_MARGIN = 0.1;

/**
 * The window that keeps `t` in view with a margin below it (the newest event is never on the
 * bottom edge): unchanged while `t` is in its first 90%, else moved so `t` sits at 75% of it.
 */
export function followWindow(w: TimeWindow, t: number, runMs: number): TimeWindow {
  const span = w[1] - w[0];
  if (t >= w[0] && t <= w[1] - FOLLOW_MARGIN * span) return w;
  return clampWindow([t - 0.75 * span, t + 0.25 * span], runMs);
}

/**
 * The time extent the view scrolls over: the trace, and while the cursor is at its end (a run
 * playing, a beat paused where it ended) a little room after it, so the newest moment sits above
 * the bottom edge, not on it.
 */
export function viewExtentMs(untilMs: number, nowMs: number): number {
  const atEnd = nowMs >= untilMs - 1;
  return Math.max(MIN_WINDOW_MS, untilMs + (atEnd ? Math.max(20, Math.round(untilMs * 0.04)) : 0));
}

export interface Segment {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** Distance (px) from a point to a segment. */
export function distanceToSegment(s: Segment, x: number, y: number): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len2 = dx * dx + dy * dy;
  const u = len2 > 0 ? Math.min(1, Math.max(0, ((x - s.x1) * dx + (y - s.y1) * dy) / len2)) : 0;
  return Math.hypot(s.x1 + u * dx - x, s.y1 + u * dy - y);
}

/** How near (px) a pointer must be to an arrow to pick it. */
export const ARROW_HIT_PX = 6;

/** The segment nearest (x, y) within `maxPx`, or null. */
export function nearestSegment<T extends Segment>(segments: readonly T[], x: number, y: number, maxPx = ARROW_HIT_PX): T | null {
  let best: T | null = null;
  let bestD = maxPx;
  for (const s of segments) {
    // Cheap box test first: most arrows are nowhere near the pointer.
    if (y < Math.min(s.y1, s.y2) - maxPx || y > Math.max(s.y1, s.y2) + maxPx) continue;
    if (x < Math.min(s.x1, s.x2) - maxPx || x > Math.max(s.x1, s.x2) + maxPx) continue;
    const d = distanceToSegment(s, x, y);
    if (d <= bestD) {
      best = s;
      bestD = d;
    }
  }
  return best;
}

/** Where along an arrow the head's two barbs go (px), pointing from (x1,y1) to (x2,y2). */
export function arrowHead(s: Segment, size = 7): readonly [number, number, number, number] {
  const a = Math.atan2(s.y2 - s.y1, s.x2 - s.x1);
  return [
    s.x2 - size * Math.cos(a - 0.45),
    s.y2 - size * Math.sin(a - 0.45),
    s.x2 - size * Math.cos(a + 0.45),
    s.y2 - size * Math.sin(a + 0.45),
  ];
}
