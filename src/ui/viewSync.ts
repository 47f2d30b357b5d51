/**
 * Keeps the diagram pane's view in step with the run: a run that reproduces a chapter figure
 * (the `chapter` and `fencing` presets, and their tours) opens with the space-time view beside the
 * ring, on the figure's window and lanes, unless its link chose a view. The trace streams from the
 * worker only while a space-time view is on screen.
 */
import type { HostBridge } from './bridge/hostBridge';
import { ALL_PRESETS, defaultViewFor } from './runs';
import type { LabState, LabStore, MainView } from './store/labStore';

/** Opens `label`'s figure (if it has one): the window and lanes to show. */
export function focusFigure(store: LabStore, label: string | null): boolean {
  const figure = ALL_PRESETS.find((p) => p.name === label)?.figure;
  if (!figure) return false;
  store.getState().focusSpacetime({
    fromMs: figure.fromMs,
    toMs: figure.toMs,
    lanes: figure.lanes,
    ...(figure.heartbeats ? { heartbeats: figure.heartbeats } : {}),
    ...(figure.compress ? { compress: true } : {}),
  });
  return true;
}

export function startViewSync(store: LabStore, bridge: HostBridge, linkView: MainView | undefined): () => void {
  let pendingLinkView = linkView;
  const onChange = (s: LabState, prev: LabState) => {
    if (s.frame.runId !== prev.frame.runId && s.frame.label !== prev.frame.label) {
      // A new scenario: its own view, or the one its link asked for (once, for the page's first run).
      const view = pendingLinkView ?? defaultViewFor(s.frame.label);
      pendingLinkView = undefined;
      if (view !== s.mainView) s.setMainView(view);
      // A tour frames its own beat (tour.ts); a preset opens on its figure.
      if (s.tour === null) focusFigure(store, s.frame.label);
    }
    if (s.mainView !== prev.mainView) bridge.setTraceStreaming(s.mainView !== 'ring');
  };
  const unsubscribe = store.subscribe(onChange);
  bridge.setTraceStreaming(store.getState().mainView !== 'ring');
  return unsubscribe;
}
