/**
 * Issue 28 in real Chromium, lean: Settings ▸ Failure detector and regions places nodes and
 * clients in regions and picks phi-accrual, and the link carries both; the Experiments view runs
 * the majority-placement sweep and draws one commit-latency mark per run. Settings ▸ Persist ms
 * sets the persist delay before replies, and the figure-16 preset carries it into every run's link.
 */
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';

const site = useBrowserSite();

describe.skipIf(!haveChromium)('failure detectors and regions on the page', () => {
  it('places nodes in regions with a detector, and reads the commit-latency plot of a placement sweep', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + '?v=1&seed=42&clients=AB&t=500');
      await clockAt(page, 500);
      await page.getByRole('tab', { name: /Settings/ }).click();
      await page.getByTestId('detector').selectOption('phi-accrual');
      const form = page.getByTestId('detector-settings');
      await form.locator('[data-field="phi"]').fill('6');
      // The place picker: one menu per node and client, writing the Regions field.
      await form.locator('[data-field="rtt"]').fill('world');
      const places: [string, string][] = [
        ['n1', 'us-east'],
        ['n2', 'us-west'],
        ['A', 'us-east'],
        ['n3', 'us-east'],
        ['n4', 'us-west'],
        ['n5', 'eu-west'],
        ['B', 'eu-west'],
      ];
      for (const [id, region] of places) await form.locator(`[data-place="${id}"]`).selectOption(region);
      expect(await form.locator('[data-field="regions"]').inputValue()).toBe('us-east=n1,n3,A; us-west=n2,n4; eu-west=n5,B');
      await page.getByRole('button', { name: 'Apply detector and regions' }).click();
      await page.waitForFunction(() => location.search.includes('regions=') && location.search.includes('detector=phi-accrual'));
      const search = decodeURIComponent(await page.evaluate(() => location.search));
      expect(search).toContain('rtt=world');
      expect(search).toContain('phi=6');
      // The ring draws each region's band around its nodes, tags clients, and says the round trips.
      await page.getByTestId('region-places').waitFor();
      const bands = page.locator('[data-testid="region-places"] [data-region]');
      expect(await bands.evaluateAll((els) => els.map((e) => e.getAttribute('data-region')))).toEqual(['us-east', 'us-west', 'eu-west']);
      expect(await page.locator('[data-region-of="B"]').textContent()).toBe('eu-west');
      expect(await page.getByTestId('region-rtt').textContent()).toMatch(
        /us-east–us-west 70 ms .*us-west–eu-west 140 ms .*inside a region 0\.5 ms/,
      );
      // Nodes of one region sit side by side on the ring, clockwise from the top: n1, n3 (us-east), n2, n4 (us-west), n5.
      const angle = async (id: string) =>
        page.locator(`[data-node-id="${id}"]`).evaluate((el) => {
          const box = el.getBoundingClientRect();
          const svg = (el.closest('svg') as SVGSVGElement).getBoundingClientRect();
          return Math.atan2(box.x + box.width / 2 - (svg.x + svg.width / 2), -(box.y + box.height / 2 - (svg.y + svg.height / 2)));
        });
      const a = await Promise.all(['n1', 'n3', 'n2', 'n4', 'n5'].map(angle));
      const clockwise = a.map((x) => (x - a[0] + 4 * Math.PI) % (2 * Math.PI));
      expect([...clockwise].sort((x, y) => x - y)).toEqual(clockwise);
      // Presenter mode: the regions' names move to a key, the round trips to a corner, at 20 px or more.
      await page.keyboard.press('p');
      await page.getByTestId('region-key').waitFor();
      expect(await page.locator('[data-testid="region-key"] tspan').allTextContents()).toEqual([
        'us-east: n1, n3, A',
        'us-west: n2, n4',
        'eu-west: n5, B',
      ]);
      const px = await page
        .getByTestId('region-rtt')
        .evaluate((el) => el.getBoundingClientRect().height / el.querySelectorAll('tspan').length);
      expect(px).toBeGreaterThanOrEqual(20);
      expect(await page.locator('[data-testid="region-places"] [data-region] text').count()).toBe(0);
      await page.keyboard.press('p');
      // A bad value is one sentence, and the run keeps going.
      await form.locator('[data-field="rtt"]').fill('mars');
      await page.getByRole('button', { name: 'Apply detector and regions' }).click();
      expect(await page.getByTestId('detector-error').textContent()).toMatch(/mars/);

      await page.goto(`${site.url}#experiments`);
      await page.getByTestId('experiments').waitFor();
      await page.getByLabel('Scenario').selectOption('steady-load');
      await page.getByLabel('Sweep (parameter=values)', { exact: true }).fill('placement=0,1');
      await page.getByLabel('Shared settings', { exact: true }).fill('timeout=1000-2000 heartbeat=100');
      await page.getByLabel('Seeds per point', { exact: true }).fill('3');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 60_000 });
      expect(await page.locator('[data-plot="sweep"] [data-run-link]').count()).toBe(6);
      const links = await page
        .locator('[data-plot="sweep"] [data-run-link]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-run-link') ?? ''));
      expect(links.every((l) => decodeURIComponent(l).includes('rtt=us'))).toBe(true);
      expect(await page.getByTestId('experiments').textContent()).toMatch(/Commit latency/);
      expect(errors).toEqual([]);
    });
  });

  it('sets a persist delay in Settings, and runs Figure 16 (with its persist) from the Experiments view', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + '?v=1&seed=42&t=500');
      await clockAt(page, 500);
      await page.getByRole('tab', { name: /Settings/ }).click();
      const persist = page.getByTestId('settings-persist');
      await persist.fill('fast');
      await page.getByRole('button', { name: 'Apply configuration' }).click();
      expect(await page.getByTestId('settings-error').textContent()).toMatch(/persist delay must be a number of ms from 0 to 10000/);
      await persist.fill('8');
      await page.getByRole('button', { name: 'Apply configuration' }).click();
      await page.waitForFunction(() => location.search.includes('persist=8'));

      await page.goto(`${site.url}#experiments`);
      await page.getByTestId('experiments').waitFor();
      await page.getByLabel('Chapter experiment').selectOption('figure-16');
      expect(await page.getByLabel('Shared settings', { exact: true }).inputValue()).toContain('persist=8');
      await page.getByLabel('Seeds per point', { exact: true }).fill('3');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 60_000 });
      const links = await page
        .locator('[data-plot="sweep"] [data-run-link]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-run-link') ?? ''));
      // 150-150 elects nobody, so it has no marks; every other line has its three.
      expect(links.length).toBeGreaterThanOrEqual(15);
      expect(links.every((l) => l.includes('persist=8') && l.includes('latency=2-5'))).toBe(true);
      expect(errors).toEqual([]);
    });
  });
});
