/**
 * A guided tour is data: a title, an intro and beats. Each beat plays the run until a time or
 * until a named predicate on the state holds, pauses, and says what happened. Its assertions are
 * checked by the unit tests, so narration never claims what the run does not show.
 */
import type { DetectorConfig } from '../../model/detector';
import type { BugName, LockOptionName, PaxosBugName } from '../../model/config';
import type { FeatureName } from '../../model/features';
import type { PredicateCall } from './predicates';

/** Where a beat stops: at a time, or at the first millisecond a predicate holds. */
export type Until = { readonly atMs: number } | { readonly when: PredicateCall; readonly capMs?: number };

/** The page's places a narration can name: a side panel, or marks the ring always draws. */
export type Shown = 'logs' | 'clients' | 'stores' | 'locks' | 'invariants' | 'history' | 'timers';

/** The side panels among them (the page opens one; presenter mode shows its compact form). */
export type ShownPanel = Exclude<Shown, 'timers'>;

/** What a beat points at; the UI may outline it. */
export type Highlight = { readonly node: string } | { readonly client: string } | { readonly panel: ShownPanel };

/** One thing a "what if" changes: bugs or protocol features switched on, the election timeout, or the rest of the schedule. */
export interface BranchChange {
  readonly bugs?: readonly (BugName | PaxosBugName)[];
  /** Protocol features switched on (the fix a feature's tour shows after the problem). */
  readonly features?: readonly FeatureName[];
  readonly electionTimeoutMs?: readonly [number, number];
  /** Paxos runs: a pre-empted proposer's random back-off (the dueling-proposers fix). */
  readonly backoffMs?: readonly [number, number];
  /** The same story on another protocol (the side-by-side tour: Raft, then Multi-Paxos). */
  readonly protocol?: 'paxos' | 'multi-paxos';
  /** The lock service's switches (issue 26), e.g. ZooKeeper's `herd`. */
  readonly lockOptions?: readonly LockOptionName[];
  /** Issue 28: the failure detector (the TTL rule's tour raises the takeover threshold past the TTL). */
  readonly detector?: DetectorConfig;
  /** Replaces the actions of the beats from `fromBeat` on (schedule text, absolute times). */
  readonly actions?: string;
}

export interface Branch {
  /** 1-based number of the earlier beat to rewind to: the branch starts where that beat started. */
  readonly fromBeat: number;
  readonly change: BranchChange;
}

export interface Beat {
  /** Short plain text: **emphasis**, and {n2} / {A} for actors the page highlights on hover. */
  readonly narration: string;
  /** Schedule text (absolute times, at or after the beat's start) added on this beat's line. */
  readonly actions?: string;
  readonly until: Until;
  readonly highlight?: Highlight;
  /** Checked on the state at the beat's end. */
  readonly expect?: readonly PredicateCall[];
  /** A "what if": rewind to an earlier beat and change one thing; later beats continue this line. */
  readonly branch?: Branch;
  /**
   * Where the beat's point happens, when it is not the default (the beat's end for a beat that
   * waits on a condition; else its last own action, else its last landmark): the page slows down
   * before it so each message of it can be read (pace.ts).
   */
  readonly moment?: { readonly atMs: number } | { readonly when: PredicateCall };
  /** Play the whole beat at one pace, with no slow stretch (a beat about a rhythm, not a moment). */
  readonly steady?: boolean;
  /** What the beat shows besides what its narration names (mentions.ts finds those). */
  readonly shows?: readonly Shown[];
}

export interface Tour {
  /** Also its link name (`&tour=fencing`) and, for a preset's tour, the preset's name. */
  readonly name: string;
  readonly title: string;
  readonly intro: string;
  /** The run's configuration (seed included); a branch may change bugs or timeouts. */
  readonly config: import('../../model/config').SimConfig;
  readonly beats: readonly Beat[];
}
