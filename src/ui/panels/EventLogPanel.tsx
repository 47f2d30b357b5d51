/**
 * The event log in the chapter's line format, newest at the bottom and kept in view, filterable.
 * Detail events (the second stream) are interleaved where they happened, marked `·`, and can be
 * switched off; they follow the "who" filter and show only under "all kinds".
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EVENT_CATEGORIES, eventCategory, type DetailEvent, type SimEvent } from '../../sim/model/events';
import { lineOfEventKind } from '../../sim/teach/pseudocode';
import { linesMeant } from '../../sim/teach/detectorLines';
import { useLabLog, useLabStore } from '../labContext';
import {
  selectClientIds,
  selectDetails,
  selectEventFilter,
  selectEvents,
  selectEventsBase,
  selectNodeIds,
  selectShowDetails,
} from '../store/selectors';

/**
 * The detail sentences come from the engine's one formatter (describe.ts), loaded beside the
 * page's first load rather than in it: it starts loading with this module and is there long
 * before the run's worker sends its first detail. Until then a detail row shows its time and kind.
 */
type DetailLine = (d: DetailEvent) => string;
let loadedDetailLine: DetailLine | null = null;
const detailLineReady = import('../../sim/model/describe').then((m) => (loadedDetailLine = m.detailLine));
const pendingDetailLine: DetailLine = (d) => `t=${String(d.t).padStart(5, ' ')} ms  · ${d.kind}`;

function useDetailLine(): DetailLine {
  const [line, setLine] = useState<DetailLine>(() => loadedDetailLine ?? pendingDetailLine);
  useEffect(() => {
    if (loadedDetailLine !== null) return;
    let live = true;
    void detailLineReady.then((f) => {
      if (live) setLine(() => f);
    });
    return () => {
      live = false;
    };
  }, []);
  return line;
}

/** Lines rendered at most (the newest); the store keeps more. */
export const EVENT_LINES_SHOWN = 400;

/**
 * A stable key per event object: when the shown window slides by one line, React then moves
 * nothing and re-creates nothing but the lines that came and went.
 */
const eventKeys = new WeakMap<SimEvent | DetailEvent, number>();
let nextEventKey = 0;
function keyOf(e: SimEvent | DetailEvent): number {
  let key = eventKeys.get(e);
  if (key === undefined) eventKeys.set(e, (key = nextEventKey++));
  return key;
}

type Row = { readonly detail: false; readonly e: SimEvent } | { readonly detail: true; readonly d: DetailEvent };

/**
 * The newest `limit` rows that pass `keepEvent`/`keepDetail`, oldest first. Walks both streams
 * back from their ends: a detail recorded after event `i` (its `afterEvent` > i) comes after it.
 */
function newestRows(
  events: readonly SimEvent[],
  base: number,
  details: readonly DetailEvent[],
  keepEvent: (e: SimEvent) => boolean,
  keepDetail: ((d: DetailEvent) => boolean) | null,
  limit: number,
): Row[] {
  const out: Row[] = [];
  let i = events.length - 1;
  let j = keepDetail === null ? -1 : details.length - 1;
  while (out.length < limit && (i >= 0 || j >= 0)) {
    const detailNext = j >= 0 && (i < 0 || details[j].afterEvent > base + i);
    if (detailNext) {
      const d = details[j--];
      if ((keepDetail as (d: DetailEvent) => boolean)(d)) out.push({ detail: true, d });
    } else {
      const e = events[i--];
      if (keepEvent(e)) out.push({ detail: false, e });
    }
  }
  return out.reverse();
}

export const EventLogPanel = memo(function EventLogPanel() {
  const detailLine = useDetailLine();
  const events = useLabLog(selectEvents);
  const base = useLabLog(selectEventsBase);
  const details = useLabLog(selectDetails);
  const showDetails = useLabLog(selectShowDetails);
  const filter = useLabLog(useShallow(selectEventFilter));
  const nodeIds = useLabLog(useShallow(selectNodeIds));
  const clientIds = useLabLog(useShallow(selectClientIds));
  const store = useLabStore();
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);

  // Scan back from the newest line and stop at EVENT_LINES_SHOWN matches: this runs whenever
  // new lines arrive, so it must not walk the whole kept log every frame.
  const shown = useMemo(() => {
    const subject = filter.subject;
    const kind = filter.kind;
    const line = filter.line;
    // A detector's line (issue 28) stands for the chapter's lines it replaces.
    const meant = line === null ? null : linesMeant(line);
    const keepEvent = (e: SimEvent) =>
      (subject === 'all' || e.subjects.includes(subject)) &&
      (kind === 'all' || eventCategory(e.kind) === kind) &&
      (meant === null || meant.includes(lineOfEventKind(e.kind) ?? ''));
    // A pseudocode line's filter shows its details whatever the kind filter says.
    const keepDetail =
      showDetails && (kind === 'all' || line !== null)
        ? (d: DetailEvent) =>
            (subject === 'all' || d.subjects.includes(subject)) &&
            (meant === null || meant.some((l) => (d.lines as readonly string[]).includes(l)))
        : null;
    return newestRows(events, base, details, keepEvent, keepDetail, EVENT_LINES_SHOWN);
  }, [events, base, details, showDetails, filter.subject, filter.kind, filter.line]);

  // Kept at the newest line without forcing a layout: reading scrollHeight right after React
  // changed the rows made the browser lay out the page in the middle of the commit (about a
  // third of a playing 9-node page's script time). A resize observer's callback runs once the
  // frame's own layout is done, when the read is free, so the scroll waits for it.
  const scroller = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      if (stickToBottom.current) list.scrollTop = list.scrollHeight;
    });
    scroller.current = observer;
    return () => {
      observer.disconnect();
      scroller.current = null;
    };
  }, []);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !stickToBottom.current) return;
    const observer = scroller.current;
    const last = list.lastElementChild;
    // A newly observed element is reported after the next layout, whatever its size.
    if (observer && last) {
      observer.disconnect();
      observer.observe(last);
    } else list.scrollTop = list.scrollHeight;
  }, [shown]);

  const onScroll = () => {
    const list = listRef.current;
    if (list) stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  };

  return (
    <section className="panel events-panel" aria-labelledby="events-title">
      <div className="panel-head">
        <h2 id="events-title">Events</h2>
        <label>
          who{' '}
          <select value={filter.subject} onChange={(e) => store.getState().setEventFilter({ subject: e.target.value })}>
            <option value="all">everyone</option>
            {[...nodeIds, ...clientIds].map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          kind{' '}
          <select value={filter.kind} onChange={(e) => store.getState().setEventFilter({ kind: e.target.value })}>
            <option value="all">all kinds</option>
            {EVENT_CATEGORIES.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={showDetails} onChange={(e) => store.getState().setShowDetails(e.target.checked)} /> details
        </label>
        {filter.line !== null && (
          <button
            type="button"
            className="line-filter"
            data-testid="line-filter"
            onClick={() => store.getState().setEventFilter({ line: null })}
          >
            line {filter.line} ✕
          </button>
        )}
      </div>
      <ol className="event-log" data-testid="event-log" ref={listRef} onScroll={onScroll} tabIndex={0} aria-label="Event log, newest last">
        {shown.map((row) =>
          row.detail ? (
            <li key={keyOf(row.d)} className="event event-detail" data-kind={row.d.kind} data-detail="">
              {detailLine(row.d)}
            </li>
          ) : (
            <li key={keyOf(row.e)} className={`event event-${eventCategory(row.e.kind)}`} data-kind={row.e.kind}>
              {row.e.line}
            </li>
          ),
        )}
      </ol>
    </section>
  );
});
