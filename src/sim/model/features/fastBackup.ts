/** Fast log back-up (Raft §5.3, the optimization it sketches): a rejection names a whole term to skip. */
import { line, type FeatureManifest } from './types';

export const fastBackup = {
  name: 'fast-backup',
  flag: 'fastBackup',
  section: '§5.3',
  title: 'Fast log back-up',
  explanation:
    "A follower that rejects AppendEntries names the conflicting entry's term and its first index of that term, so the leader backs up a whole term per round trip instead of one entry.",
  bugs: [
    // A follower that sent a hint takes the leader's next AppendEntries unchecked, as if the hint found where the logs agree.
    {
      name: 'hint-skips-check',
      flag: 'hintSkipsCheck',
      blurb:
        'with fast back-up, a follower that sent a hint takes the leader’s next AppendEntries without the consistency check (needs fast-backup)',
      faults: ['figure8-story', 'leader-churn', 'submits', 'crash'],
      caughtBy: ['log-matching', 'state-machine-safety'],
    },
    // A late or duplicated hint moves nextIndex forward (no cap at nextIndex − 1).
    {
      name: 'hint-moves-forward',
      flag: 'hintMovesForward',
      blurb: 'with fast back-up, a late or duplicated hint moves nextIndex forward (needs fast-backup)',
      faults: ['backup-race'],
      caughtBy: ['backup-rule'],
    },
    // The leader skips past its own run of entries without checking that they are of the hinted term.
    {
      name: 'hint-skips-own-term',
      flag: 'hintSkipsOwnTerm',
      blurb: 'with fast back-up, the leader skips past its own entries without checking it holds the hinted term (needs fast-backup)',
      faults: ['backup-race'],
      caughtBy: ['backup-rule'],
    },
  ],
  // hint-skips-check breaks Figure 3's Log Matching, which every run checks; the rule itself is
  // checked on every hinted rejection (messageInvariants.ts).
  invariants: [{ id: 'backup-rule', title: 'Fast back-up: nextIndex goes where the hint says, never forward' }],
  pseudocode: [
    {
      id: 'fb',
      title: 'Fast back-up',
      source: 'Raft §5.3, the optimization it sketches (feature fast-backup)',
      lines: [
        line(
          'fb.hint',
          0,
          'follower, on a failed consistency check: reply with the term at prevLogIndex and the first index holding it (or: my log ends before prevLogIndex)',
        ),
        line(null, 0, 'leader, on such a rejection:'),
        line('fb.to-end', 1, "if the follower's log is too short: nextIndex = its last index + 1"),
        line('fb.skip-term', 1, 'if the leader holds entries of that term: nextIndex = just past its own last one'),
        line('fb.to-first', 1, "else: nextIndex = the follower's first index of that term"),
        line(null, 1, 'retry at once (never forward: at most nextIndex − 1)'),
      ],
    },
  ],
  cites: ['fb.hint', 'fb.to-end', 'fb.skip-term', 'fb.to-first'],
  // Its hint rides on append-rejected (conflictTerm, conflictIndex).
  details: ['backed-up'],
  sometimes: [
    { id: 'hint-late', title: 'a hint arrived after the leader had backed up past it' },
    { id: 'hint-term-not-held', title: 'a hint named a term the leader does not hold, over its entries of an older one' },
  ],
} as const satisfies FeatureManifest;
