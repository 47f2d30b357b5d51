/** A binary min-heap of envelopes ordered by (deliverAt, seq), like the chapter's heapq. */
import type { Envelope } from './types';

export class MessageQueue {
  private readonly heap: Envelope[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** The messages in flight, in heap order (not sorted); for snapshots and invariants. */
  get items(): readonly Envelope[] {
    return this.heap;
  }

  peekDeliverAt(): number {
    return this.heap.length > 0 ? this.heap[0].deliverAt : Infinity;
  }

  push(env: Envelope): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(env);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (p.deliverAt < env.deliverAt || (p.deliverAt === env.deliverAt && p.seq < env.seq)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = env;
  }

  pop(): Envelope | undefined {
    const heap = this.heap;
    const n = heap.length;
    if (n === 0) return undefined;
    const top = heap[0];
    const last = heap.pop() as Envelope;
    if (n > 1) {
      let i = 0;
      const size = n - 1;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        let c = l;
        if (r < size && less(heap[r], heap[l])) c = r;
        if (!less(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  clear(): void {
    this.heap.length = 0;
  }
}

function less(a: Envelope, b: Envelope): boolean {
  return a.deliverAt < b.deliverAt || (a.deliverAt === b.deliverAt && a.seq < b.seq);
}
