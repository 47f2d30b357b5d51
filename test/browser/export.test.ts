/**
 * The Export menu's ring diagram in Chromium: the SVG download is a standalone picture of the
 * ring (glyphs, messages in flight, legend, title), and the PNG download is a real PNG.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Download, type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
/** The chapter preset paused mid-run, with messages in flight. */
const AT_MS = 1170;

const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

async function openChapter(colorScheme: 'light' | 'dark'): Promise<Page> {
  const chapter = findPreset('chapter')!;
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 }, acceptDownloads: true, colorScheme });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${site.url}?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: AT_MS })}`);
  await page.waitForSelector('[data-node-id]');
  await expect.poll(() => page.getByTestId('clock').getAttribute('data-now')).toBe(String(AT_MS));
  return page;
}

async function exportItem(page: Page, name: string): Promise<Download> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByTestId('export-menu').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return download;
}

async function readDownload(download: Download): Promise<Buffer> {
  return readFileSync((await download.path())!);
}

describe.skipIf(!haveChromium)('exporting the ring diagram in a real browser', () => {
  it('saves a standalone SVG of the ring with messages in flight, a legend and a title', async () => {
    const page = await openChapter('light');
    const inflight = await page.evaluate(
      () =>
        (
          window as unknown as { lockstep: { store: { getState(): { frame: { snapshot: { messages: unknown[] } | null } } } } }
        ).lockstep.store.getState().frame.snapshot?.messages.length ?? 0,
    );
    expect(inflight).toBeGreaterThan(0);

    const download = await exportItem(page, 'Ring diagram (SVG)');
    expect(download.suggestedFilename()).toBe(`lockstep-seed42-t${AT_MS}ms-ring.svg`);
    const text = (await readDownload(download)).toString('utf8');
    writeFileSync(join(SHOTS, 'export-ring.svg'), text);
    // Nothing of the page was left behind in the live diagram.
    expect(await page.locator('svg.diagram .export-messages, svg.diagram .export-legend').count()).toBe(0);

    const parsed = await page.evaluate((svgText) => {
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const root = doc.documentElement;
      const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: root.localName,
        ns: root.namespaceURI,
        viewBox: root.getAttribute('viewBox'),
        nodeIds: [...doc.querySelectorAll('[data-node-id] .node-id')].map((t) => t.textContent),
        title: doc.querySelector('.export-title')?.textContent ?? null,
        legend: [...doc.querySelectorAll('.export-legend text')].map((t) => t.textContent),
        messages: doc.querySelectorAll('.export-messages .msg').length,
        styledShapes: [...doc.querySelectorAll('.node-shape')].filter((p) => /fill:\s*rgb/.test(p.getAttribute('style') ?? '')).length,
        texts,
      };
    }, text);
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.ns).toBe('http://www.w3.org/2000/svg');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(parsed.nodeIds).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(parsed.title).toMatch(/seed 42/);
    expect(parsed.title).toContain(`t = ${AT_MS} ms`);
    expect(parsed.legend).toEqual(
      expect.arrayContaining(['follower', 'candidate', 'leader', 'down', 'RequestVote', 'heartbeat (empty AppendEntries)', 'dropped']),
    );
    expect(parsed.messages).toBeGreaterThan(0);
    // Styles are inlined: the role colours come with the file, not from our stylesheet.
    expect(parsed.styledShapes).toBeGreaterThanOrEqual(5 + 4);

    // Rendered on its own (no page CSS), the picture is not blank.
    const lone = await site.browser.newPage({ viewport: { width: 940, height: 800 } });
    await lone.setContent(text.replace(/^<\?xml[^>]*>\s*/, ''));
    await lone.screenshot({ path: join(SHOTS, 'export-ring-standalone.png') });
    await lone.close();
    await page.close();
  });

  it('saves a PNG of the ring, in dark mode too', async () => {
    const page = await openChapter('dark');
    const download = await exportItem(page, 'Ring diagram (PNG)');
    expect(download.suggestedFilename()).toBe(`lockstep-seed42-t${AT_MS}ms-ring.png`);
    const png = await readDownload(download);
    writeFileSync(join(SHOTS, 'export-ring-dark.png'), png);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(20_000);
    // IHDR: width and height are twice the picture's view size.
    expect(png.readUInt32BE(16)).toBe(940 * 2);
    expect(png.readUInt32BE(20)).toBeGreaterThan(590 * 2);
    await page.close();
  });

  it('lists the formats others provide as disabled, and the keyboard runs the menu', async () => {
    const page = await openChapter('light');
    const button = page.getByRole('button', { name: 'Export', exact: true });
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Ring diagram (SVG)');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Ring diagram (PNG)');
    // The run's exports are registered by the page; a format nobody provides yet is disabled and says so.
    const trace = page.getByRole('button', { name: 'Trace (JSON)' });
    expect(await trace.getAttribute('aria-disabled')).toBeNull();
    for (const item of await page.locator('[data-testid="export-menu"] button[aria-disabled="true"]').all()) {
      expect(await item.getAttribute('title')).toBe('not available yet');
    }
    await page.screenshot({ path: join(SHOTS, 'export-menu.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('export-menu').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Export ▾');
    // Escape closed the menu and nothing else: the run is still paused where it was.
    expect(await page.getByTestId('clock').getAttribute('data-now')).toBe(String(AT_MS));
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
