// Each invariant catches a hand-built violation (state mutated directly in a tiny cluster) and
// stays quiet on clean runs, including the chapter's split-vote control (liveness loss only).
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, makeConfig, nodeIdsFor, type SimConfig } from '../src/sim/model/config';
import { invariant } from '../src/sim/model/describe';
import { LOCK_INVARIANTS } from '../src/sim/model/lockServices';
import { FEATURES, core, type FeatureName } from '../src/sim/model/features';
import { attachInvariants, INVARIANT_IDS, type HistoryCheckId, type InvariantChecker, type InvariantId } from '../src/sim/check/invariants';
import type { RaftNode } from '../src/sim/raft/node';
import { PRESETS, findPreset } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { fuzzRun } from '../src/sim/check/fuzz';

const TINY: SimConfig = makeConfig({ seed: 42, nodeIds: nodeIdsFor(3) });
const WITH_CLIENTS: SimConfig = { ...TINY, clientIds: ['A', 'B'] };

/** A tiny cluster with a leader and two committed entries, every invariant attached. */
function settled(
  config: SimConfig = TINY,
  schedule = '@400 submit x=1; @400 submit x=2',
): {
  sim: Simulation;
  checker: InvariantChecker;
  leader: RaftNode;
  follower: RaftNode;
} {
  const sim = new Simulation(config, parseSchedule(schedule));
  const checker = attachInvariants(sim, { maxViolations: 50 });
  sim.advanceTo(1000);
  expect(checker.violations).toEqual([]);
  const leader = sim.cluster.leader();
  if (leader === null) throw new Error('no leader');
  const follower = sim.cluster.nodes.find((n) => n !== leader) as RaftNode;
  return { sim, checker, leader, follower };
}

function firstOf(checker: InvariantChecker): InvariantId | HistoryCheckId | undefined {
  return checker.first?.invariant as InvariantId | HistoryCheckId | undefined;
}

function expectCaught(checker: InvariantChecker, id: InvariantId): void {
  expect(checker.violations.map((v) => v.invariant)).toContain(id);
  const v = checker.violations.find((x) => x.invariant === id);
  expect(v?.sentence).toMatch(/^[a-zA-Z].*\.$/);
  expect(v?.line).toMatch(/^t= *\d+ ms VIOLATION /);
  expect(v?.nodes.length).toBeGreaterThan(0);
}

describe('each invariant catches a hand-built violation', () => {
  it('Election Safety: a second leader in the same term', () => {
    const { sim, checker, leader, follower } = settled();
    follower.role = 'leader';
    follower.term = leader.term;
    sim.step();
    expect(firstOf(checker)).toBe('election-safety');
    expect(checker.first?.sentence).toBe(`${leader.id} and ${follower.id} were both elected leader of term ${leader.term}.`);
    expect(checker.first?.nodes).toEqual([leader.id, follower.id]);
    expect(checker.first?.t).toBe(sim.nowMs);
  });

  it('Log Matching: the same index and term holding another command', () => {
    const { sim, checker, follower } = settled();
    const last = follower.log[follower.log.length - 1];
    follower.log[follower.log.length - 1] = Object.freeze({ term: last.term, command: 'evil' });
    sim.step();
    expect(firstOf(checker)).toBe('log-matching');
    expect(checker.first?.sentence).toContain('has x=2');
    expect(checker.first?.sentence).toContain('has evil');
  });

  it('Log Matching: the same index and term after different predecessors', () => {
    const { sim, checker, follower } = settled();
    const [first, second] = follower.log;
    follower.log.length = 0;
    // Entries arrive as new objects: a copy of entry 2 after an entry 1 of another term.
    follower.log.push(Object.freeze({ term: first.term + 5, command: first.command }), Object.freeze({ ...second }));
    sim.step();
    expectCaught(checker, 'log-matching');
    expect(checker.violations.find((v) => v.invariant === 'log-matching')?.sentence).toContain('the entries before it differ');
  });

  it('Leader Completeness: a later leader without a committed entry', () => {
    const { sim, checker, leader, follower } = settled();
    follower.log.length = 0;
    follower.term = leader.term + 1;
    follower.role = 'leader';
    sim.step();
    // Emptying its log by hand also drops entries no conflict replaced (log-kept): both are seen.
    expectCaught(checker, 'leader-completeness');
    expect(checker.violations.find((v) => v.invariant === 'leader-completeness')?.sentence).toContain(
      `${follower.id} leads term ${leader.term + 1} without x=1`,
    );
  });

  it('State Machine Safety: a node applying another command at an applied index', () => {
    const { sim, checker, follower } = settled();
    follower.log[0] = Object.freeze({ term: follower.log[0].term, command: 'evil' });
    sim.cluster.restart(follower.id); // re-applies from index 1 as the leader's commit arrives
    sim.advanceTo(sim.nowMs + 300);
    expectCaught(checker, 'state-machine-safety');
    expect(checker.violations.find((v) => v.invariant === 'state-machine-safety')?.sentence).toMatch(
      /applied evil at index 1, but n\d had applied x=1 there\./,
    );
  });

  it('Leader Append-Only: a leader dropping its own entry', () => {
    const { sim, checker, leader } = settled();
    leader.log.pop();
    sim.step();
    expect(firstOf(checker)).toBe('leader-append-only');
    expect(checker.first?.sentence).toContain(
      `${leader.id}, leader of term ${leader.term}, removed or overwrote its own entries from index 2`,
    );
  });

  it('applied index: moving back without a restart is caught, a restart is not', () => {
    const { sim, checker, follower, leader } = settled();
    sim.cluster.restart(leader.id);
    sim.advanceTo(sim.nowMs + 200);
    expect(checker.violations).toEqual([]);
    follower.lastApplied -= 1;
    sim.step();
    expect(firstOf(checker)).toBe('applied-monotonic');
    expect(checker.first?.sentence).toBe(`${follower.id}'s applied index moved back from 2 to 1 without a restart.`);
  });

  it('one holder: a grant applied while the applied log still gives the key to another', () => {
    const { sim, checker, leader } = settled(WITH_CLIENTS, '@300 client A acquire job 60000');
    expect(sim.lockService!.machineOf(leader).locks.get('job')?.owner).toBe('A');
    sim.lockService!.machineOf(leader).locks.delete('job'); // the leader forgets A's lock outside the log
    sim.act({ verb: 'client', client: 'B', intent: { op: 'acquire', key: 'job', leaseMs: 1000 } });
    sim.advanceTo(sim.nowMs + 500);
    expect(firstOf(checker)).toBe('one-holder');
    expect(checker.first?.sentence).toBe(`${leader.id} granted job to B (token 2) while its applied log still gives job to A (token 1).`);
    expectCaught(checker, 'tokens'); // the followers rejected that grant
  });

  it('tokens: a token issued twice in apply order', () => {
    const { sim, checker, leader } = settled(WITH_CLIENTS, '@300 client A acquire job 60000; @600 client A release job');
    sim.lockService!.machineOf(leader).nextToken = 1;
    sim.act({ verb: 'client', client: 'B', intent: { op: 'acquire', key: 'job', leaseMs: 1000 } });
    sim.advanceTo(sim.nowMs + 500);
    expect(firstOf(checker)).toBe('tokens');
    expect(checker.first?.sentence).toBe(`${leader.id} issued token 1 after token 1; tokens must increase in apply order.`);
  });

  it('tokens: two nodes giving one grant different tokens', () => {
    const { sim, checker, follower } = settled(WITH_CLIENTS, '@300 client A acquire job 60000; @600 client A release job');
    sim.lockService!.machineOf(follower).nextToken = 10;
    sim.act({ verb: 'client', client: 'B', intent: { op: 'acquire', key: 'job', leaseMs: 1000 } });
    sim.advanceTo(sim.nowMs + 500);
    expect(firstOf(checker)).toBe('tokens');
    expect(checker.first?.sentence).toMatch(/applied the grant at index \d+ as token (10|2), but n\d applied it as token (2|10)\./);
  });

  it('Expire: removing a lock whose token does not match', () => {
    const { sim, checker, leader } = settled(WITH_CLIENTS, '@300 client A acquire job 60000');
    const held = sim.lockService!.machineOf(leader).locks.get('job');
    if (!held) throw new Error('A holds no lock');
    sim.lockService!.machineOf(leader).locks.set('job', { ...held, token: 99 });
    leader.submit({ type: 'expire', key: 'job', token: 99 });
    sim.advanceTo(sim.nowMs + 300);
    expect(firstOf(checker)).toBe('expire-token');
    expect(checker.first?.sentence).toBe(`${leader.id} applied expire job token 99, which removed A's lock with token 1.`);
  });

  it('fencing: the fenced store accepting a token below the highest', () => {
    const { sim, checker } = settled(WITH_CLIENTS, '@300 client A acquire job 60000; @300 client A write job=A1');
    const fenced = sim.lockService?.fenced;
    if (!fenced) throw new Error('no store');
    expect(fenced.highest.get('job')).toBe(1);
    fenced.writes.push({
      t: sim.nowMs,
      client: 'B',
      key: 'job',
      value: 'stale',
      token: 0,
      lockKey: 'job',
      accepted: true,
      leaseEnded: true,
      reason: null,
    });
    sim.step();
    expect(firstOf(checker)).toBe('fencing');
    expect(checker.first?.sentence).toBe('the fenced store accepted token 0 for job from B after accepting token 1.');
    expect(checker.first?.nodes).toEqual(['B', 'fenced']);
  });

  it('names every invariant with a title', () => {
    // The ten replicated-state invariants, eight that watch clients, commits and releases, two on
    // a leader's match indexes and dropped entries, liveness after calm, the run's bound, and the
    // engine never throwing, plus each protocol feature's own, plus the lock services' (issue 26:
    // the two every consistent service shares and each service's own).
    const own = core.invariants.filter((i) => 'id' in i);
    expect(own).toHaveLength(23);
    expect(LOCK_INVARIANTS).toHaveLength(12);
    expect(INVARIANT_IDS.length).toBe(own.length + FEATURES.flatMap((f) => f.invariants.map((i) => i.id)).length + LOCK_INVARIANTS.length);
    for (const id of INVARIANT_IDS) expect(invariant.titles[id]).toMatch(/\w/);
  });
});

describe('a violation carries what reproduces it', () => {
  it('the schedule so far and the configuration replay it at the same time', () => {
    const { sim, checker, follower, leader } = settled();
    sim.act({ verb: 'submit', command: 'x=3', target: null });
    sim.step();
    follower.role = 'leader';
    follower.term = leader.term;
    sim.step();
    const v = checker.first;
    expect(v?.schedule).toBe('@400 submit x=1; @400 submit x=2; @1000 submit x=3');
    expect(v?.config).toBe(TINY);
    expect(v?.untilMs).toBe(1002);
  });
});

describe('the checker stays quiet on clean runs', () => {
  it.each(PRESETS.map((p) => [p.name]))('preset %s', (name) => {
    const preset = findPreset(name);
    if (!preset) throw new Error(name);
    const sim = new Simulation(preset.config, parseSchedule(preset.schedule));
    const checker = attachInvariants(sim);
    sim.advanceTo(Math.max(preset.untilMs, 10_000));
    expect(checker.violations).toEqual([]);
  });

  it("the chapter's split-vote control (200-200 ms timeouts) loses liveness, not safety", () => {
    const sim = new Simulation({ ...DEFAULT_CONFIG, electionTimeoutMs: [200, 200] });
    const checker = attachInvariants(sim);
    sim.advanceTo(2000);
    expect(sim.cluster.leadersByTerm.size).toBe(0);
    expect(Math.max(...sim.cluster.nodes.map((n) => n.term))).toBe(10);
    sim.advanceTo(10_000);
    expect(sim.cluster.leadersByTerm.size).toBe(0);
    expect(checker.violations).toEqual([]);
  });

  it('the fencing story gives a finding (a stale write the unfenced store took), not a failure', () => {
    const preset = findPreset('fencing');
    if (!preset) throw new Error('fencing');
    const sim = new Simulation(preset.config, parseSchedule(preset.schedule));
    const checker = attachInvariants(sim);
    sim.advanceTo(preset.untilMs);
    expect(checker.violations).toEqual([]);
    expect(checker.findings.map((f) => `${f.client} ${f.key}=${f.value} token ${f.token}`)).toEqual(['A result=A-second token 1']);
  });

  // Issue 24: with pre-vote, `partition B` (B a client) made the pre-vote invariant look up a node
  // "B" and throw. A group may name clients; every invariant must read only the servers in it.
  const choices: [string, FeatureName[]][] = [
    ['no feature', []],
    ...FEATURES.map((f): [string, FeatureName[]] => [f.name, [f.name]]),
    ['every feature', FEATURES.map((f) => f.name)],
  ];
  it.each(choices)('partition groups that name clients: %s holds every invariant and never throws', (_which, features) => {
    const config = makeConfig({ clientIds: ['A', 'B'], features });
    const schedule =
      '@300 client A acquire k 5000; @500 partition B; @700 partition n1,A | B,n2; @900 client B acquire k 2000; ' +
      '@1100 partition A,B; @1300 partition n1,n2,A | n3,B; @1600 heal';
    const sim = new Simulation(config, parseSchedule(schedule));
    const checker = attachInvariants(sim);
    sim.advanceTo(3000);
    expect(checker.violations).toEqual([]);
  });

  it('60 swarm runs of 10 s without bugs hold', () => {
    for (let run = 0; run < 60; run++) expect(fuzzRun(11, run).violation).toBeNull();
  });
});

describe('time travel', () => {
  it('a clone of a checked run (a checkpoint) does not feed the original checker', () => {
    const { sim, checker } = settled();
    sim.advanceTo(1500);
    const copy = sim.clone();
    copy.cluster.restart('n1');
    copy.cluster.nodes[1].lastApplied = 0; // would be a violation in the original's eyes
    copy.advanceTo(2500);
    sim.advanceTo(2500);
    expect(checker.violations).toEqual([]);
  });
});
