/**
 * The messages in flight, popped in (deliverAt, seq) order like the chapter's heapq.
 *
 * A calendar queue rather than a heap: every message is due within a latency range of the
 * present, so a ring of per-millisecond buckets holds them, bucket `deliverAt & mask`, each
 * bucket in seq order. Push and pop are O(1), which matters because every Raft message passes
 * through here once. The ring always spans every deliverAt in flight (it grows when a push
 * would not fit), so each bucket holds messages of exactly one deliverAt.
 */
import type { Envelope } from './types';

const INITIAL_RING = 64;

export class MessageQueue {
  private ring: Envelope[][];
  /** Read position of each bucket: entries before it are already popped. */
  private heads: number[];
  private mask: number;
  private count = 0;
  /** No message is due before this time (it is the earliest deliverAt once peek has run). */
  private cursor = 0;
  /** The latest deliverAt in flight. */
  private latest = -Infinity;
  private itemsCache: Envelope[] | null = null;

  constructor() {
    this.ring = [];
    this.heads = [];
    this.mask = 0;
    this.allocate(INITIAL_RING);
  }

  get size(): number {
    return this.count;
  }

  /** The messages in flight in delivery order; for snapshots and invariants. */
  get items(): readonly Envelope[] {
    if (this.itemsCache === null) {
      const out: Envelope[] = [];
      if (this.count > 0) {
        for (let t = this.cursor; t <= this.latest; t++) {
          const bucket = this.ring[t & this.mask];
          for (let i = this.heads[t & this.mask]; i < bucket.length; i++) out.push(bucket[i]);
        }
      }
      this.itemsCache = out;
    }
    return this.itemsCache;
  }

  peekDeliverAt(): number {
    if (this.count === 0) return Infinity;
    const ring = this.ring;
    const heads = this.heads;
    const mask = this.mask;
    let t = this.cursor;
    while (heads[t & mask] === ring[t & mask].length) t++;
    this.cursor = t;
    return t;
  }

  push(env: Envelope): void {
    const t = env.deliverAt;
    if (!Number.isSafeInteger(t)) throw new RangeError(`deliverAt must be a whole number of ms, not ${t}`);
    if (this.count === 0) {
      this.cursor = t;
      this.latest = t;
    } else {
      const low = t < this.cursor ? t : this.cursor;
      const high = t > this.latest ? t : this.latest;
      if (high - low > this.mask) this.grow(high - low + 1);
      this.cursor = low;
      this.latest = high;
    }
    const bucket = this.ring[t & this.mask];
    const n = bucket.length;
    if (n === this.heads[t & this.mask] || bucket[n - 1].seq < env.seq) {
      bucket.push(env);
    } else {
      // Out-of-order seq (never from Cluster, whose seq only grows): insert in place.
      let i = n;
      while (i > this.heads[t & this.mask] && bucket[i - 1].seq > env.seq) i--;
      bucket.splice(i, 0, env);
    }
    this.count++;
    this.itemsCache = null;
  }

  pop(): Envelope | undefined {
    if (this.count === 0) return undefined;
    const t = this.peekDeliverAt();
    const slot = t & this.mask;
    const bucket = this.ring[slot];
    const env = bucket[this.heads[slot]++];
    if (this.heads[slot] === bucket.length) {
      // Reuse the bucket's array: no allocation per millisecond.
      bucket.length = 0;
      this.heads[slot] = 0;
    }
    this.count--;
    this.itemsCache = null;
    return env;
  }

  clear(): void {
    for (let i = 0; i < this.ring.length; i++) {
      this.ring[i].length = 0;
      this.heads[i] = 0;
    }
    this.count = 0;
    this.cursor = 0;
    this.latest = -Infinity;
    this.itemsCache = null;
  }

  private allocate(size: number): void {
    this.ring = Array.from({ length: size }, () => []);
    this.heads = new Array<number>(size).fill(0);
    this.mask = size - 1;
  }

  /** Re-spread every message over a ring at least `span` buckets wide (a power of two). */
  private grow(span: number): void {
    this.itemsCache = null;
    const all = [...this.items];
    let size = this.ring.length;
    while (size < span) size *= 2;
    this.allocate(size);
    for (const env of all) this.ring[env.deliverAt & this.mask].push(env);
  }
}
