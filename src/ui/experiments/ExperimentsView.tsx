/**
 * The Experiments view: pick a scenario and a parameter to sweep (or one of the chapter's
 * experiments), run it on the pool of workers, and read the plots as results arrive. Every dot is
 * a run; clicking one opens that exact run in the main view.
 */
import { CompareTable } from './CompareTable';
import { memo, useCallback, useDeferredValue } from 'react';
import { useStore } from 'zustand';
import { resultsCsv, resultsJson } from '../../share/experimentFiles';
import { MEASURES, type MeasureId } from '../../sim/experiments/measures';
import { EXPERIMENT_PRESETS, findExperimentPreset } from '../../sim/experiments/presets';
import { summarize } from '../../sim/experiments/stats';
import { MAX_GRID_CELLS, SWEEP_DEFS, SWEEP_PARAMS } from '../../sim/experiments/sweep';
import { pointName } from '../../sim/experiments/experiment';
import { PLACEMENT_NAMES, TEMPLATES, TEMPLATE_IDS, type TemplateId } from '../../sim/experiments/templates';
import { SeriesPlot } from './SeriesPlot';
import { downloadText } from '../export/download';
import { useBridge } from '../labContext';
import { runFromQuery } from '../runs';
import { DistributionPlot } from './DistributionPlot';
import { GridPlot } from './GridPlot';
import {
  cancelExperiment,
  choosePreset,
  editForm,
  experimentsStore,
  poolSize,
  runExperimentFromForm,
  setPlot,
  type ExperimentsState,
} from './experimentsStore';
import { setExperimentsOpen } from './open';
import { formatNumber } from './plotKit';
import { ScatterPlot } from './ScatterPlot';
import { SweepPlot } from './SweepPlot';
import { TradeoffPlot } from './TradeoffPlot';
import { isTradeoff } from '../../sim/experiments/tradeoff';
import './experiments.css';

function useExperiments<T>(selector: (s: ExperimentsState) => T): T {
  return useStore(experimentsStore, selector);
}

/** A plot's axis: the measure's short name, and its unit when that is not already a noun of the name. */
const axisLabel = (m: MeasureId) =>
  ['ms', '% of terms', '% of time'].includes(MEASURES[m].unit) ? `${MEASURES[m].short} (${MEASURES[m].unit})` : MEASURES[m].short;
const fullLabel = (m: MeasureId) => `${MEASURES[m].label} (${MEASURES[m].unit})`;

const REGION_SERIES = [
  { measure: 'client-us-east', name: 'A in us-east' },
  { measure: 'client-us-central', name: 'B in us-central' },
  { measure: 'client-us-west', name: 'C in us-west' },
];

const LOG2_N = { label: 'log2 N', at: (n: number) => Math.log2(n) };

const ExperimentForm = memo(function ExperimentForm() {
  const form = useExperiments((s) => s.form);
  const status = useExperiments((s) => s.status);
  const error = useExperiments((s) => s.error);
  const preset = findExperimentPreset(form.preset);
  const running = status === 'running';
  return (
    <form
      className="exp-form"
      aria-label="Experiment"
      onSubmit={(e) => {
        e.preventDefault();
        runExperimentFromForm();
      }}
    >
      <div className="exp-head">
        <h1>Experiments</h1>
        <button type="button" className="exp-back" onClick={() => setExperimentsOpen(false)}>
          ← Back to the run
        </button>
      </div>
      <label>
        Chapter experiment
        <select value={form.preset} onChange={(e) => choosePreset(e.target.value)}>
          {form.preset === '' && <option value="">(your own)</option>}
          {EXPERIMENT_PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      <p className="exp-claim">{preset ? preset.claim : TEMPLATES[form.template].blurb}</p>
      <label>
        Scenario
        <select value={form.template} onChange={(e) => editForm({ template: e.target.value as TemplateId })}>
          {TEMPLATE_IDS.map((id) => (
            <option key={id} value={id}>
              {TEMPLATES[id].title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Sweep (parameter=values)
        <input
          value={form.sweep}
          spellCheck={false}
          onChange={(e) => editForm({ sweep: e.target.value })}
          aria-describedby="exp-sweep-hint"
        />
      </label>
      <p id="exp-sweep-hint" className="exp-hint">
        {SWEEP_PARAMS.join(', ')}; ranges as A-B, e.g. timeout={SWEEP_DEFS.timeout.example}
      </p>
      <label>
        Second parameter (optional)
        <input
          value={form.sweep2}
          spellCheck={false}
          placeholder="e.g. pause=1000,2100,3000"
          onChange={(e) => editForm({ sweep2: e.target.value })}
          aria-describedby="exp-sweep2-hint"
        />
      </label>
      <p id="exp-sweep2-hint" className="exp-hint">
        every pair of values runs: a grid, at most {MAX_GRID_CELLS} cells
      </p>
      <label>
        Shared settings
        <input
          value={form.fixed}
          spellCheck={false}
          placeholder="e.g. heartbeat=100 nodes=7"
          onChange={(e) => editForm({ fixed: e.target.value })}
        />
      </label>
      <div className="exp-row">
        <label>
          Seeds per point
          <input value={form.seeds} inputMode="numeric" onChange={(e) => editForm({ seeds: e.target.value })} />
        </label>
        <label>
          First seed
          <input value={form.firstSeed} inputMode="numeric" onChange={(e) => editForm({ firstSeed: e.target.value })} />
        </label>
      </div>
      <div className="exp-row exp-buttons">
        <button type="submit" className="primary" disabled={running}>
          Run
        </button>
        <button type="button" disabled={!running} onClick={cancelExperiment}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="exp-error" role="alert" data-testid="experiment-error">
          {error}
        </p>
      )}
      <Progress />
    </form>
  );
});

const Progress = memo(function Progress() {
  const done = useExperiments((s) => s.results.length);
  const total = useExperiments((s) => s.total);
  const status = useExperiments((s) => s.status);
  const elapsed = useExperiments((s) => s.elapsedMs);
  if (status === 'idle') return null;
  const words = { running: 'running', done: 'done', cancelled: 'cancelled', failed: 'stopped', idle: '' }[status];
  return (
    <div className="exp-progress" data-testid="experiment-progress" data-status={status} data-done={done}>
      <progress max={total} value={done} aria-label="Runs finished" />
      <span>
        {done} of {total} runs, {words} · {poolSize() === 1 ? '1 worker' : `${poolSize()} workers`} · {(elapsed / 1000).toFixed(1)} s
      </span>
    </div>
  );
});

const SummaryTable = memo(function SummaryTable() {
  const spec = useExperiments((s) => s.spec);
  const points = useExperiments((s) => s.points);
  const results = useExperiments((s) => s.results);
  const measure = useExperiments((s) => s.measure);
  if (spec === null) return null;
  return (
    <table className="exp-table">
      <caption>{fullLabel(measure)}</caption>
      <thead>
        <tr>
          <th scope="col">{spec.sweep.param}</th>
          {spec.sweep2 && <th scope="col">{spec.sweep2.param}</th>}
          <th scope="col">median</th>
          <th scope="col">p5</th>
          <th scope="col">p95</th>
          <th scope="col">runs</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => {
          const s = summarize(results.filter((r) => r.point === p.index).map((r) => r.values[measure] ?? null));
          return (
            <tr key={p.index}>
              <th scope="row">{p.label}</th>
              {spec.sweep2 && <th scope="row">{p.label2}</th>}
              <td>{formatNumber(s.p50)}</td>
              <td>{formatNumber(s.p5)}</td>
              <td>{formatNumber(s.p95)}</td>
              <td>{s.missing > 0 ? `${s.n} (+${s.missing} none)` : s.n}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
});

function MeasureSelect({
  value,
  onChange,
  label,
  measures,
  short = false,
}: {
  value: MeasureId;
  onChange: (m: MeasureId) => void;
  label: string;
  measures: readonly MeasureId[];
  short?: boolean;
}) {
  return (
    <label className="exp-inline">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as MeasureId)}>
        {measures.map((m) => (
          <option key={m} value={m}>
            {short ? MEASURES[m].short : MEASURES[m].label}
          </option>
        ))}
      </select>
    </label>
  );
}

const Plots = memo(function Plots({ onOpen }: { onOpen: (link: string) => void }) {
  const spec = useExperiments((s) => s.spec);
  const points = useExperiments((s) => s.points);
  // Redrawing thousands of dots is a render React may interrupt: frames keep coming while results pour in.
  const results = useDeferredValue(useExperiments((s) => s.results));
  const measure = useExperiments((s) => s.measure);
  const scatterY = useExperiments((s) => s.scatterY);
  const distPoint = useExperiments((s) => s.distPoint);
  const distMode = useExperiments((s) => s.distMode);
  const mark = useExperiments((s) => s.mark);
  if (spec === null) {
    return (
      <div className="exp-empty">
        <p>
          Choose an experiment and press Run. Each run is one seed at one setting; the plots fill in as runs finish, and every dot opens its
          run.
        </p>
      </div>
    );
  }
  const measures = TEMPLATES[spec.template].measures;
  const point = points[Math.min(distPoint, points.length - 1)];
  const tradeoff = isTradeoff(spec.sweep, spec.sweep2, measures);
  // Gossip against cluster size: N from 8 to 1,000 on a log2 axis, beside the log2 N its spread should follow.
  // A client in each region: the regions' latencies side by side, in place of the scatter.
  const regions = spec.template === 'region-clients' && spec.sweep2 === undefined;
  const gossipSizes = spec.template === 'gossip-spread' && spec.sweep.param === 'nodes';
  const def = SWEEP_DEFS[spec.sweep.param];
  const base = `lockstep-experiment-${spec.template}-${spec.sweep.param}${spec.sweep2 ? `-${spec.sweep2.param}` : ''}`;
  const saveData = (kind: 'csv' | 'json') =>
    kind === 'csv'
      ? downloadText(`${base}.csv`, resultsCsv(spec, points, results), 'text/csv')
      : downloadText(`${base}.json`, resultsJson(spec, points, results), 'application/json');
  return (
    <div className="exp-results">
      <div className="exp-toolbar">
        <MeasureSelect label="Measure" value={measure} measures={measures} onChange={(m) => setPlot({ measure: m })} />
        <span className="exp-save-data">
          Data:
          <button type="button" onClick={() => saveData('csv')}>
            CSV
          </button>
          <button type="button" onClick={() => saveData('json')}>
            JSON
          </button>
        </span>
      </div>
      <div className="exp-grid">
        {/* The trade-off curve is the experiment's headline: first, in place of the sweep and the scatter (its per-run form). */}
        {tradeoff && <TradeoffPlot runs={results} points={points} fileName={`${base}-tradeoff`} onOpen={onOpen} />}
        {regions && (
          <SeriesPlot
            runs={results}
            points={points}
            series={REGION_SERIES}
            title="Commit latency by the client's region"
            axisLabel="Commit latency (ms)"
            paramLabel={spec.sweep.param === 'placement' ? 'Where the five nodes stand' : `${def.label} (${def.unit})`}
            tickText={spec.sweep.param === 'placement' ? (p) => `${p.label}: ${PLACEMENT_NAMES[p.value as number] ?? ''}` : undefined}
            fileName={`${base}-regions`}
            onOpen={onOpen}
          />
        )}
        <DistributionPlot
          runs={results.filter((r) => r.point === point.index)}
          measure={measure}
          axisLabel={axisLabel(measure)}
          integer={MEASURES[measure].integer}
          pointIndex={point.index}
          pointLabel={pointName(spec, point)}
          mode={distMode}
          mark={mark && mark.point === point.label ? { ...mark, point: `${spec.sweep.param}=${point.label}` } : null}
          fileName={`${base}-distribution`}
          onOpen={onOpen}
          controls={
            <span className="exp-plot-controls">
              <select aria-label="Setting shown" value={point.index} onChange={(e) => setPlot({ distPoint: Number(e.target.value) })}>
                {points.map((p) => (
                  <option key={p.index} value={p.index}>
                    {p.label2 === undefined ? p.label : pointName(spec, p)}
                  </option>
                ))}
              </select>
              <select
                aria-label="Histogram or CDF"
                value={distMode}
                onChange={(e) => setPlot({ distMode: e.target.value as 'histogram' | 'cdf' })}
              >
                <option value="histogram">Histogram</option>
                <option value="cdf">CDF</option>
              </select>
            </span>
          }
        />
        {tradeoff ? null : spec.sweep2 ? (
          <GridPlot
            spec={spec}
            runs={results}
            points={points}
            measure={measure}
            measureLabel={MEASURES[measure].short.toLowerCase()}
            selected={point.index}
            fileName={`${base}-grid`}
            onSelect={(i) => setPlot({ distPoint: i })}
            onOpen={onOpen}
          />
        ) : (
          <SweepPlot
            runs={results}
            points={points}
            measure={measure}
            axisLabel={axisLabel(measure)}
            integer={MEASURES[measure].integer}
            paramLabel={gossipSizes ? 'Cluster size (nodes, log scale)' : `${def.label} (${def.unit})`}
            fileName={`${base}-sweep`}
            onOpen={onOpen}
            logX={gossipSizes}
            reference={gossipSizes ? LOG2_N : undefined}
          />
        )}
        {/* In a grid the scatter's colour per point would repeat over the cells: the grid and the distribution carry it. */}
        {!spec.sweep2 && !tradeoff && !regions && (
          <ScatterPlot
            runs={results}
            points={points}
            xMeasure={measure}
            yMeasure={scatterY}
            xLabel={axisLabel(measure)}
            yLabel={axisLabel(scatterY)}
            xInteger={MEASURES[measure].integer}
            yInteger={MEASURES[scatterY].integer}
            param={spec.sweep.param}
            fileName={`${base}-scatter`}
            onOpen={onOpen}
            controls={
              <MeasureSelect short label="against" value={scatterY} measures={measures} onChange={(m) => setPlot({ scatterY: m })} />
            }
          />
        )}
        <SummaryTable />
      </div>
    </div>
  );
});

export function ExperimentsView() {
  const bridge = useBridge();
  const onOpen = useCallback(
    (link: string) => {
      const run = runFromQuery(link);
      if (run === null || typeof run === 'string') return;
      bridge.load(run.config, run.schedule, { startAtMs: run.startAtMs, stopAtMs: run.stopAtMs, playing: false, label: run.label });
      setExperimentsOpen(false);
    },
    [bridge],
  );
  return (
    <main className="experiments" data-testid="experiments" aria-label="Experiments">
      <ExperimentForm />
      <Plots onOpen={onOpen} />
      <CompareTable onOpen={onOpen} />
    </main>
  );
}
