/**
 * Log compaction by snapshots (the snapshots feature, §5 of Ongaro's dissertation). A node
 * compacts the entries it has applied into a snapshot once `snapshotEvery` of them have gathered:
 * the snapshot keeps the last included index and term and the state machine's state, and the
 * stored log keeps only what follows. Indexes stay global (entry i is still index i). A leader
 * whose follower needs a compacted entry sends InstallSnapshot instead (§5.1); the follower
 * installs it, keeping a suffix of its log that matches and discarding the rest.
 *
 * Only called when the feature is on: with it off, no snapshot is ever taken, `snapshotIndex`
 * stays 0 and the node is the chapter's.
 */
import { DEFAULT_SNAPSHOT_EVERY } from './config';
import type { NodeHost, RaftNode } from './node';
import type { InstallSnapshot, InstallSnapshotReply, RaftSnapshot } from './types';

/** After applying: compact everything applied once enough has gathered since the last snapshot. */
export function compactIfDue(node: RaftNode, host: NodeHost): void {
  const applied = node.lastApplied;
  if (applied - node.snapshotIndex < (host.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY)) return;
  // The bug: compact the whole log, uncommitted tail included, and count it as applied.
  const upTo = host.bugs.compactUncommitted ? node.lastLogIndex : applied;
  const term = node.termAt(upTo) as number;
  const removed = upTo - node.snapshotIndex;
  const state = host.snapshotStateOf?.(node) ?? null;
  // Membership: the snapshot carries the configuration in force at its last included index (§4.1).
  const m = node.membership;
  const snapshot: RaftSnapshot = Object.freeze(
    m === null ? { index: upTo, term, state } : { index: upTo, term, state, config: m.configAt(node.log, node.snapshotIndex, upTo) },
  );
  m?.hold(snapshot.config);
  node.log.splice(0, removed);
  node.snapshotIndex = upTo;
  node.snapshotTerm = term;
  node.snapshot = snapshot;
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
export function installSnapshotFor(node: RaftNode): InstallSnapshot {
  const snapshot = node.snapshot as RaftSnapshot;
  return { type: 'InstallSnapshot', term: node.term, leader: node.id, snapshot };
}

/**
 * Follower (§5.1): a snapshot from the current leader replaces everything up to its last
 * included index. If the log holds an entry at that index with the snapshot's term, the entries
 * after it are kept (they match the leader's); otherwise the whole log goes. The state machine
 * becomes the snapshot's. A snapshot the node already covers (by its own snapshot or its commit
 * index) changes nothing. Either way the reply tells the leader the follower holds its index.
 */
export function installSnapshot(node: RaftNode, host: NodeHost, msg: InstallSnapshot): InstallSnapshotReply {
  if (msg.term < node.term) return { type: 'InstallSnapshotReply', term: node.term, matchIndex: 0 };
  node.becomeFollower(msg.term);
  node.leaderId = msg.leader;
  node.leaderHeardMs = host.nowMs;
  node.resetElectionTimer();
  const snap = msg.snapshot;
  if (snap.index > node.commitIndex && snap.index > node.snapshotIndex) {
    const keepsSuffix = node.termAt(snap.index) === snap.term;
    const before = node.log.length;
    if (keepsSuffix) node.log.splice(0, snap.index - node.snapshotIndex);
    else node.log.length = 0;
    node.snapshotIndex = snap.index;
    node.snapshotTerm = snap.term;
    node.snapshot = snap;
    node.commitIndex = snap.index;
    node.lastApplied = snap.index;
    host.restoreSnapshotState?.(node, snap.state);
    if (node.membership !== null) node.useSnapshotConfig(); // the snapshot's configuration, under any kept suffix
    if (host.recordDetails) {
      host.detail({
        kind: 'snapshot-installed',
        subjects: [node.id, msg.leader],
        values: { node: node.id, leader: msg.leader, index: snap.index, term: snap.term, kept: node.log.length, discarded: before - node.log.length },
        lines: [keepsSuffix ? 'snap.install.keep-suffix' : 'snap.install.discard'],
      });
    }
  }
  return { type: 'InstallSnapshotReply', term: node.term, matchIndex: snap.index };
}
