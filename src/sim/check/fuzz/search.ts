/** The search: swarm runs one after another until one fails, then its schedule shrunk. */
import { featuresOf, runsRaft, type BugName, type LockServiceName, type SimConfig } from '../../model/config';
import type { FeatureName, SometimesId } from '../../model/features';
import type { Violation } from '../invariants';
import type { Seed } from '../../model/prng';
import { formatSchedule, type Action } from '../../model/schedule';
import { shrinkSchedule, type ShrinkProgress } from './shrink';
import type { FaultKind } from './draw';
import { FUZZ_DURATION_MS, fuzzRun, type FeatureChoice, type RunOutcome } from './swarm';

export interface FuzzOptions {
  readonly seed: Seed;
  readonly runs: number;
  readonly bugs?: readonly BugName[];
  /** Protocol features per run: drawn (`swarm`, the default) or a fixed list. */
  readonly features?: FeatureChoice;
  /** Simulated length of each run (default 10 s). */
  readonly durationMs?: number;
  /** Shrink the first counterexample (default true). */
  readonly shrink?: boolean;
  /** At most this many replays while shrinking (default 300). */
  readonly maxShrinkRuns?: number;
  /** Called every 50 simulated ms of every run with the run, the time and the messages in flight (a long run's progress). */
  readonly onRunProgress?: (run: number, nowMs: number, inflight: number) => void;
  /** Issue 26: every run's lock service (absent: the chapter's; a lock service's bug picks its own). */
  readonly lock?: LockServiceName | null;
  /** Issue 28: each run of the chapter's service draws its network model and detector (networkRuns.ts). */
  readonly network?: boolean;
}

export interface Counterexample {
  readonly run: number;
  readonly config: SimConfig;
  readonly kinds: readonly FaultKind[];
  /** The shrunk schedule and its text; run until `untilMs` it shows `violation`. */
  readonly schedule: readonly Action[];
  readonly scheduleText: string;
  readonly untilMs: number;
  readonly violation: Violation;
  /** The run as found, before shrinking. */
  readonly original: RunOutcome;
  readonly shrinkRuns: number;
}

export type FuzzProgress =
  | { readonly phase: 'search'; readonly runsDone: number; readonly runs: number; readonly findings: number; readonly last: RunOutcome }
  | ShrinkProgress;

export interface FuzzResult {
  readonly seed: Seed;
  readonly runsDone: number;
  readonly findings: number;
  /** Runs whose history failed a model where failing is a finding (strict exclusion, unfenced order). */
  readonly historyFindings: number;
  readonly counterexample: Counterexample | null;
  /** How many runs reached each reachability property (check/sometimes.ts). */
  readonly reached: ReadonlyMap<SometimesId, number>;
  /** How many runs had each protocol feature on (a property of a feature no run had was out of reach). */
  readonly featureRuns: ReadonlyMap<FeatureName, number>;
  /** The most messages any run sent in one simulated second (the run's bound is far above it). */
  readonly busiestSecond: number;
  /** Runs in which two clients believed they held one lock at once (findings; issue 26). */
  readonly overlapRuns: number;
  /** Runs whose servers ran Raft (every situation the reachability report names is Raft's). */
  readonly raftRuns: number;
}

/**
 * The whole search as a generator: yields progress after every run and every shrink replay,
 * returns the result. Drive it with `runFuzz`, or step it from a worker between messages.
 */
export function* fuzz(options: FuzzOptions): Generator<FuzzProgress, FuzzResult, void> {
  const bugs = options.bugs ?? [];
  const duration = options.durationMs ?? FUZZ_DURATION_MS;
  let findings = 0;
  let historyFindings = 0;
  const reached = new Map<SometimesId, number>();
  const featureRuns = new Map<FeatureName, number>();
  let busiestSecond = 0;
  let overlapRuns = 0;
  let raftRuns = 0;
  const tally = () => ({ reached, featureRuns, busiestSecond, overlapRuns, raftRuns });
  const onRunProgress = options.onRunProgress;
  for (let run = 0; run < options.runs; run++) {
    const outcome = fuzzRun(options.seed, run, bugs, duration, options.features ?? 'swarm', [], {
      ...(onRunProgress !== undefined ? { onProgress: (nowMs: number, inflight: number) => onRunProgress(run, nowMs, inflight) } : {}),
      lock: options.lock ?? null,
      network: options.network === true,
    });
    findings += outcome.findings;
    if (outcome.historyFindings > 0) historyFindings++;
    for (const id of outcome.reached) reached.set(id, (reached.get(id) ?? 0) + 1);
    for (const f of featuresOf(outcome.config)) featureRuns.set(f, (featureRuns.get(f) ?? 0) + 1);
    if (outcome.busiestSecond > busiestSecond) busiestSecond = outcome.busiestSecond;
    if (outcome.overlaps > 0) overlapRuns++;
    if (runsRaft(outcome.config)) raftRuns++;
    yield { phase: 'search', runsDone: run + 1, runs: options.runs, findings, last: outcome };
    const violation = outcome.violation;
    if (violation === null) continue;
    let schedule: readonly Action[] = outcome.schedule;
    let shrunk = violation;
    let shrinkRuns = 0;
    if (options.shrink ?? true) {
      const result = yield* shrinkSchedule(outcome.config, outcome.schedule, violation, options.maxShrinkRuns ?? 300);
      schedule = result.schedule;
      shrunk = result.violation;
      shrinkRuns = result.runs;
    }
    const counterexample: Counterexample = {
      run,
      config: outcome.config,
      kinds: outcome.kinds,
      schedule,
      scheduleText: formatSchedule(schedule),
      untilMs: shrunk.t,
      violation: shrunk,
      original: outcome,
      shrinkRuns,
    };
    return { seed: options.seed, runsDone: run + 1, findings, historyFindings, counterexample, ...tally() };
  }
  return { seed: options.seed, runsDone: options.runs, findings, historyFindings, counterexample: null, ...tally() };
}

/** Runs the generator to the end, reporting each step. */
export function runFuzz(options: FuzzOptions, onProgress?: (p: FuzzProgress) => void): FuzzResult {
  const gen = fuzz(options);
  for (;;) {
    const step = gen.next();
    if (step.done) return step.value;
    onProgress?.(step.value);
  }
}
