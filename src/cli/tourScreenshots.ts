/**
 * Takes the teaching screenshots in docs/screenshots/: three tours' key beats (the first election
 * won, the chapter's stale leader in the minority, fencing's stale write refused), each at a
 * projector's 1280×720 (the page and presenter mode), at 1920×1080 and on a 390×844 phone, as small
 * JPEGs. Run with `npm run screenshot:tours [-- out-dir]`. No browser is downloaded.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContextOptions } from 'playwright-core';
import { resolvedTour } from '../sim/teach/tours/runner';
import { findTour } from '../sim/teach/tours/tours';
import { buildSite, CHROMIUM_ARGS, CHROMIUM_PATH, serveDir } from './staticSite';

const out = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..', 'docs', 'screenshots'));

/** The beats a class stops on: where each tour's point is made. */
const BEATS: readonly { tour: string; beat: number }[] = [
  { tour: 'first-election', beat: 3 },
  { tour: 'chapter', beat: 6 },
  { tour: 'fencing', beat: 5 },
];

const VIEWS: readonly { name: string; context: BrowserContextOptions; present: boolean }[] = [
  { name: '1280x720', context: { viewport: { width: 1280, height: 720 } }, present: false },
  { name: '1280x720-presenter', context: { viewport: { width: 1280, height: 720 } }, present: true },
  { name: '1920x1080', context: { viewport: { width: 1920, height: 1080 } }, present: false },
  { name: '390x844', context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, present: false },
];

mkdirSync(out, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'lockstep-shots-'));
try {
  buildSite(dir);
  const server = await serveDir(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const { tour: name, beat } of BEATS) {
      const tour = findTour(name);
      if (tour === null) throw new Error(`there is no tour "${name}"`);
      const endMs = resolvedTour(tour).beats[beat - 1].endMs;
      for (const view of VIEWS) {
        const context = await browser.newContext(view.context);
        // A returning visit: the link opens where it points, with no welcome line.
        await context.addInitScript(() => localStorage.setItem('lockstep-visited', '1'));
        const page = await context.newPage();
        await page.goto(`${server.url}?v=1&seed=42&tour=${name}&beat=${beat}${view.present ? '&present=1' : ''}`);
        await page.waitForFunction(
          (t) =>
            (
              window as unknown as { lockstep?: { store: { getState(): { frame: { snapshot: { now: number } | null } } } } }
            ).lockstep?.store.getState().frame.snapshot?.now === t,
          endMs,
          { timeout: 60_000 },
        );
        await page.waitForTimeout(600); // the beat's panel opens and the canvas settles
        const path = join(out, `${name}-${beat}-${view.name}.jpg`);
        await page.screenshot({ path, type: 'jpeg', quality: 70 });
        console.log(`wrote ${path}`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
