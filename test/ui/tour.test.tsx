// @vitest-environment jsdom
// The tour bar and its keys: Next plays the next beat's run from the previous beat's end to its
// own; Back lands paused on the previous beat's end; → / ← and PageDown / PageUp move beats only
// while a tour is open; names in the narration outline their node on hover.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvedTour } from '../../src/sim/teach/tours/runner';
import { findTour } from '../../src/sim/teach/tours/tours';
import type { Tour } from '../../src/sim/teach/tours/types';
import { App } from '../../src/ui/App';
import { openTourBeat } from '../../src/ui/tour';
import { currentLink } from '../../src/ui/urlSync';
import { renderLab } from './labHarness';

afterEach(cleanup);

const fencing = resolvedTour(findTour('fencing') as Tour);

describe('the tour bar', () => {
  it('opens a beat, plays the next one to its end, and goes back to the exact end of the one before', async () => {
    const { sent, bridge, store } = renderLab(<App />);
    expect(screen.queryByTestId('tour-narration')).toBeNull();
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 2 }, 'land')));
    const narration = screen.getByTestId('tour-narration');
    expect(narration.getAttribute('data-tour')).toBe('fencing');
    expect(narration.getAttribute('data-beat')).toBe('2');
    expect(narration.textContent).toContain('Client B asks for job:42 and is told busy');
    const b2 = fencing.beats[1];
    expect(sent.at(-1)).toMatchObject({
      type: 'load',
      startAtMs: b2.endMs,
      stopAtMs: null,
      playing: false,
      label: 'fencing',
      schedule: b2.lineSchedule,
    });

    fireEvent.click(screen.getByTestId('tour-next'));
    const b3 = fencing.beats[2];
    expect(sent.at(-1)).toMatchObject({ type: 'load', startAtMs: b2.endMs, stopAtMs: b3.endMs, playing: true });
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('3');
    // 8.5 s of simulated time would take 85 s at the default speed: the wait plays at a round speed
    // that fits it, and the lease's expiry (its key moment) at a speed each message can be read at.
    const load = sent.at(-1) as unknown as { pace: { fromMs: number; speed: number }[] };
    expect(load.pace).toEqual([
      { fromMs: b3.startMs, speed: 2 },
      { fromMs: b3.pace!.slowFromMs, speed: b3.pace!.slowSpeed },
    ]);
    expect(store.getState().frame.speed).toBe(2);
    // The link keeps the person's own speed; Exit tour hands it back at once.
    expect(store.getState().frame.chosenSpeed).toBe(0.1);

    fireEvent.click(screen.getByTestId('tour-prev'));
    expect(sent.at(-1)).toMatchObject({ type: 'load', startAtMs: b2.endMs, playing: false });
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('2');

    // Slow motion off: the beat plays at one fitted speed.
    fireEvent.click(screen.getByLabelText('slow motion'));
    fireEvent.click(screen.getByTestId('tour-next'));
    expect((sent.at(-1) as unknown as { pace: unknown }).pace).toEqual([{ fromMs: b3.startMs, speed: 2 }]);
    fireEvent.click(screen.getByRole('button', { name: 'Exit tour' }));
    expect(sent.at(-1)).toEqual({ type: 'speed', speed: 0.1 });
    expect(store.getState().frame.speed).toBe(0.1);
  });

  it('opens the panel a beat names: the History tab for fencing beat 7, though it highlights the stores', async () => {
    const { bridge } = renderLab(<App />);
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 5 }, 'land')));
    expect(screen.getByRole('tab', { name: 'Stores' }).getAttribute('aria-selected')).toBe('true');
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 7 }, 'land')));
    expect(screen.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    await act(async () => void (await openTourBeat(bridge, { name: 'figure8', beat: 8 }, 'land')));
    expect(screen.getByRole('tab', { name: 'Invariants' }).getAttribute('aria-selected')).toBe('true');
  });

  it('moves beats with → / ← and PageDown / PageUp while open; the arrows step time otherwise', async () => {
    const { sent, bridge } = renderLab(<App />);
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'ms', ms: 1 });
    await act(async () => void (await openTourBeat(bridge, { name: 'chapter', beat: 1 }, 'land')));
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('2');
    fireEvent.keyDown(document.body, { key: 'PageDown' });
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('3');
    fireEvent.keyDown(document.body, { key: 'PageUp' });
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(screen.getByTestId('tour-narration').getAttribute('data-beat')).toBe('1');
    expect(screen.getByTestId('tour-prev')).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Exit tour' }));
    expect(screen.queryByTestId('tour-narration')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'ms', ms: 1 });
  });

  it('outlines a node named in the narration while the pointer is over its name', async () => {
    const { bridge, container } = renderLab(<App />);
    await act(async () => void (await openTourBeat(bridge, { name: 'first-election', beat: 3 }, 'land')));
    // The beat points at n2; its narration names n1, n2 and n5.
    expect(container.querySelector('[data-node-id="n2"]')?.classList.contains('tour-highlight')).toBe(true);
    const name = container.querySelector('.tour-actor[data-actor="n2"]') as Element;
    expect(name.textContent).toBe('n2');
    const n1 = container.querySelector('.tour-narration .tour-actor[data-actor="n1"]') as Element;
    fireEvent.mouseEnter(n1);
    expect(container.querySelector('[data-node-id="n1"]')?.classList.contains('tour-highlight')).toBe(true);
    expect(container.querySelector('[data-node-id="n2"]')?.classList.contains('tour-highlight')).toBe(false);
    fireEvent.mouseLeave(n1);
    expect(container.querySelector('[data-node-id="n2"]')?.classList.contains('tour-highlight')).toBe(true);
  });

  it('picking a preset opens its tour at beat 1, playing (once the tours have loaded)', async () => {
    const { sent } = renderLab(<App />);
    fireEvent.change(screen.getByLabelText('Scenario'), { target: { value: 'fencing' } });
    expect((await screen.findByTestId('tour-narration')).getAttribute('data-beat')).toBe('1');
    expect(sent.at(-1)).toMatchObject({ type: 'load', startAtMs: 0, stopAtMs: fencing.beats[0].endMs, playing: true, label: 'fencing' });
    fireEvent.change(screen.getByLabelText('Scenario'), { target: { value: 'default' } });
    expect(screen.queryByTestId('tour-narration')).toBeNull();
  });

  it('puts the tour and beat in the link while the run is the beat’s', async () => {
    const { bridge, store } = renderLab(<App />);
    await act(async () => void (await openTourBeat(bridge, { name: 'fencing', beat: 3 }, 'land')));
    const beat = fencing.beats[2];
    // What the worker's snapshot would say about the loaded run.
    act(() => store.setState((s) => ({ frame: { ...s.frame, config: beat.config, schedule: beat.lineSchedule } })));
    expect(currentLink(store.getState())).toMatch(/&tour=fencing&beat=3$/);
    act(() => store.setState((s) => ({ frame: { ...s.frame, schedule: [] } })));
    expect(currentLink(store.getState())).not.toContain('tour=');
  });
});

describe('force an election timeout from the node panel', () => {
  it('sends `timeout n3` for a follower, and is off for the leader', async () => {
    const { NodeContextPanel } = await import('../../src/ui/panels/NodeContextPanel');
    const { sent, store } = renderLab(<NodeContextPanel />);
    act(() => store.getState().focusNode('n3'));
    fireEvent.click(screen.getByRole('button', { name: 'Force n3 timeout' }));
    expect(sent.at(-1)).toEqual({ type: 'action', body: { verb: 'timeout', node: 'n3' } });
    act(() => store.getState().focusNode('n2')); // seed 42: n2 leads at 400 ms
    expect(screen.getByRole('button', { name: 'Force n2 timeout' })).toHaveProperty('disabled', true);
  });
});
