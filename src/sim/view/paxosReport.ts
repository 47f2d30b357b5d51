/** Plain-data views of a Paxos run, for `--json`, tests and the summary text (report.ts is Raft's). */
import { ballotText } from '../model/ballot';
import type { PaxosCluster } from '../net/paxosCluster';
import type { PaxosNode } from '../paxos/node';

/** What a node holds, slot by slot: accepted (ballot and value) and learned. */
function slotsOf(node: PaxosNode) {
  const slots: Record<string, { accepted: { ballot: string; value: string } | null; learned: string | null }> = {};
  const all = new Set<number>([...node.acceptor.accepted.keys(), ...node.learner.chosen.keys()]);
  for (const slot of [...all].sort((a, b) => a - b)) {
    const a = node.acceptor.accepted.get(slot);
    slots[String(slot)] = {
      accepted: a === undefined ? null : { ballot: ballotText(a.ballot), value: a.value },
      learned: node.learner.chosen.get(slot) ?? null,
    };
  }
  return slots;
}

export function paxosRunReport(cluster: PaxosCluster) {
  const nodes: Record<string, unknown> = {};
  for (const node of cluster.nodes) {
    nodes[node.id] = {
      alive: node.alive,
      phase: node.phase,
      ballot: ballotText(node.ballot),
      promised: ballotText(node.acceptor.promised),
      slots: slotsOf(node),
      ...(cluster.multi ? { applied: node.machine.applied, state: node.machine.text(), leader: node.leaderId } : {}),
    };
  }
  return {
    now: cluster.nowMs,
    protocol: cluster.protocol,
    events: cluster.events.map((e) => e.line),
    nodes,
    chosen: cluster.chosen.map((c) => ({ slot: c.slot, value: c.value, ballot: ballotText(c.ballot), atMs: c.atMs, learnedFirstBy: c.by })),
    sent: { ...cluster.sent },
    dropped: cluster.dropped,
  };
}

/** The closing lines of a Paxos run: what was chosen, and each node's promise, acceptances and learning. */
export function paxosSummaryLines(cluster: PaxosCluster): string[] {
  const lines: string[] = [];
  const sent = cluster.sent;
  const total = Object.values(sent).reduce((a, b) => a + b, 0);
  lines.push(
    `messages: ${total} sent (Prepare ${sent.Prepare}, Promise ${sent.Promise}, Accept ${sent.Accept}, Accepted ${sent.Accepted}, Nack ${sent.Nack}), ${cluster.dropped} dropped`,
  );
  if (!cluster.multi) {
    const c = cluster.chosen[0];
    lines.push(
      c === undefined ? `nothing chosen by ${cluster.nowMs} ms` : `chosen: ${c.value} in ballot ${ballotText(c.ballot)} at ${c.atMs} ms`,
    );
    for (const node of cluster.nodes) {
      const a = node.acceptor.accepted.get(1);
      const learned = node.learner.chosen.get(1);
      lines.push(
        `${node.id}: ${node.alive ? node.phase : `down (was ${node.phase})`}, promised ${ballotText(node.acceptor.promised)}, accepted ${a === undefined ? 'nothing' : `${a.value} in ${ballotText(a.ballot)}`}, learned ${learned ?? 'nothing'}`,
      );
    }
    return lines;
  }
  const leader = cluster.leader();
  lines.push(
    leader ? `leader at ${cluster.nowMs} ms: ${leader.id} (ballot ${ballotText(leader.ballot)})` : `no leader at ${cluster.nowMs} ms`,
  );
  lines.push(`chosen: ${cluster.chosen.length} slot(s)`);
  for (const node of cluster.nodes) {
    const state = node.alive ? node.phase : `down (was ${node.phase})`;
    lines.push(
      `${node.id}: ${state}, promised ${ballotText(node.acceptor.promised)}, learned through slot ${node.learner.learnedThrough}, applied ${node.machine.applied}, state ${node.machine.text()}`,
    );
  }
  return lines;
}
