/** Percentiles and summaries of a measure's values: one definition for the page, the CLI and the tests. */

/** The p-quantile (0 <= p <= 1) of ascending `sorted` values, interpolated linearly (as d3.quantile and R's type 7). */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function quantile(values: readonly number[], p: number): number {
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

export interface Summary {
  /** Values that exist (runs where the measure has no value are counted in `missing`). */
  readonly n: number;
  readonly missing: number;
  readonly min: number;
  readonly p5: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(values: readonly (number | null)[]): Summary {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  const missing = values.length - present.length;
  if (present.length === 0) return { n: 0, missing, min: NaN, p5: NaN, p50: NaN, p95: NaN, max: NaN, mean: NaN };
  const mean = present.reduce((a, b) => a + b, 0) / present.length;
  return {
    n: present.length,
    missing,
    min: present[0],
    p5: quantileSorted(present, 0.05),
    p50: quantileSorted(present, 0.5),
    p95: quantileSorted(present, 0.95),
    max: present[present.length - 1],
    mean,
  };
}

/**
 * Where `x` sits among `values`: the percentage of values below it plus half of those equal to it
 * (the mid-rank percentile, so a value in the middle of a tie reads as the tie's middle).
 */
export function percentileRank(values: readonly number[], x: number): number {
  if (values.length === 0) return NaN;
  let below = 0;
  let equal = 0;
  for (const v of values) {
    if (v < x) below++;
    else if (v === x) equal++;
  }
  return (100 * (below + equal / 2)) / values.length;
}
