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
];

export function findExperimentPreset(name: string): ExperimentPreset | null {
  return EXPERIMENT_PRESETS.find((p) => p.name === name) ?? null;
}
