/**
 * Experiments ▸ Compare (issue 26 item 4): the chapter's trade-off table, one row per lock
 * service, each measured cell filled from runs of the same seeds and faults
 * (src/sim/experiments/compareLocks.ts, the same code as `npm run experiment -- --template
 * compare-locks`), the chapter's own words beside it, and each cell a button that opens the run
 * behind it. The runs go a few at a time between frames, so the page stays responsive.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { encodeLink } from '../../share/link';
import {
  COMPARE_LEASE_MS,
  COMPARE_PAUSE_MS,
  compareJobs,
  rowsOf,
  runJob,
  type CompareResult,
  type CompareRun,
  type ServiceRow,
} from '../../sim/experiments/compareLocks';

const link = (r: CompareRun) => '?' + encodeLink({ config: r.config, schedule: r.schedule, atMs: r.untilMs });

function Cell({
  chapter,
  text,
  run,
  onOpen,
  label,
}: {
  chapter: string;
  text: string;
  run: CompareRun | null;
  onOpen: (link: string) => void;
  label: string;
}) {
  return (
    <td>
      <div className="compare-chapter">
        <span className="muted">chapter:</span> “{chapter}”
      </div>
      <div className="compare-measured">
        {run === null ? (
          text
        ) : (
          <button type="button" className="linklike" onClick={() => onOpen(link(run))} title={`Open the run behind this cell (${label})`}>
            {text}
          </button>
        )}
      </div>
    </td>
  );
}

export const CompareTable = memo(function CompareTable({ onOpen }: { onOpen: (link: string) => void }) {
  const [seeds, setSeeds] = useState(3);
  const [results, setResults] = useState<CompareResult[]>([]);
  const [total, setTotal] = useState(0);
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  const fill = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    const jobs = compareJobs(seeds, 1);
    const done: CompareResult[] = [];
    setResults([]);
    setTotal(jobs.length);
    const step = () => {
      const until = performance.now() + 30;
      while (done.length < jobs.length && performance.now() < until) done.push(runJob(jobs[done.length]));
      setResults([...done]);
      timer.current = done.length < jobs.length ? window.setTimeout(step, 0) : null;
    };
    timer.current = window.setTimeout(step, 0);
  };
  const rows: ServiceRow[] = rowsOf(results);
  const running = total > 0 && results.length < total;
  return (
    <section className="compare" aria-label="Compare lock services" data-testid="compare">
      <h2>Compare: the chapter’s table, measured</h2>
      <p className="hint">
        Every lock service under the same faults and seeds. <strong>Pause</strong>: A holds the lock ({COMPARE_LEASE_MS} ms lease) and stops
        for {COMPARE_PAUSE_MS} ms; B asks once the lease would have run out and writes; A writes when it wakes. <strong>Crash</strong>: A
        crashes holding it; B asks every 500 ms. <strong>Quiet</strong>: one acquire. Click a measured cell to open its run.
      </p>
      <div className="button-row">
        <label>
          Seeds per service{' '}
          <select value={seeds} onChange={(e) => setSeeds(Number(e.target.value))} aria-label="Seeds per service">
            {[1, 3, 5, 10].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" className="primary" onClick={fill} disabled={running} data-testid="compare-run">
          {running ? `Running ${results.length}/${total}…` : 'Fill the table'}
        </button>
      </div>
      {rows.length > 0 && (
        <table className="compare-table" data-testid="compare-table">
          <thead>
            <tr>
              <th scope="col">Mechanism</th>
              <th scope="col">Safe when the holder pauses (pause)</th>
              <th scope="col">Failover (crash)</th>
              <th scope="col">Write cost (quiet)</th>
              <th scope="col">Fencing token</th>
              <th scope="col">Operational cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.service} data-service={r.service}>
                <th scope="row">{r.title}</th>
                <Cell
                  chapter={r.chapter.safeWhenPaused}
                  label="pause"
                  text={`two holders in ${r.overlap.text}; unfenced store took the stale write in ${r.unfenced.text}; ${r.fenced === null ? 'no token: the fenced store cannot help' : `fenced store took it in ${r.fenced.text}`}`}
                  run={r.unfenced.run}
                  onOpen={onOpen}
                />
                <Cell chapter={r.chapter.failover} label="crash" text={r.failover.text} run={r.failover.run} onOpen={onOpen} />
                <Cell
                  chapter={`${r.chapter.writeCost} (the chapter’s constant)`}
                  label="quiet"
                  text={`${r.messagesPerAcquire.text}, ${r.roundTripsPerAcquire ?? '-'} round trips per acquire`}
                  run={r.messagesPerAcquire.run}
                  onOpen={onOpen}
                />
                <Cell chapter={r.chapter.fencingToken} label="token" text={r.token ?? 'none'} run={null} onOpen={onOpen} />
                <Cell chapter={r.chapter.operationalCost} label="ops" text="not measured" run={null} onOpen={onOpen} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
});
