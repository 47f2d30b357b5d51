/**
 * Issue 28: how many gossip rounds a suspicion takes to reach every live node, against cluster
 * size — the chapter's "gossip spreads suspicion in a logarithmic number of rounds". One run: N
 * nodes with the gossip detector, a follower crashed once the first leader is settled, run until
 * every live node's view suspects it (or a cap). Used by `npm run bench` (the cost per run at 100
 * to 1,000 nodes) and its test; no diagram (the page draws at most 9 nodes).
 */
import { DEFAULT_CONFIG, nodeIdsFor, type SimConfig } from '../model/config';
import { Simulation } from '../run/simulation';

export interface GossipConvergence {
  readonly nodes: number;
  /** Rounds from the crash until the last live node suspected the crashed one. */
  readonly rounds: number | null;
  /** Rounds from the first suspicion to the last: how long the news took to spread. */
  readonly spreadRounds: number | null;
  /** Of the live nodes, how many learnt it from a peer's gossip rather than their own silence. */
  readonly toldByGossip: number;
  readonly gossipRounds: number;
}

export const GOSSIP_CRASH_AT_MS = 1000;

export function gossipConfig(nodes: number, seed: number, suspectMs = 600): SimConfig {
  return { ...DEFAULT_CONFIG, seed, nodeIds: nodeIdsFor(nodes), detector: { kind: 'gossip', suspectMs } };
}

export function gossipConvergence(nodes: number, seed: number, suspectMs = 600): GossipConvergence {
  const config = gossipConfig(nodes, seed, suspectMs);
  const sim = new Simulation(config);
  sim.advanceTo(GOSSIP_CRASH_AT_MS);
  const cluster = sim.cluster;
  const g = cluster.gossip;
  if (g === null) throw new RangeError('gossipConvergence needs the gossip detector');
  const leader = cluster.leader()?.id ?? null;
  const victim = config.nodeIds.find((id) => id !== leader) as string;
  sim.act({ verb: 'crash', node: victim });
  const roundMs = g.params.roundMs;
  const cap = GOSSIP_CRASH_AT_MS + suspectMs + 40 * roundMs;
  let t = GOSSIP_CRASH_AT_MS;
  while (t < cap) {
    t += roundMs;
    sim.advanceTo(t);
    const s = g.suspectedBy(victim);
    if (s.by === s.of) break;
  }
  const of = g.suspicions.filter((s) => s.member === victim && s.t >= GOSSIP_CRASH_AT_MS);
  const done = g.suspectedBy(victim);
  if (of.length === 0 || done.by < done.of) return { nodes, rounds: null, spreadRounds: null, toldByGossip: 0, gossipRounds: g.rounds };
  const first = Math.min(...of.map((s) => s.t));
  const last = Math.max(...of.map((s) => s.t));
  return {
    nodes,
    rounds: (last - GOSSIP_CRASH_AT_MS) / roundMs,
    spreadRounds: (last - first) / roundMs,
    toldByGossip: of.filter((s) => s.how === 'gossip').length,
    gossipRounds: g.rounds,
  };
}
