/**
 * The space-time view wired to the page: the worker's trace, the scrubber's time as the cursor,
 * a click to seek, an arrow to its Why panel, a brushed window to play; a chapter figure's window
 * and lanes when a preset asks (`spacetimeFocus`).
 */
import { memo, useCallback } from 'react';
import { useBridge, useLab, useLabStore } from '../labContext';
import { selectNow, selectSpacetimeFocus, selectTrace } from '../store/selectors';
import { SpaceTimeView } from './SpaceTimeView';

export const ConnectedSpaceTime = memo(function ConnectedSpaceTime() {
  const bridge = useBridge();
  const store = useLabStore();
  const trace = useLab(selectTrace);
  const now = useLab(selectNow);
  const focus = useLab(selectSpacetimeFocus);
  const onSeek = useCallback(
    (t: number) => {
      if (store.getState().frame.playing) bridge.pause();
      bridge.seek(Math.max(0, Math.round(t)));
    },
    [bridge, store],
  );
  const onMessage = useCallback(
    (id: number, sentAt: number) => {
      // A message is in flight from the millisecond it is sent: there its Why panel can answer.
      if (store.getState().frame.playing) bridge.pause();
      bridge.seek(sentAt);
      store.getState().askWhy({ kind: 'message', seq: id });
    },
    [bridge, store],
  );
  const onPlayWindow = useCallback((t0: number, t1: number) => bridge.playWindow(t0, t1), [bridge]);
  return (
    <SpaceTimeView
      // A new figure (or a new run's figure) opens the view afresh on its window and lanes.
      key={focus?.key ?? 0}
      trace={trace}
      nowMs={now}
      {...(focus ? { window: [focus.fromMs, focus.toMs] as const, ...(focus.lanes ? { lanes: focus.lanes } : {}) } : {})}
      {...(focus?.heartbeats ? { heartbeats: focus.heartbeats } : {})}
      {...(focus?.compress ? { compress: true } : {})}
      onSeek={onSeek}
      onMessage={onMessage}
      onPlayWindow={onPlayWindow}
    />
  );
});
