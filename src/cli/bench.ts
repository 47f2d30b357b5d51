/**
 * `npm run bench`: how fast the simulation core runs, in simulated ms per wall-clock second.
 * Each section is timed as the median of several repetitions after a warm-up, and printed next
 * to its target (20x the chapter's Python reference on the same workload).
 *
 * The warm-up is 15 runs and at least one second (at most 60 runs), not one run: a run with
 * submits keeps a 12,000-entry log per node alive, so over a fresh process's first ~10 runs V8
 * keeps enlarging its young generation, and the first touches of that new memory are slow (very
 * slow in a VM) - a one-time cost of the process, not of the engine, that follows the number of
 * runs rather than the time. `--warmups N` makes it exactly N runs (`--warmups 1`: one run).
 *
 * Sections are plain data: add one to SECTIONS (or call `timeSection` from another script).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DEFAULT_CONFIG } from '../sim/model/config';
import { Simulation } from '../sim/run/simulation';
import { UsageError, parseFlags, wholeNumber } from './args';
import { benchDetails } from './benchDetails';
import { benchFuzz } from './benchFuzz';
import { benchHistory } from './benchHistory';
import { benchImport } from './benchImport';
import { benchSeek } from './benchSeek';
import { benchExperimentCli, benchExperimentPage } from './benchExperiment';
import { benchBundle } from './benchBundle';

export interface Timing {
  /** Wall-clock ms of each measured repetition, in the order run. */
  readonly samplesMs: readonly number[];
  readonly medianMs: number;
  /** Untimed runs before them. */
  readonly warmupRuns: number;
}

export interface TimeOptions {
  /** Untimed runs first (default 1). */
  readonly warmups?: number;
  /** After those, keep warming up until this much wall time has passed in all (default 0)... */
  readonly warmupMs?: number;
  /** ...but stop at this many warm-up runs (default MAX_WARMUPS). */
  readonly maxWarmups?: number;
  readonly reps?: number;
  /** Milliseconds now; injectable so tests can time with a fake clock. */
  readonly clock?: () => number;
}

export const DEFAULT_REPS = 9;
export const DEFAULT_WARMUPS = 15;
export const DEFAULT_WARMUP_MS = 1000;
export const MAX_WARMUPS = 60;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs `fn` untimed to warm up (see TimeOptions), then `reps` times timed; returns each time and the median. */
export function timeSection(fn: () => void, options: TimeOptions = {}): Timing {
  const { warmups = 1, warmupMs = 0, reps = DEFAULT_REPS, clock = () => performance.now() } = options;
  const maxWarmups = Math.max(warmups, options.maxWarmups ?? MAX_WARMUPS);
  if (!Number.isInteger(reps) || reps < 1) throw new RangeError('reps must be a whole number of at least 1');
  const warmupStart = clock();
  let warmupRuns = 0;
  while (warmupRuns < warmups || (warmupRuns < maxWarmups && clock() - warmupStart < warmupMs)) {
    fn();
    warmupRuns++;
  }
  const samplesMs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = clock();
    fn();
    samplesMs.push(clock() - started);
  }
  return { samplesMs, medianMs: median(samplesMs), warmupRuns };
}

/** A section that measures a rate: `work` units (simulated ms here) per wall-clock second. */
export interface RateSection {
  readonly name: string;
  readonly unit: string;
  /** Units of work one run does. */
  readonly work: number;
  /** The rate to reach or beat, with where it comes from; null when there is none. */
  readonly target: { readonly perSec: number; readonly why: string } | null;
  readonly run: () => void;
}

export interface RateResult {
  readonly section: RateSection;
  readonly timing: Timing;
  readonly perSec: number;
  readonly met: boolean | null;
}

export function measureRate(section: RateSection, options: TimeOptions = {}): RateResult {
  const timing = timeSection(section.run, options);
  const perSec = timing.medianMs > 0 ? (section.work / timing.medianMs) * 1000 : Infinity;
  return { section, timing, perSec, met: section.target === null ? null : perSec >= section.target.perSec };
}

const BENCH_MS = 120_000;
const PYTHON_WITH_SUBMITS = 240_000;
const PYTHON_IDLE = 790_000;

function raftRun(submitEveryMs: number | null): () => void {
  const config = { ...DEFAULT_CONFIG, seed: 7 };
  return () => {
    const sim = new Simulation(config, [], { submitEveryMs });
    sim.advanceTo(BENCH_MS);
  };
}

export const SECTIONS: readonly RateSection[] = [
  {
    name: 'raft, 5 nodes, seed 7, --submit-every 10, 120000 ms',
    unit: 'sim-ms/s',
    work: BENCH_MS,
    target: { perSec: 20 * PYTHON_WITH_SUBMITS, why: `20x the Python reference's ${PYTHON_WITH_SUBMITS.toLocaleString('en-US')}` },
    run: raftRun(10),
  },
  {
    name: 'raft, 5 nodes, seed 7, idle (no submits), 120000 ms',
    unit: 'sim-ms/s',
    work: BENCH_MS,
    target: { perSec: 20 * PYTHON_IDLE, why: `20x the Python reference's ${PYTHON_IDLE.toLocaleString('en-US')}` },
    run: raftRun(null),
  },
];

const group = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatRate(result: RateResult): string {
  const { section, timing, perSec } = result;
  const figure = `${group(perSec)} ${section.unit}`;
  const min = Math.min(...timing.samplesMs);
  const max = Math.max(...timing.samplesMs);
  const warm = timing.warmupRuns === 1 ? '1 warm-up run' : `${timing.warmupRuns} warm-up runs`;
  const times = `median ${timing.medianMs.toFixed(1)} ms of ${timing.samplesMs.length} runs after ${warm}, min ${min.toFixed(1)}, max ${max.toFixed(1)}`;
  if (section.target === null) return `${section.name}: ${figure} (${times})`;
  const verdict = result.met ? 'ok' : 'BELOW TARGET';
  return `${section.name}: ${figure} (${times}); target >= ${group(section.target.perSec)} (${section.target.why}): ${verdict}`;
}

export const BENCH_USAGE = `Usage: npm run bench -- [flags]
  --reps N      timed repetitions per section (default ${DEFAULT_REPS})
  --warmups N   exactly N untimed runs before them (default: ${DEFAULT_WARMUPS} runs and at least
                ${DEFAULT_WARMUP_MS} ms, at most ${MAX_WARMUPS} runs)
  --strict      exit with code 1 when a section misses its target`;

/** The CLI: returns the exit code. */
export interface BenchArgs {
  readonly reps: number;
  /** null: the default warm-up (DEFAULT_WARMUPS runs and at least DEFAULT_WARMUP_MS). */
  readonly warmups: number | null;
  readonly strict: boolean;
}

/** Parses the bench flags; 'help' for --help; throws a UsageError with one sentence otherwise. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs | 'help' {
  const flags = parseFlags(argv, [
    { name: 'reps', value: true },
    { name: 'warmups', value: true },
    { name: 'strict', value: false },
    { name: 'help', value: false },
  ]);
  if (flags.has('help')) return 'help';
  const reps = flags.get('reps');
  const warmups = flags.get('warmups');
  return {
    reps: typeof reps === 'string' ? wholeNumber(reps, 'reps', 1, 1000) : DEFAULT_REPS,
    warmups: typeof warmups === 'string' ? wholeNumber(warmups, 'warmups', 0, 1000) : null,
    strict: flags.has('strict'),
  };
}

export function runBench(argv: readonly string[], out: (line: string) => void, err: (line: string) => void = out): number {
  let args: BenchArgs | 'help';
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.message);
      return 2;
    }
    throw error;
  }
  if (args === 'help') {
    out(BENCH_USAGE);
    return 0;
  }
  const { reps, warmups, strict } = args;
  const warm =
    warmups === null
      ? `a warm-up of ${DEFAULT_WARMUPS} runs and at least ${DEFAULT_WARMUP_MS} ms`
      : warmups === 1
        ? '1 warm-up run'
        : `${warmups} warm-up runs`;
  out(`Lockstep bench (Node ${process.versions.node}): median of ${reps} runs after ${warm} per section`);
  let missed = 0;
  for (const section of SECTIONS) {
    const options: TimeOptions =
      warmups === null
        ? { warmups: DEFAULT_WARMUPS, warmupMs: DEFAULT_WARMUP_MS, maxWarmups: MAX_WARMUPS, reps }
        : { warmups, maxWarmups: warmups, reps };
    const result = measureRate(section, options);
    if (result.met === false) missed++;
    out(formatRate(result));
  }
  if (!benchFuzz(out).met) missed++;
  if (benchSeek(out).maxMs >= 50) missed++;
  if (!benchHistory(out).met) missed++;
  if (!benchImport(out).met) missed++;
  // Experiments (issue 16): the CLI's sweep here; the page's in Chromium after (async, see below).
  if (!benchExperimentCli(out).met) missed++;
  // What detail events cost the engine (issue 24, item 7): on against off, under 2x in time and heap.
  // Last of the in-process sections: its 240 s runs leave a heap that would pause the seeks above.
  if (!benchDetails(out)) missed++;
  return strict && missed > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = runBench(
    process.argv.slice(2),
    (line) => process.stdout.write(line + '\n'),
    (line) => process.stderr.write(line + '\n'),
  );
  // The page's experiment targets need the built site in Chromium: measured last, when the sections ran.
  if (process.exitCode !== 2 && !process.argv.includes('--help')) {
    // The page's initial JavaScript and the first paint of the ring (issue 24, item 7), from a fresh build.
    const bundle = await benchBundle((line) => process.stdout.write(line + '\n'));
    if (!bundle.met && process.argv.includes('--strict')) process.exitCode = 1;
    const page = await benchExperimentPage((line) => process.stdout.write(line + '\n'));
    if (page !== null && !page.met && process.argv.includes('--strict')) process.exitCode = 1;
  }
}
