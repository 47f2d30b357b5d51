/** Plain-data views of a finished (or paused) run, for `--json`, tests and the summary text. */
import type { Cluster } from '../net/cluster';
import { commandText, describeDetail, detailLine, pyList } from '../model/describe';
import type { DetailEvent, SimEvent } from '../model/events';
import type { LockService } from '../service/lockService';
import { LockStateMachine } from '../service/lockStateMachine';
import { MESSAGE_TYPES, type Command, type LogEntry } from '../model/types';

export interface JsonLogEntry {
  readonly term: number;
  readonly command: Command;
}

export function logEntryJson(entry: LogEntry): JsonLogEntry {
  return { term: entry.term, command: entry.command };
}

export function runReport(cluster: Cluster, lockService: LockService | null) {
  const nodes: Record<string, unknown> = {};
  const noLocks = new LockStateMachine();
  for (const node of cluster.nodes) {
    const machine = lockService !== null ? lockService.machineOf(node) : noLocks;
    const locks: Record<string, { owner: string; token: number; leaseMs: number }> = {};
    for (const [key, holder] of machine.locks) locks[key] = { owner: holder.owner, token: holder.token, leaseMs: holder.leaseMs };
    nodes[node.id] = {
      alive: node.alive,
      role: node.role,
      term: node.term,
      votedFor: node.votedFor,
      commitIndex: node.commitIndex,
      lastApplied: node.lastApplied,
      nextToken: machine.nextToken,
      locks,
      driftPct: cluster.driftPct[node.index],
      log: node.log.map(logEntryJson),
      // Snapshots (§5): only when the node holds one, so a chapter run's JSON keeps its bytes.
      ...(node.snapshot !== null ? { snapshot: { index: node.snapshot.index, term: node.snapshot.term } } : {}),
    };
  }
  const leadersByTerm: Record<string, string[]> = {};
  for (const [term, ids] of [...cluster.leadersByTerm].sort((a, b) => a[0] - b[0])) leadersByTerm[String(term)] = [...ids];
  return {
    now: cluster.nowMs,
    events: cluster.events.map((e) => e.line),
    nodes,
    leadersByTerm,
    electionSafety: cluster.electionSafetyHolds(),
    sent: sentCounts(cluster.sent),
    dropped: cluster.dropped,
    ...(lockService ? lockReport(lockService) : {}),
  };
}

/**
 * Messages sent, by type: the chapter's four always (a Raft-only run's JSON keeps its bytes), then
 * every other type that was sent, in the trace's order of types. A network duplicate is not a send:
 * the trace marks it a copy (`copyOf`), so its messages less its copies are these counts.
 */
export function sentCounts(counts: Readonly<Record<string, number>>): Record<string, number> {
  const sent: Record<string, number> = {
    RequestVote: counts.RequestVote ?? 0,
    VoteReply: counts.VoteReply ?? 0,
    AppendEntries: counts.AppendEntries ?? 0,
    AppendReply: counts.AppendReply ?? 0,
  };
  for (const type of MESSAGE_TYPES) {
    const n = counts[type] ?? 0;
    if (n > 0 && !(type in sent)) sent[type] = n;
  }
  return sent;
}

/** A detail event for `--json`: the structured record, plus its sentence made now by describe.ts. */
export function detailJson(d: DetailEvent) {
  return { t: d.t, kind: d.kind, subjects: d.subjects, values: d.values, lines: d.lines, text: describeDetail(d) };
}

/** Chapter lines with detail lines merged in, in the order they were recorded (`--verbose`). */
export function interleavedLines(events: readonly SimEvent[], details: readonly DetailEvent[]): string[] {
  const out: string[] = [];
  let d = 0;
  for (let i = 0; i < events.length; i++) {
    while (d < details.length && details[d].afterEvent <= i) out.push(detailLine(details[d++]));
    out.push(events[i].line);
  }
  while (d < details.length) out.push(detailLine(details[d++]));
  return out;
}

/** The clients' and stores' part of `--json`. */
export function lockReport(service: LockService) {
  const clients: Record<string, { alive: boolean; paused: boolean; tokens: Record<string, number | null> }> = {};
  for (const c of service.clients.values()) {
    const tokens: Record<string, number | null> = {};
    for (const [key, h] of c.holdings) tokens[key] = h.token;
    clients[c.id] = { alive: c.alive, paused: c.paused(service.cluster.nowMs), tokens };
  }
  return { clients, stores: { fenced: service.fenced.report(), unfenced: service.unfenced.report() } };
}

/** The closing lines of a lock-service run: what each store holds, and whether they disagree. */
export function lockSummaryLines(service: LockService): string[] {
  const lines: string[] = [];
  const { fenced, unfenced } = service;
  for (const store of [fenced, unfenced]) {
    const values = [...store.values].map(([k, v]) => `${k}=${v.value} (token ${v.token ?? 'none'})`).join(', ') || 'empty';
    lines.push(`[${store.id}] store: ${values}; ${store.accepted} accepted, ${store.rejected} rejected`);
  }
  const disagree = [...new Set([...fenced.values.keys(), ...unfenced.values.keys()])].filter(
    (k) => fenced.values.get(k)?.value !== unfenced.values.get(k)?.value,
  );
  if (disagree.length > 0)
    lines.push(
      service.backend !== null && fenced.accepted === 0
        ? `the stores disagree on ${disagree.join(', ')}: the fenced store refused every write (no token to check)`
        : `the stores disagree on ${disagree.join(', ')}: only the fenced one refused the stale write`,
    );
  return lines;
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
  const committedEverywhere = cluster.nodes.filter((node) => node.commitIndex === node.lastLogIndex).length;
  if (equal === n && texts[0].length > 0) {
    lines.push(`${n}/${n} logs equal ${pyList(texts[0])}, committed on ${committedEverywhere}/${n}`);
  }
  for (const node of cluster.nodes) {
    const state = node.alive ? node.role : `down (was ${node.role})`;
    const log =
      node.log.length > 12
        ? `${node.log.length} entries, last ${commandText(node.log[node.log.length - 1].command)}`
        : pyList(texts[node.index]);
    const prefix = node.snapshotIndex > 0 ? `snapshot ≤ ${node.snapshotIndex} (term ${node.snapshotTerm}) then ` : '';
    lines.push(`${node.id}: ${state}, term ${node.term}, commit index ${node.commitIndex}, log ${prefix}${log}`);
  }
  return lines;
}
