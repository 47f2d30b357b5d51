/**
 * Snapshots in real Chromium: a link with features=snapshots shows n5's snapshot box in the logs,
 * and Settings ▸ Protocol's threshold field changes the link and the run.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, presetActions } from '../../src/sim/run/presets';
import { Simulation } from '../../src/sim/run/simulation';
import { encodeLink } from '../../src/share/link';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';

const site = useBrowserSite();
const preset = findPreset('snapshot-catch-up')!;
const LINK =
  '?' + encodeLink({ config: { ...preset.config, features: ['snapshots'] }, schedule: presetActions(preset), atMs: 3000, view: 'ring' });

/** n5's snapshot index at 3000 ms with this threshold, from the engine itself. */
function n5SnapshotAt(snapshotEvery: number): number | undefined {
  const sim = new Simulation({ ...preset.config, features: ['snapshots'], snapshotEvery }, presetActions(preset));
  sim.advanceTo(3000);
  return sim.cluster.node('n5').snapshot?.index;
}

describe.skipIf(!haveChromium)('snapshots on the page', () => {
  it('the logs show the snapshot box; a new threshold puts snapshot= in the link and replays the run', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + LINK);
      await clockAt(page, 3000);
      await page.getByRole('tab', { name: /Logs/ }).click();
      expect(await page.locator('[data-log-node="n5"] .log-snapshot').textContent()).toBe('snapshot ≤ 16, term 1');
      await page.getByRole('tab', { name: /Settings/ }).click();
      const field = page.getByTestId('snapshot-threshold');
      await field.fill('5');
      await field.press('Enter');
      await page.waitForFunction(() => location.search.includes('snapshot=5'));
      await page.getByRole('tab', { name: /Logs/ }).click();
      const want = String(n5SnapshotAt(5));
      await page.waitForFunction(
        (index) => document.querySelector('[data-log-node="n5"] .log-snapshot')?.getAttribute('data-snapshot-index') === index,
        want,
      );
      expect(errors).toEqual([]);
    });
  }, 90_000);
});
