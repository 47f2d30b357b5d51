/**
 * The space-time view in Chromium at 1280×720: the fencing figure's lanes and store verdicts,
 * click-to-seek and click-an-arrow, the exports made from the run (the trace file byte for byte
 * against the CLI), the view switch and its link, axe in light and dark, and screenshots of the
 * chapter and fencing presets in split and space-time view (test-results/browser/).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Download, type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, useBrowserSite } from './site';
import { runSimCli } from '../../src/cli/simCli';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink, type LinkView } from '../../src/share/link';
import { historyJson } from '../../src/sim/model/history';
import { checkHistory } from '../../src/sim/check/linearizability/check';
import { Simulation } from '../../src/sim/run/simulation';
import { shownSubset } from '../../src/ui/panels/historyLanes';

const fencing = findPreset('fencing')!;

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');
const VIEWPORT = { width: 1280, height: 720 } as const;

const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

/** A preset's run as a link, paused at `atMs`, in `view` if given (else the ring, where every preset opens since issue 25). */
function presetLink(name: string, atMs: number, view?: LinkView): string {
  const preset = findPreset(name)!;
  return encodeLink({ config: preset.config, schedule: parseSchedule(preset.schedule), atMs, ...(view ? { view } : {}) });
}

async function open(
  query: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const page = await site.browser.newPage({
    viewport: options.viewport ?? VIEWPORT,
    colorScheme: options.colorScheme ?? 'light',
    acceptDownloads: true,
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${site.url}?${query}`);
  await page.getByTestId('clock').waitFor();
  return page;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);

/** Waits until the space-time view shows the trace: its DOM arrows are in place. */
async function spacetimeReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="spacetime"] .spacetime-arrows')?.getAttribute('data-count') ?? 0) > 0,
    undefined,
    { timeout: 20_000 },
  );
}

/** "1,074 ms" or "13.6 s" as ms. */
function parseTime(text: string): number {
  const m = /^\s*([\d,.]+)\s*(ms|s)\s*$/.exec(text);
  if (!m) throw new Error(`not a time: "${text}"`);
  const value = Number(m[1].replace(/,/g, ''));
  return m[2] === 's' ? value * 1000 : value;
}

/** The window the view shows, read from its accessible name ("Space-time diagram, 0 ms to 3,000 ms: …"). */
async function shownWindow(page: Page): Promise<[number, number]> {
  const label = (await page.getByTestId('spacetime').getAttribute('aria-label')) ?? '';
  const m = /^Space-time diagram, (.+?) to (.+?): /.exec(label);
  if (!m) throw new Error(`no window in "${label}"`);
  return [parseTime(m[1]), parseTime(m[2])];
}

async function exportItem(page: Page, name: string): Promise<Download> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByTestId('export-menu').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return download;
}

const readDownload = async (download: Download) => readFileSync((await download.path())!);

async function axeSerious(page: Page): Promise<string[]> {
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { html: string }[] }[] }> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  // flows.test.ts holds the page to no serious or critical violations; so does this view.
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.html)
          .slice(0, 2)
          .join(' ; ')}`,
    );
}

describe.skipIf(!haveChromium)('the space-time view in a real browser', () => {
  it("opens the fencing preset beside the ring, with the figure's lanes and the stale token-1 write refused after token 2", async () => {
    const page = await open(presetLink('fencing', 15_000, 'split'));
    await expect.poll(() => nowMs(page)).toBe(15_000);
    await spacetimeReady(page);
    // Split view: the ring and the space-time view, both on screen.
    expect(await page.getByRole('radio', { name: 'Ring + time' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('spacetime').isVisible()).toBe(true);
    expect(await page.locator('svg.diagram').isVisible()).toBe(true);

    const lanes = await page
      .locator('[data-testid="spacetime"] .spacetime-headers text[data-lane]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-lane')));
    expect(lanes).toEqual(['A', 'service', 'B', 'fenced']);
    const label = (await page.getByTestId('spacetime').getAttribute('aria-label')) ?? '';
    expect(label).toContain('lanes client A, lease service, client B, fenced store');

    const mark = (accepted: boolean, token: number) =>
      page.locator(`[data-testid="spacetime"] circle[data-store="fenced"][data-accepted="${accepted}"][data-token="${token}"]`);
    await expect.poll(() => mark(false, 1).count()).toBe(1);
    expect(await mark(true, 2).count()).toBe(1);
    const refused = { y: Number(await mark(false, 1).getAttribute('cy')), label: (await mark(false, 1).getAttribute('aria-label')) ?? '' };
    const accepted = { y: Number(await mark(true, 2).getAttribute('cy')), label: (await mark(true, 2).getAttribute('aria-label')) ?? '' };
    const timeIn = (text: string) => parseTime(/ at ([\d,]+ ms):/.exec(text)![1]);
    expect(refused.label).toMatch(/write from A, token 1 < 2 refused/);
    expect(accepted.label).toMatch(/write from B, token 2 ok/);
    // Later in time, and lower on the page (time runs down).
    expect(timeIn(refused.label)).toBeGreaterThan(timeIn(accepted.label));
    expect(refused.y).toBeGreaterThan(accepted.y);
    // The writes' arrows agree: A's token-1 write to the fenced store was sent after B's token-2 write.
    const writes = await page.locator('[data-testid="spacetime"] line[data-msg-type="StoreWrite"][data-to="fenced"]').evaluateAll((els) =>
      els.map((e) => ({
        from: e.getAttribute('data-from'),
        sentAt: Number(e.getAttribute('data-sent-at')),
        label: e.getAttribute('aria-label') ?? '',
      })),
    );
    const bWrite = writes.find((w) => w.from === 'B' && /token 2/.test(w.label))!;
    const aLate = writes.find((w) => w.from === 'A' && /token 1/.test(w.label) && w.sentAt > bWrite.sentAt);
    expect(aLate).toBeDefined();

    // The clients' history beside their lanes: the unfenced store's minimal subset outlined,
    // the stale token-1 write and B's grant among it; a click on a bar seeks to its answer.
    const sim = new Simulation(fencing.config, parseSchedule(fencing.schedule));
    sim.advanceTo(15_000);
    const ops = historyJson(sim.lockService!.history.ops);
    const subset = new Set(shownSubset(checkHistory(ops)));
    const bars = page.locator('[data-testid="spacetime"] .spacetime-ops rect');
    await expect.poll(() => bars.count()).toBeGreaterThan(0);
    const outlined = await page
      .locator('[data-testid="spacetime"] .spacetime-ops rect[data-in-subset="true"]')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-op-id'))));
    expect(outlined.length).toBeGreaterThan(0);
    expect(outlined.every((id) => subset.has(id))).toBe(true);
    const stale = ops.find(
      (o) => o.client === 'A' && o.op === 'write' && o.token === 1 && o.store === 'unfenced' && o.value === 'A-second',
    )!;
    const grant = ops.find((o) => o.client === 'B' && o.op === 'acquire' && o.result === 'granted')!;
    expect(outlined).toContain(stale.id);
    expect(outlined).toContain(grant.id);
    const grantBar = page.locator(`[data-testid="spacetime"] .spacetime-ops rect[data-op-id="${grant.id}"]`);
    expect(await grantBar.getAttribute('aria-label')).toContain('B acquire job:42 → granted 2');
    await grantBar.click();
    await expect.poll(() => nowMs(page)).toBe(grant.completeMs);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('a click on empty space seeks to the time under it; a click on an arrow seeks to its send and opens Why', async () => {
    const page = await open('v=1&seed=42&clients=AB&t=3000&view=time');
    await expect.poll(() => nowMs(page)).toBe(3000);
    await spacetimeReady(page);
    const [t0, t1] = await shownWindow(page);
    expect(t1).toBeGreaterThan(t0);

    // Right of the last lane nothing is drawn: a click there is a click on empty space.
    const svg = (await page.locator('[data-testid="spacetime"] svg.spacetime-overlay').boundingBox())!;
    const plot = (await page.getByTestId('spacetime-plot').boundingBox())!;
    const laneXs = await page
      .locator('[data-testid="spacetime"] .spacetime-headers text[data-lane]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('x'))));
    const lastLane = Math.max(...laneXs);
    const x = svg.x + (lastLane + svg.width) / 2;
    expect(x - svg.x - lastLane).toBeGreaterThan(12);
    const fraction = 0.4;
    const y = plot.y + plot.height * fraction;
    const expected = t0 + (t1 - t0) * fraction;
    await page.mouse.click(x, y);
    await expect.poll(() => nowMs(page)).not.toBe(3000);
    const seeked = await nowMs(page);
    expect(seeked).toBeGreaterThanOrEqual(t0);
    expect(seeked).toBeLessThanOrEqual(t1);
    // The window in the label is rounded to the ms (or to 0.1 s for long windows).
    expect(Math.abs(seeked - expected)).toBeLessThanOrEqual(Math.max(2, (t1 - t0) * 0.01));
    expect(await page.getByRole('button', { name: /Play/ }).count()).toBe(1); // still paused

    // An arrow: the DOM line is invisible (the canvas draws it), so dispatch the click on it.
    const vote = page.locator('[data-testid="spacetime"] line[data-msg-type="RequestVote"]').first();
    const sentAt = Number(await vote.getAttribute('data-sent-at'));
    expect(sentAt).not.toBe(seeked);
    await vote.dispatchEvent('click');
    const panel = page.getByTestId('why-panel');
    await panel.waitFor();
    await expect.poll(() => panel.getByRole('heading').textContent()).toMatch(/^RequestVote /);
    await expect.poll(() => nowMs(page)).toBe(sentAt);
    await page.screenshot({ path: join(SHOTS, 'spacetime-why-requestvote.png') });
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("exports the run: the trace file is the CLI's bytes for the page's link; ShiViz and Markdown logs read right", async () => {
    const atMs = 2253;
    const page = await open(presetLink('chapter', atMs, 'split'));
    await expect.poll(() => nowMs(page)).toBe(atMs);
    await spacetimeReady(page);

    const trace = await exportItem(page, 'Trace (JSON)');
    expect(trace.suggestedFilename()).toBe(`lockstep-seed42-t${atMs}ms-trace.json`);
    const bytes = await readDownload(trace);
    const link = page.url();
    expect(link).toContain(`t=${atMs}`);
    const cli = runSimCli(['--link', link, '--trace', 'x.json']);
    expect(cli.code).toBe(0);
    expect(cli.files?.[0].path).toBe('x.json');
    expect(bytes.equals(Buffer.from(cli.files![0].text, 'utf8'))).toBe(true);
    const parsed = JSON.parse(bytes.toString('utf8')) as { format: string; run: { untilMs: number } };
    expect(parsed.format).toBe('lockstep-trace');
    expect(parsed.run.untilMs).toBe(atMs);

    const shiviz = (await readDownload(await exportItem(page, 'ShiViz log'))).toString('utf8');
    expect(shiviz.split('\n')[0]).toBe('(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)');
    expect(shiviz.split('\n')[1]).toBe('');
    expect(shiviz.split('\n')[2]).toMatch(/^\S+ \{.*\}$/);

    const markdown = (await readDownload(await exportItem(page, 'Event log (Markdown)'))).toString('utf8');
    const lines = markdown.split('\n');
    expect(lines[0]).toBe(`# Lockstep event log: seed 42, until ${atMs} ms`);
    expect(lines).toContain('| t (ms) | kind | subjects | event |');
    expect(lines[lines.indexOf('| t (ms) | kind | subjects | event |') + 1]).toBe('| ---: | --- | --- | --- |');
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("exports the space-time diagram as shown: an SVG that parses, with the figure's lanes, arrows, title and legend, and a PNG", async () => {
    const page = await open(presetLink('chapter', 2253, 'split'));
    await expect.poll(() => nowMs(page)).toBe(2253);
    await spacetimeReady(page);
    const download = await exportItem(page, 'Space-time diagram (SVG)');
    expect(download.suggestedFilename()).toBe('lockstep-seed42-t2253ms-spacetime.svg');
    const svg = (await readDownload(download)).toString('utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '');
      return {
        error: doc.querySelector('parsererror') !== null,
        root: doc.documentElement.nodeName,
        texts,
        shapes: doc.querySelectorAll('line, path').length,
      };
    }, svg);
    expect(parsed.error).toBe(false);
    expect(parsed.root).toBe('svg');
    // The chapter figure's lanes, in its order, its window in the title, and a legend.
    const headers = parsed.texts.filter((t) => /^n\d$/.test(t));
    expect(headers.slice(0, 4)).toEqual(['n2', 'n1', 'n3', 'n5']);
    expect(parsed.texts.some((t) => t.includes('seed 42') && t.includes('1,110 ms'))).toBe(true);
    expect(parsed.texts).toContain('RequestVote');
    expect(parsed.shapes).toBeGreaterThan(20);
    const png = await readDownload(await exportItem(page, 'Space-time diagram (PNG)'));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(10_000);
    await page.close();
  });

  it('the view switch shows Ring, Ring + time and Space-time; the link keeps the choice across a reload', async () => {
    const page = await open('v=1&seed=42&clients=AB&t=1000');
    await expect.poll(() => nowMs(page)).toBe(1000);
    const radio = (name: string) => page.getByRole('radio', { name, exact: true });
    const shown = async () => ({ ring: await page.locator('svg.diagram').count(), time: await page.getByTestId('spacetime').count() });
    // A run with no figure opens on the ring, and its link names no view.
    expect(await radio('Ring').getAttribute('aria-checked')).toBe('true');
    expect(await shown()).toEqual({ ring: 1, time: 0 });
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();

    await radio('Ring + time').click();
    await expect.poll(shown).toEqual({ ring: 1, time: 1 });
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('split');

    await radio('Space-time').click();
    await expect.poll(shown).toEqual({ ring: 0, time: 1 });
    expect(await radio('Space-time').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('time');
    await spacetimeReady(page);

    await page.reload();
    await page.getByTestId('clock').waitFor();
    await expect.poll(() => nowMs(page)).toBe(1000);
    await expect.poll(shown).toEqual({ ring: 0, time: 1 });
    expect(await radio('Space-time').getAttribute('aria-checked')).toBe('true');
    await spacetimeReady(page);
    expect(new URL(page.url()).searchParams.get('view')).toBe('time');

    // Arrow keys move within the radio group too.
    await radio('Space-time').focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => radio('Ring + time').getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shown).toEqual({ ring: 1, time: 0 });
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBeNull();
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('has no serious or critical axe violations in Space-time view, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open(presetLink('chapter', 1800, 'time'), { colorScheme });
      await expect.poll(() => nowMs(page)).toBe(1800);
      await spacetimeReady(page);
      await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
      expect(await axeSerious(page), colorScheme).toEqual([]);
      // The lane picker open, too.
      await page.locator('[data-testid="spacetime"] .spacetime-lanes summary').click();
      expect(await axeSerious(page), `${colorScheme}, lanes open`).toEqual([]);
      await page.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it('takes screenshots of the chapter and fencing figures in split and space-time view', async () => {
    const shots: [string, number][] = [
      ['chapter', 1400],
      ['fencing', 15_000],
    ];
    for (const viewport of [VIEWPORT, { width: 1920, height: 1080 }]) {
      for (const [name, atMs] of shots) {
        for (const view of ['split', 'time'] as const) {
          const page = await open(presetLink(name, atMs, view), { viewport });
          await expect.poll(() => nowMs(page)).toBe(atMs);
          await spacetimeReady(page);
          // The canvas paints on the next animation frame.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await page.screenshot({ path: join(SHOTS, `spacetime-${name}-${view}-${viewport.width}x${viewport.height}.png`) });
          await page.close();
        }
      }
    }
    expect(pageErrors).toEqual([]);
  }, 180_000); // eight page loads on a shared machine
});
