/** CheckQuorum (Ongaro 2014 §6.2): a leader cut off from a majority steps down. */
import { line, type FeatureManifest } from './types';

export const checkQuorum = {
  name: 'check-quorum',
  flag: 'checkQuorum',
  section: '§6.2',
  title: 'CheckQuorum',
  explanation:
    'A leader that has not heard from a majority for an election timeout steps down, and voters ignore RequestVote while they hear from a leader.',
  bugs: [
    // The leader counts itself twice when it checks for a majority (§6.2).
    {
      name: 'quorum-counts-self-twice',
      flag: 'quorumCountsSelfTwice',
      blurb: 'with CheckQuorum, the leader counts itself twice (needs check-quorum)',
      faults: ['partition'],
      caughtBy: ['check-quorum-step-down'],
    },
  ],
  invariants: [{ id: 'check-quorum-step-down', title: 'CheckQuorum: a cut-off leader steps down' }],
  pseudocode: [
    {
      id: 'cq',
      title: 'CheckQuorum',
      source: 'Ongaro 2014 §6.2 (feature check-quorum)',
      lines: [
        line(
          'cq.step-down',
          0,
          'leader, every shortest election timeout: if fewer than a majority answered since the last check, step down',
        ),
        line(
          'cq.ignore-vote',
          0,
          'on RequestVote of a higher term within the shortest timeout of hearing a leader: ignore it, keep the term',
        ),
      ],
    },
  ],
  cites: ['cq.step-down', 'cq.ignore-vote'],
  // vote-ignored is membership's too: without CheckQuorum, §4.2.3's rule ignores a removed server.
  details: ['vote-ignored', 'quorum-lost'],
  sometimes: [],
} as const satisfies FeatureManifest;
