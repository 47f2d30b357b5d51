/**
 * Where everything sits on the diagram, in viewBox units: nodes on a ring in the middle,
 * clients in a column on the left, the two stores on the right, so client↔node and
 * client↔store messages have paths of their own.
 */
import { VIEW_W, type Box, type DiagramLayout, type Point } from './geometry';
import { placeSideLabels } from './labelPlacement';

export { VIEW_H, VIEW_W } from './geometry';
export type { Box, DiagramLayout, KeepClear, NodeLabelPlace, Point } from './geometry';

/**
 * d3's scalePoint().domain(ids).range([from, to]).padding(0.5), with the same arithmetic in the
 * same order (so the same positions to the last bit). Written out because d3-scale comes as one
 * module: importing it here put its linear scales, and with them d3's colour interpolation, into
 * the page's first chunk, though only the space-time view and the plots (loaded later) use them.
 */
function pointScale(ids: readonly string[], from: number, to: number): (id: string) => number | undefined {
  const n = ids.length;
  const step = (to - from) / Math.max(1, n - 1 + 0.5 * 2);
  const start = from + (to - from - step * (n - 1)) * 0.5;
  return (id) => {
    const i = ids.indexOf(id);
    return i < 0 ? undefined : start + step * i;
  };
}

export const RING = { cx: 470, cy: 292, r: 204 } as const;
export const CLIENT_X = 66;
export const STORE_X = 850;
export const CLIENT_SIZE = { w: 116, h: 66 } as const;
export const STORE_SIZE = { w: 170, h: 100 } as const;

/**
 * Label sizes of the normal ring, in view units. At a projector's 1280×720 the ring is drawn at
 * about 0.66 px per unit, so the smallest (18.5) is over 12 px on screen.
 */
export const RING_FONT = {
  nodeId: 26,
  role: 18.5,
  term: 19,
  side: 18.5,
  clientId: 21,
  clientToken: 18.5,
  storeName: 18.5,
  storeValue: 18.5,
} as const;

export function nodeRadiusFor(count: number): number {
  return count <= 5 ? 54 : count <= 7 ? 50 : 47;
}

/** Where the ring sits and how big its glyphs and side labels are; presenter mode passes its own (src/ui/present/diagramText.ts). */
export interface RingGeometry {
  readonly ring: { readonly cx: number; readonly cy: number; readonly r: number };
  readonly nodeRadius: (count: number) => number;
  readonly clientSize: { readonly w: number; readonly h: number };
  readonly storeSize: { readonly w: number; readonly h: number };
  /** The side labels' font size and line height (view units), to keep them clear of everything else. */
  readonly sideFont: number;
  readonly sideLine: number;
  /** Corners the page draws over (the cut hint), kept clear of labels. */
  readonly reserved?: readonly Box[];
}

/**
 * The cut hint's corner (top right), in view units at the smallest ring it is shown on (about
 * 0.7 px per unit at 1280×720): one line of about 210 px, 8 px from the edges.
 */
export const HINT_CORNER = { x0: VIEW_W - 310, y0: 0, x1: VIEW_W, y1: 36 } as const;

export const RING_GEOMETRY: RingGeometry = {
  ring: RING,
  nodeRadius: nodeRadiusFor,
  clientSize: CLIENT_SIZE,
  storeSize: STORE_SIZE,
  sideFont: RING_FONT.side,
  sideLine: RING_FONT.side * 1.2,
  reserved: [HINT_CORNER],
};

export function diagramLayout(
  nodeIds: readonly string[],
  clientIds: readonly string[],
  hasStores: boolean,
  geometry: RingGeometry = RING_GEOMETRY,
): DiagramLayout {
  const nodes: Record<string, Point> = {};
  const n = nodeIds.length;
  const ring = geometry.ring;
  const radius = geometry.nodeRadius(n);
  nodeIds.forEach((id, i) => {
    // Start at the top and go clockwise, like a clock face.
    const angle = n === 1 ? Math.PI / 2 : -Math.PI / 2 + (2 * Math.PI * i) / n;
    nodes[id] = n === 1 ? { x: ring.cx, y: ring.cy } : { x: ring.cx + ring.r * Math.cos(angle), y: ring.cy + ring.r * Math.sin(angle) };
  });
  const clientY = pointScale(clientIds, 130, 460);
  const clients: Record<string, Point> = {};
  for (const id of clientIds) clients[id] = { x: CLIENT_X, y: clientIds.length === 1 ? ring.cy : (clientY(id) as number) };
  const stores: Record<string, Point> = hasStores ? { fenced: { x: STORE_X, y: 200 }, unfenced: { x: STORE_X, y: 390 } } : {};
  const box = (p: Point, size: { w: number; h: number }): Box => ({
    x0: p.x - size.w / 2,
    y0: p.y - size.h / 2,
    x1: p.x + size.w / 2,
    y1: p.y + size.h / 2,
  });
  const obstacles = [
    ...Object.values(clients).map((p) => box(p, geometry.clientSize)),
    ...Object.values(stores).map((p) => box(p, geometry.storeSize)),
    ...(geometry.reserved ?? []),
  ];
  const { places: nodeLabels, boxes: sideBoxes } = placeSideLabels(nodes, nodeIds, radius, obstacles, geometry.sideFont, geometry.sideLine);
  return {
    nodes,
    nodeLabels,
    clients,
    stores,
    nodeRadius: radius,
    keepClear: { boxes: [...obstacles, ...sideBoxes], glyphs: Object.values(nodes), glyphReach: radius * 1.1 + 10 },
  };
}

/** The point of an actor (node, client or store) by id. */
export function actorPoint(layout: DiagramLayout, id: string): Point | null {
  return layout.nodes[id] ?? layout.clients[id] ?? layout.stores[id] ?? null;
}

/** How far from an actor's centre a message path starts or ends (its glyph's edge). */
export function actorInset(layout: DiagramLayout, id: string): number {
  if (layout.nodes[id]) return layout.nodeRadius + 4;
  if (layout.clients[id]) return CLIENT_SIZE.w / 2 - 6;
  if (layout.stores[id]) return STORE_SIZE.w / 2 - 6;
  return 0;
}

/**
 * A message's lane from src to dst: edge to edge, shifted a little to the right of its
 * direction so a request and its reply travel on separate lanes.
 */
export function messageLane(layout: DiagramLayout, src: string, dst: string): { from: Point; to: Point } | null {
  const a = actorPoint(layout, src);
  const b = actorPoint(layout, dst);
  if (!a || !b) return null;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const shift = 7;
  const px = -uy * shift;
  const py = ux * shift;
  const s = Math.min(actorInset(layout, src), len / 2);
  const e = Math.min(actorInset(layout, dst), len / 2);
  return {
    from: { x: a.x + ux * s + px, y: a.y + uy * s + py },
    to: { x: b.x - ux * e + px, y: b.y - uy * e + py },
  };
}

export function lerp(from: Point, to: Point, t: number): Point {
  return { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
}

/** Which side of the line through a and b the point p is on: 1, -1 (or 0 on the line). */
export function sideOfLine(a: Point, b: Point, p: Point): number {
  return Math.sign((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x));
}

/**
 * The groups a cut drawn from a to b makes of the nodes: one group per side of the line.
 * Returns null unless the cut is long enough and has nodes on both sides.
 */
export function groupsForCut(layout: DiagramLayout, nodeIds: readonly string[], a: Point, b: Point): string[][] | null {
  if (Math.hypot(b.x - a.x, b.y - a.y) < 40) return null;
  const left: string[] = [];
  const right: string[] = [];
  for (const id of nodeIds) {
    const p = layout.nodes[id];
    if (!p) continue;
    (sideOfLine(a, b, p) >= 0 ? left : right).push(id);
  }
  if (left.length === 0 || right.length === 0) return null;
  return [left, right];
}
