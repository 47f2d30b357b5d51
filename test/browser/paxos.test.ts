/**
 * Paxos in Chromium (issue 29), lean: a protocol=paxos link opens the run it names, its space-time
 * view draws the four Paxos messages and the refusals with their ballots, the ring names each
 * node's part, and the page's chapter-style lines are the engine's line for line; then the tour
 * "why a proposer must re-propose an accepted value" played beat by beat to its bug branch.
 * Screenshots go to test-results/browser/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { encodeLink } from '../../src/share/link';
import { makeConfig } from '../../src/sim/model/config';
import { parseSchedule } from '../../src/sim/model/schedule';
import { PaxosSimulation } from '../../src/sim/run/paxosSimulation';
import { resolvedTour } from '../../src/sim/teach/tours/runner';
import { findTour } from '../../src/sim/teach/tours/tours';
import type { Tour } from '../../src/sim/teach/tours/types';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

async function open(query: string): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${site.url}?${query}`);
  await page.getByTestId('clock').waitFor();
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);

type Store = { getState(): { events: readonly { line: string }[]; frame: { snapshot: { protocol?: string } | null } } };
const lab = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { lockstep: { store: Store } }).lockstep.store.getState();
    return { protocol: s.frame.snapshot?.protocol ?? null, lines: s.events.map((e) => e.line) };
  });

describe.skipIf(!haveChromium)('Paxos in a real browser', () => {
  it('a protocol=paxos link opens the duel: Prepare/Promise/Accept/Accepted/Nack with ballots in the space-time view, acceptors on the ring, the lines of the CLI', async () => {
    const config = makeConfig({ seed: 17, protocol: 'paxos' });
    const schedule = parseSchedule('@10 propose v=1 to n1; @10 propose v=2 to n5');
    const link = encodeLink({ config, schedule, atMs: 80, view: 'time' });
    expect(link).toContain('protocol=paxos');
    const page = await open(link);
    await expect.poll(() => nowMs(page), { timeout: 20_000 }).toBe(80);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="spacetime"] .spacetime-arrows')?.getAttribute('data-count') ?? 0) > 0,
      undefined,
      { timeout: 20_000 },
    );
    const arrows = await page
      .locator('[data-testid="spacetime"] line[data-msg-type]')
      .evaluateAll((els) => els.map((e) => ({ type: e.getAttribute('data-msg-type'), label: e.getAttribute('aria-label') ?? '' })));
    expect(new Set(arrows.map((a) => a.type))).toEqual(new Set(['Prepare', 'Promise', 'Accept', 'Accepted', 'Nack']));
    // Each names its ballot; a refusal also the ballot the acceptor promised (P1a).
    expect(arrows.find((a) => a.type === 'Prepare')?.label).toMatch(/^Prepare \d+\.\d \(n\d to n\d\): sent at /);
    expect(arrows.find((a) => a.type === 'Nack')?.label).toMatch(/^Nack \d+\.\d: promised \d+\.\d \(n\d to n\d\)/);
    await page.screenshot({ path: join(SHOTS, 'paxos-spacetime.png') });
    // The same run in the engine: the page's lines are its lines, so the link replayed it exactly.
    const sim = new PaxosSimulation(config, schedule);
    sim.advanceTo(80);
    await expect.poll(async () => (await lab(page)).lines).toEqual(sim.cluster.events.map((e) => e.line));
    expect((await lab(page)).protocol).toBe('paxos');
    // On the ring every node says its part in Lamport's words, and the badge counts the Paxos invariants.
    await page.getByRole('radio', { name: 'Ring', exact: true }).click();
    const names = await page.locator('svg.diagram [data-node-id]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names.filter((n) => /^n\d, acceptor, promised \d+\.\d$/.test(n ?? '')).length).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('invariant-badge').textContent()).toBe('✓ 5 invariants hold');
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('plays "why a proposer must re-propose an accepted value" beat by beat; the bug branch chooses a second value and the badge turns red', async () => {
    const tour = resolvedTour(findTour('paxos-re-propose') as Tour);
    const narration = (page: Page) => page.getByTestId('tour-narration');
    const page = await open('v=1&seed=42&tour=paxos-re-propose&beat=1&speed=100');
    await page.getByLabel('slow motion').uncheck();
    await expect.poll(() => narration(page).getAttribute('data-beat')).toBe('1');
    await expect.poll(() => nowMs(page), { timeout: 20_000 }).toBe(tour.beats[0].endMs);
    for (const beat of tour.beats.slice(1)) {
      await page.getByTestId('tour-next').click();
      await expect.poll(() => narration(page).getAttribute('data-beat')).toBe(String(beat.number));
      await expect.poll(() => nowMs(page), { timeout: 20_000 }).toBe(beat.endMs);
      if (beat.number === 3) {
        // Every acceptor holds A, in n5's ballot: P2c kept the chosen value chosen.
        await page.getByRole('tab', { name: 'Logs' }).click();
        const slots = page.locator('[data-log-node] button.entry');
        // Each chip reads "A in 1.5" (then, for a screen reader, whose slot it is and whether it was learned).
        await expect
          .poll(async () => (await slots.allTextContents()).map((t) => t.trim().replace(/ on n\d.*$/, '')))
          .toEqual(Array(5).fill('A in 1.5'));
        expect(await page.getByTestId('invariant-badge').getAttribute('data-state')).toBe('holding');
        await page.screenshot({ path: join(SHOTS, 'paxos-tour-beat3.png') });
      }
    }
    expect(await narration(page).textContent()).toContain('B is chosen too');
    await expect.poll(() => page.getByTestId('invariant-badge').getAttribute('data-state'), { timeout: 20_000 }).toBe('violated');
    expect(await page.getByTestId('tour-next').isDisabled()).toBe(true);
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
