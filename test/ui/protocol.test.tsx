// @vitest-environment jsdom
// Settings ▸ Protocol: a checkbox per feature starts a new run with it, replayed to now.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunSettings } from '../../src/ui/controls/RunSettings';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { FEATURES } from '../../src/sim/model/features';
import { formatSchedule } from '../../src/sim/model/schedule';
import { renderLab } from './labHarness';

afterEach(cleanup);

describe('the Protocol section of Run settings', () => {
  it('has one unchecked box per feature, each with its section and a one-line explanation', () => {
    renderLab(<RunSettings />);
    const section = screen.getByTestId('protocol-settings');
    const boxes = section.querySelectorAll('input[type="checkbox"]');
    expect([...boxes].map((b) => (b as HTMLInputElement).dataset.feature)).toEqual(FEATURES.map((f) => f.name));
    for (const b of boxes) expect((b as HTMLInputElement).checked).toBe(false);
    for (const f of FEATURES) expect(section.textContent).toContain(`${f.title} (${f.section}, ${f.name}) — ${f.explanation}`);
  });

  it('checking a box loads the same schedule with the feature on, replayed to now', () => {
    const { sent } = renderLab(<RunSettings />, { schedule: '@100 crash n2' });
    fireEvent.click(screen.getByRole('checkbox', { name: /Pre-vote/ }));
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type === 'load') {
      expect(load.config.features).toEqual(['pre-vote']);
      expect(formatSchedule(load.schedule)).toBe('@100 crash n2');
      expect(load.startAtMs).toBe(400);
    }
  });

  it('a run with features shows them checked; unchecking one drops its bugs too', () => {
    const { sent } = renderLab(<RunSettings />, {
      config: { ...DEFAULT_CONFIG, features: ['pre-vote', 'check-quorum'], bugs: ['quorum-counts-self-twice', 'figure8'] },
    });
    expect((screen.getByRole('checkbox', { name: /CheckQuorum/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /CheckQuorum/ }));
    const load = sent.at(-1);
    expect(load?.type === 'load' && load.config.features).toEqual(['pre-vote']);
    expect(load?.type === 'load' && load.config.bugs).toEqual(['figure8']);
  });

  it('the protocol family switch loads the same run on Multi-Paxos without what only Raft has, keeping the actions it takes', () => {
    const { sent } = renderLab(<RunSettings />, {
      config: { ...DEFAULT_CONFIG, features: ['pre-vote'], bugs: ['figure8'], clientIds: ['A'] },
      schedule: '@100 crash n2; @200 client A acquire x 1000',
    });
    fireEvent.change(screen.getByTestId('protocol-family'), { target: { value: 'multi-paxos' } });
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type !== 'load') return;
    expect(load.config.protocol).toBe('multi-paxos');
    expect([load.config.features, load.config.bugs, load.config.clientIds]).toEqual([undefined, [], []]);
    // A lock client's action is Raft's lock service's: one sentence says it was left out.
    expect(formatSchedule(load.schedule)).toBe('@100 crash n2');
    expect(screen.getByTestId('protocol-error').textContent).toContain('leaves out 1 recorded action that multi-paxos does not take');
  });

  it('a Paxos run lists no Raft feature, and its back-off range loads a new run (a bad one gets a sentence)', () => {
    const { sent } = renderLab(<RunSettings />, { config: { ...DEFAULT_CONFIG, protocol: 'paxos' }, schedule: '@10 propose v=1 to n1' });
    const section = screen.getByTestId('protocol-settings');
    expect(section.querySelectorAll('input[type="checkbox"]')).toHaveLength(0);
    const box = screen.getByLabelText('Back-off ms');
    fireEvent.change(box, { target: { value: '20-x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByTestId('protocol-error').textContent).toMatch(/back-off/i);
    fireEvent.change(box, { target: { value: '20-100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const load = sent.at(-1);
    expect(load?.type === 'load' && load.config.backoffMs).toEqual([20, 100]);
  });
});
