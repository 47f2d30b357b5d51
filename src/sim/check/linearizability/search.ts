/**
 * The Wing–Gong–Lowe search for a linearization of one object's history (Wing & Gong 1993,
 * with Lowe's 2017 memoization of visited (linearized set, state) pairs), the algorithm
 * Porcupine and Knossos use. Operations are call and return entries in one linked list in
 * real-time order; the search linearizes the first call it can, backtracks at a return whose
 * operation it has not linearized yet, and never revisits a configuration it has seen.
 */

/** A sequential specification: `step` is null when the input is impossible in that state. */
export interface Model<S, I> {
  readonly init: () => S;
  readonly step: (state: S, input: I) => S | null;
  /** Equal states give equal keys (the memo compares keys). */
  readonly key: (state: S) => string;
}

export interface CheckOp<I> {
  readonly id: number;
  readonly input: I;
  /** Real-time order of the invocation and the completion; `ret` null: never completed. */
  readonly call: number;
  readonly ret: number | null;
}

/**
 * How much searching one verdict may do. `steps` always counts down (deterministic); a caller
 * outside the pure core may add a clock and a deadline on it, checked every few thousand steps.
 */
export interface Budget {
  steps: number;
  readonly clock?: () => number;
  readonly deadline?: number;
}

export type SearchResult =
  | { readonly result: 'ok' }
  /**
   * `reach`: the latest time the search looked at. Operations invoked after it played no part,
   * so the history without them fails the same way (what the shrinker starts from).
   */
  | { readonly result: 'fail'; readonly reach: number }
  | { readonly result: 'unknown' };

const OK = { result: 'ok' } as const;
const UNKNOWN = { result: 'unknown' } as const;

export function outOfBudget(budget: Budget): boolean {
  if (budget.steps <= 0) return true;
  if (budget.clock !== undefined && budget.deadline !== undefined && (budget.steps & 4095) === 0) {
    if (budget.clock() >= budget.deadline) {
      budget.steps = 0;
      return true;
    }
  }
  return false;
}

/** At most this many configurations remembered per search (tens of MB). */
export const MAX_MEMO = 1_000_000;

/** A well-mixed 32-bit value for each index (splitmix32's finalizer). */
function mix(x: number): number {
  let z = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return z ^ (z >>> 16);
}

export function linearize<S, I>(model: Model<S, I>, ops: readonly CheckOp<I>[], budget: Budget): SearchResult {
  const n = ops.length;
  // Entries 0..n-1 are calls, n..2n-1 returns; HEAD and TAIL are sentinels.
  const HEAD = 2 * n;
  const TAIL = 2 * n + 1;
  const next = new Int32Array(2 * n + 2);
  const prev = new Int32Array(2 * n + 2);
  const time = new Float64Array(2 * n);
  const present: number[] = [];
  let completed = 0;
  for (let i = 0; i < n; i++) {
    time[i] = ops[i].call;
    present.push(i);
    const ret = ops[i].ret;
    if (ret !== null) {
      time[n + i] = ret;
      present.push(n + i);
      completed++;
    }
  }
  // At equal times a call comes first: the two operations count as concurrent.
  present.sort((a, b) => time[a] - time[b] || (a < n ? 0 : 1) - (b < n ? 0 : 1) || a - b);
  let last = HEAD;
  for (const e of present) {
    next[last] = e;
    prev[e] = last;
    last = e;
  }
  next[last] = TAIL;
  prev[TAIL] = last;

  const lift = (c: number): void => {
    next[prev[c]] = next[c];
    prev[next[c]] = prev[c];
    if (ops[c].ret !== null) {
      const r = n + c;
      next[prev[r]] = next[r];
      prev[next[r]] = prev[r];
    }
  };
  const unlift = (c: number): void => {
    if (ops[c].ret !== null) {
      const r = n + c;
      next[prev[r]] = r;
      prev[next[r]] = r;
    }
    next[prev[c]] = c;
    prev[next[c]] = c;
  };

  // The linearized set as two 32-bit Zobrist hashes, updated as operations go in and out: a key
  // of fixed size (a bitset of a few thousand operations, joined per step, ran a fuzz run out of
  // memory). Two sets that collide in 64 bits would be taken as one; at the memo's cap that is
  // about one chance in 10^7.
  // Up to 52 operations (most objects of a run) the set is exact: bit i as 2^i in one double.
  const exact = n <= 52;
  const z1 = new Float64Array(n);
  const z2 = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    z1[i] = exact ? 2 ** i : mix(i * 2 + 1);
    z2[i] = exact ? 0 : mix(i * 2 + 2);
  }
  let h1 = 0;
  let h2 = 0;
  const seen = new Set<string>();
  const stackCall: number[] = [];
  const stackState: S[] = [];
  let state = model.init();
  let remaining = completed;
  let e = next[HEAD];
  let reach = -Infinity;
  while (remaining > 0) {
    budget.steps--;
    if (outOfBudget(budget)) return UNKNOWN;
    if (e < 2 * n && time[e] > reach) reach = time[e];
    if (e < n) {
      const next1 = model.step(state, ops[e].input);
      if (next1 !== null) {
        h1 = exact ? h1 + z1[e] : h1 ^ z1[e];
        h2 ^= z2[e];
        const k = model.key(next1) + '|' + h1 + ',' + h2;
        if (!seen.has(k)) {
          // Memory is bounded too: past the cap the search says unknown rather than grow.
          if (seen.size >= MAX_MEMO) return UNKNOWN;
          seen.add(k);
          stackCall.push(e);
          stackState.push(state);
          state = next1;
          lift(e);
          if (ops[e].ret !== null) remaining--;
          e = next[HEAD];
          continue;
        }
        h1 = exact ? h1 - z1[e] : h1 ^ z1[e];
        h2 ^= z2[e];
      }
      e = next[e];
    } else {
      // A return (or the end, which only pending calls precede) with its operation not yet
      // linearized: undo the most recent choice and try the next call after it.
      if (stackCall.length === 0) return { result: 'fail', reach };
      const c = stackCall.pop() as number;
      state = stackState.pop() as S;
      h1 = exact ? h1 - z1[c] : h1 ^ z1[c];
      h2 ^= z2[c];
      unlift(c);
      if (ops[c].ret !== null) remaining++;
      e = next[c];
    }
  }
  return OK;
}
