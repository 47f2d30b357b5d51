// @vitest-environment jsdom
// Settings ▸ Failure detector and regions (issue 28): the choice and its parameters start a new run, replayed to now; bad input is one sentence.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunSettings } from '../../src/ui/controls/RunSettings';
import { PseudocodePanel } from '../../src/ui/panels/PseudocodePanel';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { formatSchedule } from '../../src/sim/model/schedule';
import { renderLab } from './labHarness';

afterEach(cleanup);

const set = (name: string, value: string) => {
  const el = screen.getByTestId('detector-settings').querySelector(`[data-field="${name}"]`) as HTMLInputElement;
  fireEvent.change(el, { target: { value } });
};

describe('the Failure detector section of Run settings', () => {
  it('starts on fixed, the chapter’s; picking phi-accrual with Φ 4 loads that run with the same schedule', () => {
    const { sent } = renderLab(<RunSettings />, { schedule: '@100 crash n2' });
    const select = screen.getByTestId('detector') as HTMLSelectElement;
    expect(select.value).toBe('fixed');
    fireEvent.change(select, { target: { value: 'phi-accrual' } });
    expect(screen.getByTestId('detector-explanation').textContent).toMatch(/inter-arrival/);
    set('phi', '4');
    fireEvent.click(screen.getByRole('button', { name: 'Apply detector and regions' }));
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type === 'load') {
      expect(load.config.detector).toEqual({ kind: 'phi-accrual', threshold: 4 });
      expect(formatSchedule(load.schedule)).toBe('@100 crash n2');
    }
  });

  it('places nodes and clients in regions with a round-trip preset', () => {
    const { sent } = renderLab(<RunSettings />, { config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] } });
    set('regions', 'us-east=n1,n2,A; us-west=n3,n4; eu-west=n5,B');
    set('rtt', 'world');
    fireEvent.click(screen.getByRole('button', { name: 'Apply detector and regions' }));
    const load = sent.at(-1);
    expect(load?.type === 'load' && load.config.regions?.places.map((p) => p.region)).toEqual(['us-east', 'us-west', 'eu-west']);
    expect(load?.type === 'load' && load.config.regions?.rtt).toBe('world');
  });

  it('a bad value is one sentence and loads nothing', () => {
    const { sent } = renderLab(<RunSettings />);
    fireEvent.change(screen.getByTestId('detector'), { target: { value: 'gossip' } });
    set('fanout', 'many');
    const before = sent.length;
    fireEvent.click(screen.getByRole('button', { name: 'Apply detector and regions' }));
    expect(sent.length).toBe(before);
    expect(screen.getByTestId('detector-error').textContent).toMatch(/^The gossip fanout must be .*"many"\.$/);
  });
});

describe('the pseudocode panel with a failure detector', () => {
  const titles = () => [...document.querySelectorAll('.pseudocode-panel h3')].map((h) => h.textContent ?? '');

  it('shows phi-accrual’s and the takeover rules right after the election timer only in a phi-accrual run; the chapter’s run shows neither', () => {
    renderLab(<PseudocodePanel />, { config: { ...DEFAULT_CONFIG, detector: { kind: 'phi-accrual' } }, untilMs: 300 });
    const phi = titles();
    const at = phi.findIndex((t) => t.includes('Election timeout'));
    expect(phi[at + 1]).toContain('Phi-accrual failure detector');
    expect(phi[at + 2]).toContain('Lock takeover');
    expect(phi.some((t) => t.includes('Gossip membership'))).toBe(false);
    cleanup();
    renderLab(<PseudocodePanel />, { config: DEFAULT_CONFIG, untilMs: 300 });
    expect(titles().some((t) => t.includes('Phi-accrual') || t.includes('Lock takeover'))).toBe(false);
  });

  const active = (id: string) => document.querySelector(`[data-line-id="${id}"]`)?.getAttribute('data-active') === 'true';

  it('lights phi-accrual’s window where a follower hears its leader’s heartbeat, and its campaign where the timer’s would be', () => {
    const { store } = renderLab(<PseudocodePanel />, { config: { ...DEFAULT_CONFIG, detector: { kind: 'phi-accrual' } }, untilMs: 2000 });
    const leader = store.getState().frame.snapshot?.leader as string;
    const follower = ['n1', 'n2', 'n3', 'n4', 'n5'].find((id) => id !== leader) as string;
    fireEvent.change(screen.getByTestId('rules-follow'), { target: { value: follower } });
    expect(active('detect-phi.window')).toBe(true);
    expect(active('detect-phi.campaign')).toBe(false);
    cleanup();
    // Just after the chapter's first campaign (n2 at 156 ms), phi-accrual's campaign line is lit with the timer's.
    renderLab(<PseudocodePanel />, { config: { ...DEFAULT_CONFIG, detector: { kind: 'phi-accrual' } }, untilMs: 170 });
    fireEvent.change(screen.getByTestId('rules-follow'), { target: { value: 'n2' } });
    expect(active('timer.campaign')).toBe(true);
    expect(active('detect-phi.campaign')).toBe(true);
  });

  it('lights gossip’s suspicion while the followed node’s view suspects a crashed node, and not before', () => {
    const { store } = renderLab(<PseudocodePanel />, {
      config: { ...DEFAULT_CONFIG, detector: { kind: 'gossip' } },
      schedule: '@2000 crash n5',
      untilMs: 1900,
    });
    fireEvent.change(screen.getByTestId('rules-follow'), { target: { value: 'n1' } });
    expect(active('detect-gossip.suspect')).toBe(false);
    cleanup();
    renderLab(<PseudocodePanel />, {
      config: { ...DEFAULT_CONFIG, detector: { kind: 'gossip' } },
      schedule: '@2000 crash n5',
      untilMs: 3000,
    });
    fireEvent.change(screen.getByTestId('rules-follow'), { target: { value: 'n1' } });
    expect(active('detect-gossip.suspect')).toBe(true);
    expect(store).toBeDefined();
  });
});
