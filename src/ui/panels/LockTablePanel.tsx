/** The lock table as every node sees it: owner, token and lease left by that node's own clock. */
import { memo } from 'react';
import { formatDuration } from '../format';
import { useLabPanel } from '../labContext';
import { selectNodes } from '../store/selectors';
import { WhyButton } from './WhyPanel';

export const LockTablePanel = memo(function LockTablePanel() {
  const nodes = useLabPanel(selectNodes);
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
