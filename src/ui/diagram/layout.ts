/**
 * Where everything sits on the diagram, in viewBox units: nodes on a ring in the middle,
 * clients in a column on the left, the two stores on the right, so client↔node and
 * client↔store messages have paths of their own.
 */
import { scalePoint } from 'd3';

export const VIEW_W = 940;
export const VIEW_H = 590;
export const RING = { cx: 470, cy: 292, r: 204 } as const;
export const CLIENT_X = 66;
export const STORE_X = 856;
export const CLIENT_SIZE = { w: 116, h: 66 } as const;
export const STORE_SIZE = { w: 150, h: 100 } as const;

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

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface NodeLabelPlace {
  readonly dx: number;
  readonly dy: number;
  readonly anchor: 'start' | 'middle' | 'end';
  /** The outward direction from the ring's centre, in radians. */
  readonly angle: number;
}

export interface DiagramLayout {
  readonly nodes: Readonly<Record<string, Point>>;
  /** Where each node's side label (votes, drift) goes, relative to the node: outward from the ring. */
  readonly nodeLabels: Readonly<Record<string, NodeLabelPlace>>;
  readonly clients: Readonly<Record<string, Point>>;
  readonly stores: Readonly<Record<string, Point>>;
  /** Glyph radius of a node; smaller for bigger clusters so neighbours never touch. */
  readonly nodeRadius: number;
}

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
}

export const RING_GEOMETRY: RingGeometry = { ring: RING, nodeRadius: nodeRadiusFor, clientSize: CLIENT_SIZE, storeSize: STORE_SIZE, sideFont: RING_FONT.side, sideLine: RING_FONT.side * 1.2 };

/** An axis-aligned box in view units. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const inside = (a: Box, b: Box) => a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1;

/** The widest side label ("clock +50%", or "voted n9" over it): characters, at about 0.62 em each in bold. */
const SIDE_LABEL_CHARS = 10;

/**
 * The box a side label may fill at a place: two lines (a vote and a clock drift can both show),
 * growing away from the node (up for a label above it).
 */
export function sideLabelBox(node: Point, place: NodeLabelPlace, font: number, line: number): Box {
  const w = SIDE_LABEL_CHARS * 0.62 * font;
  const x = node.x + place.dx;
  const x0 = place.anchor === 'start' ? x : place.anchor === 'end' ? x - w : x - w / 2;
  const y = node.y + place.dy;
  const up = place.dy < -5;
  return { x0, x1: x0 + w, y0: up ? y - line * 1.5 : y - line / 2, y1: up ? y + line / 2 : y + line * 1.5 };
}

/**
 * Where a node's side label can go, best first: outward from the ring (neighbours' labels never
 * meet), then above or below the node (away from the ring's centre first), then inward.
 */
function labelCandidates(angle: number, radius: number, line: number): NodeLabelPlace[] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const d = radius * 1.1 + 16;
  const side = (c: number): NodeLabelPlace['anchor'] => (Math.abs(c) < 0.35 ? 'middle' : c > 0 ? 'start' : 'end');
  const outward: NodeLabelPlace = { dx: cos * d, dy: sin * d + (sin > 0.3 ? 8 : sin < -0.3 ? -8 : 0), anchor: side(cos), angle };
  const v = radius * 1.1 + 12 + line / 2;
  const above: NodeLabelPlace = { dx: 0, dy: -v, anchor: 'middle', angle };
  const below: NodeLabelPlace = { dx: 0, dy: v, anchor: 'middle', angle };
  const inward: NodeLabelPlace = { dx: -cos * d, dy: -sin * d, anchor: side(-cos), angle };
  return [outward, ...(sin < 0 ? [above, below] : [below, above]), inward];
}

/**
 * Side labels ("voted n2", "clock +20%") placed so that none touches another node, a client, a
 * store, another node's label or the diagram's edge: each node takes its first free candidate
 * place (outward if it can). Pure and deterministic, so the ring never reshuffles.
 */
export function placeSideLabels(nodes: Readonly<Record<string, Point>>, order: readonly string[], radius: number, obstacles: readonly Box[], font: number, line: number): Record<string, NodeLabelPlace> {
  const n = order.length;
  const frame: Box = { x0: 4, y0: 4, x1: VIEW_W - 4, y1: VIEW_H - 4 };
  // A node's glyph with its timer track and focus ring.
  const reach = radius * 1.1 + 12;
  const glyph = (p: Point): Box => ({ x0: p.x - reach, y0: p.y - reach, x1: p.x + reach, y1: p.y + reach });
  const taken: Box[] = [];
  const places: Record<string, NodeLabelPlace> = {};
  order.forEach((id, i) => {
    const at = nodes[id];
    const angle = n === 1 ? Math.PI / 2 : -Math.PI / 2 + (2 * Math.PI * i) / n;
    const candidates = labelCandidates(angle, radius, line);
    const others = order.filter((o) => o !== id).map((o) => glyph(nodes[o]));
    const free = (place: NodeLabelPlace) => {
      const box = sideLabelBox(at, place, font, line);
      return inside(box, frame) && ![...others, ...obstacles, ...taken].some((b) => overlaps(box, b));
    };
    const place = candidates.find(free) ?? candidates[0];
    places[id] = place;
    taken.push(sideLabelBox(at, place, font, line));
  });
  return places;
}

export function diagramLayout(nodeIds: readonly string[], clientIds: readonly string[], hasStores: boolean, geometry: RingGeometry = RING_GEOMETRY): DiagramLayout {
  const nodes: Record<string, Point> = {};
  const n = nodeIds.length;
  const ring = geometry.ring;
  const radius = geometry.nodeRadius(n);
  nodeIds.forEach((id, i) => {
    // Start at the top and go clockwise, like a clock face.
    const angle = n === 1 ? Math.PI / 2 : -Math.PI / 2 + (2 * Math.PI * i) / n;
    nodes[id] = n === 1 ? { x: ring.cx, y: ring.cy } : { x: ring.cx + ring.r * Math.cos(angle), y: ring.cy + ring.r * Math.sin(angle) };
  });
  const clientY = scalePoint<string>().domain(clientIds).range([130, 460]).padding(0.5);
  const clients: Record<string, Point> = {};
  for (const id of clientIds) clients[id] = { x: CLIENT_X, y: clientIds.length === 1 ? ring.cy : (clientY(id) as number) };
  const stores: Record<string, Point> = hasStores ? { fenced: { x: STORE_X, y: 200 }, unfenced: { x: STORE_X, y: 390 } } : {};
  const box = (p: Point, size: { w: number; h: number }): Box => ({ x0: p.x - size.w / 2, y0: p.y - size.h / 2, x1: p.x + size.w / 2, y1: p.y + size.h / 2 });
  const obstacles = [...Object.values(clients).map((p) => box(p, geometry.clientSize)), ...Object.values(stores).map((p) => box(p, geometry.storeSize))];
  const nodeLabels = placeSideLabels(nodes, nodeIds, radius, obstacles, geometry.sideFont, geometry.sideLine);
  return { nodes, nodeLabels, clients, stores, nodeRadius: radius };
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
