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
});
