/**
 * Issue 28, Figure 16: the persist delay (`--persist MS`, `persist=`). Raft's Figure 2 has a server
 * update its persistent state "on stable storage before responding to RPCs"; here a server's state
 * and election timer change when an RPC arrives, as always, and only its reply (VoteReply,
 * AppendReply, InstallSnapshotReply) leaves `persistMs` later. Absent, nothing changes: no draw,
 * no line, no link byte.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../src/sim/run/simulation';
import { checkConfig, configFromFields, DEFAULT_CONFIG, makeConfig, type ConfigFields, type SimConfig } from '../src/sim/model/config';
import { deliveryBoundsMs, isPreciseNetwork, latencyBoundsMs } from '../src/sim/model/network';
import { parseSchedule } from '../src/sim/model/schedule';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { decodeLink, encodeLink, runFromJson, runToJson } from '../src/share/link';
import { livenessBound } from '../src/sim/check/liveness';
import { attachInvariants } from '../src/sim/check/invariants';
import { configWarning } from '../src/sim/run/scheduleWarnings';
import { resolveRun, header } from '../src/cli/simCli';
import type { ClusterTracer } from '../src/sim/net/cluster';
import type { Message } from '../src/sim/model/types';
import { parseSweep } from '../src/sim/experiments/sweep';
import { planExperiment, runExperiment } from '../src/sim/experiments/experiment';

const config = (fields: ConfigFields, base: SimConfig = DEFAULT_CONFIG): SimConfig => {
  const c = configFromFields(base, fields);
  if (typeof c === 'string') throw new Error(c);
  return c;
};

interface Sent {
  readonly sentAt: number;
  readonly dueAt: number;
  readonly src: string;
  readonly dst: string;
  readonly type: string;
}

/** Every message a run sends, with its send and due times, until `untilMs`; and the delivery time of each. */
function record(c: SimConfig, untilMs: number, schedule = ''): { sent: Sent[]; sim: Simulation } {
  const sim = new Simulation(c, parseSchedule(schedule));
  const sent: Sent[] = [];
  const tracer: ClusterTracer = {
    sent(_id: number, sentAt: number, dueAt: number, src: string, dst: string, msg: Message) {
      sent.push({ sentAt, dueAt, src, dst, type: msg.type });
    },
    delivering() {},
    dropped() {},
    deliveriesDone() {},
    afterStep() {},
  };
  sim.cluster.tracer = tracer;
  sim.advanceTo(untilMs);
  return { sent, sim };
}

/** The messages sent before the first reply is delivered: up to then the two runs draw alike. */
function beforeFirstReply(sent: readonly Sent[]): Sent[] {
  const firstReplyDue = Math.min(...sent.filter((m) => m.type === 'VoteReply').map((m) => m.dueAt));
  return sent.filter((m) => m.sentAt < firstReplyDue);
}

describe('the persist rule: a reply leaves persist later, state and timers change at receipt', () => {
  it('each VoteReply is due persist ms after the same reply without it; a RequestVote is not delayed', () => {
    const plain = record(DEFAULT_CONFIG, 400).sent;
    const slow = record({ ...DEFAULT_CONFIG, persistMs: 8 }, 400).sent;
    const a = beforeFirstReply(plain);
    const b = slow.slice(0, a.length);
    expect(a.some((m) => m.type === 'RequestVote')).toBe(true);
    expect(a.some((m) => m.type === 'VoteReply')).toBe(true);
    for (let i = 0; i < a.length; i++) {
      expect([b[i].src, b[i].dst, b[i].type, b[i].sentAt]).toEqual([a[i].src, a[i].dst, a[i].type, a[i].sentAt]);
      expect(b[i].dueAt - a[i].dueAt).toBe(a[i].type === 'VoteReply' ? 8 : 0);
    }
  });

  it('AppendReply waits too, AppendEntries does not', () => {
    const { sent } = record({ ...DEFAULT_CONFIG, persistMs: 8 }, 1000);
    const latency = (m: Sent) => m.dueAt - m.sentAt;
    const replies = sent.filter((m) => m.type === 'AppendReply');
    const appends = sent.filter((m) => m.type === 'AppendEntries');
    expect(replies.length).toBeGreaterThan(10);
    // Latency is 5-15 ms; a reply adds the 8 ms persist.
    for (const m of replies) expect(latency(m)).toBeGreaterThanOrEqual(13);
    for (const m of replies) expect(latency(m)).toBeLessThanOrEqual(23);
    for (const m of appends) expect(latency(m)).toBeLessThanOrEqual(15);
  });

  it('an InstallSnapshotReply waits too (snapshots: a follower that missed compacted entries)', () => {
    const c = { ...DEFAULT_CONFIG, features: ['snapshots' as const], snapshotEvery: 3, persistMs: 8 };
    const { sent } = record(
      c,
      2500,
      '@250 crash n3; @300 submit a; @350 submit b; @400 submit c; @450 submit d; @500 submit e; @1000 restart n3',
    );
    const latency = (m: Sent) => m.dueAt - m.sentAt;
    const installs = sent.filter((m) => m.type === 'InstallSnapshot');
    const replies = sent.filter((m) => m.type === 'InstallSnapshotReply');
    expect(installs.length).toBeGreaterThan(0);
    expect(replies.length).toBeGreaterThan(0);
    for (const m of installs) expect(latency(m)).toBeLessThanOrEqual(15);
    for (const m of replies) expect(latency(m)).toBeGreaterThanOrEqual(13);
  });

  it('a voter grants its vote and resets its election timer when the RequestVote arrives, not when its reply leaves', () => {
    const plain = record(DEFAULT_CONFIG, 400);
    const firstReplyDue = Math.min(...plain.sent.filter((m) => m.type === 'VoteReply').map((m) => m.dueAt));
    // Just before the first reply lands: every vote so far was cast, in both runs alike.
    const at = firstReplyDue - 1;
    const a = new Simulation(DEFAULT_CONFIG);
    const b = new Simulation({ ...DEFAULT_CONFIG, persistMs: 8 });
    a.advanceTo(at);
    b.advanceTo(at);
    const state = (s: Simulation) => s.cluster.nodes.map((n) => [n.id, n.term, n.role, n.votedFor, n.electionDeadline]);
    expect(state(b)).toEqual(state(a));
    expect(b.cluster.nodes.filter((n) => n.votedFor !== null && n.role === 'follower').length).toBeGreaterThan(0);
    // The candidate hears back persist later: it wins later than without the delay.
    const wins = (s: Simulation) => s.cluster.events.find((e) => e.line.includes(' wins term '))?.t ?? Infinity;
    a.advanceTo(600);
    b.advanceTo(600);
    expect(wins(b)).toBeGreaterThanOrEqual(wins(a) + 8);
  });

  it('a fraction of a ms makes the run precise: the reply is due to the microsecond', () => {
    const c = config({ persist: '0.25' });
    expect(c.persistMs).toBe(0.25);
    expect(isPreciseNetwork(c)).toBe(true);
    const plain = beforeFirstReply(record(DEFAULT_CONFIG, 400).sent);
    const slow = record(c, 400).sent.slice(0, plain.length);
    for (let i = 0; i < plain.length; i++) expect(slow[i].dueAt - plain[i].dueAt).toBeCloseTo(plain[i].type === 'VoteReply' ? 0.25 : 0, 9);
  });

  it('a whole-ms persist is the same run on the precise machinery (lines, counts and the next draw)', () => {
    for (const seed of [1, 2, 3, 42]) {
      const c = { ...makeConfig({ seed, clientIds: ['A'] }), persistMs: 7 };
      const text = '@1168 crash n2; @1360 restart n2; @1500 submit x=1; @2000 client A acquire k 2000';
      const plain = new Simulation(c, parseSchedule(text));
      const precise = new Simulation(c, parseSchedule(text), { preciseNetwork: true });
      plain.advanceTo(4000);
      precise.advanceTo(4000);
      expect(precise.cluster.events.map((e) => e.line)).toEqual(plain.cluster.events.map((e) => e.line));
      expect(precise.cluster.sent).toEqual(plain.cluster.sent);
      expect(precise.cluster.rng.random()).toBe(plain.cluster.rng.random());
    }
  });
});

describe('absent is the chapter: no field, no draw, no byte', () => {
  it('persist 0, none or empty leaves the field out; the chapter demo is its own run', () => {
    for (const text of ['0', 'none', '', '0.000']) expect('persistMs' in config({ persist: text })).toBe(false);
    expect(encodeLink({ config: DEFAULT_CONFIG, schedule: [], atMs: 10 })).not.toContain('persist');
    expect(runToJson({ config: DEFAULT_CONFIG, schedule: [], atMs: 10 })).not.toContain('persist');
    expect(header(DEFAULT_CONFIG)).not.toContain('persist');
    const a = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    const b = new Simulation(config({ persist: '0' }), parseSchedule(CHAPTER_SCHEDULE));
    a.advanceTo(3000);
    b.advanceTo(3000);
    expect(b.cluster.events.map((e) => e.line)).toEqual(a.cluster.events.map((e) => e.line));
    expect(deliveryBoundsMs(DEFAULT_CONFIG)).toEqual(latencyBoundsMs(DEFAULT_CONFIG));
  });
});

describe('the persist delay at the edges: CLI, links, run files, header', () => {
  it('a link and a run file carry it and replay the same run', () => {
    for (const text of ['8', '2.5']) {
      const c = config({ persist: text });
      const link = encodeLink({ config: c, schedule: [], atMs: 500 });
      expect(link).toContain(`persist=${text}`);
      const back = decodeLink(link);
      if (!back.ok) throw new Error(back.error);
      expect(back.spec.config).toEqual(c);
      const file = runFromJson(runToJson({ config: c, schedule: [], atMs: 500 }));
      if (!file.ok) throw new Error(file.error);
      expect(file.spec.config.persistMs).toBe(Number(text));
    }
  });

  it('the CLI takes --persist and the header names it only when set', () => {
    const run = resolveRun(['--persist', '8']);
    if (run === 'help') throw new Error('help');
    expect(run.config.persistMs).toBe(8);
    expect(header(run.config)).toContain('latency 5-15 ms, persist 8 ms before replies');
  });

  it('bad values get one sentence naming what is allowed', () => {
    for (const bad of ['-1', 'abc', '10001', '0.0001', '1e3']) {
      const c = configFromFields(DEFAULT_CONFIG, { persist: bad });
      expect(c).toBe(`The persist delay must be a number of ms from 0 to 10000 (up to 3 decimals), like 10 or 2.5, not "${bad}".`);
    }
    expect(() => resolveRun(['--persist', 'x'])).toThrow('--persist must be a number of ms from 0 to 10000');
    const link = decodeLink('v=1&seed=1&persist=fast&t=10');
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error).toContain('The persist delay must be a number of ms from 0 to 10000');
    for (const persistMs of [0, -2, Number.NaN, 0.0004, 20_000])
      expect(checkConfig({ ...DEFAULT_CONFIG, persistMs })).toMatch(/^The persist delay must be above 0 and at most 10000 ms/);
  });

  it('an experiment sweeps it in whole ms, one sentence otherwise', () => {
    expect(parseSweep('persist=0,5,10')).toEqual({ param: 'persist', values: [0, 5, 10] });
    expect(parseSweep('persist=2.5')).toBe('Each persist value must be a whole number from 0 to 10000 (ms), like 0,5,10, not "2.5".');
    const spec = { template: 'figure-16' as const, sweep: { param: 'persist' as const, values: [0, 8] }, seeds: 1, firstSeed: 1 };
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const runs = runExperiment(spec, points);
    expect(runs.map((r) => r.run.config.persistMs)).toEqual([undefined, 8]);
  });

  it('a Paxos run and a lock service without Raft refuse it in one sentence', () => {
    expect(configFromFields(DEFAULT_CONFIG, { protocol: 'paxos', persist: '5' })).toBe(
      "The persist delay before replies is Raft's (Figure 2: stable storage before responding); a paxos run answers at once, so leave persist out.",
    );
    expect(configFromFields(DEFAULT_CONFIG, { lock: 'redis', persist: '5' })).toBe(
      "The persist delay holds back Raft's replies; the lock service redis runs no Raft, so leave persist out.",
    );
  });
});

describe('checkers that bound latency count the persist delay', () => {
  it('the delivery bound is the latency plus the persist; liveness and the no-leader warning use it', () => {
    const c = { ...DEFAULT_CONFIG, persistMs: 8 };
    expect(deliveryBoundsMs(c)).toEqual([5, 23]);
    expect(latencyBoundsMs(c)).toEqual([5, 15]);
    // A vote's round trip of up to 2·15 + 8 ms still fits under 150 ms: a bound, larger than without.
    const withPersist = livenessBound(c, 0);
    const without = livenessBound(DEFAULT_CONFIG, 0);
    expect(typeof withPersist).toBe('number');
    expect(withPersist as number).toBeGreaterThan(without as number);
    // 12-24 ms timeouts with 6 ms each way and 13 ms of persist: every vote comes back too late.
    const hopeless = { ...DEFAULT_CONFIG, electionTimeoutMs: [12, 24] as const, heartbeatMs: 6, latencyMs: [6, 9] as const, persistMs: 13 };
    expect(configWarning(hopeless)).toContain('and a 13 ms persist before replies');
    expect(configWarning({ ...hopeless, persistMs: undefined })).toBeNull();
  });

  it('runs with a persist delay hold every invariant, liveness included, through crashes and a partition', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const c = { ...makeConfig({ seed, clientIds: ['A', 'B'] }), persistMs: seed % 2 ? 8 : 2.5 };
      const sim = new Simulation(
        c,
        parseSchedule(
          '@800 crash n1; @1168 crash n2; @1400 restart n1; @1500 restart n2; @1600 submit x=1; @2000 partition n1,n3; @2600 heal; ' +
            '@3000 client A acquire k 2000; @3200 client B acquire k 1000; @4000 calm',
        ),
      );
      const checker = attachInvariants(sim);
      sim.advanceTo(9000);
      expect(checker.violations).toEqual([]);
    }
  });
});
