/** Space plays or pauses; → steps 1 ms, shift+→ to the next event; ← steps back 1 ms. */
import { useEffect } from 'react';
import type { HostBridge } from './bridge/hostBridge';

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

export function handleShortcut(e: KeyboardEvent, bridge: HostBridge): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || typingInto(e.target)) return false;
  const target = e.target instanceof Element ? e.target : null;
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
      const now = bridge.store.getState().snapshot?.now ?? 0;
      bridge.pause();
      bridge.seek(Math.max(0, now - (e.shiftKey ? 10 : 1)));
      return true;
    }
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
