/** Two swept parameters: a grid of every pair, row by row, and a one-parameter sweep exactly as before. */
import { describe, expect, it } from 'vitest';
import { experimentReport, resolveExperiment } from '../src/cli/experimentCli';
import { resultsCsv, resultsJson } from '../src/share/experimentFiles';
import { planExperiment, pointName, runExperiment, type ExperimentSpec } from '../src/sim/experiments/experiment';
import { findExperimentPreset } from '../src/sim/experiments/presets';
import { MAX_GRID_CELLS, parseSweep, type Sweep } from '../src/sim/experiments/sweep';

const sweep = (text: string): Sweep => {
  const s = parseSweep(text);
  if (typeof s === 'string') throw new Error(s);
  return s;
};

const grid: ExperimentSpec = {
  template: 'lease-pause',
  sweep: sweep('lease=1000,2000'),
  sweep2: sweep('pause=1500,2500,3000'),
  seeds: 2,
  firstSeed: 1,
};

describe('a grid of two sweep parameters', () => {
  it('plans every pair, rows the first parameter and columns the second, each cell with both settings applied', () => {
    const points = planExperiment(grid);
    if (typeof points === 'string') throw new Error(points);
    expect(points.map((p) => pointName(grid, p))).toEqual([
      'lease=1000 pause=1500',
      'lease=1000 pause=2500',
      'lease=1000 pause=3000',
      'lease=2000 pause=1500',
      'lease=2000 pause=2500',
      'lease=2000 pause=3000',
    ]);
    expect(points.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(points.map((p) => [p.params.leaseMs, p.params.pauseMs])).toEqual([
      [1000, 1500],
      [1000, 2500],
      [1000, 3000],
      [2000, 1500],
      [2000, 2500],
      [2000, 3000],
    ]);
  });

  it('each cell is the one-parameter measurement at that setting: same runs, same values, same links', () => {
    const points = planExperiment(grid);
    if (typeof points === 'string') throw new Error(points);
    const cells = runExperiment(grid, points);
    // The cell lease=2000 pause=2500 against a one-parameter pause sweep with lease=2000 fixed.
    const single: ExperimentSpec = { template: 'lease-pause', sweep: sweep('pause=2500'), seeds: 2, firstSeed: 1, base: { leaseMs: 2000 } };
    const singlePoints = planExperiment(single);
    if (typeof singlePoints === 'string') throw new Error(singlePoints);
    const alone = runExperiment(single, singlePoints);
    const cell = cells.filter((r) => r.point === 4);
    expect(cell.map((r) => r.values)).toEqual(alone.map((r) => r.values));
    expect(cell.map((r) => r.run)).toEqual(alone.map((r) => r.run));
    // Where the pause outlasts the lease, the unfenced store takes a stale write.
    const stale = points.map((p) => cells.filter((r) => r.point === p.index).every((r) => r.values['stale-unfenced'] === 1));
    expect(stale).toEqual([true, true, true, false, true, true]);
  });

  it('the CSV carries both parameters as columns and the JSON names the second sweep', () => {
    const points = planExperiment(grid);
    if (typeof points === 'string') throw new Error(points);
    const results = runExperiment(grid, points);
    const rows = resultsCsv(grid, points, results).trim().split('\n');
    expect(rows[0]).toBe(
      'template,parameter,value,parameter 2,value 2,seed,stale-unfenced (writes),stale-fenced (writes),fenced-rejections (writes),link',
    );
    expect(rows).toHaveLength(1 + 12);
    expect(rows[1]).toMatch(/^lease-pause,lease,1000,pause,1500,1,1,0,1,v=1&/);
    expect(rows[12]).toMatch(/^lease-pause,lease,2000,pause,3000,2,/);
    const json = JSON.parse(resultsJson(grid, points, results)) as {
      sweep: string;
      sweep2: string;
      points: { label: string; label2: string }[];
    };
    expect(json.sweep).toBe('lease=1000,2000');
    expect(json.sweep2).toBe('pause=1500,2500,3000');
    expect(json.points.map((p) => `${p.label}/${p.label2}`)).toEqual([
      '1000/1500',
      '1000/2500',
      '1000/3000',
      '2000/1500',
      '2000/2500',
      '2000/3000',
    ]);
  });

  it('a one-parameter sweep keeps its CSV header and JSON keys exactly (no second-parameter columns or keys)', () => {
    const one: ExperimentSpec = { template: 'lease-pause', sweep: sweep('pause=1500,2500'), seeds: 1, firstSeed: 1 };
    const points = planExperiment(one);
    if (typeof points === 'string') throw new Error(points);
    expect(points.every((p) => p.label2 === undefined && p.value2 === undefined)).toBe(true);
    const results = runExperiment(one, points);
    expect(resultsCsv(one, points, results).split('\n')[0]).toBe(
      'template,parameter,value,seed,stale-unfenced (writes),stale-fenced (writes),fenced-rejections (writes),link',
    );
    const json = JSON.parse(resultsJson(one, points, results)) as Record<string, unknown> & { points: object[] };
    expect(Object.keys(json)).toEqual([
      'format',
      'version',
      'template',
      'sweep',
      'seeds',
      'firstSeed',
      'base',
      'measures',
      'points',
      'runs',
    ]);
    expect(Object.keys(json.points[0])).toEqual(['label', 'value', 'measures']);
  });

  it('refuses the same parameter twice, timeout against spread, and more than MAX_GRID_CELLS cells, one sentence each', () => {
    expect(planExperiment({ ...grid, sweep2: sweep('lease=500') })).toBe(
      'The second sweep parameter must differ from the first; both are lease, so put all its values in one sweep.',
    );
    expect(planExperiment({ ...grid, template: 'crash-leader', sweep: sweep('timeout=100-200'), sweep2: sweep('spread=0,10') })).toMatch(
      /^timeout and spread both set the election timeout/,
    );
    expect(MAX_GRID_CELLS).toBe(48);
    expect(planExperiment({ ...grid, sweep: sweep('lease=1,2,3,4,5,6,7'), sweep2: sweep('pause=1,2,3,4,5,6,7') })).toBe(
      'lease × pause makes 7 × 7 = 49 cells; at most 48 are allowed (MAX_GRID_CELLS), so drop some values.',
    );
    expect(
      planExperiment({ ...grid, template: 'crash-leader', sweep: sweep('timeout=100-200'), sweep2: sweep('heartbeat=10,150') }),
    ).toMatch(/^At timeout=100-200 heartbeat=150 the run cannot be made: /);
  });

  it('the lease-margin preset is a lease × pause grid whose stale writes start where the pause passes the lease', () => {
    const preset = findExperimentPreset('lease-margin');
    if (preset === null) throw new Error('no preset');
    const spec = { ...preset.spec, seeds: 1 };
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const results = runExperiment(spec, points);
    for (const p of points) {
      const stale = results.find((r) => r.point === p.index)?.values['stale-unfenced'];
      expect(stale, pointName(spec, p)).toBe(p.params.pauseMs > p.params.leaseMs ? 1 : 0);
    }
  });
});

describe('npm run experiment with --sweep2', () => {
  it('prints a grid of medians, rows the first parameter, columns the second', () => {
    const resolved = resolveExperiment([
      '--template',
      'lease-pause',
      '--sweep',
      'lease=1000,2000',
      '--sweep2',
      'pause=1500,2500',
      '--seeds',
      '2',
    ]);
    if (resolved === 'help') throw new Error('help');
    const report = experimentReport(resolved, runExperiment(resolved.spec, resolved.points), null);
    expect(report).toContain('lease=1000,2000 × pause=1500,2500, 2 seeds per point from seed 1: 8 runs');
    expect(report).toContain(
      [
        'Stale writes accepted, unfenced store (writes), median per cell:',
        '  lease \\ pause  1500  2500',
        '  1000              1     1',
        '  2000              0     1',
      ].join('\n'),
    );
  });

  it('answers a bad --sweep2 with one sentence, and counts seeds over every cell', () => {
    const problem = (argv: string[]) => {
      try {
        resolveExperiment(argv);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const base = ['--template', 'lease-pause', '--sweep', 'lease=1000,2000'];
    expect(problem([...base, '--sweep2', 'colour=1'])).toMatch(/^--sweep2: Unknown sweep parameter "colour"; the parameters are/);
    expect(problem([...base, '--sweep2', 'lease=3000'])).toMatch(/^--sweep2: The second sweep parameter must differ from the first/);
    expect(problem([...base, '--sweep2', 'pause=1,2,3,4,5,6,7,8,9,10,11,12', '--seeds', '1000'])).toBe(
      '1000 seeds at 24 points make 24000 runs; at most 20000 are allowed.',
    );
  });
});

describe('latencies below a millisecond in a sweep (issue 28)', () => {
  it('a latency range takes up to 3 decimals (one sentence past that); timeouts stay whole', () => {
    const s = parseSweep('latency=0.2-0.3,1-2');
    expect(s).toEqual({
      param: 'latency',
      values: [
        [0.2, 0.3],
        [1, 2],
      ],
    });
    expect(parseSweep('latency=0.2345-1')).toMatch(
      /^Each latency value must be a range A-B in ms \(up to 3 decimals\), like 0\.2-0\.3,5-15,60-80, not "0\.2345-1"\.$/,
    );
    expect(parseSweep('timeout=150.5-300')).toMatch(/range A-B in whole ms/);
  });
});
