/**
 * Presenter mode, the presenter console and the embed frame in Chromium, at a projector's
 * 1280×720: every diagram label at least 20 px on screen and message symbols at least 16 px,
 * the side panels folded away, B blanks, the console (a second page of the same browser, over
 * BroadcastChannel) shows the narration and moves the projector's beat, the embed frame holds
 * only the diagram, play/pause and the scrubber, and axe finds nothing in either mode.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink, type RunSpec } from '../../src/share/link';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');

const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

const chapter = findPreset('chapter')!;
const chapterSpec = (extra: Partial<RunSpec>): RunSpec => ({
  config: chapter.config,
  schedule: parseSchedule(chapter.schedule),
  atMs: 1170,
  ...extra,
});

function watch(page: Page): Page {
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  return page;
}

/** Every text of the ring: its on-screen font size (CSS size × the SVG's scale) and its box height. */
async function labelSizes(page: Page): Promise<{ cls: string; text: string; px: number; box: number }[]> {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.diagram') as SVGSVGElement;
    const scale = svg.getScreenCTM()!.a;
    return [...svg.querySelectorAll('text')]
      .filter((t) => (t.textContent ?? '').trim() !== '')
      .map((t) => ({
        cls: t.getAttribute('class') ?? '',
        text: t.textContent ?? '',
        px: parseFloat(getComputedStyle(t).fontSize) * scale,
        box: t.getBoundingClientRect().height,
      }));
  });
}

describe.skipIf(!haveChromium)('presenter mode, console and embed in a real browser', () => {
  it('opens a chapter link with present=1 at 1280×720: big labels, no panels, a caption; B blanks', async () => {
    const page = watch(await site.browser.newPage({ viewport: { width: 1280, height: 720 } }));
    await page.goto(`${site.url}?${encodeLink(chapterSpec({ tour: { name: 'chapter', beat: 2 }, present: true }))}`);
    await page.waitForSelector('[data-testid="presenter"] [data-node-id]');
    await expect.poll(() => page.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('2');
    // The side panels and the normal page's bars are folded away.
    expect(await page.locator('.side, .topbar, [role="tablist"], .scrubber').count()).toBe(0);
    await page.waitForTimeout(300);

    const sizes = await labelSizes(page);
    const kinds = new Set(sizes.map((s) => s.cls.split(' ')[0]));
    // The chapter's cluster has no clients or stores; the next test measures those.
    for (const k of ['node-id', 'node-role', 'node-term']) expect(kinds, k).toContain(k);
    const small = sizes.filter((s) => s.px < 20);
    expect(small).toEqual([]);
    const min = Math.min(...sizes.map((s) => s.px));
    const byKind = Object.fromEntries(
      [...kinds].map((k) => [k, Math.min(...sizes.filter((s) => s.cls.startsWith(k)).map((s) => Math.round(s.px * 10) / 10))]),
    );
    console.log(`presenter 1280x720 label px: min ${min.toFixed(1)}`, JSON.stringify(byKind));
    const symbolPx = Number(await page.getByTestId('messages-canvas').getAttribute('data-symbol-px'));
    console.log(`presenter 1280x720 smallest message symbol: ${symbolPx} px`);
    expect(symbolPx).toBeGreaterThanOrEqual(16);
    await page.screenshot({ path: join(SHOTS, 'present-1280x720.png') });

    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('b');
    await expect.poll(() => page.getByTestId('blank').count()).toBe(1);
    const blank = await page.getByTestId('blank').boundingBox();
    expect(blank).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    expect(await page.getByTestId('blank').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');
    await page.screenshot({ path: join(SHOTS, 'present-blank.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('blank').count()).toBe(0);
    // PageDown (a remote) plays the next beat.
    await page.keyboard.press('PageDown');
    await expect.poll(() => page.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('3');
    // A+ to its top step grows the caption with the ring's labels, and the words inside each node
    // stay inside its shape.
    const captionPx = () => page.getByTestId('presenter-caption').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    const before = await captionPx();
    await page.getByRole('button', { name: 'A+ larger text' }).click();
    await page.getByRole('button', { name: 'A+ larger text' }).click();
    await expect.poll(() => page.getByTestId('presenter').getAttribute('data-text-scale')).toBe('1.3');
    expect(await captionPx()).toBeCloseTo(before * 1.3, 1);
    const spills = await page.evaluate(() =>
      [...document.querySelectorAll('svg.diagram [data-node-id]')].flatMap((node) => {
        const shape = node.querySelector('.node-shape')!.getBoundingClientRect();
        return [...node.querySelectorAll('.node-id, .node-role, .node-term')]
          .map((t) => ({ t, r: t.getBoundingClientRect() }))
          .filter(({ r }) => r.left < shape.left || r.right > shape.right || r.top < shape.top || r.bottom > shape.bottom)
          .map(({ t }) => `${node.getAttribute('data-node-id')}: "${t.textContent}"`);
      }),
    );
    expect(spills).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'present-1280x720-largest-text.png') });
    await page.close();
  });

  it('fills 1920×1080 too, and every label still reads at 20 px or more with a vote label showing', async () => {
    const page = watch(await site.browser.newPage({ viewport: { width: 1920, height: 1080 } }));
    // Free play at 170 ms: n2 has just won, n1, n4 and n5 show "voted n2"; no tour (no caption).
    await page.goto(`${site.url}?v=1&seed=42&clients=AB&t=170&present=1`);
    await page.waitForSelector('[data-testid="presenter"] [data-node-id]');
    await page.waitForTimeout(300);
    const sizes = await labelSizes(page);
    const kinds = new Set(sizes.map((s) => s.cls.split(' ')[0]));
    for (const k of ['node-id', 'node-role', 'node-term', 'node-side', 'client-id', 'client-token', 'store-name', 'store-value'])
      expect(kinds, k).toContain(k);
    expect(sizes.filter((s) => s.px < 20)).toEqual([]);
    console.log(
      `presenter 1920x1080 label px: min ${Math.min(...sizes.map((s) => s.px)).toFixed(1)}; ${sizes.map((s) => s.text).join(' | ')}`,
    );
    await page.screenshot({ path: join(SHOTS, 'present-1920x1080.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForTimeout(200);
    const small = await labelSizes(page);
    console.log(
      `presenter 1280x720 (free play, t=170) label px: min ${Math.min(...small.map((s) => s.px)).toFixed(1)}; ${small.map((s) => `${s.text}=${s.px.toFixed(1)}`).join(' | ')}`,
    );
    expect(small.filter((s) => s.px < 20)).toEqual([]);
    // The presenter's bar is one row, playing too (❚❚ Pause is wider than ▶ Play; without a tour
    // its buttons say "landmark", the longer word).
    const rows = () =>
      page
        .locator('.presenter-bar > :is(button, label, .presenter-group)')
        .evaluateAll(
          (els) => new Set(els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))).size,
        );
    expect(await rows()).toBe(1);
    await page.getByRole('button', { name: /Play/ }).click();
    await expect.poll(() => page.getByRole('button', { name: /Pause/ }).count()).toBe(1);
    expect(await rows()).toBe(1);
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.screenshot({ path: join(SHOTS, 'present-1280x720-freeplay.png') });
    // Nine nodes: smaller glyphs, the same label sizes.
    await page.goto(`${site.url}?v=1&seed=42&nodes=9&clients=AB&t=400&present=1`);
    await page.waitForSelector('[data-testid="presenter"] [data-node-id="n9"]');
    await page.waitForTimeout(300);
    const nine = await labelSizes(page);
    console.log(`presenter 1280x720, 9 nodes: min ${Math.min(...nine.map((s) => s.px)).toFixed(1)} px`);
    expect(nine.filter((s) => s.px < 20)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'present-1280x720-9-nodes.png') });
    await page.close();
  });

  it('the console in a second window shows the narration and its Next moves the projector', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 720 } });
    const projector = watch(await context.newPage());
    await projector.goto(`${site.url}?${encodeLink(chapterSpec({ tour: { name: 'chapter', beat: 1 }, present: true }))}`);
    await projector.waitForSelector('[data-testid="presenter"] [data-node-id]');
    await expect.poll(() => projector.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('1');

    const consolePage = watch(await context.newPage());
    await consolePage.goto(`${site.url}?v=1&seed=42&console=1`);
    await consolePage.getByTestId('console').waitFor();
    const caption = async () => (await projector.getByTestId('presenter-caption').textContent())!.trim();
    await expect.poll(async () => (await consolePage.getByTestId('console-notes').textContent())!.trim()).toBe(await caption());
    await expect.poll(() => consolePage.getByTestId('console-next').textContent()).toMatch(/^Beat 2: /);

    await consolePage.getByTestId('console-next-button').click();
    await expect.poll(() => projector.getByTestId('presenter-caption').getAttribute('data-beat')).toBe('2');
    await expect.poll(async () => (await consolePage.getByTestId('console-notes').textContent())!.trim()).toBe(await caption());
    // The console shows the projector's time as it plays.
    await expect.poll(() => consolePage.getByTestId('console-now').textContent()).not.toBe('t = 0 ms');

    // Blank from the console; the projector shows only the audience view.
    await consolePage.getByRole('button', { name: 'Blank' }).click();
    await expect.poll(() => projector.getByTestId('blank').count()).toBe(1);
    await consolePage.getByRole('button', { name: 'Blank' }).click();
    await expect.poll(() => projector.getByTestId('blank').count()).toBe(0);
    await consolePage.screenshot({ path: join(SHOTS, 'present-console.png') });
    expect(await axeViolations(consolePage)).toEqual([]);

    // The button on the projector opens the console window at the right address.
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      projector.getByRole('button', { name: 'Open presenter console' }).click(),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toContain('console=1');
    expect(popup.url()).not.toContain('present=1');
    await context.close();
  });

  it('embed=1 is a minimal frame that replays the link exactly, with a clock and a way back to the lab; an embedded tour has its beats; no axe violations', async () => {
    const page = watch(await site.browser.newPage({ viewport: { width: 800, height: 560 } }));
    await page.goto(`${site.url}?${encodeLink(chapterSpec({ embed: true }))}`);
    await page.waitForSelector('[data-testid="embed"] [data-node-id]');
    expect(await page.locator('.topbar, .side, [role="tablist"], .subbar, .tour-bar, .legend').count()).toBe(0);
    expect(await page.locator('svg.diagram').count()).toBe(1);
    expect(await page.getByTestId('scrubber').isVisible()).toBe(true);
    const buttons = await page.locator('button:visible:not(.mark)').allTextContents();
    expect(buttons).toEqual(['▶ Play']);
    // Exactly the link's run, at its time.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (
              window as unknown as { lockstep: { store: { getState(): { frame: { snapshot: { now: number } | null } } } } }
            ).lockstep.store.getState().frame.snapshot?.now,
        ),
      )
      .toBe(1170);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(SHOTS, 'embed-800x560.png') });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '▶ Play' }).click();
    await expect.poll(() => page.locator('button:visible:not(.mark)').allTextContents()).toEqual(['❚❚ Pause']);
    // A clock, and the way back to the full lab: the same run, without the frame.
    expect(await page.getByTestId('clock').textContent()).toMatch(/^t = \d+ ms$/);
    await page.getByRole('link', { name: 'Open in Lockstep ↗' }).focus();
    expect(await page.getByRole('link', { name: 'Open in Lockstep ↗' }).getAttribute('href')).not.toContain('embed=1');

    // An embedded tour is the tour: its narration, the beat count, Back and Next, in the frame.
    await page.goto(`${site.url}?v=1&seed=42&tour=fencing&beat=2&embed=1`);
    await page.waitForSelector('[data-testid="embed"] [data-node-id]');
    const narration = page.getByTestId('tour-narration');
    expect(await narration.textContent()).toContain('Client B asks for job:42');
    expect(await page.getByTestId('tour-prev').isEnabled()).toBe(true);
    await page.getByTestId('tour-prev').click();
    await expect.poll(() => narration.getAttribute('data-beat')).toBe('1');
    const box = await narration.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(560);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'embed-tour-800x560.png') });
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
