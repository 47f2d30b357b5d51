/**
 * One row per node: its log tail coloured by term, committed entries solid and uncommitted ones
 * dashed, the commit index and last applied marked, and the leader's nextIndex/matchIndex for
 * each peer.
 */
import { memo } from 'react';
import type { NodeView } from '../../sim/view/runView';
import { termColour, truncate } from '../format';
import { useLabPanel, useLabStore } from '../labContext';
import { selectConfig, selectLeader, selectNodes } from '../store/selectors';
import { lazyView, OnDemand } from '../lazyView';

// A Paxos run's slots, in a chunk of their own: the page's first load carries only Raft's logs.
const paxosSlots = lazyView(() => import('./PaxosSlotsPanel').then((m) => m.PaxosSlotsPanel));

/** Entries shown per row: the newest ones. */
export const LOG_ENTRIES_SHOWN = 12;

function LogRow({ node, leader }: { node: NodeView; leader: NodeView | null }) {
  const store = useLabStore();
  const entries = node.log.slice(-LOG_ENTRIES_SHOWN);
  const snapshot = node.snapshot;
  // Snapshots (§5): entries up to the snapshot's index are compacted; only those after it are held.
  const hidden = node.logLength - (snapshot?.index ?? 0) - entries.length;
  const isLeader = node.alive && node.role === 'leader';
  const next = leader && leader.id !== node.id ? leader.nextIndex[node.id] : undefined;
  const match = leader && leader.id !== node.id ? leader.matchIndex[node.id] : undefined;
  return (
    <tr data-log-node={node.id} data-commit-index={node.commitIndex} className={node.alive ? '' : 'down'}>
      <th scope="row">
        <span className="log-node-id">{node.id}</span>
        <span className="log-node-role">{node.alive ? node.role : 'down'}</span>
      </th>
      <td>
        <div className="log-entries">
          {snapshot !== undefined && (
            <button
              type="button"
              className="log-snapshot"
              style={{ ['--term' as string]: termColour(snapshot.term) }}
              title={`snapshot: entries 1 to ${snapshot.index} compacted, last included term ${snapshot.term} (§5). Click: why?`}
              data-snapshot-index={snapshot.index}
              onClick={() => store.getState().askWhy({ kind: 'entry', node: node.id, index: snapshot.index })}
            >
              snapshot ≤ {snapshot.index}, term {snapshot.term}
            </button>
          )}
          {hidden > 0 && (
            <span className="log-more" title={`${hidden} older entries`}>
              +{hidden}
            </span>
          )}
          {entries.length === 0 && snapshot === undefined && <span className="log-empty">empty</span>}
          {entries.map((e) => {
            const committed = e.index <= node.commitIndex;
            const applied = e.index <= node.lastApplied;
            return (
              <span key={e.index} className="log-slot">
                {/* An entry is a button: clicking it asks Why it is (not) committed. */}
                <button
                  type="button"
                  className={`entry ${committed ? 'committed' : 'uncommitted'}${e.index === match ? ' match' : ''}${e.kind === 'noop' ? ' noop' : ''}${e.kind === 'config' ? ' config' : ''}`}
                  style={{ ['--term' as string]: termColour(e.term) }}
                  title={`entry ${e.index}, term ${e.term}: ${e.kind === 'noop' ? 'the leader’s no-op (§8), which carries no command' : e.text}${committed ? ' (committed)' : ' (not committed)'}${applied ? ', applied' : ''}. Click: why?`}
                  data-index={e.index}
                  data-committed={committed}
                  onClick={() => store.getState().askWhy({ kind: 'entry', node: node.id, index: e.index })}
                >
                  <span className="entry-index">
                    {e.index}·t{e.term}
                  </span>
                  {/* The name starts with the visible text (label in name), then says what a click asks. */}{' '}
                  {/* A leader's no-op (§8) carries nothing: drawn as an empty-set mark in italics, not as a command. */}
                  <span className="entry-text">{e.kind === 'noop' ? '∅ no-op' : truncate(e.text, 16)}</span>
                  <span className="visually-hidden">
                    {' '}
                    on {node.id}, {committed ? 'committed' : 'not committed'}: why?
                  </span>
                </button>
                {e.index === node.commitIndex && (
                  <span className="commit-mark" role="img" aria-label={`commit index ${node.commitIndex}`} />
                )}
              </span>
            );
          })}
          {next !== undefined && next > node.logLength && (
            <span className="next-slot" title={`the leader sends entry ${next} next`}>
              next
            </span>
          )}
        </div>
      </td>
      <td className="log-marks">
        <span>
          commit {node.commitIndex} · applied {node.lastApplied}
        </span>
        {isLeader && <span className="leader-tag">leader</span>}
        {next !== undefined && (
          <span className="peer-index" title={`leader ${leader?.id}'s view of ${node.id}`}>
            next {next} · match {match}
          </span>
        )}
      </td>
    </tr>
  );
}

export const LogsPanel = memo(function LogsPanel() {
  const nodes = useLabPanel(selectNodes);
  const leaderId = useLabPanel(selectLeader);
  const leader = nodes.find((n) => n.id === leaderId) ?? null;
  const protocol = useLabPanel(selectConfig).protocol;
  // A Paxos run's nodes hold slots, not a Raft log (PaxosSlotsPanel.tsx).
  if (nodes.length > 0 && nodes[0].paxos !== undefined)
    return (
      <OnDemand what="the Paxos slots" retry={paxosSlots.retry}>
        <paxosSlots.View nodes={nodes} multi={protocol === 'multi-paxos'} />
      </OnDemand>
    );
  if (nodes[0]?.server !== undefined) return <ServersPanel nodes={nodes} />;
  return (
    <section className="panel logs-panel" aria-labelledby="logs-title">
      {/* The tab says "Logs" already; the heading stays for screen readers, the room goes to the rows. */}
      <h2 id="logs-title" className="visually-hidden">
        Logs
      </h2>
      <p className="hint">
        Colour = term; solid = committed, dashed = not yet; the bar marks the commit index.
        {leader ? ` next/match: what leader ${leader.id} knows of each follower.` : ''} Click an entry: why?
      </p>
      <table className="logs">
        <tbody>
          {nodes.map((n) => (
            <LogRow key={n.id} node={n} leader={leader} />
          ))}
        </tbody>
      </table>
    </section>
  );
});

/** A service without Raft has no log to show: what each of its servers holds instead. */
function ServersPanel({ nodes }: { nodes: readonly NodeView[] }) {
  return (
    <section className="panel logs-panel" aria-labelledby="logs-title">
      <h2 id="logs-title" className="visually-hidden">
        Servers
      </h2>
      <p className="hint">This lock service does not run Raft: its servers keep no log and no term. What each holds now:</p>
      <ul className="server-lines" data-testid="server-lines">
        {nodes.map((n) => (
          <li key={n.id} className={n.alive ? undefined : 'down'}>
            {n.server?.line}
          </li>
        ))}
      </ul>
    </section>
  );
}
