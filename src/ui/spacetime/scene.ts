/**
 * What the space-time view draws for one window of a trace, as plain primitives (no DOM, no
 * canvas): lane bands, partitions, message arrows or heartbeat ticks, lease bars, store marks,
 * the clients' operations, the time axis and the cursor. The canvas painter, the DOM overlay, hit-testing and the SVG
 * export all read the same scene, so what is drawn, what is clickable and what is exported agree.
 *
 * Only what is in the window is produced: messages are found by binary search on `sentAt` (rows
 * are in send order) looking back `maxSpanMs`; the few very long rows (a message held for seconds)
 * are kept aside once per trace so one of them does not make every window scan the whole run.
 */
import { ballotText } from '../../sim/model/ballot';
import { scaleLinear } from 'd3';
import { FATE, MESSAGE_TYPES, type FateCode, type MessageColumns, type TraceView } from '../../sim/view/traceColumns';
import type { DropReason, LeaseSpan, StoreMark } from '../../sim/view/traceTypes';
import type { MessageType, Role } from '../../sim/model/types';
import { dropPosition, MESSAGE_KINDS, messageKind, type MessageKind } from '../../paint/messageShapes';
import { yOf, type Segment, type TimeScale, type TimeWindow } from './geometry';
import { foldLabel, quietFolds, type Fold } from './folds';
import { SERVICE_LANE, type LaneLayout } from './lanes';
import { opBars, type OpBar, type SceneHistory } from './historyBars';

export type HeartbeatMode = 'show' | 'fold';

export interface SceneOptions {
  readonly window: TimeWindow;
  /** The y of the window's start (px) and the height the window fills. */
  readonly top: number;
  readonly height: number;
  readonly heartbeats: HeartbeatMode;
  /** The time cursor; null or outside the window: none. */
  readonly nowMs?: number | null;
  /** Fold quiet stretches (nothing but heartbeats) into short breaks, so bursts seconds apart are readable together. */
  readonly compress?: boolean;
  /** Only messages from or to this actor, and only of these types (the event log's filters); absent: all. */
  readonly filter?: MessageFilter;
  /** The clients' operations to draw beside their lanes (the History view's data); absent: none. */
  readonly history?: SceneHistory;
  /** A Paxos run: a node span's `term` is a ballot (model/ballot.ts), labelled "ballot 2.5". */
  readonly ballots?: boolean;
  /** Marks at a time on a lane (an imported trace's commits, configuration changes, violations, nemesis events). */
  readonly marks?: readonly SceneMark[];
}

export type MarkKind = 'commit' | 'conf' | 'violation' | 'nemesis';

export interface SceneMark {
  readonly lane: string;
  readonly ms: number;
  readonly kind: MarkKind;
  readonly text: string;
}

/** A mark as drawn: a commit a diamond, a configuration change a square, a violation a landmark triangle, a nemesis event a rule across the lanes. */
export interface MarkView extends SceneMark {
  readonly x: number;
  readonly y: number;
}

export interface MessageFilter {
  readonly actor: string | null;
  readonly types: ReadonlySet<MessageType> | null;
}

/** A folded quiet stretch as drawn: a break `FOLD_PX` tall labelled with its real length. */
export interface FoldBand {
  readonly from: number;
  readonly to: number;
  readonly y1: number;
  readonly y2: number;
  readonly label: string;
}

/** The height of one folded quiet stretch (px). */
export const FOLD_PX = 26;

export interface SceneArrow extends Segment {
  /** The row in `TraceView.messages`. */
  readonly row: number;
  readonly id: number;
  readonly type: MessageType;
  readonly kind: MessageKind;
  readonly from: string;
  readonly to: string;
  readonly sentAt: number;
  /** Delivery or drop time; null while in flight (the arrow then ends at `untilMs`). */
  readonly endAt: number | null;
  readonly fate: FateCode;
  /** Set for a dropped message: (x2, y2) is then where it died, marked with a cross. */
  readonly dropReason: DropReason | null;
  readonly label: string;
}

/** A heartbeat (or its reply) folded into a tick on its sender's lane. */
export interface HeartbeatTick {
  readonly row: number;
  readonly x: number;
  readonly y: number;
  readonly kind: MessageKind;
}

export type BandState = Role | 'down' | 'up' | 'paused' | 'crashed';

/** A stretch of one lane in one state (a node's role and term, a client's up/paused/crashed). */
export interface LaneBand {
  readonly lane: string;
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  readonly state: BandState;
  /** "term 2" (or "n1 leads, term 2" on the service lane) where the band starts inside the window; else null. */
  readonly label: string | null;
}

export interface PartitionBand {
  readonly x1: number;
  readonly x2: number;
  readonly y1: number;
  readonly y2: number;
  /** Its colour (an index into the theme's group colours): 0 for the majority side, 1 and 3 for minority sides, as on the ring. */
  readonly group: number;
  /** The smaller side(s): shaded more strongly. */
  readonly minority: boolean;
  /** "cut off: n1, n2" on the group's first band, where the partition starts inside the window; else null. */
  readonly label: string | null;
}

export interface LeaseBar {
  readonly side: LeaseSpan['side'];
  readonly lane: string;
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  readonly owner: string;
  /** Null with a lock service that has no token (issue 26). */
  readonly token: number | null;
  /** "A's lease, token 1" / "service: A holds, token 1". */
  readonly label: string;
  /** Where the label sits (the bar's start, or the window's top when the bar began earlier). */
  readonly labelY: number;
  readonly ended: LeaseSpan['ended'];
  /** The bar runs on past the window's end (the lease is still open at the trace's end, or ends later). */
  readonly open: boolean;
}

/** A client acting after its own lease ended: a dotted line from the lease's end to its last such write. */
export interface LeaseOverrun {
  readonly lane: string;
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  readonly client: string;
  readonly token: number | null;
}

export interface StoreMarkView {
  readonly store: StoreMark['store'];
  readonly x: number;
  readonly y: number;
  readonly t: number;
  readonly accepted: boolean;
  readonly token: number | null;
  readonly client: string;
  readonly message: number | null;
  /** "token 2 ok", "token 1 < 2 refused". */
  readonly text: string;
  /** The same in two short lines for a narrow lane: ["token 1 < 2", "refused"]. */
  readonly lines: readonly [string, string];
}

export interface AxisTick {
  readonly y: number;
  readonly t: number;
  readonly label: string;
}

export interface Scene {
  readonly window: TimeWindow;
  readonly top: number;
  readonly height: number;
  readonly arrows: readonly SceneArrow[];
  readonly ticks: readonly HeartbeatTick[];
  readonly bands: readonly LaneBand[];
  readonly partitions: readonly PartitionBand[];
  readonly leases: readonly LeaseBar[];
  readonly overruns: readonly LeaseOverrun[];
  readonly storeMarks: readonly StoreMarkView[];
  /** The clients' operations, right of their lanes. */
  readonly ops: readonly OpBar[];
  readonly marks: readonly MarkView[];
  readonly axis: readonly AxisTick[];
  readonly axisUnit: 's' | 'ms';
  /** The cursor's y, or null when `nowMs` is outside the window. */
  readonly cursorY: number | null;
  /** The time scale the scene was drawn with (folds included): y of t and t of y for clicks. */
  readonly scale: TimeScale;
  /** Quiet stretches folded into breaks (compress mode), in time order. */
  readonly folds: readonly FoldBand[];
  /**
   * Messages in the window not drawn as arrows of their own because an arrow of the same kind
   * between the same lanes already covers the same pixels (a long window of a long run).
   */
  readonly merged: number;
}

/** Offsets from a lane's centre (px): client lease bars left, service lease bars right, heartbeat ticks further left. */
export const LANE_GEOMETRY = { band: 10, lease: 15, leaseWidth: 7, tick: 24, tickLength: 7 } as const;

const DROP_REASONS: readonly (DropReason | null)[] = [null, null, 'loss', 'down', 'partition'];

/** The kind of every (type, ok, heartbeat) combination, by `type * 4 + ok * 2 + heartbeat`. */
const KIND_TABLE: readonly MessageKind[] = MESSAGE_TYPES.flatMap((type) =>
  [0, 1, 2, 3].map((bits) => messageKind({ type, ok: (bits & 2) !== 0, heartbeat: (bits & 1) !== 0 })),
);
const KIND_INDEX = new Map(MESSAGE_KINDS.map((k, i) => [k, i]));
const KIND_CODE: readonly number[] = KIND_TABLE.map((k) => KIND_INDEX.get(k) as number);

/** Rows whose sentAt→end is longer than this are kept aside (per trace) rather than widening every window's look-back. */
const LONG_SPAN_MS = 2_000;

/** First row with sentAt ≥ t. */
export function firstRowAtOrAfter(sentAt: Float64Array, count: number, t: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sentAt[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface TraceIndex {
  readonly count: number;
  readonly untilMs: number;
  /** Rows longer than LONG_SPAN_MS, in send order. */
  readonly longRows: Int32Array;
  /** StoreWrite rows, in send order. */
  readonly writes: Int32Array;
}

const indexes = new WeakMap<MessageColumns, TraceIndex>();

function traceIndex(trace: TraceView): TraceIndex {
  const cols = trace.messages;
  const known = indexes.get(cols);
  if (known && known.count === cols.count && known.untilMs === trace.untilMs) return known;
  const long: number[] = [];
  const writes: number[] = [];
  const storeWrite = MESSAGE_TYPES.indexOf('StoreWrite');
  const scan = cols.maxSpanMs > LONG_SPAN_MS;
  for (let i = 0; i < cols.count; i++) {
    if (cols.type[i] === storeWrite) writes.push(i);
    if (scan) {
      const end = Number.isNaN(cols.endAt[i]) ? trace.untilMs : cols.endAt[i];
      if (end - cols.sentAt[i] > LONG_SPAN_MS) long.push(i);
    }
  }
  const index = { count: cols.count, untilMs: trace.untilMs, longRows: Int32Array.from(long), writes: Int32Array.from(writes) };
  indexes.set(cols, index);
  return index;
}

/** ["token 2", "ok"], ["token 1 < 2", "refused"], ["no token", "ok"]: what a store mark says, in two lines. */
export function storeMarkLines(m: Pick<StoreMark, 'accepted' | 'token' | 'highestBefore'>): [string, string] {
  const verdict = m.accepted ? 'ok' : 'refused';
  if (m.token === null) return ['no token', verdict];
  if (m.accepted || m.highestBefore === null) return [`token ${m.token}`, verdict];
  const cmp = m.token < m.highestBefore ? '<' : m.token === m.highestBefore ? '=' : '>';
  return [`token ${m.token} ${cmp} ${m.highestBefore}`, verdict];
}

/** "token 2 ok", "token 1 < 2 refused", "no token ok". */
export function storeMarkText(m: Pick<StoreMark, 'accepted' | 'token' | 'highestBefore'>): string {
  return storeMarkLines(m).join(' ');
}

/** The axis's unit: ms while its ticks are under a second apart, else seconds. */
export function axisUnit(step: number): 's' | 'ms' {
  return step >= 1000 ? 's' : 'ms';
}

/** A tick's label without its unit (the unit heads the axis): "12", "1,500", "12.5". */
export function axisLabel(t: number, step: number): string {
  if (axisUnit(step) === 's') return `${+(t / 1000).toFixed(3)}`;
  const digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
  const [whole, frac] = t.toFixed(digits).split('.');
  // Thousands separators by hand: toLocaleString costs more than the rest of a small scene.
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

export function buildScene(trace: TraceView, layout: LaneLayout, opts: SceneOptions): Scene {
  const [t0, t1] = opts.window;
  const folds = opts.compress ? activityFolds(trace, t0, t1) : [];
  const scale: TimeScale =
    folds.length > 0
      ? { t0, t1, top: opts.top, height: opts.height, folds, foldPx: FOLD_PX }
      : { t0, t1, top: opts.top, height: opts.height };
  const y = (t: number) => yOf(scale, t);
  const cols = trace.messages;
  const lanes = layout.lanes;
  const laneOf = layout.laneOfActor;
  const ids = trace.actorIds;
  const fold = opts.heartbeats === 'fold';
  const index = traceIndex(trace);
  const filterActor = opts.filter?.actor != null ? ids.indexOf(opts.filter.actor) : -1;
  const filterTypes = opts.filter?.types ?? null;

  const arrows: SceneArrow[] = [];
  const ticks: HeartbeatTick[] = [];
  // Folded heartbeats: at most one tick per lane per pixel row.
  const lastTickY = new Float64Array(lanes.length).fill(-Infinity);
  // Arrows that would land on the same pixels as the last kept one of their kind between the
  // same lanes (and the same fate) are merged into it: a whole 10-minute run stays a few
  // thousand arrows, not a hundred thousand, and looks the same.
  const slots = lanes.length * lanes.length * MESSAGE_KINDS.length * 3;
  const lastY1 = new Float64Array(slots).fill(-Infinity);
  const lastY2 = new Float64Array(slots).fill(-Infinity);
  let merged = 0;
  const visit = (i: number) => {
    const sent = cols.sentAt[i];
    const rawEnd = cols.endAt[i];
    const inFlight = Number.isNaN(rawEnd);
    const end = inFlight ? trace.untilMs : rawEnd;
    if (end < t0 || sent > t1) return;
    const fl = laneOf[cols.from[i]];
    const tl = laneOf[cols.to[i]];
    if (fl < 0 || tl < 0 || fl === tl) return;
    if (filterActor >= 0 && cols.from[i] !== filterActor && cols.to[i] !== filterActor) return;
    if (filterTypes !== null && !filterTypes.has(MESSAGE_TYPES[cols.type[i]])) return;
    const code = cols.type[i] * 4 + cols.ok[i] * 2 + cols.heartbeat[i];
    const kind = KIND_TABLE[code];
    const a = lanes[fl];
    if (fold && cols.heartbeat[i] === 1) {
      if (sent < t0) return;
      const ty = y(sent);
      if (ty - lastTickY[fl] < 1) return;
      lastTickY[fl] = ty;
      ticks.push({ row: i, x: a.x - LANE_GEOMETRY.tick, y: ty, kind });
      return;
    }
    const fate = cols.fate[i] as FateCode;
    const y1 = y(sent);
    const y2 = y(end);
    const slot =
      ((fl * lanes.length + tl) * MESSAGE_KINDS.length + KIND_CODE[code]) * 3 +
      (fate === FATE.inFlight ? 2 : fate === FATE.delivered ? 0 : 1);
    if (y1 - lastY1[slot] < 1 && Math.abs(y2 - lastY2[slot]) < 1) {
      merged++;
      return;
    }
    lastY1[slot] = y1;
    lastY2[slot] = y2;
    const b = lanes[tl];
    const type = MESSAGE_TYPES[cols.type[i]];
    const dropReason = DROP_REASONS[fate];
    const along = dropReason ? dropPosition(dropReason) : 1;
    arrows.push({
      row: i,
      id: cols.id[i],
      type,
      kind,
      from: ids[cols.from[i]],
      to: ids[cols.to[i]],
      sentAt: sent,
      endAt: inFlight ? null : rawEnd,
      fate,
      dropReason,
      label: cols.label[i] ?? type,
      x1: a.x,
      y1,
      x2: a.x + (b.x - a.x) * along,
      y2,
    });
  };
  const lookBack = Math.min(cols.maxSpanMs, LONG_SPAN_MS);
  const lo = firstRowAtOrAfter(cols.sentAt, cols.count, t0 - lookBack);
  if (cols.maxSpanMs > LONG_SPAN_MS) {
    // Long rows sent before the look-back, in send order, so arrows stay in send order.
    for (const i of index.longRows) {
      if (i >= lo) break;
      visit(i);
    }
  }
  for (let i = lo; i < cols.count; i++) {
    if (cols.sentAt[i] > t1) break;
    visit(i);
  }

  return {
    window: opts.window,
    top: opts.top,
    height: opts.height,
    arrows,
    ticks,
    merged,
    bands: laneBands(trace, layout, t0, t1, y, opts.ballots === true),
    partitions: partitionBands(trace, layout, t0, t1, y),
    ...leaseBars(trace, layout, index, t0, t1, y),
    storeMarks: storeMarks(trace, layout, t0, t1, y),
    ops: opBars(opts.history, layout, trace.actorIds, t0, t1, y),
    marks: markViews(opts.marks, layout, t0, t1, y),
    ...(folds.length > 0 ? foldedAxisTicks(scale, folds) : axisTicks(scale)),
    cursorY: opts.nowMs != null && opts.nowMs >= t0 && opts.nowMs <= t1 ? y(opts.nowMs) : null,
    scale,
    folds: folds.map((f) => ({ from: f.from, to: f.to, y1: y(f.from), y2: y(f.to), label: foldLabel(f) })),
  };
}

/**
 * The quiet stretches of [t0, t1]: gaps longer than 3% of the window (at least 40 ms) between
 * moments something other than a heartbeat happened — a message sent or arriving, a role, term,
 * pause, partition or lease changing, a store write.
 */
export function activityFolds(trace: TraceView, t0: number, t1: number): Fold[] {
  const times: number[] = [];
  const add = (t: number | null) => {
    if (t !== null && t >= t0 && t <= t1) times.push(t);
  };
  const cols = trace.messages;
  const lo = firstRowAtOrAfter(cols.sentAt, cols.count, t0 - Math.min(cols.maxSpanMs, LONG_SPAN_MS));
  for (let i = lo; i < cols.count && cols.sentAt[i] <= t1; i++) {
    if (cols.heartbeat[i] === 1) continue;
    add(cols.sentAt[i]);
    add(Number.isNaN(cols.endAt[i]) ? null : cols.endAt[i]);
  }
  for (const sp of trace.nodeSpans) add(sp.from);
  for (const sp of trace.clientSpans) add(sp.from);
  for (const sp of [...trace.partitions, ...trace.leases]) {
    add(sp.from);
    add(sp.to);
  }
  for (const m of trace.storeMarks) add(m.t);
  times.sort((a, b) => a - b);
  return quietFolds(times, t0, t1, Math.max(40, (t1 - t0) * 0.03));
}

type Y = (t: number) => number;

/** Offsets right of a lane's centre (px) where its marks sit. */
export const MARK_GEOMETRY = { dx: 11, size: 6 } as const;

function markViews(marks: readonly SceneMark[] | undefined, layout: LaneLayout, t0: number, t1: number, y: Y): MarkView[] {
  if (!marks) return [];
  const out: MarkView[] = [];
  for (const m of marks) {
    if (m.ms < t0 || m.ms > t1) continue;
    const lane = layout.byId.get(m.lane);
    if (!lane) continue;
    out.push({ ...m, x: lane.x + (m.kind === 'nemesis' ? 0 : MARK_GEOMETRY.dx), y: y(m.ms) });
  }
  return out;
}

function clip(from: number, to: number | null, untilMs: number, t0: number, t1: number): [number, number] | null {
  const end = to ?? untilMs;
  if (end < t0 || from > t1 || end <= from) return null;
  return [Math.max(from, t0), Math.min(end, t1)];
}

function laneBands(trace: TraceView, layout: LaneLayout, t0: number, t1: number, y: Y, ballots = false): LaneBand[] {
  const out: LaneBand[] = [];
  const service = layout.byId.get(SERVICE_LANE);
  // A node's term is labelled where it changes (and at its first span), not at every role change.
  const lastTerm = new Map<string, number>();
  for (const s of trace.nodeSpans) {
    const previous = lastTerm.get(s.node);
    lastTerm.set(s.node, s.term);
    const c = clip(s.from, s.to, trace.untilMs, t0, t1);
    if (!c) continue;
    const own = layout.byId.get(s.node);
    const starts = s.from >= t0;
    if (own) {
      const label =
        starts && s.state !== 'down' && s.term !== previous
          ? ballots
            ? // A Paxos node with no ballot yet (nothing promised or proposed) gets no label: "ballot none" on every lane is noise.
              s.term === 0
              ? null
              : `ballot ${ballotText(s.term)}`
            : `term ${s.term}`
          : null;
      out.push({ lane: own.id, x: own.x, y1: y(c[0]), y2: y(c[1]), state: s.state, label });
    } else if (service && s.state === 'leader') {
      out.push({
        lane: SERVICE_LANE,
        x: service.x,
        y1: y(c[0]),
        y2: y(c[1]),
        state: 'leader',
        label: starts ? `${s.node} leads, term ${s.term}` : null,
      });
    }
  }
  for (const s of trace.clientSpans) {
    const lane = layout.byId.get(s.client);
    const c = lane && clip(s.from, s.to, trace.untilMs, t0, t1);
    if (!lane || !c) continue;
    out.push({
      lane: lane.id,
      x: lane.x,
      y1: y(c[0]),
      y2: y(c[1]),
      state: s.state,
      label: s.state !== 'up' && s.from >= t0 ? s.state : null,
    });
  }
  return out;
}

function partitionBands(trace: TraceView, layout: LaneLayout, t0: number, t1: number, y: Y): PartitionBand[] {
  const out: PartitionBand[] = [];
  const half = layout.laneWidth / 2 - 2;
  const nodes = new Set(trace.actors.nodes);
  for (const p of trace.partitions) {
    const c = clip(p.from, p.to, trace.untilMs, t0, t1);
    if (!c) continue;
    const sizes = p.groups.map((g) => g.filter((a) => nodes.has(a)).length);
    const largest = Math.max(0, ...sizes);
    // The ring's colours: the majority side blue (0), minority sides orange (1), then purple (3).
    let minorities = 0;
    const colourOf = sizes.map((size) => (size < largest ? (minorities++ % 2 === 0 ? 1 : 3) : 0));
    p.groups.forEach((group, gi) => {
      const laneIdx = new Set<number>();
      for (const actor of group) {
        const lane = layout.byId.get(actor);
        if (lane) laneIdx.add(layout.lanes.indexOf(lane));
      }
      // A folded service lane belongs to a group only when the group holds every node.
      const service = layout.byId.get(SERVICE_LANE);
      if (service && trace.actors.nodes.every((n) => group.includes(n))) laneIdx.add(layout.lanes.indexOf(service));
      const sorted = [...laneIdx].sort((a, b) => a - b);
      let first = true;
      for (let k = 0; k < sorted.length;) {
        let j = k;
        while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
        out.push({
          x1: layout.lanes[sorted[k]].x - half,
          x2: layout.lanes[sorted[j]].x + half,
          y1: y(c[0]),
          y2: y(c[1]),
          group: colourOf[gi],
          minority: sizes[gi] < largest,
          label: first && p.from >= t0 ? `side ${gi + 1}: ${group.join(', ')}` : null,
        });
        first = false;
        k = j + 1;
      }
    });
  }
  return out;
}

function leaseBars(
  trace: TraceView,
  layout: LaneLayout,
  index: TraceIndex,
  t0: number,
  t1: number,
  y: Y,
): { leases: LeaseBar[]; overruns: LeaseOverrun[] } {
  const leases: LeaseBar[] = [];
  const overruns: LeaseOverrun[] = [];
  const laneFor = (actor: string) => {
    const a = trace.actorIds.indexOf(actor);
    const i = a < 0 ? -1 : layout.laneOfActor[a];
    return i < 0 ? null : layout.lanes[i];
  };
  for (const l of trace.leases) {
    const lane = laneFor(l.holder);
    if (!lane) continue;
    const client = l.side === 'client';
    const x = lane.x + (client ? -LANE_GEOMETRY.lease : LANE_GEOMETRY.lease);
    const c = clip(l.from, l.to, trace.untilMs, t0, t1);
    if (c) {
      leases.push({
        side: l.side,
        lane: lane.id,
        x,
        y1: y(c[0]),
        y2: y(c[1]),
        owner: l.owner,
        token: l.token,
        label: client ? `${l.owner}'s lease, ${tokenWords(l.token)}` : `service: ${l.owner} holds, ${tokenWords(l.token)}`,
        labelY: y(c[0]),
        ended: l.ended,
        open: (l.to ?? Infinity) > t1,
      });
    }
  }
  for (const o of overrunSpans(trace, index)) {
    const lane = laneFor(o.client);
    const c = lane && clip(o.from, o.to, trace.untilMs, t0, t1);
    if (lane && c)
      overruns.push({ lane: lane.id, x: lane.x - LANE_GEOMETRY.lease, y1: y(c[0]), y2: y(c[1]), client: o.client, token: o.token });
  }
  return { leases, overruns };
}

interface OverrunSpan {
  readonly client: string;
  readonly token: number | null;
  readonly from: number;
  readonly to: number;
}

/** `token 3`, or `no token` with a lock service that has none. */
function tokenWords(token: number | null): string {
  return token === null ? 'no token' : `token ${token}`;
}

const overrunCache = new WeakMap<TraceView, readonly OverrunSpan[]>();

/**
 * Each client lease that ended before its client wrote again under it: from the lease's end to the
 * last StoreWrite the client sent before its next lease began. Once per trace (writes by client,
 * binary search per lease), so a window costs only the clipping.
 */
function overrunSpans(trace: TraceView, index: TraceIndex): readonly OverrunSpan[] {
  const known = overrunCache.get(trace);
  if (known) return known;
  const cols = trace.messages;
  const writesBy = new Map<number, number[]>();
  for (const i of index.writes) {
    let list = writesBy.get(cols.from[i]);
    if (!list) writesBy.set(cols.from[i], (list = []));
    list.push(cols.sentAt[i]);
  }
  const byClient = new Map<string, LeaseSpan[]>();
  for (const l of trace.leases) {
    if (l.side !== 'client') continue;
    let list = byClient.get(l.holder);
    if (!list) byClient.set(l.holder, (list = []));
    list.push(l);
  }
  const out: OverrunSpan[] = [];
  for (const [client, leases] of byClient) {
    const writes = writesBy.get(trace.actorIds.indexOf(client));
    if (!writes) continue;
    const sent = Float64Array.from(writes);
    const sorted = [...leases].sort((a, b) => a.from - b.from);
    sorted.forEach((l, k) => {
      if (l.to === null) return;
      const next = k + 1 < sorted.length ? sorted[k + 1].from : Infinity;
      // The last write sent before the next lease began.
      const w = firstRowAtOrAfter(sent, sent.length, next) - 1;
      if (w >= 0 && writes[w] > l.to) out.push({ client, token: l.token, from: l.to, to: writes[w] });
    });
  }
  overrunCache.set(trace, out);
  return out;
}

function storeMarks(trace: TraceView, layout: LaneLayout, t0: number, t1: number, y: Y): StoreMarkView[] {
  const out: StoreMarkView[] = [];
  for (const m of trace.storeMarks) {
    if (m.t < t0 || m.t > t1) continue;
    const lane = layout.byId.get(m.store);
    if (!lane) continue;
    out.push({
      store: m.store,
      x: lane.x,
      y: y(m.t),
      t: m.t,
      accepted: m.accepted,
      token: m.token,
      client: m.client,
      message: m.message,
      text: storeMarkText(m),
      lines: storeMarkLines(m),
    });
  }
  return out;
}

/** Ticks for each stretch shown to scale between folds, each stretch labelled at its start. */
function foldedAxisTicks(s: TimeScale, folds: readonly Fold[]): { axis: AxisTick[]; axisUnit: 's' | 'ms' } {
  const unit = axisUnit(s.t1 - s.t0 >= 2000 ? 1000 : 1);
  const step = unit === 's' ? 1000 : 1;
  const label = (t: number) => (unit === 's' ? `${+(t / 1000).toFixed(3)}` : axisLabel(Math.round(t), step));
  const axis: AxisTick[] = [];
  let from = s.t0;
  const segments: [number, number][] = [];
  for (const f of folds) {
    if (f.from > from) segments.push([from, f.from]);
    from = f.to;
  }
  if (s.t1 > from) segments.push([from, s.t1]);
  let lastY = -Infinity;
  for (const [a, b] of segments) {
    const px = yOf(s, b) - yOf(s, a);
    const inner =
      px >= 140
        ? scaleLinear()
            .domain([a, b])
            .ticks(Math.round(px / 70))
        : [];
    for (const t of [a, ...inner]) {
      const ty = yOf(s, t);
      if (ty - lastY < 18) continue;
      lastY = ty;
      axis.push({ t, y: ty, label: label(t) });
    }
  }
  return { axis, axisUnit: unit };
}

function axisTicks(s: TimeScale): { axis: AxisTick[]; axisUnit: 's' | 'ms' } {
  const count = Math.max(2, Math.round(s.height / 70));
  const scale = scaleLinear().domain([s.t0, s.t1]);
  const ts = scale.ticks(count);
  const step = ts.length > 1 ? ts[1] - ts[0] : s.t1 - s.t0;
  return { axis: ts.map((t) => ({ t, y: yOf(s, t), label: axisLabel(t, step) })), axisUnit: axisUnit(step) };
}
