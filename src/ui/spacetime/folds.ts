/**
 * Folding quiet time. The fencing figure spans 12.6 s but everything it shows happens in four
 * bursts of under 100 ms each; drawn to scale, each burst would be three pixels tall. With quiet
 * stretches folded, every stretch with nothing but heartbeats longer than a threshold is drawn as
 * a fixed-height break ("⋯ 9.9 s ⋯") and the bursts share the rest of the height, to scale among
 * themselves. This is the space-time view's "compress idle time" mode, as ShiViz draws logical
 * time; the breaks are labelled with their real length so nothing is hidden.
 */

export interface Fold {
  /** The quiet stretch [from, to) in ms, drawn `px` tall. */
  readonly from: number;
  readonly to: number;
}

export interface FoldedScale {
  readonly t0: number;
  readonly t1: number;
  readonly top: number;
  readonly height: number;
  /** Quiet stretches inside (t0, t1), in time order, not overlapping. */
  readonly folds: readonly Fold[];
  /** The height of one fold (px). */
  readonly foldPx: number;
}

/** Time kept on each side of a burst, so its first and last arrows do not touch a break. */
export const FOLD_MARGIN_MS = 12;

/**
 * The quiet stretches of [t0, t1]: gaps between consecutive activity times (sorted ascending) longer
 * than `minGapMs`, shrunk by FOLD_MARGIN_MS at both ends. Activity before t0 or after t1 bounds the
 * first and last gap the same way the window's edges do.
 */
export function quietFolds(activity: readonly number[], t0: number, t1: number, minGapMs: number): Fold[] {
  const folds: Fold[] = [];
  let prev = t0 - FOLD_MARGIN_MS;
  const consider = (next: number) => {
    const from = Math.max(t0, prev + FOLD_MARGIN_MS);
    const to = Math.min(t1, next - FOLD_MARGIN_MS);
    if (to - from >= minGapMs) folds.push({ from, to });
  };
  for (const t of activity) {
    if (t < t0) continue;
    if (t > t1) break;
    consider(t);
    prev = t;
  }
  consider(t1 + FOLD_MARGIN_MS);
  return folds;
}

/** Time shown to scale: the window minus its folds. */
function scaledMs(s: FoldedScale): number {
  let ms = s.t1 - s.t0;
  for (const f of s.folds) ms -= f.to - f.from;
  return ms;
}

/** Pixels per ms of the unfolded time. */
function pxPerMs(s: FoldedScale): number {
  const free = s.height - s.folds.length * s.foldPx;
  const ms = scaledMs(s);
  return ms > 0 && free > 0 ? free / ms : 0;
}

/** The y of time t: to scale outside folds, proportionally inside one. */
export function foldedY(s: FoldedScale, t: number): number {
  const k = pxPerMs(s);
  let y = s.top;
  let at = s.t0;
  for (const f of s.folds) {
    if (t < f.from) break;
    y += (f.from - at) * k;
    if (t < f.to) return y + ((t - f.from) / (f.to - f.from)) * s.foldPx;
    y += s.foldPx;
    at = f.to;
  }
  return y + (t - at) * k;
}

/** The time at y: the inverse of foldedY. */
export function foldedT(s: FoldedScale, y: number): number {
  const k = pxPerMs(s);
  let top = s.top;
  let at = s.t0;
  for (const f of s.folds) {
    const foldTop = top + (f.from - at) * k;
    if (y < foldTop) break;
    if (y < foldTop + s.foldPx) return f.from + ((y - foldTop) / s.foldPx) * (f.to - f.from);
    top = foldTop + s.foldPx;
    at = f.to;
  }
  return k > 0 ? at + (y - top) / k : at;
}

/** "9.9 s" / "640 ms": a fold's label. */
export function foldLabel(f: Fold): string {
  const ms = Math.round(f.to - f.from);
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
