/** Plain-data views of a finished (or paused) run, for `--json`, tests and the summary text. */
import type { Cluster } from './cluster';
import { commandText, pyList } from './describe';
import type { LockService } from './lockService';
import type { Command, LogEntry } from './types';

export interface JsonLogEntry {
  readonly term: number;
  readonly command: Command;
}

export function logEntryJson(entry: LogEntry): JsonLogEntry {
  return { term: entry.term, command: entry.command };
}

export function runReport(cluster: Cluster, lockService: LockService | null) {
  const nodes: Record<string, unknown> = {};
  for (const node of cluster.nodes) {
    const locks: Record<string, { owner: string; token: number; leaseMs: number }> = {};
    for (const [key, holder] of node.stateMachine.locks) locks[key] = { owner: holder.owner, token: holder.token, leaseMs: holder.leaseMs };
    nodes[node.id] = {
      alive: node.alive,
      role: node.role,
      term: node.term,
      votedFor: node.votedFor,
      commitIndex: node.commitIndex,
      lastApplied: node.lastApplied,
      nextToken: node.stateMachine.nextToken,
      locks,
      driftPct: cluster.driftPct[node.index],
      log: node.log.map(logEntryJson),
    };
  }
  const leadersByTerm: Record<string, string[]> = {};
  for (const [term, ids] of [...cluster.leadersByTerm].sort((a, b) => a[0] - b[0])) leadersByTerm[String(term)] = [...ids];
  const sent = {
    RequestVote: cluster.sent.RequestVote ?? 0,
    VoteReply: cluster.sent.VoteReply ?? 0,
    AppendEntries: cluster.sent.AppendEntries ?? 0,
    AppendReply: cluster.sent.AppendReply ?? 0,
  };
  return {
    now: cluster.nowMs,
    events: cluster.events.map((e) => e.line),
    nodes,
    leadersByTerm,
    electionSafety: cluster.electionSafetyHolds(),
    sent,
    dropped: cluster.dropped,
    ...(lockService ? lockService.report() : {}),
  };
}

/** The chapter-style closing lines: leaders per term, Election Safety, and each node's log. */
export function summaryLines(cluster: Cluster): string[] {
  const lines: string[] = [];
  const terms = [...cluster.leadersByTerm].sort((a, b) => a[0] - b[0]);
  const leaders = '{' + terms.map(([t, ids]) => `${t}: ${pyList(ids)}`).join(', ') + '}';
  lines.push(`leaders per term: ${leaders}; election safety holds: ${cluster.electionSafetyHolds() ? 'True' : 'False'}`);
  const leader = cluster.leader();
  const maxTerm = Math.max(0, ...cluster.nodes.map((n) => n.term));
  lines.push(
    leader
      ? `leader at ${cluster.nowMs} ms: ${leader.id} (term ${leader.term})`
      : `no leader at ${cluster.nowMs} ms; highest term ${maxTerm}`,
  );
  const texts = cluster.nodes.map((n) => n.log.map((e) => commandText(e.command)));
  const first = JSON.stringify(texts[0]);
  const equal = texts.filter((t) => JSON.stringify(t) === first).length;
  const n = cluster.nodes.length;
  const committedEverywhere = cluster.nodes.filter((node) => node.commitIndex === node.log.length).length;
  if (equal === n && texts[0].length > 0) {
    lines.push(`${n}/${n} logs equal ${pyList(texts[0])}, committed on ${committedEverywhere}/${n}`);
  }
  for (const node of cluster.nodes) {
    const state = node.alive ? node.role : `down (was ${node.role})`;
    const log = node.log.length > 12 ? `${node.log.length} entries, last ${commandText(node.log[node.log.length - 1].command)}` : pyList(texts[node.index]);
    lines.push(`${node.id}: ${state}, term ${node.term}, commit index ${node.commitIndex}, log ${log}`);
  }
  return lines;
}
