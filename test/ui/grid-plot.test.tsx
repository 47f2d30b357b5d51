// @vitest-environment jsdom
/**
 * The grid of two swept parameters (issue 25, "for planning a class"): one cell per pair, rows the
 * first parameter and columns the second, each coloured by its median with the median printed, a
 * legend saying what the colour means, and a click (or Enter) choosing the cell whose runs to show.
 */
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { planExperiment, type ExperimentSpec, type PlannedPoint, type RunResult } from '../../src/sim/experiments/experiment';
import { parseSweep, type Sweep } from '../../src/sim/experiments/sweep';
import { findPreset } from '../../src/sim/run/presets';
import { GridPlot } from '../../src/ui/experiments/GridPlot';
import { specFromForm } from '../../src/ui/experiments/experimentsStore';

const sweep = (text: string): Sweep => {
  const s = parseSweep(text);
  if (typeof s === 'string') throw new Error(s);
  return s;
};
const spec: ExperimentSpec = {
  template: 'lease-pause',
  sweep: sweep('lease=1000,2000'),
  sweep2: sweep('pause=500,1500,3000'),
  seeds: 3,
  firstSeed: 1,
};
const points = planExperiment(spec) as PlannedPoint[];
const chapter = findPreset('chapter')!;
// The median of each cell is 10 × (its index + 1) + 2: 12, 22, ... 62.
const runs: RunResult[] = points.flatMap((p) =>
  [1, 2, 3].map((seed) => ({
    point: p.index,
    seed,
    run: { config: { ...chapter.config, seed }, schedule: [], atMs: 100 },
    values: { m: 10 * (p.index + 1) + seed },
  })),
);

function draw(selected = 0, onSelect: (i: number) => void = () => {}) {
  return render(
    <GridPlot
      spec={spec}
      runs={runs}
      points={points}
      measure="m"
      measureLabel="stale writes"
      selected={selected}
      fileName="f"
      onSelect={onSelect}
      onOpen={() => {}}
    />,
  ).container;
}

describe('the grid plot', () => {
  it('draws a cell per pair, row by row, each with its median printed in text of 12 px or more', () => {
    const cells = [...draw().querySelectorAll('.grid-cell')];
    expect(cells.map((c) => c.getAttribute('data-cell'))).toEqual([
      'lease=1000 pause=500',
      'lease=1000 pause=1500',
      'lease=1000 pause=3000',
      'lease=2000 pause=500',
      'lease=2000 pause=1500',
      'lease=2000 pause=3000',
    ]);
    expect(cells.map((c) => c.querySelector('text')?.textContent)).toEqual(['12', '22', '32', '42', '52', '62']);
    for (const c of cells) expect(Number(c.querySelector('text')?.getAttribute('font-size'))).toBeGreaterThanOrEqual(12);
    // The rows sit one above the other, the columns side by side.
    const at = (k: number) => cells[k].querySelector('rect')!;
    expect(Number(at(3).getAttribute('y'))).toBeGreaterThan(Number(at(0).getAttribute('y')));
    expect(Number(at(1).getAttribute('x'))).toBeGreaterThan(Number(at(0).getAttribute('x')));
    expect(at(1).getAttribute('y')).toBe(at(0).getAttribute('y'));
  });

  it('colours low and high medians apart, with readable text on each, and a legend naming the measure and its ends', () => {
    const root = draw();
    const cells = [...root.querySelectorAll('.grid-cell')];
    const fill = (k: number) => cells[k].querySelector('rect')!.getAttribute('fill');
    expect(new Set(cells.map((_, k) => fill(k))).size).toBe(6);
    // Viridis: the lowest cell is dark (white text), the highest light (ink).
    expect(cells[0].querySelector('text')!.getAttribute('fill')).toBe('#ffffff');
    expect(cells[5].querySelector('text')!.getAttribute('fill')).not.toBe('#ffffff');
    expect(root.textContent).toContain('Colour: median stale writes');
    const legend = root.querySelector('[data-testid="grid-legend"]')!;
    expect(legend.textContent).toContain('low 12');
    expect(legend.textContent).toContain('high 62');
  });

  it('a click or Enter on a cell chooses it; the chosen cell is outlined', () => {
    const chosen: number[] = [];
    const root = draw(4, (i) => chosen.push(i));
    const cells = [...root.querySelectorAll('.grid-cell')];
    fireEvent.click(cells[2]);
    fireEvent.keyDown(cells[5], { key: 'Enter' });
    expect(chosen).toEqual([2, 5]);
    expect(cells[4].getAttribute('aria-pressed')).toBe('true');
    expect(cells[4].querySelector('rect')!.getAttribute('stroke-width')).toBe('3');
    expect(cells[0].getAttribute('aria-pressed')).toBe('false');
  });

  it('column values too wide for their cells alternate between two lines, and stay inside the plot', () => {
    const wide: ExperimentSpec = {
      ...spec,
      template: 'crash-leader',
      sweep: sweep('nodes=3,5'),
      sweep2: sweep('timeout=100-200,150-300,300-600,1000-2000'),
    };
    const widePoints = planExperiment(wide) as PlannedPoint[];
    const { container } = render(
      <GridPlot
        spec={wide}
        runs={[]}
        points={widePoints}
        measure="m"
        measureLabel="m"
        selected={0}
        fileName="g"
        onSelect={() => {}}
        onOpen={() => {}}
      />,
    );
    const labels = [...container.querySelectorAll('.grid-column-label')];
    expect(labels.map((l) => l.textContent)).toEqual(['100-200', '150-300', '300-600', '1000-2000']);
    const ys = labels.map((l) => Number(l.getAttribute('y')));
    expect(ys[1]).toBeGreaterThan(ys[0]);
    expect(ys[2]).toBe(ys[0]);
    const width = Number(container.querySelector('svg')!.getAttribute('width'));
    expect(Number(labels[3].getAttribute('x'))).toBeLessThanOrEqual(width - 2 - (9 * 15 * 0.6) / 2);
    // No run yet: every cell says so rather than showing a number.
    expect([...container.querySelectorAll('.grid-cell text')].every((t) => t.textContent === '…')).toBe(true);
  });

  it('the form takes an optional second parameter; a bad one gets one sentence, and seeds count every cell', () => {
    const form = {
      preset: '',
      template: 'lease-pause' as const,
      sweep: 'lease=1000,2000',
      sweep2: '',
      fixed: '',
      seeds: '2',
      firstSeed: '1',
    };
    const one = specFromForm(form);
    if (typeof one === 'string') throw new Error(one);
    expect(one.spec.sweep2).toBeUndefined();
    expect(one.points).toHaveLength(2);
    const two = specFromForm({ ...form, sweep2: 'pause=500,3000' });
    if (typeof two === 'string') throw new Error(two);
    expect(two.points).toHaveLength(4);
    expect(specFromForm({ ...form, sweep2: 'lease=5' })).toMatch(/^The second sweep parameter must differ from the first/);
    expect(specFromForm({ ...form, sweep2: 'colour=1' })).toMatch(/^Second parameter: Unknown sweep parameter "colour"/);
    expect(specFromForm({ ...form, sweep2: 'pause=1,2,3,4,5,6,7,8,9,10,11,12', seeds: '1000' })).toBe(
      '1000 seeds at 24 points make 24000 runs; at most 20000 are allowed.',
    );
  });
});
