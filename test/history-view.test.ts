/**
 * The History view's data path without a browser (issue 15): the worker answers a history request
 * over a MessageChannel with the run's operations and verdicts at the time on screen, the lanes'
 * geometry puts each operation on its client's row and track with a folded time axis, and the
 * CLI's --json carries `history` and `linearizable`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { layoutHistory, subsetSeekMs, SERVICE_ROW } from '../src/ui/panels/historyLanes';
import { createLabStore } from '../src/ui/store/labStore';
import type { HostEndpoint, WorkerEndpoint } from '../src/worker/protocol';
import { SimDriver } from '../src/worker/simDriver';

const fencing = findPreset('fencing')!;

let close: (() => void) | null = null;
afterEach(() => {
  close?.();
  close = null;
});

function connect() {
  const channel = new MessageChannel();
  const frames: (() => void)[] = [];
  const driver = new SimDriver(channel.port1 as unknown as WorkerEndpoint, { now: () => 0, requestFrame: (cb) => frames.push(cb) });
  const store = createLabStore();
  const bridge = new HostBridge(channel.port2 as unknown as HostEndpoint, store, { scheduleFlush: (f) => f() });
  channel.port1.start();
  channel.port2.start();
  close = () => {
    driver.dispose();
    bridge.dispose();
    channel.port1.close();
    channel.port2.close();
  };
  const frame = async () => {
    await new Promise((r) => setTimeout(r, 5));
    for (const cb of frames.splice(0)) cb();
    await new Promise((r) => setTimeout(r, 5));
  };
  return { bridge, frame };
}

describe('history over the worker protocol', () => {
  it('answers with the operations and verdicts at the time on screen', async () => {
    const t = connect();
    t.bridge.load(fencing.config, presetActions(fencing), { startAtMs: fencing.untilMs });
    await t.frame();
    const end = await t.bridge.requestHistory();
    expect(end.atMs).toBe(fencing.untilMs);
    expect(end.ops).toHaveLength(10);
    expect(end.verdicts?.unfenced?.linearizable).toBe(false);
    expect(end.verdicts?.fenced).toEqual({ linearizable: true });
    // Before A wakes, nothing is wrong yet: every verdict that can fail holds.
    t.bridge.seek(13_200);
    await t.frame();
    const before = await t.bridge.requestHistory();
    expect(before.atMs).toBe(13_200);
    expect(before.ops.length).toBeLessThan(end.ops.length);
    expect(before.verdicts?.unfenced).toEqual({ linearizable: true });
  });

  it('one check at a time: callers who ask while one is in flight share the next, taken after they asked', async () => {
    const t = connect();
    t.bridge.load(fencing.config, presetActions(fencing), { startAtMs: 13_200 });
    await t.frame();
    const first = t.bridge.requestHistory();
    // The space-time view and the History tab both ask, after the time moved.
    t.bridge.seek(fencing.untilMs);
    const second = t.bridge.requestHistory();
    const third = t.bridge.requestHistory();
    await t.frame();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(b).toBe(c);
    expect(b.requestId).not.toBe(a.requestId);
    expect(b.atMs).toBe(fencing.untilMs);
    // And a later ask, with nothing in flight, is sent at once.
    expect((await t.bridge.requestHistory()).requestId).toBeGreaterThan(b.requestId);
  });

  it('says there is no history in a run without clients', async () => {
    const t = connect();
    t.bridge.load(findPreset('chapter')!.config, []);
    await t.frame();
    const m = await t.bridge.requestHistory();
    expect(m.ops).toEqual([]);
    expect(m.verdicts).toBeNull();
  });
});

describe('history lanes', () => {
  const ops = JSON.parse(runSimCli(['--preset', 'fencing', '--json']).stdout).history;

  it('one row per client and one for the service; writes on their store’s track', () => {
    const layout = layoutHistory(ops, ['A', 'B'], 15_000, 60, 500);
    expect(layout.rows).toEqual(['A', 'B', SERVICE_ROW]);
    const bar = (id: number) => layout.bars.find((b) => b.op.id === id)!;
    expect(bar(0)).toMatchObject({ row: 0, track: 'lock', tone: 'ok' });
    expect(bar(3)).toMatchObject({ row: 1, track: 'lock', tone: 'refused' });
    expect(bar(4)).toMatchObject({ row: 2, tone: 'service' });
    expect(bar(8)).toMatchObject({ row: 0, track: 'fenced', tone: 'refused' });
    expect(bar(9)).toMatchObject({ row: 0, track: 'unfenced', tone: 'ok' });
    // Every bar inside the drawing, in time order along x.
    for (const b of layout.bars) {
      expect(b.x).toBeGreaterThanOrEqual(60);
      expect(b.x + b.width).toBeLessThanOrEqual(560 + 3);
    }
    expect(bar(5).x).toBeGreaterThan(bar(4).x);
    // Quiet seconds are folded: a 66 ms grant is far wider than its share of a linear 15 s axis.
    expect(bar(0).width).toBeGreaterThan((66 / 15_000) * 500 * 5);
    expect(layout.folds.length).toBeGreaterThan(0);
  });

  it('an operation still open at the time on screen runs to its end', () => {
    const layout = layoutHistory(ops, ['A', 'B'], 13_505, 60, 500);
    const stale = layout.bars.find((b) => b.op.id === 8)!;
    expect(stale.open).toBe(true);
    expect(stale.x + stale.width).toBeCloseTo(560, 0);
  });

  it('a subset seeks to the last completion in it', () => {
    expect(subsetSeekMs(ops, [0, 5, 9])).toBe(13_509);
  });
});

describe('sim --json', () => {
  it('has history and one verdict per model; a failed finding does not change the exit code', () => {
    const out = runSimCli(['--preset', 'fencing', '--json']);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.history[0]).toEqual({
      id: 0,
      client: 'A',
      op: 'acquire',
      key: 'job:42',
      value: null,
      token: 1,
      store: null,
      lockKey: null,
      invokeMs: 1000,
      completeMs: 1066,
      result: 'granted',
      invokeOrder: 0,
      completeOrder: 1,
    });
    expect(Object.keys(report.linearizable)).toEqual(['locks', 'fenced', 'unfenced', 'fencedOrder', 'unfencedOrder', 'register']);
    expect(report.linearizable.unfenced).toEqual({ linearizable: false, subset: [0, 4, 5, 9], key: 'job:42', minimal: true });
    expect(report.linearizable.register.linearizable).toBe('n/a');
  });

  it('the text output ends the lock-service lines with one line of verdicts', () => {
    const out = runSimCli(['--preset', 'clock-drift']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      'linearizable: locks yes, fenced yes, unfenced NO (#0 #3 #4 #8 on job:42), fencedOrder yes, unfencedOrder NO (#0 #4 #6 #8 on result), register n/a',
    );
  });

  it('has neither in a run without clients', () => {
    const report = JSON.parse(runSimCli(['--json']).stdout);
    expect(report.history).toBeUndefined();
    expect(report.linearizable).toBeUndefined();
  });
});
