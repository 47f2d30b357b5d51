import { describe, expect, it } from 'vitest';
import {
  arrowHead,
  clampWindow,
  followWindow,
  MIN_WINDOW_MS,
  nearestSegment,
  panWindow,
  tOf,
  yOf,
  zoomWindow,
} from '../src/ui/spacetime/geometry';
import { laneLayout } from '../src/ui/spacetime/lanes';
import { buildScene } from '../src/ui/spacetime/scene';
import { traceView } from './helpers/traceFixture';

describe('space-time geometry', () => {
  it('maps time to y and back', () => {
    const s = { t0: 100, t1: 300, top: 40, height: 400 };
    expect(yOf(s, 100)).toBe(40);
    expect(yOf(s, 200)).toBe(240);
    expect(tOf(s, 240)).toBe(200);
    expect(tOf(s, yOf(s, 123.5))).toBeCloseTo(123.5);
  });

  it('zooms about an anchor, pans and clamps to [MIN_WINDOW_MS, the whole run]', () => {
    expect(zoomWindow([0, 1000], 2, 500, 1000)).toEqual([250, 750]);
    expect(zoomWindow([0, 1000], 2, 0, 1000)).toEqual([0, 500]);
    const tiny = zoomWindow([100, 110], 100, 105, 1000);
    expect(tiny[1] - tiny[0]).toBe(MIN_WINDOW_MS);
    expect(zoomWindow([0, 1000], 0.1, 500, 1000)).toEqual([0, 1000]);
    expect(panWindow([0, 100], 0.5, 1000)).toEqual([50, 150]);
    expect(panWindow([900, 1000], 0.5, 1000)).toEqual([900, 1000]);
    expect(clampWindow([-50, 50], 1000)).toEqual([0, 100]);
    expect(followWindow([0, 100], 50, 1000)).toEqual([0, 100]);
    expect(followWindow([0, 100], 500, 1000)).toEqual([425, 525]);
    // Near the bottom edge the window moves on, so the cursor keeps a margin below it.
    expect(followWindow([0, 100], 95, 1000)).toEqual([20, 120]);
    expect(followWindow([0, 100], 85, 1000)).toEqual([0, 100]);
  });

  it("places an arrow's endpoints by the window: zooming in stretches it, lanes stay put", () => {
    const trace = traceView({ untilMs: 1000, messages: [{ type: 'RequestVote', from: 'n1', to: 'n3', sentAt: 200, endAt: 210 }] });
    const layout = laneLayout(trace.actorIds, trace.actors, 64 + 900);
    const whole = buildScene(trace, layout, { window: [0, 1000], top: 30, height: 500, heartbeats: 'show' }).arrows[0];
    expect(whole).toMatchObject({ x1: 64 + 50, y1: 130, x2: 64 + 250, y2: 135 });
    const zoomed = buildScene(trace, layout, { window: [195, 215], top: 30, height: 500, heartbeats: 'show' }).arrows[0];
    expect(zoomed).toMatchObject({ x1: 64 + 50, x2: 64 + 250 });
    expect(zoomed.y1).toBeCloseTo(30 + 125);
    expect(zoomed.y2).toBeCloseTo(30 + 375);
  });

  it('hit-tests the nearest arrow within a few pixels', () => {
    const a = { x1: 0, y1: 0, x2: 100, y2: 100, name: 'a' };
    const b = { x1: 0, y1: 10, x2: 100, y2: 110, name: 'b' };
    expect(nearestSegment([a, b], 50, 52)?.name).toBe('a');
    expect(nearestSegment([a, b], 50, 58)?.name).toBe('b');
    expect(nearestSegment([a, b], 50, 90)).toBeNull();
    expect(nearestSegment([a, b], 50, 70, 30)?.name).toBe('b');
    const [lx, ly, rx, ry] = arrowHead({ x1: 0, y1: 0, x2: 0, y2: 100 });
    expect(ly).toBeLessThan(100);
    expect(ry).toBeLessThan(100);
    expect(Math.sign(lx)).toBe(-Math.sign(rx));
  });
});
