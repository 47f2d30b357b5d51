/**
 * The draining election-timer arcs around the node glyphs (RaftScope's best idea): where each
 * is and how much is left, as a pure function of the nodes and the clock. The message canvas
 * paints them every frame and the ring export writes the same arcs as SVG. In the ring's SVG
 * they changed a path every frame, which made the browser lay out, re-record and re-commit
 * every glyph, label and store with them sixty times a second.
 */
import { arc } from 'd3';
import type { PaintNode } from '../sim/view/runView';
import type { DiagramLayout } from './layout';

/** What a timer is drawn from: a node's liveness, role and election timer. */
export type TimerNode = PaintNode;

export interface TimerMark {
  readonly id: string;
  /** The glyph's centre, in view units. */
  readonly x: number;
  readonly y: number;
  /** The glyph's radius: the track and arc sit just outside it. */
  readonly radius: number;
  /** The share of the timeout still to run, 0–1 (the arc's length as a share of the circle). */
  readonly left: number;
  /** Candidates' timers are drawn in the candidate's colour. */
  readonly candidate: boolean;
}

/** The timer's track (a full ring under the arc) is this far outside the glyph, and this wide. */
export const TRACK_OFFSET = 9;
export const TRACK_WIDTH = 6;

/** One mark per live node that is not the leader (a leader's timer does not run). */
export function timerMarks(layout: DiagramLayout, nodes: readonly TimerNode[], clockMs: number): TimerMark[] {
  const marks: TimerMark[] = [];
  for (const n of nodes) {
    const at = layout.nodes[n.id];
    if (!at || !n.alive || n.role === 'leader') continue;
    const span = n.electionDeadline - n.electionTimerStart;
    const left = span > 0 ? Math.min(1, Math.max(0, (n.electionDeadline - clockMs) / span)) : 0;
    marks.push({ id: n.id, x: at.x, y: at.y, radius: layout.nodeRadius, left, candidate: n.role === 'candidate' });
  }
  return marks;
}

const shape = arc<{ radius: number; end: number }>()
  .innerRadius((d) => d.radius + TRACK_OFFSET - TRACK_WIDTH / 2)
  .outerRadius((d) => d.radius + TRACK_OFFSET + TRACK_WIDTH / 2)
  .startAngle(0)
  .endAngle((d) => d.end)
  .cornerRadius(3);

/** The arc's outline centred on 0,0, clockwise from the top ('' when nothing is left). */
export function timerArcPath(mark: Pick<TimerMark, 'radius' | 'left'>): string {
  return mark.left > 0 ? (shape({ radius: mark.radius, end: 2 * Math.PI * mark.left }) ?? '') : '';
}
