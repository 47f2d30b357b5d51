/**
 * The canvas that shows messages in flight (see messageCanvas.ts). It subscribes to the store
 * outside React, so a new clock or snapshot redraws the canvas without re-rendering anything.
 */
import { memo, useEffect, useRef } from 'react';
import { useLabStore } from '../labContext';
import type { LabState } from '../store/labStore';
import { selectClock, selectDrops, selectMessages } from '../store/selectors';
import type { DiagramLayout } from './layout';
import { MessageCanvas, type MessageFrame } from './messageCanvas';

const frameOf = (s: LabState): MessageFrame => ({ messages: selectMessages(s), drops: selectDrops(s), clockMs: selectClock(s) });

export const MessagesLayer = memo(function MessagesLayer({ layout }: { layout: DiagramLayout }) {
  const store = useLabStore();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const controller = useRef<MessageCanvas | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const painter = new MessageCanvas(canvas, layout);
    controller.current = painter;
    painter.show(frameOf(store.getState()));
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.snapshot !== previous.snapshot || state.clockMs !== previous.clockMs) painter.show(frameOf(state));
    });
    return () => {
      unsubscribe();
      painter.destroy();
      controller.current = null;
    };
    // One controller per store; layout changes go through update() below.
  }, [store]);

  useEffect(() => {
    controller.current?.update(layout);
  }, [layout]);

  return <canvas ref={canvasRef} className="diagram-messages" aria-hidden="true" data-testid="messages-canvas" />;
});
