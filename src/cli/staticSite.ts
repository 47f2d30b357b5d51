/**
 * Build the site into a directory and serve it on 127.0.0.1 under a sub-path (so relative
 * asset paths are exercised), for the browser tests and the frame benchmark. No network beyond
 * the loopback server.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..', '..');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Runs `vite build` into `outDir` (with `extraArgs`, e.g. `--manifest`); throws with vite's output when it fails. */
export function buildSite(outDir: string, extraArgs: readonly string[] = []): void {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn', ...extraArgs], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
}

export interface StaticServer {
  /** Base URL ending in '/', under a sub-path. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `dir` at http://127.0.0.1:<random port>/<prefix>/ . */
export function serveDir(dir: string, prefix = '/some/deep/path/'): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolvePromise({
        url: `http://127.0.0.1:${port}${prefix}`,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

/** Builds the site into a temporary folder, serves it, launches Chromium, runs `work`, and cleans up (the benches). */
export async function withBuiltSite<T>(work: (browser: Browser, url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-bench-'));
  buildSite(dir);
  const server = await serveDir(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    return await work(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
