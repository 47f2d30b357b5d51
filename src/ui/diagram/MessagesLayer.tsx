/**
 * Messages in flight, each at (now − sent)/(deliver − sent) of its lane — position is a pure
 * function of the clock, so stepping and seeking need no animation state (RaftScope's rule).
 * A message that will be lost dies half way; a dropped one bursts where it died.
 */
import { memo } from 'react';
import type { DropView, MessageView } from '../../sim/snapshot';
import { useLab } from '../labContext';
import { selectClock, selectDrops, selectMessages } from '../store/selectors';
import { lerp, messageLane, type DiagramLayout } from './layout';
import { dropPosition, messageKind, symbolPath } from './messageShapes';

/** How long (simulated ms) a drop's burst stays visible. */
export const DROP_VISIBLE_MS = 120;

export function progressOf(m: Pick<MessageView, 'sentAt' | 'deliverAt'>, clockMs: number): number {
  const span = m.deliverAt - m.sentAt;
  if (span <= 0) return 1;
  return Math.min(1, Math.max(0, (clockMs - m.sentAt) / span));
}

function Burst({ x, y, fade, reason }: { x: number; y: number; fade: number; reason: DropView['reason'] }) {
  const ring = 8 + 16 * (1 - fade);
  return (
    <g className={`drop drop-${reason}`} transform={`translate(${x.toFixed(1)},${y.toFixed(1)})`} opacity={fade.toFixed(2)}>
      <circle r={ring} />
      <path d="M-7,-7L7,7M7,-7L-7,7" />
    </g>
  );
}

export const MessagesLayer = memo(function MessagesLayer({ layout }: { layout: DiagramLayout }) {
  const messages = useLab(selectMessages);
  const drops = useLab(selectDrops);
  const clock = useLab(selectClock);
  const items: React.ReactNode[] = [];
  for (const m of messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, clock);
    const kind = messageKind(m);
    if (m.lost && p >= 0.5) {
      const at = lerp(lane.from, lane.to, 0.5);
      const fade = 1 - Math.min(1, (clock - (m.sentAt + (m.deliverAt - m.sentAt) / 2)) / DROP_VISIBLE_MS);
      items.push(<Burst key={`m${m.seq}`} x={at.x} y={at.y} fade={Math.max(0.25, fade)} reason="loss" />);
      continue;
    }
    const at = lerp(lane.from, lane.to, p);
    items.push(
      <path
        key={`m${m.seq}`}
        className={`msg msg-${kind}`}
        d={symbolPath(kind)}
        transform={`translate(${at.x.toFixed(1)},${at.y.toFixed(1)})`}
      />,
    );
  }
  for (const d of drops) {
    const age = clock - d.droppedAt;
    if (age < 0 || age > DROP_VISIBLE_MS) continue;
    const lane = messageLane(layout, d.src, d.dst);
    if (!lane) continue;
    const at = lerp(lane.from, lane.to, dropPosition(d.reason));
    items.push(<Burst key={`d${d.seq}`} x={at.x} y={at.y} fade={1 - age / DROP_VISIBLE_MS} reason={d.reason} />);
  }
  return (
    <g className="messages" aria-hidden="true">
      {items}
    </g>
  );
});
