/**
 * Settings ▸ Lock service in real Chromium (issue 26): picking Redis puts lock= in the link and
 * runs the clients against one instance r1 (the chapter's n1..n5 are gone from the diagram); the
 * page says the fenced store cannot help; the link reopens with Redis picked and its run.
 */
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite, withPage } from './site';

const site = useBrowserSite();
const LINK = '?v=1&seed=42&clients=AB&s=@500+client+A+acquire+job+2000%3B+@700+client+A+pause+3000&t=3000';

describe.skipIf(!haveChromium)('the Lock service picker', () => {
  it('picking Redis puts lock=redis in the link and its server in the diagram; the link reopens with it', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + LINK);
      await clockAt(page, 3000);
      expect(await page.locator('[data-node-id="n1"]').count()).toBeGreaterThan(0);
      await page.getByRole('tab', { name: /Settings/ }).click();
      await page.getByTestId('lock-service').selectOption('redis');
      await page.waitForFunction(() => location.search.includes('lock=redis'));
      await page.waitForSelector('[data-node-id="r1"]');
      expect(await page.locator('[data-node-id="n1"]').count()).toBe(0);
      // A Redis server is drawn as what it is, not as a Raft follower in term 0: no leader to ask
      // about, no command box for a Raft log, none of Raft's messages in the legend, its keys in Logs.
      await page.waitForSelector('g.node[data-node-id="r1"][data-server-role="primary"]');
      expect(await page.locator('g.node[data-node-id="r1"] .node-term').textContent()).toMatch(/^(no keys|job: A-1)$/);
      expect(await page.getByRole('button', { name: 'Why no leader?' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Submit', exact: true }).count()).toBe(0);
      expect(await page.getByLabel('Legend').textContent()).not.toContain('RequestVote');
      // The live check copies the run with its trace recorder: every message type of the service has a trace code.
      await page.waitForTimeout(1500);
      expect(await page.getByTestId('invariant-badge').getAttribute('data-state')).toBe('holding');
      expect(await page.getByTestId('lock-explanation').textContent()).toContain('the fenced store cannot help');
      // The protocol features are Raft's: not offered for a service that runs none.
      expect(await page.getByTestId('protocol-settings').count()).toBe(0);
      // Item 3 on the page: the run's measures beside the stores.
      await page.getByRole('tab', { name: /^Stores/ }).click();
      expect(await page.getByTestId('lock-measures').textContent()).toContain('this service has none, so the fenced store cannot help');
      await page.getByRole('tab', { name: /^Logs/ }).click();
      expect(await page.getByTestId('server-lines').textContent()).toContain('r1: primary (epoch 0)');
      // The Locks tab shows Redis's keys instance by instance, not Raft's lock state machine.
      await page.getByRole('tab', { name: /^Locks/ }).click();
      expect(await page.getByTestId('lock-table').getAttribute('data-service')).toBe('redis');
      expect(await page.locator('#locks-title').textContent()).toBe('Keys, instance by instance');
      // Item 2: a clock jump from the page, as the schedule's verb: r1's wall clock steps 20 s forward.
      await page.locator('[data-node-id="r1"]').first().focus();
      await page.getByRole('tab', { name: /^Node/ }).click();
      await page.getByLabel('jump ms').fill('+20000');
      await page.getByRole('button', { name: "Jump r1's wall clock" }).click();
      await page.waitForFunction(() => decodeURIComponent(location.search.replace(/\+/g, ' ')).includes('clockjump r1 +20000'));
      await page.getByLabel('jump ms').fill('soon');
      await page.getByRole('button', { name: "Jump r1's wall clock" }).click();
      expect(await page.locator('.node-panel').textContent()).toContain('A clock jump is + or - and a whole number of ms');
      const link = await page.evaluate(() => location.search);
      await withPage(site, async (again) => {
        await again.goto(site.url + link);
        await again.waitForSelector('[data-node-id="r1"]');
        await again.getByRole('tab', { name: /Settings/ }).click();
        expect(await again.getByTestId('lock-service').inputValue()).toBe('redis');
      });
      expect(errors).toEqual([]);
    });
  }, 90_000);
});

describe.skipIf(!haveChromium)('the Compare view', () => {
  it('fills the chapter’s table from runs, the chapter’s words beside each cell, and a cell opens its run', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url + '?v=1&seed=42&t=0');
      await page.waitForSelector('[data-node-id]');
      await page.getByRole('button', { name: 'Experiments' }).click();
      await page.getByLabel('Seeds per service').selectOption('1');
      await page.getByTestId('compare-run').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-table"] tbody tr').length === 7, undefined, {
        timeout: 60_000,
      });
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-run"]')?.textContent === 'Fill the table');
      const redis = page.locator('tr[data-service="redis"]');
      expect(await redis.locator('td').first().textContent()).toContain('chapter: “No”');
      expect(await redis.locator('td').first().textContent()).toContain('no token: the fenced store cannot help');
      // The advisory lock lives with its connection, which a paused client's kernel keeps alive.
      expect(await page.locator('tr[data-service="advisory"] td').first().textContent()).toContain('two holders in 0/1 runs');
      await redis.locator('td').first().getByRole('button').click();
      await page.waitForSelector('[data-node-id="r1"]');
      await page.waitForFunction(() => location.search.includes('lock=redis'));
      expect(errors).toEqual([]);
    });
  }, 120_000);
});
