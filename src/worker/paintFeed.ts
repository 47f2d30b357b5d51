/**
 * What the simulation worker sends a paint worker of the run's view, and how the paint worker
 * puts it back together. A playing run changes its view every frame, but only a little: at 9
 * nodes with a 20 ms heartbeat ~250 messages are in flight and a frame sends or delivers ~15 of
 * them. Cloning all 250 sixty times a second cost the two workers about 100 ms of CPU a second
 * (structured clone on one side, rebuilding objects on the other); a frame now carries the
 * messages that appeared or changed and the seqs of those that went. The first frame after a
 * reset (a new painter, a new run, anything a person did) carries the whole view.
 */
import type { PaintMessage, PaintView } from '../sim/view/runView';
import type { PaintFrame } from './protocol';

function same(a: PaintMessage, b: PaintMessage): boolean {
  return (
    a.type === b.type &&
    a.src === b.src &&
    a.dst === b.dst &&
    a.sentAt === b.sentAt &&
    a.deliverAt === b.deliverAt &&
    a.lost === b.lost &&
    a.ok === b.ok &&
    a.heartbeat === b.heartbeat
  );
}

/** The sender's side: what the painters were last sent, to send them only what changed. */
export class PaintFeed {
  private sent = new Map<number, PaintMessage>();
  private whole = true;

  /** The next frame with a view carries all of it (a new painter, a new run, a person's command). */
  reset(): void {
    this.whole = true;
  }

  /** A frame of `view` at `clockMs`: the whole view after a reset, else its change since the last one. */
  frame(clockMs: number, view: PaintView): PaintFrame {
    const previous = this.sent;
    this.sent = new Map(view.messages.map((m) => [m.seq, m]));
    if (this.whole) {
      this.whole = false;
      return { type: 'paint-frame', clockMs, view };
    }
    const added: PaintMessage[] = [];
    const gone: number[] = [];
    for (const m of view.messages) {
      const had = previous.get(m.seq);
      if (had && same(had, m)) continue;
      if (had) gone.push(m.seq);
      added.push(m);
    }
    for (const seq of previous.keys()) if (!this.sent.has(seq)) gone.push(seq);
    return { type: 'paint-frame', clockMs, change: { added, gone, drops: view.drops, nodes: view.nodes } };
  }
}

/** The paint worker's side: the view after `frame`, from the view it had (a clock-only frame keeps it). */
export function applyPaintFrame(had: PaintView, frame: PaintFrame): PaintView {
  if (frame.view) return frame.view;
  const change = frame.change;
  if (!change) return had;
  const gone = new Set(change.gone);
  const kept = gone.size === 0 ? had.messages : had.messages.filter((m) => !gone.has(m.seq));
  let messages: readonly PaintMessage[] = kept;
  if (change.added.length > 0) {
    const joined = [...kept, ...change.added];
    // New messages have the highest seqs; a replaced one may not, and then the order is restored.
    const last = kept.length > 0 ? kept[kept.length - 1].seq : -Infinity;
    messages = change.added[0].seq > last ? joined : joined.sort((a, b) => a.seq - b.seq);
  }
  return { messages, drops: change.drops, nodes: change.nodes };
}

export const EMPTY_PAINT_VIEW: PaintView = { messages: [], drops: [], nodes: [] };
