/**
 * The worker protocol end to end in one thread: the SimDriver on one port of a MessageChannel,
 * the HostBridge and a store on the other, a fake clock and frame scheduler in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyPaintFrame, EMPTY_PAINT_VIEW } from '../src/worker/paintFeed';
import { DEFAULT_CONFIG, nodeIdsFor } from '../src/sim/model/config';
import { AT_CAP_SENTENCE } from '../src/sim/model/limits';
import { CHAPTER_SCHEDULE, findPreset } from '../src/sim/run/presets';
import { formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { MAX_SEEK_MS, SimDriver, type DriverOptions } from '../src/worker/simDriver';
import { MAX_DETAILS_ON_RESET } from '../src/worker/playback';
import {
  PAGE_FRAME_MS,
  type HostEndpoint,
  type PaintFrame,
  type SnapshotMessage,
  type WorkerEndpoint,
  type WorkerToHost,
} from '../src/worker/protocol';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { scheduleProblem } from '../src/ui/controls/ScheduleEditor';
import { createLabStore } from '../src/ui/store/labStore';

function setup(options: DriverOptions = {}) {
  const channel = new MessageChannel();
  let realNow = 1000;
  const frames: (() => void)[] = [];
  const driver = new SimDriver(
    channel.port1 as unknown as WorkerEndpoint,
    {
      now: () => realNow,
      requestFrame: (cb) => frames.push(cb),
    },
    options,
  );
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
  // The bridge's own handler, to hand it a message again as if it arrived late.
  const deliver = (message: WorkerToHost) => channel.port2.dispatchEvent(new MessageEvent('message', { data: message }));
  return { driver, bridge, store, frame, received, close, frames, deliver };
}

let current: ReturnType<typeof setup> | null = null;
afterEach(() => {
  current?.close();
  current = null;
});

describe('worker protocol over a MessageChannel', () => {
  it('loads a run and posts a snapshot with the recorded schedule', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { label: 'chapter' });
    await t.frame();
    const s = t.store.getState();
    expect(s.frame.runId).toBe(1);
    expect(s.frame.snapshot?.now).toBe(0);
    expect(s.frame.snapshot?.nodes.map((n) => n.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(formatSchedule(s.frame.schedule)).toContain('@1168 crash n2');
    expect(s.frame.label).toBe('chapter');
    expect(s.frame.playing).toBe(false);
  });

  it('answers a bad config with one sentence and keeps the old run', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.stepMs(200);
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(200);
    t.bridge.load({ ...DEFAULT_CONFIG, nodeIds: nodeIdsFor(12) }, []);
    await t.frame();
    const s = t.store.getState();
    expect(s.error).toBe('A cluster has 1 to 9 nodes, not 12.');
    expect(s.frame.runId).toBe(1);
    expect(s.frame.snapshot?.now).toBe(200);
    // Schedule text is read at the edge (the schedule editor, a link, the CLI), with one sentence;
    // actions that do not fit the configuration are still refused by the worker.
    expect(scheduleProblem('@10 explode n1', DEFAULT_CONFIG)).toMatch(/unknown verb "explode"/);
    t.bridge.load(DEFAULT_CONFIG, parseSchedule('@10 crash n9'));
    await t.frame();
    expect(t.store.getState().error).toMatch(/names node "n9", which is not in the cluster/);
    expect(t.store.getState().frame.snapshot?.now).toBe(200);
  });

  it('plays at speed × elapsed real time and never builds a backlog', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { playing: true });
    t.bridge.setSpeed(0.5);
    await t.frame(); // first frame only starts the clock
    await t.frame(100);
    expect(t.store.getState().frame.snapshot?.now).toBe(50);
    // A tab throttled for 5 s accounts for at most 100 ms of real time.
    await t.frame(5000);
    expect(t.store.getState().frame.snapshot?.now).toBe(100);
    t.bridge.setSpeed(1000);
    expect(t.store.getState().frame.speed).toBe(100);
  });

  it('holds back a playing run while the page has not drawn its last frame, and posts as soon as it has', async () => {
    const channel = new MessageChannel();
    let realNow = 1000;
    const frames: (() => void)[] = [];
    const driver = new SimDriver(channel.port1 as unknown as WorkerEndpoint, { now: () => realNow, requestFrame: (cb) => frames.push(cb) });
    const received: WorkerToHost[] = [];
    channel.port2.addEventListener('message', (e) => received.push(e.data as WorkerToHost));
    channel.port1.start();
    channel.port2.start();
    const settle = () => new Promise((r) => setTimeout(r, 5));
    const frame = async () => {
      await settle();
      realNow += 16;
      for (const cb of frames.splice(0)) cb();
      await settle();
    };
    try {
      channel.port2.postMessage({ type: 'load', config: DEFAULT_CONFIG, schedule: [], playing: true });
      channel.port2.postMessage({ type: 'speed', speed: 1 });
      await frame();
      // A page that never says 'shown' is posted every frame (tests, older hosts).
      let before = received.length;
      await frame();
      expect(received.length - before).toBe(1);
      channel.port2.postMessage({ type: 'shown' });
      await frame();
      before = received.length;
      // One frame is out and not drawn: the run plays on, nothing more is posted.
      await frame();
      await frame();
      expect(received.length - before).toBe(0);
      const heldAt = received.at(-1);
      channel.port2.postMessage({ type: 'shown' });
      await settle();
      // Drawn: the held-back frame goes out at once, with the time the run reached meanwhile.
      expect(received.length - before).toBe(1);
      const next = received.at(-1);
      const timeOf = (m: WorkerToHost | undefined) => (m?.type === 'snapshot' ? m.snapshot.now : m?.type === 'clock' ? m.clockMs : -1);
      expect(timeOf(next)).toBeGreaterThan(timeOf(heldAt));
    } finally {
      driver.dispose();
      channel.port1.close();
      channel.port2.close();
    }
  });

  it('posts at most one message per frame', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { playing: true });
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
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { playing: true });
    t.bridge.setSpeed(0.01);
    await t.frame();
    await t.frame(16);
    const last = t.received.at(-1);
    expect(last?.type).toBe('clock');
    expect(t.store.getState().frame.clockMs).toBeCloseTo(0.16, 5);
  });

  it('feeds an attached paint worker every frame of motion, and a playing page only every PAGE_FRAME_MS (commands at once)', async () => {
    const t = (current = setup());
    const paint = new MessageChannel();
    const painted: PaintFrame[] = [];
    paint.port2.addEventListener('message', (e) => painted.push(e.data as PaintFrame));
    paint.port2.start();
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { startAtMs: 170 });
    await t.frame();
    const detach = t.bridge.attachPainter(paint.port1);
    await t.frame();
    // Attaching sends the run's view at once: the fields the canvas draws, as the snapshot has them.
    const first = painted.at(-1);
    const snap = t.store.getState().frame.snapshot;
    expect(first?.clockMs).toBe(170);
    expect(first?.view?.messages.length).toBeGreaterThan(0);
    expect(first?.view?.messages).toEqual(
      snap?.messages.map((m) => ({
        seq: m.seq,
        type: m.type,
        src: m.src,
        dst: m.dst,
        sentAt: m.sentAt,
        deliverAt: m.deliverAt,
        lost: m.lost,
        ok: m.ok,
        heartbeat: m.heartbeat,
      })),
    );
    expect(first?.view?.nodes).toEqual(
      snap?.nodes.map((n) => ({
        id: n.id,
        alive: n.alive,
        role: n.role,
        electionTimerStart: n.electionTimerStart,
        electionDeadline: n.electionDeadline,
      })),
    );
    // Playing at 1x for 20 frames of 10 ms: the painter hears every frame, the page every PAGE_FRAME_MS.
    t.bridge.setSpeed(1);
    t.bridge.play();
    await t.frame();
    const paintedBefore = painted.length;
    const postedBefore = t.received.length;
    for (let i = 0; i < 20; i++) await t.frame(10);
    expect(painted.length - paintedBefore).toBe(20);
    const posts = t.received.length - postedBefore;
    expect(posts).toBeGreaterThanOrEqual(Math.floor(200 / PAGE_FRAME_MS) - 1);
    expect(posts).toBeLessThanOrEqual(Math.ceil(200 / PAGE_FRAME_MS) + 1);
    // A command is answered in the next frame, pace or no pace.
    const beforePause = t.received.length;
    t.bridge.pause();
    await t.frame(1);
    expect(t.received.length).toBe(beforePause + 1);
    expect(t.store.getState().frame.playing).toBe(false);
    expect(painted.at(-1)?.clockMs).toBe(t.store.getState().frame.clockMs);
    // While playing the frames carried only what changed; put together they are the run's view.
    expect(painted.slice(paintedBefore).some((f) => f.change && !f.view)).toBe(true);
    const rebuilt = painted.reduce(applyPaintFrame, EMPTY_PAINT_VIEW);
    const now = t.store.getState().frame.snapshot;
    expect(rebuilt.messages).toEqual(
      now?.messages.map((m) => ({
        seq: m.seq,
        type: m.type,
        src: m.src,
        dst: m.dst,
        sentAt: m.sentAt,
        deliverAt: m.deliverAt,
        lost: m.lost,
        ok: m.ok,
        heartbeat: m.heartbeat,
      })),
    );
    expect(rebuilt.nodes).toEqual(
      now?.nodes.map((n) => ({
        id: n.id,
        alive: n.alive,
        role: n.role,
        electionTimerStart: n.electionTimerStart,
        electionDeadline: n.electionDeadline,
      })),
    );
    // Very slow playback moves only the clock: the painter gets the clock alone.
    const pausedAt = t.store.getState().frame.clockMs;
    t.bridge.setSpeed(0.01);
    t.bridge.play();
    await t.frame();
    await t.frame(16);
    expect(painted.at(-1)?.view).toBeUndefined();
    expect(painted.at(-1)?.clockMs).toBeCloseTo(pausedAt + 0.16, 5);
    detach();
    await t.frame();
    const count = painted.length;
    await t.frame(100);
    await t.frame(100);
    expect(t.received.length).toBeGreaterThan(0);
    expect(painted.length).toBe(count);
    paint.port2.close();
  });

  it('steps one ms, steps to the next event and streams the event lines', async () => {
    const t = (current = setup());
    // A run with an end (a preset's): Next event finds events up to it, computing them if need be.
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { stopAtMs: 2000 });
    await t.frame();
    t.bridge.stepMs();
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(1);
    t.bridge.stepToNextEvent();
    await t.frame();
    const s = t.store.getState();
    expect(s.frame.snapshot?.now).toBe(156);
    expect(s.events.map((e) => e.line)).toEqual(['t=  156 ms n2 election timeout, candidate in term 1']);
    t.bridge.stepToNextEvent();
    await t.frame();
    expect(t.store.getState().events.at(-1)?.line).toMatch(/n2 wins term 1/);
  });

  it('records a person’s action at the current time, and rejects a bad one', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.stepMs(300);
    t.bridge.act({ verb: 'crash', node: 'n2' });
    await t.frame();
    const s = t.store.getState();
    expect(formatSchedule(s.frame.schedule)).toBe('@300 crash n2');
    expect(s.frame.snapshot?.nodes[1].alive).toBe(false);
    t.bridge.act({ verb: 'crash', node: 'n7' });
    await t.frame();
    expect(t.store.getState().error).toMatch(/node "n7", which is not in the cluster/);
  });

  it("streams the viewed run's detail events with its events, and starts both afresh on a seek back", async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    t.bridge.stepMs(1500);
    await t.frame();
    t.bridge.stepMs(753);
    await t.frame();
    const s = t.store.getState();
    const reference = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { recordDetails: true });
    reference.advanceTo(2253);
    expect(s.eventsBase).toBe(0);
    expect(s.events).toEqual(reference.cluster.events);
    expect(s.details).toEqual(reference.cluster.details);
    expect(s.details.some((d) => d.kind === 'truncated')).toBe(true);
    t.bridge.seek(1400);
    await t.frame();
    const back = t.store.getState();
    expect(back.details.length).toBeGreaterThan(0);
    expect(back.details.every((d) => d.t <= 1400)).toBe(true);
    expect(back.details).toEqual(reference.cluster.details.filter((d) => d.t <= 1400));
  });

  it('after a long jump the host gets the newest details, then every new one in order', async () => {
    const t = (current = setup());
    const schedule = parseSchedule('@300 crash n3; @300 crash n4');
    t.bridge.load(DEFAULT_CONFIG, schedule);
    await t.frame();
    t.bridge.stepMs(40_000);
    await t.frame();
    t.bridge.stepMs(300);
    await t.frame();
    const reference = new Simulation(DEFAULT_CONFIG, schedule, { recordDetails: true });
    reference.advanceTo(40_300);
    const all = reference.cluster.details;
    const s = t.store.getState();
    expect(all.length).toBeGreaterThan(MAX_DETAILS_ON_RESET + 100);
    expect(s.details.length).toBeGreaterThan(MAX_DETAILS_ON_RESET);
    expect(s.details).toEqual(all.slice(all.length - s.details.length));
  });

  it('seeks back by replaying the run, and forward by stepping', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    t.bridge.seek(2253);
    await t.frame();
    const forward = t.store.getState();
    expect(forward.frame.snapshot?.now).toBe(2253);
    const linesAtEnd = forward.events.map((e) => e.line);
    expect(linesAtEnd).toContain('t= 1168 ms n2 crashes');
    expect(linesAtEnd).toContain('t= 1953 ms partition healed');
    t.bridge.seek(1000);
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(1000);
    t.bridge.seek(2253);
    await t.frame();
    expect(t.store.getState().events.map((e) => e.line)).toEqual(linesAtEnd);
    t.bridge.seek(MAX_SEEK_MS + 1);
    await t.frame();
    expect(t.store.getState().error).toMatch(/whole number of ms from 0 to/);
  });

  it('pauses at a preset’s end and replays to a start time on load', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { startAtMs: 500, stopAtMs: 520, playing: true });
    t.bridge.setSpeed(1);
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(500);
    await t.frame(50);
    const s = t.store.getState();
    expect(s.frame.snapshot?.now).toBe(520);
    expect(s.frame.playing).toBe(false);
  });

  it('seeks through the timeline: back, forward and back again land on the same run', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    t.bridge.seek(2253);
    await t.frame();
    const fresh = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    fresh.advanceTo(1500);
    t.bridge.seek(1500);
    await t.frame();
    const s = t.store.getState();
    expect(s.frame.snapshot?.now).toBe(1500);
    expect(s.events.map((e) => e.line)).toEqual(fresh.cluster.events.map((e) => e.line));
    expect(s.frame.snapshot?.nodes.map((n) => [n.id, n.role, n.term, n.logLength, n.commitIndex])).toEqual(
      fresh.cluster.nodes.map((n) => [n.id, n.alive ? n.role : n.role, n.term, n.log.length, n.commitIndex]),
    );
    expect(s.frame.horizonMs).toBe(2253);
  });

  it('coalesces a burst of seeks (a dragged scrubber) into one per frame', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    const before = t.received.length;
    for (let ms = 100; ms <= 2000; ms += 100) t.bridge.seek(ms);
    await t.frame();
    expect(t.received.length - before).toBe(1);
    expect(t.store.getState().frame.snapshot?.now).toBe(2000);
  });

  it('sends the landmarks, and steps to the previous and next event and landmark', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    t.bridge.seek(2253);
    await t.frame();
    const marks = t.store.getState().landmarks;
    expect(marks.map((m) => `${m.t} ${m.kind}`)).toEqual([
      '168 leader',
      '1168 crash',
      '1360 leader',
      '1360 restart',
      '1560 partition',
      '1753 leader',
      '1953 heal',
    ]);
    t.bridge.seek(1200);
    await t.frame();
    expect(t.bridge.jumpToLandmark(-1)).toBe(true);
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(1168);
    t.bridge.jumpToLandmark(1);
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(1360);
    t.bridge.stepToPreviousEvent();
    await t.frame();
    const prev = t.store.getState();
    expect(prev.frame.snapshot?.now).toBeLessThan(1360);
    expect(prev.events.at(-1)?.t).toBe(prev.frame.snapshot?.now);
    t.bridge.stepToNextEvent();
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(1360);
    expect(t.store.getState().events.at(-1)?.t).toBe(1360);
  });

  it('acting in the past forks the run; undo brings the set-aside actions back, redo forks again', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    await t.frame();
    t.bridge.seek(2253);
    await t.frame();
    const fullLog = t.store.getState().events.map((e) => e.line);
    t.bridge.seek(1500);
    t.bridge.act({ verb: 'crash', node: 'n1' });
    await t.frame();
    let s = t.store.getState();
    expect(formatSchedule(s.frame.schedule)).toBe('@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1410 submit x=2; @1500 crash n1');
    expect(s.frame.snapshot?.now).toBe(1500);
    expect(s.events.at(-1)?.line).toBe('t= 1500 ms n1 crashes');
    expect([s.frame.canUndo, s.frame.canRedo]).toEqual([true, false]);
    expect(s.frame.horizonMs).toBe(1500); // the old future is gone
    t.bridge.undo();
    await t.frame();
    s = t.store.getState();
    expect(formatSchedule(s.frame.schedule)).toBe(formatChapter());
    expect(s.frame.snapshot?.now).toBe(1500);
    expect([s.frame.canUndo, s.frame.canRedo]).toEqual([false, true]);
    t.bridge.seek(2253);
    await t.frame();
    expect(t.store.getState().events.map((e) => e.line)).toEqual(fullLog);
    t.bridge.redo();
    await t.frame();
    s = t.store.getState();
    expect(formatSchedule(s.frame.schedule)).toMatch(/@1500 crash n1$/);
    expect(s.frame.snapshot?.now).toBe(2253);
    expect(s.events.map((e) => e.line)).toContain('t= 1500 ms n1 crashes');
  });

  it('checks every invariant on this run up to the horizon, and counts stale unfenced writes apart', async () => {
    const t = (current = setup());
    const fencing = findPreset('fencing')!;
    t.bridge.load(fencing.config, parseSchedule(fencing.schedule));
    await t.frame();
    t.bridge.seek(15000);
    await t.frame();
    await t.frame();
    const check = t.store.getState().frame.check;
    expect(check).toEqual({ checkedToMs: 15000, violation: null, staleWrites: 1 });
  });

  it('points at the first violation of a run with a bug, exactly where the fuzzer found it', async () => {
    const t = (current = setup());
    const config = {
      ...DEFAULT_CONFIG,
      seed: 675600611,
      nodeIds: nodeIdsFor(7),
      electionTimeoutMs: [141, 152] as const,
      heartbeatMs: 34,
      latencyMs: [6, 26] as const,
      clientIds: ['A', 'B', 'C', 'D'],
      bugs: ['no-fencing' as const],
    };
    const schedule = '@5158 client C pause 786; @5158 client C write k1=C5; @5528 client B acquire k1 48; @5528 client B write k1=B6';
    t.bridge.load(config, parseSchedule(schedule), { startAtMs: 6000 });
    await t.frame();
    await t.frame();
    const v = t.store.getState().frame.check?.violation;
    expect(v).toMatchObject({ invariant: 'fencing', t: 5950, nodes: ['C', 'fenced'] });
    // Without the bug the same schedule holds.
    t.bridge.load({ ...config, bugs: [] }, parseSchedule(schedule), { startAtMs: 6000 });
    await t.frame();
    await t.frame();
    expect(t.store.getState().frame.check).toMatchObject({ checkedToMs: 6000, violation: null });
  });

  it('finds a counterexample in slices with progress, and loads it paused at the violation', async () => {
    const t = (current = setup({ fuzzStepsPerFrame: 4 }));
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.findCounterexample({ seed: 42, runs: 20, bugs: ['no-fencing'] });
    expect(t.store.getState().fuzzRunning).toBe(true);
    for (let i = 0; i < 200 && t.store.getState().fuzzRunning; i++) await t.frame(40);
    const s = t.store.getState();
    const done = s.fuzzDone!;
    expect(done.found?.violation.invariant).toBe('fencing');
    expect(s.frame.label).toBe('counterexample');
    expect(s.frame.playing).toBe(false);
    expect(s.frame.snapshot?.now).toBe(done.found!.violation.t);
    expect(s.frame.config.bugs).toEqual(['no-fencing']);
    expect(s.frame.schedule).toEqual(done.found!.schedule);
    await t.frame();
    expect(t.store.getState().frame.check?.violation).toMatchObject({ invariant: 'fencing', t: done.found!.violation.t });
    expect(t.received.some((m) => m.type === 'fuzz-progress')).toBe(true);
  });

  it('keeps every run of the search to the features asked for, so the counterexample found has them', async () => {
    const t = (current = setup({ fuzzStepsPerFrame: 4 }));
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.findCounterexample({ seed: 42, runs: 20, bugs: ['no-fencing'], features: ['leader-noop'] });
    for (let i = 0; i < 200 && t.store.getState().fuzzRunning; i++) await t.frame(40);
    const s = t.store.getState();
    expect(s.fuzzDone?.found?.violation.invariant).toBe('fencing');
    expect(s.frame.config.features).toEqual(['leader-noop']);
  });

  it('reports progress while searching and can be cancelled', async () => {
    const t = (current = setup({ fuzzStepsPerFrame: 1 }));
    t.bridge.findCounterexample({ seed: 1, runs: 500, bugs: [], durationMs: 2000 });
    await t.frame(10);
    await t.frame(10);
    const p = t.store.getState().fuzzProgress!;
    expect(p.phase).toBe('search');
    expect(p.runsDone).toBeGreaterThanOrEqual(1);
    expect(p.runs).toBe(500);
    expect(p.runsPerSec).toBeGreaterThan(0);
    t.bridge.cancelFuzz();
    await t.frame();
    const s = t.store.getState();
    expect(s.fuzzRunning).toBe(false);
    expect(s.fuzzDone).toMatchObject({ cancelled: true, found: null });
    expect(s.fuzzDone!.runsDone).toBeLessThan(500);
  });
});

describe("playback at the run's end and the page's cap (the classroom frictions)", () => {
  it('Next event in a quiet run stays put with one sentence instead of jumping, and the end never grows', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.stepMs(1000); // a person reached 1000 ms: that is the run's end
    await t.frame();
    expect(t.store.getState().frame.endMs).toBe(1000);
    for (let i = 0; i < 8; i++) {
      t.bridge.stepToNextEvent();
      await t.frame();
    }
    const s = t.store.getState();
    expect(s.frame.snapshot?.now).toBe(1000);
    expect(s.frame.horizonMs).toBe(1000);
    expect(s.frame.endMs).toBe(1000);
    expect(s.error).toBe("No event after t = 1000 ms up to the run's end at 1000 ms; press Play or → to run further.");
    // Playing on moves the end: a person reached further.
    t.bridge.stepMs(500);
    await t.frame();
    expect(t.store.getState().frame.endMs).toBe(1500);
    expect(t.store.getState().error).toBeNull();
  });

  it("in the chapter's preset Next event never passes its end (2253 ms), from just before it or at it", async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { stopAtMs: 2253, label: 'chapter' });
    await t.frame();
    expect(t.store.getState().frame.endMs).toBe(2253);
    t.bridge.seek(1962);
    await t.frame();
    for (let i = 0; i < 20; i++) {
      t.bridge.stepToNextEvent();
      await t.frame();
      const f = t.store.getState().frame;
      expect(f.snapshot!.now).toBeLessThanOrEqual(2253);
      expect([f.horizonMs <= 2253, f.endMs]).toEqual([true, 2253]);
    }
    const now = t.store.getState().frame.snapshot!.now;
    expect(t.store.getState().error).toBe(`No event after t = ${now} ms up to the run's end at 2253 ms; press Play or → to run further.`);
    t.bridge.seek(2253);
    await t.frame();
    t.bridge.stepToNextEvent();
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(2253);
    expect(t.store.getState().frame.endMs).toBe(2253);
  });

  it('Next event computes ahead up to the last scheduled action, and no further', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule('@5000 crash n2'));
    await t.frame();
    t.bridge.stepMs(400);
    await t.frame();
    expect(t.store.getState().frame.endMs).toBe(5000);
    let now = 400;
    for (let i = 0; i < 10 && now < 5000; i++) {
      t.bridge.stepToNextEvent();
      await t.frame();
      now = t.store.getState().frame.snapshot!.now;
    }
    expect(now).toBe(5000);
    expect(t.store.getState().events.at(-1)?.line).toMatch(/n2 crashes/);
    t.bridge.stepToNextEvent();
    await t.frame();
    expect(t.store.getState().frame.snapshot?.now).toBe(5000);
    expect(t.store.getState().frame.endMs).toBe(5000);
    expect(t.store.getState().error).toMatch(/^No event after t = 5000 ms up to the run's end at 5000 ms/);
  });

  it('an action in the past reports the fork (where, and how many actions were set aside); undo takes it back', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { stopAtMs: 2253, label: 'chapter' });
    await t.frame();
    expect(t.store.getState().frame.fork).toBeNull();
    t.bridge.seek(1200);
    t.bridge.act({ verb: 'crash', node: 'n1' });
    await t.frame();
    const later = parseSchedule(CHAPTER_SCHEDULE).filter((a) => a.at > 1200).length;
    expect(t.store.getState().frame.fork).toEqual({ atMs: 1200, last: { atMs: 1200, setAside: later } });
    expect(t.store.getState().frame.label).toBe('chapter');
    // A later action that changes nothing in the past keeps the fork, but is not itself one.
    t.bridge.act({ verb: 'crash', node: 'n3' });
    await t.frame();
    expect(t.store.getState().frame.fork).toEqual({ atMs: 1200, last: null });
    t.bridge.undo();
    t.bridge.undo();
    await t.frame();
    expect(t.store.getState().frame.fork).toBeNull();
    expect(formatSchedule(t.store.getState().frame.schedule)).toBe(CHAPTER_SCHEDULE);
  });

  it('an action at the furthest time reached is no fork', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''));
    await t.frame();
    t.bridge.stepMs(300);
    t.bridge.act({ verb: 'crash', node: 'n2' });
    await t.frame();
    expect(t.store.getState().frame.fork).toBeNull();
    t.bridge.seek(100);
    t.bridge.act({ verb: 'crash', node: 'n1' });
    await t.frame();
    expect(t.store.getState().frame.fork).toEqual({ atMs: 100, last: { atMs: 100, setAside: 1 } });
  });

  it('Go to while playing pauses and lands exactly', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { playing: true });
    t.bridge.setSpeed(1);
    await t.frame();
    await t.frame(100);
    expect(t.store.getState().frame.playing).toBe(true);
    t.bridge.goTo(1000);
    await t.frame(100);
    await t.frame(100);
    const f = t.store.getState().frame;
    expect([f.snapshot?.now, f.playing]).toEqual([1000, false]);
  });

  it("the page's cap: playing stops there and says so; Play, → and Next event there say one sentence", async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(''), { startAtMs: MAX_SEEK_MS - 50, playing: true });
    t.bridge.setSpeed(1);
    await t.frame();
    await t.frame(100);
    let s = t.store.getState();
    expect([s.frame.snapshot?.now, s.frame.playing, s.frame.endMs]).toEqual([MAX_SEEK_MS, false, MAX_SEEK_MS]);
    expect(s.error).toBe(AT_CAP_SENTENCE);
    expect(AT_CAP_SENTENCE).toMatch(/end of the page's 600 s/);
    for (const press of [() => t.bridge.play(), () => t.bridge.stepMs(1), () => t.bridge.stepToNextEvent()]) {
      press();
      await t.frame(100);
      s = t.store.getState();
      expect([s.frame.snapshot?.now, s.frame.playing, s.error]).toEqual([MAX_SEEK_MS, false, AT_CAP_SENTENCE]);
    }
  });

  it('refuses a schedule with actions past the cap, with one sentence, and keeps the run', async () => {
    const t = (current = setup());
    t.bridge.load(DEFAULT_CONFIG, parseSchedule('@1168 crash n2'));
    await t.frame();
    t.bridge.load(DEFAULT_CONFIG, parseSchedule('@1000 crash n1; @700000 crash n2'));
    await t.frame();
    const s = t.store.getState();
    expect(s.error).toBe(
      `Action 2 ("@700000 crash n2") is past the end of the page's 600 s: the page plays runs up to ${MAX_SEEK_MS} ms (the command line goes further).`,
    );
    expect(formatSchedule(s.frame.schedule)).toBe('@1168 crash n2');
  });
});

const formatChapter = () => CHAPTER_SCHEDULE;

describe('the speed playback runs at: a tour beat’s pace and “slow around events” (pacing.ts)', () => {
  it('follows a pace plan by simulated time, back to the chosen speed at the stop; a speed picked meanwhile drops it', async () => {
    const t = (current = setup());
    t.bridge.setSpeed(0.1);
    const pace = [
      { fromMs: 0, speed: 1 },
      { fromMs: 150, speed: 0.005 },
    ];
    t.bridge.load(DEFAULT_CONFIG, [], { playing: true, stopAtMs: 400, pace });
    // The box shows the plan's first speed at once; the link keeps the person's.
    expect(t.store.getState().frame.speed).toBe(1);
    await t.frame();
    await t.frame(100);
    expect(t.store.getState().frame.snapshot?.now).toBe(100);
    // 50 real ms at 1× reach 150 exactly, where it slows: the next 50 add a quarter of a ms.
    await t.frame(100);
    expect(t.store.getState().frame.snapshot?.now).toBe(150);
    expect(t.store.getState().frame.speed).toBe(0.005);
    expect(t.store.getState().frame.chosenSpeed).toBe(0.1);
    // The person picks 2×: the plan gives way.
    t.bridge.setSpeed(2);
    await t.frame(100);
    expect(t.store.getState().frame.snapshot?.now).toBe(350);
    expect(t.store.getState().frame.speed).toBe(2);

    // A plan that runs to its stop hands back the chosen speed there.
    t.bridge.load(DEFAULT_CONFIG, [], { playing: true, stopAtMs: 120, pace: [{ fromMs: 0, speed: 2 }] });
    await t.frame();
    await t.frame(100);
    expect(t.store.getState().frame.playing).toBe(false);
    expect(t.store.getState().frame.snapshot?.now).toBe(120);
    expect(t.store.getState().frame.speed).toBe(2);
    expect(t.store.getState().frame.chosenSpeed).toBe(2);
  });

  it('slow around events sees a landmark coming and slows down before it, not after', async () => {
    const t = (current = setup());
    t.bridge.setSpeed(1);
    t.bridge.setSlowAround(true);
    // The chapter's crash of n2 at 1168 ms is the next landmark after 1000 ms.
    t.bridge.load(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE), { startAtMs: 1000, playing: true });
    await t.frame();
    await t.frame(50);
    expect(t.store.getState().frame.snapshot?.now).toBe(1050);
    expect(t.store.getState().frame.speed).toBe(1);
    // 18 real ms reach 1068 (100 ms before the crash), then a quarter speed: 1068 + 8.
    await t.frame(50);
    expect(t.store.getState().frame.snapshot?.now).toBe(1076);
    expect(t.store.getState().frame.speed).toBe(0.25);
    expect(t.store.getState().frame.chosenSpeed).toBe(1);
    // Off again: the chosen speed.
    t.bridge.setSlowAround(false);
    await t.frame(50);
    expect(t.store.getState().frame.speed).toBe(1);
  });
});

// The speed a person asks for is not put back by a frame the worker sent before it heard: two quick
// presses of − step twice (found by the presenter's speed-keys test on a loaded machine).
describe('the speed a person asks for', () => {
  it('stays while frames sent before the worker heard arrive, then follows the worker again', async () => {
    const t = (current = setup());
    t.bridge.setSpeed(0.1);
    t.bridge.load(DEFAULT_CONFIG, [], { playing: true });
    for (let i = 0; i < 5; i++) await t.frame(100);
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
