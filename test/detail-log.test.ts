// The compact detail log (src/sim/model/detailLog.ts): whatever is recorded reads back as the same
// record, field for field and key for key, however it was coded (small whole numbers, numbers it
// must keep as objects, ids, other strings, objects by identity), across block boundaries, after
// trimming, and in a checkpoint's copy that goes on differently from the original.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepClone } from '../src/sim/model/clone';
import { DETAIL_BLOCK, DetailLog } from '../src/sim/model/detailLog';
import type { DetailBody, DetailEvent } from '../src/sim/model/events';
import type { ApplyResult, Command } from '../src/sim/model/types';
import { appendAcceptedBody, appliedBody, commitAdvancedBody, leaderAppendBody } from '../src/sim/model/hotDetails';

/** The record the engine's objects would have made: the same fields in the same order. */
const expected = (body: DetailBody, t: number, afterEvent: number): DetailEvent =>
  ({ kind: body.kind, subjects: [...body.subjects], values: { ...body.values }, lines: [...body.lines], t, afterEvent }) as DetailEvent;

/** Equal values and equal key order everywhere, -0 and NaN included (toEqual alone ignores key order). */
function expectSame(actual: readonly DetailEvent[], wanted: readonly DetailEvent[], identity = true): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < wanted.length; i++) {
    expect(Object.keys(actual[i])).toEqual(Object.keys(wanted[i]));
    expect(Object.keys(actual[i].values)).toEqual(Object.keys(wanted[i].values));
    expect(actual[i]).toEqual(wanted[i]);
    const values = actual[i].values as Record<string, unknown>;
    for (const [key, value] of Object.entries(wanted[i].values)) {
      // Objects are kept by identity, numbers exactly (Object.is tells -0 from 0).
      if (identity || typeof value !== 'object' || value === null) expect(Object.is(values[key], value)).toBe(true);
    }
  }
}

const command: Command = { type: 'put', key: 'x', value: '1', client: 'A', requestId: 1 };
const result: ApplyResult = { type: 'Granted', token: 3 };
const oddValues: unknown[] = [
  0,
  -0,
  1,
  -1,
  0x07ffffff,
  -0x07ffffff,
  0x08000000,
  2 ** 31,
  -(2 ** 40),
  1.5,
  NaN,
  Infinity,
  'n1',
  'not an id',
  null,
  undefined,
  true,
  false,
  command,
  [1, 2],
];

/** A mix of kinds with fixed and odd values, like the engine's. */
const someBody = fc.oneof(
  fc
    .record({ node: fc.constantFrom('n1', 'n2', 'n3'), value: fc.constantFrom(...oddValues), n: fc.integer({ min: -5, max: 100_000 }) })
    .map(
      ({ node, value, n }): DetailBody =>
        ({
          kind: 'truncated',
          subjects: [node],
          values: { node, from: n, removed: value },
          lines: ['ae.truncate'],
        }) as unknown as DetailBody,
    ),
  fc.record({ a: fc.constantFrom('n1', 'n2', 'A'), b: fc.constantFrom('n1', 'n4', 'B'), reason: fc.constantFrom('loss', 'partition') }).map(
    ({ a, b, reason }): DetailBody =>
      ({
        kind: 'dropped',
        subjects: [a, b],
        values: { src: a, dst: b, reason },
        lines: ['net.drop', 'net.drop.why'],
      }) as unknown as DetailBody,
  ),
  fc
    .record({ node: fc.constantFrom('n1', 'n2'), term: fc.integer({ min: 0, max: 40 }), index: fc.integer({ min: 1, max: 5000 }) })
    .map(({ node, term, index }) => leaderAppendBody(node, term, index, command, index % 7 === 0)),
  fc
    .record({
      node: fc.constantFrom('n2', 'n3'),
      index: fc.integer({ min: 1, max: 5000 }),
      result: fc.constantFrom(null, { type: 'Released' } as const),
    })
    .map(({ node, index, result }) => appliedBody(node, index, 3, 'x=1', result)),
);

const run = fc.array(fc.tuple(someBody, fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 50 })), {
  minLength: 1,
  maxLength: 3 * DETAIL_BLOCK + 10,
});

/** Pushes `steps`, times and event positions never going back, as the engine's do. */
function record(log: DetailLog, steps: readonly [DetailBody, number, number][], t0 = 0, e0 = 0): DetailEvent[] {
  const out: DetailEvent[] = [];
  let t = t0;
  let e = e0;
  for (const [body, dt, de] of steps) {
    t += dt;
    e += de;
    log.push(body, t, e);
    out.push(expected(body, t, e));
  }
  return out;
}

describe('the detail log', () => {
  it('reads back every detail as recorded, in order and one by one, across blocks (fast-check)', () => {
    fc.assert(
      fc.property(run, (steps) => {
        const log = new DetailLog();
        const wanted = record(log, steps);
        expect(log.count).toBe(wanted.length);
        expectSame(log.toArray(), wanted);
        // Out of order, one at a time: each read decodes on its own.
        for (const i of [wanted.length - 1, 0, wanted.length >> 1]) expectSame([log.at(i)], [wanted[i]]);
        expectSame(log.slice(3, DETAIL_BLOCK + 5), wanted.slice(3, DETAIL_BLOCK + 5));
      }),
      { numRuns: 60 },
    );
  });

  it('a time or index beyond the small whole numbers, -0 and fractions are kept exactly', () => {
    const log = new DetailLog();
    const bodies = oddValues.map((v) => leaderAppendBody('n1', 2, v as number, command, false));
    const times = [0, 5, 0x07ffffff, 2 ** 31, 2 ** 31 + 1];
    const wanted: DetailEvent[] = [];
    for (const t of times) {
      for (const body of bodies) {
        log.push(body, t, 7);
        wanted.push(expected(body, t, 7));
        log.leaderAppended('n1', 2, 9, command, true, t, 7);
        wanted.push(expected(leaderAppendBody('n1', 2, 9, command, true), t, 7));
      }
    }
    // A block that starts at a time beyond them, then a time that goes back (no run does; the codes must not care).
    while (log.count % DETAIL_BLOCK !== 0) {
      log.leaderAppended('n1', 2, 9, command, false, 1, 7);
      wanted.push(expected(leaderAppendBody('n1', 2, 9, command, false), 1, 7));
    }
    for (const [t, e] of [
      [2 ** 31, 2 ** 40],
      [5, 6],
    ]) {
      log.leaderAppended('n1', 2, 9, command, false, t, e);
      wanted.push(expected(leaderAppendBody('n1', 2, 9, command, false), t, e));
    }
    expectSame(log.toArray(), wanted);
  });

  it('the hot kinds written without a body read as their bodies would', () => {
    const viaBodies = new DetailLog();
    const direct = new DetailLog();
    for (let i = 0; i < 2 * DETAIL_BLOCK + 3; i++) {
      const t = 10 * i;
      const index = 1000 + i;
      const rule = i % 3 === 0 ? 'majority' : i % 3 === 1 ? 'earlier-term-by-counting' : 'leader-commit';
      const follower = rule === 'leader-commit';
      const commit = [
        `n${1 + (i % 5)}`,
        index - 1,
        index,
        4,
        rule,
        follower ? null : 3,
        follower ? null : 3,
        follower ? 'n1' : null,
        follower ? index + 2 : null,
        !follower && i % 2 === 0,
      ] as const;
      viaBodies.push(leaderAppendBody('n1', 4, index, command, i % 11 === 0), t, i);
      direct.leaderAppended('n1', 4, index, command, i % 11 === 0, t, i);
      viaBodies.push(appendAcceptedBody('n2', 'n1', 4, index, index + (i % 3), i % 3), t, i);
      direct.appendAccepted('n2', 'n1', 4, index, index + (i % 3), i % 3, t, i);
      viaBodies.push(commitAdvancedBody(...commit), t, i);
      direct.commitAdvanced(...commit, t, i);
      viaBodies.push(appliedBody('n3', index, 4, command, i % 2 ? null : result), t, i);
      direct.applied('n3', index, 4, command, i % 2 ? null : result, t, i);
    }
    expectSame(direct.toArray(), viaBodies.toArray());
  });

  it('a reader that read part of a block before it filled sees the next block right (the page reads as the run goes)', () => {
    fc.assert(
      fc.property(run, run, fc.array(fc.nat(), { maxLength: 8 }), (first, then, reads) => {
        const log = new DetailLog();
        const wanted = record(log, first);
        // Reads at some points, the way a snapshot reads what is new, then the run goes on.
        for (const r of reads) log.since(r % (wanted.length + 1));
        const last = wanted.length > 0 ? wanted[wanted.length - 1] : { t: 0, afterEvent: 0 };
        const more = record(log, then, last.t, last.afterEvent);
        expectSame(log.toArray(), [...wanted, ...more]);
      }),
      { numRuns: 80 },
    );
    // The case itself: a block filled, its start read, and the next detail (a generic one) begins a block.
    const log = new DetailLog();
    const body = (i: number) =>
      ({ kind: 'dropped', subjects: ['n1', 'n2'], values: { src: 'n1', dst: 'n2', n: i }, lines: ['net.drop'] }) as unknown as DetailBody;
    const wanted: DetailEvent[] = [];
    for (let i = 0; i < DETAIL_BLOCK; i++) {
      if (i === DETAIL_BLOCK - 5) log.since(0);
      log.push(body(i), i, i);
      wanted.push(expected(body(i), i, i));
    }
    log.push(body(-7), 999, 999);
    wanted.push(expected(body(-7), 999, 999));
    expectSame(log.toArray(), wanted);
  });

  it('a limit keeps at least the newest `limit` and at most twice, and counts the trimmed', () => {
    fc.assert(
      fc.property(run, fc.integer({ min: 1, max: 2 * DETAIL_BLOCK }), (steps, limit) => {
        const log = new DetailLog();
        log.limit = limit;
        const wanted = record(log, steps);
        expect(log.count).toBe(wanted.length);
        expect(log.length).toBeGreaterThanOrEqual(Math.min(limit, wanted.length));
        expect(log.length).toBeLessThanOrEqual(2 * limit);
        expect(log.base + log.length).toBe(wanted.length);
        expectSame(log.toArray(), wanted.slice(log.base));
        expectSame(log.since(log.base + 1), wanted.slice(log.base + 1));
      }),
      { numRuns: 40 },
    );
  });

  it("a checkpoint's copy and the original go on apart, each reading its own details", () => {
    fc.assert(
      fc.property(run, run, run, (first, mine, theirs) => {
        const log = new DetailLog();
        const common = record(log, first);
        // Read part of the newest block first, as the page does, so the copy carries read records too.
        log.since(Math.max(0, common.length - 3));
        const copy = deepClone(log);
        const last = common.length > 0 ? common[common.length - 1] : { t: 0, afterEvent: 0 };
        const a = record(log, mine, last.t, last.afterEvent);
        const b = record(copy, theirs, last.t, last.afterEvent);
        expectSame(log.toArray(), [...common, ...a]);
        // The copy holds copies of the objects (deepClone copies what is not frozen, the engine's too).
        expectSame(copy.toArray(), [...common, ...b], false);
      }),
      { numRuns: 30 },
    );
  });
});
