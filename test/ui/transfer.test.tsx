// @vitest-environment jsdom
// Leadership transfer (§3.10) as a node action: offered only in runs with the feature, like
// `timeout n` is, and sent as the schedule verb `transfer n`.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeContextPanel } from '../../src/ui/panels/NodeContextPanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

describe('transfer leadership from the node panel', () => {
  it('is not offered without the transfer feature', () => {
    const { store } = renderLab(<NodeContextPanel />);
    act(() => store.getState().focusNode('n3'));
    expect(screen.queryByRole('button', { name: 'Transfer leadership to n3' })).toBeNull();
  });

  it('with the feature, sends `transfer n3` for a follower, and is off for the leader', () => {
    const { sent, store } = renderLab(<NodeContextPanel />);
    act(() => store.setState((s) => ({ frame: { ...s.frame, config: { ...s.frame.config, features: ['transfer'] } } })));
    act(() => store.getState().focusNode('n3'));
    fireEvent.click(screen.getByRole('button', { name: 'Transfer leadership to n3' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'transfer', node: 'n3' } });
    act(() => store.getState().focusNode('n2')); // seed 42: n2 leads at 400 ms
    expect(screen.getByRole('button', { name: 'Transfer leadership to n2' })).toHaveProperty('disabled', true);
  });
});
