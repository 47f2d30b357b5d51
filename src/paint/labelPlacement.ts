/**
 * Where the ring's labels go so that none covers another, a glyph, a client, a store or the
 * diagram's edge: each label tries a few candidate places and takes the first that touches
 * nothing, or else the one that overlaps least. Pure and deterministic (view units), so places
 * never jump about while a run plays.
 */
import { polygonContains, polygonHull } from 'd3';
import { majorityOf } from '../sim/raft/quorum';
import { VIEW_H, VIEW_W, type Box, type DiagramLayout, type NodeLabelPlace, type Point } from './geometry';

/** How much of two boxes overlaps (area, view units²). */
export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether a box and a circle touch. */
export function touchesCircle(box: Box, c: Point, r: number): boolean {
  const x = Math.max(box.x0, Math.min(c.x, box.x1));
  const y = Math.max(box.y0, Math.min(c.y, box.y1));
  return Math.hypot(x - c.x, y - c.y) < r;
}

/** How far a box sticks out of another (area outside it). */
export function outsideArea(a: Box, frame: Box): number {
  const area = (a.x1 - a.x0) * (a.y1 - a.y0);
  return area - overlapArea(a, frame);
}

/** The widest side label ("clock +50%", or "voted n9" above it): characters, at about 0.65 em each in bold. */
const SIDE_LABEL_CHARS = 10;
const SIDE_CHAR_EM = 0.65;

/**
 * The box a side label may fill at a place: two lines (a vote and a clock drift can both show),
 * growing away from the node (up for a label above it).
 */
export function sideLabelBox(node: Point, place: NodeLabelPlace, font: number, line: number): Box {
  const w = SIDE_LABEL_CHARS * SIDE_CHAR_EM * font;
  const x = node.x + place.dx;
  const x0 = place.anchor === 'start' ? x : place.anchor === 'end' ? x - w : x - w / 2;
  const y = node.y + place.dy;
  const up = place.dy < -5;
  return { x0, x1: x0 + w, y0: up ? y - line * 1.5 : y - line / 2, y1: up ? y + line / 2 : y + line * 1.5 };
}

/**
 * Where a node's side label can go, best first: outward from the ring (neighbours' labels never
 * meet), a little either way round the ring, then above or below the node (away from the ring's
 * centre first), then inward.
 */
function labelCandidates(angle: number, radius: number, line: number): NodeLabelPlace[] {
  const d = radius * 1.1 + 16;
  const side = (c: number): NodeLabelPlace['anchor'] => (Math.abs(c) < 0.35 ? 'middle' : c > 0 ? 'start' : 'end');
  const toward = (a: number, dist: number): NodeLabelPlace => {
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    return { dx: cos * dist, dy: sin * dist + (sin > 0.3 ? 8 : sin < -0.3 ? -8 : 0), anchor: side(cos), angle };
  };
  const sin = Math.sin(angle);
  const v = radius * 1.1 + 12 + line / 2;
  const above: NodeLabelPlace = { dx: 0, dy: -v, anchor: 'middle', angle };
  const below: NodeLabelPlace = { dx: 0, dy: v, anchor: 'middle', angle };
  const turn = 0.45;
  const inward = angle + Math.PI;
  return [
    toward(angle, d),
    toward(angle - turn, d),
    toward(angle + turn, d),
    ...(sin < 0 ? [above, below] : [below, above]),
    toward(inward, d),
    toward(inward - turn, d),
    toward(inward + turn, d),
    toward(angle - 2 * turn, d),
    toward(angle + 2 * turn, d),
  ];
}

/**
 * Side labels ("voted n2", "clock +20%") placed clear of the other nodes, the clients, the
 * stores, the other labels and the diagram's edge: each node takes its first candidate place
 * that touches nothing (outward if it can), or else the one that overlaps least. Pure and
 * deterministic, and it reserves room for the widest label, so places never change with the text.
 */
export function placeSideLabels(
  nodes: Readonly<Record<string, Point>>,
  order: readonly string[],
  radius: number,
  obstacles: readonly Box[],
  font: number,
  line: number,
): { places: Record<string, NodeLabelPlace>; boxes: Box[] } {
  const n = order.length;
  const frame = frameBox();
  // A node's glyph with its timer track.
  const reach = radius * 1.1 + 10;
  const taken: Box[] = [];
  const places: Record<string, NodeLabelPlace> = {};
  order.forEach((id, i) => {
    const at = nodes[id];
    const angle = n === 1 ? Math.PI / 2 : -Math.PI / 2 + (2 * Math.PI * i) / n;
    const others = order.filter((o) => o !== id).map((o) => nodes[o]);
    const cost = (place: NodeLabelPlace): number => {
      const box = sideLabelBox(at, place, font, line);
      const glyphs = others.filter((p) => touchesCircle(box, p, reach)).length * 4 * font * font;
      const boxes = [...obstacles, ...taken].reduce((sum, b) => sum + overlapArea(box, b), 0);
      return glyphs + boxes + 4 * outsideArea(box, frame);
    };
    const candidates = labelCandidates(angle, radius, line);
    let best = { place: candidates[0], cost: Infinity };
    for (const place of candidates) {
      const c = cost(place);
      if (c < best.cost) best = { place, cost: c };
      if (c === 0) break;
    }
    places[id] = best.place;
    taken.push(sideLabelBox(at, best.place, font, line));
  });
  return { places, boxes: taken };
}

/** The diagram's edge, a little inside. */
const frameBox = (): Box => ({ x0: 4, y0: 4, x1: VIEW_W - 4, y1: VIEW_H - 4 });

/**
 * A block of text centred on one of `centres` (best first): the one whose box (w × h) touches no
 * glyph and no box, or else overlaps least. Returns the chosen centre and its box.
 */
export function placeBlock(
  centres: readonly Point[],
  w: number,
  h: number,
  boxes: readonly Box[],
  glyphs: readonly Point[],
  reach: number,
  labels: readonly Box[] = [],
  /** More cost for a box (a group's label inside another group's region). */
  extra: (b: Box) => number = () => 0,
): { at: Point; box: Box; cost: number } {
  const frame = frameBox();
  const boxAt = (p: Point): Box => ({ x0: p.x - w / 2, x1: p.x + w / 2, y0: p.y - h / 2, y1: p.y + h / 2 });
  // Covering another label is worse than grazing a glyph: that text could not be read at all.
  const cost = (b: Box) =>
    glyphs.filter((g) => touchesCircle(b, g, reach)).length * 4 * h * h +
    boxes.reduce((sum, o) => sum + overlapArea(b, o), 0) +
    20 * labels.reduce((sum, o) => sum + overlapArea(b, o), 0) +
    4 * outsideArea(b, frame) +
    extra(b);
  let best = { at: centres[0], box: boxAt(centres[0]), cost: Infinity };
  for (const at of centres) {
    const box = boxAt(at);
    const c = cost(box);
    if (c < best.cost) best = { at, box, cost: c };
    if (c === 0) break;
  }
  return best;
}

/**
 * About how wide a bold label is, in em: narrow letters and punctuation, wide m and w, the rest
 * (measured on DejaVu Sans Bold, the diagram's font here), with 8% to spare for other fonts.
 */
export function boldTextEm(text: string): number {
  let em = 0;
  for (const ch of text)
    em += /[ijl()[\]:;,.'!| ]/.test(ch) ? 0.4 : /[rtf/-]/.test(ch) ? 0.5 : /[mwMW%]/.test(ch) ? 1.04 : ch === '+' ? 0.84 : 0.7;
  return em * 1.08;
}

/** The partition labels' size (view units): as big as the ring's other labels. */
export const GROUP_FONT = 18.5;

/**
 * What a group's label says: whether it holds a majority (only a majority can elect a leader or
 * commit). A lock service without Raft commits nothing: its label only counts the servers.
 */
export function groupLabelLines(members: number, clusterSize: number, raft = true): string[] {
  if (!raft) return [`${members} of ${clusterSize} server${clusterSize === 1 ? '' : 's'}`];
  return members >= majorityOf(clusterSize)
    ? [`majority (${members} of ${clusterSize})`]
    : [`minority (${members} of ${clusterSize}):`, 'cannot commit'];
}

export interface GroupLabel {
  readonly lines: readonly string[];
  /** The centre of the label's block. */
  readonly at: Point;
  readonly box: Box;
  readonly line: number;
}

/**
 * Each partition group's label, where it covers nothing: above or below its nodes, or inside
 * the ring towards its middle, where only messages pass; later groups keep clear of earlier
 * groups' labels. `font` is the labels' size (presenter mode draws them bigger).
 */
export function placeGroupLabels(
  layout: DiagramLayout,
  groups: readonly (readonly string[])[],
  nodeIds: readonly string[],
  font: number = GROUP_FONT,
  raft = true,
): GroupLabel[] {
  const { boxes, glyphs, glyphReach } = layout.keepClear;
  const line = font * 1.2;
  const pad = layout.nodeRadius * 1.1 + 14;
  const centre = { x: VIEW_W / 2, y: VIEW_H / 2 };
  const blocks = groups.map((g) => {
    const members = g.filter((id) => nodeIds.includes(id)).length;
    const lines = groupLabelLines(members, nodeIds.length, raft);
    const w = Math.max(...lines.map(boldTextEm)) * font + 6;
    const h = lines.length * line + 6;
    const points = g.map((id) => layout.nodes[id] ?? layout.clients[id]).filter((p): p is Point => p !== undefined);
    const mid =
      points.length > 0
        ? { x: points.reduce((a, p) => a + p.x, 0) / points.length, y: points.reduce((a, p) => a + p.y, 0) / points.length }
        : centre;
    const top = points.reduce((a, p) => (p.y < a.y ? p : a), mid);
    const bottom = points.reduce((a, p) => (p.y > a.y ? p : a), mid);
    const toward = (f: number) => ({ x: mid.x + (centre.x - mid.x) * f, y: mid.y + (centre.y - mid.y) * f });
    const stack = [0, -1, 1, -2, 2].map((k) => ({ x: centre.x, y: centre.y + k * (h + 6) }));
    // Between two neighbours of the group, a little inside the ring.
    const between = points.slice(1).flatMap((p, k) => {
      const q = points[k];
      const m = { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
      return [0.3, 0.55].map((f) => ({ x: m.x + (centre.x - m.x) * f, y: m.y + (centre.y - m.y) * f }));
    });
    const candidates = [
      { x: top.x, y: top.y - pad - h / 2 },
      { x: bottom.x, y: bottom.y + pad + h / 2 },
      mid,
      toward(0.35),
      toward(0.6),
      toward(0.85),
      ...between,
      ...stack,
      // Then anywhere clear, nearest the group first: a label outside its group's region but
      // clear of the others' reads as its own, one inside another region never does.
      ...grid().sort((a, b) => nearest(points, a) - nearest(points, b)),
    ];
    return { lines, w, h, candidates };
  });
  // A group's label belongs to its own region: a point of its box inside another group's hull
  // (the shaded region drawn around that group's glyphs) reads as that group's.
  const hulls = groups.map((g) => {
    const pts: [number, number][] = [];
    for (const id of g) {
      const c = layout.nodes[id] ?? layout.clients[id];
      if (!c) continue;
      for (let i = 0; i < 16; i++) {
        const a = (Math.PI * 2 * i) / 16;
        pts.push([c.x + (layout.nodeRadius + 30) * Math.cos(a), c.y + (layout.nodeRadius + 30) * Math.sin(a)]);
      }
    }
    return pts.length >= 3 ? polygonHull(pts) : null;
  });
  const foreign = (i: number, h: number) => (b: Box) => {
    const probes: [number, number][] = [
      [b.x0, b.y0],
      [b.x1, b.y0],
      [b.x0, b.y1],
      [b.x1, b.y1],
      [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2],
    ];
    let inside = 0;
    hulls.forEach((hull, j) => {
      if (j === i || hull === null) return;
      for (const p of probes) if (polygonContains(hull, p)) inside++;
    });
    return inside * 4 * h * h;
  };
  // Greedy in every order of the groups (there are at most a few), keeping the order that
  // covers least; the written order wins ties, so the result never depends on anything else.
  let best: { labels: GroupLabel[]; cost: number } | null = null;
  for (const order of orders(groups.length)) {
    const placed: Box[] = [];
    const labels: GroupLabel[] = new Array(groups.length);
    let cost = 0;
    for (const i of order) {
      const b = blocks[i];
      const spot = placeBlock(b.candidates, b.w, b.h, boxes, glyphs, glyphReach, placed, foreign(i, b.h));
      placed.push(spot.box);
      cost += spot.cost;
      labels[i] = { lines: b.lines, at: spot.at, box: spot.box, line };
    }
    if (best === null || cost < best.cost) best = { labels, cost };
    if (cost === 0) break;
  }
  return best?.labels ?? [];
}

/** Centres every 20 view units across the diagram (the fallback spots for a block of text). */
function grid(): Point[] {
  const out: Point[] = [];
  for (let y = 20; y < VIEW_H; y += 20) for (let x = 20; x < VIEW_W; x += 20) out.push({ x, y });
  return out;
}

/** The squared distance from `p` to the nearest of `points` (0 when there are none). */
function nearest(points: readonly Point[], p: Point): number {
  let d = Infinity;
  for (const q of points) d = Math.min(d, (q.x - p.x) ** 2 + (q.y - p.y) ** 2);
  return points.length === 0 ? 0 : d;
}

/** Every order of 0..n-1, the identity first (only the first 24 for more than four groups). */
function orders(n: number): number[][] {
  const out: number[][] = [];
  const walk = (prefix: number[], rest: number[]) => {
    if (out.length >= 24) return;
    if (rest.length === 0) out.push(prefix);
    rest.forEach((x, k) => walk([...prefix, x], [...rest.slice(0, k), ...rest.slice(k + 1)]));
  };
  walk(
    [],
    Array.from({ length: n }, (_, i) => i),
  );
  return out;
}
