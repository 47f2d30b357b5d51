// Membership changes (feature membership), named by the dissertation's sections (Ongaro 2014):
// §4.1 single-server changes, §4.2.1 learners, §4.2.2 a removed leader, plus the schedule verbs'
// sentences and the fuzzer (the bug config-changes-at-once is the negative control).
import { describe, expect, it } from 'vitest';
import { makeConfig, type BugName, type SimConfig } from '../src/sim/model/config';
import type { DetailEvent } from '../src/sim/model/events';
import { fuzzRun } from '../src/sim/check/fuzz/swarm';
import { attachInvariants } from '../src/sim/check/invariants';
import { isConfigCommand } from '../src/sim/raft/membership';
import { parseSchedule, ScheduleError } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

// Seed 42 with three nodes: n2 wins term 1 at 170 ms (the chapter's first election).
const three = (bugs: BugName[] = [], features: SimConfig['features'] = ['membership']): SimConfig =>
  makeConfig({ nodeIds: ['n1', 'n2', 'n3'], bugs, features });

function run(config: SimConfig, schedule: string, untilMs: number): Simulation {
  const sim = new Simulation(config, parseSchedule(schedule), { recordDetails: true });
  sim.advanceTo(untilMs);
  return sim;
}

const details = (sim: Simulation, kind: DetailEvent['kind']) => sim.cluster.details.filter((d) => d.kind === kind);
const lines = (sim: Simulation, kind: string) => sim.cluster.events.filter((e) => e.kind === kind).map((e) => e.text);

describe('§4.1 single-server changes', () => {
  it('a configuration entry takes effect on a server as soon as it is appended, before it commits', () => {
    // n2 leads; cut off alone, its removal of n3 cannot commit, yet n2 already uses {n1, n2}.
    const sim = run(three(), '@400 submit a=1; @600 partition n2; @610 remove n3', 700);
    const n2 = sim.cluster.node('n2');
    const m = n2.membership;
    expect(m?.voters).toEqual(['n1', 'n2']);
    expect(m?.configIndex).toBe(2);
    expect(n2.commitIndex).toBeLessThan(2);
    expect(n2.majority).toBe(2);
    // n1 and n3 never got it: their configuration is still the initial one.
    expect(sim.cluster.node('n1').membership?.voters).toEqual(['n1', 'n2', 'n3']);
  });

  it('a leader refuses a second change until the first commits (one at a time)', () => {
    const sim = run(three(), '@400 submit a=1; @600 add n4; @600 add n5', 1200);
    expect(lines(sim, 'member-change')).toEqual(['add n4: n2 catches n4 up as a learner before it joins (§4.2.1)']);
    expect(lines(sim, 'member-change-refused')).toEqual([
      'add n5 refused: n2 is still catching up n4 as a learner (one change at a time, §4.1)',
    ]);
    expect(sim.cluster.node('n2').membership?.voters).toEqual(['n1', 'n2', 'n3', 'n4']);
  });

  it('negative control: with config-changes-at-once the second change goes ahead, and two entries are uncommitted at once', () => {
    const sim = new Simulation(
      three(['config-changes-at-once']),
      parseSchedule('@400 submit a=1; @600 partition n1,n3; @600 add n4; @600 add n5'),
    );
    const checker = attachInvariants(sim);
    sim.advanceTo(900);
    expect(lines(sim, 'member-change')).toHaveLength(2);
    const log = sim.cluster.node('n2').log;
    expect(log.filter((e) => isConfigCommand(e.command))).toHaveLength(2);
    expect(checker.violations.map((v) => v.invariant)).toContain('one-config-change');
  });

  it('a new leader first commits an entry of its own term before it changes the configuration', () => {
    // No entry of term 1 is committed at 600 ms (nothing was submitted).
    const sim = run(three(), '@600 add n4', 700);
    expect(lines(sim, 'member-change-refused')).toEqual([
      'add n4 refused: n2 has not yet committed an entry of its term 1 (a new leader commits one before a change; leader-noop does it at once)',
    ]);
    const noop = run(three([], ['leader-noop', 'membership']), '@600 add n4', 700);
    expect(lines(noop, 'member-change-refused')).toEqual([]);
  });

  it('elections and commits count only the voters of the configuration in force', () => {
    // Grown to five, n2 commits with n4 and n5 while n1 and n3 are down: 3 of 5.
    const sim = run(three(), '@400 submit a=1; @600 add n4; @1000 add n5; @1500 crash n1; @1500 crash n3; @1600 submit b=2', 2000);
    const n2 = sim.cluster.node('n2');
    expect(n2.membership?.voters).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(n2.log.map((e) => (typeof e.command === 'string' ? e.command : e.command.type))).toEqual(['a=1', 'config', 'config', 'b=2']);
    expect(n2.commitIndex).toBe(4);
    const commit = details(sim, 'commit-advanced')
      .filter((d) => d.kind === 'commit-advanced' && d.values.node === 'n2')
      .at(-1);
    expect(commit?.values).toMatchObject({ to: 4, replicas: 3, majority: 3 });
    // Back at three voters of five (remove two), n2 with one other is a majority again.
  });
});

describe('§4.2.1 a new server catches up as a non-voting learner', () => {
  it('the leader replicates to the learner, and adds it to the configuration once it holds the last entry', () => {
    const sim = new Simulation(three(), parseSchedule('@400 submit a=1; @410 submit b=2; @600 add n4'), { recordDetails: true });
    sim.advanceTo(600);
    const n2 = sim.cluster.node('n2');
    expect(n2.membership?.learners).toEqual(['n4']);
    expect(n2.membership?.voters).toEqual(['n1', 'n2', 'n3']);
    expect(n2.majority).toBe(2);
    sim.advanceTo(800);
    const promoted = details(sim, 'learner-promoted')[0];
    expect(promoted?.values).toMatchObject({ node: 'n2', learner: 'n4', matchIndex: 2, lastLogIndex: 2 });
    expect(n2.membership?.learners).toEqual([]);
    expect(n2.membership?.voters).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(sim.cluster.node('n4').log).toEqual(n2.log);
  });

  it('a server added does not campaign while it is outside its configuration', () => {
    // n4 is cut off at once: empty, it knows only the initial {n1, n2, n3}, so its timer fires in vain.
    const sim = run(three(), '@400 submit a=1; @600 add n4; @600 partition n4', 3000);
    expect(sim.cluster.events.filter((e) => e.kind === 'election' && e.subjects.includes('n4'))).toEqual([]);
    expect(details(sim, 'not-campaigning').filter((d) => d.subjects.includes('n4')).length).toBeGreaterThan(5);
    expect(sim.cluster.node('n4').term).toBe(0);
    expect(sim.cluster.nodes.map((n) => n.id)).toEqual(['n1', 'n2', 'n3', 'n4']);
  });
});

describe('§4.2.2 removing servers', () => {
  it('a removed leader steps down once its removal commits, and does not campaign after', () => {
    const sim = run(three(), '@400 submit a=1; @600 remove n2', 3000);
    const stepped = details(sim, 'removed-leader-steps-down');
    expect(stepped).toHaveLength(1);
    expect(stepped[0].values).toMatchObject({ node: 'n2', voters: ['n1', 'n3'] });
    const n2 = sim.cluster.node('n2');
    expect(n2.role).toBe('follower');
    const after = stepped[0].t;
    expect(sim.cluster.events.filter((e) => e.kind === 'election' && e.subjects.includes('n2') && e.t > after)).toEqual([]);
    expect(details(sim, 'not-campaigning').length).toBeGreaterThan(0);
    const leader = sim.cluster.leader();
    expect(leader === null ? null : ['n1', 'n3'].includes(leader.id)).toBe(true);
  });
});

describe('§4.2.2 and §3.10: a removed server never leads, transfer or not (issue 24)', () => {
  // The audit's run: n1 hands over to n2 and, in the same millisecond, is asked to remove n2.
  const handOver = makeConfig({
    seed: 3973785159,
    nodeIds: ['n1', 'n2'],
    electionTimeoutMs: [126, 363],
    heartbeatMs: 34,
    latencyMs: [2, 25],
    features: ['pre-vote', 'check-quorum', 'leader-noop', 'snapshots', 'reads', 'fast-backup', 'transfer', 'membership'],
    snapshotEvery: 5,
  });

  it('a leader handing over refuses a change until the transfer ends (it takes no requests, §3.10)', () => {
    const sim = new Simulation(handOver, parseSchedule('@1900 transfer n2; @1900 remove n2'), { recordDetails: true });
    const checker = attachInvariants(sim);
    sim.advanceTo(4000);
    // Accepted, the removal committed at once on n1 alone, and n2's TimeoutNow made it lead {n1}.
    expect(lines(sim, 'member-change-refused')).toEqual([
      'remove n2 refused: n1 is handing leadership to n2 (a change waits until the transfer ends, §3.10)',
    ]);
    const n2 = sim.cluster.node('n2');
    expect(n2.role).toBe('leader');
    expect(n2.membership?.voters).toEqual(['n1', 'n2']);
    expect(checker.violations).toEqual([]);
  });

  /** n2 leads {n1, n2, n3} and removes n3, which hears that the removal committed. */
  function n3Removed(features: SimConfig['features'] = ['membership', 'transfer']) {
    const sim = new Simulation(three([], features), parseSchedule('@400 submit a=1; @600 remove n3'), { recordDetails: true });
    const checker = attachInvariants(sim);
    sim.advanceTo(1000);
    const n3 = sim.cluster.node('n3');
    expect(n3.membership?.voters).toEqual(['n1', 'n2']);
    expect(n3.commitIndex).toBeGreaterThanOrEqual(n3.membership?.configIndex ?? Infinity);
    return { sim, checker, n3 };
  }

  it('a server outside its configuration ignores TimeoutNow: it does not campaign', () => {
    const { sim, checker, n3 } = n3Removed();
    const term = n3.term;
    n3.onMessage('n2', { type: 'TimeoutNow', term, leader: 'n2' });
    expect(n3.role).toBe('follower');
    expect(n3.term).toBe(term);
    expect(details(sim, 'timeout-now-ignored').map((d) => d.values)).toEqual([{ node: 'n3', leader: 'n2', term, voters: ['n1', 'n2'] }]);
    sim.advanceTo(3000);
    expect(sim.cluster.leader()?.id).toBe('n2');
    expect(checker.violations).toEqual([]);
  });

  it('the invariant removed-not-leading catches a server that leads a committed configuration it is not in', () => {
    const { sim, checker, n3 } = n3Removed();
    // What TimeoutNow did before: a campaign marked as a transfer, past the removed-server check.
    n3.becomeCandidate(true);
    sim.advanceTo(1200);
    expect(n3.role).toBe('leader');
    expect(checker.violations.map((v) => `${v.invariant} ${v.nodes.join(',')}`)).toEqual(['removed-not-leading n3']);
    expect(checker.violations[0].sentence).toMatch(/^n3 leads term 2 though its configuration \{n1, n2\} \(index 2, committed/);
  });
});

describe('the add and remove verbs', () => {
  it('need the feature: one sentence naming it and how to switch it on', () => {
    expect(() => new Simulation(three([], []), parseSchedule('@100 add n6'))).toThrow(
      'Action 1 ("@100 add n6") changes the membership, which needs the feature membership; switch it on with --features membership (features=membership in a link, or Settings ▸ Protocol).',
    );
  });

  it('name a server n1 to n9', () => {
    expect(() => parseSchedule('@100 add x7')).toThrow(ScheduleError);
    expect(() => parseSchedule('@100 add n10')).toThrow('a server added is one of n1 to n9.');
    expect(() => parseSchedule('@100 remove')).toThrow('is not of the form "@<ms> remove <node>"');
  });

  it('stop at 9 servers, and a later action may name a server added before it', () => {
    const nine = makeConfig({ nodeIds: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9'], features: ['membership'] });
    const eight = makeConfig({ nodeIds: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'], features: ['membership'] });
    expect(() => new Simulation({ ...eight, nodeIds: ['a', ...eight.nodeIds] }, parseSchedule('@100 add n9'))).toThrow(
      'would make 10 servers; a run has at most 9.',
    );
    expect(() => new Simulation(eight, parseSchedule('@100 add n9; @200 crash n9'))).not.toThrow();
    const sim = run(nine, '@1000 add n9', 1100);
    expect(lines(sim, 'member-change-refused')[0]).toMatch(/^add n9 refused: /);
  });

  it('refuse an id that is a server, an unknown one, no leader, and the last server', () => {
    const sim = run(three(), '@100 add n6; @400 submit a=1; @600 add n3; @600 remove n7', 700);
    expect(lines(sim, 'member-change-refused')).toEqual([
      'add n6 refused: no leader',
      'add n3 refused: n3 is already a server of the configuration {n1, n2, n3}',
      'remove n7 refused: n7 is not a server of the configuration {n1, n2, n3}',
    ]);
    const one = run(makeConfig({ nodeIds: ['n1'], features: ['membership'] }), '@1000 submit a=1; @1100 remove n1', 1200);
    expect(lines(one, 'member-change-refused')).toEqual(['remove n1 refused: the configuration {n1} must keep at least 1 server']);
  });

  it('refuse, with one sentence and no crash, an action naming a server whose add was refused', () => {
    // No entry of term 1 is committed at 600 ms, so the add is refused and n4 never joins.
    const sim = run(three(), '@600 add n4; @700 crash n4; @800 submit z=1 to n4', 900);
    expect(lines(sim, 'member-change-refused').slice(1)).toEqual([
      'crash n4 refused: n4 has not joined this run (its add was refused or has not happened)',
      'submit z=1 to n4 refused: n4 has not joined this run (its add was refused or has not happened)',
    ]);
  });

  it('leave a run without the feature exactly as it was (no membership state on any node)', () => {
    const sim = run(three([], []), '@400 submit a=1', 600);
    expect(sim.cluster.nodes.every((n) => n.membership === null)).toBe(true);
  });
});

describe('the swarm fuzzer with membership changes', () => {
  it('holds every invariant over runs with the feature', () => {
    for (let r = 0; r < 25; r++) {
      const o = fuzzRun(7, r, [], 10_000, ['membership']);
      expect(o.violation?.line ?? null).toBeNull();
    }
  });

  it('finds config-changes-at-once within 200 runs: first the second uncommitted change, and past it two leaders in one term, with a replay', () => {
    let changes = -1;
    for (let r = 0; r < 200 && changes < 0; r++)
      if (fuzzRun(1, r, ['config-changes-at-once'], 10_000, ['membership']).violation?.invariant === 'one-config-change') changes = r;
    expect(changes).toBeGreaterThanOrEqual(0);
    let found: ReturnType<typeof fuzzRun> | null = null;
    for (let r = 0; r < 200 && found === null; r++) {
      const o = fuzzRun(1, r, ['config-changes-at-once'], 10_000, ['membership'], ['one-config-change']);
      if (o.violation?.invariant === 'election-safety') found = o;
    }
    expect(found).not.toBeNull();
    const o = found as ReturnType<typeof fuzzRun>;
    const replayed = new Simulation(o.config, o.schedule);
    replayed.advanceTo(o.untilMs);
    expect(replayed.cluster.electionSafetyHolds()).toBe(false);
    // The same schedule without the bug: the second change is refused and no term has two leaders.
    const fixed = new Simulation({ ...o.config, bugs: [] }, o.schedule);
    fixed.advanceTo(o.untilMs);
    expect(fixed.cluster.electionSafetyHolds()).toBe(true);
  }, 120_000);
});

describe('Why, for membership changes', () => {
  it('explains a configuration entry, a learner and a removed leader, citing §4.1, §4.2.1 and §4.2.2', async () => {
    const { takeRunView } = await import('../src/sim/view/runView');
    const { explain, DISSERTATION } = await import('../src/sim/teach/why');
    // A learner: n4 cut off right after it is added, so it stays one.
    const learning = run(three(), '@400 submit a=1; @600 add n4; @600 partition n4', 900);
    const learner = explain({ kind: 'node', id: 'n4' }, takeRunView(learning), learning.cluster.events);
    expect(learner.answer.join(' ')).toContain('n4 is a learner: n2 sends it every entry, but it counts in no majority');
    expect(learner.rule).toContain(DISSERTATION.learner);
    // A configuration entry, uncommitted on the leader cut off alone.
    const alone = run(three(), '@400 submit a=1; @600 partition n2; @610 remove n3', 700);
    const entry = explain({ kind: 'entry', node: 'n2', index: 2 }, takeRunView(alone), alone.cluster.events);
    expect(entry.answer.join(' ')).toContain('This is a configuration entry: n2 uses it from the moment it appended it, committed or not');
    expect(entry.facts).toContainEqual(['majority', '2 of 2']);
    expect(entry.rule).toContain(DISSERTATION.membership);
    // A removed leader, after it stepped down.
    const removed = run(three(), '@400 submit a=1; @600 remove n2', 3000);
    const gone = explain({ kind: 'node', id: 'n2' }, takeRunView(removed), removed.cluster.events);
    expect(gone.answer.join(' ')).toContain('n2 was removed: the configuration in force, {n1, n3}, does not include it');
    expect(gone.rule).toContain(DISSERTATION.removedLeader);
    // Without the feature no node view carries membership.
    const plain = run(three([], []), '@400 submit a=1', 600);
    expect(takeRunView(plain).nodes.every((n) => n.membership === undefined)).toBe(true);
  });
});
