/**
 * The shapes of a lock service's manifest (issue 26: the chapter's trade-off table, runnable).
 * One manifest per service in this folder, `index.ts` the registry: the picker, the config
 * check, links, the CLI, the bugs menu, the invariants panel, the fuzzer and the Compare view all
 * read it. Manifests are data: no behaviour; the sentences stay in describe.ts.
 */
import type { BugManifest, InvariantManifest } from '../features/types';

/** A switch of one service (`--lock-options persist`, `lockopts=persist` in links). */
export interface LockOptionManifest {
  readonly name: string;
  readonly title: string;
  readonly explanation: string;
}

/** The chapter's trade-off table, one row, in the chapter's own words (shared/seeds/002). */
export interface ChapterRow {
  /** The table's first column ("Embedded Raft group"); for Redlock, which the table has no row for, the debate's words. */
  readonly mechanism: string;
  readonly safeWhenPaused: string;
  readonly failover: string;
  /** The chapter's constant, never measured: labelled so on the page. */
  readonly writeCost: string;
  readonly fencingToken: string;
  readonly operationalCost: string;
}

export interface LockServiceManifest {
  /** Its name in configurations, links, `--lock` and the Settings picker. */
  readonly name: string;
  readonly title: string;
  /** One or two sentences for the picker: what it is and how a lock is held. */
  readonly explanation: string;
  /** Runs on the Raft engine (the replicated log carries its state); the others are servers of their own. */
  readonly raft: boolean;
  /** What its fencing token is ("the znode's creation zxid"), or null: it has none. */
  readonly token: string | null;
  /** Server ids: `prefix` + 1..n; how many a run may have, and how many it gets when picked. */
  readonly prefix: string;
  readonly minServers: number;
  readonly maxServers: number;
  /** The number of servers a run gets when it switches to this service without naming a count. */
  readonly defaultServers: number;
  /** A consistent service: two clients holding one lock within their own leases is a violation, not a finding. */
  readonly consistent: boolean;
  readonly options: readonly LockOptionManifest[];
  readonly bugs: readonly BugManifest[];
  readonly invariants: readonly InvariantManifest[];
  readonly chapter: ChapterRow;
}
