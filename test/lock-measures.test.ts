/**
 * Issue 26 item 3: what every run with clients measures of its lock service, as `--json` gives it
 * (src/sim/view/lockMeasures.ts). Each test names the rule it checks and builds the run that
 * shows it; the same schedule under another service must come out differently where the
 * services differ (tokens, herd), so none of these could pass by a hard-coded answer.
 */
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { makeConfig } from '../src/sim/model/config';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { takeRunView } from '../src/sim/view/runView';

interface Json {
  overlaps: { key: string; clients: string[]; fromMs: number; toMs: number; inLease: boolean }[];
  lockMeasures: {
    service: string;
    tokens: boolean;
    unfencedOutOfOrder: number;
    fencedStaleRefused: number;
    fencedNoTokenRefused: number;
    failovers: { client: string; key: string; cause: string; atMs: number; nextGrantMs: number | null }[];
    acquires: number;
    granted: number;
    messagesPerAcquire: number | null;
    roundTripsPerAcquire: number | null;
    notificationsPerRelease?: number | null;
  };
}

function json(argv: string[]): Json {
  const r = runSimCli([...argv, '--json']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Json;
}

// Kleppmann's pause: A holds job, stops the world past its lease, B is granted job, B writes, A wakes and writes.
const pause =
  '@500 client A acquire job 2000; @700 client A pause 3000; @3000 client B acquire job 5000; @3500 client B write job=b; @3800 client A write job=a';

describe('lock measures in --json (issue 26 item 3)', () => {
  it('an overlap is the interval both clients believed they held the lock, from their own view (a paused client believes until it wakes)', () => {
    for (const lock of ['raft', 'redis']) {
      const m = json(['--lock', lock, '--clients', 'A,B', '--schedule', pause, '--until', '6000']);
      expect(m.overlaps).toHaveLength(1);
      const o = m.overlaps[0];
      expect(o).toMatchObject({ key: 'job', clients: ['A', 'B'], toMs: 3700, inLease: false });
      // It starts when B is granted (after B asked at 3000) and ends when A wakes at 700 + 3000.
      expect(o.fromMs).toBeGreaterThan(3000);
      expect(o.fromMs).toBeLessThan(3700);
      expect(m.lockMeasures.service).toBe(lock);
    }
  });

  it('no overlap when the holder releases before the next grant', () => {
    const m = json([
      '--lock',
      'redis',
      '--clients',
      'A,B',
      '--schedule',
      '@500 client A acquire job 2000; @900 client A release job; @1200 client B acquire job 2000',
      '--until',
      '3000',
    ]);
    expect(m.overlaps).toEqual([]);
    expect(m.lockMeasures.granted).toBe(2);
    expect(m.lockMeasures.failovers).toEqual([]);
  });

  it('the fenced store refuses the stale write and the unfenced store takes it out of order, with a token service', () => {
    const m = json(['--lock', 'raft', '--clients', 'A,B', '--schedule', pause, '--until', '6000']).lockMeasures;
    expect(m.tokens).toBe(true);
    expect(m.fencedStaleRefused).toBe(1);
    expect(m.fencedNoTokenRefused).toBe(0);
    expect(m.unfencedOutOfOrder).toBe(1);
  });

  it('a service without tokens: the fenced store refuses every write for carrying none, none counted stale', () => {
    const m = json(['--lock', 'redis', '--clients', 'A,B', '--schedule', pause, '--until', '6000']).lockMeasures;
    expect(m.tokens).toBe(false);
    expect(m.fencedStaleRefused).toBe(0);
    expect(m.fencedNoTokenRefused).toBe(2);
  });

  it('failover: from the holder pausing to the next grant of its lock to someone else', () => {
    const m = json(['--lock', 'raft', '--clients', 'A,B', '--schedule', pause, '--until', '6000']);
    expect(m.lockMeasures.failovers).toEqual([
      { client: 'A', key: 'job', cause: 'pause', atMs: 700, nextGrantMs: m.overlaps[0].fromMs - 700 },
    ]);
    const crash = json([
      '--lock',
      'redis',
      '--clients',
      'A,B',
      '--schedule',
      '@500 client A acquire job 2000; @700 client A crash',
      '--until',
      '3000',
    ]);
    expect(crash.lockMeasures.failovers).toEqual([{ client: 'A', key: 'job', cause: 'crash', atMs: 700, nextGrantMs: null }]);
  });

  it('messages and round trips per granted acquire: one round trip to a single Redis, more for a Raft majority', () => {
    const sched = '@500 client A acquire job 2000';
    const redis = json(['--lock', 'redis', '--clients', 'A', '--schedule', sched, '--until', '1500']).lockMeasures;
    const raft = json(['--lock', 'raft', '--clients', 'A', '--schedule', sched, '--until', '1500']).lockMeasures;
    expect(redis).toMatchObject({ acquires: 1, granted: 1, roundTripsPerAcquire: 1, messagesPerAcquire: 2 });
    expect(raft.granted).toBe(1);
    // The client's request and answer plus AppendEntries to four followers and their replies.
    expect(raft.messagesPerAcquire).toBeGreaterThan(redis.messagesPerAcquire as number);
  });

  it("ZooKeeper's herd effect: watching the parent wakes every waiter per release, the predecessor watch wakes one", () => {
    const waiters = ['B', 'C', 'D', 'E'].map((c) => `@800 client ${c} acquire job 20000`).join('; ');
    const sched = `@500 client A acquire job 20000; ${waiters}; @1500 client A release job`;
    const args = ['--lock', 'zookeeper', '--clients', 'A,B,C,D,E', '--schedule', sched, '--until', '3000'];
    const one = json(args).lockMeasures.notificationsPerRelease;
    const herd = json([...args, '--lock-options', 'herd']).lockMeasures.notificationsPerRelease;
    expect(one).toBe(1);
    expect(herd).toBeGreaterThanOrEqual(4);
  });

  it('a ZooKeeper watch event that overtakes the reply that set the watch still wakes its waiter (the session is one ordered stream)', () => {
    // Each message has its own latency here, so a watch can fire while the read that set it is
    // still on its way back; before the fix such a waiter slept through the release. Over many
    // seeds, with the herd switch, the release must wake every one of the four waiters.
    const waiters = ['B', 'C', 'D', 'E'].map((c) => `@800 client ${c} acquire job 20000`).join('; ');
    const schedule = parseSchedule(`@500 client A acquire job 20000; ${waiters}; @1500 client A release job`);
    for (let seed = 1; seed <= 40; seed++) {
      const config = makeConfig({
        seed,
        nodeIds: ['n1', 'n2', 'n3'],
        clientIds: ['A', 'B', 'C', 'D', 'E'],
        lock: 'zookeeper',
        lockOptions: ['herd'],
      });
      const sim = new Simulation(config, schedule);
      sim.advanceTo(4000);
      const released = sim.cluster.events.find((e) => e.kind === 'service-released');
      expect(released, `seed ${seed}`).toBeDefined();
      const woken = sim.cluster.events.filter((e) => e.kind === 'watch-fired' && e.t === released!.t);
      expect({ seed, woken: woken.length }).toEqual({ seed, woken: 4 });
    }
  });

  it('a run without clients has no lock measures', () => {
    const r = JSON.parse(runSimCli(['--until', '500', '--json']).stdout) as Record<string, unknown>;
    expect(r.overlaps).toBeUndefined();
    expect(r.lockMeasures).toBeUndefined();
  });

  it("the chapter's text output is unchanged unless --lock is named", () => {
    const plain = runSimCli(['--clients', 'A,B', '--schedule', pause, '--until', '6000']).stdout;
    expect(plain).not.toContain('overlaps:');
    const named = runSimCli(['--lock', 'raft', '--clients', 'A,B', '--schedule', pause, '--until', '6000']).stdout;
    expect(named).toContain('overlaps: A and B on job');
  });

  it('the page gets the measures in its run view for another service, and nothing new for the chapter’s', () => {
    const run = (config: ReturnType<typeof makeConfig>) => {
      const sim = new Simulation(config, parseSchedule(pause));
      sim.advanceTo(6000);
      return takeRunView(sim);
    };
    const redis = run(makeConfig({ clientIds: ['A', 'B'], lock: 'redis', nodeIds: ['r1'] }));
    expect(redis.lockMeasures).toMatchObject({ service: 'redis', tokens: false, fencedNoTokenRefused: 2 });
    expect(redis.lockMeasures?.overlaps).toHaveLength(1);
    expect(run(makeConfig({ clientIds: ['A', 'B'] })).lockMeasures).toBeUndefined();
  });
});
