/**
 * Presenter mode's state in the lab store: whether the page is a projector screen, what the
 * audience sees (panels folded, text size, a blank screen) and the two playback aids for a
 * class — pausing at landmarks and slowing down around them.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { LabState } from '../store/labStore';

/** What kind of page this is, fixed when it opens: the full lab, or the minimal frame for an iframe. */
export type PageMode = 'lab' | 'embed';

/** Text sizes in presenter mode, smallest first; the first already makes every label at least 20 px at 1280×720. */
export const PRESENT_TEXT_SCALES = [1, 1.15, 1.3] as const;

export interface PresentSlice {
  readonly pageMode: PageMode;
  readonly presenting: boolean;
  /** Presenter mode with the side panels brought back. */
  readonly presentPanels: boolean;
  /** Index into PRESENT_TEXT_SCALES. */
  readonly presentText: number;
  /** The projector shows black (a remote's B key). */
  readonly blank: boolean;
  readonly pauseAtLandmarks: boolean;
  /** "Slow around events": the worker slows down before each landmark (src/worker/pacing.ts). */
  readonly slowAroundEvents: boolean;
  setPresent(
    change: Partial<
      Pick<PresentSlice, 'presenting' | 'presentPanels' | 'presentText' | 'blank' | 'pauseAtLandmarks' | 'slowAroundEvents' | 'pageMode'>
    >,
  ): void;
}

export const presentSlice = (set: StoreApi<LabState>['setState']): PresentSlice => ({
  pageMode: 'lab',
  presenting: false,
  presentPanels: false,
  presentText: 0,
  blank: false,
  pauseAtLandmarks: false,
  slowAroundEvents: false,
  setPresent: (change) =>
    set((s) => {
      const next = { ...change };
      if (next.presentText !== undefined)
        next.presentText = Math.max(0, Math.min(PRESENT_TEXT_SCALES.length - 1, Math.round(next.presentText)));
      // Leaving presenter mode also lifts a blank screen.
      if (next.presenting === false || (next.presenting === undefined && !s.presenting)) next.blank = false;
      return next;
    }),
});
