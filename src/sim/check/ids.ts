/**
 * What every checker shares: the ids of what is checked (from the features' manifests) and how a
 * checker reports a violation to the one that records it (invariants.ts). Checkers import this,
 * never each other's files, so a new one is a file and a line.
 */
import { consistentRun, featuresOf, hasTokens, lockOf, runsRaft, type SimConfig } from '../model/config';
import { INVARIANT_LOCK_SERVICE, LOCK_COMMON_INVARIANTS } from '../model/lockServices';
import { INVARIANT_FEATURE, INVARIANT_IDS, type InvariantId } from '../model/features';
import type { LogEntry } from '../model/types';

export type { HistoryCheckId, InvariantId } from '../model/features';

/** Reports one violation: which invariant, who is involved, and one plain sentence. */
export type Violate = (id: InvariantId, nodes: readonly string[], sentence: string) => void;

/** What the main checker knows of the committed log, by index. */
export interface CommittedLog {
  /** The term of the entry committed at `index`, or undefined if none is known yet. */
  committedTerm(index: number): number | undefined;
  /** The entry first applied at `index` on any node, or undefined if none applied it yet. */
  appliedEntry(index: number): LogEntry | undefined;
}

/** The invariants a run of another lock service checks (besides Raft's, for those on it). */
export function lockServiceInvariantIds(service: string, consistent: boolean, tokens: boolean): InvariantId[] {
  const own: Record<string, InvariantId[]> = {
    zookeeper: ['zk-ephemeral-session', 'zk-holder-lowest'],
    etcd: ['etcd-lease-keys', 'etcd-revision', 'etcd-holder-lowest'],
    advisory: ['advisory-unlock-owner', 'advisory-session-locks'],
    redis: ['redis-compare-delete'],
    redlock: ['redlock-validity'],
    gossip: ['gossip-heartbeats'],
  };
  const shared: InvariantId[] = [];
  if (consistent) shared.push('lock-exclusive');
  if (tokens) shared.push('lock-tokens');
  return [...shared, ...(own[service] ?? [])];
}

/** The lock services' own and shared invariants: checked only in their runs. */
const LOCK_IDS: ReadonlySet<string> = new Set([...Object.keys(INVARIANT_LOCK_SERVICE), ...LOCK_COMMON_INVARIANTS.map((i) => i.id)]);
/** The chapter's lock service's invariants (the other services have their own). */
const RAFT_LOCK_IDS: ReadonlySet<string> = new Set([
  'one-holder',
  'tokens',
  'expire-token',
  'release-owner',
  'client-reply',
  'client-token',
  'client-token-unique',
  'client-lease',
  'client-lease-honoured',
]);
/** What every run with clients checks, whatever its service: the fenced store's rule, and an engine that never throws. */
const ANY_SERVICE_IDS: ReadonlySet<string> = new Set(['fencing', 'fenced-store-exact', 'engine-crash']);

/**
 * The invariants a run with this configuration checks: every one, less those of features it has
 * off; with another lock service (issue 26), Raft's only if it runs Raft, and that service's own.
 */
export function invariantsFor(config: SimConfig): InvariantId[] {
  const features = featuresOf(config);
  const withFeatures = INVARIANT_IDS.filter((id) => {
    const needs = INVARIANT_FEATURE[id];
    return needs === undefined || features.includes(needs);
  });
  const lock = lockOf(config);
  if (lock === 'raft') return withFeatures.filter((id) => !LOCK_IDS.has(id));
  const own = new Set<string>(lockServiceInvariantIds(lock, consistentRun(config), hasTokens(config)));
  const raft = runsRaft(config);
  return withFeatures.filter((id) => own.has(id) || ANY_SERVICE_IDS.has(id) || (raft && !LOCK_IDS.has(id) && !RAFT_LOCK_IDS.has(id)));
}
