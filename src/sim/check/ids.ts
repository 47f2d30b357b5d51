/**
 * What every checker shares: the ids of what is checked (from the features' manifests) and how a
 * checker reports a violation to the one that records it (invariants.ts). Checkers import this,
 * never each other's files, so a new one is a file and a line.
 */
import { featuresOf, type SimConfig } from '../model/config';
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

/** The invariants a run with this configuration checks: every one, less those of features it has off. */
export function invariantsFor(config: SimConfig): InvariantId[] {
  const features = featuresOf(config);
  return INVARIANT_IDS.filter((id) => {
    const needs = INVARIANT_FEATURE[id];
    return needs === undefined || features.includes(needs);
  });
}
