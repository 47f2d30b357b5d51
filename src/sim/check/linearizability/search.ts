/**
 * The Wing–Gong–Lowe search for a linearization of one object's history (Wing & Gong 1993,
 * with Lowe's 2017 memoization of visited (linearized set, state) pairs), the algorithm
 * Porcupine and Knossos use. Operations are call and return entries in one linked list in
 * real-time order; the search linearizes the first call it can, backtracks at a return whose
 * operation it has not linearized yet, and never revisits a configuration it has seen.
 *
 * What keeps it fast (issue 27), none of which changes the order it searches in:
 * - states are interned: each distinct state (by `model.key`) gets a small integer id once, and
 *   the result of applying operation e to state s is remembered per (s, e), so the model's
 *   `step` and `key` run once per pair instead of once per visit (no strings in the hot loop);
 * - the memo is an open-addressing table over typed arrays holding (state id, linearized set);
 * - the linearized set is exact: up to 52 operations one double (bit i as 2^i), up to
 *   EXACT_BITSET_MAX a bitset compared word for word, beyond that two 32-bit Zobrist hashes.
 * Callers that know their model allow it may also ask for `symmetry` (see SearchOptions).
 */

/** A sequential specification: `step` is null when the input is impossible in that state. */
export interface Model<S, I> {
  readonly init: () => S;
  readonly step: (state: S, input: I) => S | null;
  /** Equal states give equal keys (the memo compares keys). */
  readonly key: (state: S) => string | number;
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
  /** Called at the clock's cadence (every 4,096 steps) with the most completed operations placed so far of `total`. */
  readonly progress?: (placed: number, total: number) => void;
}

export interface SearchOptions<I> {
  /**
   * A class per pending operation (one that never returned) whose effect depends only on its
   * input, or null. Two pending operations of one class are interchangeable, so the search only
   * linearizes the later-called one after the earlier: any linearization that uses the later one
   * first can swap the two (the earlier was called before the later's point). Jepsen histories
   * are full of timed-out writes of the same few values; this removes their permutations.
   */
  readonly symmetry?: (input: I) => string | null;
  /** Record every (state, operation) pair the search tried, for the explanation of a failure. */
  readonly recordTries?: boolean;
  /**
   * Keep, for a failure, the linearization of the configuration that got furthest: the one whose
   * first unlinearized return is the latest (`reach`). Everything before that return is the
   * longest linearizable prefix (a prefix that linearizes is a path this exhaustive search walks,
   * so it would have got further), and the return's operation is the one that can never be placed.
   */
  readonly keepBest?: boolean;
  /**
   * Remember configurations by (state, completed operations linearized) and the set of pending
   * operations used, and skip one that used a superset of the pending operations of one already
   * visited: pending operations are optional and never return, so what the search can do from
   * (C, P ∪ Q, s) it can do from (C, P, s) too (the moves of a configuration depend only on which
   * completed operations are linearized, its state, and which pending ones are still unused).
   */
  readonly dominance?: boolean;
}

export type SearchResult<S = unknown> =
  | {
      readonly result: 'ok';
      /** Indexes into `ops` in the order found, and the state after each. */
      readonly order: readonly number[];
      readonly states: readonly S[];
    }
  /**
   * `reach`: the latest time the search looked at. Operations invoked after it played no part,
   * so the history without them fails the same way (what the shrinker starts from).
   * `tries` (with `recordTries`): per index into `ops`, the states it was tried in.
   */
  | {
      readonly result: 'fail';
      readonly reach: number;
      readonly tries?: readonly (readonly S[])[];
      /** With `keepBest`: the index into `ops` of the operation whose return is at `reach`, and the furthest linearization. */
      readonly stuck?: number;
      readonly best?: { readonly order: readonly number[]; readonly states: readonly S[] };
    }
  | { readonly result: 'unknown' };

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

/** Up to this many operations the linearized set is kept as an exact bitset (beyond, two 32-bit hashes). */
export const EXACT_BITSET_MAX = 512;

/** A well-mixed 32-bit value for each index (splitmix32's finalizer). */
function mix(x: number): number {
  let z = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return z ^ (z >>> 16);
}

/**
 * The visited configurations: (state id, linearized set) in parallel typed arrays, open
 * addressing with linear probing. The set is `a` (a double: exact up to 52 operations, else a
 * Zobrist hash) and `b` (a second hash), plus, in bitset mode, `words` per entry.
 */
class Memo {
  private cap = 1 << 12;
  private used = new Uint8Array(this.cap);
  private sid = new Int32Array(this.cap);
  private a = new Float64Array(this.cap);
  private b = new Int32Array(this.cap);
  private ref = new Int32Array(this.cap);
  private val = new Int32Array(this.cap);
  private pool: Uint32Array;
  size = 0;
  /** The value stored with the configuration `find` last found. */
  lastValue = -1;

  constructor(private readonly width: number) {
    this.pool = new Uint32Array(Math.max(1, width) * 64);
  }

  private slot(sid: number, a: number, b: number): number {
    // `a` may be a double up to 2^52: fold both halves in.
    const hi = Math.floor(a / 4294967296) | 0;
    return mix(Math.imul(sid, 0x9e3779b1) ^ (a | 0) ^ mix(hi ^ b)) & (this.cap - 1);
  }

  /** The empty slot where the configuration would go, or -1 if it is there already. */
  find(sid: number, a: number, b: number, words: Uint32Array | null): number {
    let i = this.slot(sid, a, b);
    const mask = this.cap - 1;
    while (this.used[i] === 1) {
      if (this.sid[i] === sid && this.a[i] === a && this.b[i] === b && (words === null || this.sameWords(this.ref[i], words))) {
        this.lastValue = this.val[i];
        return -1;
      }
      i = (i + 1) & mask;
    }
    return i;
  }

  /** Puts the configuration in the slot `find` gave. */
  insert(i: number, sid: number, a: number, b: number, words: Uint32Array | null, value = 0): void {
    this.used[i] = 1;
    this.val[i] = value;
    this.sid[i] = sid;
    this.a[i] = a;
    this.b[i] = b;
    if (words !== null) {
      const at = this.size * this.width;
      if (at + this.width > this.pool.length) {
        const bigger = new Uint32Array(this.pool.length * 2);
        bigger.set(this.pool);
        this.pool = bigger;
      }
      this.pool.set(words, at);
      this.ref[i] = at;
    }
    this.size++;
    if (this.size * 2 > this.cap) this.grow();
  }

  private sameWords(at: number, words: Uint32Array): boolean {
    for (let w = 0; w < words.length; w++) if (this.pool[at + w] !== words[w]) return false;
    return true;
  }

  private grow(): void {
    const { used, sid, a, b, ref, val } = this;
    this.cap *= 2;
    this.used = new Uint8Array(this.cap);
    this.sid = new Int32Array(this.cap);
    this.a = new Float64Array(this.cap);
    this.b = new Int32Array(this.cap);
    this.ref = new Int32Array(this.cap);
    this.val = new Int32Array(this.cap);
    const mask = this.cap - 1;
    for (let j = 0; j < used.length; j++) {
      if (used[j] === 0) continue;
      let i = this.slot(sid[j], a[j], b[j]);
      while (this.used[i] === 1) i = (i + 1) & mask;
      this.used[i] = 1;
      this.sid[i] = sid[j];
      this.a[i] = a[j];
      this.b[i] = b[j];
      this.ref[i] = ref[j];
      this.val[i] = val[j];
    }
  }
}

/**
 * The memo for `dominance`: per (state id, completed set) an entry, and per entry the pending
 * sets visited with it; a visit is new unless a stored pending set is a subset of its own.
 */
class DominanceMemo {
  private readonly base: Memo;
  private head = new Int32Array(1024).fill(-1);
  private link = new Int32Array(1024);
  private sets: Uint32Array;
  private entries = 0;
  size = 0;

  constructor(
    completedWords: number,
    private readonly width: number,
  ) {
    this.base = new Memo(completedWords);
    this.sets = new Uint32Array(Math.max(1, width) * 1024);
  }

  /** Whether (state, completed set, pending set) is new (not dominated); records it if so. */
  visit(sid: number, a: number, b: number, completed: Uint32Array, pending: Uint32Array, full: boolean): boolean | 'full' {
    let entry: number;
    const slot = this.base.find(sid, a, b, completed);
    if (slot !== -1) {
      if (full) return 'full';
      entry = this.entries++;
      this.base.insert(slot, sid, a, b, completed, entry);
      if (entry >= this.head.length) {
        const grown = new Int32Array(this.head.length * 2).fill(-1);
        grown.set(this.head);
        this.head = grown;
      }
    } else entry = this.base.lastValue;
    const w = this.width;
    // The stored sets are an antichain: a subset of this visit dominates it; a superset of it is dropped.
    let prevLink = -1;
    for (let i = this.head[entry]; i !== -1;) {
      let subset = true;
      let superset = true;
      for (let k = 0; k < w; k++) {
        const stored = this.sets[i * w + k];
        if ((stored & ~pending[k]) !== 0) subset = false;
        if ((pending[k] & ~stored) !== 0) superset = false;
      }
      if (subset) return false;
      const after = this.link[i];
      if (superset) {
        if (prevLink === -1) this.head[entry] = after;
        else this.link[prevLink] = after;
      } else prevLink = i;
      i = after;
    }
    if (full) return 'full';
    const at = this.size++;
    if (at >= this.link.length) {
      const grown = new Int32Array(this.link.length * 2);
      grown.set(this.link);
      this.link = grown;
    }
    if ((at + 1) * w > this.sets.length) {
      const grown = new Uint32Array(this.sets.length * 2);
      grown.set(this.sets);
      this.sets = grown;
    }
    this.sets.set(pending.subarray(0, w), at * w);
    this.link[at] = this.head[entry];
    this.head[entry] = at;
    return true;
  }
}

export function linearize<S, I>(
  model: Model<S, I>,
  ops: readonly CheckOp<I>[],
  budget: Budget,
  options: SearchOptions<I> = {},
): SearchResult<S> {
  const n = ops.length;
  // Entries 0..n-1 are calls, n..2n-1 returns; HEAD and TAIL are sentinels.
  const HEAD = 2 * n;
  const TAIL = 2 * n + 1;
  const next = new Int32Array(2 * n + 2);
  const prev = new Int32Array(2 * n + 2);
  const time = new Float64Array(2 * n);
  const hasRet = new Uint8Array(n);
  const present: number[] = [];
  let completed = 0;
  for (let i = 0; i < n; i++) {
    time[i] = ops[i].call;
    present.push(i);
    const ret = ops[i].ret;
    if (ret !== null) {
      time[n + i] = ret;
      present.push(n + i);
      hasRet[i] = 1;
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
    if (hasRet[c] === 1) {
      const r = n + c;
      next[prev[r]] = next[r];
      prev[next[r]] = prev[r];
    }
  };
  const unlift = (c: number): void => {
    if (hasRet[c] === 1) {
      const r = n + c;
      next[prev[r]] = r;
      prev[next[r]] = r;
    }
    next[prev[c]] = c;
    prev[next[c]] = c;
  };

  // Pending operations of one symmetry class go in call order: `before[e]` is the one called just before e.
  const before = new Int32Array(n).fill(-1);
  if (options.symmetry !== undefined) {
    const lastOf = new Map<string, number>();
    const pending = [...Array(n).keys()].filter((i) => hasRet[i] === 0).sort((x, y) => time[x] - time[y] || x - y);
    for (const i of pending) {
      const cls = options.symmetry(ops[i].input);
      if (cls === null) continue;
      const p = lastOf.get(cls);
      if (p !== undefined) before[i] = p;
      lastOf.set(cls, i);
    }
  }
  const linearized = new Uint8Array(n);

  // The linearized set (see the file's comment): exact as one double up to 52 operations, as a
  // bitset up to EXACT_BITSET_MAX (with two Zobrist hashes to find its slot), else the hashes alone.
  const dominance = options.dominance === true;
  const exact = n <= 52 && !dominance;
  const bitset = !exact && !dominance && n <= EXACT_BITSET_MAX;
  const z1 = new Float64Array(n);
  const z2 = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    z1[i] = exact ? 2 ** i : mix(i * 2 + 1);
    z2[i] = exact ? 0 : mix(i * 2 + 2);
  }
  const words = bitset ? new Uint32Array((n + 31) >>> 5) : null;
  const memo = new Memo(words === null ? 0 : words.length);
  let h1 = 0;
  let h2 = 0;
  // Dominance mode: the completed operations as a bitset (hashed by h1/h2), the pending ones apart.
  const pendingIndex = new Int32Array(n).fill(-1);
  let pendingCount = 0;
  for (let i = 0; i < n; i++) if (hasRet[i] === 0) pendingIndex[i] = pendingCount++;
  const cwords = new Uint32Array((n + 31) >>> 5);
  const pwords = new Uint32Array(Math.max(1, (pendingCount + 31) >>> 5));
  const dmemo = dominance ? new DominanceMemo(cwords.length, pwords.length) : null;
  const toggle = (c: number): void => {
    const p = pendingIndex[c];
    if (p === -1) {
      cwords[c >>> 5] ^= 1 << (c & 31);
      h1 ^= z1[c];
      h2 ^= z2[c];
    } else pwords[p >>> 5] ^= 1 << (p & 31);
  };

  // Interned states and the remembered transitions: (state id * n + op) → next state id, or -1.
  const stateIds = new Map<string | number, number>();
  const states: S[] = [];
  const intern = (s: S): number => {
    const k = model.key(s);
    let id = stateIds.get(k);
    if (id === undefined) {
      id = states.length;
      stateIds.set(k, id);
      states.push(s);
    }
    return id;
  };
  const transitions = new Map<number, number>();
  const tries: number[][] | null = options.recordTries ? ops.map(() => []) : null;
  const stepFrom = (sid: number, e: number): number => {
    const k = sid * n + e;
    const known = transitions.get(k);
    if (known !== undefined) return known;
    if (tries !== null) tries[e].push(sid);
    const s = model.step(states[sid], ops[e].input);
    const to = s === null ? -1 : intern(s);
    transitions.set(k, to);
    return to;
  };

  const stackCall: number[] = [];
  const stackState: number[] = [];
  let state = intern(model.init());
  let remaining = completed;
  let best = 0;
  const progress = budget.progress;
  let e = next[HEAD];
  let reach = -Infinity;
  const keepBest = options.keepBest === true;
  let bestReturn = -Infinity;
  let stuck = -1;
  let bestOrder: number[] = [];
  let bestStates: number[] = [];
  while (remaining > 0) {
    budget.steps--;
    if (outOfBudget(budget)) return UNKNOWN;
    if (progress !== undefined && (budget.steps & 4095) === 0) progress(best, completed);
    if (e < 2 * n && time[e] > reach) reach = time[e];
    if (keepBest && e >= n && e < 2 * n && time[e] > bestReturn) {
      bestReturn = time[e];
      stuck = e - n;
      bestOrder = [...stackCall];
      bestStates = [...stackState.slice(1), state];
    }
    if (e < n) {
      const to = before[e] !== -1 && linearized[before[e]] === 0 ? -1 : stepFrom(state, e);
      if (to !== -1 && dmemo !== null) {
        toggle(e);
        const fresh = dmemo.visit(to, h1, h2, cwords, pwords, dmemo.size >= MAX_MEMO);
        if (fresh === 'full') return UNKNOWN;
        if (fresh) {
          stackCall.push(e);
          stackState.push(state);
          state = to;
          linearized[e] = 1;
          lift(e);
          if (hasRet[e] === 1) {
            remaining--;
            if (completed - remaining > best) best = completed - remaining;
          }
          e = next[HEAD];
          continue;
        }
        toggle(e);
      } else if (to !== -1) {
        h1 = exact ? h1 + z1[e] : h1 ^ z1[e];
        h2 ^= z2[e];
        if (words !== null) words[e >>> 5] ^= 1 << (e & 31);
        const slot = memo.find(to, h1, h2, words);
        if (slot !== -1) {
          // Memory is bounded too: past the cap the search says unknown rather than grow.
          if (memo.size >= MAX_MEMO) return UNKNOWN;
          memo.insert(slot, to, h1, h2, words);
          stackCall.push(e);
          stackState.push(state);
          state = to;
          linearized[e] = 1;
          lift(e);
          if (hasRet[e] === 1) {
            remaining--;
            if (completed - remaining > best) best = completed - remaining;
          }
          e = next[HEAD];
          continue;
        }
        h1 = exact ? h1 - z1[e] : h1 ^ z1[e];
        h2 ^= z2[e];
        if (words !== null) words[e >>> 5] ^= 1 << (e & 31);
      }
      e = next[e];
    } else {
      // A return (or the end, which only pending calls precede) with its operation not yet
      // linearized: undo the most recent choice and try the next call after it.
      if (stackCall.length === 0) {
        return {
          result: 'fail',
          reach,
          ...(tries !== null ? { tries: tries.map((list) => list.map((s) => states[s])) } : {}),
          ...(keepBest ? { stuck, best: { order: bestOrder, states: bestStates.map((s) => states[s]) } } : {}),
        };
      }
      const c = stackCall.pop() as number;
      state = stackState.pop() as number;
      if (dmemo !== null) toggle(c);
      else {
        h1 = exact ? h1 - z1[c] : h1 ^ z1[c];
        h2 ^= z2[c];
        if (words !== null) words[c >>> 5] ^= 1 << (c & 31);
      }
      linearized[c] = 0;
      unlift(c);
      if (hasRet[c] === 1) remaining++;
      e = next[c];
    }
  }
  const after: S[] = [];
  for (let i = 1; i < stackState.length; i++) after.push(states[stackState[i]]);
  after.push(states[state]);
  return { result: 'ok', order: [...stackCall], states: after };
}
