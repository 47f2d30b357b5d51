/**
 * Real-browser flows against the built site (vite build into a temp dir, served from a
 * sub-path on 127.0.0.1) in Debian's chromium. Screenshots go to test-results/browser/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { asReturningVisit, haveChromium, useBrowserSite } from './site';
import { findPreset } from '../../src/sim/run/presets';
import { formatAction, parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';
import { takeRunView } from '../../src/sim/view/runView';
import { Timeline } from '../../src/sim/run/timeline';
import { diagramLayout, lerp, messageLane, VIEW_H, VIEW_W } from '../../src/paint/layout';
import { progressOf } from '../../src/paint/messageCanvas';

/** The default run (seed 42, clients A and B) as a link: it lands paused at 0. */
const DEFAULT_LINK = 'v=1&seed=42&clients=AB&t=0';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'browser');

const site = useBrowserSite();
const pageErrors: string[] = [];
beforeAll(() => {
  if (haveChromium) mkdirSync(SHOTS, { recursive: true });
});

async function open(query = '', viewport = { width: 1280, height: 720 }, ready = '[data-node-id]'): Promise<Page> {
  const page = await site.browser.newPage({ viewport });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  // A returning visit: the default page is Free play (a first visit's "Start here" is in class.test.ts).
  await asReturningVisit(page);
  await page.goto(site.url + query);
  await page.waitForSelector(ready);
  return page;
}

const liveLeader = (page: Page) =>
  page.evaluate(() => document.querySelector('[data-role="leader"][data-alive="true"]')?.getAttribute('data-node-id') ?? null);

async function waitForLeader(page: Page, not: string | null = null): Promise<string> {
  await page.waitForFunction(
    (old) => {
      const el = document.querySelector('[data-role="leader"][data-alive="true"]');
      return el !== null && el.getAttribute('data-node-id') !== old;
    },
    not,
    { timeout: 15_000 },
  );
  return (await liveLeader(page)) as string;
}

const nowMs = (page: Page) => page.getByTestId('clock').getAttribute('data-now').then(Number);

async function goTo(page: Page, ms: number) {
  await page.getByLabel('Go to ms').fill(String(ms));
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="clock"]')?.getAttribute('data-now') === String(t), ms);
}

describe.skipIf(!haveChromium)('in a real browser', () => {
  it('opens the default run playing, and a leader appears', async () => {
    const page = await open();
    const leader = await waitForLeader(page);
    expect(leader).toBe('n2'); // seed 42: n2 wins term 1 at 168 ms
    expect(await page.locator('[data-node-id]').count()).toBe(5);
    expect(await page.locator('.client').count()).toBe(2);
    await expect.poll(() => page.getByTestId('event-log').locator('li').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('event-log').locator('li').first().textContent()).toBe(
      't=  156 ms n2 election timeout, candidate in term 1',
    );
    expect(await page.getByRole('button', { name: 'n2, leader, term 1' }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, '01-default-leader.png') });
    await page.close();
  });

  it('draws messages in flight and the election timers on the canvas under the diagram (painted by its worker)', async () => {
    // Paused at 170 ms: n2 has just won and its first heartbeats are on their way to n1, n3, n4, n5.
    const page = await open('?v=1&seed=42&clients=AB&t=170');
    await expect.poll(() => page.locator('[data-role="leader"]').count()).toBe(1);
    const inflight = await page.evaluate(
      () =>
        (
          window as unknown as { lockstep: { store: { getState(): { frame: { snapshot: { messages: unknown[] } | null } } } } }
        ).lockstep.store.getState().frame.snapshot?.messages.length ?? 0,
    );
    expect(inflight).toBeGreaterThan(0);
    // The canvas belongs to the paint worker (the page cannot read it back): what it adds is the
    // difference between the frame with the canvas shown and hidden.
    const frame = page.locator('.diagram-frame');
    const canvas = page.getByTestId('messages-canvas');
    const shot = async (visibility: string) => {
      await canvas.evaluate((c, v) => ((c as HTMLElement).style.visibility = v), visibility);
      return frame.screenshot();
    };
    await expect.poll(async () => (await shot('visible')).equals(await shot('hidden'))).toBe(false);
    // Two paused screenshots of the same moment are the same picture: the difference is the canvas.
    expect((await shot('visible')).equals(await shot('visible'))).toBe(true);
    // The canvas covers only what messages and timers reach, and paints each message where its
    // lane says: a few pixels around one differ with the canvas shown, the empty ring's centre does not.
    const frameBox = (await frame.boundingBox())!;
    const canvasBox = (await canvas.boundingBox())!;
    expect(canvasBox.width * canvasBox.height).toBeLessThan(0.85 * frameBox.width * frameBox.height);
    const { messages, clockMs } = await page.evaluate(() => {
      const state = (
        window as unknown as {
          lockstep: {
            store: {
              getState(): {
                frame: {
                  snapshot: {
                    messages: { src: string; dst: string; sentAt: number; deliverAt: number; lost: boolean }[];
                    nodes: { id: string }[];
                  } | null;
                  clockMs: number;
                };
              };
            };
          };
        }
      ).lockstep.store.getState();
      return { messages: state.frame.snapshot!.messages, clockMs: state.frame.clockMs };
    });
    const layout = diagramLayout(['n1', 'n2', 'n3', 'n4', 'n5'], ['A', 'B'], true);
    const svgBox = (await page.locator('svg.diagram').boundingBox())!;
    const scale = Math.min(svgBox.width / VIEW_W, svgBox.height / VIEW_H);
    const onScreen = (p: { x: number; y: number }) => ({
      x: svgBox.x + (svgBox.width - VIEW_W * scale) / 2 + p.x * scale,
      y: svgBox.y + (svgBox.height - VIEW_H * scale) / 2 + p.y * scale,
    });
    const around = async (p: { x: number; y: number }, visibility: string) => {
      await canvas.evaluate((c, v) => ((c as HTMLElement).style.visibility = v), visibility);
      return page.screenshot({ clip: { x: p.x - 3, y: p.y - 3, width: 6, height: 6 } });
    };
    const flying = messages.find((m) => m.src === 'n2' && m.dst === 'n1' && !m.lost)!;
    const lane = messageLane(layout, flying.src, flying.dst)!;
    const at = onScreen(lerp(lane.from, lane.to, progressOf(flying, clockMs)));
    expect((await around(at, 'visible')).equals(await around(at, 'hidden'))).toBe(false);
    const centre = onScreen({ x: 470, y: 292 });
    expect((await around(centre, 'visible')).equals(await around(centre, 'hidden'))).toBe(true);
    await page.close();
  });

  it('crashing the leader by clicking it brings a new leader', async () => {
    const page = await open(`?${DEFAULT_LINK}&speed=1`);
    await page.getByRole('button', { name: /Play/ }).click();
    const old = await waitForLeader(page);
    await page.locator(`[data-node-id="${old}"] .node-shape`).click(); // the shape is still; the timer arc is not
    await expect.poll(() => page.locator(`[data-node-id="${old}"]`).getAttribute('data-alive')).toBe('false');
    await page.screenshot({ path: join(SHOTS, '02a-leader-crashed.png') });
    const next = await waitForLeader(page, old);
    expect(next).not.toBe(old);
    expect(Number(await page.locator(`[data-node-id="${next}"]`).getAttribute('data-term'))).toBeGreaterThan(1);
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.screenshot({ path: join(SHOTS, '02b-new-leader.png') });
    await page.close();
  });

  it('a partition isolating the leader leaves the minority unable to commit', async () => {
    const page = await open(`?${DEFAULT_LINK}`);
    // The link lands at 0, which is its run's end: Next event says so rather than running ahead,
    // so go to a time past the first election.
    await goTo(page, 400);
    const leader = await waitForLeader(page);
    const follower = leader === 'n1' ? 'n2' : 'n1';
    await page.locator(`[data-node-id="${leader}"] .node-shape`).click({ modifiers: ['Shift'] });
    await page.locator(`[data-node-id="${follower}"] .node-shape`).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: /Isolate selected/ }).click();
    await expect.poll(() => page.locator('.partition-group').count()).toBe(2);
    await page.getByLabel('command', { exact: true }).fill('x=9');
    await page.getByLabel('Submit to').selectOption(leader);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const t = await nowMs(page);
    await goTo(page, t + 1500);
    const old = page.locator(`[data-node-id="${leader}"]`);
    expect(await old.getAttribute('data-role')).toBe('leader');
    expect(await old.getAttribute('data-log-length')).toBe('1');
    expect(await old.getAttribute('data-commit-index')).toBe('0'); // x=9 never commits in the minority
    const majorityLeader = await page.evaluate(
      (oldId) =>
        [...document.querySelectorAll('[data-role="leader"][data-alive="true"]')]
          .map((e) => e.getAttribute('data-node-id'))
          .find((id) => id !== oldId) ?? null,
      leader,
    );
    expect(majorityLeader).not.toBeNull();
    expect(await page.locator('.partition-group text').allTextContents()).toContain('minority (2 of 5): cannot commit');
    await page.screenshot({ path: join(SHOTS, '03-partition-minority.png') });

    // Heal, then draw a cut with the mouse: the nodes on each side become the groups.
    await page.getByRole('button', { name: 'Heal partition' }).click();
    await expect.poll(() => page.locator('.partition-group').count()).toBe(0);
    const box = (await page.locator('svg.diagram').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + 4);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.52, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height - 4, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.locator('.partition-group').count()).toBe(2);
    const lines = await page.getByTestId('event-log').locator('li').allTextContents();
    expect(lines.at(-1)).toMatch(/ms partition \{.*\} \| \{.*\}$/);
    await page.screenshot({ path: join(SHOTS, '03b-drawn-cut.png') });
    await page.close();
  });

  it('the fencing preset ends with the two stores disagreeing as the chapter says', async () => {
    const page = await open();
    await page.getByLabel('Scenario').selectOption('fencing');
    // The preset opens as its tour (beat 1 stops early), whose intro stands in for the blurb;
    // its run is still the preset's whole schedule.
    await expect.poll(() => page.getByTestId('tour-narration').getAttribute('data-beat')).toBe('1');
    expect(await page.locator('.tour-bar .tour-intro').textContent()).toMatch(/lease/);
    expect(await page.getByTestId('preset-blurb').count()).toBe(0);
    await goTo(page, 15000);
    const fenced = page.getByTestId('store-fenced');
    const unfenced = page.getByTestId('store-unfenced');
    expect(await fenced.locator('[data-store-key="result"]').textContent()).toBe('resultB-first2');
    expect(await unfenced.locator('[data-store-key="result"]').textContent()).toBe('resultA-second1');
    expect(await page.getByTestId('stores-disagree').textContent()).toContain(
      'fenced has B-first (token 2), unfenced has A-second (token 1)',
    );
    expect(await page.locator('.disagree-mark').count()).toBe(1);
    // The event log interleaves the detail event for the fenced write, with its kind.
    const fencedRow = page.getByTestId('event-log').locator('li[data-kind="write-fenced"]');
    await expect.poll(() => fencedRow.count()).toBe(1);
    expect(await fencedRow.textContent()).toMatch(/ms {2}· fenced store fences result=A-second from A: token 1 vs highest 2$/);
    await page.screenshot({ path: join(SHOTS, '04-fencing-end.png') });
    await page.getByRole('tab', { name: 'Clients' }).click();
    await page.screenshot({ path: join(SHOTS, '04b-fencing-clients.png') });
    await page.close();
  });

  it('nothing overlaps at 5 to 9 nodes, in light and dark', async () => {
    for (const n of [5, 6, 7, 8, 9]) {
      const page = await open(`?v=1&seed=42&nodes=${n}&clients=ABCD&t=900`);
      if (n === 9) await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => nowMs(page)).toBe(900);
      const shapes = await page.evaluate(() =>
        [...document.querySelectorAll('[data-node-id], .client, .store')].map((el) => {
          const isNode = el.hasAttribute('data-node-id');
          const b = (el.querySelector(isNode ? '.node-shape' : 'rect, path') as SVGGraphicsElement).getBoundingClientRect();
          return { id: el.getAttribute('data-node-id') ?? el.textContent ?? '', isNode, x: b.x, y: b.y, w: b.width, h: b.height };
        }),
      );
      // Nodes are round (a circle, a hexagon, a rounded square): compare them as circles.
      const apart = (a: (typeof shapes)[0], b: (typeof shapes)[0]) => {
        if (a.isNode && b.isNode) {
          const d = Math.hypot(a.x + a.w / 2 - (b.x + b.w / 2), a.y + a.h / 2 - (b.y + b.h / 2));
          return d > Math.max(a.w, a.h) / 2 + Math.max(b.w, b.h) / 2;
        }
        return !(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h);
      };
      for (let i = 0; i < shapes.length; i++) {
        for (let j = i + 1; j < shapes.length; j++) {
          expect(apart(shapes[i], shapes[j]), `${shapes[i].id} overlaps ${shapes[j].id} at ${n} nodes`).toBe(true);
        }
      }
      if (n === 9) await page.screenshot({ path: join(SHOTS, '05-nine-nodes-dark.png') });
      await page.close();
    }
  });

  it('has no axe violations of any impact, light and dark, on the default page, the Space-time view and every tab', async () => {
    // Every impact, "region" included: every block of the page sits inside a landmark.
    const check = async (page: Page) => {
      const result = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { html: string }[] }[] }>;
            };
          }
        ).axe;
        return axe.run(document, { resultTypes: ['violations'] });
      });
      return result.violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .map((n) => n.html)
            .slice(0, 2)
            .join(' ; ')}`,
      );
    };
    const axeScript = readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8');
    for (const view of ['', '&view=time']) {
      for (const scheme of ['light', 'dark'] as const) {
        const page = await open(`?${DEFAULT_LINK}${view}`, undefined, view ? '[data-testid="spacetime"]' : undefined);
        await page.emulateMedia({ colorScheme: scheme });
        await page.addScriptTag({ content: axeScript });
        expect(await check(page), `default page${view} ${scheme}`).toEqual([]);
        // Open popovers are portalled out of the bars: they must be landmarks too.
        await page.getByRole('button', { name: 'Keys' }).click();
        expect(await check(page), `Keys help${view} ${scheme}`).toEqual([]);
        await page.keyboard.press('Escape');
        await page.close();
      }
    }

    const chapter = findPreset('chapter')!;
    const page = await open(`?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1800 })}`);
    await expect.poll(() => nowMs(page)).toBe(1800);
    await page.addScriptTag({ content: axeScript });
    expect(await check(page)).toEqual([]);
    for (const tab of ['Clients', 'Stores', 'Locks', 'Node', 'Invariants', 'Schedule', 'Settings']) {
      await page.getByRole('tab', { name: tab }).click();
      expect(await check(page), tab).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const tab of ['Clients', 'Stores', 'Logs']) {
      await page.getByRole('tab', { name: tab }).click();
      expect(await check(page), `${tab} dark`).toEqual([]);
    }
    await page.screenshot({ path: join(SHOTS, '06-chapter-logs-dark.png') });
    await page.close();

    expect(pageErrors).toEqual([]);
    // Thirteen axe runs over two views and ten tabs: beside another test file on two busy cores, past a minute.
  }, 180_000);

  it('takes actions, copies the link, and a fresh page shows the same run at the same time', async () => {
    const page = await open(`?${DEFAULT_LINK}`);
    await goTo(page, 600);
    await page.locator('[data-node-id="n2"] .node-shape').click(); // the leader of term 1
    await expect.poll(() => page.locator('[data-node-id="n2"]').getAttribute('data-alive')).toBe('false');
    await goTo(page, 1000);
    const leader = await waitForLeader(page, 'n2');
    await page.getByRole('tab', { name: 'Clients' }).click();
    const clientA = page.locator('[data-client="A"]');
    await clientA.getByRole('button', { name: 'Acquire' }).click();
    await goTo(page, 1300);
    await clientA.getByRole('button', { name: 'Write' }).click();
    await goTo(page, 1400);
    // Cut off one live follower: the majority keeps going.
    const follower = await page.evaluate(
      () => document.querySelector('[data-role="follower"][data-alive="true"]')?.getAttribute('data-node-id') ?? null,
    );
    expect(follower).not.toBeNull();
    await page.locator(`[data-node-id="${follower}"] .node-shape`).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: /Isolate selected/ }).click();
    await expect.poll(() => page.locator('.partition-group').count()).toBe(2);
    await goTo(page, 2500);
    expect(await liveLeader(page)).toBe(leader);
    await page.getByRole('tab', { name: 'Schedule' }).click();
    const schedule = await page.getByTestId('schedule-text').inputValue();
    const rest = ['n1', 'n2', 'n3', 'n4', 'n5'].filter((id) => id !== follower).join(',');
    expect(schedule).toBe(
      `@600 crash n2\n@1000 client A acquire job:42 10000\n@1300 client A write result=A-1\n@1400 partition ${follower} | ${rest}`,
    );
    await page.getByRole('button', { name: /Copy link/ }).click();
    const link = await page.getByTestId('share-url').inputValue();
    await expect.poll(() => page.url()).toBe(link); // the address bar holds the run too
    expect(link).toContain('t=2500');
    const before = await runState(page);
    expect(before.stores.fenced).toContain('result');
    await page.screenshot({ path: join(SHOTS, '07-actions-then-copy-link.png') });

    const fresh = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
    fresh.on('pageerror', (e) => pageErrors.push(e.message));
    await fresh.goto(link);
    await fresh.waitForSelector('[data-node-id]');
    await expect.poll(() => nowMs(fresh)).toBe(2500);
    expect(await fresh.getByRole('button', { name: /Play/ }).count()).toBe(1); // landed paused
    expect(await runState(fresh)).toEqual(before);
    await fresh.getByRole('tab', { name: 'Schedule' }).click();
    expect(await fresh.getByTestId('schedule-text').inputValue()).toBe(schedule);
    await fresh.screenshot({ path: join(SHOTS, '08-link-opened-fresh.png') });
    // Reloading is the same as opening the link.
    await fresh.reload();
    await fresh.waitForSelector('[data-node-id]');
    await expect.poll(() => nowMs(fresh)).toBe(2500);
    expect(await runState(fresh)).toEqual(before);
    await fresh.close();
    await page.close();
  });

  it('scrubs: landmarks, events, drag, and acting in the past forks the run until undo', async () => {
    const chapter = findPreset('chapter')!;
    const page = await open(`?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 2253 })}`);
    await expect.poll(() => nowMs(page)).toBe(2253);
    await expect.poll(() => page.locator('.scrub-lane .mark').count()).toBe(7);
    expect(await page.getByRole('button', { name: 't=1168 ms: n2 crashes' }).getAttribute('data-look')).toBe('crash');
    await page.keyboard.press('[');
    await expect.poll(() => nowMs(page)).toBe(1953);
    await page.keyboard.press('Shift+ArrowLeft'); // the previous event: n1 wins term 3
    await expect.poll(() => nowMs(page)).toBe(1753);
    await page.getByRole('button', { name: 'Previous landmark' }).click();
    await expect.poll(() => nowMs(page)).toBe(1560);
    // Drag the thumb to about a quarter of the track.
    const range = page.getByRole('slider', { name: 'Time in the run' });
    const box = (await range.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Math.abs((await nowMs(page)) - 2253 * 0.25)).toBeLessThan(120);
    // Act in the past: the later actions are set aside; undo brings them back.
    await goTo(page, 1500);
    await page.locator('[data-node-id="n4"] .node-shape').click();
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await expect
      .poll(() => page.getByTestId('schedule-text').inputValue())
      .toBe('@1168 crash n2\n@1360 restart n2\n@1410 submit x=1\n@1410 submit x=2\n@1500 crash n4');
    await page.screenshot({ path: join(SHOTS, '09-forked-in-the-past.png') });
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => page.getByTestId('schedule-text').inputValue())
      .toBe(
        parseSchedule(chapter.schedule)
          .map((a) => formatAction(a))
          .join('\n'),
      );
    expect(await page.getByRole('button', { name: /Redo/ }).isEnabled()).toBe(true);
    await page.close();
  });

  it('switches a bug on and finds a counterexample, landing on the violation', async () => {
    const page = await open(`?${DEFAULT_LINK}`);
    expect(await page.getByTestId('invariant-badge').textContent()).toBe('✓ 23 invariants hold');
    await page.getByTestId('bugs-summary').click();
    await page.getByRole('checkbox', { name: /no-fencing/ }).check();
    await expect.poll(() => page.getByTestId('bugs-summary').textContent()).toMatch(/^Bugs on: no-fencing/);
    await expect.poll(() => page.url()).toContain('bugs=no-fencing');
    await page.getByTestId('bugs-summary').click();
    await page.getByRole('tab', { name: 'Invariants' }).click();
    await page.getByRole('button', { name: 'Find a counterexample' }).click();
    await expect.poll(() => page.getByTestId('fuzz-result').textContent(), { timeout: 30_000 }).toMatch(/^Found in run \d+ of 200/);
    const badge = page.getByTestId('invariant-badge');
    await expect.poll(() => badge.getAttribute('data-state')).toBe('violated');
    const t = Number(/at t=(\d+) ms/.exec((await badge.textContent()) ?? '')?.[1]);
    expect(await nowMs(page)).toBe(t);
    expect(await page.getByTestId('invariant-verdict').textContent()).toContain(`Fenced store never goes back violated at t=${t} ms`);
    expect(await page.locator('.scrub-lane .mark-violation').count()).toBe(1);
    await expect.poll(() => page.url()).toContain(`t=${t}`);
    await page.screenshot({ path: join(SHOTS, '10-counterexample.png') });
    await page.close();
  });

  it('shows liveness after calm, leases ended early under drift, and a refused release', async () => {
    const calm = encodeLink({
      config: { ...findPreset('chapter')!.config, clientIds: ['A', 'B'] },
      schedule: parseSchedule('@300 crash n1; @400 partition n2 | n3; @500 delay 300; @600 duplicate 30; @1500 calm'),
      atMs: 6000,
    });
    const page = await open(`?${calm}`);
    await page.getByRole('tab', { name: 'Invariants' }).click();
    await expect
      .poll(() => page.getByTestId('liveness').textContent(), { timeout: 20_000 })
      .toMatch(/^Liveness after the faults stopped: held/);
    await page.close();
    const drift = findPreset('clock-drift')!;
    const page2 = await open(`?${encodeLink({ config: drift.config, schedule: parseSchedule(drift.schedule), atMs: drift.untilMs })}`);
    await page2.getByRole('tab', { name: 'Invariants' }).click();
    await expect
      .poll(() => page2.getByTestId('leases-ended-early').textContent(), { timeout: 20_000 })
      .toMatch(/ended early under clock drift: 1/);
    await page2.screenshot({ path: join(SHOTS, '11-drift-findings.png') });
    await page2.close();
    const refused = encodeLink({
      config: { ...drift.config, bugs: [] },
      schedule: parseSchedule('@400 client A acquire job 60000; @800 client B release job'),
      atMs: 1500,
    });
    const page3 = await open(`?${refused}`);
    await expect
      .poll(() => page3.locator('.event-log li').allTextContents())
      .toContain('t=  842 ms B release job -> refused, B does not hold it');
    await page3.close();
  });

  it('the Rules tab lights the lines the leader just ran, and a line filters the event log', async () => {
    const chapter = findPreset('chapter')!;
    const page = await open(`?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1430 })}`);
    await page.getByRole('tab', { name: 'Rules' }).click();
    await expect.poll(() => page.locator('[data-line-id="leader.append"]').getAttribute('data-active')).toBe('true');
    await page.screenshot({ path: join(SHOTS, '14-rules.png') });
    await page.locator('[data-line-id="leader.append"] button').click();
    await expect.poll(() => page.getByTestId('line-filter').isVisible()).toBe(true);
    const kinds = await page.locator('.event-log li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['leader-append']));
    await page.close();
  });

  it('answers Why on the stranded minority leader’s x=3: not committed, 2 of 5 is not a majority', async () => {
    const chapter = findPreset('chapter')!;
    const page = await open(`?${encodeLink({ config: chapter.config, schedule: parseSchedule(chapter.schedule), atMs: 1753 })}`);
    await expect.poll(() => nowMs(page)).toBe(1753);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.locator('[data-log-node="n3"] .entry[data-index="3"]').click();
    const panel = page.getByTestId('why-panel');
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Why is x=3 at index 3 not committed on n3?');
    const answer = (await panel.textContent()) ?? '';
    expect(answer).toContain('not committed yet on n3');
    expect(answer).toContain('2 of 5 is not a majority');
    expect(await page.getByTestId('why-rule').textContent()).toContain('Figure 2');
    // Readable: at least 15 px, and the whole panel inside the 1280×720 window.
    const size = await panel.evaluate((el) => parseFloat(getComputedStyle(el.querySelector('.why-body p')!).fontSize));
    expect(size).toBeGreaterThanOrEqual(15);
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    await page.screenshot({ path: join(SHOTS, '12-why.png') });
    await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
    const serious = await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run: (ctx: string, opts: object) => Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe;
      const result = await axe.run('[data-testid="why-panel"]', { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(serious).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    // A node: focus it and press ?; a plain click would crash it, ? only asks.
    await page.locator('[data-node-id="n3"]').focus();
    await page.keyboard.press('?');
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Why is n3 a leader?');
    expect(await panel.textContent()).toContain('stale leader');
    expect(await page.locator('[data-node-id="n3"]').getAttribute('data-alive')).toBe('true');
    await page.keyboard.press('Escape');
    // A message in flight: click where the canvas paints it, half way along its lane at t=1757.
    await goTo(page, 1757);
    const sim = new Timeline(chapter.config, parseSchedule(chapter.schedule));
    sim.advanceTo(1757);
    const snapshot = takeRunView(sim.current);
    const layout = diagramLayout(
      snapshot.nodes.map((n) => n.id),
      [],
      false,
    );
    const target = snapshot.messages.find((m) => m.src === 'n3' && m.dst === 'n2' && m.type === 'AppendEntries')!;
    const lane = messageLane(layout, target.src, target.dst)!;
    const at = lerp(lane.from, lane.to, progressOf(target, 1757));
    const frame = (await page.locator('svg.diagram').boundingBox())!;
    const scale = Math.min(frame.width / VIEW_W, frame.height / VIEW_H);
    await page.mouse.click(
      frame.x + (frame.width - VIEW_W * scale) / 2 + at.x * scale,
      frame.y + (frame.height - VIEW_H * scale) / 2 + at.y * scale,
    );
    await expect.poll(() => panel.getByRole('heading').textContent()).toBe('AppendEntries n3 → n2');
    const fields = (await panel.textContent()) ?? '';
    for (const f of ['prevLogIndex2', 'prevLogTerm2', 'leaderCommit2', '3: x=3 (term 2)']) expect(fields).toContain(f);
    await page.screenshot({ path: join(SHOTS, '12b-why-message.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, '12c-why-message-dark.png') });
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('a bad or old-style link keeps its text and one sentence on screen over the default run, paused, and can be mended', async () => {
    for (const [query, sentence] of [
      [
        '?nodes=12&paused',
        'This link has an unknown field "paused"; a Lockstep link has v, seed, nodes, timeout, heartbeat, latency, clients, bugs, features, read, lock, lockopts, s, z, t, speed, tour, beat, view, present, embed, console, snapshot, protocol, backoff, regions, rtt, persist, detector, phi, window, fanout, round, suspect, takeover.',
      ],
      [
        '?v=1&seed=42&s=%40100+explode+n1',
        'This link\'s schedule is invalid: Action 1 ("@100 explode n1", at character 1) has unknown verb "explode"; the verbs are crash, restart, partition, heal, submit, client, drift, loss, delay, duplicate, reorder, calm, timeout, transfer, add, remove, propose, clockjump, slow.',
      ],
    ]) {
      const bad = await open(query);
      expect(await bad.getByTestId('bad-link-error').textContent()).toBe(sentence);
      expect(await bad.getByTestId('bad-link-text').inputValue()).toBe(query.slice(1));
      expect(await bad.locator('[data-node-id]').count()).toBe(5);
      expect(await bad.locator('.client').count()).toBe(2);
      // Paused, so nothing moves under the sentence while it is read; it stays through a step.
      await bad.waitForTimeout(400);
      expect(await nowMs(bad)).toBe(0);
      await bad.getByRole('button', { name: 'Step 1 ms' }).click();
      await expect.poll(() => nowMs(bad)).toBe(1);
      expect(await bad.getByTestId('bad-link').isVisible()).toBe(true);
      if (query.startsWith('?v=1&seed=42&s')) {
        await bad.screenshot({ path: join(SHOTS, '11-bad-link.png') });
        // Mend the verb and open it: the link's own run, at its time.
        await bad.getByTestId('bad-link-text').fill('v=1&seed=42&s=%40100+crash+n1&t=150');
        await bad.getByRole('button', { name: 'Open this link' }).click();
        await bad.waitForURL(/crash/);
        await bad.waitForSelector('[data-node-id]');
        await expect.poll(() => nowMs(bad)).toBe(150);
        expect(await bad.getByTestId('bad-link').count()).toBe(0);
      }
      await bad.close();
    }
    expect(pageErrors).toEqual([]);
  });
});

/** What must be identical when a link is reopened: event log, nodes, stores, lock table. */
async function runState(page: Page) {
  await page.getByRole('tab', { name: 'Stores' }).click();
  const stores = {
    fenced: await page.getByTestId('store-fenced').textContent(),
    unfenced: await page.getByTestId('store-unfenced').textContent(),
  };
  await page.getByRole('tab', { name: 'Locks' }).click();
  const locks = await page.locator('.tabpanel').textContent();
  return {
    now: await nowMs(page),
    events: await page.getByTestId('event-log').locator('li').allTextContents(),
    nodes: await page.evaluate(() =>
      [...document.querySelectorAll('[data-node-id]')].map((el) =>
        ['data-node-id', 'data-role', 'data-alive', 'data-term', 'data-log-length', 'data-commit-index']
          .map((a) => el.getAttribute(a))
          .join(' '),
      ),
    ),
    stores,
    locks,
  };
}
