/**
 * Membership changes in real Chromium: in a run with the feature, the add button by the ring
 * puts a new server on the ring as a learner and the action in the link; the link reopens with
 * the server there.
 */
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';

const site = useBrowserSite();
const LINK = '?v=1&seed=42&nodes=3&features=membership&s=@400+submit+a%3D1&t=500&view=ring';

describe.skipIf(!haveChromium)('membership changes on the page', () => {
  it('+ add n4 draws n4 on the ring as a learner, records the action in the link, and the link reopens with n4', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + LINK);
      await clockAt(page, 500);
      expect(await page.locator('[data-node-id]').count()).toBe(3);
      await page.getByRole('button', { name: '+ add n4' }).click();
      await page.waitForSelector('[data-node-id="n4"]');
      expect(await page.locator('[data-node-id="n4"]').getAttribute('class')).toContain('member-learner');
      await page.waitForFunction(() => /add(\+|%20)n4/.test(location.search));
      const link = await page.evaluate(() => location.search);
      await withPage(site, async (again) => {
        await again.goto(site.url + link);
        await again.waitForSelector('[data-node-id="n4"]');
        expect(await again.locator('[data-node-id]').count()).toBe(4);
      });
      expect(errors).toEqual([]);
    });
  }, 90_000);
});
