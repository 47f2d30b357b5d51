/**
 * One server's log and the snapshot below it (etcd-io/raft's `raftLog`, `log.go`). Indexes are
 * the paper's, 1-based and global: entry `i` stays index `i` after the entries before it were
 * compacted into a snapshot (§5), so only this module turns an index into a position in the
 * stored array. `term`, `votedFor` and the log are what a server persists (Figure 2).
 *
 * Without the snapshots feature nothing is ever compacted: `snapshotIndex` stays 0 and the log is
 * the chapter's list of entries.
 */
import type { LogEntry, RaftSnapshot } from '../model/types';

export class RaftLog {
  /** The entries after the snapshot: `entries[k]` is index `snapshotIndex + 1 + k`. */
  entries: LogEntry[] = [];
  /** The last index and term the snapshot covers (0 and 0 without one). */
  snapshotIndex = 0;
  snapshotTerm = 0;
  snapshot: RaftSnapshot | null = null;

  get lastIndex(): number {
    return this.entries.length + this.snapshotIndex;
  }

  get lastTerm(): number {
    const n = this.entries.length;
    return n > 0 ? this.entries[n - 1].term : this.snapshotTerm;
  }

  /** Entry `index`, or undefined when it is past the end or compacted into the snapshot. */
  entryAt(index: number): LogEntry | undefined {
    return index > this.snapshotIndex ? this.entries[index - 1 - this.snapshotIndex] : undefined;
  }

  /** The term of entry `index` (the snapshot's term at its last included index), or null if not held. */
  termAt(index: number): number | null {
    if (index === this.snapshotIndex) return this.snapshotTerm;
    const entry = this.entryAt(index);
    return entry === undefined ? null : entry.term;
  }

  /**
   * The term of entry `index` for an index this log holds (at or after the snapshot's last one,
   * at or before the end): the hot path's form of `termAt`, with no null to test.
   */
  heldTermAt(index: number): number {
    return index > this.snapshotIndex ? this.entries[index - 1 - this.snapshotIndex].term : this.snapshotTerm;
  }

  append(entry: LogEntry): void {
    this.entries.push(entry);
  }

  /** Removes entry `index` and everything after it (a conflict with the leader's log, §5.3). */
  truncateFrom(index: number): void {
    this.entries.length = index - 1 - this.snapshotIndex;
  }

  /** The entries after index `after` (none: an empty array), never below the snapshot. */
  entriesAfter(after: number, none: readonly LogEntry[]): readonly LogEntry[] {
    const from = after - this.snapshotIndex;
    return from < this.entries.length ? this.entries.slice(from) : none;
  }

  /** Compaction (§5): the snapshot replaces every entry up to its last included index. */
  compact(snapshot: RaftSnapshot): void {
    this.entries.splice(0, snapshot.index - this.snapshotIndex);
    this.snapshotIndex = snapshot.index;
    this.snapshotTerm = snapshot.term;
    this.snapshot = snapshot;
  }

  /**
   * A leader's snapshot is installed (§5.1): if this log holds an entry at its last included
   * index with its term, the entries after it are kept (they match the leader's); otherwise the
   * whole log goes. Returns whether the suffix was kept. `dropSuffix` is the bug
   * install-drops-suffix: the whole log goes either way.
   */
  install(snapshot: RaftSnapshot, dropSuffix = false): boolean {
    const keepsSuffix = !dropSuffix && this.termAt(snapshot.index) === snapshot.term;
    if (keepsSuffix) this.entries.splice(0, snapshot.index - this.snapshotIndex);
    else this.entries.length = 0;
    this.snapshotIndex = snapshot.index;
    this.snapshotTerm = snapshot.term;
    this.snapshot = snapshot;
    return keepsSuffix;
  }
}
