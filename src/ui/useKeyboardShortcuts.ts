/**
 * Keys for the whole page (not while typing in a field): space plays or pauses; ←/→ step 1 ms;
 * Shift+←/→ (or , and .) go to the previous/next event; [ and ] to the previous/next landmark;
 * Ctrl+Z undoes the last action and Ctrl+Shift+Z (or Ctrl+Y) redoes it. While a tour is open,
 * → and ← (and PageDown/PageUp, which presenter remotes send) move between its beats instead.
 */
import { useEffect } from 'react';
import type { HostBridge } from './bridge/hostBridge';
import { selectNow } from './store/selectors';
import { tourNext, tourPrev } from './tour';

/** What the keyboard help lists, in order. */
export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['Space', 'play / pause'],
  ['→', 'forward 1 ms'],
  ['←', 'back 1 ms'],
  ['Shift+→  or  .', 'next event'],
  ['Shift+←  or  ,', 'previous event'],
  [']', 'next landmark'],
  ['[', 'previous landmark'],
  ['Ctrl+Z', 'undo the last action'],
  ['Ctrl+Shift+Z  or  Ctrl+Y', 'redo'],
  ['?', 'why is this node what it is? (on a focused node; Alt-click works too)'],
  ['Esc', 'close the Why panel'],
  ['→ / ←  or  PageDown / PageUp', 'next / previous beat, while a tour is open'],
];

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

export function handleShortcut(e: KeyboardEvent, bridge: HostBridge): boolean {
  if (e.altKey || typingInto(e.target)) return false;
  if (e.ctrlKey || e.metaKey) {
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) {
      bridge.undo();
      return true;
    }
    if ((key === 'z' && e.shiftKey) || key === 'y') {
      bridge.redo();
      return true;
    }
    return false;
  }
  const target = e.target instanceof Element ? e.target : null;
  if (bridge.store.getState().tour !== null && !e.shiftKey && !target?.closest('[role="tab"]')) {
    if (e.key === 'ArrowRight' || e.key === 'PageDown') {
      tourNext(bridge);
      return true;
    }
    if (e.key === 'ArrowLeft' || e.key === 'PageUp') {
      tourPrev(bridge);
      return true;
    }
  }
  switch (e.key) {
    case ' ':
      // A focused button answers space itself.
      if (target?.closest('button, summary, [role="tab"]')) return false;
      bridge.togglePlay();
      return true;
    case 'ArrowRight':
      if (target?.closest('[role="tab"]')) return false;
      if (e.shiftKey) bridge.stepToNextEvent();
      else bridge.stepMs(1);
      return true;
    case 'ArrowLeft': {
      if (target?.closest('[role="tab"]')) return false;
      if (e.shiftKey) {
        bridge.stepToPreviousEvent();
        return true;
      }
      const now = selectNow(bridge.store.getState());
      bridge.pause();
      bridge.seek(Math.max(0, now - 1));
      return true;
    }
    case '.':
    case '>':
      bridge.stepToNextEvent();
      return true;
    case ',':
    case '<':
      bridge.stepToPreviousEvent();
      return true;
    case ']':
      bridge.jumpToLandmark(1);
      return true;
    case '[':
      bridge.jumpToLandmark(-1);
      return true;
    default:
      return false;
  }
}

export function useKeyboardShortcuts(bridge: HostBridge): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (handleShortcut(e, bridge)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [bridge]);
}
