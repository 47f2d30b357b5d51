/**
 * Keys for the whole page, whatever button has focus (not while typing in a text field or a
 * select, and not the keys the space-time view's focused frame uses for itself): space plays or
 * pauses; ←/→ step 1 ms; Shift+←/→ (or , and .) go to the previous/next event; [ and ] to the
 * previous/next landmark; Ctrl+Z undoes the last action and Ctrl+Shift+Z (or Ctrl+Y) redoes it;
 * Esc closes an open panel or menu, and with none open releases focus. While a tour is open,
 * → and ← (and PageDown/PageUp, which presenter remotes send) move between its beats instead.
 */
import { useEffect } from 'react';
import type { HostBridge } from './bridge/hostBridge';
import { selectNow } from './store/selectors';
import { tourNext, tourPrev } from './tour';

/** What the keyboard help lists, in order: every key the page answers. */
export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['Space', 'play / pause (whatever button has focus)'],
  ['→', 'forward 1 ms'],
  ['←', 'back 1 ms'],
  ['Shift+→  or  .', 'next event'],
  ['Shift+←  or  ,', 'previous event'],
  [']', 'next landmark'],
  ['[', 'previous landmark'],
  ['Ctrl+Z', 'undo the last action'],
  ['Ctrl+Shift+Z  or  Ctrl+Y', 'redo'],
  ['Enter', 'crash the focused node, or restart it if it is down (clicking it does the same)'],
  ['S', 'select the focused node for "Isolate selected", or unselect it (Shift-click does the same)'],
  ['?', 'why is this node what it is? (on a focused node; Alt-click works too)'],
  ['Esc', 'close the Why panel or an open menu; with none open, let go of focus so no button keeps it'],
  ['→ / ←  or  PageDown / PageUp', 'next / previous beat, while a tour is open'],
  ['↑ / ↓  or  PageUp / PageDown', 'pan the space-time view (when it has focus)'],
  ['+ / −', 'zoom the space-time view in / out (when it has focus)'],
  ['0', 'fit the whole run in the space-time view (when it has focus)'],
];

/** Input types whose keys are not text: Space and arrows go to the page from these. */
const NOT_TEXT = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'file', 'color', 'image']);

/** A field that takes typed keys: every shortcut but Esc leaves it alone. */
export function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  const field = target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
  if (field === null) return false;
  return !(field instanceof HTMLInputElement && NOT_TEXT.has(field.type));
}

/** Keys a control answers itself even from the page's point of view (a checkbox's space, a slider's arrows). */
function nativeKey(target: Element | null, key: string): boolean {
  if (!(target instanceof HTMLInputElement)) return false;
  if (key === ' ') return target.type === 'checkbox' || target.type === 'radio';
  if (key === 'ArrowLeft' || key === 'ArrowRight') return target.type === 'range' || target.type === 'radio';
  return false;
}

/** A panel or menu Esc closes is open: the Why panel, or a popover/menu whose button is expanded. */
export function panelOpen(bridge: HostBridge): boolean {
  if (bridge.store.getState().whySubject !== null) return true;
  return typeof document !== 'undefined' && document.querySelector('[aria-expanded="true"]') !== null;
}

/**
 * Esc, looked at before anything else answers it: an open panel closes itself (as it always
 * has); with none open, the focused element lets go of focus. Returns whether it blurred.
 */
export function handleEscape(e: KeyboardEvent, bridge: HostBridge): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
  if (panelOpen(bridge)) return false;
  const active = document.activeElement;
  if (active === null || active === document.body) return false;
  if (active instanceof HTMLElement || active instanceof SVGElement) active.blur();
  return true;
}

export function handleShortcut(e: KeyboardEvent, bridge: HostBridge): boolean {
  // A key a component already answered (a node's Enter, the space-time view's ↑/↓/+/−/0) is its own.
  if (e.defaultPrevented || e.altKey || typingInto(e.target)) return false;
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
  if (nativeKey(target, e.key)) return false;
  const inTabs = target?.closest('[role="tab"]') != null;
  if (bridge.store.getState().tour !== null && !e.shiftKey && !inTabs) {
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
      // Also on a focused button: the caller's preventDefault keeps the button from being pressed too.
      if (!e.repeat) bridge.togglePlay();
      return true;
    case 'ArrowRight':
      if (inTabs) return false;
      if (e.shiftKey) bridge.stepToNextEvent();
      else bridge.stepMs(1);
      return true;
    case 'ArrowLeft': {
      if (inTabs) return false;
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

/** `active` false (the Experiments view is open over the run): the run's keys do nothing. */
export function useKeyboardShortcuts(bridge: HostBridge, active = true): void {
  useEffect(() => {
    if (!active) return;
    let spaceTaken = false;
    const onKey = (e: KeyboardEvent) => {
      const taken = handleShortcut(e, bridge);
      if (e.key === ' ') spaceTaken = taken;
      if (taken) e.preventDefault();
    };
    // Some browsers press a focused button on Space's keyup: once Space played or paused, that is all it does.
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key !== ' ' || !spaceTaken) return;
      spaceTaken = false;
      e.preventDefault();
    };
    // Esc is looked at on the way down, before a panel's own handler closes it.
    const onEscape = (e: KeyboardEvent) => {
      handleEscape(e, bridge);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('keydown', onEscape, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('keydown', onEscape, true);
    };
  }, [bridge, active]);
}
