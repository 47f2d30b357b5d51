/**
 * The paint worker's frames (src/worker/paintFeed.ts): after each frame the painter's view is
 * exactly the run's paintView, whether the run played on, jumped back or forward, or the feed
 * was reset; and a playing run's frames carry only a small part of what is in flight.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, nodeIdsFor } from '../src/sim/model/config';
import { parseSchedule } from '../src/sim/model/schedule';
import { paintView } from '../src/sim/view/runView';
import { Timeline } from '../src/sim/run/timeline';
import { applyPaintFrame, EMPTY_PAINT_VIEW, PaintFeed } from '../src/worker/paintFeed';

const NINE = {
  ...DEFAULT_CONFIG,
  nodeIds: nodeIdsFor(9),
  clientIds: ['A', 'B'],
  latencyMs: [200, 400] as const,
  heartbeatMs: 20,
  electionTimeoutMs: [1000, 2000] as const,
};
const BUSY = parseSchedule(
  '@1500 client A acquire lock0 400; @1700 client A write k=1; @2500 client B acquire lock1 400; @2600 crash n3; @3200 restart n3; @3300 partition n1,n2 | n3,n4,n5; @4000 heal',
);

describe('paint feed', () => {
  it("plays 9 nodes at 60 frames a second: the painter always has the run's view, from a fraction of it", () => {
    const timeline = new Timeline(NINE, BUSY);
    const feed = new PaintFeed();
    let had = EMPTY_PAINT_VIEW;
    let sent = 0;
    let inFlight = 0;
    let frames = 0;
    for (let t = 5500; t <= 8000; t += 1000 / 60) {
      timeline.advanceTo(t);
      const view = paintView(timeline.current);
      const frame = feed.frame(t, view);
      had = applyPaintFrame(had, frame);
      expect(had).toEqual(view);
      if (frame.change) {
        frames++;
        sent += frame.change.added.length;
        inFlight += view.messages.length;
      }
    }
    expect(inFlight / frames).toBeGreaterThan(150); // a full network: a leader and eight followers
    expect(sent / inFlight).toBeLessThan(0.2);
  });

  it("any mix of steps, seeks back and forth and resets leaves the painter with the run's view", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('step' as const), ms: fc.integer({ min: 1, max: 120 }) }),
            fc.record({ kind: fc.constant('seek' as const), ms: fc.integer({ min: 0, max: 4500 }) }),
            fc.record({ kind: fc.constant('reset' as const), ms: fc.constant(0) }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        (moves) => {
          const timeline = new Timeline({ ...NINE, nodeIds: nodeIdsFor(5) }, BUSY);
          const feed = new PaintFeed();
          let had = EMPTY_PAINT_VIEW;
          for (const move of moves) {
            if (move.kind === 'step') timeline.advanceTo(timeline.nowMs + move.ms);
            else if (move.kind === 'seek') timeline.seek(move.ms);
            else feed.reset();
            const view = paintView(timeline.current);
            had = applyPaintFrame(had, feed.frame(timeline.nowMs, view));
            expect(had).toEqual(view);
            // A clock-only frame keeps it.
            expect(applyPaintFrame(had, { type: 'paint-frame', clockMs: timeline.nowMs })).toBe(had);
          }
        },
      ),
      { numRuns: 40, seed: 13 },
    );
  });

  it('sends the whole view first and after a reset, and a message whose fields changed as gone and added', () => {
    const feed = new PaintFeed();
    const m = {
      seq: 1,
      type: 'AppendEntries' as const,
      src: 'n1',
      dst: 'n2',
      sentAt: 0,
      deliverAt: 100,
      lost: false,
      ok: null,
      heartbeat: true,
    };
    const first = feed.frame(0, { messages: [m], drops: [], nodes: [] });
    expect(first.view?.messages).toEqual([m]);
    const lost = { ...m, lost: true };
    const second = feed.frame(10, { messages: [lost], drops: [], nodes: [] });
    expect(second.view).toBeUndefined();
    expect(second.change).toEqual({ added: [lost], gone: [1], drops: [], nodes: [] });
    expect(applyPaintFrame({ messages: [m], drops: [], nodes: [] }, second).messages).toEqual([lost]);
    feed.reset();
    expect(feed.frame(20, { messages: [lost], drops: [], nodes: [] }).view?.messages).toEqual([lost]);
  });
});
