/**
 * Settings ▸ Protocol in real Chromium: checking a feature changes the link and the run (the
 * diagram's log shows the new leader's no-op), and the link opens with the box checked.
 */
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';

const site = useBrowserSite();
const LINK = '?v=1&seed=42&s=@1000+submit+x%3D1%3B+@1022+crash+n2&t=3000&view=ring';

describe.skipIf(!haveChromium)('the Protocol section', () => {
  it('checking leader-noop puts features= in the link and a no-op in every log; the link reopens with it checked', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + LINK);
      await clockAt(page, 3000);
      await page.getByRole('tab', { name: /Logs/ }).click();
      expect(await page.locator('[data-log-node="n1"] .entry.noop').count()).toBe(0);
      expect(await page.locator('[data-log-node="n1"]').getAttribute('data-commit-index')).toBe('0');
      await page.getByRole('tab', { name: /Settings/ }).click();
      await page.getByRole('checkbox', { name: /Leader no-op/ }).check();
      await page.waitForFunction(() => location.search.includes('features=leader-noop'));
      await page.getByRole('tab', { name: /Logs/ }).click();
      // The new run, replayed to 3000 ms: n1 won term 3, appended its no-op, and x=1 committed with it.
      await page.waitForFunction(() => document.querySelector('[data-log-node="n1"]')?.getAttribute('data-commit-index') === '3');
      expect(await page.locator('[data-log-node="n1"] .entry.noop').count()).toBe(2);
      expect(await page.locator('[data-log-node="n1"] .entry.noop .entry-text').first().textContent()).toBe('∅ no-op');
      const link = await page.evaluate(() => location.search);
      await withPage(site, async (again) => {
        await again.goto(site.url + link);
        await again.waitForSelector('[data-node-id]');
        await again.getByRole('tab', { name: /Settings/ }).click();
        expect(await again.getByRole('checkbox', { name: /Leader no-op/ }).isChecked()).toBe(true);
        expect(await again.getByRole('checkbox', { name: /Pre-vote/ }).isChecked()).toBe(false);
      });
      expect(errors).toEqual([]);
    });
  }, 60_000);
});
