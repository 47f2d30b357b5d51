// @vitest-environment jsdom
// Presenter mode and the embed frame as a person meets them: P and the Present button enter it,
// panels fold away and come back, A−/A+ change the diagram's text, the remote's keys move beats
// or landmarks and blank the screen; pause-at-landmarks and slow-around-events act on playback.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { openTourBeat } from '../../src/ui/tour';
import { currentLink } from '../../src/ui/urlSync';
import { landmarkCrossed, startPlaybackAssist } from '../../src/ui/present/playbackAssist';
import { PresenterConsole } from '../../src/ui/present/PresenterConsole';
import { openPresentLink, type PresentMessage } from '../../src/ui/present/channel';
import { renderLab } from './labHarness';
import { findPreset } from '../../src/sim/run/presets';
import { STRIP_COLUMNS, STRIP_WIDE_COLUMNS, stripWindow } from '../../src/ui/present/PresenterFacts';
import { render } from '@testing-library/react';
import { preloadLazyViews } from '../../src/ui/lazyView';

afterEach(cleanup);
// Presenter mode loads on demand in the page (test/browser/lazy-views.test.ts checks that); here it is fetched first.
beforeAll(preloadLazyViews);

describe('presenter mode', () => {
  it('P and the Present button enter it; panels fold away and come back; P leaves', () => {
    const { store } = renderLab(<App />);
    expect(screen.queryByTestId('presenter')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'p' });
    expect(screen.getByTestId('presenter')).toBeTruthy();
    expect(document.querySelector('.side')).toBeNull();
    expect(currentLink(store.getState())).toContain('present=1');
    fireEvent.click(screen.getByRole('button', { name: 'Panels' }));
    expect(document.querySelector('.presenter .side')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Panels' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.body, { key: 'P' });
    expect(screen.queryByTestId('presenter')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Present' }));
    expect(screen.getByTestId('presenter')).toBeTruthy();
  });

  it('does not take P while typing in a field', () => {
    renderLab(<App />);
    const field = screen.getByLabelText('Go to ms');
    fireEvent.keyDown(field, { key: 'p' });
    expect(screen.queryByTestId('presenter')).toBeNull();
  });

  it('A−/A+ change the text size of the caption, the facts and the labels around the ring; the words inside a node keep to its shape', () => {
    const { store } = renderLab(<App />);
    act(() => store.getState().setPresent({ presenting: true }));
    const role = () => Number(document.querySelector('[data-node-id="n1"] .node-role')!.getAttribute('font-size'));
    const scale = () => screen.getByTestId('presenter').style.getPropertyValue('--present-scale');
    expect(role()).toBe(22);
    expect(scale()).toBe('1');
    expect(screen.getByRole('button', { name: 'A− smaller text' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'A+ larger text' }));
    expect(scale()).toBe('1.15');
    expect(role()).toBe(22);
    fireEvent.click(screen.getByRole('button', { name: 'A− smaller text' }));
    expect(scale()).toBe('1');
  });

  it('at the fencing story’s key moment the stores’ values and the log strip’s lock entries read in full', () => {
    const fencing = findPreset('fencing')!;
    const { store } = renderLab(<App />, { config: fencing.config, schedule: fencing.schedule, untilMs: 13513 });
    act(() => store.getState().setPresent({ presenting: true }));
    // "result=B-first" is cut at projector size ("result=B-f…"): one key shows its value alone.
    expect(document.querySelector('.store-fenced .store-value')!.textContent).toBe('B-first');
    expect(document.querySelector('.store-unfenced .store-value')!.textContent).toBe('A-second');
    // Lock entries are words: three wide columns, not six that cut "grant A" to "rant".
    const strip = screen.getByTestId('presenter-logs');
    expect(strip.getAttribute('data-columns')).toBe(String(STRIP_WIDE_COLUMNS));
    const labels = [...strip.querySelectorAll('[data-strip-node="n2"] .strip-cell')].map((c) => c.textContent);
    expect(labels).toHaveLength(STRIP_WIDE_COLUMNS);
    expect(labels.some((l) => /^grant [AB]$/.test(l ?? ''))).toBe(true);
  });

  it('the log strip shows six columns while every label is short', () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ index: i + 1, text: `x=${i}`, kind: 'put' }));
    expect(stripWindow([{ logLength: 8, log: entries(8) }])).toEqual({ from: 3, to: 8, columns: STRIP_COLUMNS });
    expect(stripWindow([{ logLength: 2, log: [{ index: 1, text: 'expire job:42', kind: 'expire' }, ...entries(1)] }]).columns).toBe(
      STRIP_WIDE_COLUMNS,
    );
  });

  it('remote keys: PageDown/→ next landmark without a tour, next beat with one; B blanks, Esc lifts it', async () => {
    const { store, sent, bridge } = renderLab(<App />, { untilMs: 1500 });
    act(() => store.getState().setPresent({ presenting: true }));
    const marks = store.getState().landmarks;
    fireEvent.keyDown(document.body, { key: 'PageUp' });
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: marks.filter((m) => m.t < 1500).at(-1)!.t });
    fireEvent.keyDown(document.body, { key: 'b' });
    expect(screen.getByTestId('blank')).toBeTruthy();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('blank')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'B' });
    fireEvent.keyDown(document.body, { key: 'B' });
    expect(screen.queryByTestId('blank')).toBeNull();

    await act(async () => void (await openTourBeat(bridge, { name: 'chapter', beat: 1 }, 'land')));
    expect(screen.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('1');
    fireEvent.keyDown(document.body, { key: 'PageDown' });
    expect(screen.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('2');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(screen.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('3');
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(screen.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('2');
  });

  it('the embed frame shows the diagram, play/pause, the clock, the scrubber and a link to the full lab; an embedded tour is the tour', async () => {
    const { store, bridge } = renderLab(<App />);
    act(() => store.getState().setPresent({ pageMode: 'embed' }));
    expect(screen.getByTestId('embed')).toBeTruthy();
    expect(document.querySelector('svg.diagram')).not.toBeNull();
    expect(screen.getByTestId('scrubber')).toBeTruthy();
    expect(screen.getByRole('button', { name: '▶ Play' })).toBeTruthy();
    expect(screen.getByTestId('clock').textContent).toMatch(/^t = \d+ ms$/);
    const open = screen.getByRole('link', { name: 'Open in Lockstep ↗' });
    fireEvent.focus(open);
    expect(open.getAttribute('href')).not.toContain('embed=1');
    expect(screen.queryByTestId('tour-narration')).toBeNull();
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 2 }, 'land')));
    expect(screen.getByTestId('tour-narration').textContent).toContain('is told busy');
    fireEvent.click(screen.getByTestId('tour-next'));
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('3');
    fireEvent.click(screen.getByTestId('tour-prev'));
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('2');
    expect(document.querySelector('.topbar, .side, [role="tablist"]')).toBeNull();
    expect(currentLink(store.getState())).toContain('embed=1');
    // P does nothing in a frame.
    fireEvent.keyDown(document.body, { key: 'p' });
    expect(screen.queryByTestId('presenter')).toBeNull();
  });
});

describe('pause at landmarks', () => {
  const marks = [
    { t: 150, kind: 'election', text: 'a' },
    { t: 900, kind: 'crash', text: 'b' },
  ] as never[];

  it('finds the first landmark crossed', () => {
    expect(landmarkCrossed(marks, 100, 1000)).toBe(150);
    expect(landmarkCrossed(marks, 150, 1000)).toBe(900);
    expect(landmarkCrossed(marks, 150, 899)).toBeNull();
  });

  it('playing past a landmark pauses there; off, it plays on', () => {
    const { store, bridge, sent } = renderLab(<App />, { untilMs: 100 });
    const stop = startPlaybackAssist(bridge);
    const now = (t: number) => act(() => store.setState((s) => ({ frame: { ...s.frame, snapshot: { ...s.frame.snapshot!, now: t } } })));
    act(() => store.setState({ landmarks: marks }));
    act(() => store.getState().setPresent({ pauseAtLandmarks: true }));
    act(() => bridge.play());
    now(180);
    expect(store.getState().frame.playing).toBe(false);
    expect(sent.slice(-2)).toEqual([{ type: 'pause' }, { type: 'seek', toMs: 150 }]);
    now(150);
    act(() => bridge.play());
    now(400);
    expect(store.getState().frame.playing).toBe(true);
    act(() => store.getState().setPresent({ pauseAtLandmarks: false }));
    now(950);
    expect(store.getState().frame.playing).toBe(true);
    stop();
  });
});

describe('the presenter console', () => {
  it('shows the beat notes and the next beat, and sends commands', async () => {
    const name = `console-test-${Math.random()}`;
    const link = openPresentLink(new BroadcastChannel(name))!;
    const projector = openPresentLink(new BroadcastChannel(name))!;
    const got: PresentMessage[] = [];
    projector.listen((m) => got.push(m));
    render(<PresenterConsole link={link} />);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(got).toContainEqual({ type: 'hello' });
    await act(async () => {
      projector.send({
        type: 'state',
        nowMs: 1234,
        playing: false,
        blank: false,
        tour: { name: 'chapter', beat: 1 },
        label: 'chapter',
        landmarksBefore: 1,
        landmarksAfter: 3,
      });
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.getByTestId('console-now').textContent).toContain('t = 1234 ms');
    // The console fetches the tours when the projector opens one.
    await waitFor(() => expect(screen.getByTestId('console-next').textContent).toMatch(/^Beat 2: /), { timeout: 10_000 });
    expect(screen.getByTestId('console-notes').textContent!.length).toBeGreaterThan(20);
    fireEvent.click(screen.getByTestId('console-next-button'));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(got).toContainEqual({ type: 'command', command: 'next' });
    link.close();
    projector.close();
  });
});
