/**
 * Protocol features: what production Raft adds to the chapter's (Ongaro's dissertation, 2014).
 * Each is off by default and switched per run (`SimConfig.features`); with none on the engine is
 * the chapter's, draw for draw. Each has one manifest in this folder (types.ts says what one
 * holds), and the chapter's own engine and lock service has one too (core.ts). This registry is
 * the one place a feature is named: every list of features, bugs, invariants, pseudocode and
 * detail kinds is derived here, and the config check, the CLI, share links, the Settings tab's
 * Protocol section, the bugs menu, the invariants panel and the swarm fuzzer all read it.
 * A new feature is a manifest file and a line in FEATURES.
 */
import { checkQuorum } from './checkQuorum';
import { core } from './core';
import { fastBackup } from './fastBackup';
import { leaderNoop } from './leaderNoop';
import { membership } from './membership';
import { paxos } from './paxos';
import { preVote } from './preVote';
import { reads } from './reads';
import { snapshots } from './snapshots';
import { transfer } from './transfer';
import type { FeatureSlot, SectionText } from './types';
import { LOCK_BUGS, LOCK_INVARIANTS, type LockBug } from '../lockServices';

export { core } from './core';
export type { PseudocodeLine } from './types';

/** In this order everywhere: links, the CLI, the Settings tab, and the swarm's draws (one per feature). */
export const FEATURES = [preVote, checkQuorum, leaderNoop, snapshots, reads, fastBackup, transfer, membership] as const;

type Feature = (typeof FEATURES)[number];

export type FeatureName = Feature['name'];

export const FEATURE_NAMES: readonly FeatureName[] = FEATURES.map((f) => f.name);

export function isFeatureName(text: string): text is FeatureName {
  return (FEATURE_NAMES as readonly string[]).includes(text);
}

/** The features a node reads on its hot paths, as booleans worked out once per run. */
export type NodeFeatures = { readonly [F in Feature as F['flag']]: boolean };

export const NO_FEATURES: NodeFeatures = Object.freeze(featureFlags(() => false));

export function nodeFeatures(features: readonly FeatureName[] | undefined): NodeFeatures {
  if (features === undefined || features.length === 0) return NO_FEATURES;
  return featureFlags((f) => features.includes(f));
}

function featureFlags(on: (name: FeatureName) => boolean): NodeFeatures {
  const flags: Record<string, boolean> = {};
  for (const f of FEATURES) flags[f.flag] = on(f.name);
  return flags as NodeFeatures;
}

/** The features in the list's order, each once: one spelling of a set, so links and runs compare equal. */
export function canonicalFeatures(features: readonly FeatureName[]): FeatureName[] {
  return FEATURE_NAMES.filter((f) => features.includes(f));
}

// -- the core's lists with the features' rows in their slots --------------------------------

const isSlot = (item: unknown): item is FeatureSlot => typeof item === 'object' && item !== null && 'slot' in item;

/**
 * A core list with each feature's rows where the core places them: at its `{ slot: name }`, else
 * at `{ slot: '*' }` (in FEATURES order), else after the core's own.
 */
function laidOut<R>(list: readonly (R | FeatureSlot)[], rows: (f: Feature) => readonly R[]): R[] {
  const named = new Set(list.filter(isSlot).map((s) => s.slot));
  const rest = FEATURES.filter((f) => !named.has(f.name));
  const out: R[] = [];
  for (const item of list) {
    if (!isSlot(item)) out.push(item);
    else if (item.slot === '*') for (const f of rest) out.push(...rows(f));
    else for (const f of FEATURES) if (f.name === item.slot) out.push(...rows(f));
  }
  if (!named.has('*')) for (const f of rest) out.push(...rows(f));
  return out;
}

type Slot = Extract<(typeof core.invariants)[number] | (typeof core.pseudocode)[number] | (typeof core.cites)[number], FeatureSlot>['slot'];
type Misplaced = Exclude<Slot, FeatureName | '*'>;
// A slot in core.ts that names no feature fails here, at compile time.
const _slotsNameFeatures: [Misplaced] extends [never] ? true : Misplaced = true;

// -- bugs -------------------------------------------------------------------------------------

type CoreBug = (typeof core.bugs)[number];
type FeatureBug = Feature['bugs'][number];
type Bug = CoreBug | FeatureBug | LockBug;

/**
 * Switchable bugs, each its manifest: negative controls the invariant checker must catch (the
 * chapter's, then each feature's, then each lock service's: src/sim/model/lockServices/).
 */
export const BUGS: readonly Bug[] = [...laidOut<Bug>(core.bugs, (f) => f.bugs), ...LOCK_BUGS];

export type BugName = Bug['name'];

export const BUG_NAMES: readonly BugName[] = BUGS.map((b) => b.name);

/** The feature a feature's bug lives in: the bug means nothing without it. */
export const BUG_FEATURE: Readonly<Partial<Record<BugName, FeatureName>>> = Object.fromEntries(
  FEATURES.flatMap((f) => f.bugs.map((b) => [b.name, f.name])),
);

/** The runs a bug's calibration allows (`npm run fuzz -- --self-check`, test/fuzz.test.ts). */
export const FIND_WITHIN_RUNS = 200;

export function findWithinRuns(bug: Bug): number {
  return 'findWithin' in bug && typeof bug.findWithin === 'number' ? bug.findWithin : FIND_WITHIN_RUNS;
}

/** Each bug in a few words, for the bugs menu. */
export const BUG_BLURBS: Readonly<Record<BugName, string>> = Object.fromEntries(BUGS.map((b) => [b.name, b.blurb])) as Record<
  BugName,
  string
>;

/** The fault kinds a bug's manifest names (fuzz/swarm.ts's BUG_FAULTS: its type checks each is a FaultKind). */
export type FaultKindName = Bug['faults'][number];

export const BUG_FAULT_KINDS: Readonly<Record<BugName, readonly FaultKindName[]>> = Object.fromEntries(
  BUGS.map((b): [BugName, readonly FaultKindName[]] => [b.name, b.faults]),
) as Record<BugName, readonly FaultKindName[]>;

type Flag<B> = Extract<B, { readonly flag: string }>['flag'];

/**
 * The bugs node code reads on its paths, as booleans worked out once per run (`nodeBugs`). A
 * feature's may be left out (off), so a test of the chapter's rules names only the chapter's.
 */
export type NodeBugs = { [K in Flag<CoreBug>]: boolean } & { [K in Flag<FeatureBug>]?: boolean };

/** A run's NodeBugs: every flag, in BUG_NAMES order, on when its bug is. */
export function nodeBugs(bugs: ReadonlySet<BugName>): NodeBugs {
  const flags: Record<string, boolean> = {};
  for (const b of BUGS) if ('flag' in b) flags[b.flag] = bugs.has(b.name);
  return flags as NodeBugs;
}

// -- invariants -------------------------------------------------------------------------------

type Invariant = Exclude<(typeof core.invariants)[number], FeatureSlot> | Feature['invariants'][number] | (typeof LOCK_INVARIANTS)[number];

/** The chapter's and the features' invariants, then the lock services' (checked only in their runs). */
const INVARIANTS: readonly Invariant[] = [...laidOut<Invariant>(core.invariants, (f) => f.invariants), ...LOCK_INVARIANTS];

export type InvariantId = Invariant['id'];

export const INVARIANT_IDS: readonly InvariantId[] = INVARIANTS.map((i) => i.id);

/** The feature whose runs check an invariant (the others apply to every run). */
export const INVARIANT_FEATURE: Readonly<Partial<Record<InvariantId, FeatureName>>> = Object.fromEntries(
  FEATURES.flatMap((f) => f.invariants.map((i) => [i.id, f.name])),
);

export type HistoryCheckId = (typeof core.historyChecks)[number]['id'];

export const HISTORY_CHECK_IDS: readonly HistoryCheckId[] = core.historyChecks.map((c) => c.id);

/** Every invariant's and history check's name as people read it (describe.ts's `invariant.titles`). */
export const INVARIANT_TITLES: Readonly<Record<InvariantId | HistoryCheckId, string>> = Object.fromEntries(
  [...INVARIANTS, ...core.historyChecks].map((i) => [i.id, i.title]),
) as Record<InvariantId | HistoryCheckId, string>;

// -- sometimes --------------------------------------------------------------------------------

type Sometimes = (typeof core.sometimes)[number] | Feature['sometimes'][number];

/** Reachability properties (check/sometimes.ts): the core's, then each feature's, in FEATURES order. */
export const SOMETIMES: readonly Sometimes[] = [...core.sometimes, ...FEATURES.flatMap((f): readonly Sometimes[] => f.sometimes)];

export type SometimesId = Sometimes['id'];

export const SOMETIMES_IDS: readonly SometimesId[] = SOMETIMES.map((s) => s.id);

/** The feature a run needs for a property to be reachable at all (the core's need none). */
export const SOMETIMES_FEATURE: Readonly<Partial<Record<SometimesId, FeatureName>>> = Object.fromEntries(
  FEATURES.flatMap((f) => f.sometimes.map((s: Sometimes) => [s.id, f.name])),
);

// -- pseudocode and details -------------------------------------------------------------------

export interface PseudocodeSection extends SectionText {
  /** A protocol feature's rules: shown only in runs with that feature on. */
  readonly feature?: FeatureName;
}

/** The pseudocode panel's sections, in its order (pseudocode.ts). */
export const PSEUDOCODE: readonly PseudocodeSection[] = laidOut<PseudocodeSection>(core.pseudocode, (f) =>
  f.pseudocode.map((s) => ({ ...s, feature: f.name })),
);

export type PseudocodeId = Extract<(typeof core.cites)[number], string> | Feature['cites'][number] | PaxosPseudocodeId;

/** The lines a detail event can cite (pseudocodeIds.ts). */
export const PSEUDOCODE_IDS: readonly PseudocodeId[] = laidOut<PseudocodeId>(core.cites, (f) => f.cites);

export type DetailKindName = (typeof core.details)[number] | Feature['details'][number] | PaxosDetailKind;

/** Every kind of detail event (events.ts types their bodies and checks the two lists agree). */
export const DETAIL_KINDS: readonly DetailKindName[] = laidOut<DetailKindName>(core.details, (f) => f.details);

// -- the Paxos family (paxos.ts) --------------------------------------------------------------
// Its own lists, apart from Raft's: a Raft run's bugs, invariants, pseudocode and the swarm's
// draws never see them (so every Raft run stays what it was); its detail kinds and cited line
// ids join the types above so that one DetailEvent union and one describeDetail serve both.

export { paxos } from './paxos';

/** The protocol families a run can be; absent in a configuration means Raft. */
export const PROTOCOL_NAMES = ['raft', 'paxos', 'multi-paxos'] as const;
export type ProtocolName = (typeof PROTOCOL_NAMES)[number];

export function isProtocolName(text: string): text is ProtocolName {
  return (PROTOCOL_NAMES as readonly string[]).includes(text);
}

type PaxosBug = (typeof paxos.bugs)[number];
export type PaxosBugName = PaxosBug['name'];
export const PAXOS_BUGS: readonly PaxosBug[] = paxos.bugs;
export const PAXOS_BUG_NAMES: readonly PaxosBugName[] = paxos.bugs.map((b) => b.name);

export function isPaxosBugName(text: string): text is PaxosBugName {
  return (PAXOS_BUG_NAMES as readonly string[]).includes(text);
}

/** The Paxos bugs a run of `protocol` can switch on (multipaxos-skip-prepare needs a leader). */
export function paxosBugsOf(protocol: ProtocolName): readonly PaxosBugName[] {
  return PAXOS_BUGS.filter((b) => (b.protocols as readonly string[]).includes(protocol)).map((b) => b.name);
}

/** The Paxos node's bug switches, worked out once per run. */
export type PaxosNodeBugs = { readonly [B in PaxosBug as B['flag']]: boolean };

export function paxosNodeBugs(bugs: readonly string[]): PaxosNodeBugs {
  const flags: Record<string, boolean> = {};
  for (const b of PAXOS_BUGS) flags[b.flag] = bugs.includes(b.name);
  return flags as PaxosNodeBugs;
}

export type PaxosInvariantId = (typeof paxos.invariants)[number]['id'];
export const PAXOS_INVARIANT_IDS: readonly PaxosInvariantId[] = paxos.invariants.map((i) => i.id);
export const PAXOS_INVARIANT_TITLES: Readonly<Record<PaxosInvariantId, string>> = Object.fromEntries(
  paxos.invariants.map((i) => [i.id, i.title]),
) as Record<PaxosInvariantId, string>;

export type PaxosPseudocodeId = (typeof paxos.cites)[number];
export type PaxosDetailKind = (typeof paxos.details)[number];
export const PAXOS_DETAIL_KINDS: readonly PaxosDetailKind[] = paxos.details;

/** The Paxos pseudocode sections a run of `protocol` shows, in the panel's order. */
export function paxosPseudocodeOf(protocol: ProtocolName): readonly SectionText[] {
  return paxos.pseudocode.filter((s) => (s.protocols as readonly string[]).includes(protocol));
}
