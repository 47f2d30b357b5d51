import { describe, expect, it } from 'vitest';
import { FATE } from '../src/sim/view/traceColumns';
import { laneLayout, SERVICE_LANE } from '../src/ui/spacetime/lanes';
import { buildScene, LANE_GEOMETRY, storeMarkText, type SceneOptions } from '../src/ui/spacetime/scene';
import { longRun, traceView } from './helpers/traceFixture';

const OPTS: SceneOptions = { window: [0, 1000], top: 40, height: 500, heartbeats: 'show' };

describe('space-time scene: arrows', () => {
  const trace = traceView({
    untilMs: 1000,
    messages: [
      { type: 'RequestVote', from: 'n1', to: 'n2', sentAt: 100, endAt: 110 },
      { type: 'VoteReply', from: 'n2', to: 'n1', sentAt: 110, endAt: 121, ok: false },
      { type: 'AppendEntries', from: 'n1', to: 'n3', sentAt: 200, endAt: 220, fate: 'loss' },
      { type: 'AppendEntries', from: 'n1', to: 'n4', sentAt: 200, endAt: 214, fate: 'down' },
      { type: 'AppendEntries', from: 'n1', to: 'n2', sentAt: 300, endAt: 310, heartbeat: true },
      { type: 'ClientRequest', from: 'A', to: 'n1', sentAt: 400, endAt: 700 },
      { type: 'AppendEntries', from: 'n1', to: 'n5', sentAt: 990 },
    ],
  });
  const layout = laneLayout(trace.actorIds, trace.actors, 64 + 900);
  const x = (id: string) => layout.byId.get(id)!.x;

  it('draws every message in the window from sender to receiver, styled by kind', () => {
    const scene = buildScene(trace, layout, OPTS);
    expect(scene.arrows.map((a) => a.kind)).toEqual([
      'vote-request',
      'vote-refused',
      'append',
      'append',
      'heartbeat',
      'client-request',
      'append',
    ]);
    expect(scene.arrows[0]).toMatchObject({
      from: 'n1',
      to: 'n2',
      x1: x('n1'),
      x2: x('n2'),
      y1: 90,
      y2: 95,
      endAt: 110,
      fate: FATE.delivered,
    });
    expect(scene.ticks).toEqual([]);
  });

  it('ends a dropped message at its drop time, mid-way when lost, near the receiver when it was down', () => {
    const [, , lost, down] = buildScene(trace, layout, OPTS).arrows;
    expect(lost).toMatchObject({ dropReason: 'loss', fate: FATE.loss, x2: (x('n1') + x('n3')) / 2, y2: 40 + 110 });
    expect(down.dropReason).toBe('down');
    expect(down.x2).toBeCloseTo(x('n1') + (x('n4') - x('n1')) * 0.88);
  });

  it('runs a message still in flight to the end of the trace', () => {
    const last = buildScene(trace, layout, OPTS).arrows.at(-1)!;
    expect(last).toMatchObject({ endAt: null, fate: FATE.inFlight, y2: 540 });
  });

  it('keeps only what crosses the window, including a long message sent before it', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [500, 600] });
    expect(scene.arrows.map((a) => a.type)).toEqual(['ClientRequest']);
    expect(buildScene(trace, layout, { ...OPTS, window: [130, 190] }).arrows).toEqual([]);
  });

  it('folds heartbeats into ticks on the sender lane', () => {
    const scene = buildScene(trace, layout, { ...OPTS, heartbeats: 'fold' });
    expect(scene.arrows.some((a) => a.kind === 'heartbeat')).toBe(false);
    expect(scene.ticks).toEqual([{ row: 4, x: x('n1') - LANE_GEOMETRY.tick, y: 40 + 150, kind: 'heartbeat' }]);
  });

  it('on a service lane hides messages between nodes and lands client messages on it', () => {
    const folded = laneLayout(trace.actorIds, trace.actors, 850, ['A', SERVICE_LANE, 'B', 'fenced']);
    const scene = buildScene(trace, folded, OPTS);
    expect(scene.arrows.map((a) => [a.type, a.from, a.to])).toEqual([['ClientRequest', 'A', 'n1']]);
    expect(scene.arrows[0].x2).toBe(folded.byId.get(SERVICE_LANE)!.x);
  });
});

describe('space-time scene: bands, leases and stores', () => {
  const trace = traceView({
    untilMs: 2000,
    nodeSpans: [
      { node: 'n1', from: 0, to: 150, state: 'follower', term: 1 },
      { node: 'n1', from: 150, to: 160, state: 'candidate', term: 2 },
      { node: 'n1', from: 160, to: 900, state: 'leader', term: 2 },
      { node: 'n1', from: 900, to: null, state: 'down', term: 2 },
      { node: 'n2', from: 950, to: null, state: 'leader', term: 3 },
    ],
    clientSpans: [
      { client: 'A', from: 0, to: 500, state: 'up' },
      { client: 'A', from: 500, to: 1500, state: 'paused' },
    ],
    partitions: [
      {
        from: 800,
        to: 1200,
        groups: [
          ['n1', 'n2'],
          ['n3', 'n4', 'n5'],
        ],
      },
    ],
    leases: [
      { side: 'client', holder: 'A', owner: 'A', key: 'job', token: 1, from: 200, to: 1200, ended: 'ran-out' },
      { side: 'service', holder: 'n1', owner: 'A', key: 'job', token: 1, from: 190, to: 900, ended: 'deposed' },
      { side: 'client', holder: 'B', owner: 'B', key: 'job', token: 2, from: 1300, to: null, ended: null },
    ],
    messages: [
      { type: 'StoreWrite', from: 'B', to: 'fenced', sentAt: 1310, endAt: 1320 },
      { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 1500, endAt: 1510 },
    ],
    storeMarks: [
      {
        store: 'fenced',
        t: 1320,
        message: 1,
        client: 'B',
        key: 'job',
        value: 'b',
        token: 2,
        accepted: true,
        highestBefore: 1,
        leaseEnded: false,
        reason: null,
      },
      {
        store: 'fenced',
        t: 1510,
        message: 2,
        client: 'A',
        key: 'job',
        value: 'a',
        token: 1,
        accepted: false,
        highestBefore: 2,
        leaseEnded: true,
        reason: 'token 1 is below 2',
      },
    ],
  });
  const layout = laneLayout(trace.actorIds, trace.actors, 64 + 900);
  const x = (id: string) => layout.byId.get(id)!.x;

  it('bands each node by role with its term labelled where it changes, and each client by state', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [100, 1000] });
    const n1 = scene.bands.filter((b) => b.lane === 'n1');
    expect(n1.map((b) => [b.state, b.label])).toEqual([
      ['follower', null],
      ['candidate', 'term 2'],
      ['leader', null],
      ['down', null],
    ]);
    expect(n1[0].y1).toBe(40);
    expect(scene.bands.filter((b) => b.lane === 'A').map((b) => [b.state, b.label])).toEqual([
      ['up', null],
      ['paused', 'paused'],
    ]);
  });

  it('shows the leader on a folded service lane', () => {
    const folded = laneLayout(trace.actorIds, trace.actors, 850, ['A', SERVICE_LANE, 'B', 'fenced']);
    const scene = buildScene(trace, folded, { ...OPTS, window: [0, 2000] });
    expect(scene.bands.filter((b) => b.lane === SERVICE_LANE).map((b) => b.label)).toEqual(['n1 leads, term 2', 'n2 leads, term 3']);
  });

  it('shades each side of a partition across its lanes, coloured as the ring colours them: majority blue, minority orange', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [0, 2000] });
    expect(scene.partitions).toHaveLength(2);
    const [small, big] = scene.partitions;
    expect(small).toMatchObject({ group: 1, minority: true, label: 'side 1: n1, n2', x1: x('n1') - 48, x2: x('n2') + 48 });
    expect(big).toMatchObject({ group: 0, minority: false, x1: x('n3') - 48, x2: x('n5') + 48 });
  });

  it('puts the client lease left of its lane and the service lease right of the leader, comparable at a glance', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [0, 2000] });
    const client = scene.leases.find((l) => l.side === 'client' && l.owner === 'A')!;
    const service = scene.leases.find((l) => l.side === 'service')!;
    expect(client).toMatchObject({ lane: 'A', x: x('A') - LANE_GEOMETRY.lease, label: "A's lease, token 1", open: false });
    expect(service).toMatchObject({ lane: 'n1', x: x('n1') + LANE_GEOMETRY.lease, label: 'service: A holds, token 1' });
    // The chapter's gap: the client believes in its lease longer than the service keeps it.
    expect(client.y2).toBeGreaterThan(service.y2);
    expect(scene.leases.find((l) => l.owner === 'B')?.open).toBe(true);
  });

  it('draws a dotted overrun from the end of a client lease to a write it sent afterwards', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [0, 2000] });
    expect(scene.overruns).toEqual([{ lane: 'A', x: x('A') - LANE_GEOMETRY.lease, y1: 40 + 300, y2: 40 + 375, client: 'A', token: 1 }]);
  });

  it('finds each lease overrun only up to the client next lease', () => {
    const t = traceView({
      untilMs: 4000,
      leases: [
        { side: 'client', holder: 'A', owner: 'A', key: 'job', token: 1, from: 200, to: 1200, ended: 'ran-out' },
        { side: 'client', holder: 'A', owner: 'A', key: 'job', token: 3, from: 2000, to: 3000, ended: 'released' },
        { side: 'client', holder: 'B', owner: 'B', key: 'job', token: 2, from: 1300, to: 1900, ended: 'released' },
      ],
      messages: [
        { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 1000, endAt: 1010 },
        { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 1500, endAt: 1510 },
        { type: 'StoreWrite', from: 'B', to: 'fenced', sentAt: 1600, endAt: 1610 },
        { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 2100, endAt: 2110 },
        { type: 'StoreWrite', from: 'A', to: 'unfenced', sentAt: 3500, endAt: 3510 },
      ],
    });
    const l = laneLayout(t.actorIds, t.actors, 64 + 900);
    const scene = buildScene(t, l, { ...OPTS, window: [0, 4000], height: 400 });
    expect(scene.overruns.map((o) => [o.client, o.token, o.y1 - 40, o.y2 - 40])).toEqual([
      ['A', 1, 120, 150],
      ['A', 3, 300, 350],
    ]);
  });

  it('marks each store write accepted or refused with the token comparison', () => {
    const scene = buildScene(trace, layout, { ...OPTS, window: [0, 2000], nowMs: 1000 });
    expect(scene.storeMarks.map((m) => [m.accepted, m.text, m.x])).toEqual([
      [true, 'token 2 ok', x('fenced')],
      [false, 'token 1 < 2 refused', x('fenced')],
    ]);
    expect(scene.storeMarks[1].lines).toEqual(['token 1 < 2', 'refused']);
    expect(storeMarkText({ accepted: true, token: null, highestBefore: null })).toBe('no token ok');
    expect(scene.cursorY).toBe(290);
    expect(buildScene(trace, layout, { ...OPTS, window: [0, 500], nowMs: 1000 }).cursorY).toBeNull();
  });

  it('labels the time axis in ms, or seconds when ticks are a second or more apart, the unit once at its head', () => {
    const msScene = buildScene(trace, layout, { ...OPTS, window: [0, 2000] });
    expect(msScene.axis.map((a) => a.label)).toContain('1,000');
    expect(msScene.axisUnit).toBe('ms');
    const secs = buildScene(trace, layout, { ...OPTS, window: [0, 600_000] });
    expect(secs.axis.map((a) => a.label)).toContain('100');
    expect(secs.axisUnit).toBe('s');
    expect(buildScene(trace, layout, { ...OPTS, window: [10, 12] }).axis.map((a) => a.label)).toContain('10.2');
    expect(secs.axis[0]).toMatchObject({ t: 0, y: 40 });
  });
});

// What a scene costs is measured in `npm run bench` (benchSpacetime.ts); here, that the work is
// proportional to what is visible: the arrows built for a window, and the merging of a whole run.
describe('space-time scene: work in proportion to the view', () => {
  it('builds only the arrows of a 1 s window of a 100k-message run, and fewer with heartbeats folded', () => {
    const trace = longRun(100_000, 600_000);
    const layout = laneLayout(trace.actorIds, trace.actors, 1400);
    const arrows = (w: readonly [number, number], heartbeats: 'show' | 'fold') =>
      buildScene(trace, layout, { window: w, top: 40, height: 800, heartbeats }).arrows.length;
    const oneSec = arrows([300_000, 301_000], 'show');
    expect(oneSec).toBeGreaterThan(150);
    expect(oneSec).toBeLessThan(200);
    expect(arrows([300_000, 360_000], 'fold')).toBeLessThan(arrows([300_000, 360_000], 'show'));
  });

  it('merges arrows that would land on the same pixels, so a whole 10-minute run draws a fraction of them', () => {
    const trace = longRun(100_000, 600_000);
    const layout = laneLayout(trace.actorIds, trace.actors, 1400);
    const whole = buildScene(trace, layout, { window: [0, 600_000], top: 40, height: 800, heartbeats: 'show' });
    expect(whole.arrows.length + whole.merged).toBe(100_000);
    expect(whole.arrows.length).toBeLessThan(20_000);
    // At a readable zoom nothing merges.
    expect(buildScene(trace, layout, { window: [300_000, 301_000], top: 40, height: 800, heartbeats: 'show' }).merged).toBe(0);
  });
});
