/**
 * Hand-built TraceViews for the space-time view's tests, until the recorder fills them: a few
 * messages given as plain objects become the typed-array columns the view reads.
 */
import { FATE, typeCode, type FateCode, type MessageColumns, type TraceView } from '../../src/sim/view/traceColumns';
import type { ClientSpan, LeaseSpan, NodeSpan, PartitionSpan, StoreMark, TraceActors } from '../../src/sim/view/traceTypes';
import type { MessageType } from '../../src/sim/model/types';

export interface FixtureMessage {
  readonly id?: number;
  readonly type: MessageType;
  readonly from: string;
  readonly to: string;
  readonly sentAt: number;
  /** Delivery or drop time; omitted: in flight. */
  readonly endAt?: number;
  readonly fate?: keyof typeof FATE;
  readonly heartbeat?: boolean;
  readonly ok?: boolean;
  readonly label?: string;
}

export interface FixtureSpec {
  readonly untilMs: number;
  readonly actors?: TraceActors;
  readonly messages?: readonly FixtureMessage[];
  readonly nodeSpans?: readonly NodeSpan[];
  readonly clientSpans?: readonly ClientSpan[];
  readonly partitions?: readonly PartitionSpan[];
  readonly leases?: readonly LeaseSpan[];
  readonly storeMarks?: readonly StoreMark[];
}

export const FIVE_NODES: TraceActors = { nodes: ['n1', 'n2', 'n3', 'n4', 'n5'], clients: ['A', 'B'], stores: ['fenced', 'unfenced'] };

export function columns(actorIds: readonly string[], messages: readonly FixtureMessage[], untilMs: number): MessageColumns {
  const n = messages.length;
  const cols = {
    count: n,
    id: new Int32Array(n),
    type: new Uint8Array(n),
    from: new Uint8Array(n),
    to: new Uint8Array(n),
    sentAt: new Float64Array(n),
    endAt: new Float64Array(n),
    fate: new Uint8Array(n),
    heartbeat: new Uint8Array(n),
    ok: new Uint8Array(n),
    cause: new Int32Array(n).fill(-1),
    label: [] as string[],
    maxSpanMs: 0,
  };
  let maxSpan = 0;
  messages.forEach((m, i) => {
    cols.id[i] = m.id ?? i + 1;
    cols.type[i] = typeCode(m.type);
    cols.from[i] = actorIds.indexOf(m.from);
    cols.to[i] = actorIds.indexOf(m.to);
    cols.sentAt[i] = m.sentAt;
    cols.endAt[i] = m.endAt ?? NaN;
    const fate: FateCode = m.endAt === undefined ? FATE.inFlight : FATE[m.fate ?? 'delivered'];
    cols.fate[i] = fate;
    cols.heartbeat[i] = m.heartbeat ? 1 : 0;
    cols.ok[i] = m.ok === false ? 0 : 1;
    cols.label.push(m.label ?? `${m.type} ${m.from}→${m.to}`);
    maxSpan = Math.max(maxSpan, (m.endAt ?? untilMs) - m.sentAt);
  });
  cols.maxSpanMs = maxSpan;
  return cols;
}

export function traceView(spec: FixtureSpec): TraceView {
  const actors = spec.actors ?? FIVE_NODES;
  const actorIds = [...actors.nodes, ...actors.clients, ...actors.stores];
  return {
    traceId: 1,
    untilMs: spec.untilMs,
    actors,
    actorIds,
    messages: columns(actorIds, spec.messages ?? [], spec.untilMs),
    nodeSpans: spec.nodeSpans ?? [],
    clientSpans: spec.clientSpans ?? [],
    partitions: spec.partitions ?? [],
    leases: spec.leases ?? [],
    storeMarks: spec.storeMarks ?? [],
  };
}

/**
 * A long run: `nodes` nodes, a leader heartbeating every `heartbeatMs` and each follower replying,
 * plus a client request every 50 ms: about `count` messages over `untilMs`.
 */
export function longRun(count: number, untilMs: number): TraceView {
  const actors: TraceActors = { nodes: ['n1', 'n2', 'n3', 'n4', 'n5'], clients: ['A', 'B'], stores: ['fenced', 'unfenced'] };
  const actorIds = [...actors.nodes, ...actors.clients, ...actors.stores];
  const perMs = count / untilMs;
  const messages: FixtureMessage[] = [];
  for (let i = 0; i < count; i++) {
    const sentAt = i / perMs;
    const k = i % 10;
    const follower = actors.nodes[1 + (k % 4)];
    const drop = i % 97 === 0;
    if (k < 4)
      messages.push({
        type: 'AppendEntries',
        from: 'n1',
        to: follower,
        sentAt,
        endAt: sentAt + 8 + (i % 7),
        heartbeat: i % 3 !== 0,
        fate: drop ? 'loss' : 'delivered',
      });
    else if (k < 8) messages.push({ type: 'AppendReply', from: follower, to: 'n1', sentAt, endAt: sentAt + 9, heartbeat: i % 3 !== 0 });
    else if (k === 8) messages.push({ type: 'ClientRequest', from: 'A', to: 'n1', sentAt, endAt: sentAt + 12 });
    else messages.push({ type: 'ClientReply', from: 'n1', to: 'A', sentAt, endAt: sentAt + 11 });
  }
  return { ...traceView({ untilMs, actors }), messages: columns(actorIds, messages, untilMs) };
}
