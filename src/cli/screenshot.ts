/**
 * Takes the README's screenshot: the built site in Debian's Chromium at a projector's 1280×720,
 * the ring of the chapter's demo paused at 1800 ms (n2 and n3 cut off, a stranded leader), written to
 * docs/screenshot.png. Run with `npx tsx src/cli/screenshot.ts [out.png]`. No browser is downloaded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { findPreset } from '../sim/run/presets';
import { parseSchedule } from '../sim/model/schedule';
import { encodeLink } from '../share/link';
import { buildSite, CHROMIUM_ARGS, CHROMIUM_PATH, serveDir } from './staticSite';

const out = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..', 'docs', 'screenshot.png'));
const chapter = findPreset('chapter');
if (!chapter) throw new Error('the chapter preset is missing');
const query = encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1800 });

const dir = mkdtempSync(join(tmpdir(), 'lockstep-shot-'));
try {
  buildSite(dir);
  const server = await serveDir(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${server.url}?${query}&view=ring`); // the ring alone reads best at this size
    await page.waitForFunction(() => document.querySelector('[data-testid="clock"]')?.getAttribute('data-now') === '1800');
    await page.waitForTimeout(500); // messages in flight settle on the canvas
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
