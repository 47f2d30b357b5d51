/**
 * Presenter sizes for the ring diagram. The diagram's SVG scales its viewBox (940×590) to the
 * pane, so at a projector's 1280×720 one view unit is about one pixel: presenter mode draws its
 * labels at these sizes (view units, times the text-size choice) so each is at least 20 px on
 * screen, with bigger glyphs and a ring that leaves room for them. Normal mode passes null.
 */
import { createContext, useContext } from 'react';
import type { RingGeometry } from '../../paint/layout';

export interface DiagramText {
  /** The text-size choice (PRESENT_TEXT_SCALES). */
  readonly scale: number;
}

export const DiagramTextContext = createContext<DiagramText | null>(null);

export function useDiagramText(): DiagramText | null {
  return useContext(DiagramTextContext);
}

/** Label sizes in view units at text scale 1. */
export const PRESENTER_FONT = {
  nodeId: 28,
  role: 22,
  term: 23,
  side: 22,
  clientId: 23,
  clientToken: 21,
  storeName: 21,
  storeValue: 21,
} as const;

/** The ring in presenter mode: a little smaller and lower, so the bigger glyphs and labels fit. */
export const PRESENTER_RING = { cx: 470, cy: 300, r: 188 } as const;

export function presenterNodeRadius(count: number): number {
  return count <= 5 ? 66 : count <= 7 ? 58 : 50;
}

export const PRESENTER_CLIENT_SIZE = { w: 124, h: 76 } as const;
export const PRESENTER_STORE_SIZE = { w: 150, h: 108 } as const;

/** Message symbols are drawn this much bigger, so the smallest is over 16 px at 1280×720. */
export const PRESENTER_SYMBOL_SCALE = 1.5;

/** Side labels are placed clear of everything else at these sizes (src/paint/layout.ts placeSideLabels). */
export const PRESENTER_GEOMETRY: RingGeometry = {
  ring: PRESENTER_RING,
  nodeRadius: presenterNodeRadius,
  clientSize: PRESENTER_CLIENT_SIZE,
  storeSize: PRESENTER_STORE_SIZE,
  sideFont: PRESENTER_FONT.side,
  sideLine: PRESENTER_FONT.side * 1.2,
};
