/**
 * What recording detail events costs (issue 24, item 7): the same run with details on and off, in
 * time and in heap, for the two ways runs keep them. The target is under 2x in both.
 *
 * - The CLI (`--json`, `--verbose`) keeps every detail: a 240 s run, five nodes, a submit every
 *   10 ms (about 340,000 details).
 * - The page's viewed run keeps only its newest MAX_DETAILS_ON_RESET (`detailLimit`), inside a
 *   Timeline that checkpoints a copy of the run every 2 s, and reads the new details as a snapshot
 *   would, every 50 simulated ms; the same 240 s.
 *
 * Time is the process's CPU time (every thread's: the collector's helpers count), the median of
 * interleaved runs (off, on, off, on …) after warm-up ones: on a machine shared with other work,
 * wall time measures the others too. Heap is measured in a fresh process per case and setting
 * (`--expose-gc`): heapUsed plus ArrayBuffer memory after a full collection, with the run still
 * held - the whole process, as the issue measured it (its 13 MB without details includes the
 * loaded code) - and, of that, what the run itself holds.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_CONFIG } from '../sim/model/config';
import { Simulation } from '../sim/run/simulation';
import { Timeline } from '../sim/run/timeline';
import { detailCount, detailsSince } from '../sim/view/runView';
import { MAX_DETAILS_ON_RESET } from '../worker/playback';

export const DETAIL_RUN_MS = 240_000;
const SUBMIT_EVERY_MS = 10;
/** How often the page case reads the new details: a snapshot's worth at 1x. */
const READ_EVERY_MS = 50;
export const DETAIL_TARGET_RATIO = 2;
export type DetailCaseName = 'cli' | 'page';

/**
 * Interleaved off/on pairs per case, after warm-up pairs: the CLI case is short (a pair takes about
 * 0.2 s), so it takes more of both, which steadies its median on a shared machine.
 */
export const DETAIL_RUNS: Readonly<Record<DetailCaseName, { readonly reps: number; readonly warmups: number }>> = {
  cli: { reps: 9, warmups: 5 },
  page: { reps: 5, warmups: 2 },
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const config = { ...DEFAULT_CONFIG, seed: 7 };

/**
 * Runs one case to its end and returns what it keeps (to hold while the heap is measured), how many
 * details it recorded and how many it read.
 */
export function runDetailCase(
  name: DetailCaseName,
  details: boolean,
): { readonly kept: unknown; readonly details: number; readonly read: number } {
  if (name === 'cli') {
    const sim = new Simulation(config, [], { submitEveryMs: SUBMIT_EVERY_MS, recordDetails: details });
    sim.advanceTo(DETAIL_RUN_MS);
    return { kept: sim, details: detailCount(sim), read: 0 };
  }
  const timeline = new Timeline(
    config,
    [],
    undefined,
    undefined,
    details
      ? { submitEveryMs: SUBMIT_EVERY_MS, recordDetails: true, detailLimit: MAX_DETAILS_ON_RESET }
      : { submitEveryMs: SUBMIT_EVERY_MS },
  );
  let cursor = 0;
  let read = 0;
  for (let t = READ_EVERY_MS; t <= DETAIL_RUN_MS; t += READ_EVERY_MS) {
    timeline.advanceTo(t);
    if (details) {
      read += detailsSince(timeline.current, cursor).length;
      cursor = detailCount(timeline.current);
    }
  }
  return { kept: timeline, details: detailCount(timeline.current), read };
}

export interface HeapFigure {
  /** The process's heap (heapUsed + ArrayBuffers) with the run held, after a full collection. */
  readonly totalBytes: number;
  /** Of that, what the run holds. */
  readonly runBytes: number;
}

export interface DetailCost {
  readonly name: DetailCaseName;
  readonly details: number;
  readonly reps: number;
  readonly warmups: number;
  readonly offMs: number;
  readonly onMs: number;
  readonly timeRatio: number;
  /** A figure, or why the heap could not be measured. */
  readonly heapOff: HeapFigure | string;
  readonly heapOn: HeapFigure | string;
  /** null when the heap could not be measured. */
  readonly heapRatio: number | null;
}

/** Measures one case's heap in a fresh process (this file, run with `--heap`); a sentence when that fails. */
function heapInChild(name: DetailCaseName, details: boolean): HeapFigure | string {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--heap', name, details ? 'on' : 'off'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  // Node prints a stack's source line first; the line naming the error says more.
  const stderr = (result.stderr ?? '').trim().split('\n');
  const why = result.error?.message ?? stderr.find((line) => /Error\b/.test(line)) ?? (stderr[0] || `exit code ${result.status}`);
  if (result.status !== 0) return `the measuring process failed: ${why}`;
  try {
    return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as HeapFigure;
  } catch {
    return 'the measuring process printed no figure';
  }
}

/** CPU time of one run of the case, in ms. */
function cpuMs(name: DetailCaseName, details: boolean): number {
  const started = process.cpuUsage();
  runDetailCase(name, details);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

export function measureDetailCost(name: DetailCaseName, reps = DETAIL_RUNS[name].reps, warmups = DETAIL_RUNS[name].warmups): DetailCost {
  for (let i = 0; i < warmups; i++) {
    cpuMs(name, false);
    cpuMs(name, true);
  }
  const off: number[] = [];
  const on: number[] = [];
  for (let i = 0; i < reps; i++) {
    off.push(cpuMs(name, false));
    on.push(cpuMs(name, true));
  }
  const offMs = median(off);
  const onMs = median(on);
  const heapOff = heapInChild(name, false);
  const heapOn = heapInChild(name, true);
  return {
    name,
    details: runDetailCase(name, true).details,
    reps,
    warmups,
    offMs,
    onMs,
    timeRatio: onMs / offMs,
    heapOff,
    heapOn,
    heapRatio: typeof heapOff !== 'string' && typeof heapOn !== 'string' ? heapOn.totalBytes / heapOff.totalBytes : null,
  };
}

/** Whether both ratios are under the target (an unmeasured heap is not). */
export function detailTargetMet(c: DetailCost): boolean {
  return c.timeRatio < DETAIL_TARGET_RATIO && c.heapRatio !== null && c.heapRatio < DETAIL_TARGET_RATIO;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const group = (n: number) => Math.round(n).toLocaleString('en-US');
const verdict = (ratio: number | null) => (ratio !== null && ratio < DETAIL_TARGET_RATIO ? 'ok' : 'BELOW TARGET');

const TITLES: Record<DetailCaseName, string> = {
  cli: 'CLI, every detail kept',
  page: `page, its newest ${group(MAX_DETAILS_ON_RESET)} kept, in a timeline with checkpoints, read every ${READ_EVERY_MS} ms`,
};

/** A case's lines: its title, its CPU time and its heap, each against the target. */
export function formatDetailCost(c: DetailCost): string[] {
  const target = `target < ${DETAIL_TARGET_RATIO}x`;
  const runs = `median of ${c.reps} interleaved off/on runs after ${c.warmups} of each`;
  const time = `    CPU time: ${group(c.offMs)} ms off, ${group(c.onMs)} ms on, ${c.timeRatio.toFixed(2)}x (${runs}); ${target}: ${verdict(c.timeRatio)}`;
  let heap: string;
  if (typeof c.heapOff === 'string' || typeof c.heapOn === 'string' || c.heapRatio === null) {
    const why = typeof c.heapOff === 'string' ? c.heapOff : typeof c.heapOn === 'string' ? c.heapOn : 'no figure';
    heap = `    heap: not measured (${why}); ${target}: BELOW TARGET`;
  } else {
    const perDetail = (c.heapOn.runBytes - c.heapOff.runBytes) / Math.max(1, c.details);
    heap =
      `    heap: ${mb(c.heapOff.totalBytes)} off, ${mb(c.heapOn.totalBytes)} on, ${c.heapRatio.toFixed(2)}x ` +
      `(the run's own ${mb(c.heapOff.runBytes)} -> ${mb(c.heapOn.runBytes)}, ${perDetail.toFixed(1)} bytes a detail); ${target}: ${verdict(c.heapRatio)}`;
  }
  return [`  ${TITLES[c.name]} (${group(c.details)} details):`, time, heap];
}

/** The bench section: both cases; true when both meet the target in time and heap. */
export function benchDetails(out: (line: string) => void = console.log): boolean {
  out(
    `detail events, off vs on (${DETAIL_RUN_MS / 1000} s, 5 nodes, seed 7, a submit every ${SUBMIT_EVERY_MS} ms; ` +
      'heap in a fresh process, after a full collection):',
  );
  let met = true;
  for (const name of ['cli', 'page'] as const) {
    const cost = measureDetailCost(name);
    if (!detailTargetMet(cost)) met = false;
    for (const line of formatDetailCost(cost)) out(line);
  }
  return met;
}

function heapMain(name: DetailCaseName, details: boolean): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('The heap measurement needs node --expose-gc.');
  const used = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  const run = runDetailCase(name, details);
  const after = used();
  process.stdout.write(JSON.stringify({ totalBytes: after, runBytes: after - before }) + '\n');
  if (run.kept === null) process.exitCode = 1; // holds the run until here
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [flag, name, setting] = process.argv.slice(2);
  if (flag === '--heap' && (name === 'cli' || name === 'page')) heapMain(name, setting === 'on');
  else process.exitCode = benchDetails() ? 0 : 1;
}
