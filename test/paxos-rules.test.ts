// Paxos's rules (Lamport, "Paxos Made Simple"), each named by its section: the acceptor's and
// the proposer's rules on their own nouns, then whole runs on the simulated network with the
// Paxos checker attached (check/paxosInvariants.ts), then the bugs it must catch.
import { describe, expect, it } from 'vitest';
import { ballotOf, ballotText } from '../src/sim/model/ballot';
import { checkConfig, configFromFields, makeConfig, type SimConfig } from '../src/sim/model/config';
import { paxosBugsOf, type PaxosBugName } from '../src/sim/model/features';
import { checkSchedule, formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Acceptor } from '../src/sim/paxos/acceptor';
import { Learner } from '../src/sim/paxos/learner';
import { NOOP_VALUE, valuesToPropose } from '../src/sim/paxos/proposer';
import { attachPaxosInvariants } from '../src/sim/check/paxosInvariants';
import { PaxosSimulation } from '../src/sim/run/paxosSimulation';

function run(
  protocol: 'paxos' | 'multi-paxos',
  schedule: string,
  untilMs: number,
  extra: Partial<SimConfig> = {},
  submitEveryMs: number | null = null,
) {
  const sim = new PaxosSimulation(makeConfig({ protocol, ...extra }), parseSchedule(schedule), { recordDetails: true, submitEveryMs });
  const checker = attachPaxosInvariants(sim);
  sim.advanceTo(untilMs);
  return { sim, checker, c: sim.cluster };
}

describe('ballots (§2.2: proposers number proposals from disjoint sets)', () => {
  it('orders by round, then by proposer, and reads like 7.2', () => {
    expect(ballotText(ballotOf(7, 2))).toBe('7.2');
    expect(ballotOf(1, 5)).toBeLessThan(ballotOf(2, 1));
    expect(ballotOf(3, 1)).toBeLessThan(ballotOf(3, 2));
    expect(ballotText(0)).toBe('none');
  });
});

describe('the acceptor (§2.2, phases 1b and 2b)', () => {
  it('promises only a ballot above every one it promised, and its promise carries what it accepted', () => {
    const a = new Acceptor();
    expect(a.prepare(ballotOf(1, 1), 1)).toEqual({ ok: true, previous: 0, accepted: [] });
    expect(a.accept(ballotOf(1, 1), 1, 'v=1', false)).toBe(true);
    expect(a.prepare(ballotOf(1, 1), 1)).toEqual({ ok: false, promised: ballotOf(1, 1) });
    expect(a.prepare(ballotOf(2, 3), 1)).toEqual({
      ok: true,
      previous: ballotOf(1, 1),
      accepted: [{ slot: 1, ballot: ballotOf(1, 1), value: 'v=1' }],
    });
  });

  it('P1a: never accepts a ballot below its promise (and the bug paxos-accept-below-promise does)', () => {
    const a = new Acceptor();
    a.prepare(ballotOf(2, 2), 1);
    expect(a.accept(ballotOf(1, 1), 1, 'v=1', false)).toBe(false);
    expect(a.accepted.size).toBe(0);
    expect(a.accept(ballotOf(2, 2), 1, 'v=2', false)).toBe(true);
    expect(a.accept(ballotOf(1, 1), 1, 'v=1', true)).toBe(true);
  });

  it('a Multi-Paxos promise covers every slot from the one the Prepare names, and reports only those', () => {
    const a = new Acceptor();
    a.accept(ballotOf(1, 1), 1, 'x=1', false);
    a.accept(ballotOf(1, 1), 2, 'x=2', false);
    const answer = a.prepare(ballotOf(2, 2), 2);
    expect(answer.ok && answer.accepted.map((e) => e.slot)).toEqual([2]);
  });
});

describe('the proposer (§2.2, P2c)', () => {
  it('must propose the highest-ballot value among the promises, and may choose freely only where none carries one', () => {
    const promises = new Map([
      ['n1', [{ slot: 1, ballot: ballotOf(1, 1), value: 'a' }]],
      ['n2', [{ slot: 1, ballot: ballotOf(2, 4), value: 'b' }]],
      ['n3', []],
    ]);
    expect(valuesToPropose(promises, ['n1', 'n2', 'n3'], 1)).toEqual([
      { slot: 1, value: 'b', source: 'adopted', from: ballotOf(2, 4), acceptor: 'n2' },
    ]);
    expect(valuesToPropose(new Map([['n1', []]]), ['n1'], 1)).toEqual([]);
  });

  it('Multi-Paxos (§3): a slot no promise carries below the highest one mentioned is a gap, filled with a no-op', () => {
    const promises = new Map([['n1', [{ slot: 3, ballot: ballotOf(1, 2), value: 'b=2' }]]]);
    const choices = valuesToPropose(promises, ['n1'], 2);
    expect(choices.map((c) => [c.slot, c.value, c.source])).toEqual([
      [2, NOOP_VALUE, 'gap'],
      [3, 'b=2', 'adopted'],
    ]);
  });
});

describe('the learner (§2.3)', () => {
  it('learns a value once a majority accepted it in one ballot, never by adding up different ballots', () => {
    const l = new Learner();
    expect(l.heard('n1', ballotOf(1, 1), 1, 'v', 3)).toBeNull();
    expect(l.heard('n2', ballotOf(2, 2), 1, 'v', 3)).toBeNull();
    expect(l.heard('n3', ballotOf(1, 1), 1, 'v', 3)).toBeNull();
    expect(l.heard('n4', ballotOf(1, 1), 1, 'v', 3)).toEqual(['n1', 'n3', 'n4']);
    expect(l.chosen.get(1)).toBe('v');
  });
});

describe('single-decree Paxos on the network', () => {
  it('a value is chosen once a majority accepted it, and every learner learns it', () => {
    const { c, checker } = run('paxos', '@10 propose v=1 to n1', 400);
    expect(c.events.map((e) => e.text)).toEqual([
      'n1 proposes v=1: Prepare ballot 1.1 to all',
      'n1 has promises for ballot 1.1 from n1, n3, n4: Accept v=1 (its own value)',
      'v=1 is chosen (ballot 1.1, accepted by n1, n2, n5)',
    ]);
    expect(c.nodes.map((n) => n.learner.chosen.get(1))).toEqual(['v=1', 'v=1', 'v=1', 'v=1', 'v=1']);
    expect(checker.violations).toEqual([]);
  });

  it('P2c: a later proposer whose promises carry an accepted value re-proposes it, not its own', () => {
    const { c, checker } = run('paxos', '@10 propose v=1 to n1; @100 propose v=2 to n5', 400);
    expect(c.events.map((e) => e.text)).toContain(
      'n5 has promises for ballot 2.5 from n2, n4, n5: Accept v=1 (an accepted value it must re-propose)',
    );
    expect(c.details.some((d) => d.kind === 'paxos-adopted' && d.values.value === 'v=1')).toBe(true);
    expect(new Set(c.nodes.map((n) => n.acceptor.accepted.get(1)?.value))).toEqual(new Set(['v=1']));
    expect(checker.violations).toEqual([]);
  });

  it("§2.3: every learner learns the chosen value, the proposer's own acceptance counted (a bare majority with the proposer)", () => {
    const { c } = run('paxos', '@5 partition n1,n2,n3 | n4,n5; @10 propose A to n1', 140);
    expect(['n1', 'n2', 'n3'].map((id) => c.node(id).learner.chosen.get(1))).toEqual(['A', 'A', 'A']);
    expect(['n4', 'n5'].map((id) => c.node(id).learner.chosen.get(1))).toEqual([undefined, undefined]);
  });

  it('an acceptor that promised a higher ballot refuses, and the Why sentence names the promise', async () => {
    const { c } = run('paxos', '@10 propose v=1 to n1; @12 propose v=2 to n5', 400);
    const { describeDetail } = await import('../src/sim/model/describe');
    const refusal = c.details.find((d) => d.kind === 'paxos-prepare-refused');
    expect(refusal && describeDetail(refusal)).toBe('acceptor n5 refused Prepare 1.1 from n1: it promised ballot 1.5');
  });

  it('§2.3: a restarted acceptor keeps its promise and what it accepted (stable storage)', () => {
    const { c } = run('paxos', '@10 propose v=1 to n1; @60 crash n3; @70 restart n3', 100);
    const n3 = c.node('n3');
    expect(ballotText(n3.acceptor.promised)).toBe('1.1');
    expect(n3.acceptor.accepted.get(1)?.value).toBe('v=1');
    expect(c.events.map((e) => e.text)).toContain('n3 restarts, promised ballot 1.1');
  });

  it('a run with no proposal sends nothing and draws nothing', () => {
    const { c } = run('paxos', '', 2000);
    expect(c.inflight.size).toBe(0);
    expect(Object.values(c.sent).every((n) => n === 0)).toBe(true);
  });

  it('dueling proposers with no back-off pre-empt each other; each one is a pre-emption event', () => {
    const { c, checker } = run('paxos', '@10 propose v=1 to n1; @12 propose v=2 to n5', 400);
    expect(c.events.filter((e) => e.kind === 'paxos-preempted').length).toBeGreaterThan(0);
    expect(c.chosen).toHaveLength(1);
    expect(checker.violations).toEqual([]);
  });

  it('with a back-off range a pre-empted proposer waits a drawn time in it before it prepares again', () => {
    const { c } = run('paxos', '@10 propose v=1 to n1; @12 propose v=2 to n5', 600, { backoffMs: [20, 80] });
    const waits = c.details.filter((d) => d.kind === 'paxos-backoff');
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) if (w.kind === 'paxos-backoff') expect(w.values.waitMs).toBeGreaterThanOrEqual(20);
  });
});

describe('Multi-Paxos (§3)', () => {
  it('a stable leader skips phase 1 for later slots: more commands, no more Prepares', () => {
    const short = run('multi-paxos', '', 1000, {}, 100).c;
    const long = run('multi-paxos', '', 3000, {}, 100).c;
    expect(long.chosen.length).toBeGreaterThan(short.chosen.length + 15);
    expect(long.sent.Prepare).toBe(short.sent.Prepare);
  });

  it('after a leader change the new leader re-proposes accepted slots and fills a gap with a no-op', () => {
    const { c, checker } = run(
      'multi-paxos',
      '@300 partition n2 | n1,n3,n4,n5; @300 submit a=1; @320 heal; @320 submit b=2; @324 crash n2',
      900,
      {},
      200,
    );
    expect(c.events.map((e) => e.text)).toContain(
      'n3 leads with ballot 2.3 (promises from n1, n3, n4): re-proposes slot 3, fills slot 2 with a no-op',
    );
    const live = c.nodes.filter((n) => n.alive);
    expect(new Set(live.map((n) => n.machine.text()))).toEqual(new Set(['b=2, x=2']));
    expect(live.every((n) => n.learner.chosen.get(2) === NOOP_VALUE)).toBe(true);
    expect(checker.violations).toEqual([]);
  });

  it('submit goes to the leader and is refused, with a reason, when there is none', () => {
    const { c } = run('multi-paxos', '@10 submit x=1; @400 submit y=2 to n1', 600);
    const texts = c.events.map((e) => e.text);
    expect(texts).toContain('submit x=1 rejected: no leader');
    expect(texts).toContain('submit y=2 to n1 rejected: n1 is not the leader');
  });
});

describe('the checker catches every Paxos bug (replays the fuzzer found, shrunk)', () => {
  // Each: a bug, a configuration and a schedule from `npm run fuzz -- --protocol P --bug B`, and
  // the invariant it breaks; the same run without the bug holds every invariant.
  const three = { nodeIds: ['n1', 'n2', 'n3'], latencyMs: [5, 15] as const, backoffMs: [10, 29] as const, seed: 930205582 };
  const cases: readonly [PaxosBugName, 'paxos' | 'multi-paxos', Partial<SimConfig>, string, string][] = [
    ['paxos-own-value', 'paxos', three, '@64 propose v=0 to n3; @79 propose v=1 to n2', 'paxos-one-value'],
    ['paxos-accept-below-promise', 'paxos', three, '@64 propose v=0 to n3; @79 propose v=1 to n2', 'paxos-promise-kept'],
    [
      'paxos-forget-promise',
      'paxos',
      {
        nodeIds: ['n1', 'n2', 'n3'],
        seed: 340124608,
        electionTimeoutMs: [100, 200],
        heartbeatMs: 33,
        latencyMs: [1, 5],
        backoffMs: [10, 107],
      },
      '@55 propose v=0 to n2; @380 restart n3; @554 restart n1; @734 crash n2; @800 propose v=5 to n3',
      'paxos-chosen-stays',
    ],
    [
      'multipaxos-skip-prepare',
      'multi-paxos',
      three,
      '@40 crash n2; @200 submit x=1; @235 crash n3; @356 restart n3; @800 submit x=7; @1350 restart n2; @1351 crash n1; @1375 restart n3; @1600 submit x=15',
      'paxos-chosen-stays',
    ],
  ];
  for (const [bug, protocol, config, schedule, invariant] of cases) {
    it(`${bug} breaks ${invariant}, and the run without it holds`, () => {
      const bad = run(protocol, schedule, 2000, { ...config, bugs: [bug] });
      expect(bad.checker.violations.map((v) => v.invariant)).toContain(invariant);
      const good = run(protocol, schedule, 2000, config);
      expect(good.checker.violations).toEqual([]);
    });
  }

  it("paxos-own-value ends in two values chosen for one slot (the issue's example)", () => {
    const bad = run('paxos', '@10 propose v=1 to n1; @100 propose v=2 to n5', 400, { bugs: ['paxos-own-value'] });
    expect(bad.checker.violations.find((v) => v.invariant === 'paxos-one-value')?.sentence).toBe(
      'Two values are chosen in slot 1: v=1 in ballot 1.1, then v=2 in ballot 2.5 (accepted by n2, n3, n5).',
    );
  });
});

describe('the configuration and the schedule say what a Paxos run takes', () => {
  it('a Paxos bug needs its protocol, and each protocol lists its own', () => {
    expect(checkConfig(makeConfig({ bugs: ['paxos-own-value'] }))).toBe(
      'Bug "paxos-own-value" is a bug of Paxos; switch on the protocol paxos or multi-paxos too.',
    );
    expect(paxosBugsOf('paxos')).not.toContain('multipaxos-skip-prepare');
    expect(checkConfig(makeConfig({ protocol: 'paxos', bugs: ['multipaxos-skip-prepare'] }))).toMatch(
      /^Bug "multipaxos-skip-prepare" is not a bug of paxos; its bugs are /,
    );
    expect(configFromFields(makeConfig(), { protocol: 'zab' })).toBe('The protocol must be one of raft, paxos, multi-paxos, not "zab".');
    expect(configFromFields(makeConfig(), { backoff: '20-80' })).toBe(
      'A back-off range is a Paxos setting; switch on the protocol paxos or multi-paxos too.',
    );
    expect(configFromFields(makeConfig(), { protocol: 'raft' })).toEqual(makeConfig());
  });

  it('a lock service runs on Raft only: a Paxos run with one is refused in one sentence', () => {
    expect(checkConfig(makeConfig({ protocol: 'multi-paxos', lock: 'zookeeper' }))).toBe(
      'A lock service (lock=, lockopts=) is not part of a multi-paxos run; choose the protocol raft to pick one.',
    );
    expect(configFromFields(makeConfig(), { protocol: 'paxos', lock: 'redis' })).toMatch(/^A lock service .* is not part of a paxos run/);
  });

  it('propose is a Paxos verb; Raft verbs and a log-less submit are refused in a Paxos run', () => {
    const paxos = makeConfig({ protocol: 'paxos' });
    expect(checkSchedule(parseSchedule('@1 propose v=1 to n1'), makeConfig())).toMatch(/is a Paxos verb; switch on the protocol paxos/);
    expect(checkSchedule(parseSchedule('@1 drift n1 10'), paxos)).toMatch(
      /is a Raft verb; a paxos run takes crash, restart, partition, heal, loss, calm, propose\.$/,
    );
    expect(checkSchedule(parseSchedule('@1 submit x=1'), paxos)).toMatch(/single-decree Paxos has not/);
    expect(checkSchedule(parseSchedule('@1 propose v=1 to n9'), paxos)).toMatch(/names node "n9", which is not in the cluster/);
    expect(formatSchedule(parseSchedule('@5 propose v=1 to n2'))).toBe('@5 propose v=1 to n2');
  });
});
