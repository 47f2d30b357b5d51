import { describe, expect, it } from 'vitest';
import { applyTraceDelta, emptyColumns, spliceColumns, type MessageColumns, type TraceDelta } from '../src/sim/view/traceColumns';

/** Rows with ids from `first`, sent at 10·id, ending 5 ms later (the last `open` rows still in flight). */
function rows(first: number, n: number, open = 0): MessageColumns {
  const c = emptyColumns(n) as { -readonly [K in keyof MessageColumns]: MessageColumns[K] };
  for (let i = 0; i < n; i++) {
    const id = first + i;
    c.id[i] = id;
    c.sentAt[i] = id * 10;
    c.endAt[i] = i >= n - open ? NaN : id * 10 + 5;
    c.fate[i] = i >= n - open ? 0 : 1;
    c.cause[i] = -1;
    (c.label as string[]).push(`m${id}`);
  }
  c.count = n;
  c.maxSpanMs = 5;
  return c;
}

const delta = (traceId: number, reset: boolean, fromRow: number, r: MessageColumns): TraceDelta => ({
  traceId,
  reset,
  untilMs: 1000,
  actors: { nodes: ['n1'], clients: [], stores: [] },
  actorIds: ['n1'],
  fromRow,
  rows: r,
  nodeSpans: [],
  clientSpans: [],
  partitions: [],
  leases: [],
  storeMarks: [],
});

describe('trace columns on the page', () => {
  it('appends rows and rewrites the rows whose fate was open', () => {
    let view = applyTraceDelta(null, delta(1, true, 0, rows(0, 5, 2)));
    expect(view.messages.count).toBe(5);
    expect(Number.isNaN(view.messages.endAt[4])).toBe(true);
    // The next post starts at the first open row (3) and brings their fates.
    view = applyTraceDelta(view, delta(1, false, 3, rows(3, 4)));
    expect(view.messages.count).toBe(7);
    expect([...view.messages.id.subarray(0, 7)]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(view.messages.endAt[4]).toBe(45);
    expect(view.messages.label.slice(0, 7)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('starts over on a new trace id, and grows past its capacity', () => {
    let view = applyTraceDelta(null, delta(1, true, 0, rows(0, 3)));
    view = applyTraceDelta(view, delta(2, false, 0, rows(0, 2000)));
    expect(view.traceId).toBe(2);
    expect(view.messages.count).toBe(2000);
    expect(view.messages.id[1999]).toBe(1999);
    expect(view.messages.label).toHaveLength(2000);
  });

  it('refuses rows that would leave a hole', () => {
    const held = spliceColumns(emptyColumns(), 0, rows(0, 3));
    expect(() => spliceColumns(held, 5, rows(5, 1))).toThrow(/cannot follow the 3 rows/);
  });
});
