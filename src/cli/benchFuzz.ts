/**
 * Fuzz throughput: swarm runs of 10 simulated seconds, every invariant on, per wall-clock
 * minute, liveness after calm included. The target is at least 10,000 ten-second runs per minute on the
 * lab's 2-core machine (it was 1,000 before client-view and liveness checks came in).
 * Runs one process (one core): the figure is what a single worker gets.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { FUZZ_DURATION_MS, fuzzRun } from '../sim/check/fuzz';

export const FUZZ_TARGET_PER_MINUTE = 10_000;

export interface FuzzBenchResult {
  readonly runs: number;
  readonly wallMs: number;
  readonly runsPerMinute: number;
  readonly violations: number;
  readonly met: boolean;
}

export interface FuzzBenchOptions {
  /** Measure for about this long, after a short warm-up (default 5000 ms). */
  readonly budgetMs?: number;
  readonly seed?: number;
  readonly clock?: () => number;
}

export function benchFuzz(out: (line: string) => void = console.log, options: FuzzBenchOptions = {}): FuzzBenchResult {
  const { budgetMs = 5000, seed = 1, clock = () => performance.now() } = options;
  for (let i = 0; i < 20; i++) fuzzRun(seed + 1, i); // warm-up: let the JIT settle
  let runs = 0;
  let violations = 0;
  const started = clock();
  let wallMs = 0;
  while (wallMs < budgetMs) {
    if (fuzzRun(seed, runs).violation !== null) violations++;
    runs++;
    wallMs = clock() - started;
  }
  const runsPerMinute = wallMs > 0 ? (runs / wallMs) * 60_000 : Infinity;
  const met = runsPerMinute >= FUZZ_TARGET_PER_MINUTE;
  const group = (n: number) => Math.round(n).toLocaleString('en-US');
  out(
    `fuzz, swarm runs of ${FUZZ_DURATION_MS / 1000} simulated s with every invariant and liveness on: ${group(runsPerMinute)} runs/min ` +
      `(${runs} runs in ${(wallMs / 1000).toFixed(1)} s, ${violations} violations); target >= ${group(FUZZ_TARGET_PER_MINUTE)} runs/min: ${met ? 'ok' : 'BELOW TARGET'}`,
  );
  return { runs, wallMs, runsPerMinute, violations, met };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) benchFuzz();
