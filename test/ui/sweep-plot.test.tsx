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
