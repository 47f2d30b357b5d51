import { describe, expect, it } from 'vitest';
import { FOLD_MARGIN_MS, foldLabel, foldedT, foldedY, quietFolds, type FoldedScale } from '../src/ui/spacetime/folds';

describe('folding quiet time', () => {
  it('folds only the stretches longer than the threshold, keeping a margin round each burst', () => {
    const folds = quietFolds([1000, 1060, 1074, 13000, 13045, 13513], 950, 13600, 500);
    expect(folds).toEqual([{ from: 1074 + FOLD_MARGIN_MS, to: 13000 - FOLD_MARGIN_MS }]);
    expect(quietFolds([100, 150], 0, 200, 500)).toEqual([]);
  });

  it('folds the window edges when nothing happens there', () => {
    expect(quietFolds([5000], 0, 10000, 1000)).toEqual([
      { from: 0, to: 5000 - FOLD_MARGIN_MS },
      { from: 5000 + FOLD_MARGIN_MS, to: 10000 },
    ]);
  });

  it('maps time to y monotonically, to scale outside folds, and back', () => {
    const s: FoldedScale = {
      t0: 950,
      t1: 13600,
      top: 10,
      height: 500,
      folds: quietFolds([1000, 1074, 13000, 13513], 950, 13600, 200),
      foldPx: 30,
    };
    expect(foldedY(s, 950)).toBeCloseTo(10);
    expect(foldedY(s, 13600)).toBeCloseTo(510);
    let last = -Infinity;
    for (let t = 950; t <= 13600; t += 7) {
      const y = foldedY(s, t);
      expect(y).toBeGreaterThanOrEqual(last);
      last = y;
      expect(foldedT(s, y)).toBeCloseTo(t, 6);
    }
    // The two bursts are drawn at the same ms-to-px ratio.
    const k1 = (foldedY(s, 1074) - foldedY(s, 1000)) / 74;
    const k2 = (foldedY(s, 13513) - foldedY(s, 13503)) / 10;
    expect(k1).toBeCloseTo(k2, 6);
    expect(k1).toBeGreaterThan(0.5);
  });

  it('labels a fold with its real length', () => {
    expect(foldLabel({ from: 1000, to: 10900 })).toBe('9.9 s');
    expect(foldLabel({ from: 0, to: 640 })).toBe('640 ms');
  });
});

import { findPreset, presetActions } from '../src/sim/run/presets';
import { Simulation } from '../src/sim/run/simulation';
import { TraceRecorder, traceView } from '../src/sim/view/traceRecorder';
import { laneLayout } from '../src/ui/spacetime/lanes';
import { buildScene } from '../src/ui/spacetime/scene';
import { tOf, yOf } from '../src/ui/spacetime/geometry';

describe('the fencing figure with quiet time folded', () => {
  const preset = findPreset('fencing');
  if (!preset?.figure) throw new Error('the fencing preset has no figure');
  const figure = preset.figure;
  const sim = new Simulation(preset.config, presetActions(preset));
  const recorder = TraceRecorder.attach(sim);
  sim.advanceTo(15000);
  const trace = traceView(recorder, 1);
  const layout = laneLayout(trace.actorIds, trace.actors, 850, figure.lanes);
  const opts = { window: [figure.fromMs, figure.toMs] as const, top: 40, height: 500, heartbeats: 'fold' as const };

  it('gives each burst readable height where the scale squeezes it to a few pixels', () => {
    const flat = buildScene(trace, layout, opts);
    const folded = buildScene(trace, layout, { ...opts, compress: true });
    expect(flat.folds).toEqual([]);
    expect(folded.folds.length).toBeGreaterThanOrEqual(3);
    // A's grant, write and acceptance (1000–1074 ms): a few px to scale, tens of px folded.
    const span = (s: typeof flat) => yOf(s.scale, 1074) - yOf(s.scale, 1000);
    expect(span(flat)).toBeLessThan(5);
    expect(span(folded)).toBeGreaterThan(30);
    // The quiet 8.5 s of A's pause is one break that says how long it was.
    const pause = folded.folds.find((f) => f.to - f.from > 8000);
    expect(pause?.label).toBe(`${(pause?.to ?? 0) - (pause?.from ?? 0) >= 8450 ? '8.5' : '8.4'} s`);
  });

  it('keeps the story in order: the refused token-1 write lands below the accepted token-2 write', () => {
    const folded = buildScene(trace, layout, { ...opts, compress: true });
    const refused = folded.storeMarks.find((m) => m.store === 'fenced' && !m.accepted);
    const accepted2 = folded.storeMarks.find((m) => m.store === 'fenced' && m.accepted && m.token === 2);
    expect(refused?.token).toBe(1);
    expect(refused && accepted2 && refused.y - accepted2.y).toBeGreaterThan(15);
    // A click maps back to the time drawn there.
    if (refused) expect(tOf(folded.scale, refused.y)).toBeCloseTo(refused.t, 6);
  });
});
