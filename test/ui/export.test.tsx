// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportMenu, exportErrorSentence } from '../../src/ui/controls/ExportMenu';
import { Diagram } from '../../src/ui/diagram/Diagram';
import { diagramLayout } from '../../src/paint/layout';
import { messageMarks } from '../../src/paint/messageCanvas';
import { exportFileName } from '../../src/ui/export/download';
import { EXPORT_SLOTS, exportItems, registerExport, subscribeExports } from '../../src/ui/export/exportActions';
import { ringSvgString } from '../../src/ui/export/ringExport';
import {
  selectClientIds,
  selectClock,
  selectDrops,
  selectHasStores,
  selectMessageFrame,
  selectMessages,
  selectNodeIds,
  selectNodes,
} from '../../src/ui/store/selectors';
import { timerArcPath, timerMarks } from '../../src/paint/timerArc';
import { renderLab } from './labHarness';

const withdraw: (() => void)[] = [];
afterEach(() => {
  cleanup();
  while (withdraw.length > 0) withdraw.pop()?.();
});

function provide(id: string, action: Parameters<typeof registerExport>[1]) {
  withdraw.push(registerExport(id, action));
}

describe('export file names', () => {
  it('carry the seed, the simulated time in whole ms, the view and the extension', () => {
    expect(exportFileName('ring', 42, 1360, 'svg')).toBe('lockstep-seed42-t1360ms-ring.svg');
    expect(exportFileName('ring', 7n, 0, '.png')).toBe('lockstep-seed7-t0ms-ring.png');
    expect(exportFileName('spacetime', '42', 1170.6, 'svg')).toBe('lockstep-seed42-t1170ms-spacetime.svg');
    expect(exportFileName('trace', 42, Number.NaN, 'json')).toBe('lockstep-seed42-t0ms-trace.json');
  });
});

describe('the export registry', () => {
  it('always lists the slots in order, empty until provided; others follow; withdrawing restores the slot', () => {
    expect(exportItems().map((i) => i.label)).toEqual(EXPORT_SLOTS.map((s) => s.label));
    expect(exportItems().every((i) => i.action === null)).toBe(true);
    const heard = vi.fn();
    const unsubscribe = subscribeExports(heard);
    const trace = { label: 'Trace (JSON)', run: () => {}, available: () => true };
    const off = registerExport('trace-json', trace);
    const offExtra = registerExport('dot', { label: 'Ring graph (DOT)', run: () => {}, available: () => true });
    expect(heard).toHaveBeenCalledTimes(2);
    expect(exportItems().find((i) => i.id === 'trace-json')?.action).toBe(trace);
    expect(exportItems().at(-1)).toMatchObject({ id: 'dot', label: 'Ring graph (DOT)' });
    // A later registration of the same id replaces it; the earlier one's withdrawal is then a no-op.
    const newer = { ...trace, run: () => {} };
    const offNewer = registerExport('trace-json', newer);
    off();
    expect(exportItems().find((i) => i.id === 'trace-json')?.action).toBe(newer);
    offNewer();
    offExtra();
    expect(exportItems().map((i) => i.label)).toEqual(EXPORT_SLOTS.map((s) => s.label));
    expect(exportItems().every((i) => i.action === null)).toBe(true);
    unsubscribe();
  });
});

describe('the export menu', () => {
  const open = () => fireEvent.click(screen.getByRole('button', { name: /^Export/ }));

  it('lists every format; ones nobody provides are disabled, not faked', () => {
    const run = vi.fn();
    provide('events-csv', { label: 'Event log (CSV)', run, available: () => false });
    renderLab(<ExportMenu />);
    expect(screen.queryByTestId('export-menu')).toBeNull();
    open();
    const menu = screen.getByTestId('export-menu');
    expect(menu.getAttribute('role')).toBe('group');
    const items = screen.getAllByRole('button').filter((b) => b.closest('[data-testid="export-menu"]'));
    expect(items.map((i) => i.textContent)).toEqual(EXPORT_SLOTS.map((s) => s.label));
    // No diagram on this page: even the ring exports are unavailable.
    for (const item of items) {
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.getAttribute('title')).toBe('not available yet');
    }
    fireEvent.click(screen.getByRole('button', { name: 'Event log (CSV)' }));
    expect(run).not.toHaveBeenCalled();
    expect(screen.getByTestId('export-menu')).toBeTruthy();
  });

  it('is operated from the keyboard: arrows, Home and End move, Escape closes back to the button', async () => {
    provide('trace-json', { label: 'Trace (JSON)', run: () => {}, available: () => true });
    renderLab(<ExportMenu />);
    const button = screen.getByRole('button', { name: /^Export/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Ring diagram (SVG)'));
    const menu = screen.getByTestId('export-menu');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Ring diagram (PNG)');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Run file (JSON, for Import…)');
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement?.textContent).toBe('Ring diagram (SVG)');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Run file (JSON, for Import…)');
    expect(screen.getByRole('button', { name: 'Trace (JSON)' }).getAttribute('aria-disabled')).toBeNull();
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByTestId('export-menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('runs a provided export and closes; a failure is one sentence in the error banner', async () => {
    const run = vi.fn();
    provide('trace-json', { label: 'Trace (JSON)', run, available: () => true });
    provide('events-markdown', {
      label: 'Event log (Markdown)',
      run: () => Promise.reject(new Error('the log is empty.')),
      available: () => true,
    });
    const { store } = renderLab(<ExportMenu />);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Trace (JSON)' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('export-menu')).toBeNull();
    open();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Event log (Markdown)' }));
    });
    expect(store.getState().error).toBe('Could not export Event log (Markdown): the log is empty.');
    expect(exportErrorSentence('Ring diagram (PNG)', 'nope')).toBe('Could not export Ring diagram (PNG): nope.');
  });

  it('enables the ring exports next to a diagram, and withdraws them when it unmounts', () => {
    const { unmount } = renderLab(
      <>
        <ExportMenu />
        <Diagram />
      </>,
    );
    open();
    expect(screen.getByRole('button', { name: 'Ring diagram (SVG)' }).getAttribute('aria-disabled')).toBeNull();
    expect(screen.getByRole('button', { name: 'Ring diagram (PNG)' }).getAttribute('aria-disabled')).toBeNull();
    expect(screen.getByRole('button', { name: 'Space-time diagram (SVG)' }).getAttribute('aria-disabled')).toBe('true');
    unmount();
    expect(exportItems().find((i) => i.id === 'ring-svg')?.action).toBeNull();
  });
});

describe('the ring diagram as SVG', () => {
  it('is a standalone document with the glyphs, the messages in flight, a legend and a title', () => {
    // Seed 42 at 170 ms: n2 has just won, its first heartbeats are on their way.
    const { store, container } = renderLab(<Diagram />, { untilMs: 170 });
    const s = store.getState();
    const live = container.querySelector('svg.diagram') as SVGSVGElement;
    const childrenBefore = live.childElementCount;
    const layout = diagramLayout(selectNodeIds(s), selectClientIds(s), selectHasStores(s));
    const text = ringSvgString(live, selectMessages(s), selectClock(s), {
      title: 'Lockstep · seed 42 · t = 170 ms',
      legend: true,
      layout,
      drops: selectDrops(s),
      nodes: selectNodes(s),
    });
    expect(live.childElementCount).toBe(childrenBefore);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(doc.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect([...doc.querySelectorAll('[data-node-id] .node-id')].map((t) => t.textContent)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(doc.querySelector('.export-title')?.textContent).toBe('Lockstep · seed 42 · t = 170 ms');
    expect(doc.querySelectorAll('.export-legend .legend-item')).toHaveLength(15);
    const symbols = messageMarks(layout, selectMessageFrame(s)).filter((m) => m.mark === 'symbol');
    expect(symbols.length).toBeGreaterThan(0);
    expect([...doc.querySelectorAll('.export-messages .msg')].map((p) => p.getAttribute('transform'))).toEqual(
      symbols.map((m) => `translate(${m.x.toFixed(2)},${m.y.toFixed(2)})`),
    );
    // The election timers the canvas paints: a track and a draining arc around each follower, none around the leader.
    expect([...doc.querySelectorAll('.export-timers [data-timer-of]')].map((g) => g.getAttribute('data-timer-of'))).toEqual([
      'n1',
      'n3',
      'n4',
      'n5',
    ]);
    const arcs = timerMarks(layout, selectNodes(s), selectClock(s));
    expect(arcs.every((t) => t.left > 0 && t.left < 1)).toBe(true);
    expect([...doc.querySelectorAll('.export-timers .timer-arc')].map((p) => p.getAttribute('d'))).toEqual(
      arcs.map((t) => timerArcPath(t)),
    );
    // Every element carries its own style; nothing depends on the page's stylesheet.
    const unstyled = [...doc.querySelectorAll('*')].filter(
      (e) => !e.hasAttribute('style') && !e.matches('title, .export-bg, .export-title'),
    );
    expect(unstyled).toEqual([]);
    const noLegend = ringSvgString(live, [], 170, { title: 't', legend: false, layout });
    expect(new DOMParser().parseFromString(noLegend, 'image/svg+xml').querySelector('.export-legend')).toBeNull();
  });
});
