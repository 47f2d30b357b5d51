/**
 * The messages in flight, popped in (deliverAt, seq) order like the chapter's heapq.
 *
 * A calendar queue rather than a heap: every message is due within a latency range of the
 * present, so a ring of per-millisecond buckets holds them, bucket `deliverAt & mask`, each
 * bucket in seq order. Push and pop are O(1), which matters because every Raft message passes
 * through here once. The ring always spans every deliverAt in flight (it grows when a push
 * would not fit), so each bucket holds messages of exactly one deliverAt.
 *
 * Envelopes made by `enqueue` are recycled once the cluster has delivered them (`release`):
 * one object per message in flight instead of one per message ever sent. They never leave the
 * queue: `items` hands out copies.
 */
import type { Envelope, Message } from '../model/types';

const INITIAL_RING = 64;

type MutableEnvelope = { -readonly [K in keyof Envelope]: Envelope[K] };

export class MessageQueue {
  private ring: (Envelope | undefined)[][];
  /** Read and write positions of each bucket; the bucket's array is reused, never shrunk. */
  private heads: Int32Array;
  private tails: Int32Array;
  private mask: number;
  private count = 0;
  /** No message is due before this time (it is the earliest deliverAt once peek has run). */
  private cursor = 0;
  /** The latest deliverAt in flight (meaningless while the queue is empty). */
  private latest = 0;
  private itemsCache: Envelope[] | null = null;
  /** The highest seq ever pushed. */
  private maxSeq = -1;
  /** Free envelopes: pool[0..poolSize) (indexed by hand: push/pop here were builtin calls). */
  private readonly pool: MutableEnvelope[] = [];
  private poolSize = 0;

  constructor() {
    this.ring = [];
    this.heads = new Int32Array(0);
    this.tails = new Int32Array(0);
    this.mask = 0;
    this.allocate(INITIAL_RING);
  }

  get size(): number {
    return this.count;
  }

  /** Copies of the messages in flight, in delivery order; for snapshots and invariants. */
  get items(): readonly Envelope[] {
    if (this.itemsCache === null) {
      const out: Envelope[] = [];
      if (this.count > 0) {
        for (let t = this.cursor; t <= this.latest; t++) {
          const slot = t & this.mask;
          const bucket = this.ring[slot];
          for (let i = this.heads[slot]; i < this.tails[slot]; i++) out.push({ ...(bucket[i] as Envelope) });
        }
      }
      this.itemsCache = out;
    }
    return this.itemsCache;
  }

  peekDeliverAt(): number {
    if (this.count === 0) return Infinity;
    const heads = this.heads;
    const tails = this.tails;
    const mask = this.mask;
    let t = this.cursor;
    while (heads[t & mask] === tails[t & mask]) t++;
    this.cursor = t;
    return t;
  }

  /** Queues a message in a recycled envelope when one is free (see `release`). */
  enqueue(deliverAt: number, seq: number, sentAt: number, src: string, dst: string, payload: Message, lost: boolean): void {
    const env = this.poolSize > 0 ? this.pool[--this.poolSize] : undefined;
    if (env === undefined) {
      this.push({ deliverAt, seq, sentAt, src, dst, payload, lost });
      return;
    }
    env.deliverAt = deliverAt;
    env.seq = seq;
    env.sentAt = sentAt;
    env.src = src;
    env.dst = dst;
    env.payload = payload;
    env.lost = lost;
    this.push(env);
  }

  /**
   * Hands back a popped envelope for reuse by `enqueue`. Only for envelopes nobody keeps: the
   * cluster releases each one right after delivering it.
   */
  release(env: Envelope): void {
    // Keep at most 4096 spares (a literal: a module const would be reloaded on every call).
    if (this.poolSize < 4096) this.pool[this.poolSize++] = env as MutableEnvelope;
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
    const slot = t & this.mask;
    const bucket = this.ring[slot];
    const n = this.tails[slot]++;
    // A seq above every one pushed before (always, from Cluster) goes last without looking.
    if (env.seq > this.maxSeq || n === this.heads[slot] || (bucket[n - 1] as Envelope).seq < env.seq) {
      bucket[n] = env;
      if (env.seq > this.maxSeq) this.maxSeq = env.seq;
    } else {
      // Out-of-order seq (never from Cluster, whose seq only grows): insert in place.
      let i = n;
      while (i > this.heads[slot] && (bucket[i - 1] as Envelope).seq > env.seq) {
        bucket[i] = bucket[i - 1];
        i--;
      }
      bucket[i] = env;
    }
    this.count++;
    this.itemsCache = null;
  }

  pop(): Envelope | undefined {
    if (this.count === 0) return undefined;
    const t = this.peekDeliverAt();
    const slot = t & this.mask;
    const bucket = this.ring[slot];
    const head = this.heads[slot];
    const env = bucket[head] as Envelope;
    bucket[head] = undefined; // let the envelope go
    if (head + 1 === this.tails[slot]) {
      this.heads[slot] = 0;
      this.tails[slot] = 0;
    } else {
      this.heads[slot] = head + 1;
    }
    this.count--;
    this.itemsCache = null;
    return env;
  }

  clear(): void {
    for (let i = 0; i < this.ring.length; i++) {
      this.ring[i].fill(undefined);
      this.heads[i] = 0;
      this.tails[i] = 0;
    }
    this.count = 0;
    this.cursor = 0;
    this.latest = 0;
    this.itemsCache = null;
  }

  private allocate(size: number): void {
    this.ring = Array.from({ length: size }, () => []);
    this.heads = new Int32Array(size);
    this.tails = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Re-spread every message over a ring at least `span` buckets wide (a power of two). */
  private grow(span: number): void {
    const all: Envelope[] = [];
    for (let t = this.cursor; t <= this.latest; t++) {
      const slot = t & this.mask;
      const bucket = this.ring[slot];
      for (let i = this.heads[slot]; i < this.tails[slot]; i++) all.push(bucket[i] as Envelope);
    }
    let size = this.ring.length;
    while (size < span) size *= 2;
    this.allocate(size);
    for (const env of all) {
      const slot = env.deliverAt & this.mask;
      this.ring[slot][this.tails[slot]++] = env;
    }
  }
}
