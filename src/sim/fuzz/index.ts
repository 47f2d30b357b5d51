/**
 * Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012) with every invariant on.
 *
 * Each run draws, from its own CPython-compatible PRNG seeded by (fuzz seed << 32) + run number,
 * a cluster size, timings, a random subset of fault kinds and then — while the simulation
 * runs — a schedule of those faults. Faults are chosen against the live state (crash *the
 * leader*, flap *a node that just voted*), but every one is recorded through `Simulation.act`, so
 * the run's schedule text replays it exactly. On a violation the schedule is shrunk (drop
 * actions, then shorten) while the same invariant still fails.
 *
 * Everything here is pure and chunked: `fuzz()` is a generator that yields after every run and
 * every shrink attempt, so a Web Worker can interleave it with messages and report progress.
 */
import { nodeIdsFor, type BugName, type SimConfig } from '../config';
import { attachInvariants, type InvariantChecker, type InvariantId, type Violation } from '../invariants';
import { CPythonRandom, parseSeed, type Seed } from '../prng';
import { formatSchedule, type Action, type ActionBody, type ClientIntent } from '../schedule';
import { Simulation } from '../simulation';

export const FUZZ_DURATION_MS = 10_000;

/**
 * Fault kinds the swarm picks from. The last five are small stories: fault patterns that wait
 * for the right moment (a leader with a fresh entry, a vote just cast, a lease about to run out).
 */
export const FAULT_KINDS = [
  'crash',
  'partition',
  'loss',
  'drift',
  'client-pause',
  'client-crash',
  'locks',
  'submits',
  'leader-churn',
  'figure8-story',
  'vote-flap',
  'lease-steal',
  'drift-failover',
  'stale-leader',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const CLIENT_KINDS: ReadonlySet<FaultKind> = new Set(['client-pause', 'client-crash', 'locks', 'lease-steal', 'drift-failover', 'stale-leader']);

/** The faults each bug needs to show itself; the swarm includes them more often when it is on. */
export const BUG_FAULTS: Readonly<Record<BugName, readonly FaultKind[]>> = {
  figure8: ['figure8-story', 'leader-churn'],
  'forget-vote': ['vote-flap'],
  'no-log-check': ['crash', 'submits', 'leader-churn'],
  'expire-any-token': ['stale-leader'],
  'follower-expiry': ['drift-failover', 'locks'],
  'no-fencing': ['lease-steal', 'client-pause', 'locks'],
};

export interface FuzzOptions {
  readonly seed: Seed;
  readonly runs: number;
  readonly bugs?: readonly BugName[];
  /** Simulated length of each run (default 10 s). */
  readonly durationMs?: number;
  /** Shrink the first counterexample (default true). */
  readonly shrink?: boolean;
  /** At most this many replays while shrinking (default 300). */
  readonly maxShrinkRuns?: number;
}

export interface RunOutcome {
  readonly run: number;
  readonly config: SimConfig;
  readonly kinds: readonly FaultKind[];
  /** The actions applied, in order: with `config`, run until `untilMs`, they replay the run. */
  readonly schedule: readonly Action[];
  readonly untilMs: number;
  readonly violation: Violation | null;
  /** Unfenced-store writes accepted after the writer's lease ended (findings, not failures). */
  readonly findings: number;
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
  | { readonly phase: 'shrink'; readonly attempts: number; readonly budget: number; readonly actions: number };

export interface FuzzResult {
  readonly seed: Seed;
  readonly runsDone: number;
  readonly findings: number;
  readonly counterexample: Counterexample | null;
}

// -- one run --------------------------------------------------------------------------------

/** The run's own PRNG: CPython's `random.Random((seed << 32) + run)`. */
export function runRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((base << 32n) + BigInt(run));
}

interface Planned {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** Draws one run's configuration and fault kinds, then drives the simulation with them. */
class RunDriver {
  readonly rng: CPythonRandom;
  readonly config: SimConfig;
  readonly kinds: FaultKind[];
  readonly sim: Simulation;
  private readonly checker: InvariantChecker;
  private readonly durationMs: number;
  private readonly planned: Planned[] = [];
  private plannedSeq = 0;
  private nextRandomAt: number;
  private readonly gapMs: readonly [number, number];
  private readonly weights: number[];
  private valueCounter = 0;
  private readonly keys: readonly string[];

  constructor(seed: Seed, run: number, bugs: readonly BugName[], durationMs: number) {
    const rng = (this.rng = runRandom(seed, run));
    this.durationMs = durationMs;
    const biased = new Set<FaultKind>(bugs.flatMap((b) => BUG_FAULTS[b]));
    // Swarm: each kind is in or out for the whole run; a bug's own kinds are in far more often.
    let kinds = FAULT_KINDS.filter((k) => rng.random() < (biased.size === 0 ? 0.45 : biased.has(k) ? 0.9 : 0.25));
    if (kinds.length === 0) kinds = [FAULT_KINDS[rng.randbelow(FAULT_KINDS.length)]];
    this.kinds = kinds;
    this.weights = kinds.map((k) => (biased.has(k) ? 3 : 1));
    const size = [3, 5, 7][rng.randbelow(3)];
    const tMin = rng.randint(100, 300);
    // Narrow timeout ranges make split votes (and so competing candidates) common.
    const tMax = tMin + (rng.random() < 0.35 ? rng.randint(3, 25) : rng.randint(50, 300));
    const heartbeatMs = rng.randint(10, Math.floor(tMin / 3));
    const lMin = rng.randint(1, 6);
    const lMax = lMin + rng.randint(0, 30);
    const clientCount = kinds.some((k) => CLIENT_KINDS.has(k)) ? rng.randint(2, 4) : 0;
    this.keys = ['k1', 'k2'].slice(0, rng.randint(1, 2));
    this.config = {
      seed: rng.getrandbits(32),
      nodeIds: nodeIdsFor(size),
      electionTimeoutMs: [tMin, tMax],
      heartbeatMs,
      latencyMs: [lMin, lMax],
      clientIds: ['A', 'B', 'C', 'D'].slice(0, clientCount),
      bugs: [...bugs],
    };
    const meanGap = rng.randint(150, 900);
    this.gapMs = [Math.floor(meanGap / 3), meanGap * 2];
    this.nextRandomAt = rng.randint(200, 600);
    this.sim = new Simulation(this.config);
    this.checker = attachInvariants(this.sim, { maxViolations: 1 });
  }

  execute(): RunOutcome {
    const sim = this.sim;
    const checker = this.checker;
    const end = this.durationMs;
    outer: while (sim.nowMs < end) {
      const head = this.planned.length > 0 ? this.planned[0].at : Infinity;
      const target = Math.min(end, head, this.nextRandomAt);
      while (sim.nowMs < target) {
        sim.step();
        if (checker.violations.length > 0) break outer;
      }
      while (this.planned.length > 0 && this.planned[0].at <= sim.nowMs) {
        (this.planned.shift() as Planned).fn();
        if (checker.violations.length > 0) break outer;
      }
      if (this.nextRandomAt <= sim.nowMs) {
        this.randomFault();
        this.nextRandomAt = sim.nowMs + this.rng.randint(this.gapMs[0], this.gapMs[1]);
      }
    }
    const violation = checker.first;
    return {
      run: 0,
      config: this.config,
      kinds: this.kinds,
      schedule: sim.schedule.slice(0, sim.appliedCount),
      untilMs: violation ? violation.t : sim.nowMs,
      violation,
      findings: checker.findings.length,
    };
  }

  // -- helpers --------------------------------------------------------------------------------

  private act(body: ActionBody): void {
    this.sim.act(body);
  }

  private later(delayMs: number, fn: () => void): void {
    const item: Planned = { at: this.sim.nowMs + Math.max(1, delayMs), seq: this.plannedSeq++, fn };
    const list = this.planned;
    let i = list.length;
    while (i > 0 && (list[i - 1].at > item.at || (list[i - 1].at === item.at && list[i - 1].seq > item.seq))) i--;
    list.splice(i, 0, item);
  }

  /** Polls `test` every `everyMs` until it returns true or `untilMs` passes. */
  private when(test: () => boolean, everyMs: number, giveUpAfterMs: number, fn: () => void): void {
    const deadline = this.sim.nowMs + giveUpAfterMs;
    const poll = () => {
      if (test()) fn();
      else if (this.sim.nowMs < deadline) this.later(everyMs, poll);
    };
    this.later(everyMs, poll);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.rng.randbelow(items.length)];
  }

  private chance(p: number): boolean {
    return this.rng.random() < p;
  }

  private get cluster() {
    return this.sim.cluster;
  }

  private aliveNodes(): string[] {
    return this.cluster.nodes.filter((n) => n.alive).map((n) => n.id);
  }

  private leaderId(): string | null {
    return this.cluster.leader()?.id ?? null;
  }

  private crashAndRestart(id: string, downMs: number | null): void {
    const node = this.cluster.node(id);
    if (!node.alive) return;
    this.act({ verb: 'crash', node: id });
    if (downMs !== null) this.later(downMs, () => this.act({ verb: 'restart', node: id }));
  }

  private client(id: string, intent: ClientIntent): void {
    this.act({ verb: 'client', client: id, intent });
  }

  private twoClients(): [string, string] | null {
    const ids = this.config.clientIds;
    if (ids.length < 2) return null;
    const a = this.pick(ids);
    let b = this.pick(ids);
    while (b === a) b = this.pick(ids);
    return [a, b];
  }

  private value(prefix: string): string {
    return `${prefix}${++this.valueCounter}`;
  }

  private majorityAlive(): boolean {
    const alive = this.aliveNodes().length;
    return alive - 1 >= Math.floor(this.config.nodeIds.length / 2) + 1;
  }

  // -- the fault kinds --------------------------------------------------------------------------

  private randomFault(): void {
    let total = 0;
    for (const w of this.weights) total += w;
    let r = this.rng.randbelow(total);
    let i = 0;
    while (r >= this.weights[i]) r -= this.weights[i++];
    this.fault(this.kinds[i]);
  }

  private fault(kind: FaultKind): void {
    const ids = this.config.nodeIds;
    switch (kind) {
      case 'crash': {
        const alive = this.aliveNodes();
        if (alive.length === 0 || (!this.majorityAlive() && this.chance(0.8))) return;
        const leader = this.leaderId();
        const id = leader !== null && this.chance(0.5) ? leader : this.pick(alive);
        this.crashAndRestart(id, this.chance(0.85) ? this.rng.randint(20, 2500) : null);
        return;
      }
      case 'partition': {
        const shuffled = [...ids];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = this.rng.randbelow(i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const cut = this.rng.randint(1, shuffled.length - 1);
        this.act({ verb: 'partition', groups: [shuffled.slice(0, cut)] });
        this.later(this.rng.randint(100, 3000), () => this.act({ verb: 'heal' }));
        return;
      }
      case 'loss':
        this.act({ verb: 'loss', pct: this.rng.randint(5, 35) });
        this.later(this.rng.randint(200, 3000), () => this.act({ verb: 'loss', pct: 0 }));
        return;
      case 'drift':
        this.act({ verb: 'drift', node: this.pick(ids), pct: this.chance(0.5) ? this.rng.randint(20, 90) : -this.rng.randint(20, 60) });
        return;
      case 'client-pause': {
        const ids2 = this.config.clientIds;
        if (ids2.length === 0) return;
        const c = this.pick(ids2);
        this.client(c, { op: 'pause', ms: this.rng.randint(100, 4000) });
        this.client(c, { op: 'write', key: this.pick(this.keys), value: this.value(c) });
        return;
      }
      case 'client-crash': {
        const ids2 = this.config.clientIds;
        if (ids2.length === 0) return;
        const c = this.pick(ids2);
        this.client(c, { op: 'crash' });
        this.later(this.rng.randint(50, 2000), () => this.client(c, { op: 'restart' }));
        return;
      }
      case 'locks': {
        const ids2 = this.config.clientIds;
        if (ids2.length === 0) return;
        const c = this.pick(ids2);
        const key = this.pick(this.keys);
        const roll = this.rng.random();
        if (roll < 0.5) {
          this.client(c, { op: 'acquire', key, leaseMs: this.rng.randint(200, 3000) });
          this.client(c, { op: 'write', key, value: this.value(c) });
        } else if (roll < 0.8) {
          this.client(c, { op: 'write', key, value: this.value(c) });
        } else {
          this.client(c, { op: 'release', key });
        }
        return;
      }
      case 'submits': {
        const n = this.rng.randint(1, 3);
        for (let i = 0; i < n; i++) {
          const target = this.chance(0.8) ? null : this.pick(ids);
          this.act({ verb: 'submit', command: this.value('v'), target });
        }
        return;
      }
      case 'leader-churn':
        this.leaderChurn();
        return;
      case 'figure8-story':
        this.figure8Story();
        return;
      case 'vote-flap':
        this.voteFlap();
        return;
      case 'lease-steal':
        this.leaseSteal();
        return;
      case 'drift-failover':
        this.driftFailover();
        return;
      case 'stale-leader':
        this.staleLeader();
        return;
    }
  }

  /**
   * Figure 8's raw material: the leader takes an entry and crashes before it reaches everyone,
   * then comes back; repeated, different leaders leave different entries at one index.
   */
  private leaderChurn(): void {
    const leader = this.leaderId();
    if (leader === null) return;
    const n = this.rng.randint(1, 2);
    for (let i = 0; i < n; i++) this.act({ verb: 'submit', command: this.value('v'), target: null });
    const [, lMax] = this.config.latencyMs;
    this.later(this.rng.randint(1, lMax + 2), () => this.crashAndRestart(leader, this.rng.randint(20, 600)));
  }

  /**
   * The paper's Figure 8: a leader cut off with a minority takes an entry and crashes; the next
   * leader takes another entry at that index and crashes before sending it; the first comes back,
   * leads again and spreads its old entry to a majority; then it crashes and the second returns.
   */
  private figure8Story(): void {
    const first = this.cluster.leader();
    if (first === null) return;
    const n = this.config.nodeIds.length;
    const majority = Math.floor(n / 2) + 1;
    const others = this.config.nodeIds.filter((id) => id !== first.id);
    const group = [first.id, ...others.slice(0, this.rng.randint(0, majority - 2))];
    this.act({ verb: 'partition', groups: [group] });
    this.act({ verb: 'submit', command: this.value('v'), target: first.id });
    const index = first.log.length;
    const [, lMax] = this.config.latencyMs;
    this.later(lMax + this.rng.randint(1, 20), () => {
      this.crashAndRestart(first.id, null);
      this.when(
        () => {
          const l = this.cluster.leader();
          return l !== null && l !== first;
        },
        10,
        2000,
        () => {
          const second = this.cluster.leader();
          if (second === null) return;
          this.act({ verb: 'partition', groups: [[second.id]] });
          this.act({ verb: 'submit', command: this.value('v'), target: second.id });
          this.later(this.rng.randint(1, 5), () => {
            this.crashAndRestart(second.id, null);
            this.later(this.rng.randint(1, 30), () => {
              this.act({ verb: 'restart', node: first.id });
              this.handOverTo(first.id, 6, false, () => {
                // Let it spread the old entry (and, with figure8, commit it by counting).
                this.when(() => first.commitIndex >= index || !first.alive, 5, 400, () => {
                  this.crashAndRestart(first.id, this.rng.randint(300, 1000));
                  this.act({ verb: 'restart', node: second.id });
                  this.act({ verb: 'heal' });
                  this.handOverTo(second.id, 6, false);
                });
              });
            });
          });
        },
      );
    });
  }

  /** A voter that crashes and restarts right after voting, while the election is still open. */
  private voteFlap(): void {
    const flaps = this.rng.randint(1, 4);
    let done = 0;
    const voterOfOpenElection = (): string | null => {
      for (const c of this.cluster.nodes) {
        if (!c.alive || c.role !== 'candidate') continue;
        for (const v of this.cluster.nodes) {
          if (v !== c && v.alive && v.term === c.term && v.votedFor === c.id) return v.id;
        }
      }
      return null;
    };
    const watch = () => {
      const voter = voterOfOpenElection();
      if (voter !== null) {
        this.crashAndRestart(voter, this.rng.randint(1, 8));
        done++;
      }
      if (done < flaps && this.sim.nowMs < this.durationMs) this.later(voter !== null ? 30 : 2, watch);
    };
    // Start an election by taking the leader away for a while, then watch for votes.
    const leader = this.leaderId();
    if (leader !== null && this.majorityAlive()) this.crashAndRestart(leader, this.rng.randint(300, 1500));
    this.later(1, watch);
  }

  /** A holder paused past its lease writes after the next holder did (the chapter's fencing story). */
  private leaseSteal(): void {
    const pair = this.twoClients();
    if (pair === null) return;
    const [a, b] = pair;
    const key = this.pick(this.keys);
    const leaseMs = this.rng.randint(200, 1500);
    this.client(a, { op: 'acquire', key, leaseMs });
    this.client(a, { op: 'write', key, value: this.value(a) });
    const pauseAfter = this.rng.randint(50, 300);
    const bAfter = leaseMs + this.rng.randint(100, 600);
    this.later(pauseAfter, () => {
      this.client(a, { op: 'pause', ms: bAfter - pauseAfter + this.rng.randint(100, 1500) });
      this.client(a, { op: 'write', key, value: this.value(a) });
    });
    this.later(bAfter, () => {
      this.client(b, { op: 'acquire', key, leaseMs: this.rng.randint(500, 3000) });
      this.client(b, { op: 'write', key, value: this.value(b) });
    });
  }

  /**
   * Followers whose clocks run fast (or a leader whose clock runs slow) see a lease end early;
   * the leader then fails inside that window and a follower takes over.
   */
  private driftFailover(): void {
    const pair = this.twoClients();
    const leader = this.leaderId();
    if (pair === null || leader === null) return;
    const [a, b] = pair;
    const key = this.pick(this.keys);
    if (this.chance(0.5)) {
      for (const id of this.config.nodeIds) if (id !== leader) this.act({ verb: 'drift', node: id, pct: this.rng.randint(40, 90) });
    } else {
      this.act({ verb: 'drift', node: leader, pct: -this.rng.randint(30, 60) });
    }
    const leaseMs = this.rng.randint(500, 2000);
    this.client(a, { op: 'acquire', key, leaseMs });
    this.later(Math.floor(leaseMs * (0.6 + 0.3 * this.rng.random())), () => {
      this.crashAndRestart(leader, this.chance(0.5) ? this.rng.randint(200, 2000) : null);
      this.later(this.rng.randint(150, 500), () => {
        this.client(b, { op: 'acquire', key, leaseMs: this.rng.randint(500, 3000) });
        this.client(b, { op: 'write', key, value: this.value(b) });
      });
    });
  }

  /**
   * A follower cut off while A holds the key misses the release and B's grant; every other node
   * restarts (forgetting what was committed), one of them leads and hands the follower those
   * entries without their commit; the follower then leads with A's lease in its applied state.
   */
  private staleLeader(): void {
    const pair = this.twoClients();
    const leader = this.leaderId();
    if (pair === null || leader === null) return;
    const [a, b] = pair;
    const key = this.pick(this.keys);
    const followers = this.config.nodeIds.filter((id) => id !== leader && this.cluster.node(id).alive);
    if (followers.length === 0) return;
    const f = this.pick(followers);
    this.client(a, { op: 'acquire', key, leaseMs: this.rng.randint(200, 1000) });
    this.later(this.rng.randint(250, 500), () => {
      this.act({ verb: 'partition', groups: [[f]] });
      this.client(a, { op: 'release', key });
      this.later(this.rng.randint(150, 400), () => {
        this.client(b, { op: 'acquire', key, leaseMs: this.rng.randint(3000, 8000) });
        this.later(this.rng.randint(200, 400), () => {
          const others = this.config.nodeIds.filter((id) => id !== f);
          for (const id of others) this.crashAndRestart(id, this.rng.randint(1, 30));
          this.later(this.rng.randint(300, 600), () => {
            this.act({ verb: 'heal' });
            this.handOverTo(f, this.rng.randint(3, 8));
          });
        });
      });
    });
  }

  /**
   * Crash whoever leads (once `f` has caught up with it, if `catchUp`) until `f` leads, then
   * call `then`; gives up after `attempts` crashes.
   */
  private handOverTo(f: string, attempts: number, catchUp = true, then?: () => void): void {
    const target = this.cluster.node(f);
    this.when(
      () => {
        const leader = this.cluster.leader();
        return leader !== null && (leader === target || !catchUp || target.log.length >= leader.log.length);
      },
      10,
      1500,
      () => {
        const leader = this.cluster.leader();
        if (leader === null || attempts <= 0) return;
        if (leader === target) {
          then?.();
          return;
        }
        this.crashAndRestart(leader.id, this.rng.randint(50, 300));
        this.later(20, () => this.handOverTo(f, attempts - 1, catchUp, then));
      },
    );
  }
}

/** Runs fuzz run number `run` (0-based) of the fuzz seed: pure, deterministic, about one chunk of work. */
export function fuzzRun(seed: Seed, run: number, bugs: readonly BugName[] = [], durationMs = FUZZ_DURATION_MS): RunOutcome {
  const outcome = new RunDriver(seed, run, bugs, durationMs).execute();
  return { ...outcome, run };
}

// -- replay and shrinking -------------------------------------------------------------------

/** Runs a schedule with every invariant on until `untilMs` or the first violation. */
export function replay(config: SimConfig, schedule: readonly Action[], untilMs: number): Violation | null {
  const sim = new Simulation(config, schedule);
  const checker = attachInvariants(sim, { maxViolations: 1 });
  while (sim.nowMs < untilMs && checker.violations.length === 0) sim.step();
  return checker.first;
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
): Generator<FuzzProgress, { schedule: Action[]; violation: Violation; runs: number }, void> {
  const target: InvariantId = violation.invariant;
  let best = [...schedule];
  let bestViolation = violation;
  let runs = 0;
  // Without some actions the same failure may come a little later.
  const limitMs = violation.t + 1000;
  const attempt = (candidate: Action[]): boolean => {
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

function shortenAction(a: Action): Action | null {
  if (a.verb !== 'client') return null;
  const i = a.intent;
  if (i.op === 'pause' && i.ms > 50) return { ...a, intent: { ...i, ms: Math.floor(i.ms / 2) } };
  if (i.op === 'acquire' && i.leaseMs > 50) return { ...a, intent: { ...i, leaseMs: Math.floor(i.leaseMs / 2) } };
  return null;
}

// -- the fuzz loop --------------------------------------------------------------------------

/**
 * The whole search as a generator: yields progress after every run and every shrink replay,
 * returns the result. Drive it with `runFuzz`, or step it from a worker between messages.
 */
export function* fuzz(options: FuzzOptions): Generator<FuzzProgress, FuzzResult, void> {
  const bugs = options.bugs ?? [];
  const duration = options.durationMs ?? FUZZ_DURATION_MS;
  let findings = 0;
  for (let run = 0; run < options.runs; run++) {
    const outcome = fuzzRun(options.seed, run, bugs, duration);
    findings += outcome.findings;
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
    return { seed: options.seed, runsDone: run + 1, findings, counterexample };
  }
  return { seed: options.seed, runsDone: options.runs, findings, counterexample: null };
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
