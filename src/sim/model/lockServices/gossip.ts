/**
 * Gossip membership as a leader election (the chapter's last row, "not a lock"): heartbeat
 * counters spread to a few random peers per round, as Cassandra's and Dynamo's gossip do.
 */
import type { LockServiceManifest } from './types';

export const gossip = {
  name: 'gossip',
  title: 'Gossip membership (not a lock)',
  explanation:
    'Every node and client gossips a table of heartbeat counters to two random peers each round; a member whose counter has not grown for the failure timeout is taken for dead. A client leads (holds every lock) while it is the lowest id it believes alive among those contending. No service, no token: two clients act at once while views converge.',
  raft: false,
  token: null,
  prefix: 'n',
  minServers: 1,
  maxServers: 9,
  defaultServers: 5,
  consistent: false,
  options: [],
  bugs: [
    {
      name: 'gossip-accepts-older',
      blurb: 'with gossip, a member takes a peer’s older heartbeat counter over its own newer one (needs --lock gossip)',
      faults: ['client-pause', 'partition'],
      caughtBy: ['gossip-heartbeats'],
    },
  ],
  invariants: [{ id: 'gossip-heartbeats', title: 'A heartbeat counter never goes back' }],
  chapter: {
    mechanism: 'Gossip membership',
    safeWhenPaused: 'Not a lock',
    failover: 'Seconds',
    writeCost: 'Nothing',
    fencingToken: 'None',
    operationalCost: 'Low',
  },
} as const satisfies LockServiceManifest;
