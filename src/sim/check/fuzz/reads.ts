/**
 * The swarm's client reads and writes on the key-value map (reads feature, §6.4), drawn from a
 * stream of their own — CPython's `random.Random(2**129 + (seed << 32) + run)` — and only in runs
 * with the feature and clients, so every other run, and every other draw of a run with them, is
 * what it was before reads existed.
 */
import { READ_MODES, type BugName, type ReadMode } from '../../model/config';
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import type { ActionBody } from '../../model/schedule';

/** One run's put/get stream: its read mode, then one action every so often. */
export class SwarmReads {
  private readonly rng: CPythonRandom;
  private readonly clients: readonly string[];
  private readonly keys: readonly string[];
  /** The run's read mode (the configuration's `readMode`). */
  readonly mode: ReadMode;
  /** Whether a get may name its own mode (else it uses the run's). */
  private readonly mixed: boolean;
  private counter = 0;
  nextAtMs: number;

  constructor(
    seed: Seed,
    run: number,
    clients: readonly string[],
    bugs: readonly BugName[],
    /** The map's keys as drawn here, renamed where the run shares one with the lock table (names.ts). */
    shareKeys: (keys: readonly string[]) => readonly string[] = (keys) => keys,
  ) {
    const base = parseSeed(seed);
    if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
    this.rng = new CPythonRandom((1n << 129n) + (base << 32n) + BigInt(run));
    this.clients = clients;
    const buggy = bugs.includes('read-index-skips-heartbeat');
    // The bug lives in ReadIndex reads: a run with it reads that way throughout.
    this.mode = buggy ? 'read-index' : READ_MODES[this.rng.randbelow(READ_MODES.length)];
    this.mixed = !buggy && this.rng.random() < 0.5;
    this.keys = shareKeys(['x', 'y'].slice(0, this.rng.randint(1, 2)));
    this.nextAtMs = this.rng.randint(200, 600);
  }

  /** The action due now, and when the next one is. */
  next(nowMs: number): ActionBody {
    const rng = this.rng;
    const client = this.clients[rng.randbelow(this.clients.length)];
    const key = this.keys[rng.randbelow(this.keys.length)];
    this.nextAtMs = nowMs + rng.randint(40, 400);
    if (rng.random() < 0.45) return { verb: 'client', client, intent: { op: 'put', key, value: `${client}${++this.counter}` } };
    const mode = this.mixed && rng.random() < 0.5 ? READ_MODES[rng.randbelow(READ_MODES.length)] : null;
    return { verb: 'client', client, intent: { op: 'get', key, mode } };
  }
}
