/**
 * How long a cluster may take to be live again once faults stop (`calm`), derived from its
 * timings, or why a configuration cannot promise it at all. Raft is live only under timing
 * assumptions (paper §5.6: broadcastTime << electionTimeout << MTBF); these are the ones this
 * engine needs.
 */
import { featuresOf, lockOf, runsRaft, type SimConfig } from '../model/config';
import { deliveryBoundsMs } from '../model/network';

/** Election rounds allowed: split votes, plus one disruption per node that rejoins with a higher term. */
const BASE_ROUNDS = 20;

/** The bound in ms, or one sentence saying why this configuration is exempt. */
export function livenessBound(config: SimConfig, maxLogLength: number): number | string {
  const n = config.nodeIds.length;
  const [tMin, tMax] = config.electionTimeoutMs;
  // The network's bounds (issue 28): the uniform range, or a lognormal's cut, or regions' round trips; a reply
  // may also wait a persist delay (Figure 16), so the longest is a reply's.
  const [lMin, lMax] = deliveryBoundsMs(config);
  const hb = config.heartbeatMs;
  if (!runsRaft(config))
    return `the lock service ${lockOf(config)} runs no Raft, so there is no leader to elect and liveness is not checked`;
  if (config.detector !== undefined && config.detector.kind !== 'fixed') {
    return `with the ${config.detector.kind} detector a follower's deadline is not the election timeout (docs/semantics.md), so this bound does not apply and liveness is not checked`;
  }
  if (n === 1)
    return 'a single node never commits in the chapter’s engine (it commits only when an AppendReply arrives), so liveness is not checked';
  if (tMax - tMin < 2 * lMax + 2) {
    return `the election timeouts (${tMin}-${tMax} ms) are narrower than two message latencies (${2 * lMax} ms), so votes can split forever and liveness is not checked`;
  }
  if (2 * lMax >= tMin)
    return `a vote round trip (up to ${2 * lMax} ms) can outlast the shortest election timeout (${tMin} ms), so liveness is not checked`;
  if (hb + lMax - lMin >= tMin) {
    return `heartbeats (every ${hb} ms, latency ${lMin}-${lMax} ms) can arrive after a follower's timeout (${tMin} ms), so liveness is not checked`;
  }
  if (featuresOf(config).includes('check-quorum') && hb + 2 * (lMax - lMin) + 1 >= tMin) {
    // §6.2: answers reach the leader up to a heartbeat plus two latency spreads apart; a check
    // window (the shortest timeout) no longer than that can miss a live majority.
    return `with check-quorum, answers to heartbeats (every ${hb} ms, latency ${lMin}-${lMax} ms) can be further apart than the leader's check window (${tMin} ms), so liveness is not checked`;
  }
  const round = tMax + 2 * lMax + 1;
  const roundTrip = 2 * lMax + 1;
  // A follower whose log diverged backs the leader up one entry per round trip (§5.3).
  return (BASE_ROUNDS + n) * round + (maxLogLength + 4) * roundTrip + 4 * hb;
}
