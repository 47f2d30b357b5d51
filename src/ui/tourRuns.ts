/**
 * Drives a guided tour over the worker: each beat is a run (its line's configuration and
 * schedule) played from where the previous beat ended and paused where this one ends; Back lands
 * on the previous beat's end, which is exact because a run is a pure function of its inputs.
 * Loaded on demand, with the tours' text: the page reaches it through tour.ts.
 */
import { resolvedTour, type ResolvedBeat, type ResolvedTour } from '../sim/teach/tours/runner';
import { findTour } from '../sim/teach/tours/tours';
import { formatSchedule } from '../sim/model/schedule';
import type { SimConfig } from '../sim/model/config';
import type { HostBridge } from './bridge/hostBridge';
import { pacePlan } from '../sim/teach/tours/pace';
import type { ShownPanel } from '../sim/teach/tours/types';
import type { LabState, LabStore, SideTab } from './store/labStore';
import type { TourPlace } from '../share/link';
import { ALL_PRESETS } from './runs';
import { tabForPreset } from './tabs';

/** The side tab for each panel a beat can name. */
const TAB_OF: Record<ShownPanel, SideTab> = {
  logs: 'logs',
  clients: 'clients',
  stores: 'stores',
  locks: 'locks',
  invariants: 'invariants',
  history: 'history',
};

/** Margin (a share of the beat's span) the space-time view keeps around a beat. */
const BEAT_FRAME_MARGIN = 0.08;
/** The shortest window the space-time view frames a beat in (simulated ms). */
const BEAT_FRAME_MIN_MS = 60;

/**
 * Frames the space-time view on a beat: its stretch of time with a margin either side (the
 * moment it ends is not on the bottom edge), on the chapter figure's lanes when the beat falls in
 * the figure's window (A, the lease service, B and the fenced store for the fencing story).
 */
export function frameBeat(store: LabStore, label: string, beat: ResolvedBeat): void {
  const span = Math.max(BEAT_FRAME_MIN_MS, beat.endMs - beat.startMs);
  const margin = Math.round(span * BEAT_FRAME_MARGIN);
  const fromMs = Math.max(0, beat.startMs - margin);
  const toMs = beat.startMs + span + margin;
  const figure = ALL_PRESETS.find((p) => p.name === label)?.figure;
  const onFigure = figure !== undefined && figure.fromMs < toMs && figure.toMs > fromMs;
  store.getState().focusSpacetime({
    fromMs,
    toMs,
    lanes: onFigure ? figure.lanes : null,
    ...(onFigure && figure.heartbeats ? { heartbeats: figure.heartbeats } : {}),
    ...(onFigure && figure.compress ? { compress: true } : {}),
  });
}

export function tourNamed(name: string): ResolvedTour | null {
  const tour = findTour(name);
  return tour === null ? null : resolvedTour(tour);
}

export function beatOf(place: TourPlace): ResolvedBeat | null {
  return tourNamed(place.name)?.beats[place.beat - 1] ?? null;
}

/**
 * Shows beat `place.beat`: 'play' loads its run from the previous beat's end and plays to its own
 * end (Next, opening a tour); 'land' loads it paused at its end (Back, a link).
 */
export function openTourBeat(bridge: HostBridge, place: TourPlace, how: 'play' | 'land'): boolean {
  const beat = beatOf(place);
  if (beat === null) return false;
  const store = bridge.store;
  const h = beat.beat.highlight;
  const entering = store.getState().tour?.name !== place.name;
  store.getState().setTour({ name: place.name, beat: beat.number }, h && 'node' in h ? h.node : h && 'client' in h ? h.client : null);
  // What the narration names is on screen: the panel it speaks of (the History tab, the logs…).
  // Else, entering the tour, the panel its story is about (the stores for the fencing story).
  const tab = beat.panel !== null ? TAB_OF[beat.panel] : entering ? tabForPreset(place.name) : null;
  if (tab !== null) store.getState().setSideTab(tab);
  frameBeat(store, place.name, beat);
  if (how === 'play') {
    // Fast through the wait, slow through the key moment (known before it comes), and back to the
    // person's own speed at the beat's end; a speed they pick meanwhile wins (pace.ts).
    const s = store.getState();
    const pace = pacePlan(beat.startMs, beat.endMs, s.tourSlowMotion ? beat.pace : null, s.frame.chosenSpeed);
    bridge.load(beat.config, beat.lineSchedule, { startAtMs: beat.startMs, stopAtMs: beat.endMs, playing: true, label: place.name, pace });
  } else {
    bridge.load(beat.config, beat.lineSchedule, { startAtMs: beat.endMs, stopAtMs: null, playing: false, label: place.name });
  }
  return true;
}

export function tourNext(bridge: HostBridge): boolean {
  const place = bridge.store.getState().tour;
  if (place === null) return false;
  const tour = tourNamed(place.name);
  if (tour === null || place.beat >= tour.beats.length) return false;
  return openTourBeat(bridge, { name: place.name, beat: place.beat + 1 }, 'play');
}

export function tourPrev(bridge: HostBridge): boolean {
  const place = bridge.store.getState().tour;
  if (place === null || place.beat <= 1) return false;
  return openTourBeat(bridge, { name: place.name, beat: place.beat - 1 }, 'land');
}

const configKey = (c: SimConfig) => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** The open tour's place, if the run on screen is still its beat's (a person's action forks it). */
export function tourPlaceOfRun(s: LabState): TourPlace | undefined {
  const place = s.tour;
  if (place === null) return undefined;
  const beat = beatOf(place);
  if (beat === null) return undefined;
  const f = s.frame;
  const same = configKey(f.config) === configKey(beat.config) && formatSchedule(f.schedule) === formatSchedule(beat.lineSchedule);
  return same ? place : undefined;
}
