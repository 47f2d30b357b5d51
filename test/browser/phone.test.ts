/**
 * The phone layout in Chromium with touch emulation, at 390×844: nothing scrolls sideways, the
 * diagram comes first at (nearly) full width with nodes big enough to tap, the panels follow as
 * a sheet whose tabs switch by tap, a tap on a node crashes it and a second tap restarts it, a
 * one-finger drag across the ring cuts the network (while a drag outside the diagram still
 * scrolls the page), "More" holds the sharing buttons, and axe finds nothing.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const PHONE = { width: 390, height: 844 } as const;

const site = useBrowserSite();
const pageErrors: string[] = [];
let context: BrowserContext | null = null;
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});
afterEach(async () => {
  await context?.close();
  context = null;
  expect(pageErrors).toEqual([]);
});

/** Free play with clients A and B (or the given link), paused at `atMs`, on a phone. */
async function openPhone(atMs = 600, query = `v=1&seed=42&clients=AB&t=${atMs}`, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  await context?.close();
  context = await site.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, colorScheme });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${site.url}?${query}`);
  await page.waitForSelector('[data-node-id]');
  await expect.poll(() => page.getByTestId('clock').getAttribute('data-now')).toBe(String(atMs));
  await page.waitForTimeout(200);
  return page;
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
}

/** How many rows the top bar's visible controls take (tops more than 12 px apart). */
async function topBarRows(page: Page): Promise<number> {
  const tops = await page.evaluate(() =>
    [...document.querySelectorAll('.topbar :is(button, select, input, output)')]
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => e.getBoundingClientRect().top),
  );
  const rows: number[] = [];
  for (const t of tops.sort((a, b) => a - b)) if (rows.length === 0 || t - rows[rows.length - 1] > 12) rows.push(t);
  return rows.length;
}

/** A point of the diagram's viewBox (940×590) on the screen. */
async function screenPoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([vx, vy]) => {
      const svg = document.querySelector('svg.diagram') as SVGSVGElement;
      const p = new DOMPoint(vx, vy).matrixTransform(svg.getScreenCTM()!);
      return { x: p.x, y: p.y };
    },
    [x, y] as const,
  );
}

/** One finger down at `from`, moved in `steps` a frame apart (as a finger's are) to `to`, lifted: real touch events through CDP. */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, steps = 12): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
  for (let i = 1; i <= steps; i++) {
    const k = i / steps;
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + (to.x - from.x) * k, y: from.y + (to.y - from.y) * k }],
    });
    await new Promise((r) => setTimeout(r, 16));
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

const alive = (page: Page, id: string) => page.locator(`[data-node-id="${id}"]`).getAttribute('data-alive');
const scheduleLength = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { lockstep: { store: { getState(): { frame: { schedule: readonly unknown[] } } } } }).lockstep.store.getState()
        .frame.schedule.length,
  );

describe.skipIf(!haveChromium)('the phone layout at 390×844 with touch', () => {
  it('has no sideways scroll, the diagram first and wide with nodes big enough to tap, then the panels; text at least 12 px', async () => {
    const page = await openPhone();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The top bar is at most two rows of controls (the toggle for the rest included).
    const top = await box(page, '.topbar');
    expect(top.height).toBeLessThan(120);
    await expect.poll(() => page.getByRole('button', { name: /More/ }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(false);

    const diagram = await box(page, '.diagram-frame');
    const panels = await box(page, '.side-tabs');
    const log = await box(page, '.events-panel');
    expect(diagram.width).toBeGreaterThanOrEqual(350);
    expect(diagram.y).toBeLessThan(top.y + top.height + 60);
    expect(diagram.y + diagram.height).toBeLessThanOrEqual(panels.y);
    expect(panels.y + panels.height).toBeLessThanOrEqual(log.y);
    expect(panels.height).toBeGreaterThan(150);
    // The whole diagram is on the first screen.
    expect(diagram.y + diagram.height).toBeLessThanOrEqual(PHONE.height);

    // Every node glyph is a touch target of at least 44 px.
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) {
      const shape = await box(page, `[data-node-id="${id}"] .node-shape`);
      expect(Math.min(shape.width, shape.height), id).toBeGreaterThanOrEqual(44);
    }

    // The scrubber spans the width and its tick labels do not overlap.
    const track = await box(page, '[data-testid="scrubber"]');
    expect(track.width).toBeGreaterThan(300);
    const ticks = await page.evaluate(() =>
      [...document.querySelectorAll('.scrub-axis span')]
        .filter((s) => s.getClientRects().length > 0)
        .map((s) => {
          const r = s.getBoundingClientRect();
          return { left: r.left, right: r.right, size: parseFloat(getComputedStyle(s).fontSize) };
        }),
    );
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].left).toBeGreaterThan(ticks[i - 1].right + 4);
    for (const t of ticks) expect(t.right).toBeLessThanOrEqual(PHONE.width);

    // No text under 12 px in the bars, the timeline and the panels (every tab).
    const small = async () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.topbar *, .scrubber *, .subbar *, .network-panel *, .legend *, .side *')]
          .filter(
            (el) =>
              [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') &&
              el.getClientRects().length > 0,
          )
          .filter((el) => !el.closest('.visually-hidden, svg') && parseFloat(getComputedStyle(el).fontSize) < 12)
          .map(
            (el) =>
              `${el.tagName.toLowerCase()}.${el.className}: "${(el.textContent ?? '').trim().slice(0, 30)}" ${getComputedStyle(el).fontSize}`,
          ),
      );
    const tooSmall = new Set(await small());
    for (const tab of await page.getByRole('tab').all()) {
      await tab.tap();
      for (const s of await small()) tooSmall.add(s);
    }
    expect([...tooSmall]).toEqual([]);
    await page.getByRole('tab', { name: 'Logs' }).tap();
    await page.screenshot({ path: join(SHOTS, 'phone-390x844.png'), fullPage: true });
    await page.screenshot({ path: join(SHOTS, 'phone-390x844-first-screen.png') });
  });

  it('keeps the top bar to two rows mid-run in the chapter (clock "/ 2253", To end), playing or paused', async () => {
    const chapter = findPreset('chapter')!;
    const page = await openPhone(
      1800,
      `${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1800 })}&view=split`,
    );
    await page.getByRole('button', { name: 'To end' }).waitFor();
    expect(await topBarRows(page)).toBe(2);
    await page.getByRole('button', { name: /Play/ }).tap();
    await page.getByRole('button', { name: /Pause/ }).waitFor();
    expect(await topBarRows(page)).toBe(2);
    await page.getByRole('button', { name: /Pause/ }).tap();
    // Ring + time: on a phone the lanes sit under the ring, each full width.
    const ring = await box(page, '.diagram-frame');
    const lanes = await box(page, '[data-testid="spacetime"]');
    expect(lanes.y).toBeGreaterThanOrEqual(ring.y + ring.height);
    expect(Math.min(ring.width, lanes.width)).toBeGreaterThanOrEqual(350);
    expect(lanes.height).toBeGreaterThan(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('gives each of nine nodes a touch target of at least 44 px, and a tap hits the node under the finger', async () => {
    const page = await openPhone(400, 'v=1&seed=42&nodes=9&clients=AB&t=400');
    for (let i = 1; i <= 9; i++) {
      const target = await box(page, `[data-node-id="n${i}"] .focus-ring`);
      expect(Math.min(target.width, target.height), `n${i}`).toBeGreaterThanOrEqual(44);
    }
    const shape = await box(page, '[data-node-id="n7"] .node-shape');
    await page.touchscreen.tap(shape.x + shape.width / 2, shape.y + shape.height / 2);
    await expect.poll(() => alive(page, 'n7')).toBe('false');
    for (const id of ['n6', 'n8']) expect(await alive(page, id)).toBe('true');
  });

  it('switches tabs by tap, the tab list scrolling sideways inside itself', async () => {
    const page = await openPhone();
    const tablist = page.getByRole('tablist', { name: 'Panels' });
    expect(await tablist.isVisible()).toBe(true);
    const sizes = await tablist.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    for (const name of ['Node', 'Settings', 'Clients']) {
      const tab = page.getByRole('tab', { name });
      await tab.tap();
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
      const id = await tab.getAttribute('aria-controls');
      expect(await page.locator(`#${id}`).isVisible()).toBe(true);
      const b = (await tab.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('a tap on a node crashes it and a second tap restarts it, without starting a cut', async () => {
    const page = await openPhone();
    const shape = await box(page, '[data-node-id="n3"] .node-shape');
    const centre = { x: shape.x + shape.width / 2, y: shape.y + shape.height / 2 };
    expect(await alive(page, 'n3')).toBe('true');
    await page.touchscreen.tap(centre.x, centre.y);
    await expect.poll(() => alive(page, 'n3')).toBe('false');
    expect(await page.locator('.partition-group').count()).toBe(0);
    expect(await page.locator('.cut-preview').count()).toBe(0);
    expect(await scheduleLength(page)).toBe(1);
    await page.waitForTimeout(400); // past a double tap's window, so the second tap is a tap of its own
    await page.touchscreen.tap(centre.x, centre.y);
    await expect.poll(() => alive(page, 'n3')).toBe('true');
    expect(await page.locator('.partition-group').count()).toBe(0);
    expect(await scheduleLength(page)).toBe(2);
    expect(await page.locator('#events-title').isVisible()).toBe(true);
  });

  it('a one-finger drag across the ring cuts the network; a drag outside the diagram scrolls the page', async () => {
    const page = await openPhone();
    const heal = page.getByRole('button', { name: 'Heal partition' });
    expect(await heal.isDisabled()).toBe(true);
    const scrollBefore = await page.evaluate(() => window.scrollY);
    // From the empty space right of n1 down between n4 and n3: n1, n4, n5 | n2, n3. (A finger
    // within a few px of the view switch above would be snapped onto it by Chromium's touch adjustment.)
    await touchDrag(page, await screenPoint(page, 600, 40), await screenPoint(page, 470, 584));
    await expect.poll(() => page.locator('.partition-group').count()).toBe(2);
    expect(await heal.isEnabled()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
    const schedule = await page.evaluate(() =>
      (
        window as unknown as {
          lockstep: { store: { getState(): { frame: { schedule: readonly { verb: string; groups?: string[][] }[] } } } };
        }
      ).lockstep.store
        .getState()
        .frame.schedule.map((a) =>
          a.groups
            ? `${a.verb} ${a.groups
                .map((g) => [...g].sort().join(','))
                .sort()
                .join(' | ')}`
            : a.verb,
        ),
    );
    expect(schedule).toEqual(['partition n1,n4,n5 | n2,n3']);
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) expect(await alive(page, id)).toBe('true');
    await page.screenshot({ path: join(SHOTS, 'phone-390x844-cut.png') });

    // Heal by tap at once: the finger left the glass moving, and that must not read as a fling
    // whose end swallows this tap.
    await heal.tap();
    await expect.poll(() => page.locator('.partition-group').count()).toBe(0);

    // A finger on the timeline's legend (outside the diagram) moved up scrolls the page instead.
    const legend = await box(page, '.scrub-legend');
    const y = Math.min(legend.y + legend.height / 2, PHONE.height - 20);
    await touchDrag(page, { x: 200, y }, { x: 200, y: y - 300 }, 10);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(50);
    expect(await page.locator('.partition-group').count()).toBe(0);
  });

  it('at fencing beat 5 every control is a 32 px tap target and the stores read in full, on the ring and in their tab', async () => {
    const page = await openPhone(13513, 'v=1&seed=42&tour=fencing&beat=5');
    // Every button, field and timeline mark outside the diagram (a checkbox's target is its label).
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button, select, input, [role="tab"]')]
        .filter((e) => e.getClientRects().length > 0 && !e.closest('svg'))
        .map((e) => ({ e, r: (e.matches('input[type="checkbox"]') ? (e.closest('label') ?? e) : e).getBoundingClientRect() }))
        .filter(({ r }) => r.width < 32 || r.height < 32)
        .map(
          ({ e, r }) =>
            `${e.tagName} "${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`,
        ),
    );
    expect(small).toEqual([]);
    // The stores on the ring show their values whole ("B-first", not "result=B-f…").
    expect(await page.locator('svg.diagram .store-fenced .store-value').textContent()).toBe('B-first');
    expect(await page.locator('svg.diagram .store-unfenced .store-value').textContent()).toBe('A-second');
    // In the Stores tab each store's table fits its card: nothing cut off at the right.
    await page.getByRole('tab', { name: 'Stores' }).tap();
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('.store-card')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.getAttribute('data-testid')),
    );
    expect(cut).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'phone-390x844-fencing-stores.png'), fullPage: true });
  });

  it('More shows the sharing, export and presenter buttons; axe finds nothing, folded or open, light or dark in a tour', async () => {
    const page = await openPhone();
    expect(await axeViolations(page)).toEqual([]);
    const more = page.getByRole('button', { name: /More/ });
    await more.tap();
    await expect.poll(() => more.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Copy link', 'Copy embed code', 'Import…', 'Keys', 'Export', 'Present']) {
      const button = page.getByRole('button', { name, exact: name !== 'Keys' && name !== 'Export' });
      expect(await button.isVisible(), name).toBe(true);
    }
    const top = await box(page, '.topbar');
    expect(top.x + top.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Export' }).tap();
    await expect.poll(() => page.getByTestId('export-menu').isVisible()).toBe(true);
    const menu = await box(page, '[data-testid="export-menu"]');
    expect(menu.x).toBeGreaterThanOrEqual(0);
    expect(menu.x + menu.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SHOTS, 'phone-390x844-more.png') });
    expect(await axeViolations(page)).toEqual([]);

    // Dark, and in a guided tour (its narration above the ring).
    const chapter = findPreset('chapter')!;
    const tour = encodeLink({
      config: chapter.config,
      schedule: parseSchedule(chapter.schedule),
      atMs: 1168,
      tour: { name: 'chapter', beat: 2 },
    });
    const dark = await openPhone(1168, tour, 'dark');
    await dark.getByTestId('tour-narration').waitFor();
    expect(await dark.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await dark.screenshot({ path: join(SHOTS, 'phone-390x844-dark-tour.png'), fullPage: true });
    expect(await axeViolations(dark)).toEqual([]);
  });
});
