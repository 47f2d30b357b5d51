/**
 * Which names a swarm run shares between things the engine keeps apart (issue 24): a lock key that
 * is also a key of the replicated map, and partitions that name clients as well as nodes. Both
 * were never drawn, so a checker that mixed the lock table up with the map (a put taken as a
 * release) and an invariant that took every name in a partition for a node went unseen.
 *
 * Drawn from a stream of their own — CPython's `random.Random(2**130 + (seed << 32) + run)` — so a
 * run's own stream, and every fault it draws, is what it was before: a run without reads or
 * without clients draws nothing from here that changes it, and one with them changes only where
 * the shared names are used (the map's keys, the groups of a partition).
 */
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';

/** The names stream of run `run`. */
export function namesRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 130n) + (base << 32n) + BigInt(run));
}

export class SwarmNames {
  private readonly rng: CPythonRandom;
  /** Whether the map shares a key with the lock table, and which lock key (an index into the run's lock keys). */
  readonly sharedKey: number | null;
  /** Whether this run's partitions may name clients. */
  readonly clientsInPartitions: boolean;

  constructor(seed: Seed, run: number, lockKeys: readonly string[]) {
    this.rng = namesRandom(seed, run);
    // Half the runs (with reads and clients: nowhere else does a map key exist) share one name.
    const share = this.rng.random() < 0.5;
    const which = this.rng.randbelow(lockKeys.length);
    this.sharedKey = share ? which : null;
    this.clientsInPartitions = this.rng.random() < 0.5;
  }

  /** The map's keys (reads.ts drew how many and what they are): the first becomes a lock key when shared. */
  mapKeys(keys: readonly string[], lockKeys: readonly string[]): readonly string[] {
    if (this.sharedKey === null || keys.length === 0) return keys;
    return [lockKeys[this.sharedKey], ...keys.slice(1)];
  }

  /**
   * A partition's groups with clients placed too: each client, with even chance, stays in no group
   * (it reaches every node, as before) or joins one: the named group, the rest of the nodes (then
   * written out), or a group of its own (it reaches no node). `groups` is the fault's one named
   * group; the nodes it leaves out are `rest`.
   */
  partitionGroups(named: readonly string[], rest: readonly string[], clients: readonly string[]): string[][] {
    if (!this.clientsInPartitions || clients.length === 0) return [[...named]];
    const rng = this.rng;
    const first = [...named];
    const second = [...rest];
    const alone: string[] = [];
    for (const c of clients) {
      if (rng.random() < 0.5) continue;
      const where = rng.randbelow(3);
      if (where === 0) first.push(c);
      else if (where === 1) second.push(c);
      else alone.push(c);
    }
    // Unnamed nodes form one more group, so the rest need writing out only when a client joins them.
    const groups = [first];
    if (second.length > rest.length) groups.push(second);
    if (alone.length > 0) groups.push(alone);
    return groups;
  }
}
