/**
 * The message canvas covers only what messages and timers can reach (paintBounds): every point
 * of every lane with the largest symbol around it, every drop's burst and every timer ring lies
 * inside, at every cluster size, in the normal ring and in presenter mode — and it is well short
 * of the whole view, which is what a software compositor pays for every frame.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_SIZE, diagramLayout, lerp, messageLane, VIEW_H, VIEW_W, type RingGeometry } from '../src/paint/layout';
import { burstRadius, paintBounds } from '../src/paint/messageCanvas';
import { MESSAGE_LOOKS } from '../src/paint/messageShapes';
import { TRACK_OFFSET, TRACK_WIDTH } from '../src/paint/timerArc';
import { RING_SYMBOL_SCALE } from '../src/ui/diagram/MessagesLayer';
import { PRESENTER_GEOMETRY, PRESENTER_SYMBOL_SCALE } from '../src/ui/present/diagramText';
import { nodeIdsFor } from '../src/sim/model/config';

const cases: [string, RingGeometry | undefined, number][] = [
  ['ring', undefined, RING_SYMBOL_SCALE],
  ['presenter', PRESENTER_GEOMETRY, PRESENTER_SYMBOL_SCALE],
];

describe('paintBounds', () => {
  for (const [name, geometry, scale] of cases) {
    for (const count of [1, 3, 5, 7, 9]) {
      it(`${name}, ${count} nodes, 4 clients and the stores: every mark is inside`, () => {
        const layout = diagramLayout(nodeIdsFor(count), ['A', 'B', 'C', 'D'], true, geometry);
        const b = paintBounds(layout, scale);
        const inside = (x: number, y: number, pad: number) =>
          x - pad >= b.x0 - 1e-9 && x + pad <= b.x1 + 1e-9 && y - pad >= b.y0 - 1e-9 && y + pad <= b.y1 + 1e-9;
        const symbol = Math.max(...Object.values(MESSAGE_LOOKS).map((l) => (Math.sqrt(l.size) + 6) * scale));
        const nodes = Object.keys(layout.nodes);
        const clients = Object.keys(layout.clients);
        // Every pair that can exchange a message: node↔node, client↔node, client→store.
        const pairs = [
          ...nodes.flatMap((a) => [...nodes, ...clients].map((b) => [a, b])),
          ...clients.flatMap((c) => [...nodes, ...Object.keys(layout.stores)].map((b) => [c, b])),
        ];
        for (const [src, dst] of pairs) {
          {
            if (src === dst) continue;
            const lane = messageLane(layout, src, dst)!;
            for (let p = 0; p <= 1; p += 0.125) {
              const at = lerp(lane.from, lane.to, p);
              expect(inside(at.x, at.y, symbol), `${src}→${dst} at ${p}`).toBe(true);
              expect(inside(at.x, at.y, burstRadius(0) + 2)).toBe(true);
            }
          }
        }
        for (const at of Object.values(layout.nodes))
          expect(inside(at.x, at.y, layout.nodeRadius + TRACK_OFFSET + TRACK_WIDTH / 2)).toBe(true);
        if (count >= 3) expect((b.x1 - b.x0) * (b.y1 - b.y0)).toBeLessThan(0.8 * VIEW_W * VIEW_H);
      });
    }
  }

  it('leaves out the outer parts of the client and store columns: lanes end at their edges', () => {
    const layout = diagramLayout(nodeIdsFor(5), ['A', 'B'], true);
    const b = paintBounds(layout, RING_SYMBOL_SCALE);
    expect(b.x0).toBeGreaterThan(layout.clients.A.x - CLIENT_SIZE.w / 4);
    expect(b.x1).toBeLessThan(layout.stores.fenced.x);
  });
});
