/**
 * Replay and shrinking: a failing run's schedule is cut down (drop actions, then shorten) while
 * the same invariant still fails, one replay per yield so a worker can report progress.
 */
import type { SimConfig } from '../../model/config';
import { attachInvariants, type InvariantChecker, type Violation } from '../invariants';
import { checkSchedule, type Action } from '../../model/schedule';
import { Simulation } from '../../run/simulation';

export interface ShrinkProgress {
  readonly phase: 'shrink';
  readonly attempts: number;
  readonly budget: number;
  readonly actions: number;
}

/** Runs a schedule with every invariant on until `untilMs` or the first violation. */
export function replay(config: SimConfig, schedule: readonly Action[], untilMs: number): Violation | null {
  return runChecked(config, schedule, untilMs).first;
}

/**
 * A run with every invariant on, until `untilMs` or the first violation; an exception inside the
 * engine is a violation too (the checker records it), so a crash replays like any other finding.
 */
export function runChecked(config: SimConfig, schedule: readonly Action[], untilMs: number): InvariantChecker {
  const problem = checkSchedule(schedule, config);
  if (problem) throw new RangeError(problem);
  const sim = new Simulation(config);
  const checker = attachInvariants(sim, { maxViolations: 1 });
  try {
    sim.replaceFutureActions(schedule);
    sim.applyDue();
    while (sim.nowMs < untilMs && checker.violations.length === 0) sim.step();
  } catch (error) {
    checker.recordCrash(error);
  }
  // As the fuzzer does at a run's end: a history that cannot be linearized fails here too.
  if (checker.violations.length === 0) checker.checkHistory({ shrinkFindingsToo: false });
  return checker;
}

/**
 * Shrinks a failing schedule, one replay per yield: first drop chunks of actions (halves, then
 * quarters, ... then single actions, as delta debugging does), then shorten what remains
 * (halve pauses, leases and fault durations by moving restarts and heals earlier). A candidate
 * is kept only if the same invariant still fails; the run always ends at the violation.
 */
export function* shrinkSchedule(
  config: SimConfig,
  schedule: readonly Action[],
  violation: Violation,
  maxRuns = 300,
): Generator<ShrinkProgress, { schedule: Action[]; violation: Violation; runs: number }, void> {
  const target: Violation['invariant'] = violation.invariant;
  let best = [...schedule];
  let bestViolation = violation;
  let runs = 0;
  // Without some actions the same failure may come a little later.
  const limitMs = violation.t + 1000;
  const attempt = (candidate: Action[]): boolean => {
    // Without an `add` (membership), a later action may name a server that never joins.
    if (checkSchedule(candidate, config) !== null) return false;
    runs++;
    const v = replay(config, candidate, limitMs);
    if (v === null || v.invariant !== target) return false;
    best = candidate;
    bestViolation = v;
    return true;
  };
  // Actions after the violation never ran.
  best = best.filter((a) => a.at <= bestViolation.t);
  // 1. Drop actions, in chunks that halve until single actions no longer go.
  let chunk = Math.max(1, Math.ceil(best.length / 2));
  while (runs < maxRuns && best.length > 0) {
    let removed = false;
    let i = 0;
    while (i < best.length && runs < maxRuns) {
      const ok = attempt([...best.slice(0, i), ...best.slice(i + chunk)]);
      if (ok) removed = true;
      else i += chunk;
      yield { phase: 'shrink', attempts: runs, budget: maxRuns, actions: best.length };
    }
    if (!removed && chunk === 1) break;
    chunk = removed ? Math.max(1, Math.min(chunk, Math.ceil(best.length / 2))) : Math.max(1, Math.floor(chunk / 2));
  }
  // 2. Shorten: halve numbers that stretch time (pauses, leases), while it still fails.
  for (let i = 0; i < best.length && runs < maxRuns; i++) {
    for (;;) {
      const a = best[i];
      const shorter = shortenAction(a);
      if (shorter === null || runs >= maxRuns) break;
      const candidate = [...best];
      candidate[i] = shorter;
      const ok = attempt(candidate);
      yield { phase: 'shrink', attempts: runs, budget: maxRuns, actions: best.length };
      if (!ok) break;
    }
  }
  return { schedule: best, violation: bestViolation, runs };
}

/** The action with its pause or lease halved, or null when it has nothing left to shorten. */
export function shortenAction(a: Action): Action | null {
  if (a.verb !== 'client') return null;
  const i = a.intent;
  if (i.op === 'pause' && i.ms > 50) return { ...a, intent: { ...i, ms: Math.floor(i.ms / 2) } };
  if (i.op === 'acquire' && i.leaseMs > 50) return { ...a, intent: { ...i, leaseMs: Math.floor(i.leaseMs / 2) } };
  return null;
}
