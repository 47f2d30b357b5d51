/**
 * Reads in Chromium (issue 14's reads, issue 15's register verdict): on the stale-read preset the
 * History tab shows the register verdict failing as a finding; in the Clients tab a put and a get
 * are sent, the get's answer appears in the client's line once the run has moved on.
 */
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';
import { encodeLink } from '../../src/share/link';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';

const site = useBrowserSite();
const stale = findPreset('stale-read')!;

async function goTo(page: Page, ms: number) {
  await page.getByLabel('Go to ms').fill(String(ms));
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await clockAt(page, ms);
}

describe.skipIf(!haveChromium)('reads in the page', () => {
  it('put and get from the client panel, the answer in the client’s line, and the register verdict in the History tab', async () => {
    await withPage(site, async (page, errors) => {
      const link = encodeLink({ config: stale.config, schedule: parseSchedule(stale.schedule), atMs: stale.untilMs });
      await page.goto(`${site.url}?${link}`);
      await clockAt(page, stale.untilMs);
      await page.getByRole('tab', { name: /Clients/ }).click();
      await expect.poll(() => page.getByTestId('client-A-result').textContent()).toBe('get x -> 1');
      // B puts x=3; A then reads x through the log.
      await page.getByLabel('Value to put as client B').fill('3');
      await page.getByRole('button', { name: 'Put as client B' }).click();
      await page.getByLabel("Read mode for client A's get").selectOption('log');
      await page.getByRole('button', { name: 'Get as client A' }).click();
      await goTo(page, 4000);
      await expect.poll(() => page.getByTestId('client-A-result').textContent()).toBe('get x -> 3');
      await page.getByRole('tab', { name: 'History' }).click();
      const verdict = page.getByTestId('history-panel').locator('[data-verdict="register"]');
      await expect.poll(() => verdict.getAttribute('data-result')).toBe('bad');
      expect(await verdict.textContent()).toContain('a finding');
      expect(errors).toEqual([]);
    });
  }, 90_000);
});
