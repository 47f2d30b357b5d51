/**
 * An experiment: a template, one swept parameter, seeds per point. Planning checks every point
 * before anything runs; a job is one (point, seed) run, a pure function of the spec, so the page's
 * workers, Node's worker threads and a plain loop all give the same results in any order.
 */
import type { SimConfig } from '../model/config';
import type { Action } from '../model/schedule';
import { Simulation } from '../run/simulation';
import { computeMeasures, type MeasureId } from './measures';
import { RunRecorder } from './recorder';
import { summarize, type Summary } from './stats';
import { SWEEP_DEFS, formatValue, type Sweep, type SweepValue } from './sweep';
import { BASE_PARAMS, TEMPLATES, configFor, paramsProblem, type ExperimentParams, type TemplateId } from './templates';

export interface ExperimentSpec {
  readonly template: TemplateId;
  readonly sweep: Sweep;
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
  readonly params: ExperimentParams;
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
  for (const value of spec.sweep.values) {
    const params = def.apply(base, value);
    const label = formatValue(value);
    const problem = paramsProblem(template, params);
    if (problem !== null) return `At ${spec.sweep.param}=${label} the run cannot be made: ${problem}`;
    points.push({ index: points.length, value, label, params });
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
  readonly measures: Readonly<Record<string, Summary>>;
}

export function summarizePoints(spec: ExperimentSpec, points: readonly PlannedPoint[], results: readonly RunResult[]): PointSummary[] {
  const measures = TEMPLATES[spec.template].measures;
  return points.map((p) => {
    const mine = results.filter((r) => r.point === p.index);
    const out: Record<string, Summary> = {};
    for (const m of measures) out[m] = summarize(mine.map((r) => r.values[m] ?? null));
    return { label: p.label, value: p.value, measures: out };
  });
}

export type { MeasureId };
