/**
 * The swarm fuzzer for the Paxos family (Groce et al.'s swarm testing, as swarm.ts does for
 * Raft): each run draws from its own CPython-compatible stream — seeded by (fuzz seed << 32) +
 * run number, the Raft swarm's rule — a cluster, timings, a subset of fault kinds and then, as
 * the run goes, faults chosen against its live state (crash *the leader*, duel *two proposers*).
 * Every fault is recorded through `PaxosSimulation.act`, so the run's schedule text replays it
 * exactly; a violating schedule is shrunk (drop actions while the same invariant still fails).
 * A bug's own fault kinds (features/paxos.ts) are always in and weigh 3.
 */
import { MAX_NODES, nodeIdsFor, type SimConfig } from '../../model/config';
import { PAXOS_BUGS, type PaxosBugName } from '../../model/features';
import type { CPythonRandom, Seed } from '../../model/prng';
import { checkSchedule, type Action, type ActionBody } from '../../model/schedule';
import { PaxosSimulation } from '../../run/paxosSimulation';
import type { Violation } from '../invariants';
import { attachPaxosInvariants } from '../paxosInvariants';
import { runRandom } from './swarm';

/** Fault kinds a Paxos run picks from (drawn once each, in this order). */
export const PAXOS_FAULT_KINDS = ['paxos-duel', 'paxos-crash', 'partition', 'loss', 'propose', 'timeout'] as const;
export type PaxosFaultKind = (typeof PAXOS_FAULT_KINDS)[number];

export const PAXOS_FUZZ_MS: Readonly<Record<'paxos' | 'multi-paxos', number>> = { paxos: 1500, 'multi-paxos': 3000 };

export interface PaxosRunOutcome {
  readonly run: number;
  readonly config: SimConfig;
  readonly kinds: readonly PaxosFaultKind[];
  readonly schedule: readonly Action[];
  readonly violation: Violation | null;
  readonly untilMs: number;
}

export interface PaxosCounterexample extends PaxosRunOutcome {
  readonly violation: Violation;
  /** The schedule as found, before shrinking. */
  readonly original: readonly Action[];
  readonly shrinkRuns: number;
}

const pick = <T>(rng: CPythonRandom, items: readonly T[]): T => items[rng.randbelow(items.length)];

/** One run of the Paxos swarm. */
export function paxosFuzzRun(
  seed: Seed,
  run: number,
  protocol: 'paxos' | 'multi-paxos',
  bugs: readonly PaxosBugName[] = [],
): PaxosRunOutcome {
  const rng = runRandom(seed, run);
  const multi = protocol === 'multi-paxos';
  const nodes = pick(
    rng,
    [3, 3, 5, 5, 5, 7].filter((n) => n <= MAX_NODES),
  );
  const latency = pick(rng, [
    [1, 5],
    [5, 15],
    [5, 15],
    [10, 40],
  ] as const);
  const timeoutLo = pick(rng, [100, 150, 300]);
  const biased = new Set<string>(PAXOS_BUGS.filter((b) => (bugs as readonly string[]).includes(b.name)).flatMap((b) => b.faults));
  const kinds: PaxosFaultKind[] = [];
  for (const kind of PAXOS_FAULT_KINDS) {
    const drawn = rng.random() < 0.6;
    if ((drawn || biased.has(kind)) && (multi || kind !== 'timeout')) kinds.push(kind);
  }
  if (kinds.length === 0) kinds.push('propose');
  const weights = kinds.map((k) => (biased.has(k) ? 3 : 1));
  const backoff = rng.random() < 0.3 ? ([10, 10 + rng.randint(10, 100)] as const) : null;
  const config: SimConfig = {
    seed: rng.randbelow(1 << 30),
    nodeIds: nodeIdsFor(nodes),
    electionTimeoutMs: [timeoutLo, timeoutLo * 2],
    heartbeatMs: Math.floor(timeoutLo / 3),
    latencyMs: latency,
    clientIds: [],
    bugs: [...bugs],
    protocol,
    ...(backoff !== null ? { backoffMs: backoff } : {}),
  };
  const untilMs = PAXOS_FUZZ_MS[protocol];
  const submitGap = multi ? pick(rng, [20, 50, 100]) : 0;
  const sim = new PaxosSimulation(config);
  const checker = attachPaxosInvariants(sim, { maxViolations: 1 });
  const c = sim.cluster;
  const ids = config.nodeIds;
  let value = 0;
  let nextFault = rng.randint(0, 100);
  let nextSubmit = multi ? submitGap : Infinity;
  const later: { at: number; body: ActionBody }[] = [];
  const act = (body: ActionBody) => {
    const done = sim.act(body);
    if (typeof done === 'string') throw new RangeError(done);
  };
  try {
    while (sim.nowMs < untilMs && checker.violations.length === 0) {
      const due = Math.min(nextFault, nextSubmit, ...later.map((l) => l.at));
      sim.advanceTo(Math.min(due, untilMs));
      if (sim.nowMs >= untilMs) break;
      for (let i = 0; i < later.length;) {
        if (later[i].at <= sim.nowMs) act(later.splice(i, 1)[0].body);
        else i++;
      }
      if (sim.nowMs >= nextSubmit) {
        act({ verb: 'submit', command: `x=${value++}`, target: null });
        nextSubmit += submitGap;
      }
      if (sim.nowMs < nextFault) continue;
      nextFault = sim.nowMs + rng.randint(20, multi ? 400 : 150);
      let r = rng.randbelow(weights.reduce((a, b) => a + b, 0));
      let kind = kinds[0];
      for (let i = 0; i < kinds.length; i++) {
        if (r < weights[i]) {
          kind = kinds[i];
          break;
        }
        r -= weights[i];
      }
      const live = c.nodes.filter((n) => n.alive).map((n) => n.id);
      switch (kind) {
        case 'paxos-duel': {
          const a = pick(rng, ids);
          const b = pick(
            rng,
            ids.filter((id) => id !== a),
          );
          act({ verb: 'propose', value: `v=${value++}`, node: a });
          later.push({ at: sim.nowMs + rng.randint(0, latency[1] * 2), body: { verb: 'propose', value: `v=${value++}`, node: b } });
          break;
        }
        case 'paxos-crash': {
          // The leader or a proposer mid-way, else anyone: the moments Paxos's recovery is about.
          const busy = c.nodes.filter((n) => n.alive && n.phase !== 'idle' && n.phase !== 'done').map((n) => n.id);
          const target = busy.length > 0 && rng.random() < 0.7 ? pick(rng, busy) : pick(rng, ids);
          if (!c.node(target).alive) break;
          act({ verb: 'crash', node: target });
          later.push({ at: sim.nowMs + rng.randint(1, multi ? 600 : 200), body: { verb: 'restart', node: target } });
          break;
        }
        case 'partition': {
          if (c.groups.length > 0) {
            act({ verb: 'heal' });
            break;
          }
          const shuffled = [...ids].sort(() => 0).map((id) => [rng.random(), id] as const);
          shuffled.sort((x, y) => x[0] - y[0]);
          const cut = 1 + rng.randbelow(Math.max(1, ids.length - 1));
          act({ verb: 'partition', groups: [shuffled.slice(0, cut).map((s) => s[1])] });
          later.push({ at: sim.nowMs + rng.randint(20, 400), body: { verb: 'heal' } });
          break;
        }
        case 'loss':
          act({ verb: 'loss', pct: c.lossPct > 0 ? 0 : pick(rng, [5, 10, 20]) });
          break;
        case 'propose':
          act({ verb: 'propose', value: `v=${value++}`, node: pick(rng, live.length > 0 ? live : ids) });
          break;
        case 'timeout': {
          const followers = c.nodes.filter((n) => n.alive && n.phase !== 'leading').map((n) => n.id);
          if (followers.length > 0) act({ verb: 'timeout', node: pick(rng, followers) });
          break;
        }
      }
    }
  } catch (error) {
    checker.recordCrash(error);
  }
  const violation = checker.first;
  return { run, config, kinds, schedule: [...sim.schedule.slice(0, sim.appliedCount)], violation, untilMs: violation?.t ?? untilMs };
}

/** Replays a schedule with every Paxos invariant on, until `untilMs` or the first violation. */
export function paxosReplay(config: SimConfig, schedule: readonly Action[], untilMs: number): Violation | null {
  const problem = checkSchedule(schedule, config);
  if (problem) throw new RangeError(problem);
  const sim = new PaxosSimulation(config);
  const checker = attachPaxosInvariants(sim, { maxViolations: 1 });
  try {
    sim.replaceFutureActions(schedule);
    sim.applyDue();
    while (sim.nowMs < untilMs && checker.violations.length === 0) sim.step();
  } catch (error) {
    checker.recordCrash(error);
  }
  return checker.first;
}

/** Drops actions, last first, while the same invariant still fails; at most `budget` replays. */
export function shrinkPaxos(
  config: SimConfig,
  schedule: readonly Action[],
  violation: Violation,
  budget = 400,
): { schedule: Action[]; violation: Violation; runs: number } {
  // What comes after the violation cannot have caused it.
  let best = schedule.filter((a) => a.at <= violation.t);
  let found = violation;
  let runs = 0;
  for (let i = best.length - 1; i >= 0 && runs < budget; i--) {
    const trial = best.filter((_, j) => j !== i);
    if (checkSchedule(trial, config) !== null) continue;
    runs++;
    const v = paxosReplay(config, trial, found.t + 1);
    if (v !== null && v.invariant === found.invariant) {
      best = trial;
      found = v;
    }
  }
  // Shrinking may find the same invariant broken earlier: what follows that time goes too.
  return { schedule: best.filter((a) => a.at <= found.t), violation: found, runs };
}

/** Runs `runs` Paxos swarm runs from `seed`; the first violation, shrunk, or null. */
export function paxosFuzz(
  seed: Seed,
  runs: number,
  protocol: 'paxos' | 'multi-paxos',
  bugs: readonly PaxosBugName[] = [],
  shrink = true,
  onRun?: (run: number) => void,
): { readonly runs: number; readonly counterexample: PaxosCounterexample | null } {
  for (let run = 0; run < runs; run++) {
    onRun?.(run);
    const outcome = paxosFuzzRun(seed, run, protocol, bugs);
    if (outcome.violation === null) continue;
    const shrunk = shrink ? shrinkPaxos(outcome.config, outcome.schedule, outcome.violation) : null;
    return {
      runs: run + 1,
      counterexample: {
        ...outcome,
        violation: shrunk?.violation ?? outcome.violation,
        schedule: shrunk?.schedule ?? outcome.schedule,
        untilMs: (shrunk?.violation ?? outcome.violation).t,
        original: outcome.schedule,
        shrinkRuns: shrunk?.runs ?? 0,
      },
    };
  }
  return { runs, counterexample: null };
}
