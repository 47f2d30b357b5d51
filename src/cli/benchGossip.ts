/**
 * Issue 28, item 5: the gossip detector past the page's 9 nodes — the cost of one run (simulated
 * 1.0 s to a leader, a follower crashed, run until every live view suspects it) at 100, 300 and
 * 1,000 nodes, with the rounds the suspicion took to spread against log2 N. The target: a
 * 1,000-node run under 30 s of wall time on this machine (an experiment of a few seeds stays
 * interactive in the CLI).
 */
import { performance } from 'node:perf_hooks';
import { gossipConvergence } from '../sim/experiments/gossipScale';

export const GOSSIP_TARGET_MS = 30_000;

export function benchGossip(out: (line: string) => void): { met: boolean } {
  let met = true;
  for (const n of [100, 300, 1000]) {
    const t0 = performance.now();
    const r = gossipConvergence(n, 1);
    const ms = performance.now() - t0;
    if (n === 1000 && ms >= GOSSIP_TARGET_MS) met = false;
    out(
      `gossip at ${n} nodes: ${Math.round(ms)} ms per run (${r.gossipRounds} gossip rounds); suspicion reached every live node ${r.rounds ?? '-'} rounds after the crash, spreading in ${r.spreadRounds ?? '-'} rounds (log2 N = ${Math.log2(n).toFixed(1)}), ${r.toldByGossip} told by gossip${n === 1000 ? ` (target < ${GOSSIP_TARGET_MS} ms: ${ms < GOSSIP_TARGET_MS ? 'met' : 'MISSED'})` : ''}`,
    );
  }
  return { met };
}
