/**
 * One swarm run: draw its options (cluster, timings, the subset of fault kinds) as plain data,
 * then run the simulation, applying a random fault of those kinds every so often and resuming
 * the stories they started, with every invariant checked after every step.
 */
import { BUG_FEATURE, nodeIdsFor, type BugName, type LockServiceName, type SimConfig } from '../../model/config';
import { BUG_FAULT_KINDS, FEATURE_NAMES, SOMETIMES_IDS, type FeatureName, type SometimesId } from '../../model/features';
import { Reachability } from '../sometimes';
import { attachInvariants, type InvariantId, type Violation } from '../invariants';
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import type { Action } from '../../model/schedule';
import { VERDICT_NAMES, verdictStake } from '../linearizability/check';
import { Simulation } from '../../run/simulation';
import { overlapsOf } from '../../service/holds';
import { RunContext } from './context';
import { StoryDriver } from './driver';
import { FAULTS } from './faults';
import { SwarmReads } from './reads';
import { MEMBERSHIP_GAP_MS, membershipChange, membershipRandom } from './membershipFaults';
import { SwarmNames } from './names';
import { TargetedStories } from './targeted';
import { ClockJumps, fitDrawToLock, lockForRun, lockRandom } from './lockRuns';
import { NetworkDraws, networkRandom } from './networkRuns';
import { FAULT_KINDS, type FaultKind, type SwarmDraw, type SwarmKind, type TargetedKind } from './draw';

export const FUZZ_DURATION_MS = 10_000;

const CLIENT_KINDS: ReadonlySet<FaultKind> = new Set([
  'client-pause',
  'client-crash',
  'locks',
  'lease-steal',
  'drift-failover',
  'stale-leader',
  'index-reuse',
  'stale-reply',
]);

/**
 * The faults each bug needs to show itself, as its manifest names them (src/sim/model/features/): fault
 * kinds and targeted stories; the swarm includes them more often when it is on. The type checks
 * every name is a kind of one or the other.
 */
export const BUG_FAULTS: Readonly<Record<BugName, readonly SwarmKind[]>> = BUG_FAULT_KINDS;

/**
 * Which protocol features a run has: `swarm` draws each on or off (a feature whose bug is on is
 * always on), or a fixed list for every run (`[]`: the chapter's Raft only).
 */
export type FeatureChoice = 'swarm' | readonly FeatureName[];

/**
 * The run's features, drawn from a stream of their own — CPython's
 * `random.Random(2**128 + (seed << 32) + run)`, one `random() < 0.5` per feature in FEATURE_NAMES
 * order — so that the run's own stream, and with it every fault it draws, is what it was before
 * features existed.
 */
export function drawFeatures(seed: Seed, run: number, bugs: readonly BugName[], choice: FeatureChoice = 'swarm'): FeatureName[] {
  const forced = new Set(bugs.map((b) => BUG_FEATURE[b]).filter((f): f is FeatureName => f !== undefined));
  if (choice !== 'swarm') return FEATURE_NAMES.filter((f) => choice.includes(f) || forced.has(f));
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  const rng = new CPythonRandom((1n << 128n) + (base << 32n) + BigInt(run));
  return FEATURE_NAMES.filter((f) => rng.random() < 0.5 || forced.has(f));
}

export interface RunOutcome {
  readonly run: number;
  readonly config: SimConfig;
  readonly kinds: readonly FaultKind[];
  /** The targeted stories the run drew (targeted.ts), in their list's order. */
  readonly stories: readonly TargetedKind[];
  /** The actions applied, in order: with `config`, run until `untilMs`, they replay the run. */
  readonly schedule: readonly Action[];
  readonly untilMs: number;
  readonly violation: Violation | null;
  /** Unfenced-store writes accepted after the writer's lease ended (findings, not failures). */
  readonly findings: number;
  /** Models whose failure is a finding (strict mutual exclusion, order at the unfenced store) that failed. */
  readonly historyFindings: number;
  /** How the liveness check after calm ended: held, skipped (and why), or a violation. */
  readonly liveness: string;
  /** The most messages sent in one simulated second of the run (the run's bound is far above it). */
  readonly busiestSecond: number;
  /** The reachability properties (check/sometimes.ts) the run reached, in their list's order. */
  readonly reached: readonly SometimesId[];
  /**
   * Issue 26: intervals in which two clients each believed they held one lock (service/holds.ts).
   * Findings for a service that promises nothing under pauses and clocks; where the service
   * promises exclusion within the clients' leases, `lock-exclusive` is the violation.
   */
  readonly overlaps: number;
}

/** What else a caller asks of one run. */
export interface FuzzRunOptions {
  /**
   * Called every 50 simulated ms with the time and the messages in flight, so a caller with a
   * clock can show a long run's progress (the core has none).
   */
  readonly onProgress?: (nowMs: number, inflight: number) => void;
  /** Track the reachability properties (default true); off, `reached` is empty and the run a little faster. */
  readonly sometimes?: boolean;
  /**
   * Issue 24's draws, each from its stream (default true): shared names (a lock key that is a map
   * key, clients in partitions; names.ts) and targeted stories (targeted.ts). With both off a run
   * is what it was before them, draw for draw (test/features-off.test.ts holds it to that).
   */
  readonly sharedNames?: boolean;
  readonly targeted?: boolean;
  /**
   * Issue 26: the lock service every run uses (null or absent: the chapter's, the run as it was;
   * a lock service's bug picks its own). Its switches and clock jumps come from a stream of their
   * own (lockRuns.ts).
   */
  readonly lock?: LockServiceName | null;
  /**
   * Issue 28: draw the run's network model, failure detector, persist delay and slow phases from
   * a stream of their own (networkRuns.ts); only for the chapter's lock service. Off (the
   * default), a run is what it was before them.
   */
  readonly network?: boolean;
}

/** How often a run reports its progress, in simulated ms. */
const PROGRESS_EVERY_MS = 50;

/** The run's own PRNG: CPython's `random.Random((seed << 32) + run)`. */
export function runRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((base << 32n) + BigInt(run));
}

/** Draws one run's options; the draws come first in the run's PRNG stream, in this order. */
export function drawSwarm(rng: CPythonRandom, bugs: readonly BugName[], features: readonly FeatureName[] = []): SwarmDraw {
  const biased = new Set<SwarmKind>(bugs.flatMap((b) => BUG_FAULTS[b]));
  // Swarm: each kind is in or out for the whole run; a bug's own kinds are in far more often.
  let kinds = FAULT_KINDS.filter((k) => rng.random() < (biased.size === 0 ? 0.45 : biased.has(k) ? 0.9 : 0.25));
  if (kinds.length === 0) kinds = [FAULT_KINDS[rng.randbelow(FAULT_KINDS.length)]];
  // Every size the lab allows, even ones included: majorities of even clusters are easy to get wrong.
  const size = rng.randint(1, 9);
  const tMin = rng.randint(100, 300);
  // Narrow timeout ranges make split votes (and so competing candidates) common.
  const tMax = tMin + (rng.random() < 0.35 ? rng.randint(3, 25) : rng.randint(50, 300));
  const heartbeatMs = rng.randint(10, Math.floor(tMin / 3));
  const lMin = rng.randint(1, 6);
  const lMax = lMin + rng.randint(0, 30);
  const clientCount = kinds.some((k) => CLIENT_KINDS.has(k)) ? rng.randint(2, 4) : 0;
  const keys = ['k1', 'k2'].slice(0, rng.randint(1, 2));
  let config: SimConfig = {
    seed: rng.getrandbits(32),
    nodeIds: nodeIdsFor(size),
    electionTimeoutMs: [tMin, tMax],
    heartbeatMs,
    latencyMs: [lMin, lMax],
    clientIds: ['A', 'B', 'C', 'D'].slice(0, clientCount),
    bugs: [...bugs],
    // Left out when none is on: such a run's configuration is the one it was before features.
    ...(features.length > 0 ? { features: [...features] } : {}),
  };
  // Snapshots: a small threshold (2..12 entries) so runs compact often; it comes from the seed
  // already drawn, not from a draw of its own, so nothing after it shifts.
  if (features.includes('snapshots')) config = { ...config, snapshotEvery: 2 + Number(BigInt(config.seed) % 11n) };
  const meanGap = rng.randint(150, 900);
  return {
    config,
    kinds,
    weights: kinds.map((k) => (biased.has(k) ? 3 : 1)),
    gapMs: [Math.floor(meanGap / 3), meanGap * 2],
    firstFaultAtMs: rng.randint(200, 600),
    keys,
  };
}

/**
 * Leadership transfers (§3.10) in runs with the feature: when and to whom, drawn from a stream of
 * their own — CPython's `random.Random(2**129 + (seed << 32) + run)`: the first at
 * `randint(300, 2000)` ms, each next `randint(300, 2000)` ms later, each to `nodeIds[randbelow(n)]`
 * — so the run's own stream, and every fault it draws, is what it would be without them.
 */
class TransferDraws {
  private readonly rng: CPythonRandom;
  nextAtMs: number;

  constructor(seed: Seed, run: number) {
    const base = parseSeed(seed) as bigint;
    this.rng = new CPythonRandom((1n << 129n) + (base << 32n) + BigInt(run));
    this.nextAtMs = this.rng.randint(300, 2000);
  }

  /** The node to hand leadership to now; moves `nextAtMs` on. */
  take(nodeIds: readonly string[], nowMs: number): string {
    const id = nodeIds[this.rng.randbelow(nodeIds.length)];
    this.nextAtMs = nowMs + this.rng.randint(300, 2000);
    return id;
  }
}

function pickKind(rng: CPythonRandom, draw: SwarmDraw): FaultKind {
  let total = 0;
  for (const w of draw.weights) total += w;
  let r = rng.randbelow(total);
  let i = 0;
  while (r >= draw.weights[i]) r -= draw.weights[i++];
  return draw.kinds[i];
}

/** Runs fuzz run number `run` (0-based) of the fuzz seed: pure, deterministic, about one chunk of work. */
export function fuzzRun(
  seed: Seed,
  run: number,
  bugs: readonly BugName[] = [],
  durationMs = FUZZ_DURATION_MS,
  features: FeatureChoice = 'swarm',
  /** Invariants not to report (a test that wants the damage an earlier violation leads to). */
  skip: readonly InvariantId[] = [],
  options: FuzzRunOptions = {},
): RunOutcome {
  const rng = runRandom(seed, run);
  let draw = drawSwarm(rng, bugs, drawFeatures(seed, run, bugs, features));
  const lock = lockForRun(bugs, options.lock ?? null);
  const lockRng = lock !== null ? lockRandom(seed, run) : null;
  if (lock !== null) draw = fitDrawToLock(draw, lock, lockRng as CPythonRandom, new Set(bugs.flatMap((b) => BUG_FAULTS[b])));
  const jumps = lock !== null ? new ClockJumps(lockRng as CPythonRandom, draw.config.nodeIds) : null;
  const network =
    options.network === true && (lock === null || lock === 'raft') ? new NetworkDraws(networkRandom(seed, run), draw.config) : null;
  if (network !== null) draw = { ...draw, config: network.config };
  // Shared names (a lock key that is a map key, clients in partitions) from a stream of their own.
  const names = options.sharedNames !== false ? new SwarmNames(seed, run, draw.keys) : null;
  // Reads: put/get from a stream of their own, only with the feature and clients (§6.4), and not
  // on one node: there a follower's redirect names itself, and with duplicates on the client's
  // resends multiply without bound (the client's redirect rule, not the reads).
  const readsOn = draw.config.features?.includes('reads') === true && draw.config.clientIds.length > 0 && draw.config.nodeIds.length > 1;
  const reads = readsOn
    ? new SwarmReads(seed, run, draw.config.clientIds, bugs, (keys) => (names !== null ? names.mapKeys(keys, draw.keys) : keys))
    : null;
  if (reads !== null && reads.mode !== 'log') draw = { ...draw, config: { ...draw.config, readMode: reads.mode } };
  const sim = new Simulation(draw.config);
  const checker = attachInvariants(sim, { maxViolations: 1, skip });
  const reach = options.sometimes !== false ? new Reachability(sim.cluster, sim.lockService).attach() : null;
  const stories = new StoryDriver(() => sim.nowMs);
  const ctx = new RunContext(rng, draw, sim, stories, durationMs, names);
  let nextFaultAt = draw.firstFaultAtMs;
  // Targeted stories (targeted.ts) from a stream of their own, each only where the run can use it.
  const targeted =
    options.targeted !== false && lock === null
      ? new TargetedStories(
          seed,
          run,
          draw.config.features ?? [],
          draw.config.nodeIds.length,
          draw.config.clientIds.length,
          bugs,
          (b) => BUG_FAULTS[b],
        )
      : null;
  const aimed = targeted !== null && targeted.kinds.length > 0 ? new RunContext(targeted.rng, draw, sim, stories, durationMs) : null;
  const onProgress = options.onProgress;
  let nextProgressAt = onProgress !== undefined ? PROGRESS_EVERY_MS : Infinity;
  const transfers = draw.config.features?.includes('transfer') === true ? new TransferDraws(seed, run) : null;
  // Membership changes come from a stream of their own, and only with the feature (membershipFaults.ts).
  const members = sim.cluster.features.membership ? new RunContext(membershipRandom(seed, run), draw, sim, stories, durationMs) : null;
  let nextMemberAt = members !== null ? members.randint(MEMBERSHIP_GAP_MS[0], MEMBERSHIP_GAP_MS[1]) : Infinity;
  const raceWeight = bugs.includes('config-changes-at-once') ? 0.6 : 0.2;
  try {
    // Each instant: step to it, resume the stories due, then (if due) start one random fault.
    outer: while (sim.nowMs < durationMs) {
      const target = Math.min(
        durationMs,
        stories.nextAtMs,
        nextFaultAt,
        reads !== null ? reads.nextAtMs : Infinity,
        transfers !== null ? transfers.nextAtMs : Infinity,
        nextMemberAt,
        aimed !== null ? (targeted as TargetedStories).nextAtMs : Infinity,
        jumps !== null ? jumps.nextAtMs : Infinity,
        network !== null ? network.nextAtMs : Infinity,
      );
      while (sim.nowMs < target) {
        sim.step();
        if (checker.violations.length > 0) break outer;
        if (sim.nowMs >= nextProgressAt) {
          nextProgressAt += PROGRESS_EVERY_MS;
          (onProgress as (nowMs: number, inflight: number) => void)(sim.nowMs, sim.cluster.inflight.size);
        }
      }
      while (stories.nextAtMs <= sim.nowMs) {
        stories.resumeNext();
        if (checker.violations.length > 0) break outer;
      }
      if (reads !== null && reads.nextAtMs <= sim.nowMs) {
        sim.act(reads.next(sim.nowMs));
        if (checker.violations.length > 0) break outer;
      }
      if (nextFaultAt <= sim.nowMs) {
        stories.start(FAULTS[pickKind(rng, draw)](ctx));
        nextFaultAt = sim.nowMs + rng.randint(draw.gapMs[0], draw.gapMs[1]);
      }
      if (transfers !== null && transfers.nextAtMs <= sim.nowMs && sim.nowMs < durationMs) {
        sim.act({ verb: 'transfer', node: transfers.take(draw.config.nodeIds, sim.nowMs) });
        if (checker.violations.length > 0) break;
      }
      if (members !== null && nextMemberAt <= sim.nowMs) {
        stories.start(membershipChange(members, raceWeight));
        nextMemberAt = sim.nowMs + members.randint(MEMBERSHIP_GAP_MS[0], MEMBERSHIP_GAP_MS[1]);
      }
      if (jumps !== null && jumps.nextAtMs <= sim.nowMs && sim.nowMs < durationMs) {
        sim.act(jumps.take(sim.nowMs));
        if (checker.violations.length > 0) break;
      }
      if (network !== null && network.nextAtMs <= sim.nowMs && sim.nowMs < durationMs) {
        sim.act(network.take(sim.nowMs));
        if (checker.violations.length > 0) break;
      }
      if (aimed !== null && (targeted as TargetedStories).nextAtMs <= sim.nowMs && sim.nowMs < durationMs) {
        stories.start((targeted as TargetedStories).next(aimed));
        if (checker.violations.length > 0) break;
      }
    }
    // Then the faults stop, and the cluster must be live again within the bound (or the
    // configuration says why it cannot be): the checker watches until it converges.
    if (checker.violations.length === 0) {
      sim.act({ verb: 'calm' });
      do {
        sim.step();
        if (sim.nowMs >= nextProgressAt) {
          nextProgressAt += PROGRESS_EVERY_MS;
          (onProgress as (nowMs: number, inflight: number) => void)(sim.nowMs, sim.cluster.inflight.size);
        }
      } while (checker.liveness.state === 'waiting' && checker.violations.length === 0);
    }
  } catch (error) {
    checker.recordCrash(error);
  }
  // The clients' history, checked once at the end: the lock service's and the fenced store's
  // order are violations (with the same replay as any other); the rest are findings.
  let historyFindings = 0;
  if (checker.violations.length === 0) {
    const verdicts = checker.checkHistory({ shrinkFindingsToo: false });
    if (verdicts !== null)
      historyFindings = VERDICT_NAMES.filter(
        (n) => verdictStake(n, verdicts[n]) === 'finding' && verdicts[n]?.linearizable === false,
      ).length;
  }
  const violation = checker.first;
  if (reach !== null && sim.lockService !== null) reach.finish(sim.lockService.history.ops);
  return {
    run,
    config: draw.config,
    kinds: draw.kinds,
    stories: targeted?.kinds ?? [],
    schedule: sim.schedule.slice(0, sim.appliedCount),
    untilMs: violation ? violation.t : sim.nowMs,
    violation,
    findings: checker.findings.length,
    historyFindings,
    liveness:
      checker.liveness.state === 'held' || checker.liveness.state === 'skipped'
        ? `${checker.liveness.state}: ${checker.liveness.note}`
        : checker.liveness.state,
    busiestSecond: checker.busiestSecond,
    reached: reach !== null ? SOMETIMES_IDS.filter((id) => reach.reached.has(id)) : [],
    overlaps: sim.lockService !== null ? overlapsOf(sim.lockService.holds.holds, sim.nowMs).length : 0,
  };
}
