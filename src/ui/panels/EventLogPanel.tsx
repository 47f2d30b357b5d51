/** The event log in the chapter's line format, newest at the bottom and kept in view, filterable. */
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EVENT_CATEGORIES, eventCategory, type SimEvent } from '../../sim/events';
import { useLab, useLabStore } from '../labContext';
import { selectClientIds, selectEventFilter, selectEvents, selectNodeIds } from '../store/selectors';

/** Lines rendered at most (the newest); the store keeps more. */
export const EVENT_LINES_SHOWN = 400;

/**
 * A stable key per event object: when the shown window slides by one line, React then moves
 * nothing and re-creates nothing but the lines that came and went.
 */
const eventKeys = new WeakMap<SimEvent, number>();
let nextEventKey = 0;
function keyOf(e: SimEvent): number {
  let key = eventKeys.get(e);
  if (key === undefined) eventKeys.set(e, (key = nextEventKey++));
  return key;
}

export const EventLogPanel = memo(function EventLogPanel() {
  const events = useLab(selectEvents);
  const filter = useLab(useShallow(selectEventFilter));
  const nodeIds = useLab(useShallow(selectNodeIds));
  const clientIds = useLab(useShallow(selectClientIds));
  const store = useLabStore();
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);

  // Scan back from the newest line and stop at EVENT_LINES_SHOWN matches: this runs whenever
  // new lines arrive, so it must not walk the whole kept log every frame.
  const shown = useMemo(() => {
    const all = filter.subject === 'all' && filter.kind === 'all';
    if (all) return events.length > EVENT_LINES_SHOWN ? events.slice(events.length - EVENT_LINES_SHOWN) : events;
    const out: SimEvent[] = [];
    for (let i = events.length - 1; i >= 0 && out.length < EVENT_LINES_SHOWN; i--) {
      const e = events[i];
      if ((filter.subject === 'all' || e.subjects.includes(filter.subject)) && (filter.kind === 'all' || eventCategory(e.kind) === filter.kind)) out.push(e);
    }
    return out.reverse();
  }, [events, filter.subject, filter.kind]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && stickToBottom.current) list.scrollTop = list.scrollHeight;
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
      </div>
      <ol className="event-log" data-testid="event-log" ref={listRef} onScroll={onScroll} tabIndex={0} aria-label="Event log, newest last">
        {shown.map((e) => (
          <li key={keyOf(e)} className={`event event-${eventCategory(e.kind)}`} data-kind={e.kind}>
            {e.line}
          </li>
        ))}
      </ol>
    </section>
  );
});
