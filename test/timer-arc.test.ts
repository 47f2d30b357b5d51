/** The election timers the message canvas paints and the ring export writes: one pure function of nodes and clock. */
import { describe, expect, it } from 'vitest';
import { diagramLayout } from '../src/paint/layout';
import { timerArcPath, timerMarks, type TimerNode } from '../src/paint/timerArc';

const layout = diagramLayout(['n1', 'n2', 'n3'], [], false);
const node = (id: string, role: TimerNode['role'], alive = true): TimerNode => ({
  id,
  alive,
  role,
  electionTimerStart: 100,
  electionDeadline: 300,
});

describe('election timer arcs', () => {
  it('drain from full at the timer’s start to empty at its deadline, for live followers and candidates only', () => {
    const nodes = [node('n1', 'follower'), node('n2', 'leader'), node('n3', 'candidate', false)];
    expect(timerMarks(layout, nodes, 100).map((t) => [t.id, t.left])).toEqual([['n1', 1]]);
    expect(timerMarks(layout, nodes, 250)[0].left).toBeCloseTo(0.25, 10);
    expect(timerMarks(layout, nodes, 300)[0].left).toBe(0);
    expect(timerMarks(layout, nodes, 900)[0].left).toBe(0);
    const candidate = timerMarks(layout, [node('n3', 'candidate')], 200)[0];
    expect(candidate).toMatchObject({ id: 'n3', candidate: true, x: layout.nodes.n3.x, y: layout.nodes.n3.y, radius: layout.nodeRadius });
  });

  it('draw nothing when nothing is left, and a longer arc when more is left', () => {
    const mark = { radius: 50 };
    expect(timerArcPath({ ...mark, left: 0 })).toBe('');
    const short = timerArcPath({ ...mark, left: 0.1 });
    const long = timerArcPath({ ...mark, left: 0.9 });
    expect(short).not.toBe('');
    expect(long).not.toBe(short);
  });
});
