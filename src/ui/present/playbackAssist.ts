/**
 * "Pause at landmarks" (a toggle in presenter mode): playback stops on each landmark it reaches
 * (an election, a crash, a partition… the scrubber's marks), landing exactly on the landmark's
 * time. It watches the store from the page; the worker just sees pause and seek commands.
 * ("Slow around events" runs in the worker, which sees landmarks coming: src/worker/pacing.ts.)
 */
import type { LandmarkView } from '../../worker/protocol';
import type { HostBridge } from '../bridge/hostBridge';

/** The first landmark after `fromMs` and at or before `toMs`, or null. */
export function landmarkCrossed(marks: readonly LandmarkView[], fromMs: number, toMs: number): number | null {
  let first: number | null = null;
  for (const m of marks) if (m.t > fromMs && m.t <= toMs && (first === null || m.t < first)) first = m.t;
  return first;
}

export function startPlaybackAssist(bridge: HostBridge): () => void {
  const store = bridge.store;
  /** Landmarks at or before this time have been passed (or stopped at) already. */
  let watermark = store.getState().frame.snapshot?.now ?? 0;
  let runId = store.getState().frame.runId;

  return store.subscribe((s) => {
    const f = s.frame;
    const now = f.snapshot?.now ?? 0;
    if (f.runId !== runId) {
      runId = f.runId;
      watermark = now;
    }
    if (f.playing && s.pauseAtLandmarks) {
      const t = landmarkCrossed(s.landmarks, watermark, now);
      if (t !== null) {
        watermark = t;
        bridge.pause();
        if (t !== now) bridge.seek(t);
        return;
      }
    }
    watermark = now;
  });
}
