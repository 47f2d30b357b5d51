/**
 * Membership changes, one server at a time (Ongaro 2014, §4.1), with new servers catching up as
 * non-voting learners first (§4.2.1). One `Membership` per node, only in runs with the feature:
 *
 * - A node's configuration is its latest configuration entry in its log, else the one its
 *   snapshot carries (snapshots feature), else the run's initial servers; an entry takes effect as
 *   soon as it is appended (§4.1), and a truncated one is undone with it (never one a snapshot holds).
 * - Elections and commits count only the voters of that configuration; a leader that is not in
 *   its own configuration (it is removing itself) counts neither itself nor its vote (§4.2.2).
 * - Leader bookkeeping: the learner being caught up, and the servers of the previous
 *   configuration still sent entries until the change commits (so a removed server usually hears
 *   of its removal and stops campaigning).
 */
import type { RaftLog } from './log';
import { Voters } from './quorum';
import type { Command, ConfigCommand, SnapshotConfig } from '../model/types';

export function isConfigCommand(command: Command): command is ConfigCommand {
  return typeof command !== 'string' && command.type === 'config';
}

export class Membership {
  /** The voters of the configuration in force on this node. */
  voters: readonly string[];
  /** The same voters as a quorum: whose votes and answers count, and how many make a majority. */
  quorum: Voters;
  /** The log index of the entry that made it (0: the run's initial configuration). */
  configIndex = 0;
  /** That entry (null for the initial configuration). */
  entry: ConfigCommand | null = null;
  /** The configuration before it (the initial one when `configIndex` is 0). */
  previous: readonly string[];
  /** Leader only: the server being caught up before it joins (§4.2.1); two only with the bug config-changes-at-once. */
  learners: readonly string[] = [];
  /** Leader only: when the learner was added, for the Why text. */
  learnerSinceMs = 0;

  constructor(readonly initial: readonly string[]) {
    this.voters = initial;
    this.quorum = new Voters(initial);
    this.previous = initial;
  }

  isVoter(id: string): boolean {
    return this.quorum.has(id);
  }

  /** Whether `id` is out of its configuration and knows the entry that removed it is committed. */
  removedFor(id: string, commitIndex: number): boolean {
    return !this.voters.includes(id) && commitIndex >= this.configIndex;
  }

  /** How many voters a majority of the configuration in force needs. */
  get majority(): number {
    return this.quorum.majority;
  }

  /** How many of `ids` are voters (votes, pre-votes, servers heard from). */
  countVoters(ids: Iterable<string>): number {
    return this.quorum.count(ids);
  }

  /** The configuration this node's snapshot carries (null: no snapshot, or none taken with it). */
  private held: SnapshotConfig | null = null;

  /** A snapshot was taken, installed or restored: its configuration is the one below the log. */
  hold(config: SnapshotConfig | undefined): void {
    this.held = config ?? null;
  }

  /**
   * The configuration in force at index `upTo` of `log`: its latest configuration entry at or
   * below `upTo` (above the snapshot), else the snapshot's, else the initial one. What a snapshot
   * taken at `upTo` carries.
   */
  configAt(log: RaftLog, upTo: number): SnapshotConfig {
    let latest: ConfigCommand | null = null;
    let latestIndex = 0;
    let before: ConfigCommand | null = null;
    for (let i = upTo; i > log.snapshotIndex; i--) {
      const command = (log.entryAt(i) as { command: Command }).command;
      if (!isConfigCommand(command)) continue;
      if (latest === null) {
        latest = command;
        latestIndex = i;
      } else {
        before = command;
        break;
      }
    }
    const held = this.held;
    if (latest === null) return held ?? { index: 0, entry: null, voters: this.initial, previous: this.initial };
    const previous = before !== null ? before.voters : held !== null ? held.voters : this.initial;
    return { index: latestIndex, entry: latest, voters: latest.voters, previous };
  }

  /**
   * Re-reads the configuration from `log` (after entries were appended or truncated, or a
   * snapshot installed): the latest configuration entry, and the one before it. Returns whether
   * the configuration changed.
   */
  refresh(log: RaftLog): boolean {
    const c = this.configAt(log, log.lastIndex);
    if (c.index === this.configIndex && c.entry === this.entry) return false;
    this.configIndex = c.index;
    this.entry = c.entry;
    this.voters = c.voters;
    if (this.quorum.ids !== c.voters) this.quorum = new Voters(c.voters);
    this.previous = c.previous;
    return true;
  }

  /**
   * Whom a node sends to: the voters; a leader also its learner and, until the latest change
   * commits, the servers the change removed (so they hear of it).
   */
  peersOf(self: string, leader: boolean, commitIndex: number): string[] {
    const ids = this.voters.filter((id) => id !== self);
    if (!leader) return ids;
    if (this.configIndex > commitIndex) for (const id of this.previous) if (id !== self && !ids.includes(id)) ids.push(id);
    for (const id of this.learners) if (!ids.includes(id)) ids.push(id);
    return ids;
  }

  /** Whether a configuration entry is appended but not yet committed. */
  changePending(commitIndex: number): boolean {
    return this.configIndex > commitIndex;
  }
}

/** The configuration entry adding `id` to `voters`, or removing it. */
export function configEntry(voters: readonly string[], op: 'add' | 'remove', id: string): ConfigCommand {
  const next = op === 'add' ? sortIds([...voters, id]) : voters.filter((v) => v !== id);
  return Object.freeze({ type: 'config', voters: Object.freeze(next), op, node: id });
}

/** Node ids in ring order: n2 before n10, then by text. */
export function sortIds(ids: readonly string[]): string[] {
  return [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
