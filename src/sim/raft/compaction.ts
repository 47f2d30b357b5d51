/**
 * Log compaction by snapshots (the snapshots feature, §5 of Ongaro's dissertation). A node
 * compacts the entries it has applied into a snapshot once `snapshotEvery` of them have gathered:
 * the snapshot keeps the last included index and term and the state machine's state, and the
 * stored log keeps only what follows (the log object does the cutting, `RaftLog.compact`). A
 * leader whose follower needs a compacted entry sends InstallSnapshot instead (§5.1).
 *
 * Only called when the feature is on: with it off, no snapshot is ever taken, `snapshotIndex`
 * stays 0 and the node is the chapter's.
 */
import { DEFAULT_SNAPSHOT_EVERY } from '../model/config';
import type { DetailBody } from '../model/events';
import type { RaftLog } from './log';
import type { Membership } from './membership';
import type { InstallSnapshot, RaftSnapshot, SnapshotState } from '../model/types';

/** What compaction reads and moves of a node (a RaftNode is one). */
export interface CompactingNode {
  readonly id: string;
  readonly raftLog: RaftLog;
  readonly membership: Membership | null;
  readonly commitIndex: number;
  lastApplied: number;
}

/** What compaction needs of the node's host (a Cluster is one). */
export interface CompactionHost {
  /** Absent (a host for tests of the chapter's rules): the default threshold. */
  readonly snapshotEvery?: number;
  readonly bugs: { readonly compactUncommitted?: boolean };
  readonly recordDetails: boolean;
  detail(body: DetailBody): void;
}

/**
 * After applying: compact everything applied once enough has gathered since the last snapshot.
 * `stateOf` gives the state machine's state as the node has applied it (asked only when due).
 */
export function compactIfDue(node: CompactingNode, host: CompactionHost, stateOf: () => SnapshotState | null): void {
  const log = node.raftLog;
  const applied = node.lastApplied;
  if (applied - log.snapshotIndex < (host.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY)) return;
  // The bug: compact the whole log, uncommitted tail included, and count it as applied.
  const upTo = host.bugs.compactUncommitted ? log.lastIndex : applied;
  const term = log.termAt(upTo) as number;
  const removed = upTo - log.snapshotIndex;
  const state = stateOf();
  // Membership: the snapshot carries the configuration in force at its last included index (§4.1).
  const m = node.membership;
  const snapshot: RaftSnapshot = Object.freeze(
    m === null ? { index: upTo, term, state } : { index: upTo, term, state, config: m.configAt(log, upTo) },
  );
  m?.hold(snapshot.config);
  log.compact(snapshot);
  if (upTo > node.lastApplied) node.lastApplied = upTo;
  if (host.recordDetails) {
    host.detail({
      kind: 'snapshot-taken',
      subjects: [node.id],
      values: { node: node.id, index: upTo, term, removed, lastApplied: applied, commitIndex: node.commitIndex },
      lines: ['snap.compact'],
    });
  }
}

/** The leader's InstallSnapshot (§5.1): its whole snapshot in one message (the lab sends no chunks). */
export function installSnapshotFor(term: number, leader: string, snapshot: RaftSnapshot): InstallSnapshot {
  return { type: 'InstallSnapshot', term, leader, snapshot };
}
