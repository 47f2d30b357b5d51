// Reachability properties (issue 24, item 6): each is decided from what a run does, so a run built
// to reach the situation counts it and the same run without it does not; the fuzzer's report
// counts the runs that reach each and names those no run reached.
import { describe, expect, it } from 'vitest';
import { makeConfig, nodeIdsFor, type SimConfig } from '../src/sim/model/config';
import { fuzzRun } from '../src/sim/check/fuzz';
import { Reachability, type SometimesId } from '../src/sim/check/sometimes';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { runFuzzCli } from '../src/cli/fuzzCli';
import { FEATURE_NAMES, SOMETIMES } from '../src/sim/model/features';

function reached(config: SimConfig, schedule: string, untilMs: number): ReadonlySet<SometimesId> {
  const sim = new Simulation(config, parseSchedule(schedule));
  const reach = new Reachability(sim.cluster, sim.lockService).attach();
  sim.advanceTo(untilMs);
  if (sim.lockService !== null) reach.finish(sim.lockService.history.ops);
  return reach.reached;
}

describe('each situation is counted when a run reaches it, and only then', () => {
  const clients = makeConfig({ seed: 1, nodeIds: nodeIdsFor(3), clientIds: ['A', 'B'] });

  it('a partition named a client (and not when it names only servers)', () => {
    expect(reached(clients, '@500 partition B', 1500).has('partition-names-client')).toBe(true);
    expect(reached(clients, '@500 partition n1', 1500).has('partition-names-client')).toBe(false);
  });

  it('a lock key was also a map key (the history shows both on x), and not with k1 and x', () => {
    const reads = makeConfig({ seed: 7, nodeIds: nodeIdsFor(3), clientIds: ['A'], features: ['reads'] });
    expect(
      reached(reads, '@500 client A acquire x 10000; @700 client A put x=1; @900 client A get x', 2000).has('lock-key-is-map-key'),
    ).toBe(true);
    expect(
      reached(reads, '@500 client A acquire k1 10000; @700 client A put x=1; @900 client A get x', 2000).has('lock-key-is-map-key'),
    ).toBe(false);
  });

  it('a transfer completed (and not when none was asked)', () => {
    const transfer = makeConfig({ seed: 3, nodeIds: nodeIdsFor(3), features: ['transfer'] });
    const done = reached(transfer, '@1500 transfer n2', 3000);
    const leader = new Simulation(transfer, parseSchedule('@1500 transfer n2'));
    leader.advanceTo(3000);
    // The run really hands over: some node leads a term it campaigned in on TimeoutNow.
    expect(leader.cluster.nodes.some((n) => n.role === 'leader' && n.transferTerm === n.term)).toBe(true);
    expect(done.has('transfer-completed')).toBe(true);
    expect(reached(transfer, '', 3000).has('transfer-completed')).toBe(false);
  });

  it('a removed leader stepped down (and not when a follower is removed)', () => {
    const members = makeConfig({ seed: 5, nodeIds: nodeIdsFor(5), features: ['leader-noop', 'membership'] });
    const probe = new Simulation(members, []);
    probe.advanceTo(1500);
    const leader = probe.cluster.nodes.find((n) => n.role === 'leader');
    expect(leader).toBeDefined();
    const follower = probe.cluster.nodes.find((n) => n.role !== 'leader');
    expect(reached(members, `@1500 remove ${leader?.id ?? ''}`, 4000).has('removed-leader-stepped-down')).toBe(true);
    expect(reached(members, `@1500 remove ${follower?.id ?? ''}`, 4000).has('removed-leader-stepped-down')).toBe(false);
  });

  it('a run is the same with the tracker on: it only observes', () => {
    const off = fuzzRun(2, 11, [], 4000, FEATURE_NAMES, [], { sometimes: false });
    const on = fuzzRun(2, 11, [], 4000, FEATURE_NAMES);
    expect(on.reached.length).toBeGreaterThan(0);
    expect(on.schedule).toEqual(off.schedule);
    expect(on.untilMs).toBe(off.untilMs);
    expect(on.violation).toEqual(off.violation);
  });
});

describe('the swarm draws the names slips need (items 1 and 2)', () => {
  // Forty runs with every feature on: some share a lock key with the map, some partition clients.
  const runs = Array.from({ length: 40 }, (_, run) => fuzzRun(1, run, [], 4000, FEATURE_NAMES));

  it('a lock key that is also a map key: acquired and put or read under the same name', () => {
    const shared = runs.filter((r) => {
      const locks = new Set(
        r.schedule.flatMap((a) => (a.verb === 'client' && (a.intent.op === 'acquire' || a.intent.op === 'release') ? [a.intent.key] : [])),
      );
      return r.schedule.some((a) => a.verb === 'client' && (a.intent.op === 'put' || a.intent.op === 'get') && locks.has(a.intent.key));
    });
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.every((r) => r.reached.includes('lock-key-is-map-key') || r.violation !== null || r.untilMs < 4000)).toBe(true);
  });

  it('partitions that name clients', () => {
    const named = runs.filter((r) =>
      r.schedule.some((a) => a.verb === 'partition' && a.groups.flat().some((id) => r.config.clientIds.includes(id))),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((r) => r.reached.includes('partition-names-client'))).toBe(true);
  });

  it('without the shared names stream no partition names a client', () => {
    for (let run = 0; run < 40; run++) {
      const r = fuzzRun(1, run, [], 4000, FEATURE_NAMES, [], { sharedNames: false });
      expect(r.schedule.some((a) => a.verb === 'partition' && a.groups.flat().some((id) => r.config.clientIds.includes(id)))).toBe(false);
    }
  });
});

describe('npm run fuzz reports reachability', () => {
  function cli(argv: string[]): string[] {
    const lines: string[] = [];
    runFuzzCli(argv, { out: (l: string) => lines.push(l), progress: () => undefined, tty: false, clock: () => 0 });
    return lines;
  }

  it('counts every situation, and names those out of reach when their feature was on in no run', () => {
    const lines = cli(['--runs', '4', '--seed', '3', '--features', 'none']);
    const start = lines.findIndex((l) => l.startsWith('sometimes: of 4 runs'));
    expect(start).toBeGreaterThan(0);
    const table = lines.slice(start + 1, start + 1 + SOMETIMES.length);
    for (const s of SOMETIMES) expect(table.some((l) => l.includes(s.title))).toBe(true);
    // With no feature on, a feature's situations cannot be reached: the report says why, not "never".
    expect(lines.join('\n')).toMatch(/pre-vote was on in no run/);
  });
});
