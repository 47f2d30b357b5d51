/** Leader no-op (Ongaro 2014 §8): a new leader commits earlier terms' entries through one of its own. */
import { line, type FeatureManifest } from './types';

export const leaderNoop = {
  name: 'leader-noop',
  flag: 'leaderNoop',
  section: '§8',
  title: 'Leader no-op',
  explanation: 'A new leader appends a no-op entry of its own term, so entries left by earlier terms commit at once.',
  bugs: [
    // The new leader takes its no-op as committed before any follower holds it (§8).
    {
      name: 'noop-commits-at-once',
      flag: 'noopCommitsAtOnce',
      blurb: 'with the leader no-op, the new leader takes it as committed at once (needs leader-noop)',
      faults: ['leader-churn', 'crash', 'partition'],
      caughtBy: ['leader-completeness', 'removed-not-leading'],
    },
  ],
  invariants: [{ id: 'noop-first', title: 'Leader no-op: a new leader appends its no-op first' }],
  pseudocode: [
    {
      id: 'noop',
      title: 'Leader no-op',
      source: 'Ongaro 2014 §8 (feature leader-noop)',
      lines: [line('leader.noop', 0, 'on becoming leader: append a no-op of the new term, so earlier entries commit through it')],
    },
  ],
  cites: ['leader.noop'],
  // Its no-op is an ordinary leader-append.
  details: [],
  sometimes: [],
} as const satisfies FeatureManifest;
