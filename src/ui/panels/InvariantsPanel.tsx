/**
 * Correctness made visible: every invariant the worker checks after each simulated millisecond
 * (on a separate copy of this exact run), the first violation with a jump to its time, the
 * unfenced store's stale writes counted apart, the switchable bugs, and the counterexample
 * search that fuzzes in the worker and loads what it finds.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { PAXOS_INVARIANT_TITLES } from '../../sim/model/features';
import type { BugName } from '../../sim/model/config';
import { invariant as say } from '../../sim/model/describe';
import { useBridge, useLabPanel } from '../labContext';
import {
  selectCheck,
  selectConfig,
  selectFuzzDone,
  selectFuzzProgress,
  selectFuzzRunning,
  selectHorizon,
  selectPlaying,
} from '../store/selectors';
import { FieldError } from '../controls/FieldError';
import { checkedFor, fuzzSeedOf } from './RunChecks';

const TITLES: Readonly<Record<string, string>> = { ...say.titles, ...PAXOS_INVARIANT_TITLES };

// The run bar's badge and bugs menu live in RunChecks.tsx (loaded with the page); this tab loads on demand.
export { BugsMenu, InvariantBadge, fuzzSeedOf } from './RunChecks';

function FuzzControls() {
  const bridge = useBridge();
  const config = useLabPanel(selectConfig);
  const running = useLabPanel(selectFuzzRunning);
  const progress = useLabPanel(selectFuzzProgress);
  const done = useLabPanel(selectFuzzDone);
  const [runs, setRuns] = useState('200');
  const [problem, setProblem] = useState<string | null>(null);
  const seed = fuzzSeedOf(config);
  const start = () => {
    if (!/^\d{1,5}$/.test(runs.trim()) || Number(runs) < 1 || Number(runs) > 10_000) {
      setProblem(`The number of runs is a whole number from 1 to 10000, not "${runs}".`);
      return;
    }
    setProblem(null);
    // The run's protocol: every run of the search has the features this run has (a bug still forces its own).
    bridge.findCounterexample({ seed, runs: Number(runs), bugs: config.bugs as readonly BugName[], features: config.features ?? [] });
  };
  return (
    <div className="fuzz" data-testid="fuzz">
      <h3>Find a counterexample</h3>
      <p className="hint">
        Swarm fuzzing in the worker: random clusters, timings and faults{config.bugs.length > 0 ? ` with ${config.bugs.join(', ')} on` : ''}
        ,{' '}
        {(config.features ?? []).length > 0
          ? `with this run's protocol features (${(config.features ?? []).join(', ')})`
          : "the chapter's Raft with no protocol features"}
        , every invariant checked each ms; the first failing run is shrunk and loaded, paused at the violation. Fuzz seed {seed}.
      </p>
      <div className="button-row">
        <label>
          runs <input value={runs} onChange={(e) => setRuns(e.target.value)} size={5} inputMode="numeric" disabled={running} />
        </label>
        {running ? (
          <button type="button" className="danger" onClick={() => bridge.cancelFuzz()}>
            Cancel search
          </button>
        ) : (
          <button type="button" className="primary" onClick={start}>
            Find a counterexample
          </button>
        )}
      </div>
      <FieldError problem={problem} />
      {running && (
        <div className="fuzz-progress" role="status" data-testid="fuzz-progress">
          <progress max={progress?.runs ?? 1} value={progress?.runsDone ?? 0} aria-label="Runs searched" />{' '}
          {progress
            ? progress.phase === 'shrink'
              ? `found one after ${progress.runsDone} runs; shrinking its schedule (${progress.shrinkAttempts} replays)`
              : `${progress.runsDone} of ${progress.runs} runs · ${progress.runsPerSec.toFixed(1)} runs/s`
            : 'starting…'}
        </div>
      )}
      {!running && done && (
        <p className={`fuzz-result ${done.found ? 'bad' : 'ok'}`} role="status" data-testid="fuzz-result">
          {done.found
            ? `Found in run ${done.found.run + 1} of ${done.runs} (${done.seconds.toFixed(1)} s): ${done.found.violation.title} at t=${done.found.violation.t} ms, shrunk to ${done.found.actions} action${done.found.actions === 1 ? '' : 's'}. The run is loaded, paused there.`
            : done.cancelled
              ? `Cancelled after ${done.runsDone} runs (${done.seconds.toFixed(1)} s); no violation so far.`
              : `No violation in ${done.runsDone} runs (${done.seconds.toFixed(1)} s, ${(done.runsDone / Math.max(0.001, done.seconds)).toFixed(1)} runs/s).`}
        </p>
      )}
    </div>
  );
}

export const InvariantsPanel = memo(function InvariantsPanel() {
  const bridge = useBridge();
  const done = useLabPanel(selectFuzzDone);
  const top = useRef<HTMLHeadingElement>(null);
  // A found counterexample is loaded: show its verdict, wherever the panel was scrolled.
  useEffect(() => {
    if (done?.found) top.current?.scrollIntoView?.({ block: 'start' });
  }, [done]);
  const check = useLabPanel(selectCheck);
  const horizon = useLabPanel(selectHorizon);
  const playing = useLabPanel(selectPlaying);
  const config = useLabPanel(selectConfig);
  const v = check?.violation ?? null;
  const behind = check !== null && check.checkedToMs < horizon;
  return (
    <section className="panel invariants-panel" aria-labelledby="invariants-title">
      <h2 id="invariants-title" ref={top}>
        Invariants
      </h2>
      {!check ? (
        <p className="hint">Starting…</p>
      ) : v ? (
        <div className="verdict bad" role="status" data-testid="invariant-verdict" data-state="violated">
          <p>
            <strong>✗ {v.title} violated</strong> at t={v.t} ms{v.nodes.length > 0 ? `, involving ${v.nodes.join(', ')}` : ''}.
          </p>
          <p className="sentence">{v.sentence}</p>
          <button
            type="button"
            className="primary"
            onClick={() => {
              if (playing) bridge.pause();
              bridge.seek(v.t);
            }}
          >
            Jump to t={v.t} ms
          </button>
        </div>
      ) : (
        <p className="verdict ok" role="status" data-testid="invariant-verdict" data-state="holding">
          <strong>✓ All {checkedFor(config).length} invariants hold</strong> for every millisecond up to t={check.checkedToMs} ms
          {behind ? ` (checking… ${horizon - check.checkedToMs} ms to go)` : ''}.
        </p>
      )}
      {/* Findings sit right under the verdict: at a projector's size the list below scrolls. */}
      {check && config.protocol === undefined && (
        <p className="findings" data-testid="stale-writes">
          Stale writes accepted by the unfenced store: <strong>{check.staleWrites}</strong>
          <span className="hint">
            {' '}
            — a client wrote after its lease had ended; the fenced store refuses these, the unfenced one cannot tell. Counted, not failures.
          </span>
        </p>
      )}
      {check?.leasesEndedEarly !== undefined && (
        <p className="findings" data-testid="leases-ended-early">
          Leases the service ended early under clock drift: <strong>{check.leasesEndedEarly}</strong>
          <span className="hint">
            {' '}
            — the leader&apos;s clock ran fast, so it expired a lease its client still counted on. Counted, not failures: that is why writes
            need fencing tokens.
          </span>
        </p>
      )}
      {check?.liveness !== undefined && (
        <p className="findings" data-testid="liveness">
          Liveness after the faults stopped: <strong>{check.liveness.state}</strong>
          <span className="hint"> — {check.liveness.note}</span>
        </p>
      )}
      {config.bugs.length > 0 && <p className="bugs-note">Bugs on in this run: {config.bugs.join(', ')}.</p>}
      {config.protocol === undefined ? (
        <FuzzControls />
      ) : (
        <p className="hint">
          The Paxos swarm runs in the terminal: <code>npm run fuzz -- --protocol {config.protocol} --bug NAME</code> prints a replay and a
          link.
        </p>
      )}
      <h3 className="checked-title">Checked after every simulated millisecond</h3>
      <ul className="invariant-list" aria-label="Invariants checked after every millisecond">
        {checkedFor(config).map((id) => {
          const failed = v?.invariant === id;
          return (
            <li key={id} className={failed ? 'bad' : 'ok'} data-invariant={id}>
              <span aria-hidden="true">{failed ? '✗' : '✓'}</span> {TITLES[id]}
              {failed ? ' — violated' : ''}
            </li>
          );
        })}
      </ul>
    </section>
  );
});
