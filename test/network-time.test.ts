/**
 * Issue 28's network and its time unit (docs/semantics.md, "Time" and "Network models"): runs
 * with whole-millisecond latencies are the chapter's, draw for draw, even on the precise
 * network's machinery; sub-millisecond latencies are represented faithfully (a 500 µs round trip
 * is not 1 ms); the lognormal is CPython's; regions give each link half its round trip ±10%; a
 * slow phase multiplies every latency for a while.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Simulation } from '../src/sim/run/simulation';
import { DEFAULT_CONFIG, configFromFields, makeConfig, type ConfigFields, type SimConfig } from '../src/sim/model/config';
import { isPreciseNetwork, latencyBoundsMs, placeActors } from '../src/sim/model/network';
import { parseSchedule, formatSchedule } from '../src/sim/model/schedule';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { CPythonRandom } from '../src/sim/model/prng';
import { lognormvariate, normalvariate } from '../src/sim/net/latency';
import { decodeLink, encodeLink, runFromJson, runToJson } from '../src/share/link';

const config = (fields: ConfigFields, base: SimConfig = DEFAULT_CONFIG): SimConfig => {
  const c = configFromFields(base, fields);
  if (typeof c === 'string') throw new Error(c);
  return c;
};

/** Everything a run shows: chapter lines, details with their times and values, counts, and the stream's next draw. */
function fingerprint(sim: Simulation): string {
  const c = sim.cluster;
  return JSON.stringify({
    events: c.events.map((e) => e.line),
    details: c.details.map((d) => [d.t, d.kind, d.values]),
    sent: c.sent,
    dropped: c.dropped,
    terms: c.nodes.map((n) => [n.term, n.role, n.commitIndex, n.log.length]),
    next: c.rng.random(),
  });
}

const FAULTY =
  '@300 loss 10; @500 duplicate 20; @700 reorder 30; @900 delay n2 40; @1168 crash n2; @1500 restart n2; @1600 submit x=1; ' +
  '@2000 partition n1,n3; @2500 heal; @2600 delay n2 0; @3000 client A acquire k 2000; @3000 client A write r=1; @3100 client A pause 2500; ' +
  '@4000 slow 2x for 500; @5200 client B acquire k 1000; @5200 client B write r=2';

describe('time: whole-millisecond runs are the chapter’s, with or without the precise network', () => {
  it('a run with --latency 5-15 (no fractions) is not precise', () => {
    for (const text of ['5-15', '0-1', '70-70', '0-0']) expect(isPreciseNetwork(config({ latency: text }))).toBe(false);
    for (const text of ['0.2-0.3', '5-15.5', 'lognormal:10:0.5']) expect(isPreciseNetwork(config({ latency: text }))).toBe(true);
    expect(isPreciseNetwork(config({ rtt: 'us' }))).toBe(true);
  });

  it('the chapter’s demo (seed 42) and 40 faulty runs are the same run on the precise machinery: lines, details, counts and draws', () => {
    const cases: [SimConfig, string][] = [[DEFAULT_CONFIG, CHAPTER_SCHEDULE]];
    // Every latency at least 1 ms: with 0 ms the precise network hands a message sent during a tick
    // over at the microsecond it falls due, where the chapter's step waits for the next millisecond.
    for (let seed = 1; seed <= 40; seed++)
      cases.push([makeConfig({ seed, clientIds: ['A', 'B'], latencyMs: seed % 2 ? [5, 15] : [1, 3] }), FAULTY]);
    for (const [c, text] of cases) {
      const plain = new Simulation(c, parseSchedule(text), { recordDetails: true });
      const precise = new Simulation(c, parseSchedule(text), { recordDetails: true, preciseNetwork: true });
      expect(precise.cluster.precise).toBe(true);
      plain.advanceTo(6000);
      precise.advanceTo(6000);
      expect(fingerprint(precise)).toBe(fingerprint(plain));
    }
  });
});

describe('time: sub-millisecond latencies are represented faithfully', () => {
  it('with latency 0.2-0.3 ms a commit takes one majority round trip, 0.4-0.6 ms, not a millisecond or two', () => {
    const sim = new Simulation(config({ latency: '0.2-0.3' }), parseSchedule('@1000 submit x=1; @1500 submit x=2'), {
      recordDetails: true,
    });
    sim.advanceTo(2000);
    const appended = sim.cluster.details.filter((d) => d.kind === 'leader-append').map((d) => d.t);
    const committed = sim.cluster.details.filter((d) => d.kind === 'commit-advanced' && d.values.rule === 'majority').map((d) => d.t);
    expect(appended).toEqual([1000, 1500]);
    for (let i = 0; i < 2; i++) {
      const rtt = committed[i] - appended[i];
      expect(rtt).toBeGreaterThanOrEqual(0.4);
      expect(rtt).toBeLessThanOrEqual(0.6);
    }
  });

  it('every message is due at a whole microsecond and a reply leaves at the microsecond its request arrived', () => {
    const sim = new Simulation(config({ latency: '0.2-0.3' }), []);
    const sends: { sentAt: number; dueAt: number; type: string }[] = [];
    sim.cluster.tracer = {
      sent: (_id, sentAt, dueAt, _src, _dst, msg) => sends.push({ sentAt, dueAt, type: msg.type }),
      delivering: () => {},
      dropped: () => {},
      deliveriesDone: () => {},
      afterStep: () => {},
    };
    sim.advanceTo(1000);
    expect(sends.length).toBeGreaterThan(100);
    for (const m of sends) {
      expect(Math.abs(Math.round(m.dueAt * 1000) - m.dueAt * 1000)).toBeLessThan(1e-6);
      expect(m.dueAt - m.sentAt).toBeGreaterThanOrEqual(0.2 - 1e-9);
      expect(m.dueAt - m.sentAt).toBeLessThanOrEqual(0.3 + 1e-9);
    }
    // Replies (VoteReply, AppendReply) leave inside a millisecond, when their request arrived.
    const replies = sends.filter((m) => m.type === 'AppendReply' || m.type === 'VoteReply');
    expect(replies.length).toBeGreaterThan(20);
    expect(replies.every((m) => !Number.isInteger(m.sentAt))).toBe(true);
  });

  it('the datacenter preset: a round trip is about 500 µs (±10%), so a commit is too', () => {
    const c = config({ rtt: 'datacenter' });
    expect(latencyBoundsMs(c)).toEqual([0.225, 0.275]);
    const sim = new Simulation(c, parseSchedule('@1000 submit x=1'), { recordDetails: true });
    sim.advanceTo(1100);
    const append = sim.cluster.details.find((d) => d.kind === 'leader-append');
    const commit = sim.cluster.details.find((d) => d.kind === 'commit-advanced' && d.values.rule === 'majority');
    expect((commit?.t ?? 0) - (append?.t ?? 0)).toBeGreaterThanOrEqual(0.45);
    expect((commit?.t ?? 0) - (append?.t ?? 0)).toBeLessThanOrEqual(0.55);
  });

  it('event lines keep the chapter’s column for the whole ms and add the microseconds', () => {
    const sim = new Simulation(config({ latency: '0.2-0.3' }), []);
    sim.advanceTo(300);
    const lines = sim.cluster.events.map((e) => e.line);
    expect(lines[0]).toBe('t=  156 ms n2 election timeout, candidate in term 1');
    expect(lines[1]).toMatch(/^t= {2}156\.\d{1,3} ms n2 wins term 1 with votes from /);
  });
});

describe('network models', () => {
  it('lognormal latencies are CPython’s lognormvariate and normalvariate, draw for draw', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/cpython-lognormal.json', import.meta.url), 'utf8')) as {
      cases: { seed: string; 'lognormvariate_ln10_0.5': number[]; random_after: number; normalvariate_3_2: number[] }[];
    };
    for (const c of fixture.cases) {
      const rng = new CPythonRandom(BigInt(c.seed));
      for (const v of c['lognormvariate_ln10_0.5']) expect(lognormvariate(rng, Math.log(10), 0.5)).toBeCloseTo(v, 9);
      expect(rng.random()).toBe(c.random_after);
      const rng2 = new CPythonRandom(BigInt(c.seed));
      for (const v of c.normalvariate_3_2) expect(normalvariate(rng2, 3, 2)).toBeCloseTo(v, 12);
    }
  });

  it('a lognormal run draws latencies around its median, cut at median·e^(4·spread)', () => {
    const c = config({ latency: 'lognormal:10:0.5' });
    const [, cap] = latencyBoundsMs(c);
    expect(cap).toBeCloseTo(10 * Math.exp(2), 3);
    const sim = new Simulation(c, parseSchedule('@500 submit x=1'));
    const latencies: number[] = [];
    for (let t = 0; t < 3000; t++) {
      sim.step();
      for (const e of sim.cluster.inflight.items) if (e.sentAt === sim.nowMs) latencies.push(e.deliverAt - e.sentAt);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)];
    expect(latencies.length).toBeGreaterThan(200);
    expect(median).toBeGreaterThan(8.5);
    expect(median).toBeLessThan(11.5);
    expect(latencies[latencies.length - 1]).toBeLessThanOrEqual(cap);
  });

  it('regions: each message takes half its link’s round trip, ±10%, by where its two ends are placed', () => {
    const c = config({ regions: 'us-east=n1,n2,A; us-west=n3,n4; eu-west=n5,B', clients: 'A,B', rtt: 'world' });
    const { regionOf, matrix } = placeActors(c.regions!, c.nodeIds, c.clientIds);
    expect(regionOf.get('fenced')).toBe('us-east');
    const sim = new Simulation(c, parseSchedule('@600 client A acquire k 1000; @600 client B acquire j 1000'));
    let checked = 0;
    for (let t = 0; t < 1500; t++) {
      sim.step();
      for (const e of sim.cluster.inflight.items) {
        if (e.sentAt !== sim.cluster.nowMs && Math.ceil(e.sentAt) !== sim.cluster.nowMs) continue;
        const oneWay = (matrix.rttMs(regionOf.get(e.src)!, regionOf.get(e.dst)!) ?? NaN) / 2;
        const latency = e.deliverAt - e.sentAt;
        expect(latency).toBeGreaterThanOrEqual(oneWay * 0.9 - 0.001);
        expect(latency).toBeLessThanOrEqual(oneWay * 1.1 + 0.001);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('`--rtt us` alone spreads the nodes over the regions in turn; clients sit in the first', () => {
    const c = config({ rtt: 'us', clients: 'A' });
    const { regionOf } = placeActors(c.regions!, c.nodeIds, c.clientIds);
    expect(['n1', 'n2', 'n3', 'n4', 'n5', 'A'].map((id) => regionOf.get(id))).toEqual([
      'us-east',
      'us-central',
      'us-west',
      'us-east',
      'us-central',
      'us-east',
    ]);
  });

  it('a slow phase multiplies every latency and ends on time with an event (whole ms: rounded)', () => {
    const sim = new Simulation(makeConfig({ latencyMs: [10, 10] }), parseSchedule('@1000 slow 3x for 2000'), { recordDetails: true });
    const during: number[] = [];
    const after: number[] = [];
    for (let t = 0; t < 4000; t++) {
      sim.step();
      for (const e of sim.cluster.inflight.items) {
        if (e.sentAt !== sim.nowMs) continue;
        (sim.nowMs >= 1000 && sim.nowMs < 3000 ? during : sim.nowMs >= 3000 ? after : []).push(e.deliverAt - e.sentAt);
      }
    }
    expect(new Set(during)).toEqual(new Set([30]));
    expect(new Set(after)).toEqual(new Set([10]));
    const lines = sim.cluster.events.filter((e) => e.kind === 'slow').map((e) => e.line);
    expect(lines).toEqual([
      't= 1000 ms every message takes 3x as long for 2000 ms',
      't= 3000 ms the slow phase ends: messages take their usual time again',
    ]);
  });

  it('skipping quiet time never skips the end of a slow phase', () => {
    const a = new Simulation(makeConfig({ nodeIds: ['n1'] }), parseSchedule('@10 slow 2x for 777'));
    a.advanceTo(5000);
    expect(a.cluster.events.filter((e) => e.kind === 'slow').map((e) => e.t)).toEqual([10, 787]);
  });
});

describe('network settings at the edges: one reader, one sentence per mistake, links replay', () => {
  const problem = (fields: ConfigFields) => {
    const c = configFromFields(DEFAULT_CONFIG, fields);
    return typeof c === 'string' ? c : null;
  };

  it.each([
    [{ latency: 'fast' }, /^The latency must be written A-B in ms \(fractions up to 3 decimals\), like 5-15 or 0.2-0.3, or lognormal/],
    [{ latency: '0.2345-0.3' }, /^The latency must be written A-B/],
    [{ latency: 'lognormal:0:0.5' }, /lognormal median must be a number of ms above 0/],
    [{ latency: 'lognormal:10:9' }, /lognormal spread must be a number above 0 and at most 3/],
    [{ rtt: 'mars' }, /^The round trips must be one of datacenter, us, world, or round trips like us-east\/eu-west=75, not "mars"\.$/],
    [{ regions: 'us-east=n1,n2; us-west=n3,n4' }, /^n5 is in no region; with regions, place every node, like us-east=n5\.$/],
    [{ regions: 'us-east=n1,n2,n3; us-west=n4,n5,n9' }, /place "n9", which is no node, client or store of this run/],
    [{ regions: 'us-east=n1,n2,n3; us-west=n3,n4,n5' }, /places n3 in two regions \(us-east and us-west\)/],
    [{ regions: 'US East=n1' }, /^Region name "US East" must be lowercase letters, digits and dashes, like us-east\.$/],
    [{ regions: 'dc=n1,n2,n3,n4,n5', rtt: 'us' }, /^Region dc is not in the us round-trip matrix \(us-east, us-central, us-west\)/],
    [{ regions: 'a=n1,n2,n3; b=n4,n5', rtt: 'a/c=5, b/c=5' }, /^The round trip between a and b is missing; give it like a\/b=70\.$/],
    [{ regions: 'us-east=n1,n2,n3,n4,n5', latency: '5-15' }, /^With the regions, every latency comes from the round-trip matrix/],
  ])('%j is refused with one sentence', (fields, sentence) => {
    expect(problem(fields)).toMatch(sentence);
  });

  it('regions are read, inferred to the smallest preset that has them, and written back canonically', () => {
    const c = config({ regions: ' us-east = n1, n2 ,A;us-west=n3,n4;  us-central=n5 ', clients: 'A' });
    expect(c.regions).toEqual({
      rtt: 'us',
      places: [
        { region: 'us-east', ids: ['n1', 'n2', 'A'] },
        { region: 'us-west', ids: ['n3', 'n4'] },
        { region: 'us-central', ids: ['n5'] },
      ],
    });
    expect(config({ regions: 'us-east=n1,n2,n3; eu-west=n4,n5' }).regions?.rtt).toBe('world');
    const custom = config({ regions: 'a=n1,n2,n3; b=n4,n5', rtt: 'a/b=20, a/a=0.1' });
    expect(custom.regions?.rtt).toEqual([
      { a: 'a', b: 'b', ms: 20 },
      { a: 'a', b: 'a', ms: 0.1 },
    ]);
    expect(config({ regions: '' }, config({ rtt: 'us' })).regions).toBeUndefined();
  });

  it('links and run files carry latency, regions and round trips, and replay the same run', () => {
    const schedule = parseSchedule('@600 client A acquire k 1000; @900 slow 1.5x for 300');
    for (const fields of [
      { latency: '0.2-0.3' },
      { latency: 'lognormal:10:0.5' },
      { regions: 'us-east=n1,n2,A; us-west=n3,n4; eu-west=n5,B', clients: 'A,B' },
      { rtt: 'datacenter', clients: 'A' },
      { regions: 'a=n1,n2,n3,A; b=n4,n5', rtt: 'a/b=20', clients: 'A' },
    ] as ConfigFields[]) {
      const c = config({ clients: 'A', ...fields });
      const link = encodeLink({ config: c, schedule, atMs: 1200 });
      const decoded = decodeLink(link);
      expect(decoded.ok, link).toBe(true);
      if (!decoded.ok) continue;
      expect(decoded.spec.config).toEqual(c);
      expect(formatSchedule(decoded.spec.schedule)).toBe(formatSchedule(schedule));
      const file = runFromJson(runToJson({ config: c, schedule, atMs: 1200 }));
      expect(file.ok && file.spec.config).toEqual(c);
      const a = new Simulation(c, schedule, { recordDetails: true });
      const b = new Simulation(decoded.spec.config, decoded.spec.schedule, { recordDetails: true });
      a.advanceTo(1200);
      b.advanceTo(1200);
      expect(fingerprint(b)).toBe(fingerprint(a));
    }
  });

  it('a link with none of this is written as before', () => {
    expect(encodeLink({ config: DEFAULT_CONFIG, schedule: parseSchedule(CHAPTER_SCHEDULE), atMs: 2253 })).toBe(
      'v=1&seed=42&s=%401168+crash+n2%3B+%401360+restart+n2%3B+%401410+submit+x%3D1%3B+%401410+submit+x%3D2%3B+%401560+partition+n2%2Cn3%3B+%401753+submit+x%3D3+to+n3%3B+%401753+submit+y%3D1+to+n1%3B+%401953+heal&t=2253',
    );
  });

  it('the slow verb is read and written back, with one sentence for a bad factor or length', () => {
    expect(formatSchedule(parseSchedule('@5 slow 3x for 20000; @9 slow 2.5x; @10 slow 1x'))).toBe(
      '@5 slow 3x for 20000; @9 slow 2.5x; @10 slow 1x',
    );
    expect(() => parseSchedule('@5 slow 3 for 2')).toThrow(/is not of the form "@<ms> slow <factor>x \[for <ms>\]"/);
    expect(() => parseSchedule('@5 slow 0x')).toThrow(/a factor above 0 and at most 100/);
    expect(() => parseSchedule('@5 slow 2x for 0')).toThrow(/how long a slow phase lasts is a whole number of ms from 1/);
  });
});
