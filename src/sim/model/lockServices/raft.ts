/** The chapter's own service: the lock table replicated on the Raft log (shared/seeds/000), the default. */
import type { LockServiceManifest } from './types';

export const raftLocks = {
  name: 'raft',
  title: 'Embedded Raft group',
  explanation:
    "The chapter's service: Grant, Release and Expire are entries of the Raft log, applied in order on every node; only the leader expires a lease, by its own clock. Token: the lock table's counter, assigned at apply.",
  raft: true,
  token: 'the counter the lock table assigns at apply',
  prefix: 'n',
  minServers: 1,
  maxServers: 9,
  defaultServers: 5,
  consistent: true,
  options: [],
  // Its bugs and invariants are the chapter's (features/core.ts).
  bugs: [],
  invariants: [],
  chapter: {
    mechanism: 'Embedded Raft group',
    safeWhenPaused: 'Yes',
    failover: 'Election, ~200 ms',
    writeCost: 'Majority hop, ~500 µs',
    fencingToken: 'Log index',
    operationalCost: 'You own it',
  },
} as const satisfies LockServiceManifest;
