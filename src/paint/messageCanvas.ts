/**
 * Where messages in flight are on the canvas under the SVG diagram. Hundreds of moving SVG
 * elements cost the browser style, layout and paint every frame; a canvas redraw of the same
 * shapes costs a fraction of that (measured with `npm run bench:ui`). Each message sits at
 * (now − sent)/(deliver − sent) of its lane — a pure function of the clock, so stepping and
 * seeking need no animation state (RaftScope's rule). A message that will be lost dies half
 * way; a dropped one bursts where it died. messagePainter.ts draws these marks; the ring export
 * writes the same marks as SVG; messageCanvasHost.ts connects the page's canvas to the painter.
 */
import type { MessageView, PaintDrop, PaintMessage } from '../sim/view/runView';
import { lerp, messageLane, type Box, type DiagramLayout } from './layout';
import { dropPosition, MESSAGE_LOOKS, messageKind, type MessageKind } from './messageShapes';
import { TRACK_OFFSET, TRACK_WIDTH, type TimerNode } from './timerArc';

/** The smallest symbol's area (view units²): the heartbeat's hollow circle. */
export const SMALLEST_SYMBOL_AREA = Math.min(...Object.values(MESSAGE_LOOKS).map((l) => l.size));

/** How long (simulated ms) a drop's burst stays visible. */
export const DROP_VISIBLE_MS = 120;

export function progressOf(m: Pick<MessageView, 'sentAt' | 'deliverAt'>, clockMs: number): number {
  const span = m.deliverAt - m.sentAt;
  if (span <= 0) return 1;
  return Math.min(1, Math.max(0, (clockMs - m.sentAt) / span));
}

/** How near (view units) a click must land to a drawn message to pick it. */
export const MESSAGE_HIT_RADIUS = 16;

/**
 * The message drawn nearest `at` (view units), within MESSAGE_HIT_RADIUS, or null: the same
 * positions draw() paints, so a click on a symbol picks that message.
 */
export function messageAt(
  layout: DiagramLayout,
  messages: readonly MessageView[],
  clockMs: number,
  at: { x: number; y: number },
): MessageView | null {
  let best: MessageView | null = null;
  let bestD = MESSAGE_HIT_RADIUS;
  for (const m of messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, clockMs);
    if (m.lost && p >= 0.5) continue;
    const pos = lerp(lane.from, lane.to, p);
    const d = Math.hypot(pos.x - at.x, pos.y - at.y);
    if (d <= bestD) {
      best = m;
      bestD = d;
    }
  }
  return best;
}

/** One frame of the canvas: full snapshots' messages and drops will do, and so will the paint worker's lighter ones. */
export interface MessageFrame {
  readonly messages: readonly PaintMessage[];
  readonly drops: readonly PaintDrop[];
  /** The nodes, for their election-timer arcs (timerArc.ts); none in a frame of messages only. */
  readonly nodes?: readonly TimerNode[];
  readonly clockMs: number;
}

/** One thing the canvas paints: a message's symbol, or the burst where one was dropped. */
export type MessageMark =
  | { readonly mark: 'symbol'; readonly x: number; readonly y: number; readonly kind: MessageKind; readonly seq: number }
  | { readonly mark: 'burst'; readonly x: number; readonly y: number; readonly fade: number };

/**
 * Where each message and drop of a frame is painted, in view units: the canvas draws these,
 * and the ring export writes the same marks as SVG, so both put every message in one place.
 */
export function messageMarks(layout: DiagramLayout, frame: MessageFrame): MessageMark[] {
  const { messages, drops, clockMs } = frame;
  const marks: MessageMark[] = [];
  for (const m of messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, clockMs);
    if (m.lost && p >= 0.5) {
      const at = lerp(lane.from, lane.to, 0.5);
      const fade = 1 - Math.min(1, (clockMs - (m.sentAt + (m.deliverAt - m.sentAt) / 2)) / DROP_VISIBLE_MS);
      marks.push({ mark: 'burst', x: at.x, y: at.y, fade: Math.max(0.25, fade) });
      continue;
    }
    const at = lerp(lane.from, lane.to, p);
    marks.push({ mark: 'symbol', x: at.x, y: at.y, kind: messageKind(m), seq: m.seq });
  }
  for (const d of drops) {
    const age = clockMs - d.droppedAt;
    if (age < 0 || age > DROP_VISIBLE_MS) continue;
    const lane = messageLane(layout, d.src, d.dst);
    if (!lane) continue;
    const at = lerp(lane.from, lane.to, dropPosition(d.reason));
    marks.push({ mark: 'burst', x: at.x, y: at.y, fade: 1 - age / DROP_VISIBLE_MS });
  }
  return marks;
}

/** A message's pointer toward its target: from where it is, `length` view units along its lane (less near the end). */
export interface MessageTrail {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly kind: MessageKind;
}

/**
 * Trails: one per stream — the messages of one kind on one lane — drawn on the message nearest
 * its target; a lost message past its death has none. A message alone on its lane always has
 * one. Behind the head of a stream the others follow on the same line, so one pointer says
 * where they all go: at 9 nodes and a fast heartbeat ~250 messages in flight make ~40 streams,
 * and a trail on each would be 250 antialiased paths a frame (a software canvas's costliest
 * mark) in a tangle that hides the symbols it is there to explain.
 */
export function messageTrails(layout: DiagramLayout, frame: MessageFrame, length: number): MessageTrail[] {
  const heads = new Map<string, { readonly m: PaintMessage; readonly p: number; readonly kind: MessageKind }>();
  for (const m of frame.messages) {
    const p = progressOf(m, frame.clockMs);
    if ((m.lost && p >= 0.5) || p >= 1) continue;
    const kind = messageKind(m);
    const key = `${m.src}>${m.dst}>${kind}`;
    const head = heads.get(key);
    if (!head || p > head.p) heads.set(key, { m, p, kind });
  }
  const trails: MessageTrail[] = [];
  for (const { m, p, kind } of heads.values()) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const at = lerp(lane.from, lane.to, p);
    const left = Math.hypot(lane.to.x - at.x, lane.to.y - at.y);
    if (left < 1) continue;
    const end = lerp(at, lane.to, Math.min(1, length / left));
    trails.push({ x1: at.x, y1: at.y, x2: end.x, y2: end.y, kind });
  }
  return trails;
}

/** How long (view units) a trail reaches toward the target, at symbol scale 1. */
export const TRAIL_LENGTH = 56;

/** A drop's burst ring grows as it fades. */
export function burstRadius(fade: number): number {
  return 8 + 16 * (1 - fade);
}

/** The cross of a drop's burst, centred on 0,0. */
export const BURST_CROSS = 'M-7,-7L7,7M7,-7L-7,7';

/**
 * The part of the view the canvas can ever paint, in view units: every lane between any two
 * actors (a trail runs along its lane), padded by the largest symbol at `symbolScale` and a
 * drop's burst, and every node's timer ring. Clients and stores are left of and right of the
 * lanes' ends, and the corners are empty, so this is about two thirds of the view — and a
 * canvas redrawn every frame costs a software compositor per pixel of it, whatever changed.
 */
export function paintBounds(layout: DiagramLayout, symbolScale: number): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const take = (x: number, y: number, pad: number) => {
    x0 = Math.min(x0, x - pad);
    y0 = Math.min(y0, y - pad);
    x1 = Math.max(x1, x + pad);
    y1 = Math.max(y1, y + pad);
  };
  const reach = Math.max(...Object.values(MESSAGE_LOOKS).map((l) => (Math.sqrt(l.size) + 6) * symbolScale), burstRadius(0) + 4) + 2;
  const actors = [...Object.keys(layout.nodes), ...Object.keys(layout.clients), ...Object.keys(layout.stores)];
  // Who can talk: nodes with nodes, clients with nodes, clients with stores (StoreWrite) —
  // never two clients, two stores or a node and a store, whose lanes would run down the columns.
  const side = (id: string) => (layout.nodes[id] ? 'node' : layout.clients[id] ? 'client' : 'store');
  const talk = (a: string, b: string) =>
    a !== b && (side(a) === 'node' ? side(b) !== 'store' : side(a) !== side(b) && (side(a) === 'client' || side(b) === 'client'));
  for (const a of actors) {
    for (const b of actors) {
      const lane = talk(a, b) ? messageLane(layout, a, b) : null;
      if (!lane) continue;
      take(lane.from.x, lane.from.y, reach);
      take(lane.to.x, lane.to.y, reach);
    }
  }
  for (const at of Object.values(layout.nodes)) take(at.x, at.y, layout.nodeRadius + TRACK_OFFSET + TRACK_WIDTH / 2 + 2);
  if (x0 > x1) return { x0: 0, y0: 0, x1: 0, y1: 0 };
  return { x0, y0, x1, y1 };
}
