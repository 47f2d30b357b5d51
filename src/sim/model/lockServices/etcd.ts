/**
 * etcd's lock (etcd.io, "Interacting with etcd", leases; the v3 concurrency Mutex): a key space
 * with a global revision on the Raft log, leases with keep-alives, create-if-absent transactions.
 */
import type { LockServiceManifest } from './types';

export const etcd = {
  name: 'etcd',
  title: 'etcd',
  explanation:
    'A client grants itself a lease and keeps it alive; acquire is a transaction that creates its key under the lock’s prefix if absent, attached to the lease. The lowest create revision holds; each waiter watches the key just before its own. An expired lease is revoked through the log with its keys. Token: the key’s create revision.',
  raft: true,
  token: 'the key’s create revision',
  prefix: 'n',
  minServers: 1,
  maxServers: 9,
  defaultServers: 5,
  consistent: true,
  options: [],
  bugs: [
    {
      name: 'revoke-keeps-keys',
      blurb: 'with etcd, revoking an expired lease leaves the keys attached to it (needs --lock etcd)',
      faults: ['client-pause', 'client-crash', 'locks'],
      caughtBy: ['etcd-lease-keys'],
    },
  ],
  invariants: [
    { id: 'etcd-lease-keys', title: 'A key outlives no lease' },
    { id: 'etcd-revision', title: 'The revision only grows' },
    { id: 'etcd-holder-lowest', title: 'An etcd holder has the lowest create revision' },
  ],
  chapter: {
    mechanism: 'etcd',
    safeWhenPaused: 'If checked downstream',
    failover: 'Lease TTL',
    writeCost: 'Majority hop',
    fencingToken: 'Revision',
    operationalCost: '3-5 nodes',
  },
} as const satisfies LockServiceManifest;
