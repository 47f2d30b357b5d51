/**
 * The class, a second pass (issue 25), as a student and a teacher meet it in Chromium: a first
 * visit opens on "Start here" with every tour one click away (with its beats and running time),
 * on a projector and on a phone, and a returning visit on Free play; the Why panel never covers
 * what it explains, and a refused vote names the one reason that applied.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';
import { findTour, TOURS } from '../../src/sim/teach/tours/tours';
import { resolvedTour } from '../../src/sim/teach/tours/runner';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

async function newPage(viewport = { width: 1280, height: 720 }, phone = false): Promise<Page> {
  const page = await site.browser.newPage({ viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return page;
}

const frame = (page: Page) =>
  page.evaluate(() => {
    const s = (
      window as unknown as {
        lockstep: {
          store: { getState(): { frame: { playing: boolean; snapshot: { now: number } | null }; tour: { name: string } | null } };
        };
      }
    ).lockstep.store.getState();
    return { playing: s.frame.playing, now: s.frame.snapshot?.now ?? -1, tour: s.tour?.name ?? null };
  });

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(!haveChromium)('the class, a second pass', () => {
  it('a first visit opens on Start here, paused, with every tour one click away; the next visit opens on Free play', async () => {
    const page = await newPage();
    await page.goto(site.url);
    await page.getByTestId('start-here').waitFor();
    const narration = page.getByTestId('tour-narration');
    expect(await narration.getAttribute('data-tour')).toBe('first-election');
    expect(await narration.getAttribute('data-beat')).toBe('1');
    await expect.poll(async () => (await frame(page)).now).toBe(150);
    expect((await frame(page)).playing).toBe(false);
    // Tours, in the top bar: every tour with its beats, and its running time once worked out.
    await page.getByTestId('tours-button').click();
    // The list comes with the tours' text (a chunk of its own, fetched on hover; here already loaded by the tour).
    const choices = page.locator('.tour-choice');
    await expect.poll(() => choices.count()).toBe(TOURS.length);
    for (const t of TOURS)
      expect(await page.getByTestId(`tour-meta-${t.name}`).textContent()).toMatch(new RegExp(`^${t.beats.length} beats · `));
    await expect.poll(() => page.getByTestId('tour-meta-first-election').textContent(), { timeout: 30_000 }).toMatch(/about \d+ (s|min)$/);
    await page.screenshot({ path: join(SHOTS, 'class-start-here-tours.png') });
    await page.locator('.tour-choice[data-tour="fencing"]').click();
    await expect.poll(() => narration.getAttribute('data-tour')).toBe('fencing');
    expect(await page.locator('#tours-list').count()).toBe(0);
    // The welcome was for the first tour only.
    expect(await page.getByTestId('start-here').count()).toBe(0);
    // A second visit in the same browser: Free play, playing, no tour.
    await page.goto(site.url);
    await page.waitForSelector('[data-node-id]');
    await expect.poll(async () => (await frame(page)).playing).toBe(true);
    expect((await frame(page)).tour).toBeNull();
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('on a phone the first visit shows the narration, Next and Tours above the fold', async () => {
    const page = await newPage({ width: 390, height: 844 }, true);
    await page.goto(site.url);
    await page.getByTestId('start-here').waitFor();
    for (const target of [page.getByTestId('tour-narration'), page.getByTestId('tour-next'), page.getByTestId('tours-button')]) {
      const box = (await target.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(box.height).toBeGreaterThanOrEqual(20);
    }
    // The Tours button is a tap target.
    expect((await page.getByTestId('tours-button').boundingBox())!.height).toBeGreaterThanOrEqual(32);
    await page.screenshot({ path: join(SHOTS, 'class-start-here-phone.png') });
    await page.close();
  });

  it('the Why panel never covers what it explains, and a refused vote names its one reason', async () => {
    const chapter = findPreset('chapter')!;
    const page = await newPage();
    await page.addInitScript(() => localStorage.setItem('lockstep-visited', '1'));
    await page.goto(`${site.url}?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1800 })}`);
    await page.waitForSelector('[data-node-id]');
    await expect.poll(async () => (await frame(page)).now).toBe(1800);
    // Selecting a node (shift-click) leaves the layout where it was: the ring does not jump.
    const ringBox = async () => (await page.locator('svg.diagram').boundingBox())!;
    const before = await ringBox();
    await page.locator('svg.diagram [data-node-id="n1"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.locator('svg.diagram [data-node-id="n1"].selected').count()).toBe(1);
    expect(await ringBox()).toEqual(before);
    await page.locator('svg.diagram [data-node-id="n1"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.locator('svg.diagram [data-node-id="n1"].selected').count()).toBe(0);
    // A question about a node on the ring: answered over the side panels, the ring in full view.
    const n3 = page.locator('svg.diagram [data-node-id="n3"] .node-shape');
    await page.locator('svg.diagram [data-node-id="n3"]').click({ modifiers: ['Alt'] });
    const why = page.getByTestId('why-panel');
    await why.waitFor();
    expect(await why.getAttribute('data-place')).toBe('side');
    expect(overlaps((await why.boundingBox())!, (await page.locator('svg.diagram').boundingBox())!)).toBe(false);
    await page.keyboard.press('Escape');
    // A question about a log entry in the Logs tab: answered over the diagram, the entry in view.
    await page.getByRole('tab', { name: 'Logs' }).click();
    const entry = page.locator('[data-log-node="n3"] .entry[data-index="3"]');
    await entry.click();
    await why.waitFor();
    expect(await why.getAttribute('data-place')).toBe('diagram');
    expect(overlaps((await why.boundingBox())!, (await entry.boundingBox())!)).toBe(false);
    expect(await n3.count()).toBe(1);
    await page.keyboard.press('Escape');

    // Split votes: every node is a candidate that voted for itself, so each refusal says exactly that.
    const split = findPreset('split-vote')!;
    await page.goto(`${site.url}?${encodeLink({ config: split.config, schedule: parseSchedule(split.schedule), atMs: 230 })}`);
    await page.waitForSelector('[data-node-id]');
    await expect.poll(async () => (await frame(page)).now).toBe(230);
    await page.locator('svg.diagram [data-node-id="n1"] .votes').click();
    await why.waitFor();
    const text = (await page.getByTestId('why-answer').textContent()) ?? '';
    expect(text).toMatch(/refused n1 at t=\d+ ms: it had already voted for (n\d) in term 1 — one vote per term/);
    expect(text).not.toContain('already voted for another candidate in that term, its term is higher');
    await page.screenshot({ path: join(SHOTS, 'class-why-refused-vote.png') });

    // The space-time view frames the beat on screen (chapter beat 5, 1475–1733 ms; it had shown
    // 1110–1400 ms), with the beat's last moment above the bottom edge, not on it.
    const beat = resolvedTour(findTour('chapter')!).beats[4];
    await page.goto(`${site.url}?v=1&seed=42&tour=chapter&beat=5`);
    await page.waitForSelector('[data-node-id]');
    await expect.poll(async () => (await frame(page)).now, { timeout: 20_000 }).toBe(beat.endMs);
    await page.getByRole('radio', { name: 'Ring + time' }).click();
    const shown = page.locator('.spacetime-window');
    await shown.waitFor();
    const [from, to] = ((await shown.textContent()) ?? '').split(' – ').map((t) => parseFloat(t.replace(/,/g, '')));
    expect(from).toBeLessThanOrEqual(beat.startMs);
    expect(from).toBeGreaterThanOrEqual(beat.startMs - 0.2 * (beat.endMs - beat.startMs));
    expect(to).toBeGreaterThanOrEqual(beat.endMs + 0.05 * (beat.endMs - beat.startMs));
    // …and the cursor (the beat's end) is drawn inside the plot, clear of its bottom edge.
    const plot = (await page.getByTestId('spacetime-plot').boundingBox())!;
    const cursor = (await page.locator('.spacetime-cursor').first().boundingBox())!;
    expect(cursor.y).toBeLessThan(plot.y + plot.height - 10);
    await page.screenshot({ path: join(SHOTS, 'class-spacetime-beat.png') });
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
