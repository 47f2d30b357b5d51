/**
 * Keys and tabs in real Chromium, where a focused button really is pressed by Space (on keyup)
 * and a tab panel really scrolls: Space plays/pauses from a focused button without pressing it,
 * Enter still presses it, Esc closes what is open and then lets go of focus, and a side tab
 * opens at its top. (The axe checks, light and dark, are in flows.test.ts.)
 */
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';

const site = useBrowserSite();
const pageErrors: string[] = [];

async function open(query: string): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(site.url + query);
  await page.waitForSelector('[data-node-id]');
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);
const playing = (page: Page) =>
  page
    .locator('.playback .play')
    .textContent()
    .then((t) => /Pause/.test(t ?? ''));
const focusedName = (page: Page) =>
  page.evaluate(() =>
    document.activeElement === document.body
      ? 'body'
      : (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''),
  );

/** The clock's time once it has stopped moving (two reads 200 ms apart agree). */
async function settledNow(page: Page): Promise<number> {
  let last = await nowMs(page);
  for (;;) {
    await page.waitForTimeout(200);
    const now = await nowMs(page);
    if (now === last) return now;
    last = now;
  }
}

/** Counts real clicks on the element (a Space that pressed the button would show here). */
async function countClicks(page: Page, selector: string) {
  await page.evaluate((sel) => {
    const w = window as unknown as { clicks: number };
    w.clicks = 0;
    document.querySelector(sel)?.addEventListener('click', () => w.clicks++);
  }, selector);
  return () => page.evaluate(() => (window as unknown as { clicks: number }).clicks);
}

describe.skipIf(!haveChromium)('keys and tabs in a real browser', () => {
  it('Space on the focused "1 ms ▶" plays and pauses without pressing it; Enter still presses it', async () => {
    const page = await open('?v=1&seed=42&clients=AB&t=0');
    expect(await playing(page)).toBe(false);
    const step = page.getByRole('button', { name: 'Step 1 ms' });
    const clicks = await countClicks(page, '[aria-label="Step 1 ms"]');
    await step.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => playing(page)).toBe(true);
    await expect.poll(() => nowMs(page)).toBeGreaterThan(20); // playing, not stepped to 1 and paused
    expect(await clicks()).toBe(0);
    expect(await focusedName(page)).toBe('Step 1 ms');
    await page.keyboard.press('Space');
    await expect.poll(() => playing(page)).toBe(false);
    expect(await clicks()).toBe(0);
    // The button says Play at once; the clock settles when the worker's last frame is drawn.
    const t = await settledNow(page);
    // Enter is the button's own key: it steps 1 ms.
    await page.keyboard.press('Enter');
    await expect.poll(() => nowMs(page)).toBe(t + 1);
    expect(await clicks()).toBe(1);
    // The arrows step from a focused button too.
    await page.getByRole('button', { name: 'Copy link' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => nowMs(page)).toBe(t + 2);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('Esc closes the Keys help (focus stays on its button), then lets go of focus', async () => {
    const page = await open('?v=1&seed=42&clients=AB&t=0');
    const keys = page.getByRole('button', { name: 'Keys' });
    await keys.click();
    await expect(
      page
        .getByRole('region', { name: 'Keyboard shortcuts' })
        .getByText('crash the focused node, or restart it if it is down', { exact: false })
        .count(),
    ).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => keys.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedName(page)).toBe('Keys ▾');
    await page.keyboard.press('Escape');
    expect(await focusedName(page)).toBe('body');
    // From a plain focused button, one press is enough.
    await page.getByRole('button', { name: 'Step 1 ms' }).focus();
    await page.keyboard.press('Escape');
    expect(await focusedName(page)).toBe('body');
    await page.close();
  });

  it('the Stores tab opens at its top, with "stores disagree" in view, after it was scrolled and left', async () => {
    const fencing = findPreset('fencing')!;
    const page = await open(`?${encodeLink({ config: fencing.config, schedule: parseSchedule(fencing.schedule), atMs: 15000 })}`);
    await expect.poll(() => nowMs(page)).toBe(15000);
    await page.getByRole('tab', { name: 'Stores' }).click();
    const panel = page.getByRole('tabpanel');
    await page.getByTestId('stores-disagree').waitFor();
    const scroll = () => panel.evaluate((el) => ({ top: el.scrollTop, room: el.scrollHeight - el.clientHeight }));
    expect((await scroll()).room).toBeGreaterThan(50); // the panel does scroll at 1280×720
    await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect((await scroll()).top).toBeGreaterThan(50);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('tab', { name: 'Stores' }).click();
    await page.getByTestId('stores-disagree').waitFor();
    expect((await scroll()).top).toBe(0);
    const inView = await page.evaluate(() => {
      const p = document.querySelector('[role="tabpanel"]')!.getBoundingClientRect();
      const h = document.querySelector('[data-testid="stores-disagree"]')!.getBoundingClientRect();
      return h.top >= p.top && h.bottom <= p.bottom;
    });
    expect(inView).toBe(true);
    await page.close();
  });
  it("fits the whole top bar on one line at a projector's 1280×720, mid-run in the chapter preset", async () => {
    const chapter = findPreset('chapter')!;
    const page = await open(`?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1800 })}`);
    await expect.poll(() => nowMs(page)).toBe(1800);
    // Mid-run the clock reads "t = 1800 ms / 2253" and "To end" shows: the widest the bar gets here.
    await page.getByRole('button', { name: 'To end' }).waitFor();
    // The bar's controls (through the box-less wrapper the phone folds behind More; the phone's toggle itself is not shown).
    const tops = await page.evaluate(() =>
      [...document.querySelector('.topbar')!.children]
        .flatMap((c) => (getComputedStyle(c).display === 'contents' ? [...c.children] : [c]))
        .filter((c) => c.getClientRects().length > 0)
        .map((c) => Math.round(c.getBoundingClientRect().top)),
    );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(12);
    await page.close();
  });
});
