// @vitest-environment jsdom
// Reads in the page: the client panel's put and get (a key, a value and a read mode), the answer
// in the client's line, and Settings ▸ Protocol's read mode.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type SimConfig } from '../../src/sim/model/config';
import { RunSettings } from '../../src/ui/controls/RunSettings';
import { ClientsPanel } from '../../src/ui/panels/ClientsPanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

const READS: SimConfig = { ...DEFAULT_CONFIG, clientIds: ['A', 'B'], features: ['reads'] };

describe('the client panel with reads', () => {
  it('offers put and get, sends them as client intents, and refuses a bad value with one sentence', () => {
    const { sent } = renderLab(<ClientsPanel />, { config: READS });
    const a = screen.getByRole('article', { name: /Client A/ });
    fireEvent.click(within(a).getByRole('button', { name: 'Put as client A' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'client', client: 'A', intent: { op: 'put', key: 'x', value: '1' } } });
    fireEvent.click(within(a).getByRole('button', { name: 'Get as client A' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'client', client: 'A', intent: { op: 'get', key: 'x', mode: null } } });
    fireEvent.change(within(a).getByLabelText("Read mode for client A's get"), { target: { value: 'lease' } });
    fireEvent.click(within(a).getByRole('button', { name: 'Get as client A' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'client', client: 'A', intent: { op: 'get', key: 'x', mode: 'lease' } } });
    fireEvent.change(within(a).getByLabelText('Value to put as client A'), { target: { value: 'a b' } });
    const before = sent.length;
    fireEvent.click(within(a).getByRole('button', { name: 'Put as client A' }));
    expect(sent.length).toBe(before);
    expect(within(a).getByRole('alert').textContent).toBe('A value is 1 to 64 characters with no spaces, ; | or , (like 1), not "a b".');
  });

  it('shows the answer to the last get in the client’s line', () => {
    renderLab(<ClientsPanel />, { config: READS, schedule: '@400 client A put x=7; @600 client A get x', untilMs: 1000 });
    expect(screen.getByTestId('client-A-result').textContent).toBe('get x -> 7');
    expect(screen.getByTestId('client-B-result').textContent).toBe('none yet');
  });

  it('has no put or get in a run without the feature', () => {
    renderLab(<ClientsPanel />);
    const a = screen.getByRole('article', { name: /Client A/ });
    expect(within(a).queryByRole('button', { name: 'Put as client A' })).toBeNull();
    expect(screen.queryByTestId('client-A-result')).toBeNull();
  });
});

describe('Settings ▸ Protocol: the read mode', () => {
  it('appears with reads and loads the run in the chosen mode; log is left out as the default', () => {
    const { sent } = renderLab(<RunSettings />, { config: READS });
    const select = screen.getByLabelText('Read mode') as HTMLSelectElement;
    expect(select.value).toBe('log');
    fireEvent.change(select, { target: { value: 'read-index' } });
    const load = sent.at(-1);
    expect(load?.type === 'load' && load.config.readMode).toBe('read-index');
  });

  it('is not offered without reads, and unchecking reads drops the read mode with it', () => {
    const { sent } = renderLab(<RunSettings />, { config: { ...READS, readMode: 'lease' } });
    expect((screen.getByLabelText('Read mode') as HTMLSelectElement).value).toBe('lease');
    fireEvent.click(screen.getByRole('checkbox', { name: /Reads/ }));
    const load = sent.at(-1);
    expect(load?.type === 'load' && load.config.features).toEqual([]);
    expect(load?.type === 'load' && 'readMode' in load.config).toBe(false);
    cleanup();
    renderLab(<RunSettings />);
    expect(screen.queryByLabelText('Read mode')).toBeNull();
  });
});
