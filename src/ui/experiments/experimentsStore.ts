/**
 * The Experiments view's state: the form as typed, the running experiment and its results. Its
 * own small store, apart from the lab's, so the results outlive the view (open a run, come back)
 * and a running experiment never re-renders the ring. Results from the pool are gathered and
 * written at most every RESULTS_EVERY_MS, so the plots redraw about twice a second, not per batch.
 */
import { createStore } from 'zustand/vanilla';
import { jobsOf, planExperiment, type ExperimentSpec, type PlannedPoint, type RunResult } from '../../sim/experiments/experiment';
import type { MeasureId } from '../../sim/experiments/measures';
import { EXPERIMENT_PRESETS, findExperimentPreset, type ChapterMark } from '../../sim/experiments/presets';
import { formatFixed, formatSweep, parseFixed, parseSeedCount, parseSweep } from '../../sim/experiments/sweep';
import { BASE_PARAMS, TEMPLATES, isTemplateId, type TemplateId } from '../../sim/experiments/templates';
import type { ExperimentPool } from './experimentPool';

export const RESULTS_EVERY_MS = 400;

export interface ExperimentForm {
  /** The chapter preset the form was filled from, or '' once edited away from it. */
  readonly preset: string;
  readonly template: TemplateId;
  readonly sweep: string;
  /** A second parameter to sweep against the first (a grid), or '' for none. */
  readonly sweep2: string;
  readonly fixed: string;
  readonly seeds: string;
  readonly firstSeed: string;
}

export type RunStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

export interface ExperimentsState {
  readonly form: ExperimentForm;
  readonly status: RunStatus;
  /** One sentence: what is wrong with the form, or why the experiment stopped. */
  readonly error: string | null;
  readonly spec: ExperimentSpec | null;
  readonly points: readonly PlannedPoint[];
  readonly results: readonly RunResult[];
  readonly total: number;
  readonly startedAt: number;
  readonly elapsedMs: number;
  readonly mark: ChapterMark | null;
  /** What the plots show. */
  readonly measure: MeasureId;
  readonly scatterY: MeasureId;
  readonly distPoint: number;
  readonly distMode: 'histogram' | 'cdf';
}

const FIRST = EXPERIMENT_PRESETS[0];

function formOf(name: string): ExperimentForm {
  const p = findExperimentPreset(name) ?? FIRST;
  return {
    preset: p.name,
    template: p.spec.template,
    sweep: formatSweep(p.spec.sweep),
    sweep2: p.spec.sweep2 ? formatSweep(p.spec.sweep2) : '',
    fixed: formatFixed(p.spec.base ?? {}),
    seeds: String(p.pageSeeds ?? p.spec.seeds),
    firstSeed: String(p.spec.firstSeed),
  };
}

function plotDefaults(template: TemplateId, measure?: MeasureId) {
  const measures = TEMPLATES[template].measures;
  const m = measure ?? measures[0];
  return { measure: m, scatterY: measures.find((x) => x !== m) ?? m };
}

const initial: ExperimentsState = {
  form: formOf(FIRST.name),
  status: 'idle',
  error: null,
  spec: null,
  points: [],
  results: [],
  total: 0,
  startedAt: 0,
  elapsedMs: 0,
  mark: null,
  ...plotDefaults(FIRST.spec.template, FIRST.measure),
  distPoint: 0,
  distMode: 'histogram',
};

export const experimentsStore = createStore<ExperimentsState>(() => initial);

let pool: ExperimentPool | null = null;
let clock: () => number = () => 0;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let pending: RunResult[] = [];

/** Boot: the pool the page runs experiments on, and the wall clock for the elapsed time. */
export function connectExperimentPool(p: ExperimentPool, now: () => number): void {
  pool = p;
  clock = now;
}

export function poolSize(): number {
  return pool?.size ?? 0;
}

const set = (patch: Partial<ExperimentsState>) => experimentsStore.setState(patch);

export function editForm(patch: Partial<ExperimentForm>): void {
  const old = experimentsStore.getState().form;
  // Seeds are not part of what a preset asks: changing them keeps the preset (and its chapter mark).
  const keepsPreset = Object.keys(patch).every((k) => k === 'seeds' || k === 'firstSeed');
  const form = { ...old, ...patch, preset: keepsPreset ? old.preset : '' };
  set({ form, error: null });
}

export function choosePreset(name: string): void {
  const preset = findExperimentPreset(name);
  if (preset === null) return;
  set({ form: formOf(name), error: null });
}

export function setPlot(patch: Partial<Pick<ExperimentsState, 'measure' | 'scatterY' | 'distPoint' | 'distMode'>>): void {
  set(patch);
}

/** The form as an experiment, or one sentence naming what is wrong. */
export function specFromForm(form: ExperimentForm): { spec: ExperimentSpec; points: PlannedPoint[] } | string {
  if (!isTemplateId(form.template)) return `Unknown scenario "${form.template}".`;
  const sweep = parseSweep(form.sweep);
  if (typeof sweep === 'string') return sweep;
  const sweep2 = form.sweep2.trim() === '' ? undefined : parseSweep(form.sweep2);
  if (typeof sweep2 === 'string') return `Second parameter: ${sweep2}`;
  const base = parseFixed(form.fixed, BASE_PARAMS);
  if (typeof base === 'string') return base;
  const seeds = parseSeedCount(form.seeds, sweep.values.length * (sweep2?.values.length ?? 1));
  if (typeof seeds === 'string') return seeds;
  const first = form.firstSeed.trim();
  if (!/^\d{1,9}$/.test(first)) return `The first seed must be a whole number from 0 to 999999999, not "${form.firstSeed.slice(0, 40)}".`;
  const spec: ExperimentSpec = { template: form.template, sweep, ...(sweep2 ? { sweep2 } : {}), seeds, firstSeed: Number(first), base };
  const points = planExperiment(spec);
  if (typeof points === 'string') return points;
  return { spec, points };
}

function flush(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  if (pending.length === 0) return;
  const s = experimentsStore.getState();
  set({ results: [...s.results, ...pending], elapsedMs: clock() - s.startedAt });
  pending = [];
}

export function runExperimentFromForm(): void {
  const s = experimentsStore.getState();
  const planned = specFromForm(s.form);
  if (typeof planned === 'string') {
    set({ error: planned });
    return;
  }
  if (pool === null) {
    set({ error: 'This page has no experiment workers, so the experiment cannot run.' });
    return;
  }
  const { spec, points } = planned;
  const jobs = jobsOf(spec, points);
  const preset = findExperimentPreset(s.form.preset);
  const keepMeasure = spec.template === s.spec?.template || spec.template === preset?.spec.template;
  const measure = preset && preset.spec.template === spec.template ? preset.measure : keepMeasure ? s.measure : undefined;
  // A chapter mark names one point of a one-parameter sweep.
  const mark = spec.sweep2 === undefined && preset?.mark && points.some((p) => p.label === preset.mark?.point) ? preset.mark : null;
  pending = [];
  set({
    status: 'running',
    error: null,
    spec,
    points,
    results: [],
    total: jobs.length,
    startedAt: clock(),
    elapsedMs: 0,
    mark,
    ...plotDefaults(spec.template, measure),
    distPoint: mark ? points.findIndex((p) => p.label === mark.point) : Math.min(s.distPoint, points.length - 1),
  });
  pool.start(spec, jobs, {
    onResults(results) {
      pending.push(...results);
      if (flushTimer === null) flushTimer = setTimeout(flush, RESULTS_EVERY_MS);
    },
    onDone() {
      flush();
      set({ status: 'done', elapsedMs: clock() - experimentsStore.getState().startedAt });
    },
    onError(error) {
      flush();
      set({ status: 'failed', error });
    },
  });
}

export function cancelExperiment(): void {
  if (pool === null || experimentsStore.getState().status !== 'running') return;
  pool.cancel();
  flush();
  set({ status: 'cancelled', elapsedMs: clock() - experimentsStore.getState().startedAt });
}
