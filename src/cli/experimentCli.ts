/**
 * `npm run experiment -- [flags]`: the page's experiments in Node, same code, same numbers. Flag
 * parsing and the report are plain functions (tests call them); running is in experiment.ts.
 */
import { MEASURES } from '../sim/experiments/measures';
import {
  planExperiment,
  summarizePoints,
  type ExperimentSpec,
  type PlannedPoint,
  type PointSummary,
  type RunResult,
} from '../sim/experiments/experiment';
import { EXPERIMENT_PRESETS, findExperimentPreset, type ChapterMark } from '../sim/experiments/presets';
import { percentileRank } from '../sim/experiments/stats';
import { isTradeoff, tradeoffSeries } from '../sim/experiments/tradeoff';
import {
  MAX_GRID_CELLS,
  MAX_RUNS,
  MAX_SEEDS,
  SWEEP_DEFS,
  SWEEP_PARAMS,
  formatSweep,
  gridProblem,
  parseSeedCount,
  parseSweep,
  type Sweep,
  type SweepParam,
} from '../sim/experiments/sweep';
import { BASE_PARAMS, TEMPLATES, TEMPLATE_IDS, isTemplateId, type ExperimentParams } from '../sim/experiments/templates';
import { UsageError, parseFlags, wholeNumber } from './args';

/** Fixed settings every point shares (`--timeout 1000-2000`), written as a one-value sweep of that parameter. */
const FIXED_PARAMS = SWEEP_PARAMS.filter((p) => p !== 'spread' && p !== 'detector');

const FLAGS = [
  { name: 'template', value: true },
  { name: 'preset', value: true },
  { name: 'sweep', value: true },
  { name: 'sweep2', value: true },
  { name: 'seeds', value: true },
  { name: 'first-seed', value: true },
  { name: 'threads', value: true },
  { name: 'csv', value: true },
  { name: 'json', value: true },
  { name: 'help', value: false },
  ...FIXED_PARAMS.map((name) => ({ name, value: true })),
] as const;

export const EXPERIMENT_USAGE = `Usage: npm run experiment -- [flags]
  --template NAME     ${TEMPLATE_IDS.join(', ')}, or compare-locks (every lock service side by side:
                      --template compare-locks --help)
  --sweep P=V,V,...   the parameter to sweep and its values; P is one of ${SWEEP_PARAMS.join(', ')}
                      (ranges for timeout and latency: --sweep timeout=100-200,150-300,300-600)
  --sweep2 P=V,V,...  a second parameter: every pair of values runs (a grid, rows the first
                      parameter, columns the second; at most ${MAX_GRID_CELLS} cells), e.g.
                      --sweep lease=1000,2000,4000 --sweep2 pause=1000,1900,2100,3000
  --seeds N           seeds per point, 1-${MAX_SEEDS} (default 100; at most ${MAX_RUNS} runs in all)
  --first-seed N      seeds run from N (default 1)
  --preset NAME       one of the chapter's experiments: ${EXPERIMENT_PRESETS.map((p) => p.name).join(', ')}
                      (--seeds, --first-seed and --sweep still apply over it)
  --${FIXED_PARAMS.join(', --')} VALUE
                      a setting every point shares, e.g. --timeout 1000-2000 --heartbeat 100
  --threads N         worker threads (default 1, in this process: starting a thread and its
                      TypeScript loader costs more than it saves below some 5,000 runs)
  --csv FILE          write one row per run (measures and the run's link)
  --json FILE         write the points' summaries and every run as JSON
A bad flag exits with code 2 and one sentence saying what is wrong.`;

export interface ResolvedExperiment {
  readonly spec: ExperimentSpec;
  readonly points: PlannedPoint[];
  readonly threads: number | null;
  readonly csvPath: string | null;
  readonly jsonPath: string | null;
  readonly mark: ChapterMark | null;
}

/** Flags to a checked experiment, or 'help'; a UsageError with one sentence otherwise. */
export function resolveExperiment(argv: readonly string[]): ResolvedExperiment | 'help' {
  const flags = parseFlags(argv, FLAGS);
  if (flags.has('help')) return 'help';
  const str = (name: string) => {
    const v = flags.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const presetName = str('preset');
  const preset = presetName === undefined ? null : findExperimentPreset(presetName);
  if (presetName !== undefined && preset === null) {
    throw new UsageError(`Unknown preset "${presetName}"; the presets are ${EXPERIMENT_PRESETS.map((p) => p.name).join(', ')}.`);
  }
  const templateName = str('template') ?? preset?.spec.template;
  if (templateName === undefined)
    throw new UsageError(
      `Give --template (one of ${TEMPLATE_IDS.join(', ')}) or --preset (one of ${EXPERIMENT_PRESETS.map((p) => p.name).join(', ')}).`,
    );
  if (!isTemplateId(templateName))
    throw new UsageError(`Unknown template "${templateName}"; the templates are ${TEMPLATE_IDS.join(', ')}.`);
  const sweepText = str('sweep');
  let sweep = preset?.spec.sweep;
  if (sweepText !== undefined) {
    const parsed = parseSweep(sweepText);
    if (typeof parsed === 'string') throw new UsageError(`--sweep: ${parsed}`);
    sweep = parsed;
  }
  if (sweep === undefined)
    throw new UsageError(
      `Give --sweep, like --sweep ${'timeout=' + SWEEP_DEFS.timeout.example}; the parameters are ${SWEEP_PARAMS.join(', ')}.`,
    );
  const sweep2Text = str('sweep2');
  let sweep2 = preset?.spec.sweep2;
  if (sweep2Text !== undefined) {
    const parsed = parseSweep(sweep2Text);
    if (typeof parsed === 'string') throw new UsageError(`--sweep2: ${parsed}`);
    sweep2 = parsed;
  }
  if (sweep2 !== undefined) {
    const problem = gridProblem(sweep, sweep2);
    if (problem !== null) throw new UsageError(`--sweep2: ${problem}`);
  }
  let base: Partial<ExperimentParams> = { ...preset?.spec.base };
  for (const name of FIXED_PARAMS) {
    const text = str(name);
    if (text === undefined) continue;
    const one = parseSweep(`${name}=${text}`);
    if (typeof one === 'string') throw new UsageError(`--${name}: ${one}`);
    if (one.values.length !== 1)
      throw new UsageError(`--${name} takes one value, not ${one.values.length}; to try several, use --sweep ${name}=${text}.`);
    base = SWEEP_DEFS[name as SweepParam].apply({ ...BASE_PARAMS, ...base }, one.values[0]);
  }
  const seedsText = str('seeds');
  const cells = sweep.values.length * (sweep2?.values.length ?? 1);
  const seeds = parseSeedCount(seedsText ?? String(preset?.spec.seeds ?? 100), cells, '--seeds');
  if (typeof seeds === 'string') throw new UsageError(seeds);
  const firstSeedText = str('first-seed');
  const firstSeed =
    firstSeedText === undefined ? (preset?.spec.firstSeed ?? 1) : wholeNumber(firstSeedText, 'first-seed', 0, 1_000_000_000);
  const threadsText = str('threads');
  const threads = threadsText === undefined ? null : wholeNumber(threadsText, 'threads', 1, 64);
  const csvPath = str('csv') ?? null;
  const jsonPath = str('json') ?? null;
  if (csvPath === '' || jsonPath === '') throw new UsageError(`--${csvPath === '' ? 'csv' : 'json'} needs a file name.`);
  const spec: ExperimentSpec = { template: templateName, sweep, ...(sweep2 ? { sweep2 } : {}), seeds, firstSeed, base };
  const points = planExperiment(spec);
  if (typeof points === 'string') throw new UsageError(points);
  // A chapter mark belongs to one point of a one-parameter sweep; in a grid it would name a whole row.
  const mark =
    sweep2 === undefined && preset?.mark && preset.spec.template === templateName && points.some((p) => p.label === preset.mark?.point)
      ? preset.mark
      : null;
  return { spec, points, threads, csvPath, jsonPath, mark };
}

const fmt = (v: number) => (Number.isFinite(v) ? (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1)) : '-');

/** The printed report: per point and measure, the median, the p5-p95 band and how many runs had a value. */
export function experimentReport(resolved: ResolvedExperiment, results: readonly RunResult[], wallMs: number | null): string {
  const { spec, points, mark } = resolved;
  const template = TEMPLATES[spec.template];
  const lines: string[] = [];
  const timing = wallMs === null ? '' : ` in ${(wallMs / 1000).toFixed(2)} s`;
  const swept = spec.sweep2 ? `${formatSweep(spec.sweep)} × ${formatSweep(spec.sweep2)}` : formatSweep(spec.sweep);
  lines.push(
    `${template.title} (${spec.template}), ${swept}, ${spec.seeds} seeds per point from seed ${spec.firstSeed}: ${results.length} runs${timing}`,
  );
  const summaries = summarizePoints(spec, points, results);
  if (spec.sweep2) return lines.concat(gridReport(spec, spec.sweep2, summaries)).join('\n') + '\n';
  for (const m of template.measures) {
    const def = MEASURES[m];
    lines.push(`${def.label} (${def.unit}):`);
    for (const s of summaries) {
      const v = s.measures[m];
      const none = v.missing > 0 ? `, ${v.missing} runs without a value` : '';
      lines.push(
        `  ${spec.sweep.param}=${s.label}: median ${fmt(v.p50)}, p5 ${fmt(v.p5)}, p95 ${fmt(v.p95)}, mean ${fmt(v.mean)} (n=${v.n}${none})`,
      );
    }
  }
  if (isTradeoff(spec.sweep, spec.sweep2, template.measures)) lines.push(...tradeoffReport(points, results));
  // Gossip against cluster size: the spread's median beside log2 N, the page's reference line.
  if (spec.template === 'gossip-spread' && spec.sweep.param === 'nodes' && spec.sweep2 === undefined) {
    lines.push("Against log2 N (the page's reference line):");
    for (const s of summaries)
      lines.push(
        `  nodes=${s.label}: spread median ${fmt(s.measures['gossip-spread'].p50)} rounds, log2 N ${Math.log2(Number(s.label)).toFixed(1)}`,
      );
  }
  if (mark !== null) {
    const point = points.find((p) => p.label === mark.point);
    const values = results
      .filter((r) => r.point === point?.index)
      .map((r) => r.values[mark.measure])
      .filter((v): v is number => v !== null && v !== undefined);
    if (values.length > 0) {
      lines.push(
        `${capital(mark.text)} sits at percentile ${fmt(percentileRank(values, mark.value))} of ${MEASURES[mark.measure].label.toLowerCase()} at ${spec.sweep.param}=${mark.point} (${values.length} runs).`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * A grid's report: per measure, its median in every cell, rows the first parameter and columns the
 * second, right-aligned so a column reads down; the headline measure (the template's first) first.
 */
function gridReport(spec: ExperimentSpec, second: Sweep, summaries: readonly PointSummary[]): string[] {
  const cols = second.values.length;
  const lines: string[] = [];
  for (const m of TEMPLATES[spec.template].measures) {
    const def = MEASURES[m];
    const corner = `${spec.sweep.param} \\ ${second.param}`;
    const rows = spec.sweep.values.map((_, i) => summaries.slice(i * cols, (i + 1) * cols));
    const cells = rows.map((row) =>
      row.map((s) => {
        const v = s.measures[m];
        return v.n === 0 ? '-' : v.missing > 0 ? `${fmt(v.p50)}*` : fmt(v.p50);
      }),
    );
    const head = [corner, ...summaries.slice(0, cols).map((s) => s.label2 ?? '')];
    const first = Math.max(corner.length, ...rows.map((r) => r[0].label.length));
    const width = Math.max(...head.slice(1).map((h) => h.length), ...cells.flat().map((c) => c.length));
    const line = (label: string, row: readonly string[]) => `  ${label.padEnd(first)}  ${row.map((t) => t.padStart(width)).join('  ')}`;
    lines.push(`${def.label} (${def.unit}), median per cell:`);
    lines.push(line(corner, head.slice(1)));
    rows.forEach((row, i) => lines.push(line(row[0].label, cells[i])));
    if (cells.flat().some((c) => c.endsWith('*'))) lines.push('  (* some runs in that cell have no value)');
  }
  return lines;
}

/** The trade-off curve as the page plots it: per detector, detection time (x) against false elections an hour (y). */
function tradeoffReport(points: readonly PlannedPoint[], results: readonly RunResult[]): string[] {
  const lines = ["Trade-off (the page's curve): detection time, the median failover, against false elections per hour, the mean:"];
  for (const series of tradeoffSeries(points, results)) {
    lines.push(`  ${series.name}:`);
    const width = Math.max(...series.marks.map((m) => m.label.length));
    for (const m of series.marks)
      lines.push(
        `    ${m.label.padEnd(width)}  detection ${fmt(m.detectionMs).padStart(4)} ms  false elections ${fmt(m.falsePerHour).padStart(6)} an hour  (n=${m.n})`,
      );
  }
  return lines;
}

const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
