/** The node picked on the diagram: its state in words, crash/restart, and its clock drift. */
import { memo, useState } from 'react';
import { formatDuration } from '../format';
import { MAX_CLOCK_JUMP_MS } from '../../sim/model/schedule';
import { useBridge, useLabPanel, useLabStore } from '../labContext';
import { selectClock, selectConfig, selectFocusedNode, selectFocusedNodeView, selectMessages } from '../store/selectors';
import { FieldError } from '../controls/FieldError';
import { WhyButton } from './WhyPanel';

/** Messages in flight shown per node; the rest are counted. */
const MESSAGES_SHOWN = 8;

/** The messages on the wire to or from one node; each opens Why with its fields. */
const InFlight = memo(function InFlight({ id }: { id: string }) {
  const all = useLabPanel(selectMessages);
  const store = useLabStore();
  const mine = all.filter((m) => m.src === id || m.dst === id);
  if (mine.length === 0) return <p className="hint">No messages in flight to or from {id}.</p>;
  return (
    <div className="inflight">
      <h3>In flight to or from {id}</h3>
      <ul className="inflight-list">
        {mine.slice(0, MESSAGES_SHOWN).map((m) => (
          <li key={m.seq}>
            <button
              type="button"
              className="inflight-message"
              onClick={() => store.getState().askWhy({ kind: 'message', seq: m.seq })}
              aria-label={`Why: ${m.src} to ${m.dst}, ${m.label}`}
            >
              {m.src} → {m.dst}: {m.label}
            </button>
          </li>
        ))}
      </ul>
      {mine.length > MESSAGES_SHOWN && <p className="hint">and {mine.length - MESSAGES_SHOWN} more</p>}
    </div>
  );
});

export const NodeContextPanel = memo(function NodeContextPanel() {
  const id = useLabPanel(selectFocusedNode);
  const node = useLabPanel(selectFocusedNodeView);
  const clock = useLabPanel(selectClock);
  const transferOn = useLabPanel(selectConfig).features?.includes('transfer') === true;
  const bridge = useBridge();
  const [drift, setDrift] = useState('50');
  const [jump, setJump] = useState('+5000');
  const [problem, setProblem] = useState<string | null>(null);
  if (!id || !node) {
    return (
      <section className="panel node-panel" aria-labelledby="node-title">
        <h2 id="node-title">Node</h2>
        <p className="hint">
          Click a node to crash or restart it; it shows up here. Shift-click nodes to select them for isolating. Alt-click a node, or focus
          it and press ?, to ask why it is what it is.
        </p>
      </section>
    );
  }
  const timerLeft = node.electionDeadline - clock;
  const setDriftNow = () => {
    const m = /^\s*(-?\d{1,2}(\.\d{1,2})?)\s*%?\s*$/.exec(drift);
    const pct = m ? Number(m[1]) : NaN;
    if (!m || pct < -90 || pct > 90) {
      setProblem(`Clock drift is a number of percent from -90 to 90, not "${drift}".`);
      return;
    }
    setProblem(null);
    bridge.act({ verb: 'drift', node: id, pct });
  };
  // Issue 26: the Redlock debate's fault. The wall clock steps; the node's timers (its monotonic clock) do not.
  const jumpNow = () => {
    const m = /^\s*([+-])\s*(\d{1,7})\s*$/.exec(jump);
    const ms = m ? Number(m[2]) : NaN;
    if (!m || ms < 1 || ms > MAX_CLOCK_JUMP_MS) {
      setProblem(`A clock jump is + or - and a whole number of ms from 1 to ${MAX_CLOCK_JUMP_MS}, like +5000 or -2000, not "${jump}".`);
      return;
    }
    setProblem(null);
    bridge.act({ verb: 'clockjump', node: id, ms: m[1] === '-' ? -ms : ms });
  };
  return (
    <section className="panel node-panel" aria-labelledby="node-title">
      <h2 id="node-title">
        Node {id}: {node.alive ? node.role : `down (was ${node.role})`}, term {node.term}
      </h2>
      <dl className="facts">
        <dt>voted for</dt>
        <dd>
          {node.votedFor ?? 'nobody'} in term {node.term}
        </dd>
        <dt>believes leader</dt>
        <dd>{node.leaderId ?? 'unknown'}</dd>
        {node.role !== 'leader' && node.alive && (
          <>
            <dt>election timer</dt>
            <dd>{timerLeft > 0 ? `${formatDuration(timerLeft)} left` : 'firing'}</dd>
          </>
        )}
        {node.role === 'candidate' && (
          <>
            <dt>votes</dt>
            <dd>{node.votes.join(', ') || 'none'}</dd>
          </>
        )}
        <dt>log</dt>
        <dd>
          {node.logLength} entries, commit {node.commitIndex}, applied {node.lastApplied}
        </dd>
        <dt>clock</dt>
        <dd>
          {node.localNowMs} ms local{node.driftPct !== 0 ? ` (drift ${node.driftPct > 0 ? '+' : ''}${node.driftPct}%)` : ''}
        </dd>
      </dl>
      <div className="button-row">
        <WhyButton
          subject={{ kind: 'node', id }}
          label={`Why is ${id} ${node.alive ? `a ${node.role}` : 'down'}?`}
          text={`Why is ${id} ${node.alive ? `a ${node.role}` : 'down'}?`}
        />
        <WhyButton subject={{ kind: 'vote', node: id }} label={`Why did ${id} vote as it did?`} text="Why this vote?" />
      </div>
      <InFlight id={id} />
      <div className="button-row">
        <button type="button" className="danger" onClick={() => bridge.act({ verb: node.alive ? 'crash' : 'restart', node: id })}>
          {node.alive ? `Crash ${id}` : `Restart ${id}`}
        </button>
        <button
          type="button"
          disabled={!node.alive || node.role === 'leader'}
          onClick={() => bridge.act({ verb: 'timeout', node: id })}
          title={`Make ${id}'s election timer fire now, so it starts an election (schedule: timeout ${id}). A leader has no election timer.`}
        >
          Force {id} timeout
        </button>
        {transferOn && (
          <button
            type="button"
            disabled={!node.alive || node.role === 'leader'}
            onClick={() => bridge.act({ verb: 'transfer', node: id })}
            title={`The leader brings ${id} up to date, then tells it to start an election now (§3.10; schedule: transfer ${id}). The leader itself cannot be the target.`}
          >
            Transfer leadership to {id}
          </button>
        )}
        {node.membership !== undefined && (
          // Membership changes (§4.1): the leader appends a configuration without this server.
          <button
            type="button"
            disabled={node.membership.status !== 'voter'}
            onClick={() => bridge.act({ verb: 'remove', node: id })}
            title={`Ask the leader to remove ${id} from the configuration (schedule: remove ${id}); a leader removing itself steps down once that commits.`}
          >
            Remove {id}
          </button>
        )}
        <label>
          drift %
          <input value={drift} onChange={(e) => setDrift(e.target.value)} size={4} onKeyDown={(e) => e.key === 'Enter' && setDriftNow()} />
        </label>
        <button type="button" onClick={setDriftNow}>
          Set {id} clock drift
        </button>
        <label>
          jump ms
          <input value={jump} onChange={(e) => setJump(e.target.value)} size={6} onKeyDown={(e) => e.key === 'Enter' && jumpNow()} />
        </label>
        <button
          type="button"
          onClick={jumpNow}
          title={`Step ${id}'s wall clock forward (+) or back (-) now (schedule: clockjump ${id} +5000). Its timers do not move; Redis and Redlock expire keys by the wall clock.`}
        >
          Jump {id}'s wall clock
        </button>
      </div>
      <FieldError problem={problem} />
    </section>
  );
});
