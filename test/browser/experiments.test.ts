/**
 * The Experiments view in Chromium: a small sweep runs on the page's workers, every plot shows
 * one mark per run, the page's CSV is byte for byte the CLI's, a bad sweep gets its sentence,
 * and clicking a run opens it in the main view at its link, replaying that run.
 */
import { readFileSync } from 'node:fs';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../src/cli/experimentCli';
import { resultsCsv } from '../../src/share/experimentFiles';
import { decodeLink } from '../../src/share/link';
import { runExperiment } from '../../src/sim/experiments/experiment';
import { summarize } from '../../src/sim/experiments/stats';
import { Simulation } from '../../src/sim/run/simulation';
import { axeViolations, haveChromium, useBrowserSite } from './site';

const site = useBrowserSite();

async function openExperiments(page: Page): Promise<void> {
  await page.goto(`${site.url}#experiments`);
  await page.getByTestId('experiments').waitFor();
}

async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(value);
}

describe.skipIf(!haveChromium)('the Experiments view in a real browser', () => {
  it('runs a small sweep: one mark per run in each plot, the same CSV as the CLI, and a clicked run opens at its link', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openExperiments(page);
    await page.getByLabel('Scenario').selectOption('crash-leader');
    await fill(page, 'Sweep (parameter=values)', 'timeout=150-300,300-600');
    await fill(page, 'Shared settings', '');
    await fill(page, 'Seeds per point', '4');
    await fill(page, 'First seed', '40');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('experiment-progress').getAttribute('data-done')).toBe('8');
    // Every run of seeds 40-43 has a failover time: 8 dots across the sweep and in the scatter, 4 at the first setting.
    expect(await page.locator('[data-plot="sweep"] [data-run-link]').count()).toBe(8);
    expect(await page.locator('[data-plot="scatter"] [data-run-link]').count()).toBe(8);
    expect(await page.locator('[data-plot="distribution"] [data-run-link]').count()).toBe(4);
    expect(await axeViolations(page)).toEqual([]);

    const resolved = resolveExperiment([
      '--template',
      'crash-leader',
      '--sweep',
      'timeout=150-300,300-600',
      '--seeds',
      '4',
      '--first-seed',
      '40',
    ]);
    if (resolved === 'help') throw new Error('help');
    const cli = resultsCsv(resolved.spec, resolved.points, runExperiment(resolved.spec, resolved.points));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('lockstep-experiment-crash-leader-timeout.csv');
    expect(readFileSync((await download.path()) as string, 'utf8')).toBe(cli);

    const mark = page.locator('[data-plot="distribution"] [data-run-link*="seed=42&"]');
    const link = (await mark.getAttribute('data-run-link')) as string;
    await mark.click();
    await page.getByTestId('experiments').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => location.search)).toBe(`?${link}`);
    // The address is the run's, no longer the Experiments view's.
    expect(await page.evaluate(() => location.hash)).toBe('');
    const decoded = decodeLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    const sim = new Simulation(decoded.spec.config, decoded.spec.schedule);
    sim.advanceTo(decoded.spec.atMs);
    await expect.poll(() => page.getByTestId('clock').getAttribute('data-now')).toBe(String(decoded.spec.atMs));
    const shown = await page.evaluate(() => {
      const snap = (
        window as unknown as {
          lockstep: {
            store: {
              getState(): {
                frame: { snapshot: { now: number; leader: string | null; nodes: { id: string; alive: boolean; term: number }[] } };
              };
            };
          };
        }
      ).lockstep.store.getState().frame.snapshot;
      return {
        now: snap.now,
        leader: snap.leader,
        down: snap.nodes.filter((n) => !n.alive).map((n) => n.id),
        terms: snap.nodes.map((n) => n.term),
      };
    });
    // The chapter's seed 42 at 150-300 ms: n2 crashed at 1168 and stays down; the replay in Node agrees node for node.
    expect(shown).toEqual({
      now: sim.nowMs,
      leader: sim.cluster.leader()?.id ?? null,
      down: ['n2'],
      terms: sim.cluster.nodes.map((n) => n.term),
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a 2×2 grid of two parameters: a cell per pair with its median, and a clicked cell shows its runs', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await openExperiments(page);
    await page.getByLabel('Scenario').selectOption('lease-pause');
    await fill(page, 'Sweep (parameter=values)', 'lease=1000,2000');
    await fill(page, 'Second parameter (optional)', 'pause=1500,3000');
    await fill(page, 'Shared settings', '');
    await fill(page, 'Seeds per point', '2');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 30_000 });
    const cells = page.locator('[data-plot="grid"] .grid-cell');
    // Stale writes on the unfenced store: one where the pause outlasts the lease, none where it does not.
    await expect
      .poll(() => cells.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-cell')}: ${e.textContent?.slice(-1)}`)))
      .toEqual(['lease=1000 pause=1500: 1', 'lease=1000 pause=3000: 1', 'lease=2000 pause=1500: 0', 'lease=2000 pause=3000: 1']);
    const size = await cells
      .first()
      .locator('text')
      .evaluate((t) => (t as SVGTextElement).getBoundingClientRect().height);
    expect(size).toBeGreaterThanOrEqual(12);
    await cells.nth(2).click();
    await expect.poll(() => page.locator('[data-plot="distribution"] [data-run-link]').count()).toBe(2);
    expect(await page.locator('[data-plot="distribution"] [data-run-link*="pause+1500"]').count()).toBe(2);
    expect(await page.locator('[data-plot="distribution"] [data-run-link*="acquire+job%3A42+2000"]').count()).toBe(2);
    await page.close();
  });

  it('a bad sweep gets one sentence and runs nothing; cancel stops a long sweep', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await openExperiments(page);
    // The hidden run pauses while the view is open, and its keys rest: Space and → do nothing to it.
    const runNow = () =>
      page.evaluate(
        () =>
          (
            window as unknown as { lockstep: { store: { getState(): { frame: { clockMs: number; playing: boolean } } } } }
          ).lockstep.store.getState().frame,
      );
    await expect.poll(async () => (await runNow()).playing).toBe(false);
    await page.waitForTimeout(300);
    const before = await runNow();
    await page.locator('body').press('Space');
    await page.locator('body').press('ArrowRight');
    await page.waitForTimeout(300);
    expect(await runNow()).toMatchObject({ clockMs: before.clockMs, playing: false });
    await fill(page, 'Sweep (parameter=values)', 'timeout=300-100');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('experiment-error').textContent())
      .toBe('The timeout range "300-100" must be ordered (A <= B) and from 1 to 60000 ms.');
    expect(await page.getByTestId('experiment-progress').count()).toBe(0);
    await fill(page, 'Sweep (parameter=values)', 'timeout=150-300');
    await fill(page, 'Seeds per point', '3000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="running"]').waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="cancelled"]').waitFor();
    const done = Number(await page.getByTestId('experiment-progress').getAttribute('data-done'));
    expect(done).toBeLessThan(3000);
    await page.waitForTimeout(500);
    expect(Number(await page.getByTestId('experiment-progress').getAttribute('data-done'))).toBe(done);
    await page.close();
  });

  it('commit latency by region: the page plots each client’s median per placement as Node computes it, and a run opens with its regions', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await openExperiments(page);
    await page.getByLabel('Chapter experiment').selectOption('commit-by-region');
    await fill(page, 'Seeds per point', '4');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 30_000 });
    const resolved = resolveExperiment(['--preset', 'commit-by-region', '--seeds', '4']);
    if (resolved === 'help') throw new Error('help');
    const results = runExperiment(resolved.spec, resolved.points);
    const expected = ['client-us-east', 'client-us-central', 'client-us-west'].flatMap((m) =>
      resolved.points.map(
        (p) => `${m} ${p.label}: ${summarize(results.filter((r) => r.point === p.index).map((r) => r.values[m] ?? null)).p50}`,
      ),
    );
    const columns = page.locator('[data-plot="series"] .series-column');
    await expect
      .poll(() =>
        columns.evaluateAll((els) =>
          els.map((e) => `${e.getAttribute('data-series')} ${e.getAttribute('data-point')}: ${e.getAttribute('data-median')}`),
        ),
      )
      .toEqual(expected);
    // The chapter's point, measured: with the majority in us-east, A commits within a few ms whenever the leader is there; C pays the coast-to-coast round trip.
    const median = async (series: string, point: string) =>
      Number(
        await page
          .locator(`[data-plot="series"] .series-column[data-series="${series}"][data-point="${point}"]`)
          .getAttribute('data-median'),
      );
    expect(await median('client-us-east', '0')).toBeLessThan(await median('client-us-west', '0'));
    expect(await median('client-us-west', '0')).toBeGreaterThan(60);
    const eastTimes = await page
      .locator('[data-plot="series"] .series-column[data-series="client-us-east"][data-point="0"] [data-run-link] title')
      .allTextContents();
    expect(Math.min(...eastTimes.map((t) => Number(/: ([\d.]+) ms$/.exec(t)?.[1])))).toBeLessThan(5);
    expect(await page.locator('[data-plot="series"] [data-run-link]').count()).toBe(3 * 3 * 4);
    const dot = page.locator('[data-plot="series"] .series-column[data-series="client-us-west"][data-point="1"] [data-run-link]').first();
    const link = (await dot.getAttribute('data-run-link')) as string;
    await dot.click();
    await page.getByTestId('experiments').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => location.search)).toBe(`?${link}`);
    const decoded = decodeLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.spec.config.regions?.places.find((p) => p.ids.includes('C'))?.region).toBe('us-west');
    await page.close();
  });

  it('the trade-off curve draws a mark per detector setting, and a gossip run past 9 nodes says it cannot open', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await openExperiments(page);
    await page.getByLabel('Chapter experiment').selectOption('detection-tradeoff');
    await fill(page, 'Seeds per point', '2');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-plot="tradeoff"] [data-series="fixed"] [data-run-link]').count()).toBe(6);
    expect(await page.locator('[data-plot="tradeoff"] [data-series="phi-accrual"] [data-run-link]').count()).toBe(5);
    await page.getByLabel('Chapter experiment').selectOption('gossip-convergence');
    await fill(page, 'Sweep (parameter=values)', 'nodes=8,16');
    await fill(page, 'Seeds per point', '1');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="experiment-progress"][data-status="done"]').waitFor({ timeout: 60_000 });
    const sweep = page.locator('[data-plot="sweep"]');
    expect(await sweep.locator('[data-run-link]').count()).toBe(1);
    expect(await sweep.locator('[data-run-closed] title').textContent()).toMatch(
      /^16, seed 1: \d+(\.\d)? — a run of 16 nodes cannot open on the diagram, which draws at most 9; its numbers are here and in the CSV\.$/,
    );
    expect(await sweep.locator('[data-reference="log2 N"]').count()).toBe(1);
    await page.close();
  });
});
