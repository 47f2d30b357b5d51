/**
 * The snapshots feature's invariants (§5), checked after every step in runs with the feature on
 * (featureInvariants.ts calls them), each time a node holds a snapshot it did not hold before:
 *
 * - snapshot-committed: a snapshot covers only committed entries (its last included index is at
 *   most the node's commit index, and an entry of that index was committed somewhere).
 * - snapshot-matching: Log Matching across the snapshot boundary — the snapshot's last included
 *   term is the term of the entry committed at that index, so a log that continues after it
 *   continues the committed log (the checker's Log Matching takes the snapshot's term as the
 *   predecessor of the first entry after it).
 * - snapshot-state: the state the snapshot keeps (lock table and token counter) is the state
 *   machine applied up to its last included index: the committed entries replayed from nothing,
 *   which is what every other node's state machine holds at that index.
 */
import type { Cluster } from '../net/cluster';
import { snapshotInvariant as say } from '../model/describe';
import type { CommittedLog, Violate } from './ids';
import { LockStateMachine } from '../service/lockStateMachine';
import type { RaftSnapshot, SnapshotState } from '../model/types';

export class SnapshotInvariants {
  private readonly seen: (RaftSnapshot | null)[];
  private readonly expireAnyToken: boolean;
  /** The reference state machine, advanced through the committed entries as snapshots ask for later indexes. */
  private readonly reference = new LockStateMachine();
  private referenceIndex = 0;
  /** The reference state at each index a snapshot asked for (nodes compact at the same indexes). */
  private readonly byIndex = new Map<number, SnapshotState>();

  constructor(
    private readonly cluster: Cluster,
    private readonly violate: Violate,
    private readonly log: CommittedLog,
    private readonly hasStateMachine: boolean,
  ) {
    this.seen = cluster.nodes.map((n) => n.snapshot);
    this.expireAnyToken = cluster.bugSet.has('expire-any-token');
  }

  check(): void {
    const nodes = this.cluster.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const snap = node.snapshot;
      if (snap === this.seen[i]) continue;
      this.seen[i] = snap;
      if (snap === null) continue;
      const term = this.log.committedTerm(snap.index);
      if (snap.index > node.commitIndex || term === undefined) {
        this.violate('snapshot-committed', [node.id], say.uncommitted(node.id, snap.index, node.commitIndex));
        continue;
      }
      if (term !== snap.term) {
        this.violate('snapshot-matching', [node.id], say.termDiffers(node.id, snap.index, snap.term, term));
        continue;
      }
      if (!this.hasStateMachine) continue;
      const expected = this.replay(snap.index);
      if (expected === null) continue;
      const problem = differs(snap.state, expected);
      if (problem !== null) this.violate('snapshot-state', [node.id], say.stateDiffers(node.id, snap.index, problem));
    }
  }

  /** The lock table the committed entries 1..index give, or null when one of them is not known. */
  private replay(index: number): SnapshotState | null {
    const known = this.byIndex.get(index);
    if (known !== undefined) return known;
    const fresh = index < this.referenceIndex;
    const machine = fresh ? new LockStateMachine() : this.reference;
    const options = { expireAnyToken: this.expireAnyToken };
    for (let i = fresh ? 1 : this.referenceIndex + 1; i <= index; i++) {
      const entry = this.log.appliedEntry(i);
      if (entry === undefined) {
        if (!fresh) this.reset(); // the reference is part-way: start it again next time
        return null;
      }
      machine.apply(entry.command, 0, options);
    }
    if (!fresh) this.referenceIndex = index;
    const state = machine.snapshotState();
    this.byIndex.set(index, state);
    return state;
  }

  private reset(): void {
    this.reference.reset();
    this.referenceIndex = 0;
  }
}

/** What differs between a snapshot's state and the expected one (holders and tokens; leases count from each node's own clock), or null. */
function differs(actual: SnapshotState | null, expected: SnapshotState): string | null {
  if (actual === null) return 'it keeps no lock table';
  if (actual.nextToken !== expected.nextToken) return `its next token is ${actual.nextToken}, not ${expected.nextToken}`;
  const text = (s: SnapshotState) => s.locks.map((l) => `${l.key}: ${l.owner} token ${l.token}`).join(', ') || 'no locks';
  return text(actual) === text(expected) ? null : `it holds {${text(actual)}}, not {${text(expected)}}`;
}
