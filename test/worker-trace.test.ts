/**
 * The trace stream and the exports, end to end in one thread: the SimDriver on one port of a
 * MessageChannel, the HostBridge and a store on the other, a fake clock in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { CHAPTER_SCHEDULE, findPreset, presetActions } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { runTraceJson } from '../src/sim/view/traceJson';
import { FATE } from '../src/sim/view/traceColumns';
import { runSimCli } from '../src/cli/simCli';
import { SimDriver } from '../src/worker/simDriver';
import type { HostEndpoint, WorkerEndpoint } from '../src/worker/protocol';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { createLabStore } from '../src/ui/store/labStore';

function setup() {
  const channel = new MessageChannel();
  let realNow = 1000;
  const frames: (() => void)[] = [];
  const driver = new SimDriver(channel.port1 as unknown as WorkerEndpoint, { now: () => realNow, requestFrame: (cb) => frames.push(cb) });
  const store = createLabStore();
  const bridge = new HostBridge(channel.port2 as unknown as HostEndpoint, store, { scheduleFlush: (f) => f() });
  channel.port1.start();
  channel.port2.start();
  const settle = () => new Promise((r) => setTimeout(r, 5));
  const frame = async (advanceRealMs = 200) => {
    await settle();
    realNow += advanceRealMs;
    for (const cb of frames.splice(0)) cb();
    await settle();
  };
  /** Frames until the worker has nothing left to do (the check and the trace caught up). */
  const idle = async () => {
    for (let i = 0; i < 200; i++) {
      await frame();
      if (frames.length === 0) return;
    }
  };
  const close = () => {
    driver.dispose();
    bridge.dispose();
    channel.port1.close();
    channel.port2.close();
  };
  return { bridge, store, frame, idle, close };
}

let current: ReturnType<typeof setup> | null = null;
afterEach(() => {
  current?.close();
  current = null;
});

describe('the trace for the space-time view', () => {
  it('streams nothing until asked, then the whole run to the horizon, with the chapter failover in it', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { label: 'chapter', startAtMs: 1500 });
    await t.idle();
    expect(t.store.getState().trace).toBeNull();
    t.bridge.setTraceStreaming(true);
    await t.idle();
    const trace = t.store.getState().trace;
    expect(trace).not.toBeNull();
    if (!trace) return;
    expect(trace.untilMs).toBe(1500);
    expect(trace.actorIds).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    const m = trace.messages;
    expect(m.count).toBeGreaterThan(100);
    // Rows are in send order, and every row before the last few has its fate.
    for (let i = 1; i < m.count; i++) expect(m.sentAt[i]).toBeGreaterThanOrEqual(m.sentAt[i - 1]);
    // n3's RequestVote of term 2, and n2 down from its crash.
    const votes = [...Array(m.count).keys()].filter(
      (i) => m.label[i].startsWith('RequestVote term 2') && trace.actorIds[m.from[i]] === 'n3',
    );
    expect(votes.length).toBe(4);
    const down = trace.nodeSpans.find((s) => s.node === 'n2' && s.state === 'down');
    expect(down?.from).toBe(1168);
    // Messages to the crashed n2 are dropped with the reason "down".
    const toN2 = [...Array(m.count).keys()].filter((i) => trace.actorIds[m.to[i]] === 'n2' && m.sentAt[i] > 1170 && m.sentAt[i] < 1300);
    expect(toN2.length).toBeGreaterThan(0);
    for (const i of toN2) expect(m.fate[i]).toBe(FATE.down);
  });

  it('grows as the run plays, and starts over when an action changes the past', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, [], { startAtMs: 400 });
    t.bridge.setTraceStreaming(true);
    await t.idle();
    const first = t.store.getState().trace;
    expect(first?.untilMs).toBe(400);
    t.bridge.stepMs(600);
    await t.idle();
    const grown = t.store.getState().trace;
    expect(grown?.traceId).toBe(first?.traceId);
    expect(grown?.untilMs).toBe(1000);
    expect(grown?.messages.count).toBeGreaterThan(first?.messages.count ?? 0);
    // Go back and crash n1 at 500: the trace after 500 is different, so it is rebuilt.
    t.bridge.seek(500);
    await t.idle();
    t.bridge.act({ verb: 'crash', node: 'n1' });
    await t.idle();
    const forked = t.store.getState().trace;
    expect(forked?.traceId).not.toBe(first?.traceId);
    expect(forked?.nodeSpans.some((s) => s.node === 'n1' && s.state === 'down' && s.from === 500)).toBe(true);
    t.bridge.setTraceStreaming(false);
    expect(t.store.getState().trace).toBeNull();
  });
});

describe('playing a brushed window', () => {
  it('goes to its start, plays, and pauses exactly at its end; a bad window is one sentence', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { startAtMs: 2000 });
    await t.idle();
    t.bridge.setSpeed(100);
    t.bridge.playWindow(1100, 1400);
    for (let i = 0; i < 50 && t.store.getState().frame.playing; i++) await t.frame(50);
    const f = t.store.getState().frame;
    expect(f.playing).toBe(false);
    expect(f.snapshot?.now).toBe(1400);
    t.bridge.playWindow(1400, 1300);
    await t.frame();
    expect(t.store.getState().error).toBe('A window to play ends after it starts and by 600000 ms, not at 1300.');
  });
});

describe('exports made in the worker', () => {
  it('writes the same trace bytes as the CLI for the same run and time', async () => {
    const t = (current = setup());
    const preset = findPreset('fencing');
    if (!preset) throw new Error('no fencing preset');
    t.bridge.load(preset.config, presetActions(preset), { startAtMs: 14000 });
    await t.idle();
    const reply = await t.bridge.requestExport('trace-json');
    expect(reply.error).toBeNull();
    expect(reply.untilMs).toBe(14000);
    expect(reply.seed).toBe('42');
    expect(reply.text).toBe(runTraceJson(preset.config, presetActions(preset), 14000));
    const cli = runSimCli(['--preset', 'fencing', '--until', '14000', '--trace', 'out.json']);
    expect(cli.files?.[0].text).toBe(reply.text);
  });

  it('writes the event log as Markdown and CSV, and a ShiViz log, from time 0 to now', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { startAtMs: 1400 });
    await t.idle();
    const md = await t.bridge.requestExport('events-md');
    expect(md.text).toContain('| 1168 |');
    expect(md.text).toContain('n2 crashes');
    expect(md.text).not.toContain('| 1410 |');
    const csv = await t.bridge.requestExport('events-csv');
    expect(csv.text?.split('\r\n')[0]).toMatch(/^t_ms,/);
    const shiviz = await t.bridge.requestExport('shiviz');
    expect(shiviz.text?.split('\n')[0]).toBe('(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)');
  });
});
