/**
 * Experiments that put the chapter's numbers to the test. Each names the claim, the experiment
 * and, where the chapter prints one number, that number, so the page can mark it on the plot
 * and say where in the distribution it sits.
 */
import type { ExperimentSpec } from './experiment';
import type { MeasureId } from './measures';
import { parseSweep, type Sweep } from './sweep';

export interface ChapterMark {
  readonly measure: MeasureId;
  /** The sweep point (its label) the chapter's run belongs to. */
  readonly point: string;
  readonly value: number;
  readonly text: string;
}

export interface ExperimentPreset {
  readonly name: string;
  readonly title: string;
  /** The chapter's claim in a sentence, and what to look for. */
  readonly claim: string;
  readonly spec: ExperimentSpec;
  /** The measure the plots open on. */
  readonly measure: MeasureId;
  readonly mark?: ChapterMark;
  /** Seeds per point the page's form starts with, when fewer than the CLI's keep the page's run short (gossip at 1,000 nodes). */
  readonly pageSeeds?: number;
}

const sweep = (text: string): Sweep => {
  const s = parseSweep(text);
  if (typeof s === 'string') throw new RangeError(s);
  return s;
};

export const EXPERIMENT_PRESETS: readonly ExperimentPreset[] = [
  {
    name: 'chapter-failover',
    title: 'Failover time after a leader crash',
    claim:
      "A leader crash costs one election timeout plus one round of votes: the chapter's run (seed 42, 150-300 ms) replaces n2 192 ms after its crash. Where does 192 ms sit among 200 seeds, and how does the time follow the timeout range?",
    spec: { template: 'crash-leader', sweep: sweep('timeout=100-200,150-300,300-600'), seeds: 200, firstSeed: 1 },
    measure: 'failover',
    mark: { measure: 'failover', point: '150-300', value: 192, text: "the chapter's 192 ms" },
  },
  {
    name: 'split-votes',
    title: 'Split votes: identical vs spread timeouts',
    claim:
      "With identical timeouts every node campaigns at once and the vote splits term after term; a spread of randomness breaks the tie. Spread 0 is the chapter's split-vote control (every timeout 150 ms).",
    spec: { template: 'crash-leader', sweep: sweep('spread=0,5,20,50,150'), seeds: 100, firstSeed: 1 },
    measure: 'split-votes',
  },
  {
    name: 'commit-latency',
    title: 'Commit latency: datacenter vs cross-region',
    claim:
      'A commit costs a round trip to a majority: with 70 ms links commits take about 140 ms, against about a millisecond at 0-1 ms (the simulation counts whole milliseconds). Timeouts are 1000-2000 ms and heartbeats 100 ms so cross-region elections stay calm.',
    spec: {
      template: 'steady-load',
      sweep: sweep('latency=0-1,5-15,70-70'),
      seeds: 50,
      firstSeed: 1,
      base: { timeoutMs: [1000, 2000], heartbeatMs: 100 },
    },
    measure: 'commit-p50',
  },
  {
    name: 'lease-pause',
    title: 'A pause longer than the lease',
    claim:
      "A lease-holder that pauses past its 2000 ms lease wakes up believing it still holds the lock: the unfenced store takes its stale write over B's, the fenced store refuses it. Below the lease nothing is stale; past it, every run has one stale write on the unfenced store and none on the fenced one.",
    spec: {
      template: 'lease-pause',
      sweep: sweep('pause=1000,1500,1900,2100,2500,3000'),
      seeds: 20,
      firstSeed: 1,
      base: { leaseMs: 2000 },
    },
    measure: 'stale-unfenced',
  },
  {
    name: 'lease-margin',
    title: "A lease design's margin: pause × lease",
    claim:
      'One grid shows where a lease design stops being safe: each row is a lease, each column a client pause. Cells where the pause outlasts the lease have a stale write on the unfenced store (and a refused one on the fenced store); the boundary is the margin a lease buys against GC pauses.',
    spec: {
      template: 'lease-pause',
      sweep: sweep('lease=1000,2000,4000'),
      sweep2: sweep('pause=500,1500,1900,2100,3000,4500'),
      seeds: 10,
      firstSeed: 1,
    },
    measure: 'stale-unfenced',
  },
  {
    name: 'figure-16',
    title: "Raft's Figure 16: time to elect a new leader against the timeout range",
    claim:
      "Raft paper §9.3, Figure 16 (five servers, broadcast ~15 ms, the leader crashed at a random point of its heartbeat interval, 1,000 trials per line): with no randomness (150-150) elections take more than 10 s as votes split; 150-155 ms gives a median of about 287 ms; with 150-200 ms the worst of 1,000 is about 513 ms; 12-24 ms gives a mean of about 35 ms (longest 152 ms). The broadcast here is 2-5 ms each way plus an 8 ms persist before every reply: a server writes its term, vote and log to disk before it answers (Figure 2), so a round trip averages 3.5 + 8 + 3.5 = 15 ms (the last of four answers about 17), while a RequestVote still arrives in 2-5 ms and its voter's timer is reset at once. The paper does not say how its 15 ms divides; 150-155's median pins it: with the same 15 ms it is 140 ms at 1-2 ms each way (12 ms persist), 161 at 2-3 (10), 288 at 3-4 (8), 459 at 4-5 (6), and 1,041 at 6-9 with no persist, where a vote's trip outlasts the 5 ms spread. So the network's share is fitted to that one number, and the others follow; 12-24's mean moves the other way (34.4 ms at 1-2 each way), so no split matches both. Measured, 1,000 seeds per line: 150-150 elects nobody within 15 s in any trial, which matches; 150-155's median is 284 ms, 1% below 287 (one trial in 1,000 elects nobody in 15 s); 150-200's worst is 515 ms, 0.4% above 513 (seeds 1001-2000 give 499, so a worst of 1,000 moves by tens of ms); 12-24's mean is 40.7 ms, 16% above 35 (median 34, longest 126 ms against 152): with timeouts that short a 15 ms broadcast splits votes (27% of terms). Left out: the paper's servers had logs of different lengths and its leader sent one last heartbeat just before it crashed.",
    spec: {
      template: 'figure-16',
      sweep: sweep('timeout=150-150,150-151,150-155,150-175,150-200,150-300,12-24'),
      seeds: 1000,
      firstSeed: 1,
      // The paper's ~15 ms broadcast: 2-5 ms each way plus an 8 ms persist before every reply (the caption says why).
      base: { latencyMs: [2, 5], persistMs: 8 },
    },
    measure: 'failover',
  },
  {
    name: 'false-elections',
    title: 'Detection time against false elections: fixed timeout and phi-accrual',
    claim:
      "You never detect failure, only unresponsiveness: a lower threshold notices a crash sooner and suspects a healthy leader more often. Φ 0 is the chapter's fixed 150-300 ms timeout; Φ 1-12 is phi-accrual. For 60 s the leader is healthy while the network is slowed by the factor for 4 s in every 10 (a false election is one in that time, per hour); then it crashes and failover is the detection time. Phi-accrual adapts to a slower but steady network, and a jittery one (the slow phases' edges) costs it false elections at low Φ.",
    spec: { template: 'false-suspicion', sweep: sweep('phi=0,1,2,4,8,12'), sweep2: sweep('slow=1,3,5'), seeds: 20, firstSeed: 1 },
    measure: 'false-elections',
  },
  {
    name: 'detection-tradeoff',
    title: 'The trade-off curve: detection time against false elections, fixed timeouts and phi-accrual',
    claim:
      "Issue 28's trade-off curve: a lower threshold notices a crash sooner and suspects a healthy leader more often. Each mark is one detector setting: across, its median failover after the leader crashes at 60 s (detection plus a vote); up, its mean false elections an hour over the 60 healthy seconds, in which every latency is 5\u00d7 for 4 s in every 10 (at 3\u00d7 only the two most eager timeouts suspect anyone, so there is no curve to read). Heartbeats come every 20 ms so that a 30-60 ms timeout is a valid setting. Measured (40 seeds): a fixed 30-60 ms timeout detects in 78 ms and elects falsely 138,838 times an hour, 75-150 ms in 112 ms and 204, 100-200 ms in 151 ms and 1.5, the chapter\u2019s 150-300 ms in 197 ms and never, 300-600 ms in 403 ms and never. Phi-accrual detects in 83-104 ms at every \u03a6 from 1 to 12 while its false elections fall from 2,838 an hour to 178: its window has learnt a 20 ms rhythm, and a sudden 5\u00d7 slow phase is unresponsiveness it cannot tell from a crash. A mark opens the run nearest its median.",
    spec: {
      template: 'false-suspicion',
      sweep: sweep(
        'detector=fixed:30-60,fixed:50-100,fixed:75-150,fixed:100-200,fixed:150-300,fixed:300-600,phi:1,phi:2,phi:4,phi:8,phi:12',
      ),
      seeds: 40,
      firstSeed: 1,
      base: { heartbeatMs: 20, slowFactor: 5 },
    },
    measure: 'false-elections',
  },
  {
    name: 'majority-placement',
    title: 'Commit latency against where the majority is placed (us regions)',
    claim:
      "A commit costs a round trip to a majority: 500 µs inside a datacenter, 30-70 ms across US regions. Five nodes over us-east, us-central and us-west (placement 0: a majority in us-east; 1: two, two and one; 2: one in the east, the majority west). With a majority in one region, a leader there commits in 0.5 ms; elsewhere, or with the majority split, every commit pays an inter-region round trip. Put the majority where the writes are. The leader is whoever wins, so each placement's spread shows where it landed.",
    spec: {
      template: 'steady-load',
      sweep: sweep('placement=0,1,2'),
      seeds: 50,
      firstSeed: 1,
      base: { timeoutMs: [1000, 2000], heartbeatMs: 100 },
    },
    measure: 'commit-p50',
  },
  {
    name: 'gossip-convergence',
    title: 'Gossip convergence: rounds against cluster size (log N)',
    claim:
      "The chapter: gossip spreads suspicion in a logarithmic number of rounds. N nodes gossip their views (three random peers a round, a round every 50 ms); a follower crashes at 1 s, each view suspects it after 600 ms of its silence or as soon as a peer's view says so. Plotted: the rounds from the first view's suspicion to the last live view's, on a log2 axis beside log2 N; the other measure adds the 12 rounds of silence first waited out. Measured (10 seeds in the CLI; the page starts at 3, a 1,000-node run takes seconds): the spread's median is 0.6 rounds at 8 nodes, 1.4 at 32, 2.9 at 128, 3.6 at 512 and 4.1 at 1,000 (log2 N 10.0), about half a round more for each doubling: logarithmic, as van Renesse et al. have it. Past 9 nodes a run cannot open on the diagram; its dot says so.",
    spec: { template: 'gossip-spread', sweep: sweep('nodes=8,16,32,64,128,256,512,1000'), seeds: 10, firstSeed: 1 },
    measure: 'gossip-spread',
    pageSeeds: 3,
  },
  {
    name: 'commit-by-region',
    title: 'Commit latency for a client in each region, against where the majority is placed',
    claim:
      "The chapter: put the majority where the writes are. Five nodes over the us regions as the placement puts them (0: three in us-east; 1: two, two and one; 2: one east, the majority central and west) and a client in each region, A in us-east, B in us-central, C in us-west, each taking and releasing its own lock ten times; a mark is one run's median from request to grant for that client. Measured (30 seeds, medians of the runs): with the majority in us-east, A commits in 1 ms, B in 31 and C in 70 (a round trip to the east and back, 0.5 ms inside it); split 2-2-1, A pays 59 ms, B 59 and C 71; with the majority west, A 61, B 61 and C 70. Only the region holding a majority, and only while the leader is there, commits at datacenter speed; the leader is whoever wins, so the runs where it landed elsewhere are the high marks.",
    spec: {
      template: 'region-clients',
      sweep: sweep('placement=0,1,2'),
      seeds: 30,
      firstSeed: 1,
      base: { timeoutMs: [1000, 2000], heartbeatMs: 100 },
    },
    measure: 'client-us-east',
  },
  {
    name: 'availability-year',
    title: 'Availability a year from a failover rate',
    claim:
      'The chapter: ten failovers a day at 0.2 s each is 12 minutes a year, against the 52.6 minutes that 99.99% allows. Here the 0.2 s is measured: ten leader crashes per run, the time without a committing leader per failover, scaled to ten a day for a year, for three timeout ranges. Measured (20 seeds): the chapter’s 150-300 ms gives a median of 12.0 minutes a year (about 0.2 s a failover), 100-200 ms 8.2 and 300-600 ms 22.0 — all inside the 52.6 minutes.',
    spec: { template: 'failover-year', sweep: sweep('timeout=100-200,150-300,300-600'), seeds: 20, firstSeed: 1 },
    measure: 'downtime-year',
  },
  {
    name: 'takeover-threshold',
    title: 'The TTL rule: a takeover threshold against a 10 s lease',
    claim:
      'The chapter: "the takeover threshold must exceed the TTL, or two nodes hold the same resource". A holds a 10 s lease and pauses 5 s; B asks 4 s into the pause. A threshold below those 4 s of silence hands the lock to B while A still counts its lease: two holders, and the unfenced store takes A\u2019s stale write over B\u2019s (the fenced store refuses it). A threshold above the silence, and certainly one above the TTL, leaves B told busy: no two holders. 0 is the chapter\u2019s service, which never takes a lock over.',
    spec: {
      template: 'takeover-pause',
      sweep: sweep('takeover=0,1000,2000,3000,3900,4500,8000,12000'),
      seeds: 20,
      firstSeed: 1,
      base: { leaseMs: 10000, pauseMs: 5000 },
    },
    measure: 'stale-unfenced',
  },
];

export function findExperimentPreset(name: string): ExperimentPreset | null {
  return EXPERIMENT_PRESETS.find((p) => p.name === name) ?? null;
}
