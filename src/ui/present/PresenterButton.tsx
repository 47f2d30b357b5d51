/** The button that enters presenter mode from the normal page; the mode itself (PresenterView.tsx) loads on demand (App.tsx). */
import { memo } from 'react';
import { useLabStore } from '../labContext';
import { presenterView } from '../lazyViews';

export const PresenterButton = memo(function PresenterButton() {
  const store = useLabStore();
  return (
    <button
      type="button"
      className="presenter-enter"
      onClick={() => store.getState().setPresent({ presenting: true })}
      onPointerEnter={() => void presenterView.preload()}
      onFocus={() => void presenterView.preload()}
      aria-keyshortcuts="P"
      title="Presenter mode: the diagram fills the window at projector sizes (P)"
    >
      Present
    </button>
  );
});
