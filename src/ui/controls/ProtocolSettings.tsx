/**
 * Settings ▸ Protocol: one checkbox per protocol feature (src/sim/features.ts), each with what
 * it does and the dissertation's section. A change starts a new run with the same schedule,
 * replayed to now, as the bugs menu does; the link carries it (`features=`). Turning a feature
 * off turns its bugs off too, since they mean nothing without it.
 */
import { memo, useState } from 'react';
import { BUG_FEATURE, featuresOf, type SimConfig } from '../../sim/config';
import { FEATURES, canonicalFeatures, type FeatureName } from '../../sim/features';
import { useBridge, useLab } from '../labContext';
import { selectConfig, selectLabel, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { SnapshotThreshold } from './SnapshotThreshold';

export const ProtocolSettings = memo(function ProtocolSettings() {
  const bridge = useBridge();
  const config = useLab(selectConfig);
  const schedule = useLab(selectSchedule);
  const now = useLab(selectNow);
  const playing = useLab(selectPlaying);
  const label = useLab(selectLabel);
  // The boxes show what was asked for until the new run arrives from the worker.
  const [asked, setAsked] = useState<{ from: SimConfig; features: readonly FeatureName[] } | null>(null);
  const on = asked && asked.from === config ? asked.features : featuresOf(config);
  const toggle = (name: FeatureName, checked: boolean) => {
    const features = canonicalFeatures(checked ? [...on, name] : on.filter((f) => f !== name));
    setAsked({ from: config, features });
    const bugs = config.bugs.filter((b) => {
      const needs = BUG_FEATURE[b];
      return needs === undefined || features.includes(needs);
    });
    bridge.load({ ...config, features, bugs }, schedule, { startAtMs: now, playing, label: label ?? 'custom' });
  };
  return (
    <fieldset className="protocol-settings" data-testid="protocol-settings">
      <legend>Protocol</legend>
      <p className="hint">Production Raft’s additions, each off by default (off is the chapter’s Raft, draw for draw). A change starts a new run replayed to t = {now} ms.</p>
      {FEATURES.map((f) => (
        <label key={f.name} className="feature-option">
          <input type="checkbox" checked={on.includes(f.name)} onChange={(e) => toggle(f.name, e.target.checked)} data-feature={f.name} />
          <span>
            <strong>{f.title}</strong> <span className="muted">({f.section}, <code>{f.name}</code>)</span> — {f.explanation}
          </span>
        </label>
      ))}
      {on.includes('snapshots') && <SnapshotThreshold />}
    </fieldset>
  );
});
