/**
 * The tours in real Chromium (their own file, so they run beside the other flows): every tour
 * beat by beat to the end of each beat, and the fencing tour forward, back and from a link.
 * Screenshots go to test-results/browser/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { resolvedTour } from '../../src/sim/teach/tours/runner';
import { findTour, TOURS } from '../../src/sim/teach/tours/tours';
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
  await page.goto(site.url + query);
  await page.waitForSelector('[data-node-id]');
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);

describe.skipIf(!haveChromium)('tours in a real browser', () => {
  it('plays every tour beat by beat to its end, each beat pausing where its assertions were checked', async () => {
    const narration = (page: Page) => page.getByTestId('tour-narration');
    for (const t of TOURS) {
      const tour = resolvedTour(t);
      const page = await open(`?v=1&seed=42&tour=${t.name}&beat=1&speed=100`);
      await expect.poll(() => narration(page).getAttribute('data-beat')).toBe('1');
      await expect.poll(() => nowMs(page)).toBe(tour.beats[0].endMs);
      await page.screenshot({ path: join(SHOTS, `tour-${t.name}-1.png`) });
      for (const beat of tour.beats.slice(1)) {
        await page.getByTestId('tour-next').click();
        await expect.poll(() => narration(page).getAttribute('data-beat')).toBe(String(beat.number));
        // The run is deterministic: landing on the beat's end is landing on the state the tour's
        // unit test checked every assertion against.
        await expect.poll(() => nowMs(page), { timeout: 20_000 }).toBe(beat.endMs);
      }
      expect(await page.getByTestId('tour-next').isDisabled()).toBe(true);
      await page.close();
    }
    expect(pageErrors).toEqual([]);
    // Twelve tours, every beat: about 40 s on two quiet cores; room for a busy machine.
  }, 180_000);

  it('plays the fencing tour beat by beat, goes back exactly, and a link lands on a beat', async () => {
    const tour = resolvedTour(findTour('fencing') as Tour);
    const narration = (page: Page) => page.getByTestId('tour-narration');
    const paused = (page: Page) =>
      page
        .getByTestId('clock')
        .evaluate(
          () =>
            !(window as unknown as { lockstep: { store: { getState(): { frame: { playing: boolean } } } } }).lockstep.store.getState().frame
              .playing,
        );
    const page = await open('?v=1&seed=42&tour=fencing&beat=1&speed=100');
    await expect.poll(() => narration(page).getAttribute('data-tour')).toBe('fencing');
    await expect.poll(() => narration(page).getAttribute('data-beat')).toBe('1');
    await expect.poll(() => nowMs(page)).toBe(tour.beats[0].endMs);
    const rejected = () => page.getByTestId('store-fenced').textContent();
    for (const beat of tour.beats.slice(1)) {
      await page.getByTestId('tour-next').click();
      await expect.poll(() => narration(page).getAttribute('data-beat')).toBe(String(beat.number));
      // The beat plays from where the last one ended and pauses at its own end.
      await expect.poll(() => nowMs(page), { timeout: 15_000 }).toBe(beat.endMs);
      await expect.poll(() => paused(page)).toBe(true);
      if (beat.number === 5) {
        await page.getByRole('tab', { name: 'Stores' }).click();
        await expect.poll(rejected).toContain('1 rejected');
        await page.screenshot({ path: join(SHOTS, '13-tour.png') });
      }
      if (beat.number === 6) {
        // The first "what if": without fencing, the fenced store took A's stale write.
        await page.getByRole('tab', { name: 'Stores' }).click();
        await expect.poll(rejected).toContain('0 rejected');
        expect(await page.getByTestId('store-fenced').locator('[data-store-key="result"]').textContent()).toBe('resultA-second1');
      }
    }
    expect(await narration(page).getAttribute('data-beat')).toBe(String(tour.beats.length));
    expect(await page.getByTestId('tour-next').isDisabled()).toBe(true);
    // The last beat is the second "what if": fencing on, A's stale write came first and was taken, then B's.
    await expect.poll(rejected).toContain('0 rejected');
    expect(await page.getByTestId('store-fenced').locator('[data-store-key="result"]').textContent()).toBe('resultB-first2');
    // Back (←) twice restores beat 5 exactly: the fenced store refused the write.
    await page.locator('body').press('ArrowLeft');
    await expect.poll(() => narration(page).getAttribute('data-beat')).toBe('6');
    await page.locator('body').press('ArrowLeft');
    await expect.poll(() => narration(page).getAttribute('data-beat')).toBe('5');
    await expect.poll(() => nowMs(page)).toBe(tour.beats[4].endMs);
    await expect.poll(rejected).toContain('1 rejected');
    expect(await page.getByTestId('store-fenced').locator('[data-store-key="result"]').textContent()).toBe('resultB-first2');
    await expect.poll(() => page.evaluate(() => location.search)).toMatch(/&tour=fencing&beat=5$/);
    await page.close();

    const third = await open('?v=1&seed=42&tour=fencing&beat=3');
    await expect.poll(() => narration(third).getAttribute('data-beat')).toBe('3');
    await expect.poll(() => nowMs(third)).toBe(tour.beats[2].endMs);
    expect(await narration(third).textContent()).toContain('still believes it holds');
    await third.close();
  });
});
