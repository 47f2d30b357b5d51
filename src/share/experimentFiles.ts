/**
 * An experiment's results as files, CSV and JSON (the page's download and `npm run experiment
 * --csv/--json`): text made at the edge, where each run becomes its share link.
 */
import { sortResults, summarizePoints, type ExperimentSpec, type PlannedPoint, type RunResult } from '../sim/experiments/experiment';
import { MEASURES } from '../sim/experiments/measures';
import { formatSweep } from '../sim/experiments/sweep';
import { TEMPLATES } from '../sim/experiments/templates';
import { encodeLink } from './link';

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** One row per run, sorted by point then seed; measures in the template's order; empty where a run has no value. */
export function resultsCsv(spec: ExperimentSpec, points: readonly PlannedPoint[], results: readonly RunResult[]): string {
  const measures = TEMPLATES[spec.template].measures;
  // A grid adds the second parameter's two columns after the first's; a one-parameter file is unchanged.
  const second = spec.sweep2;
  const gridHeader = second ? ['parameter 2', 'value 2'] : [];
  const header = ['template', 'parameter', 'value', ...gridHeader, 'seed', ...measures.map((m) => `${m} (${MEASURES[m].unit})`), 'link'];
  const rows = sortResults(results).map((r) => [
    spec.template,
    spec.sweep.param,
    points[r.point].label,
    ...(second ? [second.param, points[r.point].label2 ?? ''] : []),
    String(r.seed),
    ...measures.map((m) => {
      const v = r.values[m];
      return v === null || v === undefined ? '' : String(Math.round(v * 1000) / 1000);
    }),
    encodeLink(r.run),
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

export function resultsJson(spec: ExperimentSpec, points: readonly PlannedPoint[], results: readonly RunResult[]): string {
  const summaries = summarizePoints(spec, points, results);
  return (
    JSON.stringify(
      {
        format: 'lockstep-experiment',
        version: 1,
        template: spec.template,
        sweep: formatSweep(spec.sweep),
        ...(spec.sweep2 ? { sweep2: formatSweep(spec.sweep2) } : {}),
        seeds: spec.seeds,
        firstSeed: spec.firstSeed,
        base: spec.base ?? {},
        measures: TEMPLATES[spec.template].measures.map((m) => ({ id: m, label: MEASURES[m].label, unit: MEASURES[m].unit })),
        points: summaries,
        runs: sortResults(results).map((r) => ({ point: r.point, seed: r.seed, link: encodeLink(r.run), values: r.values })),
      },
      (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
      2,
    ) + '\n'
  );
}
