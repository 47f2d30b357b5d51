/**
 * The History view in Chromium at 1280×720 (issue 15): the fencing preset's verdicts, the
 * unfenced store's minimal subset outlined in the bars and listed, a click on the verdict seeks to
 * the subset's last completion, and axe finds nothing on the tab in light and dark.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, haveChromium, useBrowserSite } from './site';
import { encodeLink } from '../../src/share/link';
import { checkHistory } from '../../src/sim/check/linearizability/check';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { Simulation } from '../../src/sim/run/simulation';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

const fencing = findPreset('fencing')!;

async function open(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  const link = encodeLink({ config: fencing.config, schedule: parseSchedule(fencing.schedule), atMs: fencing.untilMs });
  await page.goto(`${site.url}?${link}`);
  await page.getByTestId('clock').waitFor();
  // The fencing run lands on its Stores tab once its snapshot arrives; a click before that is undone.
  await expect.poll(() => page.getByRole('tab', { name: 'Stores' }).getAttribute('aria-selected')).toBe('true');
  // The run's arrival may still switch the side panel to Stores after a click: click until History stays.
  await expect
    .poll(
      async () => {
        if ((await page.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')) !== 'true')
          await page.getByRole('tab', { name: 'History' }).click();
        return page.getByTestId('history-panel').isVisible();
      },
      { timeout: 45_000, interval: 500 },
    )
    .toBe(true);
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);

describe.skipIf(!haveChromium)('History view', () => {
  it("shows the fencing preset's verdicts and outlines the unfenced store's minimal subset", async () => {
    // What the page must show, from the same checker in Node.
    const sim = new Simulation(fencing.config, parseSchedule(fencing.schedule));
    sim.advanceTo(fencing.untilMs);
    const expected = checkHistory(sim.lockService!.history.ops).unfenced;
    if (expected?.linearizable !== false) throw new Error('the fencing preset should fail strict exclusion at the unfenced store');

    const page = await open();
    const panel = page.getByTestId('history-panel');
    await expect.poll(() => panel.getAttribute('data-at-ms')).toBe(String(fencing.untilMs));
    const result = (name: string) => panel.locator(`[data-verdict="${name}"]`).getAttribute('data-result');
    expect(await result('locks')).toBe('ok');
    expect(await result('fenced')).toBe('ok');
    expect(await result('fencedOrder')).toBe('ok');
    expect(await result('unfenced')).toBe('bad');
    expect(await result('unfencedOrder')).toBe('bad');
    expect(await result('register')).toBe('na');
    expect(await panel.locator('[data-verdict="unfenced"]').textContent()).toContain('a finding');

    // The first failed verdict (strict exclusion at the unfenced store) is shown: exactly its ops are outlined.
    const outlined = await panel
      .locator('rect[data-in-subset="true"]')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-op-id'))));
    expect(outlined.sort((a, b) => a - b)).toEqual([...expected.subset]);
    const listed = await page.getByTestId('history-subset').locator('li').allTextContents();
    expect(listed).toHaveLength(expected.subset.length);
    expect(listed.some((t) => t.includes('A writes result=A-second with token 1 to unfenced → accepted'))).toBe(true);
    expect(listed.some((t) => t.includes('B acquire job:42 → granted 2'))).toBe(true);
    // Bars outside the subset are dimmed, so the subset stands out.
    expect(await panel.locator('rect.history-bar.dimmed').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, '20-history.png') });
    await panel.screenshot({ path: join(SHOTS, '21-history-panel.png') });
    // Ten tabs, one row.
    const tops = await page
      .locator('.tablist [role="tab"]')
      .evaluateAll((ts) => new Set(ts.map((t) => Math.round(t.getBoundingClientRect().top))).size);
    expect(tops).toBe(1);

    // Clicking the other failed verdict shows its subset and seeks to its last completion.
    const order = checkHistory(sim.lockService!.history.ops).unfencedOrder;
    if (order?.linearizable !== false) throw new Error('unfencedOrder should fail');
    const ops = sim.lockService!.history.ops;
    const lastMs = Math.max(...order.subset.map((id) => ops[id].completeMs ?? ops[id].invokeMs));
    await panel.locator('[data-verdict="unfencedOrder"] button').click();
    await expect.poll(() => nowMs(page)).toBe(lastMs);
    await expect.poll(() => panel.getAttribute('data-at-ms')).toBe(String(lastMs));
    const outlinedOrder = await panel
      .locator('rect[data-in-subset="true"]')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-op-id'))));
    expect(outlinedOrder.sort((a, b) => a - b)).toEqual([...order.subset]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('passes axe in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(scheme);
      await page.getByTestId('history-subset').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.close();
    }
    // Two pages and two axe runs: under a loaded machine that took 31 s once.
  }, 90_000);
});
