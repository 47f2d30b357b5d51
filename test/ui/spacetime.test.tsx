// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpaceTimeView, HEADER_HEIGHT } from '../../src/ui/spacetime/SpaceTimeView';
import { traceView } from '../helpers/traceFixture';

afterEach(cleanup);

const SIZE = { width: 850, height: 548 };
const PLOT_H = SIZE.height - HEADER_HEIGHT - 8;

const trace = traceView({
  untilMs: 1000,
  messages: [
    { type: 'RequestVote', from: 'n1', to: 'n2', sentAt: 100, endAt: 110 },
    { type: 'VoteReply', from: 'n2', to: 'n1', sentAt: 110, endAt: 121 },
    { type: 'AppendEntries', from: 'n1', to: 'n3', sentAt: 200, endAt: 220, fate: 'loss' },
    { type: 'AppendEntries', from: 'n1', to: 'n2', sentAt: 300, endAt: 310, heartbeat: true },
    { type: 'ClientRequest', from: 'A', to: 'n1', sentAt: 400, endAt: 420 },
    { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 600, endAt: 610 },
  ],
  storeMarks: [
    {
      store: 'fenced',
      t: 610,
      message: 6,
      client: 'A',
      key: 'job',
      value: 'a',
      token: 1,
      accepted: false,
      highestBefore: 2,
      leaseEnded: true,
      reason: 'below',
    },
  ],
});

function renderView(over: Partial<Parameters<typeof SpaceTimeView>[0]> = {}) {
  const onSeek = vi.fn();
  const onMessage = vi.fn();
  const onPlayWindow = vi.fn();
  const view = render(
    <SpaceTimeView trace={trace} nowMs={500} onSeek={onSeek} onMessage={onMessage} onPlayWindow={onPlayWindow} size={SIZE} {...over} />,
  );
  const root = screen.getByTestId('spacetime');
  return { ...view, root, onSeek, onMessage, onPlayWindow };
}

const arrows = (root: HTMLElement) => [...root.querySelectorAll<SVGLineElement>('line[data-msg-id]')];

describe('SpaceTimeView', () => {
  it('renders a labelled group with a header per lane', () => {
    const { root } = renderView();
    expect(root.getAttribute('role')).toBe('group');
    expect(root.getAttribute('aria-label')).toMatch(
      /^Space-time diagram, 0 ms to 1,000 ms: lanes n1, n2, n3, n4, n5, client A, client B, fenced store, unfenced store;/,
    );
    expect([...root.querySelectorAll('.spacetime-headers text[data-lane]')].map((t) => t.getAttribute('data-lane'))).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'A',
      'B',
      'fenced',
      'unfenced',
    ]);
  });

  it('renders one hittable DOM arrow per visible message with its data attributes (heartbeats folded by default)', () => {
    const { root } = renderView();
    const lines = arrows(root);
    expect(lines.map((l) => l.getAttribute('data-msg-type'))).toEqual([
      'RequestVote',
      'VoteReply',
      'AppendEntries',
      'ClientRequest',
      'StoreWrite',
    ]);
    const lost = lines[2];
    expect([
      lost.getAttribute('data-from'),
      lost.getAttribute('data-to'),
      lost.getAttribute('data-msg-id'),
      lost.getAttribute('data-fate'),
    ]).toEqual(['n1', 'n3', '3', 'loss']);
    expect(lost.getAttribute('aria-label')).toBe('AppendEntries n1→n3 (n1 to n3): sent at 200 ms, dropped at 220 ms: lost');
    fireEvent.click(screen.getByRole('button', { name: /Heartbeats: folded/ }));
    expect(arrows(root).map((l) => l.getAttribute('data-msg-type'))).toContain('AppendEntries');
    expect(arrows(root)).toHaveLength(6);
  });

  it('marks store writes in the DOM with store, verdict and token', () => {
    const { root } = renderView();
    const mark = root.querySelector('[data-store]')!;
    expect([mark.getAttribute('data-store'), mark.getAttribute('data-accepted'), mark.getAttribute('data-token')]).toEqual([
      'fenced',
      'false',
      '1',
    ]);
    expect(mark.getAttribute('aria-label')).toBe('fenced store at 610 ms: write from A, token 1 < 2 refused');
  });

  it('seeks to the time under a click on empty space', () => {
    const { onSeek, onMessage } = renderView();
    const plot = screen.getByTestId('spacetime-plot');
    fireEvent.click(plot, { clientX: 200, clientY: HEADER_HEIGHT + PLOT_H * 0.75 });
    expect(onMessage).not.toHaveBeenCalled();
    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek.mock.calls[0][0]).toBeCloseTo(750);
  });

  it('opens a message on a click on its arrow, in the DOM or by hit-test on the canvas', () => {
    const { root, onSeek, onMessage } = renderView();
    fireEvent.click(arrows(root)[3]);
    expect(onMessage).toHaveBeenLastCalledWith(5, 400);
    // RequestVote n1→n2, 100→110 ms: half way along, at 105 ms.
    const laneX = (id: string) => Number(root.querySelector(`text[data-lane="${id}"]`)!.getAttribute('x'));
    const x = (laneX('n1') + laneX('n2')) / 2;
    const y = HEADER_HEIGHT + (105 / 1000) * PLOT_H;
    fireEvent.click(screen.getByTestId('spacetime-plot'), { clientX: x, clientY: y });
    expect(onMessage).toHaveBeenLastCalledWith(1, 100);
    expect(onSeek).not.toHaveBeenCalled();
  });

  it('zooms and pans from the keyboard and the buttons, within the run', () => {
    const { root, onSeek } = renderView();
    const frame = root.querySelector('.spacetime-frame')!;
    const group = root.querySelector('.spacetime-arrows')!;
    // DOM arrows are in ms; their group maps ms to pixels, so a zoom changes one transform.
    expect(arrows(root)[0].getAttribute('y1')).toBe('100');
    expect(group.getAttribute('transform')).toBe(`translate(0 ${HEADER_HEIGHT}) scale(1 ${PLOT_H / 1000})`);
    fireEvent.keyDown(frame, { key: '+' });
    expect(group.getAttribute('transform')).toBe(`translate(0 ${HEADER_HEIGHT - 250 * (PLOT_H / 500)}) scale(1 ${PLOT_H / 500})`);
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('250 ms – 750 ms');
    fireEvent.keyDown(frame, { key: 'ArrowDown' });
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('300 ms – 800 ms');
    fireEvent.click(screen.getByTestId('spacetime-plot'), { clientX: 200, clientY: HEADER_HEIGHT });
    expect(onSeek.mock.calls[0][0]).toBeCloseTo(300);
    for (let i = 0; i < 12; i++) fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    const [a, b] = root
      .querySelector('.spacetime-window')!
      .textContent!.split(' – ')
      .map((s) => parseFloat(s));
    expect(b - a).toBe(5);
    fireEvent.keyDown(frame, { key: '0' });
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('0 ms – 1,000 ms');
    expect(arrows(root)).toHaveLength(5);
  });

  it('shows a chosen subset of lanes and folds the nodes into one service lane', () => {
    const { root } = renderView({ lanes: ['A', 'service', 'B', 'fenced'] });
    expect([...root.querySelectorAll('.spacetime-headers text[data-lane]')].map((t) => t.textContent)).toEqual([
      'client A',
      'lease service',
      'client B',
      'fenced store',
    ]);
    expect(arrows(root).map((l) => l.getAttribute('data-msg-type'))).toEqual(['ClientRequest', 'StoreWrite']);
    fireEvent.click(screen.getByLabelText('fold nodes into one service lane'));
    expect([...root.querySelectorAll('.spacetime-headers text[data-lane]')].map((t) => t.getAttribute('data-lane'))).toEqual([
      'A',
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'B',
      'fenced',
    ]);
    fireEvent.click(screen.getByLabelText('client B'));
    expect([...root.querySelectorAll('.spacetime-headers text[data-lane]')].map((t) => t.getAttribute('data-lane'))).not.toContain('B');
  });

  it('brushes a window with shift-drag, zooms to it and offers to play it', () => {
    const { root, onPlayWindow, onSeek } = renderView();
    const svg = root.querySelector('svg.spacetime-overlay')!;
    fireEvent.pointerDown(svg, { button: 0, shiftKey: true, clientX: 300, clientY: HEADER_HEIGHT + PLOT_H * 0.2, pointerId: 1 });
    fireEvent.pointerMove(svg, { clientX: 300, clientY: HEADER_HEIGHT + PLOT_H * 0.4, pointerId: 1 });
    fireEvent.pointerUp(svg, { clientX: 300, clientY: HEADER_HEIGHT + PLOT_H * 0.4, pointerId: 1 });
    fireEvent.click(svg, { clientX: 300, clientY: HEADER_HEIGHT + PLOT_H * 0.4 });
    expect(onSeek).not.toHaveBeenCalled();
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('200 ms – 400 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Play this window' }));
    expect(onPlayWindow.mock.calls[0][0]).toBeCloseTo(200);
    expect(onPlayWindow.mock.calls[0][1]).toBeCloseTo(400);
  });

  it('follows the cursor when asked, and says when there is no trace', () => {
    const { root, rerender, onSeek, onMessage } = renderView({ window: [0, 100] });
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('0 ms – 100 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Follow cursor' }));
    act(() => rerender(<SpaceTimeView trace={trace} nowMs={900} onSeek={onSeek} onMessage={onMessage} size={SIZE} window={[0, 100]} />));
    expect(root.querySelector('.spacetime-window')?.textContent).toBe('825 ms – 925 ms');
    expect(root.querySelector('.spacetime-cursor')).not.toBeNull();
    // At the run's newest moment the cursor keeps a margin below it: the view scrolls past the end.
    act(() => rerender(<SpaceTimeView trace={trace} nowMs={1000} onSeek={onSeek} onMessage={onMessage} size={SIZE} window={[0, 100]} />));
    const [, end] = root
      .querySelector('.spacetime-window')!
      .textContent!.split(' – ')
      .map((t) => parseFloat(t.replace(',', '')));
    expect(end).toBeGreaterThanOrEqual(1020);
    cleanup();
    render(<SpaceTimeView trace={null} nowMs={0} onSeek={onSeek} onMessage={onMessage} />);
    expect(screen.getByTestId('spacetime').getAttribute('aria-label')).toBe('Space-time diagram: no trace yet.');
  });

  it('catches its DOM arrows up with a growing trace, a new trace at once', async () => {
    const { root, rerender, onSeek, onMessage } = renderView();
    const grown = traceView({
      untilMs: 1000,
      messages: [
        { type: 'RequestVote', from: 'n1', to: 'n2', sentAt: 100, endAt: 110 },
        { type: 'RequestVote', from: 'n1', to: 'n3', sentAt: 100, endAt: 112 },
      ],
    });
    rerender(<SpaceTimeView trace={{ ...grown, traceId: 2 }} nowMs={500} onSeek={onSeek} onMessage={onMessage} size={SIZE} />);
    expect(arrows(root).map((l) => l.getAttribute('data-to'))).toEqual(['n2', 'n3']);
    const more = traceView({
      untilMs: 1000,
      messages: [...[2, 3, 4, 5].map((n) => ({ type: 'RequestVote' as const, from: 'n1', to: `n${n}`, sentAt: 100, endAt: 110 + n }))],
    });
    rerender(<SpaceTimeView trace={{ ...more, traceId: 2 }} nowMs={500} onSeek={onSeek} onMessage={onMessage} size={SIZE} />);
    await waitFor(() => expect(arrows(root)).toHaveLength(4));
  });
});
