/**
 * The speed a person asks for is not put back by a frame the worker sent before it heard: two
 * quick presses of − step twice (found by the presenter's speed-keys test on a loaded machine).
 * End to end in one thread: the SimDriver on one port of a MessageChannel, the HostBridge and a
 * store on the other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { SimDriver } from '../src/worker/simDriver';
import type { HostEndpoint, SnapshotMessage, WorkerEndpoint, WorkerToHost } from '../src/worker/protocol';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { createLabStore } from '../src/ui/store/labStore';

function setup() {
  const channel = new MessageChannel();
  let realNow = 1000;
  const frames: (() => void)[] = [];
  const driver = new SimDriver(channel.port1 as unknown as WorkerEndpoint, { now: () => realNow, requestFrame: (cb) => frames.push(cb) });
  const received: WorkerToHost[] = [];
  channel.port2.addEventListener('message', (e) => received.push(e.data as WorkerToHost));
  const store = createLabStore();
  const bridge = new HostBridge(channel.port2 as unknown as HostEndpoint, store, { scheduleFlush: (f) => f() });
  channel.port1.start();
  channel.port2.start();
  const settle = () => new Promise((r) => setTimeout(r, 5));
  const frame = async () => {
    await settle();
    realNow += 100;
    for (const cb of frames.splice(0)) cb();
    await settle();
  };
  const close = () => {
    driver.dispose();
    bridge.dispose();
    channel.port1.close();
    channel.port2.close();
  };
  // The bridge's own handler, to hand it a message again as if it arrived late.
  const deliver = (message: WorkerToHost) => channel.port2.dispatchEvent(new MessageEvent('message', { data: message }));
  return { bridge, store, frame, received, deliver, close };
}

let current: ReturnType<typeof setup> | null = null;
afterEach(() => {
  current?.close();
  current = null;
});

describe('the speed a person asks for', () => {
  it('stays while frames sent before the worker heard arrive, then follows the worker again', async () => {
    const t = (current = setup());
    t.bridge.setSpeed(0.1);
    t.bridge.load(DEFAULT_CONFIG, [], { playing: true });
    for (let i = 0; i < 5; i++) await t.frame();
    const stale = t.received.filter((m): m is SnapshotMessage => m.type === 'snapshot').at(-1);
    expect(stale?.chosenSpeed).toBe(0.1);
    if (stale === undefined) return;

    t.bridge.setSpeed(0.25);
    t.deliver(stale);
    t.bridge.flush();
    expect(t.store.getState().frame.speed).toBe(0.25);
    expect(t.store.getState().frame.chosenSpeed).toBe(0.25);

    // Once a frame carries the asked speed, the worker's word counts again (a tour's pace may slow it).
    t.deliver({ ...stale, speed: 0.25, chosenSpeed: 0.25 });
    t.bridge.flush();
    t.deliver({ ...stale, speed: 0.05, chosenSpeed: 0.25 });
    t.bridge.flush();
    expect(t.store.getState().frame.speed).toBe(0.05);
    expect(t.store.getState().frame.chosenSpeed).toBe(0.25);
  });
});
