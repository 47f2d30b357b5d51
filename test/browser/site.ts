/**
 * What every browser test file needs: the site built into a temporary folder, served from a deep
 * path (as a course page would), and Debian's Chromium launched headless; cleaned up after the file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
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
