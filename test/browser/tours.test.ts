/**
 * The tours in real Chromium (their own file, so they run beside the other flows): every tour
 * beat by beat to the end of each beat, measuring the ring's text and checking that what each
 * narration names is in view, on the page and in presenter mode; fencing beat 5's slow motion,
 * timed; and the fencing tour forward, back and from a link.
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
import { SPEED_CHOICES } from '../../src/sim/model/limits';

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

const nowMs = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as { lockstep: { store: { getState(): { frame: { snapshot: { now: number } | null } } } } }
      ).lockstep.store.getState().frame.snapshot?.now ?? -1,
  );

/**
 * In the page: the smallest ring text (px), and what a beat names that is not in view — its side
 * panel's tab open (on the page) or its compact form (presenter mode), the stores and timers on
 * the ring, and every node or client it names.
 */
function inView(arg: { shows: readonly string[]; panel: string | null; actors: readonly string[]; presenter: boolean }): {
  minPx: number;
  missing: string[];
} {
  const visible = (e: Element | null) => {
    if (!e) return false;
    const r = e.getBoundingClientRect();
    return r.width > 4 && r.height > 4 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  };
  const svg = document.querySelector('svg.diagram') as SVGSVGElement;
  const texts = [...svg.querySelectorAll('text')].filter(
    (t) => (t.textContent ?? '').trim() !== '' && getComputedStyle(t).visibility !== 'hidden',
  );
  const scale = svg.getScreenCTM()!.a;
  const minPx = Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
  const missing: string[] = [];
  const TAB: Record<string, string> = {
    logs: 'logs',
    clients: 'clients',
    stores: 'stores',
    locks: 'locks',
    invariants: 'invariants',
    history: 'history',
  };
  const COMPACT: Record<string, string> = {
    logs: '[data-testid="presenter-logs"]',
    history: '[data-testid="presenter-history"]',
    invariants: '[data-testid="presenter-verdict"] .facts-badge',
    locks: '[data-testid="presenter-locks"]',
    stores: 'svg.diagram .store',
  };
  for (const s of arg.shows) {
    if (s === 'timers') {
      if (!visible(document.querySelector('[data-testid="messages-canvas"]'))) missing.push('the timers');
    } else if (s === 'stores') {
      if (!visible(document.querySelector('svg.diagram .store'))) missing.push('the stores');
    } else if (arg.presenter) {
      if (!visible(document.querySelector(COMPACT[s] ?? '#none'))) missing.push(`the ${s}`);
    } else if (s === arg.panel) {
      const tab = document.getElementById(`tab-${TAB[s]}`);
      if (tab?.getAttribute('aria-selected') !== 'true' || !visible(document.getElementById(`tabpanel-${TAB[s]}`)))
        missing.push(`the ${s} tab`);
    } else missing.push(`the ${s} (not the beat's panel)`);
  }
  for (const id of arg.actors)
    if (!visible(svg.querySelector(`[data-node-id="${id}"], [data-client-id="${id}"]`))) missing.push(`${id} on the ring`);
  return { minPx, missing };
}

describe.skipIf(!haveChromium)('tours in a real browser', () => {
  it('walks every beat of every tour: ring text ≥ 12 px at 1280×720 and what the narration names in view, on the page and in presenter mode', async () => {
    const narration = (page: Page) => page.getByTestId('tour-narration');
    const problems: string[] = [];
    let smallest = Infinity;
    for (const t of TOURS) {
      const tour = resolvedTour(t);
      const page = await open(`?v=1&seed=42&tour=${t.name}&beat=1&speed=100`);
      // At 100× the beats are a blur; slow motion off, each plays at once to its end.
      await page.getByLabel('slow motion').uncheck();
      for (const beat of tour.beats) {
        if (beat.number > 1) {
          await page.getByTestId('tour-next').click();
          await expect.poll(() => narration(page).getAttribute('data-beat')).toBe(String(beat.number));
        }
        // The run is deterministic: landing on the beat's end is landing on the state the tour's
        // unit test checked every assertion against.
        await expect.poll(() => nowMs(page), { timeout: 20_000 }).toBe(beat.endMs);
        if (beat.number === 1) await page.screenshot({ path: join(SHOTS, `tour-${t.name}-1.png`) });
        const where = `${t.name} beat ${beat.number}`;
        const actors = [...beat.beat.narration.matchAll(/\{([A-Za-z][A-Za-z0-9]{0,7})\}/g)].map((m) => m[1]);
        const seen = await page.evaluate(inView, { shows: beat.shows, panel: beat.panel, actors, presenter: false });
        smallest = Math.min(smallest, seen.minPx);
        if (seen.minPx < 12) problems.push(`${where}: ring text ${seen.minPx.toFixed(1)} px`);
        for (const p of seen.missing) problems.push(`${where}: ${p} not in view`);
        // The same beat in presenter mode (P): its compact log strip, verdict badge and lock table.
        await page.keyboard.press('p');
        await page.getByTestId('presenter-caption').waitFor();
        if (beat.shows.includes('history'))
          await page
            .getByTestId('presenter-history')
            .waitFor({ timeout: 10_000 })
            .catch(() => {});
        const shown = await page.evaluate(inView, { shows: beat.shows, panel: beat.panel, actors, presenter: true });
        if (shown.minPx < 20) problems.push(`${where}, presenter: ring text ${shown.minPx.toFixed(1)} px`);
        for (const p of shown.missing) problems.push(`${where}, presenter: ${p} not in view`);
        await page.keyboard.press('p');
        await narration(page).waitFor();
      }
      expect(await page.getByTestId('tour-next').isDisabled()).toBe(true);
      await page.close();
    }
    expect(problems).toEqual([]);
    expect(smallest).toBeGreaterThanOrEqual(12);
    expect(pageErrors).toEqual([]);
    // Twenty-one tours, every beat twice: about 90 s on two quiet cores; room for a busy machine.
  }, 400_000);

  it('fencing beat 5 slows down before A’s stale write and shows it for 1.5 s; the speed comes back after; presenter speed keys', async () => {
    const beat = resolvedTour(findTour('fencing') as Tour).beats[4];
    const write = beat.pace!.keyMessages.find((m) => m.type === 'StoreWrite' && m.src === 'A' && m.dst === 'fenced')!;
    const page = await open('?v=1&seed=42&tour=fencing&beat=4');
    await expect.poll(() => nowMs(page)).toBe(resolvedTour(findTour('fencing') as Tour).beats[3].endMs);
    // Sample (real time, simulated clock, speed) every animation frame while the beat plays.
    await page.evaluate(() => {
      const w = window as unknown as {
        samples: [number, number, number][];
        lockstep: { store: { getState(): { frame: { clockMs: number; speed: number } } } };
      };
      w.samples = [];
      const loop = () => {
        const f = w.lockstep.store.getState().frame;
        w.samples.push([performance.now(), f.clockMs, f.speed]);
        requestAnimationFrame(loop);
      };
      loop();
    });
    await page.getByTestId('tour-next').click();
    await expect.poll(() => nowMs(page), { timeout: 30_000 }).toBe(beat.endMs);
    const samples = await page.evaluate(() => (window as unknown as { samples: [number, number, number][] }).samples);
    const at = (ms: number) => samples.find((x) => x[1] >= ms)!;
    // Already slow when A sends its write (the slow-down starts before the moment, not after it)…
    expect(at(write.sentAt)[2]).toBe(beat.pace!.slowSpeed);
    const before = samples.filter((x) => x[1] < beat.pace!.slowFromMs - 1).at(-1)!;
    expect(before[2]).toBeGreaterThan(beat.pace!.slowSpeed);
    // …and the write takes at least 1.5 s (give or take a frame) to cross to the fenced store.
    expect(at(write.endAt)[0] - at(write.sentAt)[0]).toBeGreaterThanOrEqual(1450);
    // The speed box shows round values only, and the person's speed is back at the beat's end.
    const speeds = new Set(samples.map((x) => x[2]));
    for (const sp of speeds) expect(SPEED_CHOICES).toContain(sp);
    await expect.poll(() => page.locator('.playback .speed select').inputValue()).toBe('0.1');
    // Presenter mode has its own speed control, and − / + step it.
    await page.keyboard.press('p');
    const box = page.getByTestId('presenter-speed');
    expect(await box.inputValue()).toBe('0.1');
    await page.keyboard.press('+');
    await expect.poll(() => box.inputValue()).toBe('0.25');
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect.poll(() => box.inputValue()).toBe('0.05');
    await page.close();
  }, 60_000);

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
    await page.getByLabel('slow motion').uncheck();
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
    // The last beat is the second "what if": fencing on, A's stale write came first and was taken,
    // then B's. Its narration names the History view, which it opens; the stores are a tab away.
    expect(await page.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'Stores' }).click();
    await expect.poll(rejected).toContain('0 rejected');
    expect(await page.getByTestId('store-fenced').locator('[data-store-key="result"]').textContent()).toBe('resultB-first2');
    // Back (←) twice restores beat 5 exactly: the fenced store refused the write. (The Stores tab
    // has the focus, where ← moves between tabs.)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
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
  }, 120_000);
});
