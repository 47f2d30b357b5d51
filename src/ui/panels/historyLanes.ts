/**
 * Geometry of the History view: one row per client (the service's own operations in a row of
 * their own), three tracks per row — lock operations, writes to the fenced store, writes to the
 * unfenced store — and one bar per operation from its invocation to its completion (to the time
 * on screen while it is still open). Plain data, so tests can check it without a DOM.
 */
import type { HistoryOpJson } from '../../sim/model/history';
import { VERDICT_NAMES, type LinearizabilityReport, type VerdictName } from '../../sim/check/linearizability/check';

export const TRACKS = ['lock', 'fenced', 'unfenced'] as const;
export type Track = (typeof TRACKS)[number];

/** `info`: an imported operation that may or may not have taken effect (Jepsen's :info, or no completion). */
/** `fail`: an imported operation that certainly did not take effect (Jepsen's :fail). */
export type BarTone = 'ok' | 'refused' | 'open' | 'service' | 'info' | 'fail';

export interface HistoryBar {
  readonly op: HistoryOpJson;
  readonly row: number;
  readonly track: Track;
  readonly x: number;
  readonly width: number;
  readonly tone: BarTone;
  /** Still open at the time on screen (or never completed). */
  readonly open: boolean;
}

export interface HistoryLayout {
  readonly rows: readonly string[];
  readonly bars: readonly HistoryBar[];
  readonly fromMs: number;
  readonly toMs: number;
  /** ms → x within [left, left + width]; quiet stretches are folded (see `folds`). */
  readonly x: (ms: number) => number;
  /** Where a quiet stretch was folded to GAP_PX: its x and the ms it stands for. */
  readonly folds: readonly { readonly x: number; readonly ms: number }[];
  /** The start of each busy stretch, for the axis. */
  readonly ticks: readonly { readonly x: number; readonly ms: number }[];
}

/** A quiet stretch longer than this is folded... */
const FOLD_MS = 200;
/** ...to this many pixels. */
const GAP_PX = 14;
/** Busy stretches reach this far around each operation. */
const PAD_MS = 15;

/**
 * A piecewise-linear time axis: busy stretches (where operations run) share the width in
 * proportion to their length, quiet ones longer than FOLD_MS shrink to GAP_PX. A preset's
 * operations are tens of ms long and seconds apart; on a linear axis they would be slivers.
 */
function foldedAxis(ops: readonly HistoryOpJson[], fromMs: number, toMs: number, left: number, width: number) {
  const spans = ops
    .map((o) => [Math.max(fromMs, o.invokeMs - PAD_MS), Math.min(toMs, (o.completeMs ?? o.invokeMs) + PAD_MS)] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const busy: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = busy[busy.length - 1];
    if (last !== undefined && a - last[1] <= FOLD_MS) last[1] = Math.max(last[1], b);
    else busy.push([a, b]);
  }
  if (busy.length === 0) busy.push([fromMs, toMs]);
  // Everything between busy stretches (and before the first, after the last) is quiet.
  const pieces: { a: number; b: number; quiet: boolean }[] = [];
  let at = fromMs;
  for (const [a, b] of busy) {
    if (a > at) pieces.push({ a: at, b: a, quiet: a - at > FOLD_MS });
    pieces.push({ a, b, quiet: false });
    at = b;
  }
  if (toMs > at) pieces.push({ a: at, b: toMs, quiet: toMs - at > FOLD_MS });
  const quietCount = pieces.filter((p) => p.quiet).length;
  const linearMs = pieces.reduce((sum, p) => sum + (p.quiet ? 0 : p.b - p.a), 0);
  const k = Math.max(0, width - quietCount * GAP_PX) / Math.max(1, linearMs);
  const starts: number[] = [];
  let x0 = left;
  for (const p of pieces) {
    starts.push(x0);
    x0 += p.quiet ? GAP_PX : (p.b - p.a) * k;
  }
  const x = (ms: number): number => {
    const t = Math.min(Math.max(ms, fromMs), toMs);
    for (let i = pieces.length - 1; i >= 0; i--) {
      const p = pieces[i];
      if (t < p.a) continue;
      const span = p.quiet ? GAP_PX : (p.b - p.a) * k;
      return starts[i] + (p.b === p.a ? 0 : ((t - p.a) / (p.b - p.a)) * span);
    }
    return left;
  };
  const folds = pieces.flatMap((p, i) => (p.quiet ? [{ x: starts[i] + GAP_PX / 2, ms: p.b - p.a }] : []));
  const ticks = pieces.flatMap((p, i) => (p.quiet ? [] : [{ x: starts[i], ms: p.a }]));
  return { x, folds, ticks };
}

/** The row the service's own operations (expiries, ghost releases) sit on. */
export const SERVICE_ROW = 'service';

/** The colour of an operation's bar: what the client was told (service operations apart). */
export function opTone(op: HistoryOpJson): BarTone {
  if (op.op === 'expire' || op.op === 'ghost-release') return 'service';
  if (op.result === null) return 'open';
  return op.result === 'granted' || op.result === 'released' || op.result === 'accepted' || op.result === 'ok' ? 'ok' : 'refused';
}

export function layoutHistory(
  ops: readonly HistoryOpJson[],
  clients: readonly string[],
  atMs: number,
  left: number,
  width: number,
): HistoryLayout {
  const rows = [...clients];
  if (ops.some((o) => o.op === 'expire' || o.op === 'ghost-release')) rows.push(SERVICE_ROW);
  const fromMs = ops.length === 0 ? 0 : Math.max(0, Math.min(...ops.map((o) => o.invokeMs)) - 50);
  const toMs = Math.max(atMs, fromMs + 1);
  const { x, folds, ticks } = foldedAxis(ops, fromMs, toMs, left, width);
  const bars: HistoryBar[] = [];
  for (const op of ops) {
    const service = op.op === 'expire' || op.op === 'ghost-release';
    const row = rows.indexOf(service ? SERVICE_ROW : op.client);
    if (row < 0) continue;
    const track: Track = op.store ?? 'lock';
    const open = op.completeMs === null || op.completeMs > atMs;
    const end = open ? toMs : (op.completeMs as number);
    const x0 = x(op.invokeMs);
    // At least a few pixels: an operation that completes in the millisecond it starts still shows.
    bars.push({ op, row, track, x: x0, width: Math.max(3, x(end) - x0), tone: opTone(op), open });
  }
  return { rows, bars, fromMs, toMs, x, folds, ticks };
}

/** Where a click on a failed verdict seeks: the last moment of its subset (everything in it has happened). */
export function subsetSeekMs(ops: readonly HistoryOpJson[], subset: readonly number[]): number {
  let t = 0;
  for (const id of subset) {
    const o = ops[id];
    if (o === undefined) continue;
    t = Math.max(t, o.completeMs ?? o.invokeMs);
  }
  return t;
}

/** The verdict whose subset is shown: the one a person chose if it failed, else the first that failed; null when all passed. */
export function shownVerdict(verdicts: LinearizabilityReport, chosen: VerdictName | null = null): VerdictName | null {
  if (chosen !== null && verdicts[chosen]?.linearizable === false) return chosen;
  return VERDICT_NAMES.find((n) => verdicts[n]?.linearizable === false) ?? null;
}

/** The operation ids of the shown verdict's minimal subset (empty when every verdict passed). */
export function shownSubset(verdicts: LinearizabilityReport | null, chosen: VerdictName | null = null): number[] {
  if (verdicts === null) return [];
  const name = shownVerdict(verdicts, chosen);
  const v = name === null ? undefined : verdicts[name];
  return v?.linearizable === false ? [...v.subset] : [];
}
