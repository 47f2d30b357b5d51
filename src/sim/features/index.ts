/**
 * Protocol features: what production Raft adds to the chapter's (Ongaro's dissertation, 2014).
 * Each is off by default and switched per run (`SimConfig.features`); with none on the engine is
 * the chapter's, draw for draw. This list is the one place a feature is named: the config check,
 * the CLI, share links, the Settings tab's Protocol section and the swarm fuzzer all read it.
 * Later features (fast-backup, transfer, snapshots, membership, reads) slot in by adding a row.
 */

export const FEATURES = [
  {
    name: 'pre-vote',
    section: '§9.6',
    title: 'Pre-vote',
    explanation: 'A would-be candidate first asks whether it could win, without raising its term, so a node rejoining after a partition does not depose a healthy leader.',
  },
  {
    name: 'check-quorum',
    section: '§6.2',
    title: 'CheckQuorum',
    explanation: 'A leader that has not heard from a majority for an election timeout steps down, and voters ignore RequestVote while they hear from a leader.',
  },
  {
    name: 'leader-noop',
    section: '§8',
    title: 'Leader no-op',
    explanation: 'A new leader appends a no-op entry of its own term, so entries left by earlier terms commit at once.',
  },
  {
    name: 'snapshots',
    section: '§5',
    title: 'Snapshots',
    explanation: 'Each node compacts its applied log into a snapshot of the lock table; a follower too far behind gets the leader\'s snapshot (InstallSnapshot) instead of every entry.',
  },
  {
    name: 'reads',
    section: '§6.4',
    title: 'Reads',
    explanation: 'Clients put and get keys in a small replicated map; a get goes through the log, confirms leadership with a heartbeat round (ReadIndex), or trusts the leader\'s lease (§6.4.1).',
  },
  {
    name: 'fast-backup',
    section: '§5.3',
    title: 'Fast log back-up',
    explanation: "A follower that rejects AppendEntries names the conflicting entry's term and its first index of that term, so the leader backs up a whole term per round trip instead of one entry.",
  },
  {
    name: 'transfer',
    section: '§3.10',
    title: 'Leadership transfer',
    explanation: 'transfer n3 hands leadership to n3: the leader stops taking requests, brings n3 up to date and sends TimeoutNow, and n3 starts an election at once; an election timeout without it aborts the transfer.',
  },
  {
    name: 'membership',
    section: '§4.1',
    title: 'Membership changes',
    explanation: 'Servers are added (first as non-voting learners that catch up, §4.2.1) and removed one at a time by configuration entries, which take effect as soon as they are appended.',
  },
] as const;

export type FeatureName = (typeof FEATURES)[number]['name'];

export const FEATURE_NAMES: readonly FeatureName[] = FEATURES.map((f) => f.name);

export function isFeatureName(text: string): text is FeatureName {
  return (FEATURE_NAMES as readonly string[]).includes(text);
}

/** The features a node reads on its hot paths, as booleans worked out once per run. */
export interface NodeFeatures {
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
  readonly leaderNoop: boolean;
  readonly snapshots: boolean;
  /** Reads (§6.4): AppendEntries carry a heartbeat round the replies echo, and leaders track leases. */
  readonly reads: boolean;
  readonly fastBackup: boolean;
  readonly transfer: boolean;
  readonly membership: boolean;
}

export const NO_FEATURES: NodeFeatures = Object.freeze({ preVote: false, checkQuorum: false, leaderNoop: false, snapshots: false, reads: false, fastBackup: false, transfer: false, membership: false });

export function nodeFeatures(features: readonly FeatureName[] | undefined): NodeFeatures {
  if (features === undefined || features.length === 0) return NO_FEATURES;
  return {
    preVote: features.includes('pre-vote'),
    checkQuorum: features.includes('check-quorum'),
    leaderNoop: features.includes('leader-noop'),
    fastBackup: features.includes('fast-backup'),
    transfer: features.includes('transfer'),
    snapshots: features.includes('snapshots'),
    reads: features.includes('reads'),
    membership: features.includes('membership'),
  };
}

/** The features in the list's order, each once: one spelling of a set, so links and runs compare equal. */
export function canonicalFeatures(features: readonly FeatureName[]): FeatureName[] {
  return FEATURE_NAMES.filter((f) => features.includes(f));
}
