import { chromium } from 'playwright-core';
import { buildSite, CHROMIUM_ARGS, CHROMIUM_PATH, serveDir } from './src/cli/staticSite';
const dir = '/tmp/site28';
if (!process.env.NOBUILD) buildSite(dir);
const server = await serveDir(dir);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const shots: [string, string, number][] = JSON.parse(process.argv[2]);
for (const [name, q, w] of shots) {
  const page = await browser.newPage({ viewport: { width: w, height: w === 1280 ? 720 : 1080 } });
  await page.goto(`${server.url}?${q}`);
  await page.waitForSelector('[data-node-id]');
  await page.getByLabel('slow motion').uncheck().catch(() => {});
  await page.waitForTimeout(6000);
  await page.screenshot({ path: `/tmp/shots28/${name}.png` });
  await page.close();
}
await browser.close(); await server.close();
