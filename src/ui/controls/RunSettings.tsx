/**
 * The run's inputs: seed, cluster size, timeouts, heartbeat, latency and the schedule. Applying
 * restarts the run from t=0; a bad value gets one sentence and the current run keeps going.
 */
import { memo, useState } from 'react';
import { checkConfig, MAX_NODES, MIN_NODES, nodeIdsFor, parseRange, type SimConfig } from '../../sim/config';
import { parseSeed } from '../../sim/prng';
import { checkSchedule, parseSchedule, ScheduleError } from '../../sim/schedule';
import { useBridge, useLab } from '../labContext';
import { shareQuery } from '../runs';
import { selectConfig, selectNow, selectSchedule } from '../store/selectors';

export function configFromFields(base: SimConfig, f: { seed: string; nodes: string; timeout: string; heartbeat: string; latency: string }): SimConfig | string {
  const seed = parseSeed(f.seed.trim());
  if (typeof seed === 'string') return `The seed must be a non-negative whole number, not "${f.seed}".`;
  if (!/^\d{1,2}$/.test(f.nodes.trim()) || Number(f.nodes) < MIN_NODES || Number(f.nodes) > MAX_NODES) {
    return `A cluster has ${MIN_NODES} to ${MAX_NODES} nodes, not "${f.nodes}".`;
  }
  const timeout = parseRange(f.timeout, 'Election timeout');
  if (typeof timeout === 'string') return timeout;
  const latency = parseRange(f.latency, 'Latency');
  if (typeof latency === 'string') return latency;
  if (!/^\d{1,9}$/.test(f.heartbeat.trim())) return `The heartbeat interval must be a whole number of ms, not "${f.heartbeat}".`;
  const config: SimConfig = {
    ...base,
    seed: seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : f.seed.trim(),
    nodeIds: nodeIdsFor(Number(f.nodes)),
    electionTimeoutMs: timeout,
    heartbeatMs: Number(f.heartbeat),
    latencyMs: latency,
  };
  return checkConfig(config) ?? config;
}

function SettingsForm({ config, schedule }: { config: SimConfig; schedule: string }) {
  const bridge = useBridge();
  const now = useLab(selectNow);
  const [f, setF] = useState({
    seed: String(config.seed),
    nodes: String(config.nodeIds.length),
    timeout: config.electionTimeoutMs.join('-'),
    heartbeat: String(config.heartbeatMs),
    latency: config.latencyMs.join('-'),
    schedule,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const field = (name: keyof typeof f) => ({
    value: f[name],
    onChange: (e: { target: { value: string } }) => setF({ ...f, [name]: e.target.value }),
  });
  const apply = () => {
    const next = configFromFields(config, f);
    if (typeof next === 'string') {
      setProblem(next);
      return;
    }
    try {
      const problemInSchedule = checkSchedule(parseSchedule(f.schedule), next);
      if (problemInSchedule) {
        setProblem(problemInSchedule);
        return;
      }
    } catch (e) {
      setProblem(e instanceof ScheduleError ? e.message : String(e));
      return;
    }
    setProblem(null);
    bridge.load(next, f.schedule, { playing: true, label: 'custom' });
  };
  const copyLink = async () => {
    const url = `${location.origin}${location.pathname}${shareQuery(config, schedule, now)}`;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setProblem('The browser did not allow copying; the link is in the address bar now.');
    }
    history.replaceState(null, '', url);
  };
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
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
      </div>
      <label className="schedule-field">
        Schedule (every action you take is recorded here)
        <textarea {...field('schedule')} rows={3} spellCheck={false} />
      </label>
      <div className="button-row">
        <button type="submit" className="primary">
          Apply and restart
        </button>
        <button type="button" onClick={copyLink}>
          {copied ? 'Link copied' : 'Copy link to this moment'}
        </button>
      </div>
      {problem && (
        <p className="field-error" role="alert" data-testid="settings-error">
          {problem}
        </p>
      )}
    </form>
  );
}

export const RunSettings = memo(function RunSettings() {
  const config = useLab(selectConfig);
  const schedule = useLab(selectSchedule);
  // Re-seeded from the run whenever the run's inputs change (a new load or a recorded action).
  return <SettingsForm key={`${JSON.stringify(config, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}|${schedule}`} config={config} schedule={schedule} />;
});
