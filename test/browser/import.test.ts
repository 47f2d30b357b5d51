/**
 * Bring your own run (issue 27) in real Chromium: a Jepsen EDN history and an etcd raft trace
 * dropped on the page open in the importer (loaded only then), are checked in its worker, and
 * show the verdict, the sentence and the drawing: indeterminate operations as their own kind,
 * the minimal failing subset outlined, the state before and after on hover; the trace's lanes,
 * dropped messages and the violation's landmark with its Why.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, haveChromium, useBrowserSite, withPage } from './site';
import { syntheticRaftTrace } from '../../src/sim/import/synthetic';

const site = useBrowserSite();

async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: 'text/plain' }));
      document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [name, text] as const,
  );
}

const loaded = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));

// formats.md's example with times and a nemesis: 1 or 2 would be fine, 7 is not.
const HISTORY = `; a register that reads a value nobody wrote
[{:process :nemesis, :type :info, :f :start, :value nil, :time 500000}
 {:process 0, :type :invoke, :f :write, :value 1, :time 1000000}
 {:process 0, :type :ok,     :f :write, :value 1, :time 3000000}
 {:process 1, :type :invoke, :f :read,  :value nil, :time 4000000}
 {:process 2, :type :invoke, :f :cas,   :value [1 2], :time 5000000}
 {:process 1, :type :ok,     :f :read,  :value 7, :time 9000000}
 {:process 2, :type :info,   :f :cas,   :value [1 2], :time 12000000}]
`;

// Process 1 releases a lock process 0 holds, then acquires it: fine for Knossos's ownerless mutex, not with owners.
const MUTEX = `{:process 0, :type :invoke, :f :acquire, :value nil}
{:process 0, :type :ok, :f :acquire, :value nil}
{:process 1, :type :invoke, :f :release, :value nil}
{:process 1, :type :ok, :f :release, :value nil}
{:process 1, :type :invoke, :f :acquire, :value nil}
{:process 1, :type :ok, :f :acquire, :value nil}
`;

describe.skipIf(!haveChromium)("importing other tools' files", () => {
  it('a Jepsen history dropped on the page: the verdict, the sentence, the subset outlined, :info drawn as its own kind, hover shows the states', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url);
      await page.waitForSelector('[data-testid="clock"]');
      // The importer is not part of the page's first load.
      expect((await loaded(page)).some((u) => /ImportView|import\.worker/.test(u))).toBe(false);
      await dropFile(page, 'register.edn', HISTORY);
      const verdict = page.getByTestId('import-verdict');
      await verdict.waitFor({ timeout: 30_000 });
      expect(await verdict.getAttribute('data-result')).toBe('bad');
      expect(await verdict.textContent()).toContain('not linearizable');
      expect(await page.getByTestId('import-sentence').textContent()).toBe(
        'read of 7 at 9 ms: the register held 1 or 2 then; nobody wrote 7.',
      );
      expect(await page.getByTestId('import-prefix').textContent()).toContain('linearizable up to line');
      expect((await loaded(page)).some((u) => /ImportView/.test(u))).toBe(true);
      // The drawing: process lanes on the space-time view, the :info cas dashed (its own tone), the subset outlined in both views.
      await page.waitForSelector('.spacetime-ops rect');
      expect(await page.locator('.spacetime-headers text[data-lane="p1"]').count()).toBe(1);
      expect(await page.locator('.spacetime-ops rect[data-tone="info"]').count()).toBe(1);
      expect(await page.locator('.spacetime-ops rect[data-in-subset="true"]').count()).toBeGreaterThan(0);
      expect(await page.locator('.import-history rect[data-in-subset="true"]').count()).toBeGreaterThan(0);
      expect(await page.locator('.spacetime-marks [data-mark-kind="nemesis"]').count()).toBe(1);
      // Hover: the state before and after in the linearization found.
      await page.locator('.import-history rect[data-op-id="0"]').hover();
      expect(await page.getByTestId('import-hover').textContent()).toContain('in the linearization found: before nil, after 1');
      expect(await axeViolations(page)).toEqual([]);
      // A link cannot carry the file: the page says so and offers the exports.
      expect(await page.getByTestId('import-share').textContent()).toContain('A share link cannot carry this file');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Parsed file (JSON)' }).click();
      expect((await download).suggestedFilename()).toBe('register-parsed.json');
      // Back to the lab: the simulated run is still there.
      await page.getByRole('button', { name: '← Back to the lab' }).click();
      await page.waitForSelector('[data-testid="clock"]');
      // A file that does not say which model (acquire/release fit two mutexes): a picker, then the verdict names the one used.
      await dropFile(page, 'mutex.edn', MUTEX);
      await page.getByTestId('import-error').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('import-error').textContent()).toContain('fit two mutexes');
      await page.getByLabel("Lockstep's mutex with owners").check();
      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByTestId('import-verdict').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('import-verdict').getAttribute('data-result')).toBe('bad');
      expect(await page.getByTestId('import-verdict').textContent()).toContain("Lockstep's mutex with owners");
      // A file that is none of the formats, dropped over the import screen: one sentence naming the line, nothing loaded.
      await dropFile(page, 'notes.txt', 'hello\nworld\n');
      await page.getByTestId('import-error').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('import-error').textContent()).toMatch(/^line 1 \("hello"\) is none of the formats Lockstep reads/);
      expect(await page.getByTestId('import-name').textContent()).toBe('notes.txt');
      expect(errors).toEqual([]);
    });
  });

  it('an etcd raft trace opened with Import…: node lanes and messages, dropped sends, commits and the violation as a landmark with its Why', async () => {
    await withPage(site, async (page, errors) => {
      await page.goto(site.url);
      await page.waitForSelector('[data-testid="clock"]');
      // This time with Import… (the file picker) rather than a drop.
      await page.getByTestId('import-file').setInputFiles({
        name: 'raft.ndjson',
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(syntheticRaftTrace({ seed: 3, twoLeaders: true })),
      });
      const verdict = page.getByTestId('import-verdict');
      await verdict.waitFor({ timeout: 30_000 });
      expect(await verdict.getAttribute('data-result')).toBe('bad');
      expect(await verdict.textContent()).toContain('a Raft invariant is violated');
      const why = page.getByTestId('import-violations');
      expect(await why.locator('[data-invariant="one-leader-per-term"]').textContent()).toContain(
        'n1 (from line 13) and n3 (at line 98) both lead term 1',
      );
      // The drawing: one lane per node, arrows from send to receive, the lost ones dropped, commits and the violation marked.
      expect(await page.locator('.spacetime-headers text[data-lane]').allTextContents()).toEqual(['n1', 'n2', 'n3']);
      const fates = await page.locator('.spacetime-arrows line').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-fate')));
      expect(fates.filter((f) => f === 'delivered').length).toBeGreaterThan(20);
      expect(fates).toContain('loss');
      expect(await page.locator('.spacetime-marks [data-mark-kind="commit"]').count()).toBeGreaterThan(3);
      const landmark = page.locator('.spacetime-marks [data-mark-kind="violation"]');
      expect(await landmark.count()).toBeGreaterThan(0);
      expect(await landmark.first().getAttribute('aria-label')).toMatch(/both lead term 1|votes at most once/);
      expect(await axeViolations(page)).toEqual([]);
      // "Show" zooms the diagram to the violation.
      const before = await page.locator('.spacetime-window').textContent();
      await why
        .getByRole('button', { name: /Show line 98/ })
        .first()
        .click();
      await page.waitForFunction((b) => document.querySelector('.spacetime-window')?.textContent !== b, before);
      // The view as SVG (what a share link cannot carry): the file's title, the landmark and its key.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'View as SVG' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('raft-spacetime.svg');
      const svg = readFileSync((await file.path()) as string, 'utf8');
      expect(svg).toContain('<title>Lockstep: raft.ndjson (etcd raft&apos;s state trace (NDJSON))</title>');
      expect(svg).toContain('data-mark-kind="violation"');
      expect(errors).toEqual([]);
    });
  });
});
