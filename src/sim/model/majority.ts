/**
 * A majority of a fixed set of voters, as a pure function both protocol families count with:
 * Raft's quorum (raft/quorum.ts re-exports it, so the tree still has one majority) and Paxos's
 * acceptors and learners (paxos/). Two majorities of the same set intersect — the one fact both
 * safety arguments rest on (the chapter: "two majorities intersect, so at most one value is chosen").
 */

/** How many of `voters` servers make a majority. */
export function majorityOf(voters: number): number {
  return (voters >> 1) + 1;
}
