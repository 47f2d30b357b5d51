/** The presets with their blurbs: a teacher's table of contents. */
import { memo } from 'react';
import { useBridge, useLab } from '../labContext';
import { ALL_PRESETS, presetRun } from '../runs';
import { selectFork, selectLabel, selectSpeed } from '../store/selectors';
import { forkedLabel } from './ForkNotice';
import { TOUR_CATALOG, catalogTour } from '../../sim/teach/tours/catalog';
import { loadTours, openTourBeat, useTours } from '../tour';

// The pointer on the picker: fetch the tours now, as most scenarios open as one (tour.ts).
const preloadTours = () => void loadTours().catch(() => undefined);

/** Tours that are not a preset's: listed after the presets. */
const OTHER_TOURS = TOUR_CATALOG.filter((t) => !ALL_PRESETS.some((p) => p.name === t.name));
const TOUR_VALUE = 'tour:';

export const PresetPicker = memo(function PresetPicker() {
  const bridge = useBridge();
  const label = useLab(selectLabel);
  const speed = useLab(selectSpeed);
  // A run forked by an action in its past is no longer the scenario as written: the label says so.
  const fork = useLab(selectFork);
  const current = ALL_PRESETS.find((p) => p.name === label);
  const currentTour = current ? null : OTHER_TOURS.find((t) => t.name === label);
  const value = current?.name ?? (currentTour ? TOUR_VALUE + currentTour.name : '');
  return (
    <div className="preset-picker">
      <label>
        Scenario
        <select
          onPointerEnter={preloadTours}
          onFocus={preloadTours}
          value={value}
          onChange={(e) => {
            const chosen = e.target.value;
            // Every preset with a tour opens as its tour, at beat 1; the tours list opens the same way.
            const tourName = chosen.startsWith(TOUR_VALUE) ? chosen.slice(TOUR_VALUE.length) : catalogTour(chosen) ? chosen : null;
            // The tours load on demand (tour.ts): the run on screen stays until the tour's first beat replaces it.
            if (tourName !== null) {
              void openTourBeat(bridge, { name: tourName, beat: 1 }, 'play');
              return;
            }
            const preset = ALL_PRESETS.find((p) => p.name === chosen);
            if (!preset) return;
            bridge.store.getState().setTour(null);
            const run = presetRun(preset, speed);
            bridge.load(run.config, run.schedule, { stopAtMs: run.stopAtMs, playing: true, label: run.label });
          }}
        >
          {value === '' && <option value="">{forkedLabel('(custom run)', fork)}</option>}
          {ALL_PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name === value ? forkedLabel(p.title, fork) : p.title}
            </option>
          ))}
          <optgroup label="Guided tours">
            {OTHER_TOURS.map((t) => (
              <option key={t.name} value={TOUR_VALUE + t.name}>
                {TOUR_VALUE + t.name === value ? forkedLabel(`Tour: ${t.title}`, fork) : `Tour: ${t.title}`}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
    </div>
  );
});

export const PresetBlurb = memo(function PresetBlurb() {
  const label = useLab(selectLabel);
  // The picker is narrow: the blurb's title says in full that the run was forked.
  const fork = useLab(selectFork);
  // A tour's run is on screen only once the tours are loaded (tour.ts), so its intro is here by then.
  const tours = useTours().runs;
  const preset = ALL_PRESETS.find((p) => p.name === label);
  if (label === 'counterexample') {
    return (
      <p className="blurb" data-testid="preset-blurb">
        <strong>A counterexample.</strong> The fuzzer found this run and shrank its schedule; it stops where an invariant first fails. Step
        back through it, or switch the bug off to see the same schedule hold.
      </p>
    );
  }
  const tour = preset ? null : catalogTour(label ?? '');
  if (tour) {
    const intro = tours?.tourNamed(tour.name)?.tour.intro;
    return (
      <p className="blurb" data-testid="preset-blurb">
        <strong>{forkedLabel(tour.title, fork)}.</strong> {intro}
      </p>
    );
  }
  if (!preset) return <p className="blurb">A custom run: your settings and schedule.</p>;
  return (
    <p className="blurb" data-testid="preset-blurb">
      <strong>{forkedLabel(preset.title, fork)}.</strong> {preset.blurb}
    </p>
  );
});
