// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { findPreset } from '../../src/sim/run/presets';
import { Diagram } from '../../src/ui/diagram/Diagram';
import { ClientsPanel } from '../../src/ui/panels/ClientsPanel';
import { EventLogPanel } from '../../src/ui/panels/EventLogPanel';
import { LockTablePanel } from '../../src/ui/panels/LockTablePanel';
import { LogsPanel } from '../../src/ui/panels/LogsPanel';
import { StoresPanel } from '../../src/ui/panels/StoresPanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

const fencing = findPreset('fencing')!;

describe('diagram', () => {
  it('draws every node with its role, term and test hooks, and a click crashes it', () => {
    const { container, sent } = renderLab(<Diagram />);
    const glyphs = container.querySelectorAll('[data-node-id]');
    expect([...glyphs].map((g) => g.getAttribute('data-node-id'))).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    const leader = container.querySelector('[data-node-id="n2"]') as SVGGElement;
    expect(leader.getAttribute('data-role')).toBe('leader');
    expect(leader.getAttribute('data-term')).toBe('1');
    expect(leader.getAttribute('data-alive')).toBe('true');
    expect(screen.getByRole('button', { name: 'n2, leader, term 1' })).toBe(leader);
    expect(screen.getByRole('button', { name: 'n1, follower, term 1, voted n2' })).toBeTruthy();
    fireEvent.click(leader);
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'crash', node: 'n2' } });
  });

  it('shift-click selects a node instead of crashing it', () => {
    const { container, sent, store } = renderLab(<Diagram />);
    fireEvent.click(container.querySelector('[data-node-id="n4"]')!, { shiftKey: true });
    expect(store.getState().selectedNodes).toEqual(['n4']);
    expect(sent).toEqual([]);
  });

  it('the crash cross stops short of the node’s words, and the top node’s vote marks stay inside the diagram', () => {
    const { container } = renderLab(<Diagram />, { schedule: '@50 timeout n1; @52 crash n3', untilMs: 56 });
    // Four strokes from the corners, none reaching the middle where "n3 / crashed / term 0" sit.
    const down = container.querySelector('[data-node-id="n3"]')!;
    const r = Number(
      down
        .querySelector('.node-shape')!
        .getAttribute('d')!
        .match(/^M([\d.]+),0/)![1],
    );
    const ends = [...down.querySelectorAll('.down-cross line')].flatMap((l) => [
      [Number(l.getAttribute('x1')), Number(l.getAttribute('y1'))],
      [Number(l.getAttribute('x2')), Number(l.getAttribute('y2'))],
    ]);
    expect(ends.length).toBe(8);
    for (const [x, y] of ends) expect(Math.min(Math.abs(x), Math.abs(y))).toBeGreaterThanOrEqual(0.55 * r);
    // n1, a candidate at the top of the ring: its vote marks inside the 590-unit-high view, with room.
    const n1 = container.querySelector('[data-node-id="n1"]')!;
    expect(n1.getAttribute('data-role')).toBe('candidate');
    const y0 = Number(n1.getAttribute('transform')!.match(/,([\d.]+)\)/)![1]);
    const dots = [...n1.querySelectorAll('.votes circle')];
    expect(dots.length).toBe(5);
    for (const d of dots) expect(y0 + Number(d.getAttribute('cy')) - Number(d.getAttribute('r'))).toBeGreaterThanOrEqual(8);
  });

  it('shows a crashed node as down, and partition groups as labelled regions', () => {
    const { container } = renderLab(<Diagram />, { schedule: '@300 crash n2; @320 partition n1,n2 | n3,n4,n5', untilMs: 330 });
    const down = container.querySelector('[data-node-id="n2"]')!;
    expect(down.getAttribute('data-alive')).toBe('false');
    expect(down.getAttribute('aria-label')).toBe('n2, crashed (was leader), term 1');
    expect(down.querySelector('.down-cross')).not.toBeNull();
    // The cross is drawn under the node's words (earlier in the SVG), not struck through them.
    const order = [...down.children].map((c) => c.getAttribute('class') ?? '');
    expect(order.indexOf('down-cross')).toBeLessThan(order.indexOf('node-id'));
    const labels = [...container.querySelectorAll('.partition-group text')].map((t) => t.textContent);
    expect(labels).toEqual(['minority (2 of 5): cannot commit', 'majority (3 of 5)']);
  });

  it('colours partition sides by majority and minority, not by the order they were written in', () => {
    for (const schedule of ['@320 partition n1,n2 | n3,n4,n5', '@320 partition n3,n4,n5 | n1,n2']) {
      const { container, unmount } = renderLab(<Diagram />, { schedule, untilMs: 330 });
      const sides = [...container.querySelectorAll('.partition-group')].map((g) => ({
        side: g.getAttribute('data-side'),
        cls: g.getAttribute('class'),
      }));
      const majority = sides.find((s) => s.side === 'majority');
      const minority = sides.find((s) => s.side === 'minority');
      expect(majority?.cls).toContain('side-majority');
      expect(minority?.cls).toContain('side-minority minority-0');
      unmount();
    }
  });
});

describe('logs panel', () => {
  it('marks committed and uncommitted entries and the leader’s next/match per peer', () => {
    const { container } = renderLab(<LogsPanel />, { config: DEFAULT_CONFIG, schedule: CHAPTER_PART, untilMs: 1800 });
    const n3 = container.querySelector('[data-log-node="n3"]')!;
    const entries = [...n3.querySelectorAll('.entry')];
    expect(entries.map((e) => e.querySelector('.entry-text')?.textContent)).toEqual(['x=1', 'x=2', 'x=3']);
    expect(entries.map((e) => e.getAttribute('data-committed'))).toEqual(['true', 'true', 'false']);
    expect(entries[2].classList.contains('uncommitted')).toBe(true);
    const n1 = container.querySelector('[data-log-node="n1"]')!;
    expect(n1.textContent).toContain('commit 3');
    expect(n1.textContent).toContain('leader');
    const n4 = container.querySelector('[data-log-node="n4"]')!;
    expect(n4.textContent).toContain('next 4 · match 3');
  });
});

const CHAPTER_PART =
  '@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1410 submit x=2; @1560 partition n2,n3; @1753 submit x=3 to n3; @1753 submit y=1 to n1';

describe('stores panel', () => {
  it('ends the fencing preset with the stores disagreeing as the chapter says', () => {
    renderLab(<StoresPanel />, { config: fencing.config, schedule: fencing.schedule, untilMs: fencing.untilMs });
    const fenced = screen.getByTestId('store-fenced');
    const unfenced = screen.getByTestId('store-unfenced');
    const row = (el: HTMLElement) => within(el).getByText('result').closest('tr')!.textContent;
    expect(row(fenced)).toBe('resultB-first2');
    expect(row(unfenced)).toBe('resultA-second1');
    expect(fenced.textContent).toContain('rejected: token 1 is older than token 2');
    expect(screen.getByTestId('stores-disagree').textContent).toContain(
      'on result: fenced has B-first (token 2), unfenced has A-second (token 1)',
    );
  });
});

describe('clients panel', () => {
  it('sends client intents and refuses a bad lease with one sentence', () => {
    const { sent } = renderLab(<ClientsPanel />);
    const a = screen.getByRole('article', { name: /Client A/ });
    fireEvent.click(within(a).getByRole('button', { name: 'Acquire as client A' }));
    expect(sent.at(-1)).toEqual({
      type: 'action',
      body: { verb: 'client', client: 'A', intent: { op: 'acquire', key: 'job:42', leaseMs: 10000 } },
    });
    fireEvent.click(within(a).getByRole('button', { name: 'Write as client A' }));
    expect(sent.at(-1)).toEqual({
      type: 'action',
      body: { verb: 'client', client: 'A', intent: { op: 'write', key: 'result', value: 'A-1' } },
    });
    fireEvent.change(within(a).getByLabelText('lease ms'), { target: { value: 'soon' } });
    const before = sent.length;
    fireEvent.click(within(a).getByRole('button', { name: 'Acquire as client A' }));
    expect(sent.length).toBe(before);
    expect(within(a).getByRole('alert').textContent).toBe('A lease must be a whole number of ms from 1 to 10000000, not "soon".');
    fireEvent.click(within(a).getByRole('button', { name: 'Crash client A' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'client', client: 'A', intent: { op: 'crash' } } });
  });

  it('shows a client’s token and its own lease countdown', () => {
    renderLab(<ClientsPanel />, { schedule: '@400 client A acquire job:42 5000', untilMs: 1000 });
    const a = screen.getByRole('article', { name: /Client A/ });
    expect(a.textContent).toMatch(/token1/);
    expect(a.textContent).toMatch(/job:42: 4\.4 s left by its clock/);
    expect(screen.getByRole('button', { name: 'Add client' })).toBeTruthy();
  });

  it('adds a client by replaying the run to now with one more', () => {
    const { sent } = renderLab(<ClientsPanel />, { untilMs: 700 });
    fireEvent.click(screen.getByRole('button', { name: 'Add client' }));
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type === 'load') {
      expect(load.config.clientIds).toEqual(['A', 'B', 'C']);
      expect(load.startAtMs).toBe(700);
    }
  });
});

describe('lock table', () => {
  it('shows the lock every node sees, with the lease left by its own clock', () => {
    renderLab(<LockTablePanel />, { schedule: '@300 drift n3 50; @400 client A acquire job:42 5000', untilMs: 1000 });
    const rows = [...screen.getByTestId('lock-table').querySelectorAll('tr[data-lock-node]')];
    expect(rows.length).toBe(5);
    const n3 = rows.find((r) => r.getAttribute('data-lock-node') === 'n3')!;
    expect(n3.textContent).toContain('job:42');
    expect(n3.textContent).toContain('+50%');
  });
});

describe('event log', () => {
  it('interleaves detail events where they happened, and the details box hides them', () => {
    renderLab(<EventLogPanel />, { config: DEFAULT_CONFIG, schedule: CHAPTER_PART, untilMs: 1800 });
    const log = screen.getByTestId('event-log');
    const rows = () => [...log.querySelectorAll('li')];
    const withDetails = rows();
    const details = withDetails.filter((li) => li.hasAttribute('data-detail'));
    expect(details.length).toBeGreaterThan(0);
    expect(details.map((li) => li.getAttribute('data-kind'))).toContain('leader-append');
    const texts = withDetails.map((li) => li.textContent ?? '');
    // n2 crashes at 1168 ms; the replies then sent to it are dropped after that line.
    expect(texts.findIndex((l) => l.includes('dropped: n2 is down'))).toBeGreaterThan(texts.indexOf('t= 1168 ms n2 crashes'));
    expect(texts).toContain('t= 1410 ms  · n3 appends x=1 at index 1 (term 2)');
    fireEvent.click(screen.getByLabelText(/details/));
    expect(rows().some((li) => li.hasAttribute('data-detail'))).toBe(false);
    expect(rows().map((li) => li.textContent)).toEqual(
      withDetails.filter((li) => !li.hasAttribute('data-detail')).map((li) => li.textContent),
    );
  });

  it('lists lines in the chapter format and filters by node and kind', () => {
    renderLab(<EventLogPanel />, { config: DEFAULT_CONFIG, schedule: CHAPTER_PART, untilMs: 1800 });
    const log = screen.getByTestId('event-log');
    const lines = [...log.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines[0]).toBe('t=  156 ms n2 election timeout, candidate in term 1');
    expect(lines).toContain('t= 1168 ms n2 crashes');
    fireEvent.change(screen.getByLabelText(/who/), { target: { value: 'n3' } });
    const n3Lines = [...log.querySelectorAll('li')].map((li) => li.textContent ?? '');
    expect(n3Lines.length).toBeGreaterThan(0);
    expect(n3Lines.every((l) => l.includes('n3'))).toBe(true);
    fireEvent.change(screen.getByLabelText(/who/), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText(/kind/), { target: { value: 'crash' } });
    expect([...log.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['t= 1168 ms n2 crashes']);
  });
});
