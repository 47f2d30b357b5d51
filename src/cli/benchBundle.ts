/**
 * The page's initial JavaScript (issue 24, item 7): what a browser must fetch, parse and run
 * before it can draw the ring — the entry chunk and every chunk it imports statically (Vite
 * preloads exactly those, as `<link rel="modulepreload">` in index.html) — gzipped at level 9 as
 * Vite reports it, against the target of 150 KB (1 KB = 1000 bytes, Vite's unit). The chunks the
 * page imports on demand (the space-time view, experiments, exports, tours...) are listed apart.
 * Measured from a fresh `vite build --manifest` into a temporary folder, so dist/ is untouched.
 * Then, where Chromium is installed, the first paint of the ring: from navigation to the first
 * frame with the ring's nodes on it, median of fresh page loads (no cache).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildSite, CHROMIUM_ARGS, CHROMIUM_PATH, serveDir } from './staticSite';

export const INITIAL_JS_TARGET_KB = 150;

/** One chunk of Vite's build manifest (.vite/manifest.json), the fields read here. */
export interface ManifestChunk {
  readonly file: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}

export type Manifest = Readonly<Record<string, ManifestChunk>>;

/** The manifest keys of the entry and every chunk it reaches by static imports alone. */
export function initialChunkKeys(manifest: Manifest): Set<string> {
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const key = todo.pop() as string;
    if (seen.has(key) || !(key in manifest)) continue;
    seen.add(key);
    todo.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/** The chunks loaded on demand: reached through a dynamic import and not already in the initial set. */
export function lazyChunkKeys(manifest: Manifest): Set<string> {
  const initial = initialChunkKeys(manifest);
  const lazy = new Set<string>();
  const todo = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry);
  while (todo.length > 0) {
    const key = todo.pop() as string;
    if (initial.has(key) || lazy.has(key) || !(key in manifest)) continue;
    lazy.add(key);
    todo.push(...(manifest[key].imports ?? []));
  }
  return lazy;
}

export interface BundleSizes {
  /** Gzipped bytes of the initial chunks, together. */
  readonly initialGzip: number;
  readonly initialRaw: number;
  readonly initialFiles: readonly string[];
  /** Each on-demand chunk: its file, the module it was split at (if one), gzipped bytes. */
  readonly lazy: readonly { readonly file: string; readonly src: string | null; readonly gzip: number }[];
}

const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Sizes of a build in `dir` made with `--manifest`. Each chunk is gzipped alone, as it is sent. */
export function bundleSizes(dir: string): BundleSizes {
  const manifest = readManifest(dir);
  const initialKeys = [...initialChunkKeys(manifest)];
  const files = initialKeys.map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  let initialGzip = 0;
  let initialRaw = 0;
  for (const f of files) {
    const bytes = readFileSync(join(dir, f));
    initialRaw += bytes.length;
    initialGzip += gz(bytes);
  }
  const lazy = [...lazyChunkKeys(manifest)]
    .map((k) => manifest[k])
    .filter((c) => c.file.endsWith('.js'))
    .map((c) => ({ file: c.file, src: c.src ?? null, gzip: gz(readFileSync(join(dir, c.file))) }))
    .sort((a, b) => b.gzip - a.gzip);
  return { initialGzip, initialRaw, initialFiles: files, lazy };
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

/** The bench's lines for a build in `dir`; `met` says whether the initial JavaScript is under target. */
export function formatBundle(sizes: BundleSizes): { lines: string[]; met: boolean } {
  const met = sizes.initialGzip < INITIAL_JS_TARGET_KB * 1000;
  const lines = [
    `page initial JavaScript: ${kb(sizes.initialGzip)} KB gzipped (entry + static imports, ${sizes.initialFiles.length} ${
      sizes.initialFiles.length === 1 ? 'chunk' : 'chunks'
    }, ${kb(sizes.initialRaw)} KB minified), target < ${INITIAL_JS_TARGET_KB} KB: ${met ? 'ok' : 'BELOW TARGET'}`,
  ];
  if (sizes.lazy.length > 0) {
    const named = sizes.lazy.map((c) => `${c.src ? c.src.replace(/^src\//, '') : c.file.replace(/^assets\//, '')} ${kb(c.gzip)}`);
    lines.push(`  loaded on demand (KB gzipped): ${named.join(', ')}`);
  }
  return { lines, met };
}

/** Milliseconds from navigation to the first frame that shows the ring's nodes, and to Chromium's first contentful paint. */
export interface FirstPaint {
  readonly ringMs: number;
  readonly fcpMs: number;
}

// Installed before the page's own scripts: the first animation frame after a node of the ring
// is in the document is the frame that paints it.
const RING_PAINT_PROBE = `
  window.__ringPaint = new Promise((resolve) => {
    const seen = () => {
      if (!document.querySelector('[data-node-id]')) return false;
      requestAnimationFrame(() => resolve(performance.now()));
      return true;
    };
    const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
    observer.observe(document, { childList: true, subtree: true });
  });`;

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Loads the page `loads` times, each in a fresh context (a cold cache), and returns the medians. */
export async function measureFirstPaint(url: string, loads = 7): Promise<FirstPaint> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const ring: number[] = [];
    const fcp: number[] = [];
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await page.addInitScript(RING_PAINT_PROBE);
      await page.goto(url);
      const r = await page.evaluate(async () => {
        const at = await (window as unknown as { __ringPaint: Promise<number> }).__ringPaint;
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        return { ringMs: at, fcpMs: paint ? paint.startTime : NaN };
      });
      ring.push(r.ringMs);
      fcp.push(r.fcpMs);
      await context.close();
    }
    return { ringMs: middle(ring), fcpMs: middle(fcp) };
  } finally {
    await browser.close();
  }
}

/** The bench's section: builds, measures, prints; returns whether the size target is met. */
export async function benchBundle(out: (line: string) => void = console.log): Promise<{ met: boolean; sizes: BundleSizes }> {
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-bundle-'));
  try {
    buildSite(dir, ['--manifest']);
    const sizes = bundleSizes(dir);
    const { lines, met } = formatBundle(sizes);
    lines.forEach((line) => out(line));
    if (!existsSync(CHROMIUM_PATH)) {
      out(`first paint of the ring: skipped, no Chromium at ${CHROMIUM_PATH}`);
    } else {
      const server = await serveDir(dir);
      try {
        const loads = 7;
        const paint = await measureFirstPaint(server.url, loads);
        out(
          `first paint of the ring (1280x720, fresh page, local server): ${paint.ringMs.toFixed(0)} ms to the first frame with the ring's nodes, ` +
            `first contentful paint ${paint.fcpMs.toFixed(0)} ms (medians of ${loads} loads)`,
        );
      } finally {
        await server.close();
      }
    }
    return { met, sizes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { met } = await benchBundle((line) => process.stdout.write(line + '\n'));
  if (!met && process.argv.includes('--strict')) process.exitCode = 1;
}
