/**
 * Every tour's name, title and number of beats: what a link (`&tour=fencing&beat=3`) and the
 * scenario picker need before the tours themselves are loaded. The tours (their narration, and
 * the runs that find where each beat ends) are the page's largest text and most of its engine,
 * and only a person who opens one needs them, so the page loads them on demand (src/ui/tour.ts).
 * tours.test.ts checks this list against TOURS.
 */

export interface TourEntry {
  readonly name: string;
  readonly title: string;
  readonly beats: number;
}

export const TOUR_CATALOG: readonly TourEntry[] = [
  { name: 'first-election', title: 'The first election', beats: 4 },
  { name: 'replication', title: 'Heartbeats and log replication', beats: 6 },
  { name: 'failover', title: 'Leader crash and failover', beats: 4 },
  { name: 'split-vote', title: 'Split votes (identical timeouts)', beats: 3 },
  { name: 'partition', title: 'A leader cut off in the minority', beats: 4 },
  { name: 'log-repair', title: 'Log repair after the heal', beats: 3 },
  { name: 'figure8', title: 'Figure 8: why old entries do not commit by counting', beats: 8 },
  { name: 'chapter', title: "The chapter's demo", beats: 7 },
  { name: 'fencing', title: 'Fencing tokens vs a GC pause', beats: 7 },
  { name: 'ghost-lock', title: 'Ghost lock', beats: 4 },
  { name: 'clock-drift', title: 'A leader whose clock runs fast', beats: 4 },
  { name: 'failover-lease', title: 'Leader fails while a lease runs', beats: 5 },
  { name: 'rejoin-disrupts', title: 'Pre-vote: a rejoining node deposes a healthy leader', beats: 5 },
  { name: 'isolated-leader', title: 'CheckQuorum: a leader cut off in a minority', beats: 5 },
  { name: 'noop-commit', title: 'Leader no-op: why an entry stays uncommitted', beats: 4 },
  { name: 'snapshot-catch-up', title: 'Snapshots: a follower far behind catches up', beats: 4 },
  { name: 'stale-read', title: 'Reads: a lease read from a deposed leader (§6.4.1)', beats: 4 },
  { name: 'stale-read-index', title: 'Reads: ReadIndex confirms leadership first (§6.4)', beats: 2 },
  { name: 'stale-term-backup', title: 'Fast back-up: skipping a stale term in one round trip', beats: 5 },
  { name: 'hand-over', title: 'Leadership transfer: handing over without an election timeout', beats: 3 },
  { name: 'phi-accrual', title: 'Phi-accrual: suspicion that learns the network', beats: 3 },
  { name: 'gossip', title: 'Gossip: suspicion spreads from view to view', beats: 2 },
  { name: 'takeover-ttl', title: 'The TTL rule: a takeover threshold must exceed the lease', beats: 4 },
  { name: 'grow-and-remove', title: 'Membership changes: grow to five, remove the leader', beats: 5 },
  { name: 'redlock-debate', title: 'The Redlock debate', beats: 8 },
  { name: 'zookeeper-herd', title: 'ZooKeeper’s herd effect', beats: 3 },
  { name: 'advisory-failover', title: 'An advisory lock meets a failover', beats: 4 },
  { name: 'two-at-once', title: 'What breaks if two nodes act at once', beats: 3 },
  { name: 'paxos-re-propose', title: 'Paxos: why a proposer must re-propose an accepted value', beats: 4 },
  { name: 'paxos-duel', title: 'Paxos: dueling proposers', beats: 3 },
  { name: 'multi-paxos-leader-change', title: 'Multi-Paxos after a leader change', beats: 4 },
  { name: 'raft-vs-paxos', title: 'Raft beside Multi-Paxos: where the messages go', beats: 2 },
];

export function catalogTour(name: string): TourEntry | null {
  return TOUR_CATALOG.find((t) => t.name === name) ?? null;
}
