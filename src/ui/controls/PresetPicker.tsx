/** The presets with their blurbs: a teacher's table of contents. */
import { memo } from 'react';
import { useBridge, useLab } from '../labContext';
import { ALL_PRESETS, presetRun } from '../runs';
import { selectLabel, selectSpeed } from '../store/selectors';

export const PresetPicker = memo(function PresetPicker() {
  const bridge = useBridge();
  const label = useLab(selectLabel);
  const speed = useLab(selectSpeed);
  const current = ALL_PRESETS.find((p) => p.name === label);
  return (
    <div className="preset-picker">
      <label>
        Scenario
        <select
          value={current?.name ?? ''}
          onChange={(e) => {
            const preset = ALL_PRESETS.find((p) => p.name === e.target.value);
            if (!preset) return;
            const run = presetRun(preset, speed);
            bridge.load(run.config, run.schedule, { stopAtMs: run.stopAtMs, playing: true, label: run.label });
          }}
        >
          {!current && <option value="">(custom run)</option>}
          {ALL_PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
});

export const PresetBlurb = memo(function PresetBlurb() {
  const label = useLab(selectLabel);
  const preset = ALL_PRESETS.find((p) => p.name === label);
  if (label === 'counterexample') {
    return (
      <p className="blurb" data-testid="preset-blurb">
        <strong>A counterexample.</strong> The fuzzer found this run and shrank its schedule; it stops where an invariant first fails. Step back through it, or
        switch the bug off to see the same schedule hold.
      </p>
    );
  }
  if (!preset) return <p className="blurb">A custom run: your settings and schedule.</p>;
  return (
    <p className="blurb" data-testid="preset-blurb">
      <strong>{preset.title}.</strong> {preset.blurb}
    </p>
  );
});
