/** The experiments' measures on hand-built observation sequences: each definition, its edge cases and its nulls. */
import { describe, expect, it } from 'vitest';
import {
  availability,
  commitLatencies,
  commitLatencyPercentile,
  electionsToStableLeader,
  failoverMs,
  fencedRejections,
  messagesPerCommittedEntry,
  splitVoteRate,
  staleWritesAccepted,
  termsToStableLeader,
} from '../src/sim/experiments/measures';
import type { Observation, RunRecord } from '../src/sim/experiments/observations';
import { percentileRank, quantile, summarize } from '../src/sim/experiments/stats';

const NODES = ['n1', 'n2', 'n3', 'n4', 'n5'];
const rec = (observations: Observation[], endMs = 2000, messages = 0): RunRecord => ({ nodeIds: NODES, endMs, messages, observations });

const elect = (t: number, node: string, term: number): Observation[] => [
  { t: t - 20, kind: 'election', node, term },
  { t, kind: 'leader', node, term },
];

describe('failover time', () => {
  it('is the time from the leader crash to the next leader of a later term (the chapter: 1168 to 1360)', () => {
    const r = rec([...elect(300, 'n2', 1), { t: 1168, kind: 'crash', node: 'n2' }, ...elect(1360, 'n3', 2)]);
    expect(failoverMs(r)).toBe(192);
  });

  it('ignores a follower crash and measures the later leader crash', () => {
    const r = rec([
      ...elect(300, 'n2', 1),
      { t: 800, kind: 'crash', node: 'n4' },
      { t: 1000, kind: 'crash', node: 'n2' },
      ...elect(1250, 'n1', 2),
    ]);
    expect(failoverMs(r)).toBe(250);
  });

  it('counts a partition that leaves the leader without a majority as losing it', () => {
    const r = rec([
      ...elect(300, 'n1', 1),
      {
        t: 1000,
        kind: 'partition',
        groups: [
          ['n1', 'n2'],
          ['n3', 'n4', 'n5'],
        ],
      },
      ...elect(1210, 'n4', 2),
    ]);
    expect(failoverMs(r)).toBe(210);
  });

  it('does not count a partition whose majority side keeps the leader', () => {
    const r = rec([
      ...elect(300, 'n1', 1),
      {
        t: 1000,
        kind: 'partition',
        groups: [
          ['n1', 'n2', 'n3'],
          ['n4', 'n5'],
        ],
      },
    ]);
    expect(failoverMs(r)).toBeNull();
  });

  it('is null when no new leader comes, or no leader was lost', () => {
    expect(failoverMs(rec([...elect(300, 'n2', 1), { t: 1168, kind: 'crash', node: 'n2' }]))).toBeNull();
    expect(failoverMs(rec(elect(300, 'n2', 1)))).toBeNull();
  });
});

describe('elections and terms until a stable leader', () => {
  it('counts candidacies up to the stable leader, past a leader that was displaced', () => {
    const r = rec([
      ...elect(300, 'n1', 1),
      { t: 1000, kind: 'crash', node: 'n1' },
      { t: 1150, kind: 'election', node: 'n2', term: 2 },
      { t: 1151, kind: 'election', node: 'n3', term: 2 },
      // Term 2 splits; term 3 elects n4, which crashes; term 4 elects n5 for good.
      ...elect(1400, 'n4', 3),
      { t: 1500, kind: 'crash', node: 'n4' },
      ...elect(1700, 'n5', 4),
    ]);
    expect(electionsToStableLeader(r)).toBe(4);
    expect(termsToStableLeader(r)).toBe(3);
    expect(failoverMs(r)).toBe(400);
  });

  it('is null when the last leader steps down before the end', () => {
    const r = rec([
      ...elect(300, 'n1', 1),
      { t: 1000, kind: 'crash', node: 'n1' },
      ...elect(1200, 'n2', 2),
      { t: 1500, kind: 'step-down', node: 'n2' },
    ]);
    expect(electionsToStableLeader(r)).toBeNull();
  });
});

describe('split-vote rate', () => {
  it('is the fraction of campaigned terms that elected nobody', () => {
    const r = rec([
      { t: 150, kind: 'election', node: 'n1', term: 1 },
      { t: 151, kind: 'election', node: 'n2', term: 1 },
      { t: 400, kind: 'election', node: 'n3', term: 2 },
      { t: 401, kind: 'election', node: 'n4', term: 2 },
      ...elect(700, 'n5', 3),
      { t: 1200, kind: 'election', node: 'n1', term: 4 },
      { t: 1220, kind: 'leader', node: 'n1', term: 4 },
    ]);
    expect(splitVoteRate(r)).toBeCloseTo(2 / 4);
  });

  it('leaves out a last term still voting when the run ends', () => {
    const r = rec([...elect(300, 'n1', 1), { t: 1900, kind: 'election', node: 'n2', term: 2 }]);
    expect(splitVoteRate(r)).toBe(0);
    expect(splitVoteRate(rec([]))).toBeNull();
  });
});

describe('commit latency', () => {
  it('runs from the leader append to the same leader counting a majority, per entry', () => {
    const r = rec([
      ...elect(300, 'n1', 1),
      { t: 1000, kind: 'append', node: 'n1', term: 1, index: 1 },
      { t: 1005, kind: 'append', node: 'n1', term: 1, index: 2 },
      { t: 1012, kind: 'commit', node: 'n1', term: 1, index: 1 },
      { t: 1020, kind: 'commit', node: 'n1', term: 1, index: 2 },
      // A later leader's commit of index 3 is not the commit of n1's entry 3.
      { t: 1100, kind: 'append', node: 'n1', term: 1, index: 3 },
      { t: 1300, kind: 'commit', node: 'n2', term: 2, index: 3 },
    ]);
    expect(commitLatencies(r).sort((a, b) => a - b)).toEqual([12, 15]);
    expect(commitLatencyPercentile(r, 0.5)).toBe(13.5);
  });

  it('one commit covers every earlier entry of that leader', () => {
    const r = rec([
      { t: 10, kind: 'append', node: 'n1', term: 1, index: 1 },
      { t: 20, kind: 'append', node: 'n1', term: 1, index: 2 },
      { t: 30, kind: 'commit', node: 'n1', term: 1, index: 2 },
    ]);
    expect(commitLatencies(r).sort((a, b) => a - b)).toEqual([10, 20]);
    expect(commitLatencyPercentile(rec([]), 0.5)).toBeNull();
  });
});

describe('messages per committed entry', () => {
  it('divides the messages sent by the highest index committed', () => {
    const r = rec([{ t: 30, kind: 'commit', node: 'n1', term: 1, index: 4 }], 2000, 100);
    expect(messagesPerCommittedEntry(r)).toBe(25);
    expect(messagesPerCommittedEntry(rec([], 2000, 100))).toBeNull();
  });
});

describe('availability', () => {
  it('is the time with a leader that can commit, from the leader loss to the end', () => {
    // Lost at 1000, new leader at 1200, run ends at 2000: 800 of 1000 ms.
    const r = rec([...elect(300, 'n1', 1), { t: 1000, kind: 'crash', node: 'n1' }, ...elect(1200, 'n2', 2)], 2000);
    expect(availability(r)).toBeCloseTo(0.8);
  });

  it('a leader cut off from a majority cannot commit, even while it still leads; healing gives it back', () => {
    const r = rec(
      [
        ...elect(100, 'n1', 1),
        { t: 1000, kind: 'partition', groups: [['n1'], ['n2', 'n3', 'n4', 'n5']] },
        ...elect(1300, 'n2', 2),
        { t: 1500, kind: 'heal' },
        { t: 1510, kind: 'step-down', node: 'n1' },
      ],
      2000,
    );
    expect(availability(r)).toBeCloseTo(0.7);
  });

  it('with three of five nodes down a leader cannot commit', () => {
    const r = rec(
      [
        ...elect(100, 'n1', 1),
        { t: 500, kind: 'crash', node: 'n2' },
        { t: 600, kind: 'crash', node: 'n3' },
        { t: 1100, kind: 'crash', node: 'n4' },
      ],
      2100,
    );
    // Counted from the first leader (no leader was lost): up from 100 to 1100 of 2000 ms.
    expect(availability(r)).toBeCloseTo(0.5);
  });
});

describe('stale writes and fenced rejections', () => {
  const write = (t: number, store: 'fenced' | 'unfenced', client: string, token: number | null, accepted: boolean): Observation => ({
    t,
    kind: 'store-write',
    store,
    client,
    key: 'result',
    token,
    accepted,
  });

  it('a write with an older token than one the store already saw is stale; the fenced store refuses it', () => {
    const r = rec([
      write(1010, 'fenced', 'A', 1, true),
      write(1011, 'unfenced', 'A', 1, true),
      write(3150, 'fenced', 'B', 2, true),
      write(3152, 'unfenced', 'B', 2, true),
      write(3300, 'unfenced', 'A', 1, true),
      write(3301, 'fenced', 'A', 1, false),
    ]);
    expect(staleWritesAccepted(r, 'unfenced')).toBe(1);
    expect(staleWritesAccepted(r, 'fenced')).toBe(0);
    expect(fencedRejections(r)).toBe(1);
  });

  it('a late write that lands before the new holder writes overwrites nobody', () => {
    const r = rec([write(1010, 'unfenced', 'A', 1, true), write(3100, 'unfenced', 'A', 1, true), write(3150, 'unfenced', 'B', 2, true)]);
    expect(staleWritesAccepted(r, 'unfenced')).toBe(0);
  });
});

describe('statistics', () => {
  it('quantiles interpolate like d3.quantile; the percentile rank counts ties by half', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10], 0.95)).toBe(10);
    expect(percentileRank([100, 150, 192, 192, 300], 192)).toBe(60);
    const s = summarize([3, null, 1, 2]);
    expect([s.n, s.missing, s.p50, s.min, s.max]).toEqual([3, 1, 2, 1, 3]);
  });
});
