// Property tier: Election Safety (§5.2, Figure 3: at most one leader can be elected in a given
// term) over randomized fault schedules, as the chapter's tests do over twenty of them, and then
// over many more with fast-check. Every run is a pure function of (seed, schedule), so a failure
// prints what reproduces it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, nodeIdsFor, type BugName, type SimConfig } from '../src/sim/model/config';
import { CPythonRandom } from '../src/sim/model/prng';
import { formatSchedule, type Action } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

interface Outcome {
  /** Terms in which two different nodes were leaders, as seen after every millisecond. */
  readonly doubleLeaders: string[];
  readonly leadersByTerm: ReadonlyMap<number, readonly string[]>;
  readonly safe: boolean;
  readonly terms: number;
}

/** Runs a schedule, watching every millisecond for two leaders of one term. */
function run(config: SimConfig, schedule: readonly Action[], untilMs: number): Outcome {
  const sim = new Simulation(config, schedule);
  const leaderOfTerm = new Map<number, string>();
  const doubleLeaders: string[] = [];
  sim.cluster.addObserver((cluster) => {
    for (const node of cluster.nodes) {
      if (node.role !== 'leader') continue;
      const seen = leaderOfTerm.get(node.term);
      if (seen === undefined) leaderOfTerm.set(node.term, node.id);
      else if (seen !== node.id) doubleLeaders.push(`term ${node.term}: ${seen} and ${node.id} at ${cluster.nowMs} ms`);
    }
  });
  sim.advanceTo(untilMs);
  return {
    doubleLeaders,
    leadersByTerm: sim.cluster.leadersByTerm,
    safe: sim.cluster.electionSafetyHolds(),
    terms: Math.max(...sim.cluster.nodes.map((n) => n.term)),
  };
}

/** Random crashes, restarts, partitions and heals, drawn from a seeded stream (like the chapter's tests). */
function randomSchedule(seed: number, nodeIds: readonly string[], untilMs: number): Action[] {
  const rng = new CPythonRandom(seed);
  const actions: Action[] = [];
  for (let at = rng.randint(100, 400); at < untilMs; at += rng.randint(50, 400)) {
    const node = nodeIds[rng.randint(0, nodeIds.length - 1)];
    switch (rng.randint(0, 4)) {
      case 0:
        actions.push({ at, verb: 'crash', node });
        break;
      case 1:
        actions.push({ at, verb: 'restart', node });
        break;
      case 2: {
        const group = nodeIds.filter(() => rng.randint(0, 1) === 1);
        if (group.length > 0 && group.length < nodeIds.length) actions.push({ at, verb: 'partition', groups: [group] });
        break;
      }
      case 3:
        actions.push({ at, verb: 'heal' });
        break;
      default:
        actions.push({ at, verb: 'submit', command: `c${at}`, target: null });
    }
  }
  return actions;
}

const describeRun = (seed: number, schedule: readonly Action[]) => `seed ${seed}, schedule "${formatSchedule(schedule)}"`;

describe("Election Safety over randomized schedules (the chapter's test)", () => {
  const cases = Array.from({ length: 24 }, (_, i) => ({ seed: i, nodes: [3, 5, 7][i % 3] }));
  for (const { seed, nodes } of cases) {
    it(`seed ${seed}, ${nodes} nodes: at most one leader per term`, () => {
      const nodeIds = nodeIdsFor(nodes);
      const schedule = randomSchedule(1000 + seed, nodeIds, 6000);
      const outcome = run({ ...DEFAULT_CONFIG, seed, nodeIds }, schedule, 6000);
      expect(outcome.doubleLeaders, describeRun(seed, schedule)).toEqual([]);
      expect(outcome.safe, describeRun(seed, schedule)).toBe(true);
      for (const [term, ids] of outcome.leadersByTerm) expect(ids, `term ${term}`).toHaveLength(1);
    });
  }

  it('the schedules are eventful: every run sees elections past term 1, most see several', () => {
    const terms = cases.map(({ seed, nodes }) => {
      const nodeIds = nodeIdsFor(nodes);
      return run({ ...DEFAULT_CONFIG, seed, nodeIds }, randomSchedule(1000 + seed, nodeIds, 6000), 6000).terms;
    });
    expect(Math.min(...terms)).toBeGreaterThan(1);
    expect(terms.filter((t) => t >= 3).length).toBeGreaterThan(cases.length / 2);
  });

  it('gives the same verdict and the same leaders every time (a run is a pure function of seed and schedule)', () => {
    const nodeIds = nodeIdsFor(5);
    const schedule = randomSchedule(77, nodeIds, 6000);
    const a = run({ ...DEFAULT_CONFIG, seed: 7, nodeIds }, schedule, 6000);
    const b = run({ ...DEFAULT_CONFIG, seed: 7, nodeIds }, schedule, 6000);
    expect([...b.leadersByTerm]).toEqual([...a.leadersByTerm]);
  });
});

// Arbitrary fault schedules: a seed, a cluster size and a list of (time, fault, node) triples.
const faultArb = (nodes: number, untilMs: number) =>
  fc.record({
    at: fc.integer({ min: 1, max: untilMs - 1 }),
    kind: fc.constantFrom('crash', 'restart', 'partition', 'heal', 'submit'),
    node: fc.integer({ min: 1, max: nodes }),
    group: fc.array(fc.integer({ min: 1, max: nodes }), { maxLength: nodes }),
  });

function toActions(faults: { at: number; kind: string; node: number; group: number[] }[], nodes: number): Action[] {
  const actions: Action[] = [];
  for (const f of [...faults].sort((a, b) => a.at - b.at)) {
    const node = `n${f.node}`;
    if (f.kind === 'crash' || f.kind === 'restart') actions.push({ at: f.at, verb: f.kind, node });
    else if (f.kind === 'heal') actions.push({ at: f.at, verb: 'heal' });
    else if (f.kind === 'submit') actions.push({ at: f.at, verb: 'submit', command: `c${f.at}`, target: null });
    else {
      const group = [...new Set(f.group)].sort((a, b) => a - b).map((i) => `n${i}`);
      if (group.length > 0 && group.length < nodes) actions.push({ at: f.at, verb: 'partition', groups: [group] });
    }
  }
  return actions;
}

const runArb = (bugs: BugName[]) =>
  fc
    .record({ nodes: fc.constantFrom(3, 4, 5, 7), seed: fc.nat({ max: 2 ** 31 - 1 }), untilMs: fc.integer({ min: 1500, max: 4000 }) })
    .chain(({ nodes, seed, untilMs }) =>
      fc.record({
        config: fc.constant<SimConfig>({ ...DEFAULT_CONFIG, seed, nodeIds: nodeIdsFor(nodes), bugs }),
        untilMs: fc.constant(untilMs),
        schedule: fc.array(faultArb(nodes, untilMs), { maxLength: 24 }).map((faults) => toActions(faults, nodes)),
      }),
    );

describe('Election Safety as a property (fast-check)', () => {
  it('holds for 1000 arbitrary runs of 3-7 nodes under crashes, restarts, partitions and heals', () => {
    fc.assert(
      fc.property(runArb([]), ({ config, schedule, untilMs }) => {
        const outcome = run(config, schedule, untilMs);
        return outcome.safe && outcome.doubleLeaders.length === 0;
      }),
      { numRuns: 1000, seed: 20260601 },
    );
  });

  it('the property can fail: with the forget-vote bug (a restart loses the vote) it finds two leaders in a term', () => {
    const result = fc.check(
      fc.property(runArb(['forget-vote']), ({ config, schedule, untilMs }) => run(config, schedule, untilMs).safe),
      { numRuns: 2000, seed: 20260601 },
    );
    expect(result.failed, `after ${result.numRuns} runs`).toBe(true);
    expect(result.counterexample?.[0].config.bugs).toEqual(['forget-vote']);
  });
});
