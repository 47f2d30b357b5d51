/**
 * The tree's one majority (etcd-io/raft's `quorum/majority.go`). Everything that counts servers
 * — votes, pre-votes, CheckQuorum's answers, a read round's answers, the commit index — counts
 * over a configuration's voters with these functions. A run without membership changes is one
 * fixed configuration: every server is a voter.
 */

// The pure count lives in model/ since Paxos counts with it too; re-exported so Raft's callers keep one import.
import { majorityOf } from '../model/majority';
export { majorityOf };

/**
 * The highest value that a majority of the voters have reached (etcd's `CommittedIndex`): given
 * each voter's value in `values[0..count)`, the `majority`-th largest. Sorts that part of
 * `values` in place (it is the caller's scratch); 0 when fewer than a majority of values are given.
 */
export function majorityValue(values: number[], count: number, majority: number): number {
  if (count < majority) return 0;
  // Insertion sort, descending: a configuration has at most nine voters.
  for (let i = 1; i < count; i++) {
    const v = values[i];
    let j = i - 1;
    while (j >= 0 && values[j] < v) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = v;
  }
  return values[majority - 1];
}

/** A configuration's voters: who counts toward its majority (§4.1). */
export class Voters {
  readonly majority: number;

  constructor(readonly ids: readonly string[]) {
    this.majority = majorityOf(ids.length);
    Object.freeze(this); // never changes: checkpoints share it
  }

  has(id: string): boolean {
    return this.ids.includes(id);
  }

  /** How many of `ids` are voters (votes, pre-votes, servers heard from). */
  count(ids: Iterable<string>): number {
    let n = 0;
    for (const id of ids) if (this.ids.includes(id)) n++;
    return n;
  }

  /** Whether the voters among `ids` make a majority (etcd's `VoteResult` won). */
  won(ids: Iterable<string>): boolean {
    return this.count(ids) >= this.majority;
  }
}
