/**
 * The trail that points a message at its target (issue 13, friction 3): one per stream — the
 * messages of one kind on one lane — drawn on the message nearest its target, from where it is
 * toward the target along its lane, and shorter near the end.
 */
import { describe, expect, it } from 'vitest';
import { diagramLayout, lerp, messageLane } from '../src/paint/layout';
import { messageTrails, TRAIL_LENGTH, type MessageFrame } from '../src/paint/messageCanvas';
import type { PaintMessage } from '../src/sim/view/runView';

const layout = diagramLayout(['n1', 'n2', 'n3', 'n4', 'n5'], ['A'], true);
let seq = 0;
function msg(
  type: PaintMessage['type'],
  src: string,
  dst: string,
  sentAt: number,
  deliverAt: number,
  extra: Partial<PaintMessage> = {},
): PaintMessage {
  return { seq: seq++, type, src, dst, sentAt, deliverAt, lost: false, ok: true, heartbeat: true, ...extra };
}
const frame = (messages: PaintMessage[], clockMs: number): MessageFrame => ({ messages, drops: [], clockMs });

describe('message trails', () => {
  it('a stream of heartbeats on one lane has one trail, on the message nearest its target', () => {
    const stream = [
      msg('AppendEntries', 'n1', 'n2', 0, 100),
      msg('AppendEntries', 'n1', 'n2', 20, 120),
      msg('AppendEntries', 'n1', 'n2', 40, 140),
    ];
    const trails = messageTrails(layout, frame(stream, 50), TRAIL_LENGTH);
    expect(trails).toHaveLength(1);
    const lane = messageLane(layout, 'n1', 'n2')!;
    const head = lerp(lane.from, lane.to, 0.5); // the first one, half way at t = 50
    expect(trails[0].x1).toBeCloseTo(head.x);
    expect(trails[0].y1).toBeCloseTo(head.y);
    expect(trails[0].kind).toBe('heartbeat');
  });

  it('each kind and each direction is a stream of its own; a lone message keeps its trail', () => {
    const messages = [
      msg('AppendEntries', 'n1', 'n2', 0, 100),
      msg('AppendEntries', 'n1', 'n2', 0, 100, { heartbeat: false }),
      msg('AppendReply', 'n2', 'n1', 0, 100),
      msg('AppendReply', 'n2', 'n1', 0, 100, { ok: false }),
      msg('RequestVote', 'n1', 'n3', 0, 100),
    ];
    const trails = messageTrails(layout, frame(messages, 30), TRAIL_LENGTH);
    expect(trails.map((t) => t.kind).sort()).toEqual(['append', 'append-ok', 'append-rejected', 'heartbeat', 'vote-request']);
  });

  it('points along the lane toward the target, TRAIL_LENGTH long, and ends at the target near the end', () => {
    const lane = messageLane(layout, 'n1', 'n4')!;
    const laneLength = Math.hypot(lane.to.x - lane.from.x, lane.to.y - lane.from.y);
    expect(laneLength).toBeGreaterThan(2 * TRAIL_LENGTH);
    const m = msg('RequestVote', 'n1', 'n4', 0, 1000);
    const [early] = messageTrails(layout, frame([m], 100), TRAIL_LENGTH);
    expect(Math.hypot(early.x2 - early.x1, early.y2 - early.y1)).toBeCloseTo(TRAIL_LENGTH);
    const along =
      ((early.x2 - early.x1) * (lane.to.x - lane.from.x) + (early.y2 - early.y1) * (lane.to.y - lane.from.y)) / (TRAIL_LENGTH * laneLength);
    expect(along).toBeCloseTo(1); // the same direction as the lane
    const [late] = messageTrails(layout, frame([m], 990), TRAIL_LENGTH);
    expect(late.x2).toBeCloseTo(lane.to.x);
    expect(late.y2).toBeCloseTo(lane.to.y);
  });

  it('a lost message past its death and a delivered one have none, and do not hide the stream behind them', () => {
    const dying = msg('AppendEntries', 'n1', 'n2', 0, 100, { lost: true });
    const behind = msg('AppendEntries', 'n1', 'n2', 40, 140);
    const trails = messageTrails(layout, frame([dying, behind], 60), TRAIL_LENGTH);
    const lane = messageLane(layout, 'n1', 'n2')!;
    expect(trails).toHaveLength(1);
    expect(trails[0].x1).toBeCloseTo(lerp(lane.from, lane.to, 0.2).x);
    expect(messageTrails(layout, frame([msg('AppendEntries', 'n1', 'n2', 0, 100)], 100), TRAIL_LENGTH)).toEqual([]);
  });
});
