/**
 * Drawing a cut across the diagram: press on empty space, drag a line, release — the nodes on
 * each side of the line become the two partition groups. A small controller with
 * update/destroy; d3.pointer maps screen to viewBox coordinates.
 */
import { pointer } from 'd3';
import type { Point } from '../../paint/layout';

export interface CutCallbacks {
  /** The line being drawn, or null when none. */
  preview(line: { a: Point; b: Point } | null): void;
  /** Called on release with the finished line. */
  cut(a: Point, b: Point): void;
}

export interface CutGestureController {
  update(callbacks: CutCallbacks): void;
  destroy(): void;
}

export function createCutGesture(svg: SVGSVGElement, initial: CutCallbacks): CutGestureController {
  let callbacks = initial;
  let start: Point | null = null;
  let pointerId: number | null = null;
  const at = (e: PointerEvent): Point => {
    const [x, y] = pointer(e, svg);
    return { x, y };
  };
  const down = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const target = e.target as Element | null;
    // Only empty space starts a cut: nodes, clients and stores have their own clicks.
    if (target && target.closest('.node, .client, .store')) return;
    start = at(e);
    pointerId = e.pointerId;
    svg.setPointerCapture?.(e.pointerId);
    e.preventDefault();
  };
  const move = (e: PointerEvent) => {
    if (start === null || e.pointerId !== pointerId) return;
    callbacks.preview({ a: start, b: at(e) });
  };
  const up = (e: PointerEvent) => {
    if (start === null || e.pointerId !== pointerId) return;
    const a = start;
    start = null;
    pointerId = null;
    callbacks.preview(null);
    callbacks.cut(a, at(e));
  };
  const cancel = () => {
    start = null;
    pointerId = null;
    callbacks.preview(null);
  };
  // touch-action: none already keeps the page from scrolling under a finger drawing a cut; a
  // consumed touchmove also keeps Chromium from reading the drag as a fling, which would swallow
  // the next tap (Heal partition, say) as the tap that stops a fling.
  const touchMove = (e: TouchEvent) => {
    if (start !== null && e.cancelable) e.preventDefault();
  };
  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  svg.addEventListener('touchmove', touchMove, { passive: false });
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', cancel);
  return {
    update(next) {
      callbacks = next;
    },
    destroy() {
      svg.removeEventListener('pointerdown', down);
      svg.removeEventListener('pointermove', move);
      svg.removeEventListener('touchmove', touchMove);
      svg.removeEventListener('pointerup', up);
      svg.removeEventListener('pointercancel', cancel);
    },
  };
}
