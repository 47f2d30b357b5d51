// @vitest-environment jsdom
// Snapshots on the page: Settings ▸ Protocol's threshold field, and the logs' snapshot box.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunSettings } from '../../src/ui/controls/RunSettings';
import { LogsPanel } from '../../src/ui/panels/LogsPanel';
import { Legend } from '../../src/ui/diagram/Legend';
import { findPreset } from '../../src/sim/run/presets';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { formatSchedule } from '../../src/sim/model/schedule';
import { renderLab } from './labHarness';

afterEach(cleanup);

const SNAPSHOTS = { ...DEFAULT_CONFIG, features: ['snapshots' as const] };

describe('the snapshot threshold in Settings ▸ Protocol', () => {
  it('is shown only with snapshots on, at the default', () => {
    renderLab(<RunSettings />);
    expect(screen.queryByTestId('snapshot-threshold')).toBeNull();
    cleanup();
    renderLab(<RunSettings />, { config: SNAPSHOTS });
    expect((screen.getByTestId('snapshot-threshold') as HTMLInputElement).value).toBe('8');
  });

  it('a new value loads the same schedule with it, replayed to now', () => {
    const { sent } = renderLab(<RunSettings />, { config: SNAPSHOTS, schedule: '@100 crash n2' });
    const input = screen.getByTestId('snapshot-threshold');
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    const load = sent.at(-1);
    expect(load?.type).toBe('load');
    if (load?.type === 'load') {
      expect(load.config.snapshotEvery).toBe(5);
      expect(load.config.features).toEqual(['snapshots']);
      expect(formatSchedule(load.schedule)).toBe('@100 crash n2');
    }
  });

  it('a bad value gets one sentence and loads nothing', () => {
    const { sent } = renderLab(<RunSettings />, { config: SNAPSHOTS });
    const before = sent.length;
    const input = screen.getByTestId('snapshot-threshold');
    fireEvent.change(input, { target: { value: 'lots' } });
    fireEvent.blur(input);
    expect(screen.getByTestId('snapshot-threshold-error').textContent).toBe(
      'The snapshot threshold must be a whole number of entries from 1 to 1000, not "lots".',
    );
    expect(sent.length).toBe(before);
  });
});

describe('the logs with snapshots', () => {
  const preset = findPreset('snapshot-catch-up')!;

  it('show the compacted prefix as one box, then the entries after it with their global indexes', () => {
    const { container } = renderLab(<LogsPanel />, {
      config: { ...preset.config, features: ['snapshots'] },
      schedule: preset.schedule,
      untilMs: 3000,
    });
    const n5 = container.querySelector('[data-log-node="n5"]')!;
    const box = n5.querySelector('.log-snapshot')!;
    expect(box.textContent).toBe('snapshot ≤ 16, term 1');
    expect(box.getAttribute('data-snapshot-index')).toBe('16');
    const entries = [...n5.querySelectorAll('.entry')];
    expect(entries.map((e) => e.getAttribute('data-index'))).toEqual(['17', '18', '19', '20']);
    expect(entries.map((e) => e.querySelector('.entry-text')?.textContent)).toEqual(['x17', 'x18', 'x19', 'x20']);
    expect(n5.querySelector('.log-more')).toBeNull();
  });

  it('without the feature there is no snapshot box', () => {
    const { container } = renderLab(<LogsPanel />, { config: preset.config, schedule: preset.schedule, untilMs: 3000 });
    expect(container.querySelector('.log-snapshot')).toBeNull();
  });
});

describe('the legend', () => {
  it('lists InstallSnapshot and its reply only in runs with snapshots', () => {
    renderLab(<Legend features={['snapshots']} />, { config: SNAPSHOTS });
    expect(screen.getByLabelText('Legend').textContent).toContain('InstallSnapshot (snapshots, §5)');
    expect(screen.getByLabelText('Legend').textContent).toContain('InstallSnapshot reply');
    cleanup();
    renderLab(<Legend features={[]} />);
    expect(screen.getByLabelText('Legend').textContent).not.toContain('InstallSnapshot');
  });
});
