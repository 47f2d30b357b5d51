/**
 * The space-time view's lanes: one column per actor, left to right, time running down. A chosen
 * subset and order is allowed (the chapter's figure uses n2, n1, n3, n5), and the nodes may be
 * folded into one 'service' lane (the fencing figure: A, service, B, fenced): messages between
 * nodes are then hidden and those to or from any node land on that lane.
 */
import type { TraceActors } from '../../sim/view/traceTypes';

/** The id of the lane that folds every node into one. */
export const SERVICE_LANE = 'service';

/** Room on the left for the time axis's labels (px). */
export const AXIS_GUTTER = 64;

export type LaneKind = 'node' | 'client' | 'store' | 'service';

export interface Lane {
  readonly id: string;
  readonly kind: LaneKind;
  /** "n2", "client A", "fenced store", "lease service". */
  readonly label: string;
  /** What the header shows when the full label does not fit ("A", "fenced"). */
  readonly shortLabel: string;
  /** The label the header shows at this width. */
  readonly header: string;
  /** Its font size (px): 16, smaller (down to 11) only when even the short label would run into the next lane's. */
  readonly headerPx: number;
  /** Centre x (px). */
  readonly x: number;
  /** The actors drawn on this lane (every node for the service lane). */
  readonly members: readonly string[];
}

export interface LaneLayout {
  readonly lanes: readonly Lane[];
  readonly width: number;
  /** The width each lane owns (px). */
  readonly laneWidth: number;
  /** Lane index per actor index of `TraceView.actorIds`; -1 when the actor has no lane. */
  readonly laneOfActor: Int16Array;
  readonly byId: ReadonlyMap<string, Lane>;
}

/** Every actor, nodes then clients then stores: the default lanes. */
export function defaultLaneIds(actors: TraceActors): string[] {
  return [...actors.nodes, ...actors.clients, ...actors.stores];
}

/** The same lanes with the nodes folded into one service lane where the first node stood. */
export function foldNodes(laneIds: readonly string[], actors: TraceActors): string[] {
  const nodes = new Set(actors.nodes);
  const out: string[] = [];
  for (const id of laneIds) {
    if (nodes.has(id) || id === SERVICE_LANE) {
      if (!out.includes(SERVICE_LANE)) out.push(SERVICE_LANE);
    } else out.push(id);
  }
  return out;
}

export function laneKind(id: string, actors: TraceActors): LaneKind | null {
  if (id === SERVICE_LANE) return 'service';
  if (actors.nodes.includes(id)) return 'node';
  if (actors.clients.includes(id)) return 'client';
  if (actors.stores.includes(id)) return 'store';
  return null;
}

export function laneLabel(id: string, kind: LaneKind): { label: string; shortLabel: string } {
  switch (kind) {
    case 'service':
      return { label: 'lease service', shortLabel: 'service' };
    case 'node':
      return { label: id, shortLabel: id };
    case 'client':
      return { label: `client ${id}`, shortLabel: id };
    case 'store':
      return { label: `${id} store`, shortLabel: id };
  }
}

/** A header for the narrowest lanes: the stores and the service abbreviated; others keep their short label. */
function tinyLabel(id: string, kind: LaneKind): string {
  if (kind === 'store') return id === 'fenced' ? 'fen.' : id === 'unfenced' ? 'unf.' : id.slice(0, 3) + '.';
  if (kind === 'service') return 'svc';
  return laneLabel(id, kind).shortLabel;
}

/** Roughly how wide a header label is at 16 px (px): enough to choose between the long and short label. */
export function headerTextWidth(text: string, fontPx = 16): number {
  return text.length * fontPx * 0.62;
}

/**
 * Lays the lanes out across `width` px (the first AXIS_GUTTER px hold the time axis). Unknown ids
 * are skipped; a node listed beside the service lane keeps its own lane.
 */
export function laneLayout(
  actorIds: readonly string[],
  actors: TraceActors,
  width: number,
  laneIds: readonly string[] = defaultLaneIds(actors),
): LaneLayout {
  const chosen: { id: string; kind: LaneKind }[] = [];
  for (const id of laneIds) {
    const kind = laneKind(id, actors);
    if (kind && !chosen.some((c) => c.id === id)) chosen.push({ id, kind });
  }
  const usable = Math.max(1, width - AXIS_GUTTER);
  const laneWidth = usable / Math.max(1, chosen.length);
  const lanes: Lane[] = chosen.map(({ id, kind }, i) => {
    const { label, shortLabel } = laneLabel(id, kind);
    const room = laneWidth - 6;
    // The full label, else the short one, shrunk down to 11 px; lanes narrower still (the ring +
    // time view at 1280×720: nine lanes in ~330 px) take the tiny one, so neighbours never run into
    // each other ("fencedunfenced"). The SVG's <title> keeps the full label.
    const tiny = tinyLabel(id, kind);
    const header =
      headerTextWidth(label) <= room ? label : headerTextWidth(shortLabel, 11) <= room || tiny === shortLabel ? shortLabel : tiny;
    const fits = headerTextWidth(header) <= room;
    const headerPx = fits ? 16 : Math.max(11, Math.floor(room / (header.length * 0.62)));
    return {
      id,
      kind,
      label,
      shortLabel,
      header,
      headerPx,
      x: AXIS_GUTTER + laneWidth * (i + 0.5),
      members: kind === 'service' ? actors.nodes : [id],
    };
  });
  const index = new Map(lanes.map((l, i) => [l.id, i]));
  const service = index.get(SERVICE_LANE) ?? -1;
  const nodes = new Set(actors.nodes);
  const laneOfActor = new Int16Array(actorIds.length).fill(-1);
  actorIds.forEach((id, a) => {
    laneOfActor[a] = index.get(id) ?? (nodes.has(id) ? service : -1);
  });
  return { lanes, width, laneWidth, laneOfActor, byId: new Map(lanes.map((l) => [l.id, l])) };
}

/** The lane an actor is drawn on (its own, or the service lane for a folded node), or null. */
export function laneOf(layout: LaneLayout, actorIds: readonly string[], actor: string): Lane | null {
  const a = actorIds.indexOf(actor);
  const i = a < 0 ? -1 : layout.laneOfActor[a];
  return i < 0 ? null : layout.lanes[i];
}
