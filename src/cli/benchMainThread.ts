/**
 * Main-thread cost of the page, as Chromium counts it (CDP Performance.getMetrics TaskDuration:
 * script, style, layout, paint and the rest of the renderer's main thread), per second of wall
 * time: the default page (5 nodes, clients A and B) playing at the default speed, then paused,
 * at 1280×800, and the same playing run in presenter mode at 1280×720. Issue 13's target: at most
 * 180 ms/s playing, about 0 paused.
 */
import type { Browser, Page } from 'playwright-core';
import { cpuTimes, describeLoad } from './hostLoad';

const MEASURE_MS = 5000;

type Session = Awaited<ReturnType<ReturnType<Page['context']>['newCDPSession']>>;

async function seconds(session: Session): Promise<{ task: number; thread: number }> {
  const { metrics } = await session.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { task: value('TaskDuration'), thread: value('ThreadTime') };
}

/**
 * ms of main-thread task time per wall-clock second over MEASURE_MS, and the CPU time the main
 * thread was actually given (ThreadTime): on a shared, loaded machine task time also counts the
 * time a task waited for a core, so the two side by side say how much of a figure is the load.
 */
async function costPerSecond(page: Page, session: Session): Promise<{ task: number; thread: number }> {
  const before = await seconds(session);
  const start = Date.now();
  await page.waitForTimeout(MEASURE_MS);
  const after = await seconds(session);
  const wall = (Date.now() - start) / 1000;
  return { task: ((after.task - before.task) * 1000) / wall, thread: ((after.thread - before.thread) * 1000) / wall };
}

interface Cost {
  readonly playing: number;
  readonly paused: number;
  readonly playingCpu: number;
}

async function measure(browser: Browser, url: string, viewport: { width: number; height: number }, query: string): Promise<Cost> {
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
    return { playing: playing.task, paused: paused.task, playingCpu: playing.thread };
  } finally {
    await page.close();
  }
}

export async function benchMainThread(browser: Browser, url: string): Promise<void> {
  const before = cpuTimes();
  const plain = await measure(browser, url, { width: 1280, height: 800 }, 'v=1&seed=42&clients=AB&t=0');
  console.log(
    `main thread, default page (5 nodes, clients A and B) at 1280x800: playing ${plain.playing.toFixed(0)} ms/s, paused ${plain.paused.toFixed(0)} ms/s (target <= 180 ms/s playing)`,
  );
  const present = await measure(browser, url, { width: 1280, height: 720 }, 'v=1&seed=42&clients=AB&t=0&present=1');
  console.log(
    `main thread, presenter mode at 1280x720: playing ${present.playing.toFixed(0)} ms/s, paused ${present.paused.toFixed(0)} ms/s`,
  );
  console.log(
    `main thread CPU time while playing (ThreadTime; task time minus waiting for a core): default page ${plain.playingCpu.toFixed(0)} ms/s, presenter ${present.playingCpu.toFixed(0)} ms/s`,
  );
  console.log(describeLoad(before, cpuTimes()));
}
