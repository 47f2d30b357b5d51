/**
 * The shapes of a manifest: everything the lab lists about one protocol feature (or about the
 * chapter's own engine and lock service, core.ts), in one object. index.ts derives every list
 * from the manifests — bug names, invariant ids and titles, pseudocode, detail kinds — so a
 * feature is named in one file and one registry line. Manifests are data: no behaviour, and
 * they import nothing but this file.
 */

/** One line of pseudocode (pseudocode.ts draws them in the panel). */
export interface PseudocodeLine {
  /** Stable id; detail events cite it. Lines that only carry structure have none. */
  readonly id: string | null;
  readonly text: string;
  /** Nesting depth, for indentation. */
  readonly depth: number;
}

/** A section of pseudocode as a manifest writes it; the registry adds the feature it belongs to. */
export interface SectionText {
  readonly id: string;
  readonly title: string;
  /** Where the rule comes from: the paper's section or Figure 2, or the chapter. */
  readonly source: string;
  readonly lines: readonly PseudocodeLine[];
}

export const line = (id: string | null, depth: number, text: string): PseudocodeLine => ({ id, depth, text });

/** A switchable bug: a negative control the invariant checker must catch. */
export interface BugManifest {
  /** Its name in configurations, links and `--bugs`. */
  readonly name: string;
  /** The `NodeBugs` field node code reads on its paths; absent when the lock service or reads read `cluster.bugSet`. */
  readonly flag?: string;
  /** What it breaks, in a few words, for the bugs menu. */
  readonly blurb: string;
  /**
   * The fault kinds that make it show (names in fuzz/swarm.ts's FAULT_KINDS, which the type
   * there checks): a swarm run with the bug on includes them far more often and weighs them 3.
   */
  readonly faults: readonly string[];
  /**
   * Its calibration (`npm run fuzz -- --self-check`, test/fuzz.test.ts): the fuzzer, fuzz seed 1
   * with the bug on, must find it within `findWithin` runs (200 when absent) by one of the checks
   * in `caughtBy` (invariant or history-check ids), so a weakened check shows even where another
   * catches the bug later.
   */
  readonly findWithin?: number;
  readonly caughtBy: readonly string[];
}

/** An invariant checked after every millisecond (or, for a history check, once at a run's end). */
export interface InvariantManifest {
  readonly id: string;
  /** Its name as people read it (`Election Safety`); the sentences stay in describe.ts. */
  readonly title: string;
}

/**
 * A reachability property (Antithesis's `Sometimes`, Stateright's `sometimes`): a situation the
 * fuzzer must build in some runs, or the slips that need it go unseen. `npm run fuzz` counts the
 * runs that reach each (the tracker: check/sometimes.ts) and names those no run reached.
 */
export interface SometimesManifest {
  readonly id: string;
  /** The situation, as people read it ("a transfer completed"). */
  readonly title: string;
}

/** A protocol feature: off by default, switched on per run (`SimConfig.features`). */
export interface FeatureManifest {
  /** Its name in configurations, links, `--features` and the Settings tab. */
  readonly name: string;
  /** The `NodeFeatures` field a node reads on its hot paths. */
  readonly flag: string;
  /** The dissertation's section (Ongaro 2014) or the paper's. */
  readonly section: string;
  readonly title: string;
  /** One or two sentences for the Settings tab. */
  readonly explanation: string;
  /** Its bugs: each needs the feature on (checkConfig says so). */
  readonly bugs: readonly BugManifest[];
  /** Its invariants: checked only in runs with the feature on (the checkers: featureInvariants.ts). */
  readonly invariants: readonly InvariantManifest[];
  /** Its rules, shown in the pseudocode panel only in runs with the feature on. */
  readonly pseudocode: readonly SectionText[];
  /** The ids of its lines that its detail events cite (pseudocodeIds.ts), in their order there. */
  readonly cites: readonly string[];
  /** The kinds of detail event it records (their bodies are typed in events.ts). */
  readonly details: readonly string[];
  /** Situations the fuzzer must reach in runs with the feature (check/sometimes.ts decides each). */
  readonly sometimes: readonly SometimesManifest[];
}

/**
 * In the core manifest's ordered lists: where a feature's rows go (its name), or where every
 * feature not placed by name goes (`*`, in the registry's order). A feature placed nowhere comes
 * at the end of the list, so a new feature needs no line in core.ts.
 */
export interface FeatureSlot {
  readonly slot: string;
}

/** What is not switchable: the chapter's Raft and lock service, and the lab's fault model. */
export interface CoreManifest {
  readonly bugs: readonly BugManifest[];
  readonly invariants: readonly (InvariantManifest | FeatureSlot)[];
  /** Checked once, on the clients' whole history (invariants.ts, HISTORY_CHECK_IDS). */
  readonly historyChecks: readonly InvariantManifest[];
  readonly pseudocode: readonly (SectionText | FeatureSlot)[];
  readonly cites: readonly (string | FeatureSlot)[];
  readonly details: readonly string[];
  /** Situations the fuzzer must reach in some runs, whatever their features. */
  readonly sometimes: readonly SometimesManifest[];
}
