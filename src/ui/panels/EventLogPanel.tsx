/** The event log in the chapter's line format, newest at the bottom and kept in view, filterable. */
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EVENT_KINDS } from '../../sim/events';
import { useLab, useLabStore } from '../labContext';
import { selectClientIds, selectEvents, selectNodeIds } from '../store/selectors';
import type { LabState } from '../store/labStore';

/** Lines rendered at most (the newest); the store keeps more. */
export const EVENT_LINES_SHOWN = 400;

const selectFilter = (s: LabState) => ({ subject: s.eventSubject, kind: s.eventKind });

export const EventLogPanel = memo(function EventLogPanel() {
  const events = useLab(selectEvents);
  const filter = useLab(useShallow(selectFilter));
  const nodeIds = useLab(useShallow(selectNodeIds));
  const clientIds = useLab(useShallow(selectClientIds));
  const store = useLabStore();
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);

  const shown = useMemo(() => {
    const out = events.filter(
      (e) => (filter.subject === 'all' || e.subjects.includes(filter.subject)) && (filter.kind === 'all' || e.kind === filter.kind),
    );
    return out.length > EVENT_LINES_SHOWN ? out.slice(out.length - EVENT_LINES_SHOWN) : out;
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
            {EVENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ol className="event-log" data-testid="event-log" ref={listRef} onScroll={onScroll} tabIndex={0} aria-label="Event log, newest last">
        {shown.map((e, i) => (
          <li key={`${e.t}-${i}-${e.line}`} className={`event event-${e.kind}`}>
            {e.line}
          </li>
        ))}
      </ol>
    </section>
  );
});
