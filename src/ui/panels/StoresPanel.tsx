/**
 * The chapter's two resources side by side: the fenced store checks tokens, the unfenced one
 * takes every write. When their values differ, a marker says where and why.
 */
import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LockMeasuresView, StoreView } from '../../sim/view/runView';
import { useLabPanel } from '../labContext';
import { disagreeingKeys, selectLockMeasures, selectStores } from '../store/selectors';
import { WhyButton } from './WhyPanel';

function StoreCard({ store }: { store: StoreView }) {
  const writes = store.writes.map((w, index) => ({ w, index })).reverse();
  return (
    <article className={`store-card store-card-${store.id}`} data-testid={`store-${store.id}`} aria-labelledby={`store-${store.id}-title`}>
      <h3 id={`store-${store.id}-title`}>
        {store.id === 'fenced' ? 'Fenced store' : 'Unfenced store'}
        <span className="store-kind">{store.checksTokens ? 'checks tokens' : 'takes every write'}</span>
      </h3>
      <table className="store-values">
        <thead>
          <tr>
            <th scope="col">key</th>
            <th scope="col">value</th>
            <th scope="col">token</th>
          </tr>
        </thead>
        <tbody>
          {store.values.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                empty
              </td>
            </tr>
          )}
          {store.values.map((v) => (
            <tr key={v.key} data-store-key={v.key}>
              <td>{v.key}</td>
              <td className="store-value-text">{v.value}</td>
              <td className="token">{v.token ?? 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="store-counts">
        {store.accepted} accepted, {store.rejected} rejected
      </p>
      <ol className="store-writes" aria-label={`${store.id} store write history, newest first`}>
        {writes.map(({ w, index }) => (
          <li key={`${w.t}-${index}`} className={w.accepted ? 'accepted' : 'rejected'}>
            <span className="write-mark" aria-hidden="true">
              {w.accepted ? '✓' : '✗'}
            </span>
            t={w.t} {w.client} {w.key}={w.value} (token {w.token ?? 'none'}) {w.accepted ? 'accepted' : 'rejected'}
            {w.accepted && w.leaseEnded ? ' — its lease had ended' : ''}
            {w.reason ? `: ${w.reason}` : ''}{' '}
            <WhyButton
              subject={{ kind: 'store-write', store: store.id, index }}
              label={`Why was ${w.client}'s write ${w.key}=${w.value} at t=${w.t} ${w.accepted ? 'accepted' : 'refused'} by the ${store.id} store?`}
            />
          </li>
        ))}
      </ol>
    </article>
  );
}

/** Issue 26: what the run measured so far of its lock service (overlaps, stores), as `--json` has it. */
function Measures({ m }: { m: LockMeasuresView }) {
  return (
    <section className="lock-measures" data-testid="lock-measures" aria-label="Lock service measures">
      <h3>Measured so far ({m.service})</h3>
      <p>
        {m.overlaps.length === 0
          ? 'No two clients have believed they held one lock at once.'
          : `Two clients believed they held one lock at once: ${m.overlaps.map((o) => `${o.clients.join(' and ')} on ${o.key}, ${o.fromMs}–${o.toMs} ms`).join('; ')}.`}
      </p>
      <p>
        The unfenced store took {m.unfencedOutOfOrder} write{m.unfencedOutOfOrder === 1 ? '' : 's'} out of order; the fenced store refused{' '}
        {m.fencedStaleRefused} stale write{m.fencedStaleRefused === 1 ? '' : 's'}
        {m.tokens ? '' : ` and ${m.fencedNoTokenRefused} with no token — this service has none, so the fenced store cannot help`}.
      </p>
    </section>
  );
}

export const StoresPanel = memo(function StoresPanel() {
  const stores = useLabPanel(selectStores);
  const measures = useLabPanel(selectLockMeasures);
  const disagree = useLabPanel(useShallow(disagreeingKeys));
  if (!stores) {
    return (
      <section className="panel stores-panel" aria-labelledby="stores-title">
        <h2 id="stores-title">Stores</h2>
        <p className="hint">This run has no clients, so nothing writes to the stores. Add a client to bring them in.</p>
      </section>
    );
  }
  const value = (s: StoreView, key: string) => s.values.find((v) => v.key === key);
  return (
    <section className="panel stores-panel" aria-labelledby="stores-title">
      <h2 id="stores-title">Stores</h2>
      {disagree.length > 0 && (
        <p className="disagree-banner" data-testid="stores-disagree" role="status">
          <strong>≠ The stores disagree</strong>{' '}
          {disagree
            .map((k) => {
              const f = value(stores.fenced, k);
              const u = value(stores.unfenced, k);
              return `on ${k}: fenced has ${f ? `${f.value} (token ${f.token ?? 'none'})` : 'nothing'}, unfenced has ${u ? `${u.value} (token ${u.token ?? 'none'})` : 'nothing'}`;
            })
            .join('; ')}
          .{' '}
          {measures !== null && !measures.tokens
            ? 'The fenced store refused every write: there is no token to check.'
            : 'Only the fenced store refused the stale write.'}
        </p>
      )}
      <div className="store-cards">
        <StoreCard store={stores.fenced} />
        <StoreCard store={stores.unfenced} />
      </div>
      {measures !== null && <Measures m={measures} />}
    </section>
  );
});
