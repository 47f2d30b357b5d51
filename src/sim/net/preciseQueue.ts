/**
 * The messages in flight of a run with sub-millisecond latencies (docs/semantics.md, "Time"):
 * each message is due at a whole number of microseconds, and leaves in (due µs, seq) order, so a
 * reply can overtake a message that left earlier by less than a millisecond, exactly as it would
 * on the wire. A binary heap rather than the calendar queue: a ring of one bucket per microsecond
 * would have to span a whole latency range (150,000 buckets for a 150 ms link) and be scanned
 * bucket by bucket between deliveries.
 *
 * The surface is the calendar queue's (MessageQueue), so the cluster drives both alike: an
 * envelope's `deliverAt` and `sentAt` are in ms (µs / 1000, exact for every whole µs below 2^53),
 * and `peekDeliverAt()` answers the millisecond step in which the head is delivered (the first
 * whole ms at or after it), which is what the cluster's step loop and its quiet-time skipping ask.
 */
import type { Envelope, Message } from '../model/types';

type MutableEnvelope = { -readonly [K in keyof Envelope]: Envelope[K] };

export class PreciseQueue {
  /** The heap: envelopes and their due times in µs, kept side by side. */
  private envs: MutableEnvelope[] = [];
  private keys: number[] = [];
  private itemsCache: Envelope[] | null = null;
  private readonly pool: MutableEnvelope[] = [];

  get size(): number {
    return this.envs.length;
  }

  /** Copies of the messages in flight, in delivery order. */
  get items(): readonly Envelope[] {
    if (this.itemsCache === null) {
      const order = this.envs.map((env, i) => ({ env, key: this.keys[i] }));
      order.sort((a, b) => a.key - b.key || a.env.seq - b.env.seq);
      this.itemsCache = order.map(({ env }) => ({ ...env }));
    }
    return this.itemsCache;
  }

  /** The millisecond step that delivers the head (Infinity when empty). */
  peekDeliverAt(): number {
    return this.envs.length === 0 ? Infinity : Math.ceil(this.keys[0] / 1000);
  }

  /** The head's due time in µs (Infinity when empty). */
  peekDueUs(): number {
    return this.envs.length === 0 ? Infinity : this.keys[0];
  }

  /** Queues a message due at `deliverAt` ms (a whole number of µs). */
  enqueue(deliverAt: number, seq: number, sentAt: number, src: string, dst: string, payload: Message, lost: boolean): void {
    const env = this.pool.pop();
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

  release(env: Envelope): void {
    if (this.pool.length < 4096) this.pool.push(env as MutableEnvelope);
  }

  push(env: Envelope): void {
    const key = Math.round(env.deliverAt * 1000);
    if (!Number.isSafeInteger(key) || Math.abs(key - env.deliverAt * 1000) > 1e-6) {
      throw new RangeError(`deliverAt must be a whole number of microseconds, not ${env.deliverAt} ms`);
    }
    const envs = this.envs;
    const keys = this.keys;
    let i = envs.length;
    envs.push(env as MutableEnvelope);
    keys.push(key);
    // Sift up by (key, seq).
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] < key || (keys[parent] === key && envs[parent].seq < env.seq)) break;
      envs[i] = envs[parent];
      keys[i] = keys[parent];
      i = parent;
    }
    envs[i] = env as MutableEnvelope;
    keys[i] = key;
    this.itemsCache = null;
  }

  pop(): Envelope | undefined {
    const envs = this.envs;
    const keys = this.keys;
    const n = envs.length;
    if (n === 0) return undefined;
    const top = envs[0];
    const lastEnv = envs.pop() as MutableEnvelope;
    const lastKey = keys.pop() as number;
    if (n > 1) {
      // Sift the last element down from the root.
      let i = 0;
      const size = n - 1;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        let c = l;
        if (r < size && (keys[r] < keys[l] || (keys[r] === keys[l] && envs[r].seq < envs[l].seq))) c = r;
        if (lastKey < keys[c] || (lastKey === keys[c] && lastEnv.seq < envs[c].seq)) break;
        envs[i] = envs[c];
        keys[i] = keys[c];
        i = c;
      }
      envs[i] = lastEnv;
      keys[i] = lastKey;
    }
    this.itemsCache = null;
    return top;
  }

  clear(): void {
    this.envs = [];
    this.keys = [];
    this.itemsCache = null;
  }
}
