/**
 * Settings ▸ Protocol: one checkbox per protocol feature (src/sim/model/features/), each with what
 * it does and the dissertation's section. A change starts a new run with the same schedule,
 * replayed to now, as the bugs menu does; the link carries it (`features=`). Turning a feature
 * off turns its bugs off too, since they mean nothing without it.
 */
import { memo, useState } from 'react';
import {
  BUG_FEATURE,
  PROTOCOL_NAMES,
  READ_MODES,
  configFromFields,
  featuresOf,
  protocolOf,
  readModeOf,
  type BugName,
  type ProtocolName,
  type ReadMode,
  type SimConfig,
} from '../../sim/model/config';
import { FEATURES, canonicalFeatures, type FeatureName } from '../../sim/model/features';
import { checkSchedule } from '../../sim/model/schedule';
import { useBridge, useLab, useLabPanel } from '../labContext';
import { selectConfig, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { FieldError } from './FieldError';
import { useReplayWith } from './replayWith';
import { SnapshotThreshold } from './SnapshotThreshold';

const FAMILY_WORDS: Record<ProtocolName, string> = {
  raft: 'Raft (the chapter’s, with its lock service)',
  paxos: 'Paxos, single-decree (one value chosen)',
  'multi-paxos': 'Multi-Paxos (a leader and a log of slots)',
};

/**
 * The configuration of the same run on another protocol family: what only the other family has
 * (Raft's features, clients, read mode, snapshots and lock service; Paxos's back-off) and every bug go, since
 * each family's bugs and settings mean nothing in the other (config.ts refuses them).
 */
export function configForProtocol(config: SimConfig, protocol: ProtocolName): SimConfig {
  const { protocol: _p, backoffMs: _b, features: _f, readMode: _r, snapshotEvery: _s, lock: _l, lockOptions: _o, ...rest } = config;
  const base: SimConfig = { ...rest, bugs: [] };
  // A Paxos run has no lock service (it runs on Raft only); Raft keeps the one it had.
  if (protocol === 'raft')
    return {
      ...base,
      ...(config.lock !== undefined ? { lock: config.lock } : {}),
      ...(config.lockOptions !== undefined ? { lockOptions: config.lockOptions } : {}),
    };
  return { ...base, clientIds: [], protocol };
}

/** Settings ▸ Protocol's first line: which family this run is, and a switch to the other ones. */
const ProtocolFamily = memo(function ProtocolFamily() {
  const bridge = useBridge();
  const config = useLab(selectConfig);
  const schedule = useLab(selectSchedule);
  const playing = useLab(selectPlaying);
  const now = useLabPanel(selectNow);
  const [problem, setProblem] = useState<string | null>(null);
  const [backoff, setBackoff] = useState(config.backoffMs?.join('-') ?? '');
  const family = protocolOf(config);
  const load = (next: SimConfig) => {
    // The recorded actions the other family takes (a lock client's or a submit in single-decree Paxos does not fit).
    const kept = schedule.filter((a) => checkSchedule([a], next) === null);
    const dropped = schedule.length - kept.length;
    setProblem(
      dropped > 0
        ? `The new run leaves out ${dropped} recorded action${dropped === 1 ? '' : 's'} that ${protocolOf(next)} does not take.`
        : null,
    );
    bridge.load(next, kept, { startAtMs: now, playing, label: 'custom' });
  };
  const applyBackoff = () => {
    const next = configFromFields(config, { backoff });
    if (typeof next === 'string') setProblem(next);
    else load(next);
  };
  return (
    <div className="protocol-family">
      <label>
        Protocol family{' '}
        <select
          value={family}
          onChange={(e) => load(configForProtocol(config, e.target.value as ProtocolName))}
          aria-label="Protocol family"
          data-testid="protocol-family"
        >
          {PROTOCOL_NAMES.map((p) => (
            <option key={p} value={p}>
              {FAMILY_WORDS[p]}
            </option>
          ))}
        </select>
      </label>
      {family !== 'raft' && (
        <form
          className="feature-option"
          onSubmit={(e) => {
            e.preventDefault();
            applyBackoff();
          }}
        >
          <label>
            Back-off ms{' '}
            <input value={backoff} onChange={(e) => setBackoff(e.target.value)} size={8} placeholder="none" aria-label="Back-off ms" />
          </label>{' '}
          <button type="submit">Apply</button>{' '}
          <span className="muted">
            a pre-empted proposer waits a random time in this range (like 20-100) before it prepares again; empty: at once (Paxos Made
            Simple §2.4)
          </span>
        </form>
      )}
      <FieldError problem={problem} testId="protocol-error" />
    </div>
  );
});

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
  if (config.protocol !== undefined)
    return (
      <fieldset className="protocol-settings" data-testid="protocol-settings">
        <legend>Protocol</legend>
        <ProtocolFamily key={config.backoffMs?.join('-') ?? ''} />
        <p className="hint">
          Lamport’s “Paxos Made Simple”: proposers, acceptors and learners on every node. Raft’s features, its lock service and its clients
          are not part of a Paxos run; its bugs are in the Bugs menu.
        </p>
      </fieldset>
    );
  return (
    <fieldset className="protocol-settings" data-testid="protocol-settings">
      <legend>Protocol</legend>
      <ProtocolFamily key={config.backoffMs?.join('-') ?? ''} />
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
