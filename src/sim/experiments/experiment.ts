/**
 * An experiment: a template, one swept parameter (or two, as a grid of every pair), seeds per point. Planning checks every point
 * before anything runs; a job is one (point, seed) run, a pure function of the spec, so the page's
 * workers, Node's worker threads and a plain loop all give the same results in any order.
 */
import type { SimConfig } from '../model/config';
import type { Action } from '../model/schedule';
import { Simulation } from '../run/simulation';
import { computeMeasures, type MeasureId } from './measures';
import { RunRecorder } from './recorder';
import { summarize, type Summary } from './stats';
import { SWEEP_DEFS, formatValue, gridProblem, type Sweep, type SweepValue } from './sweep';
import { BASE_PARAMS, TEMPLATES, configFor, paramsProblem, type ExperimentParams, type TemplateId } from './templates';

export interface ExperimentSpec {
  readonly template: TemplateId;
  readonly sweep: Sweep;
  /** A second swept parameter: the points are then every (first, second) pair, first value by first value. */
  readonly sweep2?: Sweep;
  readonly seeds: number;
  /** Seeds run from here: firstSeed, firstSeed + 1, ... (default 1). */
  readonly firstSeed: number;
  /** Parameters every point shares, over the base ones (a preset's fixed settings). */
  readonly base?: Partial<ExperimentParams>;
}

export interface PlannedPoint {
  readonly index: number;
  readonly value: SweepValue;
  /** `150-300`, as typed. */
  readonly label: string;
  /** In a grid: the second parameter's value and label (absent in a one-parameter sweep). */
  readonly value2?: SweepValue;
  readonly label2?: string;
  readonly params: ExperimentParams;
}

/** A point as `lease=1000` or, in a grid, `lease=1000 drift=5`: how sentences and captions name it. */
export function pointName(spec: ExperimentSpec, p: PlannedPoint): string {
  const first = `${spec.sweep.param}=${p.label}`;
  return spec.sweep2 && p.label2 !== undefined ? `${first} ${spec.sweep2.param}=${p.label2}` : first;
}

export interface RunJob {
  readonly point: number;
  readonly seed: number;
}

/**
 * What a share link of the run holds: it opens this exact run, paused at its end. The core keeps
 * the run as data; the edges (the page's plots, the CSV and JSON files) make its link.
 */
export interface ExperimentRun {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  readonly atMs: number;
}

export interface RunResult {
  readonly point: number;
  readonly seed: number;
  readonly run: ExperimentRun;
  readonly values: Readonly<Record<string, number | null>>;
}

/** The points of the sweep, each checked: the list, or one sentence naming the point that cannot run and why. */
export function planExperiment(spec: ExperimentSpec): PlannedPoint[] | string {
  const template = TEMPLATES[spec.template];
  const base: ExperimentParams = { ...BASE_PARAMS, ...spec.base };
  const def = SWEEP_DEFS[spec.sweep.param];
  const points: PlannedPoint[] = [];
  const second = spec.sweep2;
  if (second !== undefined) {
    const problem = gridProblem(spec.sweep, second);
    if (problem !== null) return problem;
  }
  for (const value of spec.sweep.values) {
    const params = def.apply(base, value);
    const label = formatValue(value, spec.sweep.param);
    if (second === undefined) {
      const problem = paramsProblem(template, params);
      if (problem !== null) return `At ${spec.sweep.param}=${label} the run cannot be made: ${problem}`;
      points.push({ index: points.length, value, label, params });
      continue;
    }
    // Row by row: the first parameter's values are the rows, the second's the columns.
    for (const value2 of second.values) {
      const cell = SWEEP_DEFS[second.param].apply(params, value2);
      const label2 = formatValue(value2, second.param);
      const problem = paramsProblem(template, cell);
      if (problem !== null) return `At ${spec.sweep.param}=${label} ${second.param}=${label2} the run cannot be made: ${problem}`;
      points.push({ index: points.length, value, label, value2, label2, params: cell });
    }
  }
  return points;
}

/** Every run, seed by seed across the points, so each point's picture fills in evenly as results arrive. */
export function jobsOf(spec: ExperimentSpec, points: readonly PlannedPoint[]): RunJob[] {
  const jobs: RunJob[] = [];
  for (let s = 0; s < spec.seeds; s++) for (const p of points) jobs.push({ point: p.index, seed: spec.firstSeed + s });
  return jobs;
}

export function runJob(spec: ExperimentSpec, points: readonly PlannedPoint[], job: RunJob): RunResult {
  const template = TEMPLATES[spec.template];
  const params = points[job.point].params;
  const config = configFor(template, params, job.seed);
  const sim = new Simulation(config, template.schedule(params));
  const run = new RunRecorder(sim);
  template.drive(run, params);
  const record = run.record();
  return {
    point: job.point,
    seed: job.seed,
    run: { config, schedule: sim.schedule, atMs: sim.nowMs },
    values: computeMeasures(record, template.measures),
  };
}

/** Runs every job here, in order (the CLI's single-thread path and the tests). */
export function runExperiment(spec: ExperimentSpec, points: readonly PlannedPoint[]): RunResult[] {
  return jobsOf(spec, points).map((job) => runJob(spec, points, job));
}

export function sortResults(results: readonly RunResult[]): RunResult[] {
  return [...results].sort((a, b) => a.point - b.point || a.seed - b.seed);
}

export interface PointSummary {
  readonly label: string;
  readonly value: SweepValue;
  readonly label2?: string;
  readonly value2?: SweepValue;
  readonly measures: Readonly<Record<string, Summary>>;
}

export function summarizePoints(spec: ExperimentSpec, points: readonly PlannedPoint[], results: readonly RunResult[]): PointSummary[] {
  const measures = TEMPLATES[spec.template].measures;
  return points.map((p) => {
    const mine = results.filter((r) => r.point === p.index);
    const out: Record<string, Summary> = {};
    for (const m of measures) out[m] = summarize(mine.map((r) => r.values[m] ?? null));
    // A one-parameter sweep's summary keeps exactly its old keys (its JSON file is byte for byte the same).
    const grid = p.label2 === undefined ? {} : { label2: p.label2, value2: p.value2 };
    return { label: p.label, value: p.value, ...grid, measures: out };
  });
}

export type { MeasureId };
