/// <reference lib="webworker" />
/**
 * The paint worker: owns the message canvas (handed over as an OffscreenCanvas) and draws each
 * frame the simulation worker sends it — messages in flight, drops and election timers — with
 * the same painter the page uses where it has no OffscreenCanvas. Drawing and handing the
 * canvas's pixels to the compositor happen here, so a playing run's canvas costs the page's
 * main thread nothing (on a software-rendered canvas that was most of a frame's cost).
 */
import { EMPTY_FRAME, MessagePainter } from '../paint/messagePainter';
import type { MessageFrame } from '../paint/messageCanvas';
import type { PaintView } from '../sim/view/runView';
import { applyPaintFrame, EMPTY_PAINT_VIEW } from './paintFeed';
import type { HostToPainter, PaintFrame } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let painter: MessagePainter | null = null;
let frame: MessageFrame = EMPTY_FRAME;
/** The run's view as the frames so far describe it (paintFeed.ts). */
let view: PaintView = EMPTY_PAINT_VIEW;

function onFrame(event: MessageEvent<PaintFrame>): void {
  const f = event.data;
  view = applyPaintFrame(view, f);
  frame = { messages: view.messages, drops: view.drops, nodes: view.nodes, clockMs: f.clockMs };
  painter?.show(frame);
}

scope.addEventListener('message', (event: MessageEvent<HostToPainter>) => {
  const msg = event.data;
  if (msg.type === 'canvas') {
    painter = new MessagePainter(msg.canvas, msg.canvas.getContext('2d'));
    msg.frames.addEventListener('message', onFrame);
    msg.frames.start();
  } else painter?.setLook(msg.look);
});
