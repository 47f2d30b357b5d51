/**
 * Settings ▸ Lock service (issue 26): which of the chapter's six ways to hold a lock the run's
 * clients talk to, with what it is and its switches. `raft` is the chapter's service and the
 * default, so every run, link and chapter line is unchanged until another is picked. A change
 * starts a new run with the recorded actions that still fit (a service's servers have their own
 * names), replayed to now; the link carries it (`lock=`, `lockopts=`).
 */
import { memo, useState } from 'react';
import { bugsOfService, configFromFields, lockOf, lockOptionsOf, type BugName, type SimConfig } from '../../sim/model/config';
import { LOCK_SERVICES, lockServiceManifest, type LockServiceName } from '../../sim/model/lockServices';
import { formatAction } from '../../sim/model/schedule';
import { useBridge, useLab, useLabPanel } from '../labContext';
import { selectConfig, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { FieldError } from './FieldError';
import { keepValidActions } from './keepValidActions';

export const LockServiceSettings = memo(function LockServiceSettings() {
  const bridge = useBridge();
  const config = useLab(selectConfig);
  const schedule = useLab(selectSchedule);
  const playing = useLab(selectPlaying);
  const now = useLabPanel(selectNow);
  const [problem, setProblem] = useState<string | null>(null);
  const lock = lockOf(config);
  const m = lockServiceManifest(lock);
  const load = (next: SimConfig | string) => {
    if (typeof next === 'string') return setProblem(next);
    const { kept, dropped } = keepValidActions(schedule, next);
    bridge.load(next, kept, { startAtMs: now, playing, label: 'custom' });
    setProblem(
      dropped.length > 0
        ? `The new run leaves out ${dropped.length} recorded action${dropped.length === 1 ? '' : 's'} that name${dropped.length === 1 ? 's' : ''} servers it does not have (${dropped.map(formatAction).join('; ')}).`
        : null,
    );
  };
  const pick = (name: LockServiceName) => {
    // A lock service needs clients to mean anything: two, A and B, when the run has fewer.
    const clients = config.clientIds.length >= 2 ? undefined : 'AB';
    const fields = { lock: name, ...(clients !== undefined ? { clients } : {}) };
    // Protocol features change the chapter's Raft and state machine, which another service replaces;
    // only the bugs the new service can have stay on.
    const { features: _f, snapshotEvery: _s, readMode: _r, ...plain } = config;
    const base = name === 'raft' ? config : { ...plain, bugs: config.bugs.filter((b) => bugsOfService(name).includes(b as BugName)) };
    load(configFromFields(base, fields));
  };
  const toggle = (option: string, on: boolean) => {
    const options = on ? [...lockOptionsOf(config), option] : lockOptionsOf(config).filter((o) => o !== option);
    load(configFromFields(config, { lockOptions: options.join(',') }));
  };
  return (
    <fieldset className="lock-settings" data-testid="lock-settings">
      <legend>Lock service</legend>
      <p className="hint">
        The chapter’s table, one row per run: the same clients, stores and faults against each way to hold a lock. A change starts a new run
        replayed to t = {now} ms.
      </p>
      <label>
        Lock service{' '}
        <select value={lock} onChange={(e) => pick(e.target.value as LockServiceName)} aria-label="Lock service" data-testid="lock-service">
          {LOCK_SERVICES.map((s) => (
            <option key={s.name} value={s.name}>
              {s.title}
              {s.name === 'raft' ? ' (the chapter’s)' : ''}
            </option>
          ))}
        </select>
      </label>
      <p className="lock-explanation" data-testid="lock-explanation">
        {m.explanation}
      </p>
      {m.options.map((o) => (
        <label key={o.name} className="feature-option">
          <input
            type="checkbox"
            checked={(lockOptionsOf(config) as readonly string[]).includes(o.name)}
            onChange={(e) => toggle(o.name, e.target.checked)}
            data-lock-option={o.name}
          />
          <span>
            <strong>{o.title}</strong> — {o.explanation}
          </span>
        </label>
      ))}
      <FieldError problem={problem} testId="lock-error" />
    </fieldset>
  );
});
