/**
 * What the space-time view draws for imported files (issue 27), in the shapes it already draws
 * Lockstep's own runs in: an etcd raft trace as node lanes with role and term bands and every
 * message from its send to its matched receive (an unmatched send as dropped), and a client
 * history as one lane per process with its operations as bars. Commits, configuration changes,
 * invariant violations and nemesis events are marks on a lane at a time.
 */
import type { MessageType } from '../model/types';
import { FATE, emptyColumns, typeCode, type MessageColumns, type TraceView } from '../view/traceColumns';
import type { NodeSpan } from '../view/traceTypes';
import type { EtcdTrace, RaftTraceMessage } from './etcdTrace';
import type { ImportedHistory, ImportedOp } from './history';

/** A mark on a lane: a commit, a configuration change, a violation (a landmark with its Why), a nemesis event. */
export interface LaneMark {
  readonly lane: string;
  readonly ms: number;
  readonly kind: 'commit' | 'conf' | 'violation' | 'nemesis';
  readonly text: string;
  readonly line: number;
}

/** etcd's message types as the view's kinds; others (MsgProp, MsgReadIndex, …) are not drawn. */
const KIND_OF: Readonly<Record<string, { type: MessageType; heartbeat: boolean; reply: boolean }>> = {
  MsgApp: { type: 'AppendEntries', heartbeat: false, reply: false },
  MsgAppResp: { type: 'AppendReply', heartbeat: false, reply: true },
  MsgHeartbeat: { type: 'AppendEntries', heartbeat: true, reply: false },
  MsgHeartbeatResp: { type: 'AppendReply', heartbeat: true, reply: true },
  MsgVote: { type: 'RequestVote', heartbeat: false, reply: false },
  MsgVoteResp: { type: 'VoteReply', heartbeat: false, reply: true },
  MsgPreVote: { type: 'RequestVote', heartbeat: false, reply: false },
  MsgPreVoteResp: { type: 'VoteReply', heartbeat: false, reply: true },
  MsgSnap: { type: 'InstallSnapshot', heartbeat: false, reply: false },
  MsgTimeoutNow: { type: 'TimeoutNow', heartbeat: false, reply: false },
};

function labelOf(m: RaftTraceMessage): string {
  const entries = m.entries === 1 ? '1 entry' : `${m.entries} entries`;
  switch (m.type) {
    case 'MsgApp':
      return `MsgApp term ${m.term}, prev ${m.index}/${m.logTerm}, ${entries}, commit ${m.commit}`;
    case 'MsgAppResp':
      return `MsgAppResp term ${m.term}, ${m.reject ? 'rejected' : `index ${m.index}`}`;
    case 'MsgVote':
    case 'MsgPreVote':
      return `${m.type} term ${m.term}, last ${m.index}/${m.logTerm}`;
    case 'MsgVoteResp':
    case 'MsgPreVoteResp':
      return `${m.type} term ${m.term}, ${m.reject ? 'refused' : 'granted'}`;
    default:
      return `${m.type} term ${m.term}`;
  }
}

/** The trace as the space-time view's columns and spans. */
export function etcdTraceView(t: EtcdTrace, traceId = 1): TraceView {
  const actorIds = [...t.nodes];
  const index = new Map(actorIds.map((a, i) => [a, i]));
  const drawn = t.messages.filter(
    (m) => KIND_OF[m.msg.type] !== undefined && m.msg.from !== m.msg.to && index.has(m.msg.from) && index.has(m.msg.to),
  );
  // A message never received dies where a typical one would have arrived.
  const latencies = drawn.filter((m) => m.receivedAt !== null).map((m) => Math.max(0, (m.receivedAt as number) - m.sentAt));
  latencies.sort((a, b) => a - b);
  const typical = Math.max(1, latencies.length > 0 ? latencies[latencies.length >> 1] : 1);
  const c = emptyColumns(drawn.length) as { -readonly [K in keyof MessageColumns]: MessageColumns[K] };
  const labels: string[] = [];
  let maxSpan = 0;
  drawn.forEach((m, row) => {
    const k = KIND_OF[m.msg.type];
    c.id[row] = m.id;
    c.type[row] = typeCode(k.type);
    c.from[row] = index.get(m.msg.from) as number;
    c.to[row] = index.get(m.msg.to) as number;
    c.sentAt[row] = m.sentAt;
    // Clocks of two nodes may disagree by a little: a receive never lands before its send.
    const end = m.receivedAt !== null ? Math.max(m.sentAt, m.receivedAt) : Math.min(t.endMs + typical, m.sentAt + typical);
    c.endAt[row] = end;
    c.fate[row] = m.receivedAt !== null ? FATE.delivered : FATE.loss;
    c.heartbeat[row] = k.heartbeat ? 1 : 0;
    c.ok[row] = k.reply && !m.msg.reject ? 1 : 0;
    c.cause[row] = -1;
    labels.push(labelOf(m.msg) + (m.receivedAt === null ? ' — never received in the trace' : ''));
    maxSpan = Math.max(maxSpan, end - m.sentAt);
  });
  c.count = drawn.length;
  c.label = labels;
  c.maxSpanMs = maxSpan;
  // Rows must be in send order (the view binary-searches sentAt).
  const order = [...Array(drawn.length).keys()].sort((a, b) => c.sentAt[a] - c.sentAt[b] || a - b);
  const sorted = emptyColumns(drawn.length) as typeof c;
  for (const key of ['id', 'type', 'from', 'to', 'sentAt', 'endAt', 'fate', 'heartbeat', 'ok', 'cause'] as const) {
    const src = c[key] as Int32Array | Uint8Array | Float64Array;
    const dst = sorted[key] as Int32Array | Uint8Array | Float64Array;
    order.forEach((from, to) => (dst[to] = src[from]));
  }
  sorted.count = drawn.length;
  sorted.label = order.map((i) => labels[i]);
  sorted.maxSpanMs = maxSpan;

  const nodeSpans: NodeSpan[] = [];
  const open = new Map<string, { from: number; state: NodeSpan['state']; term: number }>();
  for (const e of t.events) {
    const o = open.get(e.node);
    if (o !== undefined && o.state === e.role && o.term === e.term) continue;
    if (o !== undefined) nodeSpans.push({ node: e.node, from: o.from, to: e.ms, state: o.state, term: o.term });
    open.set(e.node, { from: e.ms, state: e.role, term: e.term });
  }
  for (const [node, o] of open) nodeSpans.push({ node, from: o.from, to: null, state: o.state, term: o.term });
  nodeSpans.sort((a, b) => a.from - b.from || (a.node < b.node ? -1 : 1));
  return {
    traceId,
    untilMs: t.endMs + typical,
    actors: { nodes: actorIds, clients: [], stores: [] },
    actorIds,
    messages: sorted,
    nodeSpans,
    clientSpans: [],
    partitions: [],
    leases: [],
    storeMarks: [],
  };
}

/** The trace's commits, configuration changes and violations as marks on the node lanes. */
export function etcdMarks(t: EtcdTrace): LaneMark[] {
  return [
    ...t.marks.map((m) => ({ lane: m.node, ms: m.ms, kind: m.kind, text: m.text, line: m.line })),
    ...t.violations.map((v) => ({ lane: v.node, ms: v.ms, kind: 'violation' as const, text: v.sentence, line: v.line })),
  ].sort((a, b) => a.ms - b.ms);
}

/** The lane id of a client process (`p3`), so process numbers never collide with node ids. */
export const laneOfProcess = (p: string) => (/^\d+$/.test(p) ? `p${p}` : p);

/**
 * Where an operation sits on the time axis: its file times, else its events' positions in the
 * file (one step per event), so a history without :time still reads in file order.
 */
export function opTimes(h: ImportedHistory, o: ImportedOp): { from: number; to: number | null } {
  if (h.timed && o.callMs !== null) return { from: o.callMs, to: o.ret === null ? null : (o.retMs ?? o.callMs) };
  return { from: o.call, to: o.ret };
}

/** The end of the history's time axis. */
export function historyEnd(h: ImportedHistory): number {
  if (!h.timed) return h.events.length;
  let end = 0;
  for (const o of h.ops) end = Math.max(end, o.retMs ?? o.callMs ?? 0);
  for (const a of h.annotations) end = Math.max(end, a.ms ?? 0);
  return end;
}

/** Up to this many processes, each has its own lane; beyond it, processes share lanes as threads. */
export const OWN_LANES_MAX = 12;

/**
 * The lane of each process. A few processes: one lane each (`p3`). Many — Jepsen replaces a
 * process that crashed (its operation ended :info) with a new number on the same worker thread,
 * so a long run has hundreds — and processes share lanes as those threads do: a process takes
 * the first lane (`t0`, `t1`, …) whose last process has done its last event, so the lanes are
 * as many as ran at once, in file order.
 */
export function processLanes(h: ImportedHistory): Map<string, string> {
  const processes = [...new Set(h.ops.map((o) => o.process))].sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : 1));
  if (processes.length <= OWN_LANES_MAX) return new Map(processes.map((p) => [p, laneOfProcess(p)]));
  const span = new Map<string, { first: number; last: number }>();
  for (const o of h.ops) {
    const s = span.get(o.process);
    const last = o.ret ?? o.call;
    if (s === undefined) span.set(o.process, { first: o.call, last });
    else {
      s.first = Math.min(s.first, o.call);
      s.last = Math.max(s.last, last);
    }
  }
  const order = [...span.entries()].sort((a, b) => a[1].first - b[1].first);
  const freeAfter: number[] = [];
  const lanes = new Map<string, string>();
  for (const [p, { first, last }] of order) {
    let lane = freeAfter.findIndex((end) => end < first);
    if (lane < 0) lane = freeAfter.push(last) - 1;
    else freeAfter[lane] = last;
    lanes.set(p, `t${lane}`);
  }
  return lanes;
}

/** A client history as lanes: one per process, or per thread when there are many (no messages); the operations are drawn as bars. */
export function historyTraceView(h: ImportedHistory, traceId = 1, lanes: Map<string, string> = processLanes(h)): TraceView {
  const clients = [...new Set(lanes.values())].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)) || (a < b ? -1 : 1));
  return {
    traceId,
    untilMs: Math.max(1, historyEnd(h)),
    actors: { nodes: [], clients, stores: [] },
    actorIds: clients,
    messages: emptyColumns(0),
    nodeSpans: [],
    clientSpans: [],
    partitions: [],
    leases: [],
    storeMarks: [],
  };
}

/** The history's nemesis events as marks (on the first lane: the nemesis acts on the whole cluster). */
export function historyMarks(h: ImportedHistory, firstLane: string | null): LaneMark[] {
  if (firstLane === null) return [];
  return h.annotations.map((a) => ({
    lane: firstLane,
    ms: h.timed && a.ms !== null ? a.ms : a.at,
    kind: 'nemesis' as const,
    text: `${a.process} ${a.type} :${a.f}${a.value === 'nil' ? '' : ` ${a.value}`}`,
    line: a.line,
  }));
}
