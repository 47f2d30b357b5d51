/**
 * The History view (issue 15): every client operation as a bar from invocation to completion,
 * one row per client, coloured by the result the client saw; the linearizability verdict of
 * each model at the top. A failed verdict's minimal subset is outlined in the bars and listed;
 * clicking the verdict seeks to the moment its last operation completed.
 *
 * The worker checks the history on demand (when this tab is open and the time moves), so a
 * closed tab costs nothing.
 */
import { memo, useState } from 'react';
import { history as sayHistory } from '../../sim/model/describe';
import { VERDICT_NAMES, verdictStake, type Verdict, type VerdictName } from '../../sim/check/linearizability/check';
import { useBridge, useLabPanel } from '../labContext';
import { selectConfig } from '../store/selectors';
import { TRACKS, layoutHistory, shownVerdict as pickShown, subsetSeekMs } from './historyLanes';
import { useHistory } from './useHistory';

export const VERDICT_LABELS: Readonly<Record<VerdictName, string>> = {
  locks: 'Lock service',
  fenced: 'Fenced store, strict mutual exclusion',
  unfenced: 'Unfenced store, strict mutual exclusion',
  fencedOrder: 'Fenced store, fencing order',
  unfencedOrder: 'Unfenced store, fencing order',
  register: 'Register (put/get)',
};

function verdictMark(v: Verdict | undefined): { mark: string; text: string; cls: string } {
  if (v === undefined) return { mark: '·', text: 'not checked', cls: 'na' };
  if (v.linearizable === true) return { mark: '✓', text: 'linearizable', cls: 'ok' };
  if (v.linearizable === false) return { mark: '✗', text: `not linearizable (${v.subset.length} operations on ${v.key})`, cls: 'bad' };
  if (v.linearizable === 'unknown') return { mark: '?', text: `unknown: ${v.reason}`, cls: 'unknown' };
  return { mark: '–', text: `n/a: ${v.reason}`, cls: 'na' };
}

const KEY = [
  ['ok', 'granted, released or accepted'],
  ['refused', 'busy or refused'],
  ['open', 'not completed'],
  ['service', 'expiry'],
] as const;

const ROW_H = 30;
const TRACK_H = 8;
const LEFT = 64;
const WIDTH = 520;

export const HistoryPanel = memo(function HistoryPanel() {
  const bridge = useBridge();
  const message = useHistory();
  const clients = useLabPanel(selectConfig).clientIds;
  const [chosen, setChosen] = useState<VerdictName | null>(null);
  if (clients.length === 0) {
    return (
      <section className="panel history-panel" aria-label="History">
        <p className="muted">
          This run has no lock-service clients, so there is no client history to check. Pick a preset with clients (fencing, clock-drift) or
          add clients in Settings.
        </p>
      </section>
    );
  }
  if (message === null || message.verdicts === null) {
    return (
      <section className="panel history-panel" aria-label="History">
        <p className="muted">Checking the history…</p>
      </section>
    );
  }
  const { ops, verdicts, atMs } = message;
  const shown = pickShown(verdicts, chosen);
  const shownVerdict = shown !== null ? verdicts[shown] : undefined;
  const subset = new Set(shownVerdict?.linearizable === false ? shownVerdict.subset : []);
  const layout = layoutHistory(ops, clients, atMs, LEFT, WIDTH);
  const height = layout.rows.length * ROW_H + 24;
  return (
    <section className="panel history-panel" aria-label="History" data-testid="history-panel" data-at-ms={atMs}>
      <h2 className="history-title">
        Client history to t={atMs} ms <span className="muted">({ops.length} operations)</span>
      </h2>
      <ul className="history-verdicts" aria-label="Linearizability verdicts">
        {VERDICT_NAMES.map((name) => {
          const v = verdicts[name];
          const { mark, text, cls } = verdictMark(v);
          const stake = verdictStake(name, v);
          const label = `${VERDICT_LABELS[name]}: ${text}${cls === 'bad' ? (stake === 'violation' ? ' — a violation' : ' — a finding') : ''}`;
          return (
            <li
              key={name}
              className={`history-verdict verdict-${cls}${shown === name ? ' chosen' : ''}`}
              data-verdict={name}
              data-result={cls}
            >
              <span className="verdict-mark" aria-hidden="true">
                {mark}
              </span>
              {v?.linearizable === false ? (
                <button
                  type="button"
                  className="linkish"
                  aria-pressed={shown === name}
                  onClick={() => {
                    setChosen(name);
                    bridge.seek(subsetSeekMs(ops, v.subset));
                  }}
                  title="Show its operations and go to the time the last of them completed"
                >
                  {label}
                </button>
              ) : (
                <span>{label}</span>
              )}
            </li>
          );
        })}
      </ul>
      <svg
        className="history-lanes"
        viewBox={`0 0 ${LEFT + WIDTH + 8} ${height}`}
        role="img"
        aria-label={`Operations of ${layout.rows.join(', ')} from t=${layout.fromMs} to t=${layout.toMs} ms; tracks: lock, fenced store, unfenced store`}
      >
        {layout.rows.map((row, i) => (
          <g key={row} transform={`translate(0 ${i * ROW_H})`}>
            <text x={4} y={ROW_H / 2 + 4} className="history-row-label">
              {row}
            </text>
            <line x1={LEFT} x2={LEFT + WIDTH} y1={ROW_H - 2} y2={ROW_H - 2} className="history-row-rule" />
          </g>
        ))}
        {layout.bars.map((b) => {
          const inSubset = subset.has(b.op.id);
          const y = b.row * ROW_H + 3 + TRACKS.indexOf(b.track) * TRACK_H;
          return (
            <rect
              key={b.op.id}
              x={b.x}
              y={y}
              width={b.width}
              height={TRACK_H - 1}
              rx={1.5}
              className={`history-bar tone-${b.tone}${b.open ? ' open' : ''}${inSubset ? ' in-subset' : subset.size > 0 ? ' dimmed' : ''}`}
              data-op-id={b.op.id}
              data-in-subset={inSubset ? 'true' : undefined}
              onClick={() => bridge.seek(b.op.completeMs ?? b.op.invokeMs)}
            >
              <title>{sayHistory.opText(b.op)}</title>
            </rect>
          );
        })}
        {layout.folds.map((f) => (
          <text key={`fold-${f.x}`} x={f.x} y={height - 22} className="history-fold" textAnchor="middle">
            <title>{`${(f.ms / 1000).toFixed(1)} s with no operation, folded`}</title>⋯
          </text>
        ))}
        {layout.ticks
          .filter((t, i, all) => i === 0 || t.x - all[i - 1].x >= 48)
          .map((t) => (
            <text key={`tick-${t.ms}`} x={t.x} y={height - 4} className="history-axis">
              {t.ms}
            </text>
          ))}
        <text x={LEFT + WIDTH} y={height - 4} className="history-axis" textAnchor="end">
          ms
        </text>
      </svg>
      <p className="history-key muted">
        Each row: lock operations, then writes to the fenced and the unfenced store.{' '}
        {KEY.map(([tone, text]) => (
          <span key={tone} className="key">
            <i className={`swatch tone-${tone}`} aria-hidden="true" /> {text}
          </span>
        ))}
      </p>
      {shownVerdict?.linearizable === false && shown !== null && (
        <div className="history-subset" data-testid="history-subset">
          <h3>
            {VERDICT_LABELS[shown]}: no order of these {shownVerdict.subset.length} operations works
            {shownVerdict.minimal ? '' : ' (the search stopped before it could shrink them further)'}
          </h3>
          <ol>
            {shownVerdict.subset.map((id) => (
              <li key={id} data-op-id={id}>
                {ops[id] ? sayHistory.opText(ops[id]) : `#${id}`}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
});
