/**
 * Paxos ballots (Lamport, "Paxos Made Simple", §2.2: "different proposers choose their numbers
 * from disjoint sets of numbers"): a ballot is a (round, proposer) pair, ordered by round and then
 * by proposer, and shown like "7.2" (round 7 of proposer n2). Proposers are numbered from 1 by
 * their place in the run's node list, and a run has at most 9 nodes, so one integer
 * `round * 10 + proposer` keeps the pair's order under plain `<` and `>` — the acceptor's
 * comparisons on the hot path stay integer ones. Ballot 0 is "none yet": below every real one.
 */

export type Ballot = number;

export const NO_BALLOT: Ballot = 0;

export function ballotOf(round: number, proposer: number): Ballot {
  return round * 10 + proposer;
}

export function roundOf(ballot: Ballot): number {
  return Math.floor(ballot / 10);
}

export function proposerOf(ballot: Ballot): number {
  return ballot % 10;
}

/** "7.2", or "none" for NO_BALLOT. */
export function ballotText(ballot: Ballot): string {
  return ballot === NO_BALLOT ? 'none' : `${roundOf(ballot)}.${proposerOf(ballot)}`;
}
