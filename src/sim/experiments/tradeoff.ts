/**
 * Issue 28, the trade-off curve: detection time against false positives, one series per failure
 * detector. "You never detect failure, only unresponsiveness": a lower threshold (a shorter fixed
 * timeout, a smaller Φ) notices a crash sooner and suspects a healthy leader more often. A sweep of
 * `detector` (sweep.ts) holds both kinds; each point becomes one mark at (median failover, mean
 * false elections per hour). The mean, not the median, on y: most runs at a safe threshold have
 * none, and a rare false election is exactly what the curve is about.
 */
import type { PlannedPoint, RunResult } from './experiment';
import { quantile } from './stats';
import { detectorKindOf, type Sweep } from './sweep';

export interface TradeoffMark {
  readonly point: number;
  readonly label: string;
  /** Median failover (ms): how long after the crash a new leader was elected. */
  readonly detectionMs: number;
  /** Mean false elections per hour while the leader was healthy. */
  readonly falsePerHour: number;
  /** Runs with both values. */
  readonly n: number;
  /** The run a click opens: the one whose failover is nearest the median (the lowest seed of a tie). */
  readonly run: RunResult;
}

export interface TradeoffSeries {
  readonly kind: 'fixed' | 'phi-accrual';
  readonly name: string;
  /** Ordered from the most eager threshold to the most patient one. */
  readonly marks: readonly TradeoffMark[];
}

/** Whether an experiment draws the trade-off curve: a detector sweep of a template that measures both. */
export function isTradeoff(sweep: Sweep, sweep2: Sweep | undefined, measures: readonly string[]): boolean {
  return sweep.param === 'detector' && sweep2 === undefined && measures.includes('failover') && measures.includes('false-elections');
}

export function tradeoffSeries(points: readonly PlannedPoint[], results: readonly RunResult[]): TradeoffSeries[] {
  const out: TradeoffSeries[] = [];
  for (const kind of ['fixed', 'phi-accrual'] as const) {
    const marks: TradeoffMark[] = [];
    for (const p of points) {
      if (detectorKindOf(p.value) !== kind) continue;
      const runs = results
        .filter((r) => r.point === p.index && typeof r.values.failover === 'number' && typeof r.values['false-elections'] === 'number')
        .sort((a, b) => a.seed - b.seed);
      if (runs.length === 0) continue;
      const detection = quantile(
        runs.map((r) => r.values.failover as number),
        0.5,
      );
      const falsePerHour = runs.reduce((sum, r) => sum + (r.values['false-elections'] as number), 0) / runs.length;
      let run = runs[0];
      for (const r of runs)
        if (Math.abs((r.values.failover as number) - detection) < Math.abs((run.values.failover as number) - detection)) run = r;
      marks.push({ point: p.index, label: p.label, detectionMs: detection, falsePerHour, n: runs.length, run });
    }
    // Eager to patient: a timeout by its lower end, Φ by its value.
    const key = (m: TradeoffMark) => {
      const v = points[m.point].value;
      return typeof v === 'number' ? v : v[0];
    };
    marks.sort((a, b) => key(a) - key(b));
    if (marks.length > 0) out.push({ kind, name: kind === 'fixed' ? 'fixed timeout' : 'phi-accrual', marks });
  }
  return out;
}
