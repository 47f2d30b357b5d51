/**
 * How the panels beside the ring catch up with a playing run (src/ui/labContext.tsx): the
 * throttled view wakes them at most every PANEL_INTERVAL_MS while only playback changes, and the
 * event log's lagged view wakes it LOG_PHASE_MS after each of those, so the two never land in
 * the same task; anything a person does reaches both at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { laggedView, LOG_PHASE_MS, PANEL_INTERVAL_MS, throttledView } from '../../src/ui/labContext';
import { createLabStore, EMPTY_FRAME } from '../../src/ui/store/labStore';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function playingStore() {
  const store = createLabStore();
  store.setState({ frame: { ...EMPTY_FRAME, playing: true, runId: 1 } });
  return store;
}

/** One playback frame: a new frame object, the clock 16 ms on. */
function tick(store: ReturnType<typeof createLabStore>) {
  const f = store.getState().frame;
  store.setState({ frame: { ...f, clockMs: f.clockMs + 16 } });
}

describe('panel views', () => {
  it('the panels catch up every PANEL_INTERVAL_MS while playing, and the log LOG_PHASE_MS after them', () => {
    const store = playingStore();
    const panels = throttledView(store, PANEL_INTERVAL_MS);
    const log = laggedView(panels, LOG_PHASE_MS);
    const seen: string[] = [];
    panels.subscribe(() => seen.push(`panels@${Date.now() - start}`));
    log.subscribe(() => seen.push(`log@${Date.now() - start}`));
    const start = Date.now();
    for (let t = 0; t < 400; t += 16) {
      tick(store);
      vi.advanceTimersByTime(16);
    }
    vi.advanceTimersByTime(200);
    const at = (who: string) => seen.filter((s) => s.startsWith(who)).map((s) => Number(s.split('@')[1]));
    const panelTimes = at('panels');
    const logTimes = at('log');
    expect(panelTimes.length).toBeGreaterThanOrEqual(3);
    expect(panelTimes.length).toBeLessThanOrEqual(6);
    // Each of the log's catch-ups comes LOG_PHASE_MS after one of the panels', never with it.
    expect(logTimes.length).toBe(panelTimes.length);
    logTimes.forEach((t, i) => expect(t - panelTimes[i]).toBe(LOG_PHASE_MS));
    for (const t of logTimes) expect(panelTimes).not.toContain(t);
    // The log sees the state as it is when it catches up.
    expect(log.getState()).toBe(store.getState());
  });

  it('a pause reaches the panels and the log at once', () => {
    const store = playingStore();
    const panels = throttledView(store, PANEL_INTERVAL_MS);
    const log = laggedView(panels, LOG_PHASE_MS);
    let panelWakes = 0;
    let logWakes = 0;
    panels.subscribe(() => panelWakes++);
    log.subscribe((s) => {
      logWakes++;
      expect(s).toBe(store.getState());
    });
    tick(store);
    vi.advanceTimersByTime(16);
    const [p, l] = [panelWakes, logWakes];
    store.setState({ frame: { ...store.getState().frame, playing: false } });
    expect(panelWakes).toBe(p + 1);
    expect(logWakes).toBe(l + 1);
  });

  it('unsubscribing the last listener stops the timers', () => {
    const store = playingStore();
    const panels = throttledView(store, PANEL_INTERVAL_MS);
    const log = laggedView(panels, LOG_PHASE_MS);
    let wakes = 0;
    const stop = log.subscribe(() => wakes++);
    tick(store);
    vi.advanceTimersByTime(5);
    tick(store);
    stop();
    const before = wakes;
    vi.advanceTimersByTime(500);
    expect(wakes).toBe(before);
    expect(vi.getTimerCount()).toBe(0);
  });
});
