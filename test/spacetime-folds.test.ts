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
    const s: FoldedScale = { t0: 950, t1: 13600, top: 10, height: 500, folds: quietFolds([1000, 1074, 13000, 13513], 950, 13600, 200), foldPx: 30 };
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
