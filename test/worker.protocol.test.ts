/**
 * The worker protocol end to end in one thread: the SimDriver on one port of a MessageChannel,
 * the HostBridge and a store on the other, a fake clock and frame scheduler in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, nodeIdsFor } from '../src/sim/config';
import { CHAPTER_SCHEDULE } from '../src/sim/presets';
import { MAX_SEEK_MS, SimDriver } from '../src/worker/simDriver';
import type { HostEndpoint, WorkerEndpoint, WorkerToHost } from '../src/worker/protocol';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { createLabStore } from '../src/ui/store/labStore';

function setup() {
  const channel = new MessageChannel();
  let realNow = 1000;
  const frames: (() => void)[] = [];
  const driver = new SimDriver(channel.port1 as unknown as WorkerEndpoint, {
    now: () => realNow,
    requestFrame: (cb) => frames.push(cb),
  });
  const received: WorkerToHost[] = [];
  channel.port2.addEventListener('message', (e) => received.push(e.data as WorkerToHost));
  const store = createLabStore();
  const bridge = new HostBridge(channel.port2 as unknown as HostEndpoint, store, { scheduleFlush: (f) => f() });
  channel.port1.start();
  channel.port2.start();
  const settle = () => new Promise((r) => setTimeout(r, 5));
  /** Let messages cross, run the queued frame, let its post cross back. */
  const frame = async (advanceRealMs = 0) => {
    await settle();
    realNow += advanceRealMs;
    const queued = frames.splice(0);
    for (const cb of queued) cb();
    await settle();
  };
  const close = () => {
    driver.dispose();
    bridge.dispose();
    channel.port1.close();
    channel.port2.close();
  };
  return { driver, bridge, store, frame, received, close, frames };
}

let current: ReturnType<typeof setup> | null = null;
afterEach(() => {
  current?.close();
  current = null;
});

describe('worker protocol over a MessageChannel', () => {
  it('loads a run and posts a snapshot with the recorded schedule', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, CHAPTER_SCHEDULE, { label: 'chapter' });
    await t.frame();
    const s = t.store.getState();
    expect(s.runId).toBe(1);
    expect(s.snapshot?.now).toBe(0);
    expect(s.snapshot?.nodes.map((n) => n.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(s.schedule).toContain('@1168 crash n2');
    expect(s.label).toBe('chapter');
    expect(s.playing).toBe(false);
  });

  it('answers a bad config with one sentence and keeps the old run', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '');
    await t.frame();
    t.bridge.stepMs(200);
    await t.frame();
    expect(t.store.getState().snapshot?.now).toBe(200);
    t.bridge.load({ ...DEFAULT_CONFIG, nodeIds: nodeIdsFor(12) }, '');
    await t.frame();
    const s = t.store.getState();
    expect(s.error).toBe('A cluster has 1 to 9 nodes, not 12.');
    expect(s.runId).toBe(1);
    expect(s.snapshot?.now).toBe(200);
    t.bridge.load(DEFAULT_CONFIG, '@10 explode n1');
    await t.frame();
    expect(t.store.getState().error).toMatch(/unknown verb "explode"/);
    expect(t.store.getState().snapshot?.now).toBe(200);
  });

  it('plays at speed × elapsed real time and never builds a backlog', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '', { playing: true });
    t.bridge.setSpeed(0.5);
    await t.frame(); // first frame only starts the clock
    await t.frame(100);
    expect(t.store.getState().snapshot?.now).toBe(50);
    // A tab throttled for 5 s accounts for at most 100 ms of real time.
    await t.frame(5000);
    expect(t.store.getState().snapshot?.now).toBe(100);
    t.bridge.setSpeed(1000);
    expect(t.store.getState().speed).toBe(100);
  });

  it('posts at most one message per frame', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '', { playing: true });
    t.bridge.setSpeed(1);
    await t.frame();
    for (let i = 0; i < 5; i++) {
      const before = t.received.length;
      await t.frame(16);
      expect(t.received.length - before).toBeLessThanOrEqual(1);
    }
  });

  it('moves the fractional clock without re-sending a snapshot at very slow speed', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '', { playing: true });
    t.bridge.setSpeed(0.01);
    await t.frame();
    await t.frame(16);
    const last = t.received.at(-1);
    expect(last?.type).toBe('clock');
    expect(t.store.getState().clockMs).toBeCloseTo(0.16, 5);
  });

  it('steps one ms, steps to the next event and streams the event lines', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '');
    await t.frame();
    t.bridge.stepMs();
    await t.frame();
    expect(t.store.getState().snapshot?.now).toBe(1);
    t.bridge.stepToNextEvent();
    await t.frame();
    const s = t.store.getState();
    expect(s.snapshot?.now).toBe(156);
    expect(s.events.map((e) => e.line)).toEqual(['t=  156 ms n2 election timeout, candidate in term 1']);
    t.bridge.stepToNextEvent();
    await t.frame();
    expect(t.store.getState().events.at(-1)?.line).toMatch(/n2 wins term 1/);
  });

  it('records a person’s action at the current time, and rejects a bad one', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '');
    await t.frame();
    t.bridge.stepMs(300);
    t.bridge.act({ verb: 'crash', node: 'n2' });
    await t.frame();
    const s = t.store.getState();
    expect(s.schedule).toBe('@300 crash n2');
    expect(s.snapshot?.nodes[1].alive).toBe(false);
    t.bridge.act({ verb: 'crash', node: 'n7' });
    await t.frame();
    expect(t.store.getState().error).toMatch(/node "n7", which is not in the cluster/);
  });

  it('seeks back by replaying the run, and forward by stepping', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, CHAPTER_SCHEDULE);
    await t.frame();
    t.bridge.seek(2253);
    await t.frame();
    const forward = t.store.getState();
    expect(forward.snapshot?.now).toBe(2253);
    const linesAtEnd = forward.events.map((e) => e.line);
    expect(linesAtEnd).toContain('t= 1168 ms n2 crashes');
    expect(linesAtEnd).toContain('t= 1953 ms partition healed');
    t.bridge.seek(1000);
    await t.frame();
    expect(t.store.getState().snapshot?.now).toBe(1000);
    t.bridge.seek(2253);
    await t.frame();
    expect(t.store.getState().events.map((e) => e.line)).toEqual(linesAtEnd);
    t.bridge.seek(MAX_SEEK_MS + 1);
    await t.frame();
    expect(t.store.getState().error).toMatch(/whole number of ms from 0 to/);
  });

  it('pauses at a preset’s end and replays to a start time on load', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, '', { startAtMs: 500, stopAtMs: 520, playing: true });
    t.bridge.setSpeed(1);
    await t.frame();
    expect(t.store.getState().snapshot?.now).toBe(500);
    await t.frame(50);
    const s = t.store.getState();
    expect(s.snapshot?.now).toBe(520);
    expect(s.playing).toBe(false);
  });
});
