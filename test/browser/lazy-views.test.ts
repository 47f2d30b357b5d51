/**
 * The views people open later load on demand (issue 24, item 7): a fresh page fetches none of
 * their chunks before the ring is drawn; each view, opened from a fresh page or straight from a
 * link, loads and shows its content; a chunk that cannot be fetched (offline) leaves one
 * sentence, the run untouched, and loads on Try again once the network is back.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clockAt, haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';

const site = useBrowserSite();

/** The chunks of the views loaded on demand, by the start of their file names (Vite names a chunk after its module). */
const LAZY_CHUNKS = ['ConnectedSpaceTime-', 'ExperimentsView-', 'tourRuns-', 'WhyAnswer-', 'laterPanels-', 'PresenterView-', 'ringExport-'];

interface Opened {
  readonly page: Page;
  /** Every script file the page has fetched, in order. */
  readonly scripts: string[];
  readonly errors: string[];
}

async function open(query: string, block?: string): Promise<Opened> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  // A returning visitor: a first visit opens the Start-here tour, whose chunk it then needs at once.
  await page.addInitScript(() => localStorage.setItem('lockstep-visited', '1'));
  const scripts: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url().split('/').pop() ?? '');
  });
  // "Offline" for one chunk: its fetch fails as it does with no network.
  if (block) await page.route(`**/assets/${block}*.js`, (route) => route.abort('internetdisconnected'));
  await page.goto(site.url + query);
  await page.getByTestId('clock').waitFor();
  return { page, scripts, errors };
}

const lazyFetched = (scripts: readonly string[]) => scripts.filter((s) => LAZY_CHUNKS.some((c) => s.startsWith(c)));

describe.skipIf(!haveChromium)('views loaded on demand', () => {
  it('a fresh page draws the ring without them, then opens each and shows its content', async () => {
    const { page, scripts, errors } = await open('');
    await page.waitForSelector('[data-node-id]');
    expect(lazyFetched(scripts)).toEqual([]);

    await page.getByRole('radio', { name: 'Space-time' }).click();
    await page.getByTestId('spacetime').waitFor();
    expect(await page.locator('[data-testid="spacetime"] [data-lane]').count()).toBeGreaterThan(0);

    await page.getByRole('tab', { name: 'Clients' }).click();
    await expect.poll(() => page.locator('#tabpanel-clients').textContent()).toMatch(/\bA\b/);

    await page.getByLabel('Scenario').selectOption({ label: 'Tour: Heartbeats and log replication' });
    await expect.poll(() => page.getByTestId('tour-narration').getAttribute('data-beat')).toBe('1');

    await page.getByRole('button', { name: 'Experiments' }).click();
    await page.getByTestId('experiments').waitFor();
    expect(await page.getByLabel('Chapter experiment').count()).toBe(1);
    await page.getByRole('button', { name: '← Back to the run' }).click();

    expect(lazyFetched(scripts).map((s) => s.split('-')[0])).toEqual(
      expect.arrayContaining(['ConnectedSpaceTime', 'laterPanels', 'tourRuns', 'ExperimentsView']),
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a link straight to a lazy view opens it, then shows the state from the link', async () => {
    const chapter = findPreset('chapter')!;
    const query = `?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1753, view: 'time' })}`;
    const time = await open(query);
    await clockAt(time.page, 1753);
    await time.page.getByTestId('spacetime').waitFor();
    expect(await time.page.getByRole('radio', { name: 'Space-time' }).getAttribute('aria-checked')).toBe('true');
    await time.page.close();

    const tour = await open('?v=1&seed=42&tour=fencing&beat=3');
    await expect.poll(() => tour.page.getByTestId('tour-narration').getAttribute('data-beat')).toBe('3');
    expect(await tour.page.getByTestId('tour-narration').getAttribute('data-tour')).toBe('fencing');
    expect(tour.errors).toEqual([]);
    await tour.page.close();
  });

  it('offline, a view that cannot load says so in one sentence; the run stays, and Try again loads it', async () => {
    const { page, errors } = await open('', 'ConnectedSpaceTime-');
    await page.waitForSelector('[data-node-id]');
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.getByRole('button', { name: /Play/ }).waitFor();
    // A frame the worker sent before it paused may still arrive: read the time once it is still.
    let before: string | null = null;
    await expect
      .poll(async () => {
        const was = before;
        before = await page.getByTestId('clock').getAttribute('data-now');
        return was === before;
      })
      .toBe(true);
    await page.getByRole('radio', { name: 'Ring + time' }).click();
    const failed = page.getByTestId('lazy-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/^⚠?\s*The space-time view could not be loaded: .*offline/);
    // The ring, the run and its time are as they were.
    expect(await page.locator('[data-node-id]').count()).toBe(5);
    expect(await page.getByTestId('clock').getAttribute('data-now')).toBe(before);

    await page.unroute('**/assets/ConnectedSpaceTime-*.js');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('spacetime').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
