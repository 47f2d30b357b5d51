// @vitest-environment jsdom
/**
 * The sweep plot's x axis (issue 25, Low): a sweep of plain numbers is drawn to scale, its medians
 * joined; a sweep of ranges is a set of categories, evenly spaced, each its own band, with no line
 * joining them.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SweepPlot } from '../../src/ui/experiments/SweepPlot';
import type { PlannedPoint, RunResult } from '../../src/sim/experiments/experiment';
import { BASE_PARAMS } from '../../src/sim/experiments/templates';
import { findPreset } from '../../src/sim/run/presets';

const pointsOf = (values: PlannedPoint['value'][]): PlannedPoint[] =>
  values.map((value, index) => ({
    index,
    value,
    label: typeof value === 'number' ? String(value) : `${value[0]}-${value[1]}`,
    params: BASE_PARAMS,
  }));

const chapter = findPreset('chapter')!;
const runsOf = (points: PlannedPoint[]): RunResult[] =>
  points.flatMap((p) =>
    [1, 2, 3].map((seed) => ({
      point: p.index,
      seed,
      run: { config: { ...chapter.config, seed }, schedule: [], atMs: 100 },
      values: { m: 10 * (p.index + 1) + seed },
    })),
  );

function marks(points: PlannedPoint[]) {
  const { container } = render(
    <SweepPlot
      runs={runsOf(points)}
      points={points}
      measure="m"
      axisLabel="m"
      integer={false}
      paramLabel="p"
      fileName="f"
      onOpen={() => {}}
    />,
  );
  const xs = [...container.querySelectorAll('.sweep-median-mark')].map((r) => Number(r.getAttribute('x')) + 6);
  return { xs, line: container.querySelector('.sweep-median'), bands: container.querySelectorAll('.sweep-band').length };
}

describe('the sweep plot’s x axis', () => {
  it('draws numbers to scale: 50, 100 and 400 ms are not evenly spaced, and the medians are joined', () => {
    const { xs, line } = marks(pointsOf([50, 100, 400]));
    expect(xs).toHaveLength(3);
    expect((xs[2] - xs[1]) / (xs[1] - xs[0])).toBeCloseTo(6, 5);
    expect(line).not.toBeNull();
  });

  it('draws ranges as categories: evenly spaced, a band each, no line between them', () => {
    const { xs, line, bands } = marks(
      pointsOf([
        [150, 300],
        [300, 600],
        [600, 1200],
      ]),
    );
    expect(xs[2] - xs[1]).toBeCloseTo(xs[1] - xs[0], 5);
    expect(line).toBeNull();
    expect(bands).toBe(3);
  });
});

describe('the sweep plot for gossip against cluster size (issue 28)', () => {
  const points = pointsOf([8, 16, 64, 1000]);
  const big = (n: number): RunResult[] =>
    [1, 2].map((seed) => ({
      point: points.findIndex((p) => p.value === n),
      seed,
      run: { config: { ...chapter.config, seed, nodeIds: Array.from({ length: n }, (_, i) => `n${i + 1}`) }, schedule: [], atMs: 100 },
      values: { m: Math.log2(n) / 2 },
    }));
  const render2 = () =>
    render(
      <SweepPlot
        runs={[8, 16, 64, 1000].flatMap(big)}
        points={points}
        measure="m"
        axisLabel="m"
        integer={false}
        paramLabel="p"
        fileName="f"
        onOpen={() => {}}
        logX
        reference={{ label: 'log2 N', at: (n) => Math.log2(n) }}
      />,
    ).container;

  it('puts N on a log2 axis (each doubling the same width) with a dashed log2 N line', () => {
    const c = render2();
    const xs = [...c.querySelectorAll('.sweep-median-mark')].map((r) => Number(r.getAttribute('x')) + 6);
    expect((xs[1] - xs[0]) * 2).toBeCloseTo(xs[2] - xs[1], 5);
    expect(c.querySelector('[data-reference="log2 N"] path')?.getAttribute('stroke-dasharray')).toBe('6 4');
  });

  it('a run past 9 nodes is a mark without a link whose tooltip says why; an 8-node run opens', () => {
    const c = render2();
    expect(c.querySelectorAll('[data-run-link]')).toHaveLength(2);
    const closed = [...c.querySelectorAll('[data-run-closed] title')].map((t) => t.textContent);
    expect(closed).toHaveLength(6);
    expect(closed[0]).toBe(
      '16, seed 1: 2 — a run of 16 nodes cannot open on the diagram, which draws at most 9; its numbers are here and in the CSV.',
    );
  });

  it('spreads each run’s dot within its share of the step, on both sides (jitter in [-1, 1])', async () => {
    const { jitter } = await import('../../src/ui/experiments/plotKit');
    const js = Array.from({ length: 400 }, (_, i) => jitter(i, i % 7));
    expect(Math.min(...js)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...js)).toBeLessThanOrEqual(1);
    expect(Math.min(...js)).toBeLessThan(-0.8);
    expect(Math.max(...js)).toBeGreaterThan(0.8);
  });
});
