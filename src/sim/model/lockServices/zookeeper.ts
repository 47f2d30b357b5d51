/**
 * ZooKeeper's lock recipe (zookeeper.apache.org, "ZooKeeper Recipes and Solutions", Locks) on a
 * znode tree replicated through the Raft log (Zab's differences are left out, docs/semantics.md).
 */
import type { LockServiceManifest } from './types';

export const zookeeper = {
  name: 'zookeeper',
  title: 'ZooKeeper ensemble',
  explanation:
    'Clients keep a session alive with pings; the leader expires a silent session and commits the deletion of its ephemeral znodes. A lock is an ephemeral sequential child: the lowest holds, each other watches only its predecessor. Token: the znode’s creation zxid (its log index).',
  raft: true,
  token: 'the lock znode’s creation zxid (the log index that created it)',
  prefix: 'n',
  minServers: 1,
  maxServers: 9,
  defaultServers: 5,
  consistent: true,
  options: [
    {
      name: 'herd',
      title: 'Watch the parent (the herd effect)',
      explanation:
        'Every waiter watches the lock node’s children instead of its predecessor, so each release wakes them all (the recipe’s warning): count the notifications per release, N against 1.',
    },
  ],
  bugs: [
    // locks/zookeeper reads it from cluster.bugSet; the ephemeral-session invariant catches it.
    {
      name: 'ephemeral-outlives-session',
      blurb: 'with zookeeper, closing an expired session leaves its ephemeral znodes behind (needs --lock zookeeper)',
      faults: ['client-pause', 'client-crash', 'locks'],
      caughtBy: ['zk-ephemeral-session'],
    },
  ],
  invariants: [
    { id: 'zk-ephemeral-session', title: 'An ephemeral znode outlives no session' },
    { id: 'zk-holder-lowest', title: 'A ZooKeeper holder has the lowest child' },
  ],
  chapter: {
    mechanism: 'ZooKeeper ensemble',
    safeWhenPaused: 'If checked downstream',
    failover: 'Session timeout',
    writeCost: 'Majority hop',
    fencingToken: 'zxid',
    operationalCost: '3-5 nodes',
  },
} as const satisfies LockServiceManifest;
