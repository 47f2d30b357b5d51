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
import { MAX_SPEED } from '../sim/model/limits';
import type { LabState } from './store/labStore';
import type { TourPlace } from '../share/link';

/** A beat plays in about this many real ms at most: long beats speed playback up to fit. */
export const BEAT_REAL_MS = 8000;

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
  store.getState().setTour({ name: place.name, beat: beat.number }, h && 'node' in h ? h.node : h && 'client' in h ? h.client : null);
  if (h && 'panel' in h) store.getState().setSideTab(h.panel);
  if (how === 'play') {
    const speed = store.getState().frame.speed;
    const fit = Math.min(MAX_SPEED, (beat.endMs - beat.startMs) / BEAT_REAL_MS);
    if (fit > speed) bridge.setSpeed(fit);
    bridge.load(beat.config, beat.lineSchedule, { startAtMs: beat.startMs, stopAtMs: beat.endMs, playing: true, label: place.name });
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
