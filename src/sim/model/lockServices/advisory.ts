/**
 * A PostgreSQL-style session advisory lock (postgresql.org/docs, "Advisory Locks" and
 * pg_try_advisory_lock): held by the client's session until it unlocks or the connection dies.
 */
import type { LockServiceManifest } from './types';

export const advisory = {
  name: 'advisory',
  title: 'Database advisory lock',
  explanation:
    'One database primary (db1) keeps session-scoped advisory locks: a lock lives as long as the client’s connection, which dies after a keep-alive timeout (the kernel answers keep-alives even while the process is paused). With two servers, db2 is an asynchronous replica that takes over when db1 is silent: advisory locks are not replicated, so a failover frees every lock. Token: a row version the client bumps when it acquires.',
  raft: false,
  token: 'a row version the client bumps and reads when it acquires',
  prefix: 'db',
  minServers: 1,
  maxServers: 2,
  defaultServers: 1,
  // With a replica (two servers) a failover frees every lock: overlaps are then findings.
  consistent: true,
  options: [],
  bugs: [
    {
      name: 'unlock-any-session',
      blurb: 'with advisory, an unlock by a session that does not hold the lock frees it anyway (needs --lock advisory)',
      faults: ['locks', 'client-crash'],
      caughtBy: ['advisory-unlock-owner'],
    },
  ],
  invariants: [
    { id: 'advisory-unlock-owner', title: 'Only the holding session unlocks' },
    { id: 'advisory-session-locks', title: 'An advisory lock outlives no session' },
  ],
  chapter: {
    mechanism: 'Database advisory lock',
    safeWhenPaused: 'While the transaction lives',
    failover: 'Connection loss',
    writeCost: '5k-20k writes/s',
    fencingToken: 'Row version',
    operationalCost: 'None extra',
  },
} as const satisfies LockServiceManifest;
