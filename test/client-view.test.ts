// What clients are told, liveness after calm, engine exceptions and the wider fault model: each
// new invariant fails on a hand-built state, and the lock service's own rules hold on real runs.
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { makeConfig, nodeIdsFor, type SimConfig } from '../src/sim/model/config';
import { FAULT_KINDS, fuzzRun, runChecked } from '../src/sim/check/fuzz';
import { attachInvariants, type InvariantChecker } from '../src/sim/check/invariants';
import { livenessBound } from '../src/sim/check/liveness';
import { LockStateMachine } from '../src/sim/service/lockStateMachine';
import type { RaftNode } from '../src/sim/raft/node';
import { formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { Store } from '../src/sim/service/stores';
import type { ClientReply } from '../src/sim/model/types';

const TINY: SimConfig = makeConfig({ seed: 42, nodeIds: nodeIdsFor(3), clientIds: ['A', 'B'] });

function run(schedule: string, untilMs: number, config: SimConfig = TINY): { sim: Simulation; checker: InvariantChecker } {
  const sim = new Simulation(config, parseSchedule(schedule));
  const checker = attachInvariants(sim, { maxViolations: 50 });
  sim.advanceTo(untilMs);
  return { sim, checker };
}

const lines = (sim: Simulation) => sim.cluster.events.map((e) => e.text);
const leaderOf = (sim: Simulation): RaftNode => {
  const l = sim.cluster.leader();
  if (l === null) throw new Error('no leader');
  return l;
};
const reply = (r: Partial<ClientReply>): ClientReply => ({
  type: 'ClientReply',
  id: 1,
  op: 'acquire',
  key: 'job',
  outcome: 'granted',
  token: 1,
  leaderHint: 'n1',
  index: null,
  ...r,
});

describe('the lock service, from the clients’ side', () => {
  it('a release by a client that does not hold the key is refused, and the holder keeps it', () => {
    const { sim, checker } = run('@400 client A acquire job 60000; @800 client B release job', 1500);
    expect(lines(sim)).toContain('B release job -> refused, B does not hold it');
    for (const node of sim.cluster.nodes) expect(sim.lockService!.machineOf(node).locks.get('job')?.owner).toBe('A');
    expect(checker.violations).toEqual([]);
  });

  it('the state machine refuses a release that names another owner or an old token (NotHolder)', () => {
    const sm = new LockStateMachine();
    sm.apply({ type: 'grant', key: 'k', leaseMs: 100, owner: 'A' }, 0);
    expect(sm.apply({ type: 'release', key: 'k', owner: 'B', token: 1 }, 1)).toEqual({ type: 'NotHolder', holder: 'A', token: 1 });
    expect(sm.apply({ type: 'release', key: 'k', owner: 'A', token: 7 }, 1)).toEqual({ type: 'NotHolder', holder: 'A', token: 1 });
    expect(sm.apply({ type: 'release', key: 'k', owner: 'A', token: 1 }, 1)).toEqual({ type: 'Released' });
  });

  it('two clients racing for one key: one grant, the other busy, never one token told twice', () => {
    const { sim, checker } = run('@400 client A acquire job 5000; @400 client B acquire job 5000; @400 duplicate 40', 2500);
    const granted = sim.cluster.events.filter((e) => e.kind === 'client-acquired').map((e) => e.subjects[0]);
    expect(granted).toHaveLength(1);
    expect(sim.cluster.events.some((e) => e.kind === 'client-busy')).toBe(true);
    expect(checker.violations).toEqual([]);
  });

  it('a fenced write with a token equal to the highest accepted is accepted (the holder writing again)', () => {
    const store = new Store('fenced', true);
    expect(store.write(1, 'A', 'k', 'one', 3, 'job', false).accepted).toBe(true);
    expect(store.write(2, 'A', 'k', 'two', 3, 'job', false).accepted).toBe(true);
    expect(store.write(3, 'B', 'k', 'old', 2, 'job', false).accepted).toBe(false);
    const { sim, checker } = run('@400 client A acquire job 60000; @400 client A write r=1; @400 client A write r=2', 1500);
    expect(sim.lockService!.fenced.values.get('r')?.value).toBe('2');
    expect(checker.violations).toEqual([]);
  });

  it('an index reused by another leader for another client: the first asker is never told it was granted', () => {
    const sim = new Simulation(TINY);
    const checker = attachInvariants(sim, { maxViolations: 50 });
    sim.advanceTo(400);
    const old = leaderOf(sim);
    sim.act({ verb: 'client', client: 'A', intent: { op: 'acquire', key: 'job', leaseMs: 5000 } });
    // The moment A's Grant sits only in the old leader's log, cut the old leader off.
    while (!(old.log.length > old.commitIndex)) sim.step();
    const index = old.log.length;
    // A stays with the old leader; B and the majority elect a new one, whose Grant takes the index.
    sim.act({ verb: 'partition', groups: [[old.id, 'A']] });
    sim.advanceTo(sim.nowMs + 500);
    sim.act({ verb: 'client', client: 'B', intent: { op: 'acquire', key: 'job', leaseMs: 5000 } });
    sim.advanceTo(sim.nowMs + 1500);
    sim.act({ verb: 'heal' });
    sim.advanceTo(sim.nowMs + 1500);
    const entry = old.log[index - 1].command;
    expect(typeof entry !== 'string' && entry.type === 'grant' && entry.owner).toBe('B');
    const aTold = sim.cluster.events.filter((e) => e.kind === 'client-acquired' && e.subjects[0] === 'A');
    const bToken = sim.lockService!.clients.get('B')!.holdings.get('job')?.token;
    for (const e of aTold) expect(e.text).not.toContain(`token ${bToken}`);
    expect(checker.violations).toEqual([]);
  });

  it('regression: re-acquiring a held key renews it, so the client’s lease never outlasts the service’s', () => {
    const out = runSimCli([
      '--seed',
      '1563430073',
      '--nodes',
      '7',
      '--timeout',
      '230-419',
      '--heartbeat',
      '66',
      '--latency',
      '5-13',
      '--clients',
      'A,B',
      '--until',
      '3700',
      '--schedule',
      '@1158 client A acquire k1 2325; @3027 client A acquire k1 597',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/A acquires k1 -> token 2, its lease ends by t=3624 ms/);
    // The service frees the renewed lock only after the client's own count has run out.
    const expired = /t= *(\d+) ms n\d expires k1 \(token 2\)/.exec(out.stdout);
    if (expired) expect(Number(expired[1])).toBeGreaterThan(3624);
    expect(out.stdout).toContain('invariants: every invariant held at every millisecond');
  });

  it('regression: a release retried to a new leader is answered released once the first release commits', () => {
    const out = runSimCli([
      '--seed',
      '4145465855',
      '--nodes',
      '4',
      '--timeout',
      '256-333',
      '--heartbeat',
      '38',
      '--latency',
      '4-17',
      '--clients',
      'A,B,C,D',
      '--until',
      '2600',
      '--schedule',
      '@374 crash n3; @1731 client B acquire k2 860; @2122 partition n4; @2122 client B release k2; @2554 restart n3',
    ]);
    expect(out.stdout).toContain('B released k2');
    expect(out.stdout).not.toContain('busy, a change to it is pending; not released');
    expect(out.stdout).toContain('invariants: every invariant held at every millisecond');
  });
});

describe('each client-view invariant fails on a hand-built state', () => {
  function settledLock() {
    const { sim, checker } = run('@400 client A acquire job 60000', 1500);
    expect(checker.violations).toEqual([]);
    const service = sim.lockService!;
    return { sim, checker, service, a: service.clients.get('A')!, b: service.clients.get('B')!, leader: leaderOf(sim) };
  }

  it('commit index never moves back on a live node', () => {
    const { sim, checker } = run('@400 submit x=1; @400 submit x=2', 1000);
    const follower = sim.cluster.nodes.find((n) => n.role !== 'leader')!;
    follower.commitIndex -= 1;
    sim.step();
    expect(checker.first?.invariant).toBe('commit-monotonic');
    expect(checker.first?.sentence).toBe(`${follower.id}'s commit index moved back from 2 to 1 without a restart.`);
  });

  it('only the holder releases: a state machine that frees a lock for anyone is caught', () => {
    const { sim, checker, leader } = settledLock();
    for (const node of sim.cluster.nodes) {
      const machine = sim.lockService!.machineOf(node);
      const apply = machine.apply.bind(machine);
      machine.apply = (command, now, options) => {
        if (typeof command !== 'string' && command.type === 'release') {
          machine.locks.delete(command.key);
          return { type: 'Released' };
        }
        return apply(command, now, options);
      };
    }
    leader.submit({ type: 'release', key: 'job', owner: 'B', token: null });
    sim.advanceTo(sim.nowMs + 300);
    expect(checker.first?.invariant).toBe('release-owner');
    expect(checker.first?.sentence).toBe(`${leader.id} applied a release of job by B, which removed A's lock with token 1.`);
  });

  it('answers match the applied entry at the index they name', () => {
    const { sim, checker, service, a } = settledLock();
    service.clientTold(a, 'n1', reply({ op: 'release', outcome: 'released', token: null, index: 1 }));
    expect(checker.first?.invariant).toBe('client-reply');
    expect(checker.first?.sentence).toMatch(
      /^A was told by n1 that its release of job is released at index 1, but index 1 applied grant job to A/,
    );
    void sim;
  });

  it('one client per token, and clients hold only tokens the log granted them', () => {
    const { checker, service, b } = settledLock();
    service.clientTold(b, 'n1', reply({ token: 1 }));
    expect(checker.violations.map((v) => v.invariant)).toEqual(['client-token-unique', 'client-token']);
    expect(checker.violations[0].sentence).toBe('A and B were both told they hold job with token 1.');
    expect(checker.violations[1].sentence).toBe(
      'B was told it holds job with token 1, but the committed log granted token 1 for job to A.',
    );
  });

  it("a client's lease ends no later than the service's", () => {
    const { checker, service, a } = settledLock();
    a.holdings.set('job', { token: 1, deadline: 999_999 });
    service.clientTold(a, 'n1', reply({ token: 1 }));
    expect(checker.first?.invariant).toBe('client-lease');
    expect(checker.first?.sentence).toMatch(
      /^A counts its lease on job \(token 1\) to t=999999 ms, but the service granted it only to t=\d+ ms\.$/,
    );
  });

  it('the service honours a running lease: freeing the key under a client that still counts on it is caught', () => {
    const { sim, checker, leader } = settledLock();
    leader.submit({ type: 'release', key: 'job', owner: 'A', token: 1 }); // a release A never asked for
    sim.advanceTo(sim.nowMs + 300);
    expect(checker.first?.invariant).toBe('client-lease-honoured');
    expect(checker.first?.sentence).toMatch(
      /^A's lease on job runs to t=\d+ ms, but the committed log freed job \(release job by A\) with no clock drift configured\.$/,
    );
  });

  it('with clock drift set, a lease ended early is a finding, not a failure (the chapter’s hazard)', () => {
    const { checker } = run(
      '@400 drift n2 50; @1000 client A acquire job:42 6000; @6000 client B acquire job:42 6000',
      8000,
      makeConfig({ clientIds: ['A', 'B'] }),
    );
    expect(checker.violations).toEqual([]);
    expect(checker.leaseFindings.length).toBeGreaterThan(0);
  });

  it('the fenced store accepts the current token: refusing an equal token is caught', () => {
    const { sim, checker } = run('@400 client A acquire job 60000; @400 client A write r=1', 1500);
    const fenced = sim.lockService!.fenced;
    fenced.writes.push({
      t: sim.nowMs,
      client: 'A',
      key: 'r',
      value: '2',
      token: 1,
      lockKey: 'job',
      accepted: false,
      leaseEnded: false,
      reason: 'no',
    });
    sim.step();
    expect(checker.first?.invariant).toBe('fenced-store-exact');
    expect(checker.first?.sentence).toBe('the fenced store refused r from A with token 1, though the highest it accepted is 1.');
  });
});

describe('liveness once faults stop', () => {
  it('holds after calm: a leader commits a probe on every node within the bound', () => {
    const { sim, checker } = run(
      '@300 crash n1; @400 partition n2 | n3; @500 delay 300; @600 duplicate 30; @700 reorder 20; @1500 calm',
      6000,
    );
    expect(checker.violations).toEqual([]);
    expect(checker.liveness.state).toBe('held');
    const leader = leaderOf(sim);
    expect(leader.log[leader.log.length - 1].command).toBe(`probe${leader.term}`);
    for (const n of sim.cluster.nodes) expect(n.commitIndex).toBe(leader.log.length);
  });

  it('fails when a follower never resets its election timer (elections never settle)', () => {
    const sim = new Simulation(TINY, parseSchedule('@1000 calm'));
    const checker = attachInvariants(sim, { maxViolations: 5 });
    for (const node of sim.cluster.nodes) {
      const reset = node.resetElectionTimer.bind(node);
      // The slip: hearing from a leader does not push the timer back, so followers keep campaigning.
      node.resetElectionTimer = () => {
        if (node.role === 'candidate') reset();
      };
    }
    sim.advanceTo(40_000);
    expect(checker.first?.invariant).toBe('liveness');
    expect(checker.first?.sentence).toMatch(/^\d+ ms after the faults stopped, /);
  });

  it('is skipped, with the reason, where the configuration cannot promise it', () => {
    expect(livenessBound(makeConfig({ nodeIds: ['n1'] }), 0)).toMatch(/single node never commits/);
    expect(livenessBound(makeConfig({ electionTimeoutMs: [200, 210], latencyMs: [5, 15] }), 0)).toMatch(/votes can split forever/);
    expect(livenessBound(makeConfig(), 10)).toBeGreaterThan(300);
    const { checker } = run('@500 calm', 2000, makeConfig({ nodeIds: ['n1'] }));
    expect(checker.liveness.state).toBe('skipped');
  });

  it('every fuzz run ends with calm and a liveness verdict', () => {
    for (let r = 0; r < 20; r++) {
      const o = fuzzRun(5, r);
      expect(o.violation).toBeNull();
      expect(o.schedule.some((a) => a.verb === 'calm')).toBe(true);
      expect(o.liveness).toMatch(/^(held|skipped): /);
    }
  });
});

describe('an exception in the engine is a counterexample', () => {
  it('is caught, named, and reported at its time', () => {
    const checker = runChecked(TINY, parseSchedule('@300 submit x=1'), 2000);
    expect(checker.violations).toEqual([]);
    const sim = new Simulation(TINY);
    const c = attachInvariants(sim, { maxViolations: 1 });
    const node = sim.cluster.nodes[1];
    node.onMessage = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'term')");
    };
    try {
      sim.advanceTo(2000);
    } catch (error) {
      c.recordCrash(error);
    }
    expect(c.first?.invariant).toBe('engine-crash');
    expect(c.first?.sentence).toBe("the simulation threw TypeError: Cannot read properties of undefined (reading 'term').");
    expect(c.first?.t).toBeLessThan(2000);
  });
});

describe('the wider fault model', () => {
  it('parses and prints delay, duplicate, reorder and calm, with one sentence for bad ones', () => {
    const text = '@10 delay 400; @20 delay n2 300; @30 duplicate 25; @40 reorder 10; @50 calm';
    expect(formatSchedule(parseSchedule(text))).toBe(text);
    expect(() => parseSchedule('@10 delay 70000')).toThrow(/a delay is a whole number of ms from 0 to 60000/);
    expect(() => parseSchedule('@10 duplicate 120')).toThrow(/percent from 0 to 100/);
    expect(() => parseSchedule('@10 calm now')).toThrow(/is not of the form "@<ms> calm"/);
    expect(runSimCli(['--schedule', '@10 delay n9 100']).stderr).toMatch(/names "n9", which is no node or client of this run/);
  });

  it('a delay adds latency; duplicates deliver twice; both draw nothing when off', () => {
    const base = run('', 1000, makeConfig({ seed: 7 }));
    const off = run('@1 delay 0; @1 duplicate 0; @1 reorder 0', 1000, makeConfig({ seed: 7 }));
    expect(off.sim.cluster.rng.nextUint32()).toBe(base.sim.cluster.rng.nextUint32());
    const slow = new Simulation(makeConfig({ seed: 7 }), parseSchedule('@0 delay 500'));
    slow.advanceTo(700);
    const inflight = slow.cluster.inflight.items;
    expect(inflight.length).toBeGreaterThan(0);
    for (const e of inflight) expect(e.deliverAt - e.sentAt).toBeGreaterThanOrEqual(505);
    // A fixed latency, so a message and its copy are in flight together.
    const dup = new Simulation(makeConfig({ seed: 7, latencyMs: [10, 10] }), parseSchedule('@0 duplicate 100'));
    dup.advanceTo(700);
    const copies = new Map<string, number>();
    for (const e of dup.cluster.inflight.items) {
      const k = `${e.src} ${e.dst} ${e.sentAt} ${e.payload.type}`;
      copies.set(k, (copies.get(k) ?? 0) + 1);
    }
    expect(copies.size).toBeGreaterThan(0);
    for (const n of copies.values()) expect(n % 2).toBe(0);
  });

  it('the swarm draws every fault kind, even cluster sizes and the new stories', () => {
    expect(FAULT_KINDS).toEqual(expect.arrayContaining(['delay-spike', 'duplicates', 'reorder', 'index-reuse', 'stale-reply']));
    const kinds = new Set<string>();
    const sizes = new Set<number>();
    for (let r = 0; r < 60; r++) {
      const o = fuzzRun(9, r, [], 2000);
      o.kinds.forEach((k) => kinds.add(k));
      sizes.add(o.config.nodeIds.length);
    }
    for (const k of FAULT_KINDS) expect(kinds).toContain(k);
    expect([...sizes].filter((n) => n % 2 === 0).length).toBeGreaterThan(0);
  });
});
