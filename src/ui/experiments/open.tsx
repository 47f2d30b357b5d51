/**
 * Whether the Experiments view is open, and its button: all of the view the page loads at once.
 * The view itself (its form, plots, store, the pool of workers and the experiment code) comes in
 * a chunk of its own the first time it opens (App.tsx). `#experiments` in the address opens it
 * at once (a course page can link to it).
 */
import { memo, useSyncExternalStore } from 'react';

let open = false;
const listeners = new Set<() => void>();

export function setExperimentsOpen(next: boolean): void {
  if (next === open) return;
  open = next;
  for (const listener of listeners) listener();
  // Leaving the view (Back, or a run opened from a plot) leaves its address too: a reload or a
  // copied address must not open the Experiments view over the run.
  if (!next && typeof location !== 'undefined' && location.hash === '#experiments')
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

export function experimentsOpen(): boolean {
  return open;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useExperimentsOpen(): boolean {
  return useSyncExternalStore(subscribe, experimentsOpen, experimentsOpen);
}

/** Boot: `#experiments` opens the view. */
export function openExperimentsFromHash(hash: string): void {
  if (hash === '#experiments') setExperimentsOpen(true);
}

/** Beside the view switch: opens the Experiments view (its own Back button returns). */
export const ExperimentsButton = memo(function ExperimentsButton({ onPointerEnter }: { onPointerEnter?: () => void }) {
  return (
    <button
      type="button"
      className="experiments-toggle"
      onClick={() => setExperimentsOpen(true)}
      onPointerEnter={onPointerEnter}
      onFocus={onPointerEnter}
      title="Sweep a parameter over many seeds and plot the results"
    >
      Experiments
    </button>
  );
});
