/**
 * The chapter's `next_index` / `match_index` dicts, read off a node for tests: empty until the
 * node first led, one entry per peer after (the node keeps them in arrays by peer position).
 */
import type { RaftNode } from '../../src/sim/raft/node';

export function nextIndexMap(node: RaftNode): Map<string, number> {
  return new Map(node.hasLed ? node.peers.map((p) => [p, node.nextIndexOf(p)] as const) : []);
}

export function matchIndexMap(node: RaftNode): Map<string, number> {
  return new Map(node.hasLed ? node.peers.map((p) => [p, node.matchIndexOf(p)] as const) : []);
}
