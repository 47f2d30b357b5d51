/**
 * The Logs tab of a Paxos run (src/sim/paxos/): one row per node — its part (acceptor,
 * proposer, leader), the ballot it promised, and slot by slot what its acceptor accepted (in
 * which ballot) and whether its learner learned it: solid once learned, dashed while only
 * accepted. Click a slot: why? Single-decree Paxos has one slot; Multi-Paxos a log of them.
 */
import { memo } from 'react';
import type { NodeView, PaxosNodeView } from '../../sim/view/runView';
import { termColour, truncate } from '../format';
import { useLabStore } from '../labContext';
import { paxosBallotText, paxosWord } from '../store/selectors';

const SLOTS_SHOWN = 12;

/** A ballot's text ("2.5") as a number for the colour scale: the round. */
const roundOf = (ballot: string) => Number(ballot.split('.')[0]) || 0;

function SlotRow({ node, multi }: { node: NodeView; multi: boolean }) {
  const store = useLabStore();
  const p = node.paxos as PaxosNodeView;
  const slots = p.slots.slice(-SLOTS_SHOWN);
  return (
    <tr data-log-node={node.id} data-commit-index={node.commitIndex} className={node.alive ? '' : 'down'}>
      <th scope="row">
        <span className="log-node-id">{node.id}</span>
        <span className="log-node-role">{node.alive ? paxosWord(p.phase) : 'down'}</span>
      </th>
      <td>
        <div className="log-entries">
          {slots.length === 0 && <span className="log-empty">nothing accepted</span>}
          {slots.map((s) => {
            const learned = s.learned !== null;
            const text = s.learned ?? s.accepted?.value ?? '';
            return (
              <span key={s.slot} className="log-slot">
                <button
                  type="button"
                  className={`entry ${learned ? 'committed' : 'uncommitted'}${text === 'no-op' ? ' noop' : ''}`}
                  style={{ ['--term' as string]: termColour(roundOf(s.accepted?.ballot ?? '0')) }}
                  title={`slot ${s.slot}: ${s.accepted !== null ? `accepted ${s.accepted.value} in ballot ${s.accepted.ballot}` : 'nothing accepted'}${learned ? `, learned ${s.learned}` : ', not learned'}. Click: why?`}
                  data-slot={s.slot}
                  data-learned={learned}
                  onClick={() => store.getState().askWhy({ kind: 'entry', node: node.id, index: s.slot })}
                >
                  {multi && <span className="entry-index">{s.slot}:</span>}{' '}
                  <span className="entry-text">{text === 'no-op' ? '∅ no-op' : truncate(text, 16)}</span>
                  {s.accepted !== null && <span className="entry-index"> in {s.accepted.ballot}</span>}
                  <span className="visually-hidden">
                    {' '}
                    on {node.id}, {learned ? 'learned' : 'not learned'}: why?
                  </span>
                </button>
              </span>
            );
          })}
        </div>
      </td>
      <td className="log-marks">
        <span>{paxosBallotText(p)}</span>
        {multi ? (
          <span>
            learned to slot {node.commitIndex} · applied {node.lastApplied}
          </span>
        ) : (
          <span>{p.slots[0]?.learned != null ? `learned ${truncate(p.slots[0].learned, 10)}` : 'learned nothing yet'}</span>
        )}
        {p.pending.length > 0 && <span className="peer-index">waiting: {p.pending.join(', ')}</span>}
        {node.alive && p.phase === 'leading' && <span className="leader-tag">leader</span>}
      </td>
    </tr>
  );
}

export const PaxosSlotsPanel = memo(function PaxosSlotsPanel({ nodes, multi }: { nodes: readonly NodeView[]; multi: boolean }) {
  return (
    <section className="panel logs-panel" aria-labelledby="logs-title">
      <h2 id="logs-title" className="visually-hidden">
        Slots
      </h2>
      <p className="hint">
        {multi ? 'Each slot (1:, 2:, …)' : 'The one decision'}: the value this acceptor accepted and the ballot it accepted it in (colour =
        round); solid = this node learned it was chosen, dashed = accepted only. Click one: why?
      </p>
      <table className="logs">
        <tbody>
          {nodes.map((n) => (
            <SlotRow key={n.id} node={n} multi={multi} />
          ))}
        </tbody>
      </table>
    </section>
  );
});
