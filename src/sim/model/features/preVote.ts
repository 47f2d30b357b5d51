/** Pre-vote (Ongaro 2014 §9.6): a would-be candidate asks first, without raising its term. */
import { line, type FeatureManifest } from './types';

export const preVote = {
  name: 'pre-vote',
  flag: 'preVote',
  section: '§9.6',
  title: 'Pre-vote',
  explanation:
    'A would-be candidate first asks whether it could win, without raising its term, so a node rejoining after a partition does not depose a healthy leader.',
  bugs: [
    // The pre-candidate raises its term as a real candidate would (defeats §9.6).
    {
      name: 'pre-vote-raises-term',
      flag: 'preVoteRaisesTerm',
      blurb: 'with pre-vote, a pre-candidate raises its term anyway (needs pre-vote)',
      faults: ['partition', 'crash'],
      caughtBy: ['pre-vote-term'],
    },
    // A voter grants a pre-vote although it heard a leader within the election timeout (defeats §9.6's point).
    {
      name: 'pre-vote-ignores-leader',
      flag: 'preVoteIgnoresLeader',
      blurb: 'with pre-vote, a node says yes to a pre-vote although it hears a leader (needs pre-vote)',
      faults: ['rejoin'],
      caughtBy: ['pre-vote-heard-leader'],
    },
    // A pre-candidate counts a yes without looking at its term: one from an earlier round counts.
    {
      name: 'pre-vote-stale-yes',
      flag: 'preVoteStaleYes',
      blurb: 'with pre-vote, a pre-candidate counts a yes from an earlier round (needs pre-vote)',
      faults: ['stale-pre-vote'],
      caughtBy: ['pre-vote-round'],
    },
  ],
  invariants: [
    { id: 'pre-vote-term', title: 'Pre-vote: a cut-off node keeps its term' },
    { id: 'pre-vote-heard-leader', title: 'Pre-vote: a node that hears a leader says no' },
    { id: 'pre-vote-round', title: 'Pre-vote: a campaign follows a majority of yeses to its own round' },
  ],
  pseudocode: [
    {
      id: 'prevote',
      title: 'Pre-vote',
      source: 'Ongaro 2014 §9.6 (feature pre-vote)',
      lines: [
        line('prevote.start', 0, 'when the election timer fires: ask all for a pre-vote for term + 1; keep term and vote'),
        line(null, 0, 'on a pre-vote request (nothing is recorded, no timer reset):'),
        line('prevote.refuse.stale-term', 1, 'if the proposed term is not newer than currentTerm: no'),
        line('prevote.refuse.log', 1, "if the candidate's log is behind (last term, then last index): no"),
        line('prevote.refuse.hears-leader', 1, 'if a leader was heard within the shortest election timeout (or I lead): no'),
        line(null, 1, 'else: yes'),
        line('prevote.win', 0, 'on yeses from a majority: term += 1, vote for self, send RequestVote to all'),
      ],
    },
  ],
  cites: ['prevote.start', 'prevote.win', 'prevote.refuse.stale-term', 'prevote.refuse.log', 'prevote.refuse.hears-leader'],
  details: ['pre-vote-started', 'pre-vote-won', 'pre-vote-refused'],
  sometimes: [
    { id: 'pre-vote-refused-hearing-leader', title: 'a pre-vote was refused because the voter heard a leader' },
    { id: 'pre-vote-late-yes', title: 'a pre-candidate got a yes from an earlier round' },
  ],
} as const satisfies FeatureManifest;
