/**
 * The clients' history on the space-time view's lanes: each operation a bar from its invocation
 * to its completion, right of its client's lane (the client's own lease sits left of it), one
 * track for the lock service and one per store, coloured as the History view colours them; the
 * service's own operations (a lease's expiry, a ghost lock's release) right of the lane of the node
 * that performed them (its lease bar stands just right of it), or of the service lane.
 * When a verdict failed, its minimal subset is outlined and everything else dimmed.
 */
import type { HistoryOpJson } from '../../sim/model/history';
import { opTone, TRACKS, type BarTone, type Track } from '../panels/historyLanes';
import { history as sayHistory } from '../../sim/model/describe';
import { laneOf, type LaneLayout } from './lanes';

/** What a bar needs of an operation: Lockstep's history records, or an imported history's operations. */
export type SceneOp = Pick<HistoryOpJson, 'id' | 'client' | 'store' | 'invokeMs' | 'completeMs'> & { readonly op: string };

/** What the view is given: the operations up to the time on screen and the subset to outline. */
export interface SceneHistory {
  readonly ops: readonly SceneOp[];
  /** The ids of a failed verdict's minimal subset; empty when every verdict passed. */
  readonly subset: ReadonlySet<number>;
  /** The time the history was taken at: operations still open there run to it. */
  readonly atMs: number;
  /** An imported history's tone and label per operation (default: Lockstep's, from the result the client saw). */
  readonly toneOf?: (op: SceneOp) => BarTone;
  readonly labelOf?: (op: SceneOp) => string;
}

export interface OpBar {
  readonly id: number;
  readonly lane: string;
  readonly track: Track;
  /** The bar's centre x and its ends (px). */
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  readonly tone: BarTone;
  /** Not completed by `atMs` (drawn faint, running to `atMs`). */
  readonly open: boolean;
  readonly inSubset: boolean;
  /** A subset is outlined and this bar is not in it. */
  readonly dimmed: boolean;
  /** `#5 B acquire job:42 → granted 2 (13000-13045 ms)`. */
  readonly label: string;
  /** When it was answered, or `atMs` while open: where a click on it seeks. */
  readonly endMs: number;
}

/** Offsets right of a lane's centre (px): the first track's centre, the step between tracks, a bar's width. */
export const OP_GEOMETRY = { first: 14, step: 8, width: 6 } as const;

const isServiceOp = (op: SceneOp) => op.op === 'expire' || op.op === 'ghost-release';

/** The operations that overlap [t0, t1], placed on the layout's lanes (operations without a lane are left out). */
export function opBars(
  history: SceneHistory | undefined,
  layout: LaneLayout,
  actorIds: readonly string[],
  t0: number,
  t1: number,
  y: (t: number) => number,
): OpBar[] {
  if (!history || history.ops.length === 0) return [];
  const bars: OpBar[] = [];
  const { subset, atMs } = history;
  for (const op of history.ops) {
    const service = isServiceOp(op);
    // A service operation's `client` is the node whose clock ended the lease: its lane, or the service lane it folds into.
    const lane = laneOf(layout, actorIds, op.client);
    if (!lane || (!service && lane.kind !== 'client')) continue;
    const open = op.completeMs === null || op.completeMs > atMs;
    const end = open ? atMs : (op.completeMs as number);
    if (end < t0 || op.invokeMs > t1) continue;
    const track: Track = op.store ?? 'lock';
    // A node's lease bar stands just right of its lane: expiries go one track further.
    const slot = service ? 1 : TRACKS.indexOf(track);
    const inSubset = subset.has(op.id);
    const y1 = y(Math.max(t0, op.invokeMs));
    const y2 = y(Math.min(t1, end));
    bars.push({
      id: op.id,
      lane: lane.id,
      track,
      x: lane.x + OP_GEOMETRY.first + slot * OP_GEOMETRY.step,
      y1,
      // At least a few pixels: an operation answered in the millisecond it began still shows.
      y2: Math.max(y2, y1 + 3),
      tone: history.toneOf ? history.toneOf(op) : opTone(op as HistoryOpJson),
      open,
      inSubset,
      dimmed: subset.size > 0 && !inSubset,
      label: history.labelOf ? history.labelOf(op) : sayHistory.opText(op as HistoryOpJson),
      endMs: end,
    });
  }
  return bars;
}

/** How opaque a bar is drawn: faint while open, fainter when another subset is outlined. */
export function opAlpha(bar: OpBar): number {
  // An indeterminate operation never returns: it is drawn as its own kind (dashed), not faint.
  return (bar.dimmed ? 0.3 : 1) * (bar.open && bar.tone !== 'info' ? 0.45 : bar.tone === 'info' ? 0.55 : 1);
}

/** The dash an indeterminate operation's outline is drawn with (so it never relies on colour alone). */
export const INFO_DASH = [3, 2] as const;
