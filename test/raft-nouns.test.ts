// The nouns the Raft node stands on (after etcd-io/raft): the quorum that is the tree's only
// majority, one progress record per peer, and a log that knows its snapshot.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RaftLog } from '../src/sim/raft/log';
import { Progress } from '../src/sim/raft/progress';
import { majorityOf, majorityValue, Voters } from '../src/sim/raft/quorum';
import type { LogEntry, RaftSnapshot } from '../src/sim/model/types';
import { raftLogOf } from './helpers/raftLog';

const entries = (terms: readonly number[], from = 1): LogEntry[] => terms.map((term, i) => ({ term, command: `c${from + i}` }));
const snapshotAt = (index: number, term: number): RaftSnapshot => ({ index, term, state: null });

describe('quorum: a majority of a configuration’s voters', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 3],
    [5, 3],
    [9, 5],
  ])('%i voters need %i', (voters, majority) => {
    expect(majorityOf(voters)).toBe(majority);
    expect(new Voters(Array.from({ length: voters }, (_, i) => `n${i + 1}`)).majority).toBe(majority);
  });

  it('the committed value is the highest one a majority reached (etcd’s CommittedIndex)', () => {
    expect(majorityValue([7, 3, 5, 5, 1], 5, 3)).toBe(5);
    expect(majorityValue([9, 0, 0], 3, 2)).toBe(0);
    expect(majorityValue([4], 1, 1)).toBe(4);
    // Fewer values than a majority (a configuration whose voters did not all answer): nothing.
    expect(majorityValue([4, 4], 2, 3)).toBe(0);
  });

  it('agrees with counting, for every index, how many voters hold it', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 9 }), (values) => {
        const majority = majorityOf(values.length);
        const got = majorityValue([...values], values.length, majority);
        let expected = 0;
        for (let v = 20; v > 0 && expected === 0; v--) if (values.filter((x) => x >= v).length >= majority) expected = v;
        expect(got).toBe(expected);
      }),
    );
  });

  it('counts only voters: a learner’s or a removed server’s vote does not make a majority', () => {
    const voters = new Voters(['n1', 'n2', 'n3']);
    expect(voters.won(['n1', 'n2'])).toBe(true);
    expect(voters.won(['n1', 'n4', 'n5'])).toBe(false);
    expect(voters.count(['n1', 'n4', 'n3'])).toBe(2);
  });
});

describe('progress: what a leader knows of one peer (Figure 2’s nextIndex and matchIndex)', () => {
  it('a late success reply never moves matchIndex back; nextIndex follows it', () => {
    const p = new Progress('n2');
    p.lead(6);
    expect([p.next, p.match]).toEqual([6, 0]);
    expect(p.acknowledge(5)).toBe(5);
    expect(p.acknowledge(3)).toBe(5);
    expect([p.next, p.match]).toEqual([6, 5]);
  });

  it('a rejection backs up one entry, never below 1', () => {
    const p = new Progress('n2');
    p.lead(2);
    p.backOne();
    expect(p.next).toBe(1);
    p.backOne();
    expect(p.next).toBe(1);
  });
});

describe('the log knows its snapshot: global indexes, terms across the boundary', () => {
  it('reads entries and terms by index; a compacted entry has no term but the snapshot’s last one', () => {
    const log = raftLogOf(entries([2, 2, 3], 5), 4, 1);
    expect(log.lastIndex).toBe(7);
    expect(log.lastTerm).toBe(3);
    expect(log.entryAt(5)?.command).toBe('c5');
    expect(log.entryAt(4)).toBeUndefined();
    expect(log.termAt(4)).toBe(1);
    expect(log.termAt(3)).toBeNull();
    expect(log.termAt(8)).toBeNull();
    expect(log.entriesAfter(5, []).map((e) => e.command)).toEqual(['c6', 'c7']);
    expect(log.entriesAfter(7, [])).toEqual([]);
  });

  it('an empty log after a snapshot ends at the snapshot', () => {
    const log = raftLogOf([], 6, 2);
    expect([log.lastIndex, log.lastTerm]).toEqual([6, 2]);
  });

  it('truncates from an index, keeping what is before it', () => {
    const log = raftLogOf(entries([1, 1, 2, 2]));
    log.truncateFrom(3);
    expect(log.entries.map((e) => e.command)).toEqual(['c1', 'c2']);
  });

  it('compacts up to a snapshot, keeping what follows (§5)', () => {
    const log = raftLogOf(entries([1, 1, 2, 2, 3]));
    log.compact(snapshotAt(3, 2));
    expect([log.snapshotIndex, log.snapshotTerm, log.lastIndex]).toEqual([3, 2, 5]);
    expect(log.entries.map((e) => e.command)).toEqual(['c4', 'c5']);
  });

  it('installing a leader’s snapshot keeps a suffix that matches it, and discards one that does not (§5.1)', () => {
    const matching = raftLogOf(entries([1, 1, 2, 2, 3]));
    expect(matching.install(snapshotAt(3, 2))).toBe(true);
    expect(matching.entries.map((e) => e.command)).toEqual(['c4', 'c5']);
    const conflicting = new RaftLog();
    conflicting.entries = entries([1, 1, 1, 1]);
    expect(conflicting.install(snapshotAt(3, 2))).toBe(false);
    expect([conflicting.entries.length, conflicting.lastIndex, conflicting.lastTerm]).toEqual([0, 3, 2]);
  });
});
