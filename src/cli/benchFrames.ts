/**
 * `npm run bench:ui`: frame times of the built page in real Chromium with 9 nodes, 4 clients and
 * ~200 messages in flight (long latencies and a fast heartbeat keep the network full). Reports
 * the median and 95th percentile of requestAnimationFrame deltas, messages in flight, and how
 * many node glyph elements were replaced while measuring (0: the SVG is updated, not rebuilt);
 * then the same run in presenter mode at a projector's 1280×720. Then the space-time view's
 * numbers at 1280×720 (benchSpacetime.ts): opening it on a 10-minute run, and frame times while
 * panning and zooming with 2,000 arrows in view; then the main thread's cost (benchMainThread.ts).
 */
import { DEFAULT_CONFIG, nodeIdsFor } from '../sim/model/config';
import { parseSchedule } from '../sim/model/schedule';
import { encodeLink } from '../share/link';
import { benchMainThread } from './benchMainThread';
import { cpuTimes, describeLoad } from './hostLoad';
import { benchSpacetime } from './benchSpacetime';
import { withBuiltSite } from './staticSite';
import type { Browser } from 'playwright-core';

const MEASURE_MS = 5000;
const CLIENT_LOOP = ['A', 'B', 'C', 'D']
  .flatMap((c, i) =>
    Array.from({ length: 20 }, (_, k) => [
      `@${1500 + k * 1000 + i * 100} client ${c} acquire lock${i} 400`,
      `@${1700 + k * 1000 + i * 100} client ${c} write k${i}=v${k}`,
    ]).flat(),
  )
  .join('; ');

/** A tour's beat to measure instead of the 9-node run: opened at the end of the beat before it, then Next plays it. */
interface TourBeat {
  readonly name: string;
  readonly beat: number;
}

/**
 * Plays the 9-node run at `viewport` (presenter mode with `present`) and prints its frame times;
 * with `tour`, plays that tour's beat (Next, with its slow motion) instead (issue 25: tours keep
 * frame p95 within one 60 Hz frame too).
 */
async function measureFrames(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
  present: boolean,
  tour?: TourBeat,
): Promise<void> {
  const page = await browser.newPage({ viewport });
  // tsx keeps function names with a helper the page does not have.
  await page.addInitScript('window.__name = (f) => f;');
  const config = {
    ...DEFAULT_CONFIG,
    nodeIds: nodeIdsFor(9),
    clientIds: ['A', 'B', 'C', 'D'],
    latencyMs: [200, 400] as const,
    heartbeatMs: 20,
    electionTimeoutMs: [1000, 2000] as const,
  };
  // A share link lands paused at its time; the benchmark then plays it at 1x.
  const query = encodeLink({ config, schedule: parseSchedule(CLIENT_LOOP), atMs: 3000, speed: 1 });
  if (tour) {
    await page.goto(`${url}?v=1&seed=42&tour=${tour.name}&beat=${tour.beat - 1}${present ? '&present=1' : ''}`);
    await page.waitForSelector('[data-node-id]');
    await page.getByRole('button', { name: /^Next/ }).first().click();
  } else {
    await page.goto(`${url}?${query}${present ? '&present=1' : ''}`);
    await page.waitForSelector('[data-node-id]');
    if (!process.env.BENCH_PAUSED) await page.getByRole('button', { name: /Play/ }).click();
    await page.waitForSelector('[data-role="leader"][data-alive="true"]', { timeout: 20_000 });
    await page.waitForTimeout(500);
  }
  const loadBefore = cpuTimes();
  const result = await page.evaluate(async (ms) => {
    const lab = (window as unknown as { lockstep: { store: { getState(): { frame: { snapshot: { messages: unknown[] } | null } } } } })
      .lockstep;
    let replaced = 0;
    const observer = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof Element && n.matches('[data-node-id]')) replaced++;
    });
    observer.observe(document.querySelector('svg.diagram') as Element, { childList: true, subtree: true });
    const deltas: number[] = [];
    const inflight: number[] = [];
    await new Promise<void>((done) => {
      const start = performance.now();
      let last = start;
      const frame = (t: number) => {
        deltas.push(t - last);
        last = t;
        inflight.push(lab.store.getState().frame.snapshot?.messages.length ?? 0);
        if (t - start < ms) requestAnimationFrame(frame);
        else done();
      };
      requestAnimationFrame(frame);
    });
    observer.disconnect();
    return { deltas: deltas.slice(1), inflight, replaced };
  }, MEASURE_MS);
  const loadAfter = cpuTimes();
  const sorted = [...result.deltas].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const meanInflight = result.inflight.reduce((a, b) => a + b, 0) / Math.max(1, result.inflight.length);
  // A 60 Hz display's frames come 16.7 ms apart: a longer gap is that many frames missed.
  const missed = result.deltas.reduce((n, d) => n + Math.max(0, Math.round(d / (1000 / 60)) - 1), 0);
  console.log(
    `${present ? 'presenter mode, ' : ''}${tour ? `tour ${tour.name}, beat ${tour.beat} playing, ` : ''}frames measured: ${sorted.length} over ${MEASURE_MS} ms (${viewport.width}x${viewport.height}, ${tour ? "the tour's cluster" : '9 nodes, 4 clients'})`,
  );
  console.log(
    `messages in flight: mean ${meanInflight.toFixed(0)}, min ${Math.min(...result.inflight)}, max ${Math.max(...result.inflight)}`,
  );
  console.log(
    `frame time: median ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms; ${missed} of ${Math.round(MEASURE_MS / (1000 / 60))} frames missed (target p95 <= 16.7 ms, one 60 Hz frame)`,
  );
  console.log(describeLoad(loadBefore, loadAfter));
  console.log(`node glyph elements replaced while measuring: ${result.replaced}`);
  await page.close();
}

async function main(): Promise<void> {
  await withBuiltSite(async (browser, url) => {
    await measureFrames(browser, url, { width: 1920, height: 1080 }, false);
    await measureFrames(browser, url, { width: 1280, height: 720 }, true);
    // A tour's key beat (A's stale write reaching the stores, in slow motion), on the page and projected.
    await measureFrames(browser, url, { width: 1280, height: 720 }, false, { name: 'fencing', beat: 5 });
    await measureFrames(browser, url, { width: 1280, height: 720 }, true, { name: 'fencing', beat: 5 });
    await benchSpacetime(browser, url);
    await benchMainThread(browser, url);
  });
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
