/**
 * The clients' history of the viewed run, checked by the worker on demand: asked again whenever
 * the time on screen or the run changes, one request at a time and at most every RECHECK_MS while
 * the time moves, so a view that does not show it costs nothing. Shared by the History tab and the
 * space-time view (which draws the operations beside the client lanes).
 */
import { useEffect, useRef, useState } from 'react';
import type { HistoryMessage } from '../../worker/protocol';
import { useBridge, useLabPanel } from '../labContext';
import { selectNow, selectRunId } from '../store/selectors';

/** Between two checks while the time moves (playing), at least this long. */
const RECHECK_MS = 250;

/** Asks the worker for the history whenever the time on screen or the run changes, one request at a time; nothing while not `enabled`. */
export function useHistory(enabled = true): HistoryMessage | null {
  const bridge = useBridge();
  const now = useLabPanel(selectNow);
  const runId = useLabPanel(selectRunId);
  const [message, setMessage] = useState<HistoryMessage | null>(null);
  const state = useRef({
    inFlight: false,
    again: false,
    last: -Infinity,
    timer: null as ReturnType<typeof setTimeout> | null,
    alive: true,
  });
  useEffect(() => {
    const s = state.current;
    if (!enabled) return;
    s.alive = true;
    const ask = () => {
      s.timer = null;
      s.inFlight = true;
      s.again = false;
      s.last = performance.now();
      void bridge.requestHistory().then((m) => {
        s.inFlight = false;
        if (!s.alive) return;
        setMessage(m);
        if (s.again) schedule();
      });
    };
    const schedule = () => {
      if (s.inFlight) {
        s.again = true;
        return;
      }
      if (s.timer !== null) return;
      const wait = s.last + RECHECK_MS - performance.now();
      if (wait <= 0) ask();
      else s.timer = setTimeout(ask, wait);
    };
    schedule();
    return () => {
      s.alive = false;
      if (s.timer !== null) clearTimeout(s.timer);
      s.timer = null;
    };
  }, [bridge, now, runId, enabled]);
  return enabled ? message : null;
}
