/**
 * Settings ▸ Protocol: one checkbox per protocol feature (src/sim/model/features/), each with what
 * it does and the dissertation's section. A change starts a new run with the same schedule,
 * replayed to now, as the bugs menu does; the link carries it (`features=`). Turning a feature
 * off turns its bugs off too, since they mean nothing without it.
 */
import { memo, useState } from 'react';
import { BUG_FEATURE, READ_MODES, featuresOf, readModeOf, type BugName, type ReadMode, type SimConfig } from '../../sim/model/config';
import { FEATURES, canonicalFeatures, type FeatureName } from '../../sim/model/features';
import { useLab, useLabPanel } from '../labContext';
import { selectConfig, selectNow } from '../store/selectors';
import { useReplayWith } from './replayWith';
import { SnapshotThreshold } from './SnapshotThreshold';

export const ProtocolSettings = memo(function ProtocolSettings() {
  const replayWith = useReplayWith();
  const config = useLab(selectConfig);
  // Only for the hint's "replayed to t = …": the panels' pace is enough.
  const now = useLabPanel(selectNow);
  // The boxes show what was asked for until the new run arrives from the worker.
  const [asked, setAsked] = useState<{ from: SimConfig; features: readonly FeatureName[] } | null>(null);
  const on = asked && asked.from === config ? asked.features : featuresOf(config);
  const toggle = (name: FeatureName, checked: boolean) => {
    const features = canonicalFeatures(checked ? [...on, name] : on.filter((f) => f !== name));
    setAsked({ from: config, features });
    const bugs = config.bugs.filter((b) => {
      const needs = BUG_FEATURE[b as BugName];
      return needs === undefined || features.includes(needs);
    });
    // A read mode means nothing without reads (the config check refuses it), so it goes with it.
    const { readMode, ...rest } = config;
    const next = features.includes('reads') && readMode !== undefined ? { ...rest, readMode } : rest;
    replayWith({ ...next, features, bugs });
  };
  const setReadMode = (mode: ReadMode) => {
    const { readMode: _old, ...rest } = config;
    // `log` is the default and is left out, as the link and the CLI leave it out.
    replayWith(mode === 'log' ? rest : { ...rest, readMode: mode });
  };
  return (
    <fieldset className="protocol-settings" data-testid="protocol-settings">
      <legend>Protocol</legend>
      <p className="hint">
        Production Raft’s additions, each off by default (off is the chapter’s Raft, draw for draw). A change starts a new run replayed to t
        = {now} ms.
      </p>
      {FEATURES.map((f) => (
        <label key={f.name} className="feature-option">
          <input type="checkbox" checked={on.includes(f.name)} onChange={(e) => toggle(f.name, e.target.checked)} data-feature={f.name} />
          <span>
            <strong>{f.title}</strong>{' '}
            <span className="muted">
              ({f.section}, <code>{f.name}</code>)
            </span>{' '}
            — {f.explanation}
          </span>
        </label>
      ))}
      {on.includes('snapshots') && <SnapshotThreshold />}
      {featuresOf(config).includes('reads') && (
        <label className="feature-option">
          <span>
            Read mode for a get that names none{' '}
            <select
              value={readModeOf(config)}
              onChange={(e) => setReadMode(e.target.value as ReadMode)}
              aria-label="Read mode"
              data-testid="read-mode"
            >
              {READ_MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>{' '}
            <span className="muted">
              log: through the log; read-index: a heartbeat round first (§6.4); lease: the leader’s lease (§6.4.1)
            </span>
          </span>
        </label>
      )}
    </fieldset>
  );
});
