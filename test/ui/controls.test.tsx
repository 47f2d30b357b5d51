// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { PlaybackControls } from '../../src/ui/controls/PlaybackControls';
import { RunSettings } from '../../src/ui/controls/RunSettings';
import { NetworkControls } from '../../src/ui/controls/NetworkControls';
import { DEFAULT_CONFIG, nodeIdsFor } from '../../src/sim/model/config';
import { formatSchedule } from '../../src/sim/model/schedule';
import { renderLab } from './labHarness';

afterEach(cleanup);

describe('playback controls', () => {
  it('play/pause, step, next event, speed and go-to send the right messages', () => {
    const { sent, store } = renderLab(<PlaybackControls />);
    fireEvent.click(screen.getByRole('button', { name: /Play/ }));
    expect(sent.at(-1)).toEqual({ type: 'play' });
    expect(screen.getByRole('button', { name: /Pause/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Step 1 ms' }));
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'ms', ms: 1 });
    expect(store.getState().frame.playing).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Step back 1 ms' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 399 });
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '5' } });
    expect(sent.at(-1)).toEqual({ type: 'speed', speed: 5 });
    fireEvent.change(screen.getByLabelText('Go to ms'), { target: { value: '1500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1500 });
    expect(screen.getByLabelText('Simulated time').textContent).toBe('t = 400 ms');
  });
});

describe('run settings', () => {
  it('refuses a bad cluster size with one sentence and keeps the run', () => {
    const { sent } = renderLab(<RunSettings />);
    fireEvent.change(screen.getByLabelText(/Nodes/), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply configuration' }));
    expect(screen.getByTestId('settings-error').textContent).toBe('The number of nodes must be a whole number from 1 to 9, not "12".');
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText(/Heartbeat/), { target: { value: '400' } });
    fireEvent.change(screen.getByLabelText(/Nodes/), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply configuration' }));
    expect(screen.getByTestId('settings-error').textContent).toMatch(
      /^Heartbeat interval must be .* shorter than the minimum election timeout \(150 ms\), not 400\.$/,
    );
    expect(sent).toEqual([]);
  });

  it('applies a good configuration as a new run with the recorded schedule, replayed to now', () => {
    const { sent } = renderLab(<RunSettings />, { schedule: '@100 crash n2; @200 client A acquire job:42 1000' });
    fireEvent.change(screen.getByLabelText(/Nodes/), { target: { value: '7' } });
    fireEvent.change(screen.getByLabelText(/Seed/), { target: { value: '7' } });
    fireEvent.change(screen.getByLabelText(/Latency/), { target: { value: '10-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply configuration' }));
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type === 'load') {
      expect(load.config.nodeIds).toHaveLength(7);
      expect(load.config.seed).toBe(7);
      expect(load.config.latencyMs).toEqual([10, 30]);
      expect(formatSchedule(load.schedule)).toBe('@100 crash n2; @200 client A acquire job:42 1000');
      expect(load.startAtMs).toBe(400);
    }
  });

  it('keeps the recorded actions that still fit a smaller cluster, and says which it left out', () => {
    const { sent } = renderLab(<RunSettings />, {
      config: { ...DEFAULT_CONFIG, nodeIds: nodeIdsFor(7) },
      schedule: '@100 crash n7; @200 crash n1',
    });
    fireEvent.change(screen.getByLabelText(/Nodes/), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply configuration' }));
    const load = sent.at(-1);
    expect(load?.type === 'load' && formatSchedule(load.schedule)).toBe('@200 crash n1');
    expect(screen.getByTestId('settings-error').textContent).toBe(
      'The new run leaves out 1 recorded action that names nodes it does not have (@100 crash n7).',
    );
  });
});

describe('network controls', () => {
  it('isolates the selected nodes, heals, submits and sets loss', () => {
    const { sent, store } = renderLab(<NetworkControls />);
    fireEvent.click(screen.getByRole('button', { name: /Isolate selected/ }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Select some nodes but not all of them/);
    act(() => {
      store.getState().toggleSelected('n2');
      store.getState().toggleSelected('n3');
    });
    fireEvent.click(screen.getByRole('button', { name: /Isolate selected \(n2, n3\)/ }));
    expect(sent.at(-1)).toEqual({
      type: 'action',
      body: {
        verb: 'partition',
        groups: [
          ['n2', 'n3'],
          ['n1', 'n4', 'n5'],
        ],
      },
    });
    fireEvent.change(screen.getByLabelText('Submit to'), { target: { value: 'n3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'submit', command: 'x=1', target: 'n3' } });
    fireEvent.change(screen.getByLabelText(/loss %/), { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: /Set loss/ }));
    expect(screen.getByRole('alert').textContent).toBe('Message loss is a number of percent from 0 to 100, not "150".');
  });
});

describe('the whole page', () => {
  it('space plays and pauses, arrows step, and every button has a name', () => {
    const { sent, container } = renderLab(<App />);
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(sent.at(-1)).toEqual({ type: 'play' });
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(sent.at(-1)).toEqual({ type: 'pause' });
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'ms', ms: 1 });
    fireEvent.keyDown(document.body, { key: 'ArrowRight', shiftKey: true });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event' });
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 399 });
    fireEvent.keyDown(document.body, { key: 'ArrowLeft', shiftKey: true });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event', direction: -1 });
    fireEvent.keyDown(document.body, { key: '.' });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event' });
    fireEvent.keyDown(document.body, { key: ',' });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event', direction: -1 });
    fireEvent.keyDown(document.body, { key: '[' });
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 168 }); // n2 elected: the landmark before 400 ms
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(sent.at(-1)).toEqual({ type: 'undo' });
    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(sent.at(-1)).toEqual({ type: 'redo' });
    fireEvent.click(screen.getByRole('button', { name: /Keys/ }));
    expect(screen.getByText('previous landmark')).toBeTruthy(); // the keyboard help lists every key
    for (const el of container.querySelectorAll('button, input, select, textarea, [role="button"]')) {
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      const labelled = el.closest('label') !== null || name !== '';
      expect(labelled, el.outerHTML.slice(0, 80)).toBe(true);
    }
  });
});

describe('warnings for what will not happen as written (issue 25, item 8)', () => {
  it('the schedule editor says each in one sentence and still applies the schedule', async () => {
    const { ScheduleEditor } = await import('../../src/ui/controls/ScheduleEditor');
    const { sent } = renderLab(<ScheduleEditor />, { untilMs: 100 });
    fireEvent.change(screen.getByTestId('schedule-text'), { target: { value: '@900 crash n1\n@300 crash n3\n@950 crash n1\n@990 heal' } });
    const items = [...screen.getByTestId('schedule-warnings').querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual([
      '⚠ Action 2 ("@300 crash n3") is written after Action 1 ("@900 crash n1"): actions run in the order written, so it runs at 900 ms, not at 300 ms.',
      '⚠ Action 3 ("@950 crash n1") does nothing: n1 is already down at 950 ms.',
      '⚠ Action 4 ("@990 heal") does nothing: there is no partition to heal at 990 ms.',
    ]);
    expect(screen.queryByTestId('schedule-error')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply schedule' }));
    expect(sent.at(-1)).toMatchObject({ type: 'load' });
  });

  it('the settings say when no leader can ever be elected, and still apply', () => {
    const { sent } = renderLab(<RunSettings />);
    expect(screen.queryByTestId('settings-warning')).toBeNull();
    fireEvent.change(screen.getByLabelText('Latency ms'), { target: { value: '200-300' } });
    expect(screen.getByTestId('settings-warning').textContent).toContain('no leader can be elected');
    fireEvent.click(screen.getByRole('button', { name: 'Apply configuration' }));
    expect(sent.at(-1)).toMatchObject({ type: 'load', config: { latencyMs: [200, 300] } });
  });
});
