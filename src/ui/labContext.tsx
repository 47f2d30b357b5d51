/** Hands the store and the worker bridge to components; tests pass their own. */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { HostBridge } from './bridge/hostBridge';
import type { LabState, LabStore } from './store/labStore';

interface Lab {
  readonly store: LabStore;
  readonly bridge: HostBridge;
}

const LabContext = createContext<Lab | null>(null);

export function LabProvider({ store, bridge, children }: Lab & { children: ReactNode }) {
  return <LabContext.Provider value={{ store, bridge }}>{children}</LabContext.Provider>;
}

function useLabContext(): Lab {
  const lab = useContext(LabContext);
  if (!lab) throw new Error('LabProvider is missing above this component.');
  return lab;
}

export function useLab<T>(selector: (s: LabState) => T): T {
  return useStore(useLabContext().store, selector);
}

/** How far apart (real ms) the panels beside the ring catch up with a playing run. */
export const PANEL_INTERVAL_MS = 100;

/** What a playing run changes every frame; a change to anything else reaches the panels at once. */
const PLAYBACK_KEYS: ReadonlySet<string> = new Set(['frame', 'events', 'eventsBase', 'details', 'trace', 'landmarks']);

function onlyPlayback(s: LabState, prev: LabState): boolean {
  if (!s.frame.playing || !prev.frame.playing || s.frame.runId !== prev.frame.runId) return false;
  for (const key in s) if (s[key as keyof LabState] !== prev[key as keyof LabState] && !PLAYBACK_KEYS.has(key)) return false;
  return true;
}

type StoreView = Pick<StoreApi<LabState>, 'getState' | 'getInitialState' | 'subscribe'>;

/**
 * A view of `source` whose subscribers hear of a change `wait(s, prev, lastNotified)` ms after
 * it (at once for 0 or less); changes meanwhile ride along with the pending notice, which
 * carries the state as it is when it fires.
 */
function derivedView(source: StoreView, wait: (s: LabState, prev: LabState, last: number) => number): StoreView {
  const listeners = new Set<(s: LabState, prev: LabState) => void>();
  let shown = source.getState();
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = -Infinity;
  const notify = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    last = performance.now();
    const prev = shown;
    shown = source.getState();
    for (const listener of [...listeners]) listener(shown, prev);
  };
  const onChange = (s: LabState, prev: LabState) => {
    const ms = wait(s, prev, last);
    if (ms <= 0) notify();
    else if (timer === null) timer = setTimeout(notify, ms);
  };
  return {
    getState: source.getState,
    getInitialState: source.getInitialState,
    subscribe(listener) {
      listeners.add(listener);
      if (unsubscribe === null) {
        shown = source.getState();
        unsubscribe = source.subscribe(onChange);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        unsubscribe?.();
        unsubscribe = null;
        if (timer !== null) clearTimeout(timer);
        timer = null;
      };
    },
  };
}

/**
 * The store as the panels see it: the same state, but while a run plays its per-frame snapshots
 * wake subscribers at most every PANEL_INTERVAL_MS (the last one always arrives). Pausing, a
 * seek, a new run or any change a person makes wakes them at once. The ring, the clock and the
 * scrubber follow every frame; text and tables beside them cannot be read at 60 changes a
 * second, and re-rendering, laying out and painting them that often was most of a frame's cost.
 */
export function throttledView(store: StoreView, intervalMs: number): StoreView {
  return derivedView(store, (s, prev, last) => (onlyPlayback(s, prev) ? last + intervalMs - performance.now() : 0));
}

/**
 * `source` as a later reader sees it: a playing run's catch-ups arrive `lagMs` after the
 * source's (with the state as it is then); anything else arrives at once, as from the source.
 */
export function laggedView(source: StoreView, lagMs: number): StoreView {
  return derivedView(source, (s, prev) => (onlyPlayback(s, prev) ? lagMs : 0));
}

const panelViews = new WeakMap<LabStore, StoreView>();
const logViews = new WeakMap<LabStore, StoreView>();

function panelView(store: LabStore): StoreView {
  let view = panelViews.get(store);
  if (!view) panelViews.set(store, (view = throttledView(store, PANEL_INTERVAL_MS)));
  return view;
}

/**
 * The event log's catch-up comes half an interval after the other panels': at 9 nodes it adds
 * ~20 lines a turn, the tabs beside it re-render their logs, and the two together in one task
 * (and one layout) were what made a playing page miss frames; apart, each fits in a frame.
 */
export const LOG_PHASE_MS = PANEL_INTERVAL_MS / 2;

/** useLab for panels and status text beside the ring: see throttledView. */
export function useLabPanel<T>(selector: (s: LabState) => T): T {
  return useStore(panelView(useLabContext().store), selector);
}

/** useLabPanel for the event log: the same catch-up, LOG_PHASE_MS after the other panels'. */
export function useLabLog<T>(selector: (s: LabState) => T): T {
  const store = useLabContext().store;
  let view = logViews.get(store);
  if (!view) logViews.set(store, (view = laggedView(panelView(store), LOG_PHASE_MS)));
  return useStore(view, selector);
}

export function useLabStore(): LabStore {
  return useLabContext().store;
}

export function useBridge(): HostBridge {
  return useLabContext().bridge;
}
