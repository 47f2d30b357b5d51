/**
 * Fuzz runs of a lock service other than the chapter's (issue 26, items 2 and 6): the run's own
 * draws — cluster size, timings, fault kinds, every fault — are the swarm's, and then the draw is
 * fitted to the service: its servers (the size clamped into the service's range, named by its
 * prefix), at least two clients, no features it cannot run, only the fault kinds that mean
 * something without the chapter's Raft internals, and its switches and clock jumps drawn from a
 * stream of their own — CPython's `random.Random(2**130 + (seed << 32) + run)` — so a run of the
 * chapter's service (no lock named) is what it was before, draw for draw.
 */
import { checkConfig, lockServiceOfBug, serverIdsFor, type BugName, type LockServiceName, type SimConfig } from '../../model/config';
import { lockServiceManifest, optionsOf } from '../../model/lockServices';
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import type { ActionBody } from '../../model/schedule';
import type { FaultKind, SwarmDraw } from './draw';

/**
 * The fault kinds a run of another service draws from: servers crash and restart, the network
 * partitions, loses, delays, duplicates and reorders, clocks drift, clients pause, crash and use
 * locks. The stories that wait for Raft's moments (a fresh entry, a vote, the chapter's lease)
 * are the chapter's service's.
 */
export const LOCK_RUN_KINDS: readonly FaultKind[] = [
  'crash',
  'partition',
  'loss',
  'drift',
  'client-pause',
  'client-crash',
  'locks',
  'delay-spike',
  'duplicates',
  'reorder',
];

/** The kinds every such run has: without clients using locks there is nothing to measure. */
const ALWAYS: readonly FaultKind[] = ['locks', 'client-pause'];

/** The lock service a fuzz run uses: the one its bug belongs to, else the one asked for (null: the chapter's). */
export function lockForRun(bugs: readonly BugName[], lock: LockServiceName | null): LockServiceName | null {
  for (const b of bugs) {
    const l = lockServiceOfBug(b);
    if (l !== null) return l;
  }
  return lock === 'raft' ? null : lock;
}

/** The lock stream of a run (see the module comment). */
export function lockRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 130n) + (base << 32n) + BigInt(run));
}

/** Fits a drawn run to `lock`, drawing its switches from `rng` (the lock stream). */
export function fitDrawToLock(draw: SwarmDraw, lock: LockServiceName, rng: CPythonRandom, biasedKinds: ReadonlySet<string>): SwarmDraw {
  const m = lockServiceManifest(lock);
  const size = Math.min(m.maxServers, Math.max(m.minServers, draw.config.nodeIds.length));
  // Each switch on or off, in the manifest's order.
  const options = optionsOf(lock).filter(() => rng.random() < 0.5);
  const kinds = [...new Set([...draw.kinds.filter((k) => LOCK_RUN_KINDS.includes(k)), ...ALWAYS])];
  kinds.sort((a, b) => LOCK_RUN_KINDS.indexOf(a) - LOCK_RUN_KINDS.indexOf(b));
  const { features: _features, snapshotEvery: _snapshotEvery, readMode: _readMode, ...rest } = draw.config;
  const config: SimConfig = {
    ...rest,
    nodeIds: serverIdsFor(lock, size),
    clientIds: draw.config.clientIds.length >= 2 ? draw.config.clientIds : ['A', 'B', 'C'].slice(0, 2 + rng.randbelow(2)),
    lock,
    ...(options.length > 0 ? { lockOptions: options } : {}),
  };
  const problem = checkConfig(config);
  if (problem !== null) throw new RangeError(`A fuzz run of ${lock} drew a configuration the lab refuses: ${problem}`);
  return { ...draw, config, kinds, weights: kinds.map((k) => (biasedKinds.has(k) ? 3 : 1)) };
}

/**
 * Clock jumps (`clockjump`), the Redlock debate's fault: a server's wall clock steps forward (more
 * often, as NTP stepping a slow clock does) or back, by 0.5 to 10 s; the first at 300-3000 ms,
 * each next 500-4000 ms later. Drawn from the lock stream after the switches.
 */
export class ClockJumps {
  nextAtMs: number;

  constructor(
    private readonly rng: CPythonRandom,
    private readonly nodeIds: readonly string[],
  ) {
    this.nextAtMs = rng.randint(300, 3000);
  }

  take(nowMs: number): ActionBody {
    const node = this.nodeIds[this.rng.randbelow(this.nodeIds.length)];
    const size = this.rng.randint(500, 10_000);
    const ms = this.rng.random() < 0.7 ? size : -size;
    this.nextAtMs = nowMs + this.rng.randint(500, 4000);
    return { verb: 'clockjump', node, ms };
  }
}
