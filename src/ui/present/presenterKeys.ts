/**
 * Presenter keys (not while typing in a field): P enters or leaves presenter mode. In presenter
 * mode, what presenter remotes send: PageDown / → for the next beat (or the next landmark when no
 * tour is open), PageUp / ← for the previous one, B to blank the screen, and Esc to lift the blank;
 * − and + slow playback down and speed it up, a speed choice at a time.
 * Listens in the capture phase so these keys win over the page's own shortcuts in presenter mode.
 */
import { useEffect } from 'react';
import type { HostBridge } from '../bridge/hostBridge';
import { SPEED_CHOICES } from '../../sim/model/limits';
import { presentNext, presentPrev, toggleBlank } from './actions';
// A checkbox or a button with focus (the tour's slow motion, Pause at landmarks) takes no letters: P still works.
import { typingInto } from '../useKeyboardShortcuts';

export const PRESENTER_SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['P', 'presenter mode on / off'],
  ['PageDown  or  →', 'next beat (next landmark without a tour), in presenter mode'],
  ['PageUp  or  ←', 'previous beat (previous landmark), in presenter mode'],
  ['B', 'blank the screen, in presenter mode (B or Esc brings it back)'],
  ['−  and  +', 'slower and faster, in presenter mode'],
];

/** The speed choice next to `speed`, one step slower (-1) or faster (+1). */
export function nextSpeed(speed: number, direction: 1 | -1): number {
  if (direction > 0) return SPEED_CHOICES.find((c) => c > speed + 1e-9) ?? SPEED_CHOICES[SPEED_CHOICES.length - 1];
  return [...SPEED_CHOICES].reverse().find((c) => c < speed - 1e-9) ?? SPEED_CHOICES[0];
}

export function handlePresenterKey(e: KeyboardEvent, bridge: HostBridge): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || typingInto(e.target)) return false;
  const s = bridge.store.getState();
  if (s.pageMode !== 'lab') return false;
  const key = e.key;
  if ((key === 'p' || key === 'P') && !s.blank) {
    s.setPresent({ presenting: !s.presenting });
    return true;
  }
  if (!s.presenting) return false;
  if (key === 'b' || key === 'B') {
    toggleBlank(bridge);
    return true;
  }
  if (key === 'Escape' && s.blank) {
    s.setPresent({ blank: false });
    return true;
  }
  if (key === '-' || key === '_' || key === '+' || key === '=') {
    bridge.setSpeed(nextSpeed(s.frame.speed, key === '-' || key === '_' ? -1 : 1));
    return true;
  }
  if (e.shiftKey) return false;
  // Arrows still move between the panels' tabs when one has focus.
  if ((key === 'ArrowRight' || key === 'ArrowLeft') && e.target instanceof Element && e.target.closest('[role="tab"]')) return false;
  if (key === 'PageDown' || key === 'ArrowRight') {
    presentNext(bridge);
    return true;
  }
  if (key === 'PageUp' || key === 'ArrowLeft') {
    presentPrev(bridge);
    return true;
  }
  return false;
}

export function usePresenterKeys(bridge: HostBridge, active = true): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!handlePresenterKey(e, bridge)) return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [bridge, active]);
}
