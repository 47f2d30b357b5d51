/**
 * Bring your own run (issue 27): a file from another tool, read and checked in the import worker
 * (a progress bar, a time limit, Cancel), then drawn with the views Lockstep has — a history on
 * the space-time view's lanes and in a History view, an etcd raft trace on the space-time view —
 * with the verdict, the sentence that explains it, the longest linearizable prefix and the minimal
 * failing subset outlined. Hovering an operation shows the state before and after it in the
 * linearization found. A share link cannot carry a file: the exports stand in for it.
 *
 * Loaded on demand (App.tsx imports it lazily), with its worker: nothing here is in the page's
 * first load.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ImportedView, ModelName, ViewOp } from '../../sim/import/view';
import type { FailedCas } from '../../sim/import/checkImported';
import type { HostToImportWorker, ImportWorkerToHost } from '../../worker/protocol';
import type { BarTone } from '../panels/historyLanes';
import type { SceneHistory, SceneOp } from '../spacetime/historyBars';
import type { SceneMark } from '../spacetime/scene';
import { SpaceTimeView, type SpaceTimeViewState } from '../spacetime/SpaceTimeView';
import { traceToSvg } from '../spacetime/svgExport';
import { pngFromSvg, svgSize } from '../spacetime/pngFromSvg';
import type { TimeWindow } from '../spacetime/geometry';
import { downloadBlob, downloadText } from '../export/download';
import { MARK_NAMES } from '../spacetime/marks';
import { Legend } from '../diagram/Legend';
import { closeImportedFile, useImportedFile, type ImportFile } from './importStore';
import './importer.css';

/** How long the page's search may take before its verdict is "unknown" (npm run check has --time-limit). */
export const PAGE_TIME_LIMIT_MS = 20_000;

const MODEL_CHOICES: readonly { readonly id: ModelName; readonly label: string }[] = [
  { id: 'cas-register', label: 'CAS register (read, write, cas)' },
  { id: 'kv', label: 'Key-value map, each key a register' },
  { id: 'append-kv', label: "Porcupine's key-value map (get, put, append)" },
  { id: 'multi-register', label: "Knossos's multi-register (:txn)" },
  { id: 'mutex', label: "Knossos's mutex (ownerless: any release frees it)" },
  { id: 'owned-mutex', label: "Lockstep's mutex with owners" },
];

type Status =
  | { readonly kind: 'checking'; readonly placed: number; readonly total: number; readonly elapsedMs: number }
  | { readonly kind: 'done'; readonly view: ImportedView; readonly elapsedMs: number }
  | { readonly kind: 'failed'; readonly error: string; readonly choices: readonly ModelName[] }
  | { readonly kind: 'cancelled'; readonly elapsedMs: number };

interface CheckOptions {
  readonly model: ModelName | '';
  readonly initial: string;
  /** '' : as the file's tool reads a failed cas. */
  readonly failedCas: FailedCas | '';
}

/** Runs one check in a fresh worker; returns a function that cancels it (ends the worker). */
function startCheck(file: ImportFile, options: CheckOptions, request: number, onMessage: (m: ImportWorkerToHost) => void): () => void {
  const worker = new Worker(new URL('../../worker/import.worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (e: MessageEvent<ImportWorkerToHost>) => {
    onMessage(e.data);
    if (e.data.type !== 'import-progress') worker.terminate();
  });
  worker.addEventListener('error', (e) => {
    onMessage({ type: 'import-failed', request, error: `The import worker failed: ${e.message || 'it could not start'}.` });
    worker.terminate();
  });
  const message: HostToImportWorker = {
    type: 'import-file',
    request,
    name: file.name,
    text: file.text,
    ...(options.model !== '' ? { model: options.model } : {}),
    ...(options.initial.trim() !== '' ? { initial: options.initial.trim() } : {}),
    ...(options.failedCas !== '' ? { failedCas: options.failedCas } : {}),
    timeLimitMs: PAGE_TIME_LIMIT_MS,
  };
  worker.postMessage(message);
  return () => worker.terminate();
}

export default function ImportScreen() {
  const file = useImportedFile();
  const [options, setOptions] = useState<CheckOptions>({ model: '', initial: '', failedCas: '' });
  const [status, setStatus] = useState<Status>({ kind: 'checking', placed: 0, total: 0, elapsedMs: 0 });
  const cancelRef = useRef<(() => void) | null>(null);
  const requestRef = useRef(0);
  const startedRef = useRef(0);

  const run = useCallback((f: ImportFile, o: CheckOptions) => {
    cancelRef.current?.();
    const request = ++requestRef.current;
    startedRef.current = performance.now();
    setStatus({ kind: 'checking', placed: 0, total: 0, elapsedMs: 0 });
    cancelRef.current = startCheck(f, o, request, (m) => {
      if (m.request !== requestRef.current) return;
      if (m.type === 'import-progress') setStatus({ kind: 'checking', placed: m.placed, total: m.total, elapsedMs: m.elapsedMs });
      else {
        cancelRef.current = null;
        if (m.type === 'import-done') setStatus({ kind: 'done', view: m.view, elapsedMs: m.elapsedMs });
        else setStatus({ kind: 'failed', error: m.error, choices: m.choices ?? [] });
      }
    });
  }, []);

  useEffect(() => {
    if (!file) return;
    const fresh = { model: '' as const, initial: '', failedCas: '' as const };
    setOptions(fresh);
    run(file, fresh);
    return () => cancelRef.current?.();
  }, [file?.serial, run]);

  // The bar moves with the clock too: the search cannot know how much is left.
  const [, tick] = useState(0);
  useEffect(() => {
    if (status.kind !== 'checking') return;
    const t = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, [status.kind]);

  if (!file) return null;
  const cancel = () => {
    cancelRef.current?.();
    cancelRef.current = null;
    requestRef.current++;
    setStatus({ kind: 'cancelled', elapsedMs: performance.now() - startedRef.current });
  };
  const recheck = (o: CheckOptions) => {
    setOptions(o);
    run(file, o);
  };

  return (
    <main className="import-screen" data-testid="import-screen" aria-label={`Imported file ${file.name}`}>
      <header className="import-head">
        <button type="button" onClick={closeImportedFile} title="Close this file and go back to the simulated run (it is kept as it was)">
          ← Back to the lab
        </button>
        <h1>
          <span className="muted">Imported file:</span> <span data-testid="import-name">{file.name}</span>
          {status.kind === 'done' && <span className="import-format"> · {status.view.formatName}</span>}
        </h1>
      </header>
      {status.kind === 'checking' && <Progress status={status} startedAt={startedRef.current} onCancel={cancel} />}
      {status.kind === 'cancelled' && (
        <p className="import-verdict verdict-unknown" role="status" data-testid="import-verdict" data-result="unknown">
          ? Cancelled after {(status.elapsedMs / 1000).toFixed(1)} s: no verdict (unknown, not a wrong answer).{' '}
          <button type="button" onClick={() => run(file, options)}>
            Check again
          </button>
        </p>
      )}
      {status.kind === 'failed' && (
        <div className="import-failed" role="alert" data-testid="import-error">
          <p>{status.error}</p>
          {status.choices.length > 0 ? (
            <ModelPicker choices={status.choices} options={options} onCheck={recheck} />
          ) : (
            <p className="muted">Nothing was loaded; the simulated run is kept as it was.</p>
          )}
        </div>
      )}
      {status.kind === 'done' && <Result view={status.view} elapsedMs={status.elapsedMs} options={options} onCheck={recheck} />}
    </main>
  );
}

function Progress({
  status,
  startedAt,
  onCancel,
}: {
  status: Extract<Status, { kind: 'checking' }>;
  startedAt: number;
  onCancel: () => void;
}) {
  const elapsed = Math.max(status.elapsedMs, performance.now() - startedAt);
  const pct = Math.min(100, Math.round((elapsed / PAGE_TIME_LIMIT_MS) * 100));
  return (
    <div className="import-progress" role="status" data-testid="import-progress">
      <label>
        Checking in the background: {(elapsed / 1000).toFixed(1)} s of at most {PAGE_TIME_LIMIT_MS / 1000} s
        {status.total > 0
          ? ` · the search has placed ${status.placed.toLocaleString('en-US')} of ${status.total.toLocaleString('en-US')} completed operations`
          : ''}
        <progress max={100} value={pct} aria-label="Time used of the check's limit" />
      </label>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function ModelPicker({
  choices,
  options,
  onCheck,
}: {
  choices: readonly ModelName[];
  options: CheckOptions;
  onCheck: (o: CheckOptions) => void;
}) {
  const [model, setModel] = useState<ModelName | ''>(options.model === '' ? (choices[0] ?? '') : options.model);
  const [initial, setInitial] = useState(options.initial);
  const [failedCas, setFailedCas] = useState<FailedCas | ''>(options.failedCas);
  const mutex = model === 'mutex' || model === 'owned-mutex';
  const registers = model === 'cas-register' || model === 'kv';
  return (
    <form
      className="import-model"
      onSubmit={(e) => {
        e.preventDefault();
        onCheck({ model, initial: mutex ? '' : initial, failedCas: registers ? failedCas : '' });
      }}
    >
      <fieldset>
        <legend>Model</legend>
        {MODEL_CHOICES.filter((c) => choices.length === 0 || choices.includes(c.id)).map((c) => (
          <label key={c.id}>
            <input type="radio" name="import-model" value={c.id} checked={model === c.id} onChange={() => setModel(c.id)} />
            {c.label}
          </label>
        ))}
      </fieldset>
      {!mutex && (
        <label className="import-initial">
          Initial value (EDN){' '}
          <input
            value={initial}
            placeholder="nil"
            size={6}
            onChange={(e) => setInitial(e.currentTarget.value)}
            aria-describedby="import-initial-hint"
          />
          <span id="import-initial-hint" className="muted">
            nil by default; Knossos's suites start at 0
          </span>
        </label>
      )}
      {registers && (
        <label className="import-initial">
          A failed cas{' '}
          <select value={failedCas} onChange={(e) => setFailedCas(e.currentTarget.value as FailedCas | '')} data-testid="import-failed-cas">
            <option value="">as the file’s tool reads it</option>
            <option value="mismatch">found another value (Porcupine)</option>
            <option value="no-effect">did not happen (Knossos)</option>
          </select>
        </label>
      )}
      <button type="submit" className="primary">
        Check again
      </button>
    </form>
  );
}

// Jepsen's colours: :ok green, :fail red, :info orange (and dashed, so not by colour alone).
const toneOf = (op: ViewOp): BarTone => (op.type === 'ok' ? 'ok' : op.type === 'fail' ? 'fail' : 'info');

function stateLine(op: ViewOp): string {
  if (op.before !== null) return `in the linearization found: before ${op.before}, after ${op.after}`;
  if (op.type === 'info' || op.type === 'pending')
    return 'indeterminate: the linearization found leaves it out (it may not have taken effect)';
  if (op.type === 'fail') return 'failed: it did not take effect';
  return 'not in the linearization found';
}

function Result({
  view,
  elapsedMs,
  options,
  onCheck,
}: {
  view: ImportedView;
  elapsedMs: number;
  options: CheckOptions;
  onCheck: (o: CheckOptions) => void;
}) {
  const v = view.verdict;
  const [focus, setFocus] = useState<{ window: TimeWindow; key: number } | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = useRef<SpaceTimeViewState | null>(null);
  const subset = useMemo(() => new Set(v.subset), [v.subset]);
  const byId = useMemo(() => new Map(view.ops.map((o) => [o.id, o])), [view.ops]);
  const history = useMemo<SceneHistory | null>(() => {
    if (view.kind !== 'history') return null;
    // An :info operation is drawn to its :info line in its own (dashed) kind; one never completed runs on to the end.
    const ops: SceneOp[] = view.ops.map((o) => ({
      id: o.id,
      client: o.lane,
      store: null,
      invokeMs: o.from,
      completeMs: o.to ?? o.endedAt,
      op: o.f,
    }));
    return {
      ops,
      subset,
      atMs: view.trace.untilMs,
      toneOf: (o) => toneOf(byId.get(o.id) as ViewOp),
      labelOf: (o) => {
        const op = byId.get(o.id) as ViewOp;
        return `${op.text}; ${stateLine(op)}`;
      },
    };
  }, [view, subset, byId]);
  const marks = useMemo<SceneMark[]>(() => view.marks.map((m) => ({ lane: m.lane, ms: m.ms, kind: m.kind, text: m.text })), [view.marks]);
  const cls = v.linearizable === true ? 'ok' : v.linearizable === false ? 'bad' : 'unknown';
  const mark = v.linearizable === true ? '✓' : v.linearizable === false ? '✗' : '?';
  const what =
    view.kind === 'trace'
      ? v.linearizable === true
        ? 'every Raft invariant holds'
        : v.linearizable === false
          ? 'a Raft invariant is violated'
          : 'unknown: no verdict (not a wrong one)'
      : v.linearizable === true
        ? 'linearizable'
        : v.linearizable === false
          ? 'not linearizable'
          : 'unknown: no verdict (not a wrong one)';
  const showAround = (ms: number) => {
    const span = Math.max(5, view.trace.untilMs / 20);
    setFocus((f) => ({ window: [Math.max(0, ms - span), ms + span], key: (f?.key ?? 0) + 1 }));
  };
  const title = `Lockstep: ${view.name} (${view.formatName})`;
  const svgNow = () => {
    const s = shown.current;
    if (!s) return null;
    return traceToSvg(view.trace, {
      theme: s.theme,
      width: s.width,
      height: s.height,
      window: s.window,
      seed: '',
      title,
      lanes: s.lanes,
      heartbeats: s.heartbeats,
      compress: s.compress,
      history: s.history,
      marks: s.marks ?? [],
    });
  };
  const base = view.name.replace(/\.[^.]+$/, '') || 'imported';
  const hoveredOp = hovered === null ? null : (byId.get(hovered) ?? null);

  return (
    <div className="import-result">
      <section className="import-summary" aria-label="Verdict">
        <p className={`import-verdict verdict-${cls}`} data-testid="import-verdict" data-result={cls}>
          <span className="verdict-mark" aria-hidden="true">
            {mark}
          </span>{' '}
          <strong>{what}</strong>{' '}
          <span className="muted">
            ({view.kind === 'trace' ? 'five Raft invariants' : v.modelText}
            {v.initial !== null ? `, from ${v.initial}` : ''}
            {v.failedCasText !== null ? `; ${v.failedCasText}` : ''}; {(elapsedMs / 1000).toFixed(2)} s)
          </span>
        </p>
        {v.sentence !== null && (
          <p className="import-sentence" data-testid="import-sentence">
            {v.sentence.replace(/\.$/, '')}.
          </p>
        )}
        {v.reason !== null && <p className="import-sentence">{v.reason}.</p>}
        {v.prefix !== null && (
          <p className="import-prefix" data-testid="import-prefix">
            {v.prefix}
          </p>
        )}
        {v.subset.length > 0 && (
          <details className="import-subset" open data-testid="import-subset">
            <summary>
              {v.minimal ? 'Minimal failing subset' : 'Operations no order places'} ({v.subset.length}, outlined on both views)
            </summary>
            <ol>
              {v.subset.map((id) => (
                <li key={id} data-op-id={id}>
                  {byId.get(id)?.text ?? `#${id}`}
                </li>
              ))}
            </ol>
          </details>
        )}
        {v.notes.length > 0 && (
          <ul className="import-notes muted">
            {v.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        )}
        {view.kind === 'history' && (
          <details className="import-options">
            <summary>Model and initial value</summary>
            <ModelPicker
              choices={[]}
              options={{
                ...options,
                model: options.model === '' && v.model !== 'porcupine-report' && v.model !== 'raft-invariants' ? v.model : options.model,
              }}
              onCheck={onCheck}
            />
          </details>
        )}
        <div className="import-share" data-testid="import-share">
          <p>
            <strong>A share link cannot carry this file:</strong> it stays in this browser. Share an export instead:
          </p>
          <div className="import-exports">
            <button
              type="button"
              onClick={() => {
                const svg = svgNow();
                if (svg) downloadText(`${base}-spacetime.svg`, svg, 'image/svg+xml');
              }}
            >
              View as SVG
            </button>
            <button
              type="button"
              onClick={async () => {
                const svg = svgNow();
                if (!svg) return;
                const { width, height } = svgSize(svg);
                downloadBlob(`${base}-spacetime.png`, await pngFromSvg(svg, width, height));
              }}
            >
              View as PNG
            </button>
            <button type="button" onClick={() => downloadText(`${base}-parsed.json`, view.parsedJson, 'application/json')}>
              Parsed file (JSON)
            </button>
            {view.porcupineJson !== null && (
              <button
                type="button"
                onClick={() => downloadText(`${base}-porcupine.json`, view.porcupineJson as string, 'application/json')}
                title="Porcupine's visualization data: the history with the linearization found, per object"
              >
                Porcupine data (JSON)
              </button>
            )}
          </div>
        </div>
      </section>
      <div className="import-views">
        <section className="import-spacetime" aria-label="Space-time view">
          <SpaceTimeView
            key={focus?.key ?? 0}
            trace={view.trace}
            nowMs={hoveredOp ? hoveredOp.from : -1}
            {...(focus ? { window: focus.window } : {})}
            onSeek={() => {}}
            onMessage={() => {}}
            onViewChange={(s) => (shown.current = s)}
            history={history}
            marks={marks}
            imported={view.kind}
          />
        </section>
        <section className="import-side" aria-label={view.kind === 'trace' ? 'Violations' : 'History'}>
          {view.kind === 'history' ? (
            <ImportHistory view={view} subset={subset} hovered={hovered} onHover={setHovered} />
          ) : (
            <Violations view={view} onShow={showAround} />
          )}
        </section>
      </div>
    </div>
  );
}

const ROW_H = 22;
const LEFT = 54;
const WIDTH = 560;

/** The History view of an imported history: one row per process, a bar per operation from call to return. */
const ImportHistory = memo(function ImportHistory({
  view,
  subset,
  hovered,
  onHover,
}: {
  view: ImportedView;
  subset: ReadonlySet<number>;
  hovered: number | null;
  onHover: (id: number | null) => void;
}) {
  const end = Math.max(1, view.trace.untilMs);
  const x = (t: number) => LEFT + (Math.min(Math.max(t, 0), end) / end) * WIDTH;
  const rows = view.processes;
  const processCount = useMemo(() => new Set(view.ops.map((o) => o.process)).size, [view.ops]);
  const rowOf = new Map(rows.map((r, i) => [r, i]));
  const height = rows.length * ROW_H + 24;
  const op = hovered === null ? null : view.ops.find((o) => o.id === hovered);
  const culprit = view.verdict.culprit;
  return (
    <div className="import-history" data-testid="import-history">
      <h2>
        History{' '}
        <span className="muted">
          ({view.ops.length.toLocaleString('en-US')} operations, {processCount.toLocaleString('en-US')} processes
          {processCount > rows.length ? ` on ${rows.length} lanes` : ''}
          {view.timed ? '' : ', in file order'})
        </span>
      </h2>
      <p className="import-hover" aria-live="polite" data-testid="import-hover">
        {op ? `${op.text} — ${stateLine(op)}` : 'Hover over an operation for the state before and after it in the linearization found.'}
      </p>
      <div className="import-history-scroll">
        {/* As wide as the panel (the viewBox scales), so a wide screen gets larger bars and labels, not a margin. */}
        <svg
          viewBox={`0 0 ${LEFT + WIDTH + 12} ${height}`}
          width="100%"
          style={{ maxWidth: `${Math.round((LEFT + WIDTH + 12) * 1.6)}px` }}
          role="group"
          aria-label={`Operations of ${rows.length} processes`}
        >
          {rows.map((r, i) => (
            <g key={r} transform={`translate(0 ${i * ROW_H})`}>
              <text x={4} y={ROW_H / 2 + 4} className="history-row-label">
                {r}
              </text>
              <line x1={LEFT} x2={LEFT + WIDTH} y1={ROW_H - 1} y2={ROW_H - 1} className="history-row-rule" />
            </g>
          ))}
          {view.ops.map((o) => {
            const row = rowOf.get(o.lane) ?? 0;
            const x0 = x(o.from);
            const stop = o.to ?? o.endedAt;
            const x1 = stop === null ? LEFT + WIDTH : x(stop);
            const inSubset = subset.has(o.id);
            const tone = toneOf(o);
            return (
              <rect
                key={o.id}
                x={x0}
                y={row * ROW_H + 4}
                width={Math.max(3, x1 - x0)}
                height={ROW_H - 9}
                rx={2}
                className={`history-bar tone-${tone}${inSubset ? ' in-subset' : subset.size > 0 ? ' dimmed' : ''}${o.id === culprit ? ' culprit' : ''}${o.id === hovered ? ' hovered' : ''}`}
                data-op-id={o.id}
                data-tone={tone}
                data-in-subset={inSubset ? 'true' : undefined}
                tabIndex={inSubset || o.id === culprit ? 0 : -1}
                onMouseEnter={() => onHover(o.id)}
                onMouseLeave={() => onHover(null)}
                onFocus={() => onHover(o.id)}
                onBlur={() => onHover(null)}
              >
                <title>{`${o.text}; ${stateLine(o)}`}</title>
              </rect>
            );
          })}
          {culprit !== null &&
            (() => {
              const o = view.ops.find((p) => p.id === culprit);
              if (!o) return null;
              const row = rowOf.get(o.lane) ?? 0;
              return (
                <text
                  x={(o.to === null ? LEFT + WIDTH : x(o.to)) + 3}
                  y={row * ROW_H + ROW_H / 2 + 5}
                  className="import-culprit-mark"
                  aria-hidden="true"
                >
                  ✗
                </text>
              );
            })()}
          <text x={LEFT} y={height - 4} className="history-axis">
            0
          </text>
          <text x={LEFT + WIDTH} y={height - 4} className="history-axis" textAnchor="end">
            {view.timed ? `${Math.round(end).toLocaleString('en-US')} ms` : `event ${end}`}
          </text>
        </svg>
      </div>
      <p className="history-key muted">
        <span className="key">
          <i className="swatch tone-ok" aria-hidden="true" /> :ok
        </span>{' '}
        <span className="key">
          <i className="swatch tone-fail" aria-hidden="true" /> :fail
        </span>{' '}
        <span className="key">
          <i className="swatch tone-info" aria-hidden="true" /> :info (dashed, to its :info line) or never completed (to the end): it may
          take effect at any time after its call
        </span>{' '}
        <span className="key">
          <i className="swatch in-subset" aria-hidden="true" /> outlined: the minimal failing subset; ✗ the operation that can never be
          placed
        </span>
      </p>
    </div>
  );
});

function Violations({ view, onShow }: { view: ImportedView; onShow: (ms: number) => void }) {
  return (
    <div className="import-violations" data-testid="import-violations">
      <h2>Raft invariants</h2>
      <p className="muted">{view.verdict.modelText.replace(/^Raft invariants: /, 'Checked over the whole trace: ')}.</p>
      {view.violations.length === 0 ? (
        <p>None of the five invariants is violated anywhere in the trace.</p>
      ) : (
        <ol>
          {view.violations.map((x, i) => (
            <li key={i} data-invariant={x.invariant}>
              <p className="import-why">
                <strong>Why?</strong> {x.sentence}
              </p>
              <button type="button" onClick={() => onShow(x.ms)}>
                Show line {x.line} on the diagram
              </button>
            </li>
          ))}
        </ol>
      )}
      <ul className="legend import-mark-key" aria-label="Marks on the lanes">
        {(['commit', 'conf', 'violation'] as const).map((k) => (
          <li key={k}>
            <span className={`import-mark-swatch mark-${k}`} aria-hidden="true" /> {MARK_NAMES[k]}
          </li>
        ))}
        <li>a cross at an arrow's end: sent and never received in the trace (dropped)</li>
        <li>a lane's band: the node's role (its term written where it changes)</li>
        <li>short ticks beside a lane: heartbeats, folded (Heartbeats: shown draws each as an arrow)</li>
      </ul>
      <Legend serviceRun={false} />
    </div>
  );
}
