/**
 * CPython-compatible Mersenne Twister (MT19937), so that `new CPythonRandom(42)` draws exactly
 * what `random.Random(42)` draws in CPython 3.11. The chapter's reference simulation takes
 * every election timeout and every message latency from one such stream; matching it draw for
 * draw is what makes seed 42 print the chapter's timeline line for line.
 */

const N = 624;
const M = 397;
// The state lives in an Int32Array and these constants are int32 (same bits as CPython's
// uint32 words), so the twist and the tempering stay in int32 arithmetic: no float conversions.
const MATRIX_A = 0x9908b0df | 0;
const UPPER_MASK = 0x80000000 | 0;
const LOWER_MASK = 0x7fffffff;

/** A seed: any non-negative integer. Seeds past 2^53 must be given as a bigint (or a decimal string). */
export type Seed = number | bigint | string;

/** Parses a seed value; returns an error sentence for anything that is not a non-negative integer. */
export function parseSeed(value: Seed): bigint | string {
  if (typeof value === 'bigint') return value >= 0n ? value : 'a seed must be a non-negative integer';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return 'a seed must be a non-negative integer (use a decimal string for seeds past 2^53)';
    }
    return BigInt(value);
  }
  if (!/^\d{1,200}$/.test(value)) return `seed "${value}" is not a non-negative integer`;
  return BigInt(value);
}

/**
 * A seed read from text (a flag, a link, a form field) in its one normal form: a number while it
 * is a safe integer, else a bigint, so that every edge builds the same `SimConfig` from the same
 * text. Null when the text is not a non-negative integer.
 */
export function seedFromText(text: string): number | bigint | null {
  const parsed = parseSeed(text.trim());
  if (typeof parsed === 'string') return null;
  return parsed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(parsed) : parsed;
}

export class CPythonRandom {
  private readonly mt = new Int32Array(N);
  private mti = N + 1;

  constructor(seed: Seed) {
    const parsed = parseSeed(seed);
    if (typeof parsed === 'string') throw new RangeError(parsed);
    this.initByArray(seedToKey(parsed));
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      // 1812433253 * prev + i, in 32-bit arithmetic.
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: Uint32Array): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    const keyLength = key.length;
    for (let k = N > keyLength ? N : keyLength; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= keyLength) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = UPPER_MASK; // MSB is 1, assuring a non-zero initial array
  }

  private twist(): void {
    // Constants as locals: module-level consts are context slots that optimized code reloads and
    // re-checks on every iteration; locals are folded into the loop.
    const mt = this.mt;
    const upper = UPPER_MASK;
    const lower = LOWER_MASK;
    const matrix = MATRIX_A;
    const n = N;
    const m = M;
    let kk = 0;
    let y: number;
    for (; kk < n - m; kk++) {
      y = (mt[kk] & upper) | (mt[kk + 1] & lower);
      mt[kk] = mt[kk + m] ^ (y >>> 1) ^ (-(y & 1) & matrix);
    }
    for (; kk < n - 1; kk++) {
      y = (mt[kk] & upper) | (mt[kk + 1] & lower);
      mt[kk] = mt[kk + (m - n)] ^ (y >>> 1) ^ (-(y & 1) & matrix);
    }
    y = (mt[n - 1] & upper) | (mt[0] & lower);
    mt[n - 1] = mt[m - 1] ^ (y >>> 1) ^ (-(y & 1) & matrix);
    this.mti = 0;
  }

  /** CPython's genrand_uint32: the next tempered 32-bit word. */
  nextUint32(): number {
    if (this.mti >= 624) this.twist(); // N, as a literal for the same reason as in twist()
    let y = this.mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & -1658038656; // TEMPER_B (0x9d2c5680) as int32
    y ^= (y << 15) & -272236544; // TEMPER_C (0xefc60000) as int32
    y ^= y >>> 18;
    return y >>> 0;
  }

  /**
   * `random.getrandbits(k)` for 0 <= k <= 53, as a number. CPython fills 32-bit words from
   * least significant up, dropping the low bits of the last word.
   */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 53) throw new RangeError('getrandbits takes a bit count from 0 to 53');
    if (k === 0) return 0;
    if (k <= 32) return this.nextUint32() >>> (32 - k);
    const low = this.nextUint32();
    const high = this.nextUint32() >>> (64 - k);
    return high * 0x100000000 + low;
  }

  /** `random.randint(a, b)`: `a + randbelow(b - a + 1)` by getrandbits with rejection. */
  randint(a: number, b: number): number {
    const width = b - a + 1;
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(width) || width <= 0) {
      throw new RangeError(`empty or unsafe range for randint(${a}, ${b})`);
    }
    return a + this.randbelow(width);
  }

  /**
   * `randint(a, a + width - 1)` where `shift` = 32 - bitLength(width), for widths up to 2^32 - 1:
   * the same draws as `randint`, without recomputing the bit length on every call. Callers with a
   * fixed range (election timeouts, latencies) get both numbers once from `randintParams`.
   */
  randintShifted(a: number, width: number, shift: number): number {
    let r = this.nextUint32() >>> shift;
    while (r >= width) r = this.nextUint32() >>> shift;
    return a + r;
  }

  /** CPython 3.11 `_randbelow_with_getrandbits`: k is the bit length of n itself, so n = 1 draws too. */
  randbelow(n: number): number {
    const k = bitLength(n);
    if (k <= 32) {
      const shift = 32 - k;
      let r = this.nextUint32() >>> shift;
      while (r >= n) r = this.nextUint32() >>> shift;
      return r;
    }
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.random()`: a float in [0, 1) from 53 bits, as CPython builds it. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}

/** A fixed `randint(a, b)` range prepared for `randintShifted`, or null when it needs the general path. */
export interface RandintParams {
  readonly a: number;
  readonly width: number;
  readonly shift: number;
}

export function randintParams(a: number, b: number): RandintParams | null {
  const width = b - a + 1;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(width) || width <= 0 || width >= 0x100000000) return null;
  return { a, width, shift: 32 - bitLength(width) };
}

function bitLength(n: number): number {
  return n < 0x100000000 ? 32 - Math.clz32(n) : 32 + bitLength(Math.floor(n / 0x100000000));
}

/** The seed's absolute value as little-endian 32-bit words; zero is one zero word (CPython's `keyused`). */
function seedToKey(seed: bigint): Uint32Array {
  const words: number[] = [];
  let rest = seed;
  while (rest > 0n) {
    words.push(Number(rest & 0xffffffffn));
    rest >>= 32n;
  }
  if (words.length === 0) words.push(0);
  return Uint32Array.from(words);
}
