/**
 * What presenter mode shows beside the ring, so a caption never points at something off screen:
 * a verdict badge (the invariants, and the clients' history verdicts when the beat speaks of them),
 * every node's log as a compact strip with one column per index — the same index in the same
 * column on every row, so a class sees at a glance where two logs differ — and, when the beat
 * names it, the leader's lock table. The ring beside it is as tall as the window allows, so the
 * column costs it nothing at 16:9.
 */
import { memo } from 'react';
import { invariantsFor } from '../../sim/check/invariants';
import { VERDICT_NAMES, verdictStake } from '../../sim/check/linearizability/check';
import type { NodeView } from '../../sim/view/runView';
import { termColour, truncate } from '../format';
import { useLab, useLabPanel } from '../labContext';
import { VERDICT_LABELS } from '../panels/HistoryPanel';
import { useHistory } from '../panels/useHistory';
import { selectCheck, selectConfig, selectLeader, selectNodes, selectTour } from '../store/selectors';
import { beatOf } from '../tour';

/** Index columns the strip shows: the newest ones. */
export const STRIP_COLUMNS = 6;

const selectShows = (s: Parameters<typeof selectTour>[0]) => {
  const place = selectTour(s);
  return place ? (beatOf(place)?.shows ?? null) : null;
};

function VerdictBadge({ history }: { history: boolean }) {
  const config = useLabPanel(selectConfig);
  const check = useLabPanel(selectCheck);
  const message = useHistory(history && config.clientIds.length > 0);
  const v = check?.violation ?? null;
  return (
    <section className="facts-verdict" aria-label="Verdicts" data-testid="presenter-verdict">
      {check && (
        <p className={`facts-badge ${v ? 'bad' : 'ok'}`} data-state={v ? 'violated' : 'holding'}>
          {v ? `✗ ${v.title} violated at t=${v.t} ms` : `✓ ${invariantsFor(config).length} invariants hold`}
        </p>
      )}
      {history && message?.verdicts && (
        <ul className="facts-history" data-testid="presenter-history">
          {VERDICT_NAMES.map((name) => {
            const verdict = message.verdicts?.[name];
            if (verdict === undefined || (verdict.linearizable !== true && verdict.linearizable !== false)) return null;
            const ok = verdict.linearizable === true;
            return (
              <li key={name} className={ok ? 'ok' : 'bad'} data-verdict={name}>
                <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {VERDICT_LABELS[name]}
                {!ok && verdictStake(name, verdict) === 'finding' ? ' (a finding)' : ''}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A few characters a class can read from the back: "grant A", "free A", "expire", "+n4", "x=1". */
export function stripLabel(e: { readonly text: string; readonly kind: string }): string {
  const words = e.text.split(' ');
  switch (e.kind) {
    case 'noop':
      return '∅';
    case 'grant':
      return `grant ${words[3] ?? ''}`.trim();
    case 'release':
      return `free ${words[3] ?? ''}`.trim();
    case 'expire':
      return 'expire';
    case 'config':
      return words[1] ?? 'config';
    case 'put':
      return truncate(words[1] ?? 'put', 7);
    case 'get':
      return `get ${words[1] ?? ''}`.trim();
    default:
      return truncate(e.text, 7);
  }
}

function StripRow({ node, from, to }: { node: NodeView; from: number; to: number }) {
  const byIndex = new Map(node.log.map((e) => [e.index, e]));
  const snap = node.snapshot?.index ?? 0;
  const cells = [];
  for (let i = from; i <= to; i++) {
    const e = byIndex.get(i);
    if (e === undefined) {
      cells.push(<span key={i} className={i <= snap ? 'strip-cell snap' : 'strip-cell empty'} />);
      continue;
    }
    const committed = i <= node.commitIndex;
    cells.push(
      <span
        key={i}
        className={`strip-cell ${committed ? 'committed' : 'uncommitted'}`}
        style={{ ['--term' as string]: termColour(e.term) }}
        title={`entry ${i}, term ${e.term}: ${e.text}${committed ? ' (committed)' : ' (not committed)'}`}
        data-index={i}
      >
        {stripLabel(e)}
      </span>,
    );
  }
  return (
    <div className={node.alive ? 'strip-row' : 'strip-row down'} data-strip-node={node.id}>
      <span className="strip-id">{node.id}</span>
      {cells}
    </div>
  );
}

/** Columns when an entry's label is a word ("grant A", "expire"): half as many, each wide enough to read. */
export const STRIP_WIDE_COLUMNS = 3;

/**
 * The strip's window: the newest entries, six of them while every label is short ("x=1", "∅"),
 * three when one in view is a word, which six columns cut to "rant" and "xpir".
 */
export function stripWindow(
  nodes: readonly {
    readonly logLength: number;
    readonly log: readonly { readonly index: number; readonly text: string; readonly kind: string }[];
  }[],
): { from: number; to: number; columns: number } {
  const to = Math.max(1, ...nodes.map((n) => n.logLength));
  const from6 = Math.max(1, to - STRIP_COLUMNS + 1);
  const wide = nodes.some((n) => n.log.some((e) => e.index >= from6 && stripLabel(e).length > 4));
  const columns = wide ? STRIP_WIDE_COLUMNS : STRIP_COLUMNS;
  return { from: Math.max(1, to - columns + 1), to, columns };
}

function LogStrip() {
  const nodes = useLabPanel(selectNodes);
  const { from, to, columns } = stripWindow(nodes);
  const heads = [];
  for (let i = from; i <= to; i++)
    heads.push(
      <span key={i} className="strip-head">
        {i}
      </span>,
    );
  return (
    <section
      className="facts-logs"
      aria-label="Logs"
      data-testid="presenter-logs"
      data-columns={columns}
      style={{ ['--strip-columns' as string]: columns }}
    >
      <h2>
        Logs <span className="strip-key">solid: committed · dashed: not yet</span>
      </h2>
      <div className="strip-row strip-index" aria-hidden="true">
        <span className="strip-id">{from > 1 ? '…' : ''}</span>
        {heads}
      </div>
      {nodes.map((n) => (
        <StripRow key={n.id} node={n} from={from} to={to} />
      ))}
    </section>
  );
}

function LockStrip() {
  const nodes = useLabPanel(selectNodes);
  const leaderId = useLabPanel(selectLeader);
  const leader = nodes.find((n) => n.id === leaderId) ?? null;
  return (
    <section className="facts-locks" aria-label="Lock table" data-testid="presenter-locks">
      <h2>Lock table{leader ? ` (${leader.id})` : ''}</h2>
      {leader === null ? (
        <p className="muted">no leader to ask</p>
      ) : leader.locks.length === 0 ? (
        <p>every lock free</p>
      ) : (
        <ul>
          {leader.locks.map((l) => (
            <li key={l.key}>
              {l.key}: <strong>{l.owner}</strong>, token {l.token}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const PresenterFacts = memo(function PresenterFacts() {
  const shows = useLab(selectShows);
  const hasClients = useLab((s) => selectConfig(s).clientIds.length > 0);
  return (
    <aside className="presenter-facts" aria-label="Logs and verdicts">
      <VerdictBadge history={shows?.includes('history') ?? false} />
      <LogStrip />
      {hasClients && shows?.includes('locks') && <LockStrip />}
    </aside>
  );
});
