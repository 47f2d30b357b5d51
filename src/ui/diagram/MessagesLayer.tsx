/**
 * The canvas that shows messages in flight and the election timers (messageCanvasHost.ts). In a
 * browser with OffscreenCanvas a paint worker draws it from the simulation worker's frames;
 * otherwise it subscribes to the store outside React, so a new clock or snapshot redraws the
 * canvas without re-rendering anything.
 */
import { memo, useEffect, useRef } from 'react';
import { useBridge, useLabStore } from '../labContext';
import { selectClock, selectMessageFrame, selectRunView } from '../store/selectors';
import type { DiagramLayout } from '../../paint/layout';
import { MessageCanvas } from './messageCanvasHost';
import { PRESENTER_SYMBOL_SCALE } from '../present/diagramText';

/** The normal ring's symbols: the smallest is over 12 px at a projector's 1280×720 (about 0.68 px per view unit). */
export const RING_SYMBOL_SCALE = 1.4;

export const MessagesLayer = memo(function MessagesLayer({ layout, presenting = false }: { layout: DiagramLayout; presenting?: boolean }) {
  const store = useLabStore();
  const bridge = useBridge();
  const slotRef = useRef<HTMLDivElement>(null);
  const controller = useRef<MessageCanvas | null>(null);

  useEffect(() => {
    const slot = slotRef.current;
    if (!slot) return;
    // A canvas of the controller's own: one handed to a paint worker can never be handed again
    // (React's strict mode mounts effects twice in development).
    const canvas = document.createElement('canvas');
    canvas.className = 'diagram-messages';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.testid = 'messages-canvas';
    slot.append(canvas);
    // The slot takes no box (display: contents): the canvas is placed in the diagram's frame.
    const painter = new MessageCanvas(canvas, layout, (port) => bridge.attachPainter(port), slot.parentElement);
    controller.current = painter;
    // With a paint worker, the page's frames never reach the canvas: nothing to follow here.
    painter.show(selectMessageFrame(store.getState()));
    const unsubscribe = painter.drawsHere
      ? store.subscribe((state, previous) => {
          if (selectRunView(state) !== selectRunView(previous) || selectClock(state) !== selectClock(previous))
            painter.show(selectMessageFrame(state));
        })
      : () => {};
    return () => {
      unsubscribe();
      painter.destroy();
      canvas.remove();
      controller.current = null;
    };
    // One controller per store; layout changes go through update() below.
  }, [store, bridge]);

  useEffect(() => {
    controller.current?.update(layout);
  }, [layout]);

  // Every message points at its target with a short trail; presenter mode draws them bigger still.
  useEffect(() => {
    controller.current?.setLook(presenting ? PRESENTER_SYMBOL_SCALE : RING_SYMBOL_SCALE, true);
  }, [presenting]);

  return <div ref={slotRef} className="diagram-messages-slot" />;
});
