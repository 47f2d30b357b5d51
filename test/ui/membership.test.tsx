// @vitest-environment jsdom
// Membership changes on the page: the diagram offers to add the next server, a node's panel and
// its X key to remove it; learners and removed servers are marked, and the logs mark
// configuration entries. Runs without the feature show none of it.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/sim/model/config';
import { Diagram } from '../../src/ui/diagram/Diagram';
import { LogsPanel } from '../../src/ui/panels/LogsPanel';
import { NodeContextPanel } from '../../src/ui/panels/NodeContextPanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

const config = makeConfig({ nodeIds: ['n1', 'n2', 'n3'], features: ['membership'] });

describe('membership changes on the page', () => {
  it('the diagram has an add button for the next free id, which sends the add action', () => {
    const { sent } = renderLab(<Diagram />, { config, schedule: '@400 submit a=1', untilMs: 500 });
    const add = screen.getByRole('button', { name: '+ add n4' });
    fireEvent.click(add);
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'add', node: 'n4' } });
  });

  it('marks a learner and a removed server on the ring, and X on a node asks to remove it', () => {
    const learning = renderLab(<Diagram />, { config, schedule: '@400 submit a=1; @600 add n4; @600 partition n4', untilMs: 700 });
    const n4 = learning.container.querySelector('[data-node-id="n4"]') as SVGGElement;
    expect(n4.getAttribute('class')).toContain('member-learner');
    expect(n4.textContent).toContain('learner');
    fireEvent.keyDown(learning.container.querySelector('[data-node-id="n1"]')!, { key: 'x' });
    expect(learning.sent.at(-1)).toEqual({ type: 'action', body: { verb: 'remove', node: 'n1' } });
    cleanup();
    const removed = renderLab(<Diagram />, { config, schedule: '@400 submit a=1; @600 remove n2', untilMs: 3000 });
    const n2 = removed.container.querySelector('[data-node-id="n2"]') as SVGGElement;
    expect(n2.getAttribute('class')).toContain('member-removed');
    expect(n2.textContent).toContain('removed');
  });

  it("the node's panel has a Remove button; the logs mark configuration entries", () => {
    const { sent, store } = renderLab(
      <>
        <NodeContextPanel />
        <LogsPanel />
      </>,
      { config, schedule: '@400 submit a=1; @600 add n4', untilMs: 900 },
    );
    act(() => store.getState().focusNode('n3'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove n3' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'remove', node: 'n3' } });
    expect(document.querySelectorAll('.entry.config').length).toBeGreaterThan(0);
  });

  it('a run without the feature offers none of it', () => {
    renderLab(<Diagram />, { config: { ...config, features: [] }, untilMs: 500 });
    expect(screen.queryByRole('button', { name: /add n/ })).toBeNull();
  });
});
