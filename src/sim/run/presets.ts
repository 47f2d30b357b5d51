/** Named runs: the chapter's demo and control, and the lock-service stories. */
import { DEFAULT_CONFIG, type SimConfig } from '../model/config';
import { parseSchedule, type Action } from '../model/schedule';

export interface Preset {
  readonly name: string;
  readonly title: string;
  /** What a teacher would say about it, in one or two sentences. */
  readonly blurb: string;
  readonly config: SimConfig;
  readonly schedule: string;
  readonly untilMs: number;
  /**
   * The chapter's sequence diagram this run reproduces: the space-time view opens on this window
   * with these lanes (`service` folds every node into one lane, as the figure's "Lease service").
   */
  readonly figure?: {
    readonly fromMs: number;
    readonly toMs: number;
    readonly lanes: readonly string[];
    /** The figure draws heartbeats as arrows (the chapter's does). */
    readonly heartbeats?: 'show' | 'fold';
    /** The figure's bursts are seconds apart: fold the quiet time between them. */
    readonly compress?: boolean;
  };
}

export const CHAPTER_SCHEDULE =
  '@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1410 submit x=2; @1560 partition n2,n3; ' +
  '@1753 submit x=3 to n3; @1753 submit y=1 to n1; @1953 heal';

/** Reads: n2 leads term 1, runs slow and is cut off; n1 takes over and B puts x=2; A then reads x from n2. */
const STALE_READ_SCHEDULE = '@500 client A put x=1; @700 drift n2 -90; @800 partition n2; @1200 client B put x=2; @1600 client A get x';

const withClients = (clientIds: string[], extra: Partial<SimConfig> = {}): SimConfig => ({
  ...DEFAULT_CONFIG,
  clientIds,
  ...extra,
});

export const PRESETS: readonly Preset[] = [
  {
    name: 'chapter',
    title: "The chapter's demo",
    blurb:
      'n2 leads, crashes and is replaced in 192 ms; a partition strands the old leader n3 with x=3, which it can never commit; healing erases it.',
    config: DEFAULT_CONFIG,
    schedule: CHAPTER_SCHEDULE,
    untilMs: 2253,
    // "A leader crash costs one election timeout plus one round of votes": n2's last heartbeats,
    // its crash at 1168, n3's votes from n1 and n5, and n3's first AppendEntries of term 2.
    figure: { fromMs: 1110, toMs: 1400, lanes: ['n2', 'n1', 'n3', 'n5'], heartbeats: 'show' },
  },
  {
    name: 'split-vote',
    title: 'Split votes (identical timeouts)',
    blurb: 'Every node times out at the same moment and votes for itself: ten terms pass with no leader.',
    config: { ...DEFAULT_CONFIG, electionTimeoutMs: [200, 200] },
    schedule: '',
    untilMs: 2000,
  },
  {
    name: 'fencing',
    title: 'Fencing tokens vs a GC pause',
    blurb:
      'A holds job:42 and pauses 11 s; its lease expires and B takes the lock with token 2. When A wakes and writes with token 1, the fenced store refuses it and the unfenced store loses B’s write.',
    config: withClients(['A', 'B']),
    schedule:
      '@1000 client A acquire job:42 10000; @1000 client A write result=A-first; @2000 client B acquire job:42 10000; ' +
      '@2500 client A pause 11000; @13000 client B acquire job:42 10000; @13000 client B write result=B-first; ' +
      '@13000 client A write result=A-second',
    untilMs: 15000,
    // The fencing figure: A's grant and write, its pause, B's grant and write, A's refused write.
    figure: { fromMs: 950, toMs: 13750, lanes: ['A', 'service', 'B', 'fenced'], compress: true },
  },
  {
    name: 'ghost-lock',
    title: 'Ghost lock',
    blurb: 'A asks for the lock and crashes before the answer arrives; the leader sees A is gone and releases the lock it just granted.',
    config: withClients(['A', 'B']),
    schedule:
      '@1000 client A acquire job:42 10000; @1040 client A crash; @1400 client B acquire job:42 10000; @1400 client B write result=B-first',
    untilMs: 3000,
  },
  {
    name: 'clock-drift',
    title: 'A leader whose clock runs fast',
    blurb:
      'The leader n2’s clock runs 50% fast, so it expires A’s lease while A still believes it holds it. B gets token 2; A and B both write, and only the fenced store stays correct.',
    config: withClients(['A', 'B']),
    schedule:
      '@400 drift n2 50; ' +
      '@1000 client A acquire job:42 6000; @1000 client A write result=A-first; @6000 client B acquire job:42 6000; ' +
      '@6000 client B write result=B-first; @6200 client A write result=A-second',
    untilMs: 8000,
  },
  {
    name: 'failover-lease',
    title: 'Leader fails while a lease runs',
    blurb: 'A holds job:42 when the leader crashes; the new leader, which applied the grant too, expires the lease by its own clock.',
    config: withClients(['A', 'B']),
    schedule: '@1000 client A acquire job:42 3000; @1500 crash n2; @2000 client B acquire job:42 3000; @5000 client B acquire job:42 3000',
    untilMs: 7000,
  },
  // Protocol features (src/sim/model/features/): each preset shows the problem with the chapter's
  // Raft; its tour then switches the feature on (Settings ▸ Protocol does the same).
  {
    name: 'rejoin-disrupts',
    title: 'A rejoining node deposes a healthy leader (pre-vote, §9.6)',
    blurb:
      'n4 is cut off and times out again and again, raising its term to 7. When the partition heals, its higher term makes the healthy leader n2 step down. Switch on pre-vote: n4 only asks, stays in term 1, and n2 keeps leading.',
    config: DEFAULT_CONFIG,
    schedule: '@500 partition n4; @2000 heal',
    untilMs: 3000,
  },
  {
    name: 'isolated-leader',
    title: 'A leader cut off in a minority keeps leading (CheckQuorum, §6.2)',
    blurb:
      'n2 leads, then a partition leaves it alone; the others elect n5. n2 still believes it leads term 1 and takes x=1, which can never commit. Switch on check-quorum: n2 notices it hears from no majority and steps down, and x=1 is refused.',
    config: DEFAULT_CONFIG,
    schedule: '@500 partition n2; @900 submit x=1 to n2',
    untilMs: 2000,
  },
  {
    name: 'noop-commit',
    title: 'An earlier term’s entry stays uncommitted (leader no-op, §8)',
    blurb:
      'n2 commits x=1 and crashes before telling anyone. The new leader n1 holds x=1 on every node but may not commit an earlier term’s entry by counting (Figure 8), so it waits for a client forever. Switch on leader-noop: n1’s no-op of term 3 commits, and x=1 with it.',
    config: DEFAULT_CONFIG,
    schedule: '@1000 submit x=1; @1022 crash n2',
    untilMs: 3000,
  },
  {
    name: 'snapshot-catch-up',
    title: 'A follower comes back far behind (snapshots, §5)',
    blurb:
      'n5 is down while the cluster commits x1..x20, and then the leader n2 crashes too. When n5 comes back, the new leader n1 backs up one entry per round trip, 20 rejected AppendEntries, and then sends all 20 entries, which every log keeps for ever. Switch on snapshots: every node compacts each 8 applied entries, so n1 backs up only to its snapshot, sends InstallSnapshot (≤ 16) and then just x17..x20.',
    config: DEFAULT_CONFIG,
    schedule: [
      '@300 crash n5',
      ...Array.from({ length: 20 }, (_, i) => `@${440 + 40 * i} submit x${i + 1}`),
      '@1400 crash n2',
      '@2000 restart n5',
    ].join('; '),
    untilMs: 3000,
  },
  {
    name: 'stale-read',
    title: 'A deposed leader serves a stale lease read (reads, §6.4.1)',
    blurb:
      'A puts x=1 through leader n2. n2’s clock then runs at a tenth of the speed and n2 is cut off; n1 leads term 2 and B puts x=2. A asks n2 for x with a lease read: by its slow clock n2’s lease has not run out, so it answers x=1 after x=2 was acknowledged. The register verdict fails, naming the stale get. Open stale-read-index for the fix.',
    config: withClients(['A', 'B'], { features: ['reads'], readMode: 'lease' }),
    schedule: STALE_READ_SCHEDULE,
    untilMs: 2600,
  },
  {
    name: 'stale-read-index',
    title: 'ReadIndex confirms leadership first: no stale read (reads, §6.4)',
    blurb:
      'The stale-read run with ReadIndex reads: cut-off n2 records its commit index and sends a heartbeat round, which no majority answers, so it never answers. A times out, finds n1 and reads x=2. The register verdict holds.',
    config: withClients(['A', 'B'], { features: ['reads'], readMode: 'read-index' }),
    schedule: STALE_READ_SCHEDULE,
    untilMs: 2600,
  },
  {
    name: 'stale-term-backup',
    title: 'A follower’s stale entries cost one round trip each (fast back-up, §5.3)',
    blurb:
      'n2 leads term 1, is cut off and takes a1..a8 that can never commit; the others commit b1..b8 and, after n5 crashes, n3 leads. When the partition heals, n3 backs up one entry per rejection: n2 rejects 10 times before their logs meet. Switch on fast-backup: n2 names its term 1 and where it starts, and n3 skips the whole term in 1 round trip.',
    config: DEFAULT_CONFIG,
    schedule:
      '@1000 submit x=1; @1100 partition n2; @1150 submit a1 to n2; @1150 submit a2 to n2; @1150 submit a3 to n2; @1150 submit a4 to n2; @1150 submit a5 to n2; @1150 submit a6 to n2; @1150 submit a7 to n2; @1150 submit a8 to n2; @1700 submit b1; @1700 submit b2; @1700 submit b3; @1700 submit b4; @1700 submit b5; @1700 submit b6; @1700 submit b7; @1700 submit b8; @1900 crash n5; @2500 heal',
    untilMs: 3000,
  },
  {
    name: 'hand-over',
    title: 'Moving leadership off a node costs an election (leadership transfer, §3.10)',
    blurb:
      'To take n2 out of service the chapter’s Raft can only crash it: nobody leads until the others’ timers fire and a split vote settles, and x=2 and x=3 are refused. Switch on transfer and write transfer n3: n2 stops taking requests, sends TimeoutNow, and n3 leads term 2 within about 30 ms; x=3 commits.',
    config: DEFAULT_CONFIG,
    schedule: '@800 submit x=1; @1000 crash n2; @1005 submit x=2; @1300 submit x=3',
    untilMs: 1400,
  },
  {
    name: 'grow-and-remove',
    title: 'Grow from 3 to 5 servers, then remove the leader (membership, §4.1)',
    blurb:
      'Without the feature a cluster keeps its servers for good. With membership, n2 catches n4 and then n5 up as learners and adds each by a configuration entry, one change at a time; then it removes itself, steps down once that commits, and n1, n3, n4, n5 elect a new leader.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['n1', 'n2', 'n3'], features: ['membership'] },
    schedule: '@400 submit x=1; @600 add n4; @1000 add n5; @1600 remove n2',
    untilMs: 3000,
  },
  // The chapter's other lock services (issue 26, src/sim/locks/): each preset is its tour's main line.
  {
    name: 'redlock-debate',
    title: 'The Redlock debate: a pause, then a clock jump (Redlock on five instances)',
    blurb:
      'Kleppmann’s two stories. A 4-second GC pause outlasts A’s TTL, B takes the lock and A’s late write lands over B’s; then r3’s wall clock jumps 20 s forward, it forgets A’s key, and B gets a majority of its own while A still holds the lock. No instance gives a fencing token.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['r1', 'r2', 'r3', 'r4', 'r5'], clientIds: ['A', 'B'], lock: 'redlock' },
    schedule:
      '@500 client A acquire job 2000; @700 client A pause 4000; @700 client A write report=A; @3500 client B acquire job 1500; ' +
      '@4000 client B write report=B; @6000 client A release job; @6000 client B release job; @6400 partition A,r1,r2,r3 | B,r4,r5; ' +
      '@6500 client A acquire job 10000; @7000 heal; @7000 partition A,r1,r2 | B,r3,r4,r5; @7500 clockjump r3 +20000; ' +
      '@8000 client B acquire job 10000',
    untilMs: 8500,
  },
  {
    name: 'zookeeper-herd',
    title: 'ZooKeeper’s lock recipe: a release wakes one waiter',
    blurb:
      'Five clients queue for one lock as ephemeral sequential znodes; each waiter watches only the child before its own, so A’s release fires one watch. Its tour switches on the herd option, where every waiter watches the parent and the release wakes all four.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['n1', 'n2', 'n3'], clientIds: ['A', 'B', 'C', 'D', 'E'], lock: 'zookeeper' },
    schedule:
      '@500 client A acquire job 20000; @800 client B acquire job 20000; @800 client C acquire job 20000; @800 client D acquire job 20000; ' +
      '@800 client E acquire job 20000; @1500 client A release job',
    untilMs: 2500,
  },
  {
    name: 'advisory-failover',
    title: 'A database advisory lock meets a failover',
    blurb:
      'A holds an advisory lock on the primary db1 when a partition cuts it off; the replica db2 promotes itself without the lock, which was never replicated, and grants it to B. The row version A read as its token lets the fenced store refuse A’s late write.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['db1', 'db2'], clientIds: ['A', 'B'], lock: 'advisory' },
    schedule:
      '@500 client A acquire job 10000; @1000 partition A,db1 | B,db2; @3000 client B acquire job 10000; @3600 client B write result=B; @3700 client A write result=A',
    untilMs: 4500,
  },
  {
    name: 'two-at-once',
    title: 'What breaks if two nodes act at once (one Redis key)',
    blurb:
      'A takes a Redis key with a 2-second TTL and pauses for 4 s; the key expires and B takes it; both charge. Fine if the work is only done twice; not if it double-charges, which needs a fencing token the resource checks.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['r1'], clientIds: ['A', 'B'], lock: 'redis' },
    schedule:
      '@500 client A acquire job 2000; @700 client A pause 4000; @700 client A write charge=A; @3000 client B acquire job 5000; @3500 client B write charge=B',
    untilMs: 5500,
  },
];

export function findPreset(name: string): Preset | null {
  return PRESETS.find((p) => p.name === name) ?? null;
}

const parsed = new WeakMap<Preset, readonly Action[]>();

/** A preset's schedule as actions, parsed once per preset (its text is the edge). */
export function presetActions(preset: Preset): readonly Action[] {
  let actions = parsed.get(preset);
  if (!actions) {
    actions = parseSchedule(preset.schedule);
    parsed.set(preset, actions);
  }
  return actions;
}
