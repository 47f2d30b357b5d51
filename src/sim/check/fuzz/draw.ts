/**
 * The words a swarm run is drawn in: the fault kinds it picks from and the options it draws
 * before it starts. The stories, the fault table and the run itself all speak them, so they live
 * apart from the run (swarm.ts), which imports those.
 */
import type { SimConfig } from '../../model/config';

/**
 * Fault kinds the swarm picks from. The last five are small stories: fault patterns that wait
 * for the right moment (a leader with a fresh entry, a vote just cast, a lease about to run out).
 * Each run draws once per kind, in this order, whether the kind is in: a new kind changes runs.
 */
export const FAULT_KINDS = [
  'crash',
  'partition',
  'loss',
  'drift',
  'client-pause',
  'client-crash',
  'locks',
  'submits',
  'leader-churn',
  'figure8-story',
  'vote-flap',
  'lease-steal',
  'drift-failover',
  'stale-leader',
  'delay-spike',
  'duplicates',
  'reorder',
  'index-reuse',
  'stale-reply',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Targeted stories (targeted.ts): each builds the situation one property needs and random faults
 * rarely reach (a pre-vote asked of nodes that hear a leader, a yes arriving a round late, a hint
 * arriving after a later one, ...). They are drawn from a stream of their own, kind by kind in
 * this order, so a run's own stream — its cluster, timings and every fault above — is what it was
 * without them; a story whose feature is off in the run is left out.
 */
export const TARGETED_KINDS = [
  'rejoin',
  'stale-pre-vote',
  'backup-race',
  'transfer-lagging',
  'snapshot-race',
  'remove-leader',
  'lease-edge',
  'stale-append-reply',
  'reelected-reuse',
] as const;
export type TargetedKind = (typeof TARGETED_KINDS)[number];

/** What a bug's manifest may name as the faults that make it show: a fault kind or a targeted story. */
export type SwarmKind = FaultKind | TargetedKind;

/** One run's options, drawn before it starts. */
export interface SwarmDraw {
  readonly config: SimConfig;
  /** The fault kinds in this run, and the relative weight of each (a bug's own kinds weigh 3). */
  readonly kinds: readonly FaultKind[];
  readonly weights: readonly number[];
  /** Random faults come this far apart (uniform, inclusive). */
  readonly gapMs: readonly [number, number];
  readonly firstFaultAtMs: number;
  /** The lock keys clients use. */
  readonly keys: readonly string[];
}
