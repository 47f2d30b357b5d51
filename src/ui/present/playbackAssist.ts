/**
 * Two aids so a class can follow every message, each a toggle in presenter mode:
 * - pause at landmarks: playback stops on each landmark it reaches (an election, a crash, a
 *   partition… the scrubber's marks), landing exactly on the landmark's time;
 * - slow around events: within SLOW_WINDOW_MS of simulated time around a landmark, playback runs
 *   at SLOW_FACTOR of the chosen speed, and the chosen speed comes back after (and on pause).
 * Both watch the store from the page; the worker just sees pause/seek/speed commands.
 */
import { MIN_SPEED } from '../../sim/model/limits';
import type { LandmarkView } from '../../worker/protocol';
import type { HostBridge } from '../bridge/hostBridge';

/** How near (simulated ms) to a landmark playback slows down. */
export const SLOW_WINDOW_MS = 150;
/** How much it slows down there. */
export const SLOW_FACTOR = 0.25;

/** The first landmark after `fromMs` and at or before `toMs`, or null. */
export function landmarkCrossed(marks: readonly LandmarkView[], fromMs: number, toMs: number): number | null {
  let first: number | null = null;
  for (const m of marks) if (m.t > fromMs && m.t <= toMs && (first === null || m.t < first)) first = m.t;
  return first;
}

/** Whether `nowMs` is within `windowMs` of a landmark. */
export function nearLandmark(marks: readonly LandmarkView[], nowMs: number, windowMs = SLOW_WINDOW_MS): boolean {
  return marks.some((m) => Math.abs(m.t - nowMs) <= windowMs);
}

/** The speed to play at: the chosen one, or slowed near a landmark (never below the page's minimum). */
export function assistedSpeed(chosen: number, near: boolean): number {
  return near ? Math.max(MIN_SPEED, Math.round(chosen * SLOW_FACTOR * 1000) / 1000) : chosen;
}

export function startPlaybackAssist(bridge: HostBridge): () => void {
  const store = bridge.store;
  /** Landmarks at or before this time have been passed (or stopped at) already. */
  let watermark = store.getState().frame.snapshot?.now ?? 0;
  let runId = store.getState().frame.runId;
  /** The speed the person chose, and the slowed speed this set (null while not slowed). */
  let chosen = store.getState().frame.speed;
  let slowedTo: number | null = null;

  const unsubscribe = store.subscribe((s) => {
    const f = s.frame;
    const now = f.snapshot?.now ?? 0;
    if (f.runId !== runId) {
      runId = f.runId;
      watermark = now;
    }
    // A speed this did not set is the person's (or a tour's) choice.
    if (slowedTo === null || f.speed !== slowedTo) {
      if (slowedTo !== null && f.speed !== slowedTo) {
        slowedTo = null;
        if (s.slowedFrom !== null) s.setPresent({ slowedFrom: null });
      }
      chosen = f.speed;
    }

    if (!f.playing) {
      watermark = now;
    } else if (s.pauseAtLandmarks) {
      const t = landmarkCrossed(s.landmarks, watermark, now);
      if (t !== null) {
        watermark = t;
        bridge.pause();
        if (t !== now) bridge.seek(t);
        return;
      }
      watermark = now;
    } else {
      watermark = now;
    }

    const near = f.playing && s.slowAroundEvents && nearLandmark(s.landmarks, now);
    if (near && slowedTo === null) {
      const slow = assistedSpeed(chosen, true);
      if (slow !== chosen) {
        slowedTo = slow;
        // The speed first: this listener runs again inside each of these calls.
        bridge.setSpeed(slow);
        store.getState().setPresent({ slowedFrom: chosen });
      }
    } else if (!near && slowedTo !== null) {
      slowedTo = null;
      bridge.setSpeed(chosen);
      store.getState().setPresent({ slowedFrom: null });
    }
  });
  return () => {
    unsubscribe();
    if (slowedTo !== null) {
      bridge.setSpeed(chosen);
      store.getState().setPresent({ slowedFrom: null });
    }
  };
}
