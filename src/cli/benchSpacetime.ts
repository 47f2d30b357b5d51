/**
 * The space-time part of `npm run bench:ui`, at 1280×720 (a projector) in real headless Chromium:
 *
 * - opening the view on a 10-minute run: from a click on the "Space-time" radio (the run paused
 *   at 600 s, its live check done) to the first animation frame after the trace's arrows are in
 *   the DOM and on the canvas; median of 5, switching back to the ring between;
 * - panning and zooming with at least 2,000 arrows in view (heartbeats shown): wheel zooms and
 *   drag pans for ~4 s while the page records requestAnimationFrame deltas.
 *
 * Called by benchFrames.ts with its browser and served site; runs alone too (`tsx src/cli/benchSpacetime.ts`).
 */
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_CONFIG } from '../sim/model/config';
import { parseSchedule } from '../sim/model/schedule';
import { encodeLink } from '../share/link';
import { withBuiltSite } from './staticSite';

export const SPACETIME_VIEWPORT = { width: 1280, height: 720 } as const;
export const LONG_RUN_MS = 600_000;
const OPEN_REPEATS = 5;
const GESTURE_MS = 4000;
const MIN_ARROWS = 2000;

/** Clients A and B take turns on one lock every 3 s for the whole 10 minutes, each writing under it. */
export function lockTrafficSchedule(runMs: number): string {
  const parts: string[] = [];
  for (let t = 2000; t + 2000 < runMs; t += 3000) {
    parts.push(
      `@${t} client A acquire lock 2000`,
      `@${t + 200} client A write k=a${t}`,
      `@${t + 1500} client B acquire lock 2000`,
      `@${t + 1700} client B write k=b${t}`,
    );
  }
  return parts.join('; ');
}

const stats = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { median: pct(0.5), p95: pct(0.95), max: sorted[sorted.length - 1], n: sorted.length };
};

/** ms from clicking "Space-time" to the first frame with the trace painted, and the arrows then in the DOM. */
async function timeOpening(page: Page): Promise<{ ms: number; domArrows: number; painted: number }> {
  return page.evaluate(async () => {
    const radio = [...document.querySelectorAll<HTMLElement>('[role="radio"]')].find((b) => b.textContent === 'Space-time');
    if (!radio) throw new Error('no Space-time radio');
    const start = performance.now();
    radio.click();
    return new Promise<{ ms: number; domArrows: number; painted: number }>((done, fail) => {
      // The canvas paints in the animation frame after the commit that put the arrows in the DOM:
      // once they are seen, the next frame's callback runs after that paint.
      let seenDom = false;
      const frame = () => {
        const now = performance.now();
        const arrows = document.querySelector('[data-testid="spacetime"] .spacetime-arrows');
        const count = Number(arrows?.getAttribute('data-count') ?? 0);
        if (seenDom) {
          const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="spacetime"] canvas.spacetime-canvas');
          const ctx = canvas?.getContext('2d');
          let painted = 0;
          if (canvas && ctx && canvas.width > 0) {
            const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
          }
          if (painted > 1000) {
            done({ ms: now - start, domArrows: count, painted });
            return;
          }
        }
        if (count > 0) seenDom = true;
        if (now - start > 20_000) fail(new Error('the space-time view did not paint within 20 s'));
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  });
}

const arrowCount = (page: Page) =>
  page.evaluate(() => Number(document.querySelector('[data-testid="spacetime"] .spacetime-arrows')?.getAttribute('data-count') ?? 0));
const inViewLabel = (page: Page) =>
  page.evaluate(() => {
    const label = document.querySelector('[data-testid="spacetime"]')?.getAttribute('aria-label') ?? '';
    return Number(/(\d+) messages? in view/.exec(label)?.[1] ?? 0);
  });
const windowShown = (page: Page) => page.locator('[data-testid="spacetime"] .spacetime-window').textContent();

export async function benchSpacetime(browser: Browser, baseUrl: string, log: (line: string) => void = console.log): Promise<void> {
  const page = await browser.newPage({ viewport: SPACETIME_VIEWPORT });
  try {
    // tsx keeps function names with a helper the page does not have.
    await page.addInitScript('window.__name = (f) => f;');
    const config = { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] };
    const query = encodeLink({ config, schedule: parseSchedule(lockTrafficSchedule(LONG_RUN_MS)), atMs: LONG_RUN_MS, view: 'ring' });
    const loadStart = Date.now();
    await page.goto(`${baseUrl}?${query}`);
    await page.waitForSelector('[data-node-id]');
    await page.waitForFunction(
      () => {
        const f = (
          window as unknown as {
            lockstep: { store: { getState(): { frame: { horizonMs: number; check: { checkedToMs: number } | null } } } };
          }
        ).lockstep.store.getState().frame;
        return f.horizonMs > 0 && f.check !== null && f.check.checkedToMs === f.horizonMs;
      },
      undefined,
      { timeout: 120_000, polling: 100 },
    );
    log(
      `space-time, ${SPACETIME_VIEWPORT.width}x${SPACETIME_VIEWPORT.height} (a projector): 10-minute run (5 nodes, clients A and B taking a lock and writing every 3 s), loaded and checked to 600 s in ${Date.now() - loadStart} ms`,
    );

    const opens: number[] = [];
    let domArrows = 0;
    for (let i = 0; i < OPEN_REPEATS; i++) {
      const r = await timeOpening(page);
      opens.push(r.ms);
      domArrows = r.domArrows;
      if (i < OPEN_REPEATS - 1) {
        await page.getByRole('radio', { name: 'Ring', exact: true }).click();
        await page.waitForSelector('[data-testid="spacetime"]', { state: 'detached' });
        await page.waitForTimeout(300);
      }
    }
    const o = stats(opens);
    log(
      `opening the space-time view at t=600 s: median ${o.median.toFixed(0)} ms (runs: ${opens.map((m) => m.toFixed(0)).join(', ')}; target < 300 ms); ${await inViewLabel(page)} messages in view, ${domArrows} arrows drawn (the rest merged at this zoom; at most 600 also kept as DOM lines)`,
    );

    // Heartbeats shown, then zoom in (+ halves the window about its middle) until about 2,000
    // arrows remain in view, stopping before fewer than that would.
    await page.getByRole('button', { name: 'Heartbeats: folded' }).click();
    const frameBox = page.locator('[data-testid="spacetime"] .spacetime-frame');
    await frameBox.focus();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('+');
      await page.waitForTimeout(150);
      if ((await arrowCount(page)) < MIN_ARROWS) {
        await page.keyboard.press('-');
        await page.waitForTimeout(150);
        break;
      }
    }
    const arrowsBefore = await arrowCount(page);
    const windowBefore = await windowShown(page);
    const box = (await frameBox.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);

    // Record every animation frame while the gestures run.
    await page.evaluate(() => {
      const w = window as unknown as { __benchDeltas: number[]; __benchStop: boolean };
      w.__benchDeltas = [];
      w.__benchStop = false;
      let last = -1;
      const frame = (t: number) => {
        if (last >= 0) w.__benchDeltas.push(t - last);
        last = t;
        if (!w.__benchStop) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const end = Date.now() + GESTURE_MS;
    let wheels = 0;
    let drags = 0;
    for (let round = 0; Date.now() < end; round++) {
      // Wheel: zoom in a little then back out, about the pointer.
      for (let k = 0; k < 6; k++) {
        await page.mouse.wheel(0, k < 3 ? -60 : 60);
        wheels++;
      }
      // Drag: pan down then up again.
      const dir = round % 2 === 0 ? 1 : -1;
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let k = 1; k <= 10; k++) await page.mouse.move(cx, cy + dir * k * 12);
      await page.mouse.up();
      await page.mouse.move(cx, cy);
      drags++;
    }
    const deltas = await page.evaluate(() => {
      const w = window as unknown as { __benchDeltas: number[]; __benchStop: boolean };
      w.__benchStop = true;
      return w.__benchDeltas;
    });
    await page.waitForTimeout(400);
    const arrowsAfter = await arrowCount(page);
    const f = stats(deltas);
    log(
      `pan and zoom with heartbeats shown: window ${windowBefore}, ${arrowsBefore} arrows in view before (${arrowsAfter} after); ${wheels} wheel steps and ${drags} drags over ${GESTURE_MS} ms`,
    );
    log(
      `space-time frame time: median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, max ${f.max.toFixed(1)} ms over ${f.n} frames (target p95 <= 16.7 ms)`,
    );
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  await withBuiltSite((browser, url) => benchSpacetime(browser, url));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
