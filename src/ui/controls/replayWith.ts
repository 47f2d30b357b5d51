/**
 * A new run with another configuration, the same schedule, replayed to the time on screen and
 * playing if the run was: what the Settings boxes (protocol features, snapshot threshold) and
 * the bugs menu do. The schedule, time, playing state and label are read when it is called, so
 * the controls need not re-render with every frame of a playing run to have them.
 */
import { useCallback } from 'react';
import type { SimConfig } from '../../sim/model/config';
import { useBridge, useLabStore } from '../labContext';
import { selectLabel, selectNow, selectPlaying, selectSchedule } from '../store/selectors';

export function useReplayWith(): (config: SimConfig) => void {
  const bridge = useBridge();
  const store = useLabStore();
  return useCallback(
    (config: SimConfig) => {
      const s = store.getState();
      bridge.load(config, selectSchedule(s), { startAtMs: selectNow(s), playing: selectPlaying(s), label: selectLabel(s) ?? 'custom' });
    },
    [bridge, store],
  );
}
