// The engine's fast paths must be invisible: the calendar message queue pops in the chapter's
// (deliverAt, seq) heap order, a prepared randint range draws what randint draws, and skipping
// quiet milliseconds ends in exactly the state stepping through them would.
import fc from 'fast-check';
import { matchIndexMap, nextIndexMap } from './helpers/leaderState';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../src/sim/net/cluster';
import { DEFAULT_CONFIG, nodeIdsFor, type SimConfig } from '../src/sim/model/config';
import { MessageQueue } from '../src/sim/net/messageQueue';
import { CPythonRandom, randintParams } from '../src/sim/model/prng';
import { runReport } from '../src/sim/view/report';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import type { Envelope } from '../src/sim/model/types';

const envelope = (deliverAt: number, seq: number): Envelope => ({
  deliverAt,
  seq,
  sentAt: 0,
  src: 'n1',
  dst: 'n2',
  payload: { type: 'VoteReply', term: 1, granted: true },
  lost: false,
});
const byTimeThenSeq = (a: Envelope, b: Envelope) => a.deliverAt - b.deliverAt || a.seq - b.seq;

describe('MessageQueue', () => {
  it('pops in (deliverAt, seq) order whatever the push order, and lists items in that order', () => {
    const q = new MessageQueue();
    const pushed = [envelope(12, 3), envelope(5, 9), envelope(12, 1), envelope(7, 2), envelope(5, 4)];
    for (const e of pushed) q.push(e);
    expect(q.size).toBe(5);
    expect(q.items).toEqual([...pushed].sort(byTimeThenSeq));
    expect(q.peekDeliverAt()).toBe(5);
    const popped: Envelope[] = [];
    while (q.size > 0) popped.push(q.pop() as Envelope);
    expect(popped).toEqual([...pushed].sort(byTimeThenSeq));
    expect(q.pop()).toBeUndefined();
    expect(q.peekDeliverAt()).toBe(Infinity);
  });

  it('grows when messages span more than its ring, and empties on clear', () => {
    const q = new MessageQueue();
    q.push(envelope(10, 1));
    q.push(envelope(100_000, 2));
    q.push(envelope(3, 3));
    expect(q.items.map((e) => e.deliverAt)).toEqual([3, 10, 100_000]);
    expect([q.pop()?.seq, q.pop()?.seq, q.pop()?.seq]).toEqual([3, 1, 2]);
    q.push(envelope(4, 4));
    q.clear();
    expect(q.size).toBe(0);
    expect(q.items).toEqual([]);
    q.push(envelope(1, 5));
    expect(q.pop()?.seq).toBe(5);
  });

  it('recycles delivered envelopes but hands out copies, so items taken earlier never change', () => {
    const cluster = new Cluster(DEFAULT_CONFIG);
    cluster.runUntil(160); // n2 has asked for votes: RequestVotes in flight
    const kept = cluster.inflight.items;
    const snapshot = kept.map((e) => ({ ...e }));
    expect(kept.length).toBeGreaterThan(0);
    cluster.runUntil(1000); // every one delivered, its envelope reused for later messages
    expect(kept).toEqual(snapshot);
    expect(cluster.inflight.items).not.toBe(kept);
  });

  it('refuses a deliverAt that is not a whole number', () => {
    expect(() => new MessageQueue().push(envelope(1.5, 1))).toThrow(RangeError);
  });

  it('matches a sorted reference under arbitrary pushes and pops (property)', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('push' as const),
        delay: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5000 })),
        seq: fc.nat(1000),
      }),
      fc.record({ kind: fc.constant('pop' as const) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const q = new MessageQueue();
        const reference: Envelope[] = [];
        let now = 0;
        let nextSeq = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            // Mostly increasing seq (as Cluster sends), sometimes arbitrary.
            const seq = o.seq % 3 === 0 ? o.seq : nextSeq++ + 1000;
            const e = envelope(now + o.delay, seq);
            q.push(e);
            reference.push(e);
          } else if (o.kind === 'pop') {
            reference.sort(byTimeThenSeq);
            expect(q.pop()).toBe(reference.shift());
          } else {
            now += o.ms;
          }
          reference.sort(byTimeThenSeq);
          expect(q.size).toBe(reference.length);
          expect(q.peekDeliverAt()).toBe(reference.length > 0 ? reference[0].deliverAt : Infinity);
        }
        expect(q.items).toEqual(reference);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('prepared randint ranges', () => {
  const ranges: [number, number][] = [
    [150, 300],
    [5, 15],
    [200, 200],
    [0, 0],
    [0, 1],
    [0, 2 ** 31 - 1],
    [0, 2 ** 31],
    [1, 2 ** 32 - 1],
    [-7, 7],
  ];
  for (const [a, b] of ranges) {
    it(`randintShifted over ${a}-${b} draws what randint(${a}, ${b}) draws`, () => {
      const p = randintParams(a, b);
      expect(p).not.toBeNull();
      const fast = new CPythonRandom(99);
      const slow = new CPythonRandom(99);
      for (let i = 0; i < 2000; i++) expect(fast.randintShifted(p!.a, p!.width, p!.shift)).toBe(slow.randint(a, b));
      expect(fast.nextUint32()).toBe(slow.nextUint32()); // same number of words consumed
    });
  }

  it('leaves widths of 2^32 and more, and empty ranges, to the general path', () => {
    expect(randintParams(0, 2 ** 32)).toBeNull();
    expect(randintParams(5, 4)).toBeNull();
    expect(randintParams(0.5, 3)).toBeNull();
  });
});

/** Everything observable about a run, including the PRNG's position. */
function fingerprint(sim: Simulation): unknown {
  const c = sim.cluster;
  return {
    report: runReport(c, sim.lockService),
    nodes: c.nodes.map((n) => ({
      role: n.role,
      leaderId: n.leaderId,
      electionDeadline: n.electionDeadline,
      electionTimerStart: n.electionTimerStart,
      heartbeatDue: n.heartbeatDue,
      heartbeatsSent: n.heartbeatsSent,
      votes: [...n.votes],
      nextIndex: [...nextIndexMap(n)],
      matchIndex: [...matchIndexMap(n)],
    })),
    inflight: c.inflight.items.map((e) => [e.deliverAt, e.seq, e.src, e.dst, e.payload.type]),
    drops: c.recentDrops.map((d) => [d.droppedAt, d.reason, d.envelope.seq]),
    next: c.rng.nextUint32(),
  };
}

describe('skipping quiet milliseconds', () => {
  const runs: { name: string; config: SimConfig; schedule: string; untilMs: number; every: number | null }[] = [
    {
      name: "the chapter's demo",
      config: DEFAULT_CONFIG,
      schedule: '@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1560 partition n2,n3; @1953 heal',
      untilMs: 2253,
      every: null,
    },
    { name: 'an idle 5-node run', config: { ...DEFAULT_CONFIG, seed: 7 }, schedule: '', untilMs: 20_000, every: null },
    { name: 'submits every 10 ms', config: { ...DEFAULT_CONFIG, seed: 7 }, schedule: '', untilMs: 5000, every: 10 },
    {
      name: 'submits every 333 ms with a crash',
      config: { ...DEFAULT_CONFIG, seed: 3 },
      schedule: '@900 crash n1; @2500 restart n1',
      untilMs: 6000,
      every: 333,
    },
    {
      name: 'loss and drift on 3 nodes',
      config: { ...DEFAULT_CONFIG, seed: 11, nodeIds: nodeIdsFor(3) },
      schedule: '@100 loss 20; @300 drift n2 40; @4000 loss 0',
      untilMs: 8000,
      every: 50,
    },
    { name: 'one node', config: { ...DEFAULT_CONFIG, nodeIds: ['n1'] }, schedule: '@700 submit a', untilMs: 3000, every: 400 },
    { name: 'split votes', config: { ...DEFAULT_CONFIG, electionTimeoutMs: [200, 200] }, schedule: '', untilMs: 3000, every: null },
    {
      name: 'actions written out of time order',
      config: DEFAULT_CONFIG,
      schedule: '@1500 crash n2; @400 heal; @1600 restart n2',
      untilMs: 3000,
      every: null,
    },
  ];
  for (const r of runs) {
    it(`advanceTo ends where stepping every millisecond ends: ${r.name}`, () => {
      const stepped = new Simulation(r.config, parseSchedule(r.schedule), { submitEveryMs: r.every });
      while (stepped.nowMs < r.untilMs) stepped.step();
      const skipped = new Simulation(r.config, parseSchedule(r.schedule), { submitEveryMs: r.every });
      // In uneven chunks, so skips end at arbitrary times too.
      for (let t = 0; t < r.untilMs;) {
        t = Math.min(r.untilMs, t + 1 + ((t * 7919) % 613));
        skipped.advanceTo(t);
        expect(skipped.nowMs).toBe(t);
      }
      expect(fingerprint(skipped)).toEqual(fingerprint(stepped));
    });
  }

  it('Cluster.runUntil skips the same way as run', () => {
    const a = new Cluster({ ...DEFAULT_CONFIG, seed: 5 });
    const b = new Cluster({ ...DEFAULT_CONFIG, seed: 5 });
    a.run(10_000);
    b.runUntil(10_000);
    expect(b.nowMs).toBe(10_000);
    expect(b.events).toEqual(a.events);
    expect(b.sent).toEqual(a.sent);
    expect(b.rng.nextUint32()).toBe(a.rng.nextUint32());
  });

  it('never skips a millisecond that does something', () => {
    const cluster = new Cluster(DEFAULT_CONFIG);
    cluster.runUntil(1000);
    for (let i = 0; i < 2000; i++) {
      const next = cluster.nextEventMs();
      const before = JSON.stringify([
        cluster.events.length,
        cluster.sent,
        cluster.inflight.size,
        cluster.nodes.map((n) => [n.role, n.term]),
      ]);
      while (cluster.nowMs < next - 1) {
        cluster.step();
        expect(
          JSON.stringify([cluster.events.length, cluster.sent, cluster.inflight.size, cluster.nodes.map((n) => [n.role, n.term])]),
        ).toBe(before);
      }
      cluster.step();
    }
  });

  it('does not skip while a step observer watches', () => {
    const cluster = new Cluster(DEFAULT_CONFIG);
    let calls = 0;
    cluster.addObserver(() => calls++);
    cluster.runUntil(500);
    expect(calls).toBe(500);
    expect(cluster.nextEventMs()).toBe(501);
  });
});
