/**
 * The run's configuration: seed, cluster size, timeouts, heartbeat, latency. Applying starts a
 * new run with the recorded schedule (the actions that still fit), replayed to the current time;
 * a bad value gets one sentence and the current run keeps going. The schedule has its own tab.
 */
import { memo, useState } from 'react';
import { configFromFields, lockOf, type SimConfig } from '../../sim/model/config';
import { lockServiceManifest } from '../../sim/model/lockServices';
import { formatMs } from '../../sim/model/network';
import { formatAction, type Action } from '../../sim/model/schedule';
import { useBridge, useLab, useLabPanel } from '../labContext';
import { selectConfig, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { FieldError } from './FieldError';
import { ProtocolSettings } from './ProtocolSettings';
import { LockServiceSettings } from './LockServiceSettings';
import { DetectorSettings } from './DetectorSettings';
import { keepValidActions } from './keepValidActions';
import { configWarning } from '../../sim/run/scheduleWarnings';

export { keepValidActions };

function SettingsForm({
  config,
  schedule,
  problem,
  setProblem,
}: {
  config: SimConfig;
  schedule: readonly Action[];
  problem: string | null;
  setProblem: (p: string | null) => void;
}) {
  const bridge = useBridge();
  const now = useLabPanel(selectNow);
  const playing = useLab(selectPlaying);
  const [f, setF] = useState({
    seed: String(config.seed),
    nodes: String(config.nodeIds.length),
    timeout: config.electionTimeoutMs.join('-'),
    heartbeat: String(config.heartbeatMs),
    latency: config.latencyMs.join('-'),
    // Issue 28, Figure 16: a server's disk write before it replies; empty is none.
    persist: config.persistMs !== undefined ? formatMs(config.persistMs) : '',
  });
  const field = (name: keyof typeof f) => ({
    value: f[name],
    onChange: (e: { target: { value: string } }) => setF({ ...f, [name]: e.target.value }),
  });
  // Legal but hopeless settings (no leader can ever be elected) get a sentence as they are typed.
  const typed = configFromFields(config, f);
  const warning = typeof typed === 'string' ? null : configWarning(typed);
  const apply = () => {
    const next = configFromFields(config, f);
    if (typeof next === 'string') {
      setProblem(next);
      return;
    }
    setProblem(null);
    const { kept, dropped } = keepValidActions(schedule, next);
    bridge.load(next, kept, { startAtMs: now, playing, label: 'custom' });
    if (dropped.length > 0) {
      setProblem(
        `The new run leaves out ${dropped.length} recorded action${dropped.length === 1 ? '' : 's'} that name${dropped.length === 1 ? 's' : ''} nodes it does not have (${dropped.map(formatAction).join('; ')}).`,
      );
    }
  };
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <p className="hint">A new configuration starts a new run with the recorded schedule, replayed to t = {now} ms.</p>
      <div className="settings-grid">
        <label>
          Seed <input {...field('seed')} inputMode="numeric" size={8} />
        </label>
        <label>
          Nodes (1–9) <input {...field('nodes')} inputMode="numeric" size={3} />
        </label>
        <label>
          Election timeout ms <input {...field('timeout')} size={9} placeholder="150-300" />
        </label>
        <label>
          Heartbeat ms <input {...field('heartbeat')} inputMode="numeric" size={5} />
        </label>
        <label>
          Latency ms <input {...field('latency')} size={7} placeholder="5-15" />
        </label>
        <label title="A server's disk write before it replies (Raft's Figure 2: stable storage before responding). Empty: none.">
          Persist ms <input {...field('persist')} inputMode="decimal" size={5} placeholder="none" data-testid="settings-persist" />
        </label>
      </div>
      <div className="button-row">
        <button type="submit" className="primary">
          Apply configuration
        </button>
      </div>
      <FieldError problem={problem} testId="settings-error" />
      {warning !== null && (
        <p className="field-warning" data-testid="settings-warning" role="status">
          <span aria-hidden="true">⚠ </span>
          {warning}
        </p>
      )}
    </form>
  );
}

export const RunSettings = memo(function RunSettings() {
  const config = useLab(selectConfig);
  const schedule = useLab(selectSchedule);
  const [problem, setProblem] = useState<string | null>(null);
  // Re-seeded from the run whenever its configuration changes (a new load).
  return (
    <>
      <SettingsForm
        key={JSON.stringify(config, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}
        config={config}
        schedule={schedule}
        problem={problem}
        setProblem={setProblem}
      />
      {/* A Paxos run has no lock service: the Protocol section below switches it back to Raft first. */}
      {config.protocol === undefined && <LockServiceSettings />}
      {lockServiceManifest(lockOf(config)).raft && <ProtocolSettings />}
      {lockOf(config) === 'raft' && <DetectorSettings />}
    </>
  );
});
