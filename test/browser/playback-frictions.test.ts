/**
 * Three of the classroom frictions in Chromium against the built site: Next event at the end of
 * the chapter's preset stays at its end (2253 ms) and the scrubber's end with it; a click on a node
 * in the past shows the fork notice, the scenario label says forked, and Undo restores the
 * schedule; Go to 1000 while playing lands paused at exactly 1000; the event log follows its newest
 * line while playing and leaves a reader who scrolled up where they are.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { CHAPTER_SCHEDULE, findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const CHAPTER_END = 2253;

const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

/** The chapter's preset from a link, paused at `atMs` (the page knows it as the preset, with its end). */
async function openChapter(atMs: number): Promise<Page> {
  const chapter = findPreset('chapter')!;
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${site.url}?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs })}`);
  await page.waitForSelector('[data-node-id]');
  await expect.poll(() => nowMs(page)).toBe(atMs);
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);
const scrubberEnd = (page: Page) => page.getByTestId('scrubber').getAttribute('data-end').then(Number);
const scheduleText = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { lockstep: { store: { getState(): { frame: { schedule: readonly unknown[] } } } } }).lockstep.store.getState()
        .frame.schedule.length,
  );

describe.skipIf(!haveChromium)('playback frictions in a real browser', () => {
  it("Next event at the end of the chapter's preset stays at 2253 and the scrubber's end stays 2253", async () => {
    const page = await openChapter(1962);
    expect(await scrubberEnd(page)).toBe(CHAPTER_END);
    const next = page.getByRole('button', { name: 'Next event' });
    for (let i = 0; i < 8; i++) {
      await next.click();
      await page.waitForTimeout(60);
      expect(await nowMs(page)).toBeLessThanOrEqual(CHAPTER_END);
    }
    await expect
      .poll(() => page.getByTestId('error').textContent())
      .toMatch(/^No event after t = \d+ ms up to the run's end at 2253 ms; press Play or → to run further\./);
    expect(await scrubberEnd(page)).toBe(CHAPTER_END);
    // At the end itself, likewise; a drag cannot go past it either.
    await page.getByRole('button', { name: 'To end' }).click();
    await expect.poll(() => nowMs(page)).toBe(CHAPTER_END);
    await next.click();
    await page.keyboard.press('.');
    await page.waitForTimeout(200);
    expect(await nowMs(page)).toBe(CHAPTER_END);
    expect(await scrubberEnd(page)).toBe(CHAPTER_END);
    expect(await page.getByRole('slider', { name: 'Time in the run' }).getAttribute('max')).toBe(String(CHAPTER_END));
    expect(await page.getByTestId('clock').textContent()).toBe(`t = ${CHAPTER_END} ms / ${CHAPTER_END}`);
    await page.close();
  });

  it('a click on a node in the past shows the fork notice and the forked label; Undo restores the schedule', async () => {
    const page = await openChapter(1200);
    const all = parseSchedule(CHAPTER_SCHEDULE);
    const later = all.filter((a) => a.at > 1200).length;
    expect(await scheduleText(page)).toBe(all.length);
    const picker = page.getByLabel('Scenario');
    const pickerText = () => picker.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    expect(await pickerText()).toBe("The chapter's demo");

    await page.locator('[data-node-id="n1"] .node-shape').click();
    const notice = page.getByTestId('fork-notice');
    await notice.waitFor();
    expect(await notice.getByText(/^You changed the past/).textContent()).toBe(
      `You changed the past at t=1200 ms: ${later} later actions were set aside.`,
    );
    expect(await pickerText()).toBe("The chapter's demo (forked at 1200 ms)");
    expect(await page.getByTestId('preset-blurb').locator('strong').textContent()).toBe("The chapter's demo (forked at 1200 ms).");
    expect(await scheduleText(page)).toBe(all.length - later + 1);
    await page.screenshot({ path: join(SHOTS, 'fork-notice.png') });

    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => scheduleText(page)).toBe(all.length);
    await expect.poll(() => notice.count()).toBe(0);
    expect(await pickerText()).toBe("The chapter's demo");
    expect(await page.locator('[data-node-id="n1"]').getAttribute('data-alive')).toBe('true');
    await page.close();
  });

  it('Go to 1000 while playing lands paused at exactly 1000', async () => {
    const page = await openChapter(200);
    await page.getByRole('button', { name: /Play/ }).click();
    await expect.poll(() => nowMs(page)).toBeGreaterThan(200);
    await page.getByLabel('Go to ms').fill('1000');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await expect.poll(() => nowMs(page)).toBe(1000);
    await expect.poll(() => page.getByRole('button', { name: /Play/ }).count()).toBe(1);
    await page.waitForTimeout(500);
    expect(await nowMs(page)).toBe(1000);
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { lockstep: { store: { getState(): { frame: { playing: boolean } } } } }).lockstep.store.getState().frame
            .playing,
      ),
    ).toBe(false);
    await page.close();
  });

  it('the event log keeps its newest line in view while playing, and a reader who scrolls up stays put', async () => {
    // Five nodes, four clients and a fast heartbeat: a few hundred lines a second (details on).
    const config = { ...DEFAULT_CONFIG, clientIds: ['A', 'B', 'C', 'D'], heartbeatMs: 20 };
    const busy = ['A', 'B', 'C', 'D']
      .flatMap((c, i) =>
        Array.from({ length: 10 }, (_, k) => [
          `@${1500 + k * 1000 + i * 100} client ${c} acquire lock${i} 400`,
          `@${1700 + k * 1000 + i * 100} client ${c} write k${i}=v${k}`,
        ]).flat(),
      )
      .join('; ');
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${site.url}?${encodeLink({ config, schedule: parseSchedule(busy), atMs: 1400, speed: 1 })}`);
    await page.waitForSelector('[data-node-id]');
    const log = page.getByTestId('event-log');
    const view = () =>
      log.evaluate((el) => ({
        below: el.scrollHeight - el.scrollTop - el.clientHeight,
        top: el.scrollTop,
        last: el.lastElementChild?.textContent ?? '',
      }));
    await page.getByRole('button', { name: /Play/ }).click();
    await expect.poll(() => log.evaluate((el) => el.scrollHeight - el.clientHeight), { timeout: 10_000 }).toBeGreaterThan(400);
    const first = await view();
    await expect.poll(async () => (await view()).last).not.toBe(first.last);
    for (let i = 0; i < 3; i++) {
      await page.waitForTimeout(150);
      expect((await view()).below).toBeLessThan(24);
    }
    // A wheel turn up, as a reader would: new lines keep arriving below without pulling the list back down.
    await log.hover();
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await view()).below).toBeGreaterThan(200);
    const read = (await view()).top;
    await page.waitForTimeout(600);
    expect(Math.abs((await view()).top - read)).toBeLessThan(40);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
