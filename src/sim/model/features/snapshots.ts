/** Snapshots (Ongaro 2014 §5): log compaction, and InstallSnapshot for a follower too far behind. */
import { line, type FeatureManifest } from './types';

export const snapshots = {
  name: 'snapshots',
  flag: 'snapshots',
  section: '§5',
  title: 'Snapshots',
  explanation:
    "Each node compacts its applied log into a snapshot of the lock table; a follower too far behind gets the leader's snapshot (InstallSnapshot) instead of every entry.",
  bugs: [
    // A node compacts its whole log, committed or not, and counts it as applied (§5.1).
    {
      name: 'compact-uncommitted',
      flag: 'compactUncommitted',
      blurb: 'with snapshots, a node compacts entries it has not committed (needs snapshots)',
      faults: ['submits', 'crash', 'partition'],
      caughtBy: ['snapshot-committed'],
    },
    // InstallSnapshot discards a follower's whole log, even a suffix that matches the snapshot (§5.1 keeps it).
    {
      name: 'install-drops-suffix',
      flag: 'installDropsSuffix',
      blurb: 'with snapshots, installing a snapshot discards entries after it that the follower holds (needs snapshots)',
      faults: ['snapshot-race'],
      caughtBy: ['log-kept'],
    },
  ],
  // The checkers: snapshotInvariants.ts.
  invariants: [
    { id: 'snapshot-committed', title: 'Snapshots: a snapshot covers only committed entries' },
    { id: 'snapshot-matching', title: 'Snapshots: logs match across the snapshot boundary' },
    { id: 'snapshot-state', title: 'Snapshots: a snapshot keeps the applied state' },
  ],
  pseudocode: [
    {
      id: 'snapshots',
      title: 'Snapshots',
      source: 'Ongaro 2014 §5.1 (feature snapshots)',
      lines: [
        line(
          'snap.compact',
          0,
          'after applying: once snapshotEvery entries were applied since the last snapshot, keep (lastApplied, its term, the state machine) and drop the log up to lastApplied',
        ),
        line('snap.send', 0, "leader: if nextIndex[peer] <= the snapshot's last index, send InstallSnapshot instead of AppendEntries"),
        line(null, 0, 'on InstallSnapshot of the current term, if its last index is past commitIndex:'),
        line('snap.install.keep-suffix', 1, 'if the log holds that index with that term: keep the entries after it'),
        line('snap.install.discard', 1, 'else: discard the whole log'),
        line(null, 1, "state machine = the snapshot's; commitIndex = lastApplied = its last index; reply"),
        line('snap.restart', 0, "on restart: state machine = the snapshot's; commitIndex = lastApplied = its last index"),
      ],
    },
  ],
  cites: ['snap.compact', 'snap.send', 'snap.install.keep-suffix', 'snap.install.discard', 'snap.restart'],
  details: ['snapshot-taken', 'snapshot-installed'],
  sometimes: [{ id: 'snapshot-onto-longer-log', title: 'a snapshot was installed on a follower with a longer matching log' }],
} as const satisfies FeatureManifest;
