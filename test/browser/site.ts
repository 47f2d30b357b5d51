/**
 * What every browser test file needs: the site built into a temporary folder, served from a deep
 * path (as a course page would), and Debian's Chromium launched headless; cleaned up after the file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildSite, CHROMIUM_ARGS, CHROMIUM_PATH, serveDir, type StaticServer } from '../../src/cli/staticSite';

/** Browser tests skip (rather than fail) where Chromium is not installed; .ci/run installs it. */
export const haveChromium = existsSync(CHROMIUM_PATH);

export interface BrowserSite {
  /** The served site's address (valid once the file's tests run). */
  readonly url: string;
  readonly browser: Browser;
}

/** Registers the file's beforeAll/afterAll and returns the site they set up. */
export function useBrowserSite(): BrowserSite {
  let dir = '';
  let server: StaticServer | null = null;
  let browser: Browser | null = null;
  beforeAll(async () => {
    if (!haveChromium) return;
    dir = mkdtempSync(join(tmpdir(), 'lockstep-site-'));
    buildSite(dir);
    server = await serveDir(dir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      if (!server) throw new Error('The site is not served yet: use it inside a test.');
      return server.url;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running yet: use it inside a test.');
      return browser;
    },
  };
}

/** What axe finds on the whole page, one line per rule with the first two elements it names. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { html: string }[] }[] }> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.html)
        .slice(0, 2)
        .join(' ; ')}`,
  );
}

/**
 * A new page of the site (1280×720 unless told) for `run`, with the page's uncaught errors
 * collected in `errors`; the page is closed afterwards, whatever happens.
 */
export async function withPage(
  site: BrowserSite,
  run: (page: Page, errors: string[]) => Promise<void>,
  viewport = { width: 1280, height: 720 },
): Promise<void> {
  const page = await site.browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await run(page, errors);
  } finally {
    await page.close();
  }
}

/** Resolves once the page's clock reads `ms` (a link landed, or a seek finished). */
export async function clockAt(page: Page, ms: number): Promise<void> {
  await page.waitForFunction((t) => document.querySelector('[data-testid="clock"]')?.getAttribute('data-now') === String(t), ms);
}

/**
 * Makes the page a returning visit (the lab opens on Free play; a first visit opens on "Start
 * here", the first election tour). Call before `goto`.
 */
export async function asReturningVisit(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('lockstep-visited', '1'));
}
