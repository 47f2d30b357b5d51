/** Ring, both, or space-time: what the diagram pane shows (a radio group; the choice goes into links). */
import { memo, type KeyboardEvent } from 'react';
import { useLab, useLabStore } from '../labContext';
import { MAIN_VIEWS, type MainView } from '../store/labStore';
import { selectMainView } from '../store/selectors';
import { spaceTime } from '../lazyViews';

// The pointer on its way to "Ring + time" or "Space-time": fetch the view now (lazyViews.ts).
const preload = () => void spaceTime.preload();

const TITLES: Record<MainView, { label: string; title: string }> = {
  ring: { label: 'Ring', title: 'The cluster as a ring: who is up, who leads, messages in flight' },
  split: { label: 'Ring + time', title: 'The ring beside the space-time diagram' },
  time: { label: 'Space-time', title: 'The run over time: one lane per node, client and store, every message an arrow' },
};

export const ViewSwitch = memo(function ViewSwitch() {
  const view = useLab(selectMainView);
  const store = useLabStore();
  const choose = (v: MainView) => store.getState().setMainView(v);
  const onKeyDown = (e: KeyboardEvent) => {
    const i = MAIN_VIEWS.indexOf(view);
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    e.stopPropagation();
    const next = MAIN_VIEWS[(i + step + MAIN_VIEWS.length) % MAIN_VIEWS.length];
    choose(next);
    document.getElementById(`view-${next}`)?.focus();
  };
  return (
    <div
      className="view-switch"
      role="radiogroup"
      aria-label="Diagram view"
      onKeyDown={onKeyDown}
      onPointerEnter={preload}
      onFocus={preload}
    >
      {MAIN_VIEWS.map((v) => (
        <button
          key={v}
          id={`view-${v}`}
          type="button"
          role="radio"
          aria-checked={v === view}
          tabIndex={v === view ? 0 : -1}
          title={TITLES[v].title}
          onClick={() => choose(v)}
        >
          {TITLES[v].label}
        </button>
      ))}
    </div>
  );
});
