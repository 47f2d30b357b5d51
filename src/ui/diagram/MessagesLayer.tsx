/**
 * The canvas that shows messages in flight (see messageCanvas.ts). It subscribes to the store
 * outside React, so a new clock or snapshot redraws the canvas without re-rendering anything.
 */
import { memo, useEffect, useRef } from 'react';
import { useLabStore } from '../labContext';
import { selectClock, selectMessageFrame, selectSnapshot } from '../store/selectors';
import type { DiagramLayout } from './layout';
import { MessageCanvas } from './messageCanvas';
import { PRESENTER_SYMBOL_SCALE } from '../present/diagramText';

export const MessagesLayer = memo(function MessagesLayer({ layout, presenting = false }: { layout: DiagramLayout; presenting?: boolean }) {
  const store = useLabStore();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const controller = useRef<MessageCanvas | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const painter = new MessageCanvas(canvas, layout);
    controller.current = painter;
    painter.show(selectMessageFrame(store.getState()));
    const unsubscribe = store.subscribe((state, previous) => {
      if (selectSnapshot(state) !== selectSnapshot(previous) || selectClock(state) !== selectClock(previous)) painter.show(selectMessageFrame(state));
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

  // Presenter mode: bigger symbols with a trail toward their target.
  useEffect(() => {
    controller.current?.setPresenter(presenting, PRESENTER_SYMBOL_SCALE);
  }, [presenting]);

  return <canvas ref={canvasRef} className="diagram-messages" aria-hidden="true" data-testid="messages-canvas" />;
});
