// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { findPreset } from '../../src/sim/run/presets';
import { Diagram } from '../../src/ui/diagram/Diagram';
import { ClientsPanel } from '../../src/ui/panels/ClientsPanel';
import { LockTablePanel } from '../../src/ui/panels/LockTablePanel';
import { LogsPanel } from '../../src/ui/panels/LogsPanel';
import { NodeContextPanel } from '../../src/ui/panels/NodeContextPanel';
import { StoresPanel } from '../../src/ui/panels/StoresPanel';
import { WhyNoLeaderButton, WhyPanel } from '../../src/ui/panels/WhyPanel';
import type { MessageView } from '../../src/sim/view/runView';
import { diagramLayout, messageLane } from '../../src/paint/layout';
import { messageAt } from '../../src/paint/messageCanvas';
import { renderLab } from './labHarness';
import { preloadLazyViews } from '../../src/ui/lazyView';

// The Why panel's answers load on demand in the page (test/browser/lazy-views.test.ts checks that); here they are fetched first.
beforeAll(preloadLazyViews);

afterEach(cleanup);

const chapter = findPreset('chapter')!;
const fencing = findPreset('fencing')!;

describe('the Why panel', () => {
  it('opens from a log entry: the stranded x=3 on n3 is not committed, 2 of 5 is not a majority', () => {
    const { container, store } = renderLab(
      <>
        <LogsPanel />
        <WhyPanel place="diagram" />
      </>,
      { config: DEFAULT_CONFIG, schedule: chapter.schedule, untilMs: 1800 },
    );
    expect(screen.queryByTestId('why-panel')).toBeNull();
    const entry = container.querySelector('[data-log-node="n3"] .entry[data-index="3"]') as HTMLElement;
    expect(entry.getAttribute('data-committed')).toBe('false');
    fireEvent.click(entry);
    const panel = screen.getByTestId('why-panel');
    expect(store.getState().whySubject).toEqual({ kind: 'entry', node: 'n3', index: 3 });
    expect(within(panel).getByRole('heading').textContent).toBe('Why is x=3 at index 3 not committed on n3?');
    expect(panel.textContent).toContain('not committed yet on n3');
    expect(panel.textContent).toContain('2 of 5 is not a majority');
    expect(screen.getByTestId('why-rule').textContent).toContain('Figure 2');
    // Focus moves into the panel; Esc closes it and gives focus back.
    expect(document.activeElement?.id).toBe('why-title');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('why-panel')).toBeNull();
  });

  it('opens from a node with ? (and with Alt-click), without crashing it; the close button closes it', () => {
    const { container, sent } = renderLab(
      <>
        <Diagram />
        <WhyPanel place="side" />
      </>,
    );
    const n2 = container.querySelector('[data-node-id="n2"]') as SVGGElement;
    n2.focus();
    fireEvent.keyDown(n2, { key: '?' });
    expect(within(screen.getByTestId('why-panel')).getByRole('heading').textContent).toBe('Why is n2 a leader?');
    expect(screen.getByTestId('why-panel').textContent).toContain('n2 is leader of term 1');
    fireEvent.click(screen.getByRole('button', { name: 'Close the Why panel' }));
    expect(screen.queryByTestId('why-panel')).toBeNull();
    expect(document.activeElement).toBe(n2);
    fireEvent.click(container.querySelector('[data-node-id="n4"]')!, { altKey: true });
    expect(screen.getByTestId('why-panel').textContent).toContain('n4 is a follower in term 1');
    expect(sent).toEqual([]);
  });

  it('a click on the vote marks asks why the node has those votes, and does not crash it', () => {
    const { container, sent } = renderLab(
      <>
        <Diagram />
        <WhyPanel place="side" />
      </>,
    );
    fireEvent.click(container.querySelector('[data-node-id="n2"] .votes')!);
    expect(within(screen.getByTestId('why-panel')).getByRole('heading').textContent).toBe('Why does n2 have 3 votes?');
    expect(screen.getByTestId('why-panel').textContent).toContain('has 3 votes: n1, n2 and n5 (a majority is 3 of 5)');
    expect(sent).toEqual([]);
  });

  it('picks the message drawn under a click, where the canvas paints it', () => {
    const layout = diagramLayout(['n1', 'n2', 'n3'], [], false);
    const m = {
      seq: 7,
      type: 'AppendEntries',
      src: 'n1',
      dst: 'n2',
      sentAt: 100,
      deliverAt: 110,
      lost: false,
      label: '',
      ok: null,
      heartbeat: true,
    } as unknown as MessageView;
    const lane = messageLane(layout, 'n1', 'n2')!;
    const mid = { x: (lane.from.x + lane.to.x) / 2, y: (lane.from.y + lane.to.y) / 2 };
    expect(messageAt(layout, [m], 105, { x: mid.x + 5, y: mid.y - 5 })?.seq).toBe(7);
    expect(messageAt(layout, [m], 105, { x: mid.x + 40, y: mid.y })).toBeNull();
    expect(messageAt(layout, [{ ...m, lost: true }], 108, lane.to)).toBeNull();
  });

  it('follows the run: the answer is recomputed from each new snapshot', () => {
    const { container, store } = renderLab(
      <>
        <LogsPanel />
        <WhyPanel place="diagram" />
        <WhyPanel place="side" />
      </>,
      { config: DEFAULT_CONFIG, schedule: chapter.schedule, untilMs: 1800 },
    );
    fireEvent.click(container.querySelector('[data-log-node="n3"] .entry[data-index="3"]')!);
    const before = store.getState().frame.snapshot!;
    act(() =>
      store.setState({
        frame: {
          ...store.getState().frame,
          snapshot: { ...before, nodes: before.nodes.map((n) => (n.id === 'n3' ? { ...n, commitIndex: 3 } : n)) },
        },
      }),
    );
    expect(screen.getByTestId('why-panel').textContent).toContain('Why is x=3 at index 3 committed on n3?');
  });

  it('a Why no leader button shows only while there is none', () => {
    renderLab(
      <>
        <WhyNoLeaderButton />
        <WhyPanel place="diagram" />
        <WhyPanel place="side" />
      </>,
      { untilMs: 100 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Why no leader?' }));
    expect(screen.getByTestId('why-panel').textContent).toContain('Nobody is campaigning');
    cleanup();
    renderLab(<WhyNoLeaderButton />, { untilMs: 400 });
    expect(screen.queryByRole('button', { name: 'Why no leader?' })).toBeNull();
  });

  it('opens from the node panel (vote, messages in flight), a lock row and a store write', () => {
    const { store } = renderLab(
      <>
        <NodeContextPanel />
        <LockTablePanel />
        <StoresPanel />
        <ClientsPanel />
        <WhyPanel place="diagram" />
        <WhyPanel place="side" />
      </>,
      { config: fencing.config, schedule: fencing.schedule, untilMs: fencing.untilMs },
    );
    act(() => store.getState().focusNode('n1'));
    fireEvent.click(screen.getByRole('button', { name: 'Why this vote?' }));
    expect(screen.getByTestId('why-panel').textContent).toMatch(/n1 (voted|won|has not voted)/);
    fireEvent.click(screen.getByRole('button', { name: 'Why does n1 give job:42 to B?' }));
    expect(screen.getByTestId('why-panel').textContent).toContain('held by B with fencing token 2');
    expect(screen.getByTestId('why-rule').textContent).toContain('Leases, fencing tokens and the Redlock debate');
    const refused = screen.getAllByRole('button', { name: /refused by the fenced store\?$/ });
    fireEvent.click(refused[0]);
    expect(screen.getByTestId('why-panel').textContent).toContain('The fenced store refused');
    expect(screen.getByTestId('why-panel').textContent).toMatch(/token 1 is lower than token 2/);
    fireEvent.click(screen.getByRole('button', { name: /^Why does A believe/ }));
    expect(within(screen.getByTestId('why-panel')).getByRole('heading').textContent).toBe('Why does A still think it holds the lock?');
    expect(screen.getByTestId('why-panel').textContent).toContain('gives job:42 to B with token 2');
  });
});
