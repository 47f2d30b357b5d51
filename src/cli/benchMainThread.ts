/**
 * Main-thread cost of the page, as Chromium counts it (CDP Performance.getMetrics TaskDuration:
 * script, style, layout, paint and the rest of the renderer's main thread), per second of wall
 * time: the default page (5 nodes, clients A and B) playing at the default speed, then paused,
 * at 1280×800, and the same playing run in presenter mode at 1280×720. Issue 13's target: at most
 * 180 ms/s playing, about 0 paused.
 */
import type { Browser, Page } from 'playwright-core';

const MEASURE_MS = 5000;

type Session = Awaited<ReturnType<ReturnType<Page['context']>['newCDPSession']>>;

async function taskSeconds(session: Session): Promise<number> {
  const { metrics } = await session.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

/** ms of main-thread task time per wall-clock second over MEASURE_MS. */
async function costPerSecond(page: Page, session: Session): Promise<number> {
  const before = await taskSeconds(session);
  const start = Date.now();
  await page.waitForTimeout(MEASURE_MS);
  const after = await taskSeconds(session);
  return ((after - before) * 1000) / ((Date.now() - start) / 1000);
}

async function measure(browser: Browser, url: string, viewport: { width: number; height: number }, query: string): Promise<{ playing: number; paused: number }> {
  const page = await browser.newPage({ viewport });
  try {
    const session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');
    await page.goto(`${url}?${query}`);
    await page.waitForSelector('[data-node-id]');
    const play = page.getByRole('button', { name: /Play/ }).first();
    await play.click();
    await page.waitForTimeout(1000);
    const playing = await costPerSecond(page, session);
    await page.keyboard.press('Space');
    await page.waitForTimeout(500);
    const paused = await costPerSecond(page, session);
    return { playing, paused };
  } finally {
    await page.close();
  }
}

export async function benchMainThread(browser: Browser, url: string): Promise<void> {
  const plain = await measure(browser, url, { width: 1280, height: 800 }, 'v=1&seed=42&clients=AB&t=0');
  console.log(`main thread, default page (5 nodes, clients A and B) at 1280x800: playing ${plain.playing.toFixed(0)} ms/s, paused ${plain.paused.toFixed(0)} ms/s (target <= 180 ms/s playing)`);
  const present = await measure(browser, url, { width: 1280, height: 720 }, 'v=1&seed=42&clients=AB&t=0&present=1');
  console.log(`main thread, presenter mode at 1280x720: playing ${present.playing.toFixed(0)} ms/s, paused ${present.paused.toFixed(0)} ms/s`);
}
