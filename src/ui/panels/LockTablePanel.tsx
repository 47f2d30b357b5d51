/** The lock table as every node sees it: owner, token and lease left by that node's own clock. */
import { memo } from 'react';
import { formatDuration } from '../format';
import { useLabPanel } from '../labContext';
import { selectNodes } from '../store/selectors';
import { WhyButton } from './WhyPanel';
import type { LockRow } from '../../sim/net/lockPlug';

/** What each lock service keeps, in its own terms (issue 26): the chapter's table is Raft's lock state machine. */
const SERVICE_TABLES: Readonly<Record<string, { readonly title: string; readonly hint: string }>> = {
  zookeeper: {
    title: 'Lock znodes (the leader’s tree)',
    hint: 'Each client creates an ephemeral sequential child of /locks/KEY; the lowest holds; each other waits on a watch. A session’s end deletes its children.',
  },
  etcd: {
    title: 'Lock keys (the leader’s key space)',
    hint: 'Each client creates a key under /lock/KEY attached to its lease; the lowest create revision holds; each other watches the key just before its own. A lease’s end deletes its keys.',
  },
  redis: {
    title: 'Keys, instance by instance',
    hint: 'SET KEY VALUE NX PX TTL: the key is the lock, its value says whose; each instance expires it by its own wall clock. No token.',
  },
  redlock: {
    title: 'Keys, instance by instance',
    hint: 'A client holds a Redlock while a majority of instances hold its value; each instance expires the key by its own wall clock. No token.',
  },
  advisory: {
    title: 'Advisory locks, server by server',
    hint: 'A lock belongs to a session and lives as long as its connection; it is never replicated. The row version read with it is the token.',
  },
  gossip: {
    title: 'Who leads, in each client’s view',
    hint: 'Not a lock: each client takes for leader the lowest contender it believes alive, and the views can disagree while gossip spreads.',
  },
};

function ServiceLockTable({ rows, service }: { rows: readonly LockRow[]; service: string }) {
  const text = SERVICE_TABLES[service] ?? { title: 'Lock table', hint: '' };
  // A replicated tree or key space is one table; the others keep one copy per server (or view).
  const perServer = service !== 'zookeeper' && service !== 'etcd';
  return (
    <section className="panel locks-panel" aria-labelledby="locks-title">
      <h2 id="locks-title">{text.title}</h2>
      <p className="hint">{text.hint}</p>
      <table className="locks" data-testid="lock-table" data-service={service}>
        <thead>
          <tr>
            {perServer && <th scope="col">{service === 'gossip' ? 'view of' : 'server'}</th>}
            <th scope="col">key</th>
            <th scope="col">client</th>
            <th scope="col">state</th>
            <th scope="col">token</th>
            <th scope="col">what</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                nothing held
              </td>
            </tr>
          )}
          {rows.map((r, i) => (
            <tr key={`${r.server ?? ''}-${r.key}-${r.client}-${i}`} data-lock-state={r.state}>
              {perServer && <th scope="row">{r.server}</th>}
              <td>{r.key}</td>
              <td>{r.client}</td>
              <td>{r.state}</td>
              <td className="token">{r.token}</td>
              <td>{r.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export const LockTablePanel = memo(function LockTablePanel() {
  const nodes = useLabPanel(selectNodes);
  const rows = useLabPanel((s) => s.frame.snapshot?.lockRows);
  const service = useLabPanel((s) => s.frame.snapshot?.lockMeasures?.service);
  if (rows !== undefined && service !== undefined) return <ServiceLockTable rows={rows} service={service} />;
  return (
    <section className="panel locks-panel" aria-labelledby="locks-title">
      <h2 id="locks-title">Lock table, node by node</h2>
      <p className="hint">Each node applies Grant, Release and Expire in log order; only the leader proposes Expire, by its own clock.</p>
      <table className="locks" data-testid="lock-table">
        <thead>
          <tr>
            <th scope="col">node</th>
            <th scope="col">key</th>
            <th scope="col">owner</th>
            <th scope="col">token</th>
            <th scope="col">lease left (its clock)</th>
            <th scope="col">clock</th>
            <th scope="col">
              <span className="visually-hidden">why</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => {
            const drift = n.driftPct === 0 ? 'exact' : `${n.driftPct > 0 ? '+' : ''}${n.driftPct}%`;
            if (n.locks.length === 0) {
              return (
                <tr key={n.id} className={n.alive ? '' : 'down'}>
                  <th scope="row">{n.id}</th>
                  <td colSpan={4} className="muted">
                    no locks (next token {n.nextToken})
                  </td>
                  <td>{drift}</td>
                  <td />
                </tr>
              );
            }
            return n.locks.map((l, i) => (
              <tr key={`${n.id}-${l.key}`} className={n.alive ? '' : 'down'} data-lock-node={n.id}>
                {i === 0 && (
                  <th scope="row" rowSpan={n.locks.length}>
                    {n.id}
                  </th>
                )}
                <td>{l.key}</td>
                <td>{l.owner}</td>
                <td className="token">{l.token}</td>
                <td className={l.remainingMs <= 0 ? 'expired' : ''}>
                  {l.remainingMs <= 0 ? `ran out ${formatDuration(-l.remainingMs)} ago` : formatDuration(l.remainingMs)}
                </td>
                {i === 0 && <td rowSpan={n.locks.length}>{drift}</td>}
                <td>
                  <WhyButton subject={{ kind: 'lock', node: n.id, key: l.key }} label={`Why does ${n.id} give ${l.key} to ${l.owner}?`} />
                </td>
              </tr>
            ));
          })}
        </tbody>
      </table>
    </section>
  );
});
