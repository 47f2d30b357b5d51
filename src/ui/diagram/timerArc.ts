/**
 * The draining election-timer arc around a node glyph (RaftScope's best idea), drawn by a small
 * controller that follows the store's clock outside React: the arc moves every frame without
 * re-rendering the glyph.
 */
import { arc } from 'd3';
import type { LabStore } from '../store/labStore';
import { timerFields } from '../store/selectors';

export interface TimerArcController {
  update(): void;
  destroy(): void;
}

export function createTimerArc(path: SVGPathElement, store: LabStore, nodeId: string, radius: number): TimerArcController {
  const shape = arc<{ end: number }>()
    .innerRadius(radius + 6)
    .outerRadius(radius + 12)
    .startAngle(0)
    .endAngle((d) => d.end)
    .cornerRadius(3);
  let lastD = '';
  const update = () => {
    const s = store.getState();
    const t = timerFields(s, nodeId);
    let d = '';
    if (t && t.alive && t.role !== 'leader' && t.deadline > t.start) {
      const left = Math.min(1, Math.max(0, (t.deadline - s.frame.clockMs) / (t.deadline - t.start)));
      d = left > 0 ? (shape({ end: 2 * Math.PI * left }) ?? '') : '';
    }
    if (d !== lastD) {
      path.setAttribute('d', d);
      lastD = d;
    }
  };
  update();
  const unsubscribe = store.subscribe(update);
  return { update, destroy: unsubscribe };
}
