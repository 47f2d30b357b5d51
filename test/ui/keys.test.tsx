// @vitest-environment jsdom
// The page's keys as a user meets them: Space and the arrows answer whatever button has focus
// (and the button is not pressed too), text fields and selects keep their keys, the space-time
// view's focused frame keeps its own, Esc closes what is open and then lets go of focus, and the
// Keys help lists every key, the focused node's Enter and S among them. Plus the names a screen
// reader hears: every client's buttons say which client, the scrubber's landmark buttons say
// "landmark", and a queued write reads key=value.
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { ClientsPanel } from '../../src/ui/panels/ClientsPanel';
import { Scrubber } from '../../src/ui/controls/Scrubber';
import { SpaceTimeView } from '../../src/ui/spacetime/SpaceTimeView';
import { useBridge } from '../../src/ui/labContext';
import { SHORTCUTS, useKeyboardShortcuts } from '../../src/ui/useKeyboardShortcuts';
import { openTourBeat } from '../../src/ui/tour';
import { traceView } from '../helpers/traceFixture';
import { renderLab } from './labHarness';
import { preloadLazyViews } from '../../src/ui/lazyView';

// The Why panel's answers load on demand in the page (test/browser/lazy-views.test.ts checks that); here they are fetched first.
beforeAll(preloadLazyViews);

afterEach(cleanup);

/** fireEvent returns false when a listener called preventDefault: the key was taken. */
const press = (el: Element, key: string, init: KeyboardEventInit = {}) => !fireEvent.keyDown(el, { key, ...init });

function Keys() {
  useKeyboardShortcuts(useBridge());
  return null;
}

describe('keys whatever button has focus', () => {
  it('Space on a focused button plays or pauses, and the button is not pressed as well', () => {
    const { sent } = renderLab(<App />);
    const step = screen.getByRole('button', { name: 'Step 1 ms' });
    step.focus();
    expect(press(step, ' ')).toBe(true); // default prevented: the button does not click on keyup
    expect(sent.at(-1)).toEqual({ type: 'play' });
    expect(fireEvent.keyUp(step, { key: ' ' })).toBe(false);
    expect(sent.filter((m) => m.type === 'step')).toEqual([]);
    // A held Space does not flicker play/pause.
    press(step, ' ', { repeat: true });
    expect(sent.at(-1)).toEqual({ type: 'play' });
    const keys = screen.getByRole('button', { name: /Keys/ });
    keys.focus();
    expect(press(keys, ' ')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'pause' });
    expect(keys.getAttribute('aria-expanded')).toBe('false');
    // Tabs, the view switch and the scrubber's own buttons too.
    press(screen.getByRole('tab', { name: 'Logs' }), ' ');
    expect(sent.at(-1)).toEqual({ type: 'play' });
    press(screen.getByRole('radio', { name: 'Ring' }), ' ');
    expect(sent.at(-1)).toEqual({ type: 'pause' });
    // Enter still presses the focused button (the page does not take it).
    expect(press(step, 'Enter')).toBe(false);
  });

  it('arrows and the event and landmark keys step from a focused button', () => {
    const { sent } = renderLab(<App />);
    const copy = screen.getByRole('button', { name: 'Copy link' });
    expect(press(copy, 'ArrowRight')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'ms', ms: 1 });
    expect(press(copy, 'ArrowLeft')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 399 });
    expect(press(copy, '.')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event' });
    expect(press(copy, '[')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 168 });
  });

  it('text fields, selects, the slider and checkboxes keep their own keys', () => {
    const { sent } = renderLab(<App />);
    const count = () => sent.length;
    const before = count();
    expect(press(screen.getByLabelText('Go to ms'), ' ')).toBe(false);
    expect(press(screen.getByLabelText('Go to ms'), 'ArrowRight')).toBe(false);
    expect(press(screen.getByLabelText('Speed'), ' ')).toBe(false);
    expect(press(screen.getByLabelText('Time in the run'), 'ArrowRight')).toBe(false); // the slider moves itself
    const box = document.querySelector<HTMLInputElement>('input[type="checkbox"]');
    expect(box).not.toBeNull();
    expect(press(box!, ' ')).toBe(false); // Space ticks a checkbox
    expect(count()).toBe(before);
    // Space on the slider has nothing of its own to do: it plays.
    expect(press(screen.getByLabelText('Time in the run'), ' ')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'play' });
  });

  it('the focused space-time frame keeps ↑/↓/PageUp/PageDown/+/−/0 (even with a tour open); Space still reaches the page', async () => {
    const trace = traceView({ untilMs: 1000, messages: [{ type: 'RequestVote', from: 'n1', to: 'n2', sentAt: 100, endAt: 110 }] });
    const { sent, bridge } = renderLab(
      <>
        <Keys />
        <SpaceTimeView
          trace={trace}
          nowMs={500}
          onSeek={() => {}}
          onMessage={() => {}}
          onPlayWindow={() => {}}
          size={{ width: 850, height: 548 }}
        />
      </>,
    );
    const frame = document.querySelector('.spacetime-frame')!;
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 2 }, 'land')));
    const before = sent.length;
    for (const key of ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', '+', '-', '0']) press(frame, key);
    expect(sent.length).toBe(before); // PageDown panned the view; it did not move the tour on
    expect(press(frame, ' ')).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'play' });
  });
});

describe('Esc', () => {
  it('lets go of focus when nothing is open', () => {
    renderLab(<App />);
    const step = screen.getByRole('button', { name: 'Step 1 ms' });
    step.focus();
    expect(document.activeElement).toBe(step);
    fireEvent.keyDown(step, { key: 'Escape' });
    expect(document.activeElement).toBe(document.body);
  });

  it('closes an open menu first (focus stays), and lets go of focus on the next press', () => {
    renderLab(<App />);
    const keys = screen.getByRole('button', { name: /Keys/ });
    fireEvent.click(keys);
    keys.focus();
    expect(keys.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(keys, { key: 'Escape' });
    expect(keys.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(keys);
    fireEvent.keyDown(keys, { key: 'Escape' });
    expect(document.activeElement).toBe(document.body);
  });

  it('closes the Why panel and gives focus back to the node it was asked on, then lets go', () => {
    renderLab(<App />);
    const node = document.querySelector<SVGGElement>('[data-node-id="n2"]')!;
    node.focus();
    fireEvent.keyDown(node, { key: '?' });
    expect(screen.getByTestId('why-panel')).toBeTruthy();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('why-panel')).toBeNull();
    expect(document.activeElement).toBe(node);
    fireEvent.keyDown(node, { key: 'Escape' });
    expect(document.activeElement).toBe(document.body);
  });
});

describe('the Keys help', () => {
  it('lists every key the page answers, the focused node’s Enter and S among them', () => {
    renderLab(<App />);
    fireEvent.click(screen.getByRole('button', { name: /Keys/ }));
    const table = screen.getByRole('table', { name: /Keyboard shortcuts/ });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [r.querySelector('th')?.textContent ?? '', r.querySelector('td')?.textContent ?? ''] as const);
    expect(rows.length).toBe(SHORTCUTS.length);
    const row = (keys: string) => rows.find(([k]) => k === keys || k.startsWith(`${keys} `))?.[1] ?? '';
    expect(row('Enter')).toMatch(/crash the focused node, or restart it/);
    expect(row('S')).toMatch(/select the focused node/);
    expect(row('Esc')).toMatch(/let go of focus/);
    for (const keys of ['Space', '→', '←', ']', '[', 'Ctrl+Z', '?', '+ / −', '0']) expect(row(keys), keys).not.toBe('');
  });

  it('Enter and S do on a focused node what the help says', () => {
    const { sent, store } = renderLab(<App />);
    const node = document.querySelector<SVGGElement>('[data-node-id="n3"]')!;
    node.focus();
    fireEvent.keyDown(node, { key: 's' });
    expect(store.getState().selectedNodes).toContain('n3');
    expect(sent.filter((m) => m.type === 'play' || m.type === 'pause')).toEqual([]);
    fireEvent.keyDown(node, { key: 'Enter' });
    expect(sent.at(-1)).toMatchObject({ type: 'action', body: { verb: 'crash', node: 'n3' } });
  });
});

describe('names', () => {
  it('every client’s buttons say which client, apart from the global Play/Pause', () => {
    const { store } = renderLab(<App />);
    fireEvent.click(screen.getByRole('tab', { name: 'Clients' }));
    for (const id of ['A', 'B']) {
      const card = screen.getByRole('article', { name: new RegExp(`Client ${id}`) });
      for (const name of [
        `Acquire as client ${id}`,
        `Write as client ${id}`,
        `Release as client ${id}`,
        `Pause client ${id}`,
        `Crash client ${id}`,
      ]) {
        expect(within(card).getByRole('button', { name }).textContent, name).toBe(name.split(' ')[0]); // what is seen starts the name
      }
    }
    act(() => store.setState({ frame: { ...store.getState().frame, playing: true } }));
    expect(screen.getAllByRole('button', { name: /Pause/ }).map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([
      '❚❚ Pause',
      'Pause client A',
      'Pause client B',
    ]);
    // No two buttons on the page share a name.
    const names = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim());
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('the scrubber’s landmark buttons say "landmark" in their name and look, not start or end', () => {
    renderLab(<Scrubber />);
    const prev = screen.getByRole('button', { name: 'Previous landmark' });
    const next = screen.getByRole('button', { name: 'Next landmark' });
    expect(prev.getAttribute('title')).toMatch(/^Previous landmark \(\[\)/);
    expect(next.getAttribute('title')).toMatch(/^Next landmark \(\]\)/);
    for (const b of [prev, next]) expect(b.textContent).not.toMatch(/[⇤⇥]/);
    expect(prev.textContent).toBe('◀⚑');
    expect(next.textContent).toBe('⚑▶');
  });

  it('a queued write shows key=value, not only the key', () => {
    renderLab(<ClientsPanel />, {
      schedule: '@400 client A acquire job:42 5000; @400 client A write result=A-1; @400 client A release job:42',
      untilMs: 401,
    });
    const a = screen.getByRole('article', { name: /Client A/ });
    const queued = [...a.querySelectorAll('dt')].find((dt) => dt.textContent === 'queued')?.nextElementSibling?.textContent;
    expect(queued).toBe('write result=A-1, release job:42');
  });
});
