/**
 * Redlock (redis.io, "Distributed Locks with Redis"): the same key on N independent instances; a
 * client holds the lock when a majority took it within the validity time.
 */
import type { LockServiceManifest } from './types';

export const redlock = {
  name: 'redlock',
  title: 'Redlock (five instances)',
  explanation:
    'Independent Redis instances r1..r5 that never talk to each other. A client sets the key on all of them and holds the lock if a majority said yes, for the validity time: the TTL minus the time the attempt took minus a drift allowance (1% of the TTL + 2 ms). Each instance expires the key by its own wall clock. No fencing token.',
  raft: false,
  token: null,
  prefix: 'r',
  minServers: 1,
  maxServers: 9,
  defaultServers: 5,
  consistent: false,
  options: [
    {
      name: 'persist',
      title: 'Persistence on (AOF, fsync always)',
      explanation:
        'A restarted instance keeps its keys; off, a restart forgets every key (Redlock’s page asks for a delayed restart then).',
    },
  ],
  bugs: [
    {
      name: 'validity-from-last-reply',
      blurb: 'with redlock, the client counts its validity from the last reply instead of from when it asked (needs --lock redlock)',
      faults: ['locks', 'client-pause'],
      caughtBy: ['redlock-validity'],
    },
  ],
  invariants: [{ id: 'redlock-validity', title: 'A Redlock ends before its majority’s keys expire' }],
  chapter: {
    mechanism: 'Redlock (the debate)',
    safeWhenPaused: 'Kleppmann: no, it rests on timing; Antirez: yes, under its stated model',
    failover: 'TTL expiry',
    writeCost: '~100k ops/s per instance',
    fencingToken: 'None',
    operationalCost: 'N instances',
  },
} as const satisfies LockServiceManifest;
