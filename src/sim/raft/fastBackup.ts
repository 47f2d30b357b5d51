/**
 * fast-backup: the optimization §5.3 of the Raft paper (and Ongaro 2014, §3.5) sketches. A
 * follower that fails the consistency check says which term its entry at prevLogIndex has and
 * where its run of that term begins; the leader then skips a whole term per round trip instead of
 * backing up one entry at a time. Pure functions of a log: the node calls them only with the
 * feature on, so the chapter's one-entry back-up is untouched without it.
 */
import type { RaftLog } from './log';

export interface ConflictHint {
  /** The term of the follower's entry at prevLogIndex; 0 when its log is too short to have one. */
  readonly conflictTerm: number;
  /** The first index the follower holds of conflictTerm; its log length + 1 when too short. */
  readonly conflictIndex: number;
}

/**
 * The follower's side: what it tells the leader about a failed consistency check at `prevLogIndex`.
 * A check at or below the snapshot's last index never fails (the snapshot holds only committed
 * entries), so the run found starts past it.
 */
export function conflictHint(log: RaftLog, prevLogIndex: number): ConflictHint {
  const last = log.lastIndex;
  if (prevLogIndex > last) return { conflictTerm: 0, conflictIndex: last + 1 };
  const base = log.snapshotIndex;
  const term = log.heldTermAt(prevLogIndex);
  let first = prevLogIndex;
  while (first > base + 1 && log.heldTermAt(first - 1) === term) first--;
  return { conflictTerm: term, conflictIndex: first };
}

/**
 * How the leader moved nextIndex: to the follower's log end (its log is too short), past the
 * leader's own last entry of the conflicting term, or to the follower's first index of that term
 * (the leader has none of it).
 */
export type BackupRule = 'to-follower-end' | 'past-own-term' | 'to-follower-first';

export interface Backup {
  readonly next: number;
  readonly rule: BackupRule;
}

/**
 * The leader's side: the next index to try for a follower whose rejection carried `hint`. A next
 * index at or below the snapshot's last index is then answered with InstallSnapshot.
 */
export function backUp(
  log: RaftLog,
  nextIndex: number,
  hint: ConflictHint,
  /** The bug hint-moves-forward: no cap at nextIndex − 1, so a late hint moves it forward. */
  movesForward = false,
  /** The bug hint-skips-own-term: past the leader's own entries without checking they are of the hinted term. */
  skipsOwnTerm = false,
): Backup {
  let next: number;
  let rule: BackupRule;
  if (hint.conflictTerm === 0) {
    next = hint.conflictIndex;
    rule = 'to-follower-end';
  } else {
    // Terms only grow along a log: walk back past the later terms to the last entry of conflictTerm.
    const base = log.snapshotIndex;
    let j = Math.min(log.lastIndex, nextIndex - 1);
    while (j > base && log.heldTermAt(j) > hint.conflictTerm) j--;
    const termAtJ = j > base || (j === base && base > 0) ? log.heldTermAt(j) : 0;
    if (j > 0 && (termAtJ === hint.conflictTerm || skipsOwnTerm)) {
      // Log Matching: the entries up to there agree with the follower's if its run of that term reaches them.
      next = j + 1;
      rule = 'past-own-term';
    } else {
      next = hint.conflictIndex;
      rule = 'to-follower-first';
    }
  }
  // A rejection answers one AppendEntries; a late or duplicated one may hint past where the
  // leader has already backed up to. A rejection never moves nextIndex forward.
  const cap = nextIndex - 1;
  if (next > cap && !movesForward) next = cap;
  return { next: next > 1 ? next : 1, rule };
}
