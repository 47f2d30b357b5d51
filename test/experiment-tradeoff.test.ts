/**
 * Issue 28's trade-off curve: a `detector` sweep holds fixed timeouts and phi-accrual's Φ side by
 * side; each setting becomes one mark at (median failover, mean false elections an hour), one
 * series per detector; the CLI prints the table the page plots.
 */
import { describe, expect, it } from 'vitest';
import { experimentReport, resolveExperiment } from '../src/cli/experimentCli';
import { planExperiment, runExperiment, type ExperimentSpec, type PlannedPoint, type RunResult } from '../src/sim/experiments/experiment';
import { findExperimentPreset } from '../src/sim/experiments/presets';
import { formatSweep, gridProblem, parseFixed, parseSweep, type Sweep } from '../src/sim/experiments/sweep';
import { BASE_PARAMS } from '../src/sim/experiments/templates';
import { isTradeoff, tradeoffSeries } from '../src/sim/experiments/tradeoff';

const sweep = (text: string): Sweep => {
  const s = parseSweep(text);
  if (typeof s === 'string') throw new Error(s);
  return s;
};

describe('the detector sweep parameter', () => {
  it('reads fixed:A-B as a timeout range and phi:N as Φ, writes them back as typed, and sets the run’s detector', () => {
    const s = sweep('detector=fixed:30-60,phi:4');
    expect(s.values).toEqual([[30, 60], 4]);
    expect(formatSweep(s)).toBe('detector=fixed:30-60,phi:4');
    const points = planExperiment({ template: 'false-suspicion', sweep: s, seeds: 1, firstSeed: 1, base: { heartbeatMs: 20 } });
    if (typeof points === 'string') throw new Error(points);
    expect(points.map((p) => p.label)).toEqual(['fixed:30-60', 'phi:4']);
    expect(points[0].params).toMatchObject({ timeoutMs: [30, 60], phi: 0 });
    expect(points[1].params).toMatchObject({ timeoutMs: BASE_PARAMS.timeoutMs, phi: 4 });
  });

  it('answers a bad value, a clash with timeout or phi, and detector= in the shared settings with one sentence each', () => {
    expect(parseSweep('detector=fixed:60-30')).toBe(
      'Each detector value must be fixed:A-B (a timeout range in whole ms, 1 to 60000) or phi:N (Φ, a whole number from 1 to 30), like fixed:75-150,fixed:150-300,phi:2,phi:8, not "fixed:60-30".',
    );
    expect(parseSweep('detector=phi:0')).toMatch(/^Each detector value must be fixed:A-B .* not "phi:0"\.$/);
    expect(parseSweep('detector=4')).toMatch(/not "4"\.$/);
    expect(gridProblem(sweep('detector=phi:4'), sweep('timeout=100-200'))).toBe(
      'detector and timeout both set the election timeout, so they cannot be swept against each other; sweep one of them.',
    );
    expect(gridProblem(sweep('detector=phi:4'), sweep('phi=1,2'))).toBe(
      'detector and phi both set the failure detector, so they cannot be swept against each other; sweep one of them.',
    );
    expect(parseFixed('detector=phi:4', BASE_PARAMS)).toBe(
      'In the shared settings, give a fixed timeout as timeout=150-300 or phi-accrual as phi=4; detector= is for a sweep.',
    );
  });
});

describe('tradeoffSeries (the curve’s rule: median failover across, mean false elections up, one series per detector)', () => {
  const points: PlannedPoint[] = sweep('detector=fixed:150-300,fixed:50-100,phi:8').values.map((value, index) => ({
    index,
    value,
    label: ['fixed:150-300', 'fixed:50-100', 'phi:8'][index],
    params: BASE_PARAMS,
  }));
  const result = (point: number, seed: number, failover: number | null, falseElections: number | null): RunResult => ({
    point,
    seed,
    run: { config: {} as never, schedule: [], atMs: 0 },
    values: { failover, 'false-elections': falseElections },
  });
  const results = [
    result(0, 1, 200, 0),
    result(0, 2, 180, 0),
    result(0, 3, 260, 60),
    result(1, 1, 90, 1000),
    result(1, 2, 100, 3000),
    // A run without a failover (no leader by the end) is left out of its mark, not counted as 0.
    result(1, 3, null, 50_000),
    result(2, 1, 110, 120),
  ];

  it('orders each series eager to patient, takes the median failover and the mean false elections, and opens the run nearest the median', () => {
    const series = tradeoffSeries(points, results);
    expect(series.map((s) => s.name)).toEqual(['fixed timeout', 'phi-accrual']);
    const fixed = series[0].marks;
    expect(fixed.map((m) => m.label)).toEqual(['fixed:50-100', 'fixed:150-300']);
    expect(fixed[0]).toMatchObject({ detectionMs: 95, falsePerHour: 2000, n: 2 });
    // Median 200 of 180, 200, 260: seed 1's run is the one a click opens.
    expect(fixed[1]).toMatchObject({ detectionMs: 200, falsePerHour: 20, n: 3 });
    expect(fixed[1].run.seed).toBe(1);
    expect(series[1].marks.map((m) => [m.label, m.detectionMs, m.falsePerHour])).toEqual([['phi:8', 110, 120]]);
  });

  it('is drawn only for a one-parameter detector sweep of a template measuring both', () => {
    const measures = ['false-elections', 'failover', 'elections'];
    expect(isTradeoff(sweep('detector=phi:4'), undefined, measures)).toBe(true);
    expect(isTradeoff(sweep('phi=1,4'), undefined, measures)).toBe(false);
    expect(isTradeoff(sweep('detector=phi:4'), sweep('slow=1,3'), measures)).toBe(false);
    expect(isTradeoff(sweep('detector=phi:4'), undefined, ['failover'])).toBe(false);
  });
});

describe('the experiment preset detection-tradeoff', () => {
  it('a shorter fixed timeout detects sooner and elects falsely more; phi-accrual’s false elections fall as Φ grows; the CLI prints the curve', () => {
    const preset = findExperimentPreset('detection-tradeoff');
    if (preset === null) throw new Error('no preset detection-tradeoff');
    const spec: ExperimentSpec = { ...preset.spec, seeds: 4 };
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const results = runExperiment(spec, points);
    const [fixed, phi] = tradeoffSeries(points, results);
    const at = (label: string) => [...fixed.marks, ...phi.marks].find((m) => m.label === label);
    expect(at('fixed:30-60')?.falsePerHour).toBeGreaterThan(10_000);
    expect(at('fixed:150-300')?.falsePerHour).toBe(0);
    expect(at('fixed:300-600')?.falsePerHour).toBe(0);
    expect(at('fixed:300-600')?.detectionMs).toBeGreaterThan(2 * (at('fixed:100-200')?.detectionMs ?? Infinity));
    expect(at('phi:1')?.falsePerHour).toBeGreaterThan(3 * (at('phi:12')?.falsePerHour ?? Infinity));
    // Phi-accrual's detectors run in the configuration; the fixed points have none (the chapter's timer).
    expect(results.find((r) => points[r.point].label === 'phi:4')?.run.config.detector).toEqual({ kind: 'phi-accrual', threshold: 4 });
    expect(results.find((r) => points[r.point].label === 'fixed:75-150')?.run.config.detector).toBeUndefined();

    const resolved = resolveExperiment(['--preset', 'detection-tradeoff', '--seeds', '4']);
    if (resolved === 'help') throw new Error('help');
    const report = experimentReport(resolved, results, null);
    expect(report).toContain(
      "Trade-off (the page's curve): detection time, the median failover, against false elections per hour, the mean:",
    );
    expect(report).toMatch(
      /\n {2}fixed timeout:\n {4}fixed:30-60 {4}detection +\d+(\.\d)? ms {2}false elections +\d+ an hour {2}\(n=4\)\n/,
    );
    expect(report).toMatch(/\n {2}phi-accrual:\n {4}phi:1 {3}detection/);
  });
});
