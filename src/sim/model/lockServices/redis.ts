/**
 * One Redis key as a lock (redis.io, SET with NX and PX, and the "Distributed Locks with Redis"
 * page's single-instance algorithm): SET key value NX PX ttl, release by compare-and-delete.
 */
import type { LockServiceManifest } from './types';

export const redis = {
  name: 'redis',
  title: 'Redis lock, NX with TTL',
  explanation:
    'One instance (r1): acquire is SET key value NX PX ttl, release a script that deletes the key only if it still holds the caller’s value; the key expires by the instance’s wall clock. With two servers, r2 is an asynchronous replica that takes over when r1 is silent (one sentinel’s decision). No fencing token: the fenced store cannot help.',
  raft: false,
  token: null,
  prefix: 'r',
  minServers: 1,
  maxServers: 2,
  defaultServers: 1,
  consistent: false,
  options: [
    {
      name: 'persist',
      title: 'Persistence on (AOF, fsync always)',
      explanation: 'A restarted instance keeps its keys; off, a restart forgets every key.',
    },
  ],
  bugs: [
    {
      name: 'release-without-compare',
      blurb: 'with redis, release is a plain DEL, which deletes another client’s key (needs --lock redis)',
      faults: ['client-pause', 'locks'],
      caughtBy: ['redis-compare-delete'],
    },
  ],
  invariants: [{ id: 'redis-compare-delete', title: 'A release deletes only its own value' }],
  chapter: {
    mechanism: 'Redis lock, NX with TTL',
    safeWhenPaused: 'No',
    failover: 'TTL expiry',
    writeCost: '~100k ops/s',
    fencingToken: 'None',
    operationalCost: 'Trivial',
  },
} as const satisfies LockServiceManifest;
