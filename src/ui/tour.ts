/**
 * The guided tours, loaded on demand. The tours' narration and the runs that find where each
 * beat ends (tourRuns.ts, and through it the whole engine) are a third of the page's JavaScript
 * and only a person who opens a tour needs them, so they come in a chunk of their own the first
 * time a tour opens (the scenario picker, a `&tour=` link). Until then the catalog (names, titles,
 * beat counts) answers what a link and the picker ask. A tour is set in the store only once its
 * chunk is here, so everything that acts on an open tour (Next, Back, the tour bar, the link)
 * finds it loaded and stays synchronous.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { TourPlace } from '../share/link';
import type { ResolvedBeat, ResolvedTour } from '../sim/teach/tours/runner';
import type { HostBridge } from './bridge/hostBridge';
import type { LabState } from './store/labStore';

type TourRuns = typeof import('./tourRuns');

/** What the page says when the tours' chunk cannot be fetched (offline, or the site was updated under it). */
export const TOURS_UNAVAILABLE =
  'The guided tour could not be loaded: the page could not fetch its tours (is it offline?). The run on screen is unchanged; try again when the page is back online.';

export interface ToursState {
  /** The loaded module, or null until it is. */
  readonly runs: TourRuns | null;
  /** The tour being fetched, for the tour bar's placeholder; null when none is. */
  readonly loading: string | null;
}

let state: ToursState = { runs: null, loading: null };
let pending: Promise<TourRuns> | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<ToursState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** Fetches the tours' chunk once; a failed fetch may be tried again. */
export function loadTours(): Promise<TourRuns> {
  pending ??= import('./tourRuns').then(
    (runs) => {
      set({ runs });
      return runs;
    },
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tours' loading state, re-rendering when the chunk arrives. */
export function useTours(): ToursState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

/** The tour named `name` (null for none), fetching the tours if they are not here yet. */
export function useTourNamed(name: string | null): ResolvedTour | null {
  const { runs } = useTours();
  useEffect(() => {
    if (name !== null && runs === null) void loadTours().catch(() => undefined);
  }, [name, runs]);
  return name === null || runs === null ? null : runs.tourNamed(name);
}

/**
 * Shows beat `place.beat` once the tours are here ('play': from the previous beat's end to its
 * own, as Next and opening a tour do; 'land': paused at its end, as Back and a link do). Resolves
 * false for a tour that does not exist, or when the tours could not be fetched (then the error
 * banner says so and the run on screen stays).
 */
export async function openTourBeat(bridge: HostBridge, place: TourPlace, how: 'play' | 'land'): Promise<boolean> {
  set({ loading: place.name });
  try {
    const runs = await loadTours();
    return runs.openTourBeat(bridge, place, how);
  } catch {
    bridge.store.setState({ error: TOURS_UNAVAILABLE });
    return false;
  } finally {
    if (state.loading === place.name) set({ loading: null });
  }
}

export function tourNamed(name: string): ResolvedTour | null {
  return state.runs?.tourNamed(name) ?? null;
}

/** A beat of a loaded tour (null until the tours are here, or for no such beat). */
export function beatOf(place: TourPlace): ResolvedBeat | null {
  return state.runs?.beatOf(place) ?? null;
}

export function tourNext(bridge: HostBridge): boolean {
  return state.runs?.tourNext(bridge) ?? false;
}

export function tourPrev(bridge: HostBridge): boolean {
  return state.runs?.tourPrev(bridge) ?? false;
}

/** Closes the tour; a beat still playing goes on at the person's own speed. */
export function closeTour(bridge: HostBridge): void {
  const s = bridge.store.getState();
  s.setTour(null);
  if (s.frame.speed !== s.frame.chosenSpeed) bridge.setSpeed(s.frame.chosenSpeed);
}

/** The open tour's place, if the run on screen is still its beat's (a person's action forks it). */
export function tourPlaceOfRun(s: LabState): TourPlace | undefined {
  return s.tour === null ? undefined : state.runs?.tourPlaceOfRun(s);
}
