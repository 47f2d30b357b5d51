/**
 * Paints a scene on a 2D canvas context. Arrows are batched: one path per message kind (lines
 * and heads together), so a view with thousands of arrows costs a handful of strokes. The cursor,
 * the headers and the brush live in the SVG overlay above; this draws everything else.
 */
import { MESSAGE_KINDS, symbolPath, type MessageKind } from '../../paint/messageShapes';
import { arrowHead } from './geometry';
import { AXIS_GUTTER, type LaneLayout } from './lanes';
import { INFO_DASH, OP_GEOMETRY, opAlpha } from './historyBars';
import { MARK_PATHS, markLabel, markStyle } from './marks';
import { LANE_GEOMETRY, type Scene, type SceneArrow } from './scene';
import {
  ARROW_WIDTH,
  arrowLength,
  DENSE_ARROWS,
  BAND_ALPHA,
  bandWidth,
  CHECK_PATH,
  CROSS_PATH,
  DROP_TEXT_MAX,
  dropText,
  FONT,
  FONT_FAMILY,
  IN_FLIGHT_DASH,
  LabelPlacer,
  OVERRUN_DASH,
  PARTITION_ALPHA,
  STORE_LINE_DY,
  SYMBOL_MAX_ARROWS,
  SYMBOL_MIN_LENGTH,
  textWidth,
} from './style';
import type { SpaceTimeTheme } from './theme';

const symbols = new Map<MessageKind, Path2D>();
function symbol(kind: MessageKind): Path2D {
  let p = symbols.get(kind);
  if (!p) symbols.set(kind, (p = new Path2D(symbolPath(kind, 0.5))));
  return p;
}
let check: Path2D | null = null;
let cross: Path2D | null = null;

export interface PaintSize {
  readonly width: number;
  readonly height: number;
}

export function paintScene(ctx: CanvasRenderingContext2D, scene: Scene, layout: LaneLayout, theme: SpaceTimeTheme, size: PaintSize): void {
  const top = scene.top;
  const bottom = scene.top + scene.height;
  ctx.save();
  ctx.clearRect(0, 0, size.width, size.height);
  ctx.beginPath();
  ctx.rect(0, top, size.width, scene.height);
  ctx.clip();
  ctx.font = `${FONT.label}px ${FONT_FAMILY}`;
  ctx.textBaseline = 'middle';

  // Partitions under everything.
  for (const p of scene.partitions) {
    ctx.globalAlpha = p.minority ? PARTITION_ALPHA.minority : PARTITION_ALPHA.majority;
    ctx.fillStyle = theme.groups[p.group % theme.groups.length];
    ctx.fillRect(p.x1, p.y1, p.x2 - p.x1, p.y2 - p.y1);
  }
  ctx.globalAlpha = 1;

  // Time grid and lane lines.
  ctx.strokeStyle = theme.border;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of scene.axis) {
    ctx.moveTo(AXIS_GUTTER - 4, Math.round(t.y) + 0.5);
    ctx.lineTo(size.width, Math.round(t.y) + 0.5);
  }
  for (const lane of layout.lanes) {
    ctx.moveTo(Math.round(lane.x) + 0.5, top);
    ctx.lineTo(Math.round(lane.x) + 0.5, bottom);
  }
  ctx.globalAlpha = 0.6;
  ctx.stroke();
  ctx.globalAlpha = 1;

  // Lane bands: roles and terms, client states.
  for (const b of scene.bands) {
    const w = bandWidth(b.state, LANE_GEOMETRY.band);
    ctx.globalAlpha = BAND_ALPHA[b.state];
    ctx.fillStyle = theme.band[b.state];
    ctx.fillRect(b.x - w / 2, b.y1, w, Math.max(1, b.y2 - b.y1));
    if (b.state === 'down' || b.state === 'crashed') {
      ctx.globalAlpha = 1;
      ctx.strokeStyle = theme.band[b.state];
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(b.x - w / 2, b.y1, w, Math.max(1, b.y2 - b.y1));
      ctx.setLineDash([]);
    }
  }
  ctx.globalAlpha = 1;

  // Leases: client bars left of their lane, the service's right of its lane; end caps to compare.
  for (const l of scene.leases) {
    const w = LANE_GEOMETRY.leaseWidth;
    ctx.fillStyle = l.side === 'client' ? theme.clientLease : theme.serviceLease;
    ctx.fillRect(l.x - w / 2, l.y1, w, Math.max(1, l.y2 - l.y1));
    if (!l.open) ctx.fillRect(l.x - w, l.y2 - 1.5, 2 * w, 3);
  }
  ctx.lineWidth = 3;
  ctx.setLineDash(OVERRUN_DASH as unknown as number[]);
  ctx.strokeStyle = theme.clientLease;
  ctx.beginPath();
  for (const o of scene.overruns) {
    ctx.moveTo(o.x, o.y1);
    ctx.lineTo(o.x, o.y2);
  }
  ctx.stroke();
  ctx.setLineDash([]);

  // The clients' operations, right of their lanes; a failed verdict's subset outlined.
  for (const b of scene.ops) {
    ctx.globalAlpha = opAlpha(b);
    ctx.fillStyle = theme.op[b.tone];
    ctx.fillRect(b.x - OP_GEOMETRY.width / 2, b.y1, OP_GEOMETRY.width, b.y2 - b.y1);
  }
  ctx.globalAlpha = 1;
  // Indeterminate operations (Jepsen's :info) are their own kind: a dashed outline, not only a colour.
  ctx.strokeStyle = theme.op.info;
  ctx.lineWidth = 1.5;
  ctx.setLineDash(INFO_DASH as unknown as number[]);
  for (const b of scene.ops)
    if (b.tone === 'info') ctx.strokeRect(b.x - OP_GEOMETRY.width / 2 - 2, b.y1, OP_GEOMETRY.width + 4, b.y2 - b.y1);
  ctx.setLineDash([]);
  ctx.strokeStyle = theme.cursor;
  ctx.lineWidth = 2;
  for (const b of scene.ops)
    if (b.inSubset) ctx.strokeRect(b.x - OP_GEOMETRY.width / 2 - 1, b.y1 - 1, OP_GEOMETRY.width + 2, b.y2 - b.y1 + 2);

  paintArrows(ctx, scene.arrows, theme);
  const labels = new LabelPlacer();

  // Folded heartbeats: short ticks in a thin row beside the sender's lane.
  if (scene.ticks.length) {
    const h = LANE_GEOMETRY.tickLength / 2;
    ctx.strokeStyle = theme.kind.heartbeat;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const t of scene.ticks) {
      ctx.moveTo(t.x - h, t.y);
      ctx.lineTo(t.x + h, t.y);
    }
    ctx.stroke();
  }

  // Store marks.
  check ??= new Path2D(CHECK_PATH);
  cross ??= new Path2D(CROSS_PATH);
  ctx.font = `600 ${FONT.label}px ${FONT_FAMILY}`;
  for (const m of scene.storeMarks) {
    const colour = m.accepted ? theme.ok : theme.bad;
    ctx.translate(m.x, m.y);
    ctx.fillStyle = theme.panel;
    ctx.beginPath();
    ctx.arc(0, 0, 10, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.stroke(m.accepted ? check : cross);
    ctx.lineCap = 'butt';
    ctx.translate(-m.x, -m.y);
    ctx.textAlign = 'center';
    m.lines.forEach((line, i) => {
      if (labels.place(line, m.x, m.y + STORE_LINE_DY[i], 'middle')) label(ctx, line, m.x, m.y + STORE_LINE_DY[i], colour, theme.panel);
    });
  }

  // Marks on the lanes (an imported trace's commits, configuration changes, violations, nemesis events).
  for (const m of scene.marks) {
    const style = markStyle(m.kind, theme);
    if (m.kind === 'nemesis') {
      ctx.strokeStyle = style.stroke;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 3]);
      ctx.beginPath();
      ctx.moveTo(AXIS_GUTTER, Math.round(m.y) + 0.5);
      ctx.lineTo(size.width, Math.round(m.y) + 0.5);
      ctx.stroke();
      ctx.setLineDash([]);
      continue;
    }
    ctx.translate(m.x, m.y);
    const path = new Path2D(MARK_PATHS[m.kind]);
    ctx.fillStyle = style.fill;
    ctx.fill(path);
    ctx.strokeStyle = style.stroke;
    ctx.lineWidth = 1.5;
    ctx.stroke(path);
    if (m.kind === 'violation') {
      ctx.fillStyle = theme.panel;
      ctx.textAlign = 'center';
      ctx.fillText('!', 0, 1);
    }
    ctx.translate(-m.x, -m.y);
  }
  ctx.textAlign = 'left';
  // A violation's label is placed first: where a commit's label would cover it, the commit's gives way.
  const byWeight = [...scene.marks.filter((m) => m.kind === 'violation'), ...scene.marks.filter((m) => m.kind !== 'violation')];
  for (const m of byWeight) {
    const text = markLabel(m.kind, m.text);
    const x = m.kind === 'nemesis' ? AXIS_GUTTER + 4 : m.x + 10;
    const y = m.kind === 'nemesis' ? m.y - 8 : m.y;
    if (labels.place(text, x, y, 'start')) label(ctx, text, x, y, m.kind === 'violation' ? theme.bad : theme.muted, theme.panel);
  }

  // Labels last, so lines never cross them.
  ctx.font = `${FONT.label}px ${FONT_FAMILY}`;
  ctx.textAlign = 'left';
  for (const l of scene.leases) {
    const text = l.token === null ? 'no token' : `token ${l.token}`;
    const client = l.side === 'client';
    const x = l.x + (client ? -1 : 1) * LANE_GEOMETRY.leaseWidth;
    if (!labels.place(text, x, l.labelY + 9, client ? 'end' : 'start')) continue;
    ctx.textAlign = client ? 'right' : 'left';
    label(ctx, text, x, l.labelY + 9, client ? theme.clientLease : theme.serviceLease, theme.panel);
  }
  ctx.textAlign = 'left';
  for (const b of scene.bands) {
    if (!b.label) continue;
    // Right of its lane, unless that runs past the plot's edge (the last lane's "ballot 12.5"): then left of it.
    const right = b.x + LANE_GEOMETRY.band / 2 + 4;
    const fits = right + textWidth(b.label) <= size.width - 2;
    const x = fits ? right : b.x - LANE_GEOMETRY.band / 2 - 4;
    if (!labels.place(b.label, x, b.y1 + 9, fits ? 'start' : 'end')) continue;
    ctx.textAlign = fits ? 'left' : 'right';
    label(ctx, b.label, x, b.y1 + 9, theme.text, theme.panel);
  }
  ctx.textAlign = 'left';
  for (const p of scene.partitions)
    if (p.label && labels.place(p.label, p.x1 + 4, p.y1 + 9, 'start')) label(ctx, p.label, p.x1 + 4, p.y1 + 9, theme.text, theme.panel);
  paintDropLabels(ctx, scene.arrows, theme, labels);
  paintFolds(ctx, scene, theme, size.width);
  ctx.restore();

  // The axis labels sit in the gutter, outside the clip's lanes but inside the window's rows.
  ctx.save();
  ctx.font = `${FONT.axis}px ${FONT_FAMILY}`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = theme.muted;
  for (const t of scene.axis) if (t.y >= top + 6 && t.y <= bottom - 6) ctx.fillText(t.label, AXIS_GUTTER - 8, t.y);
  ctx.restore();
}

/** Folded quiet stretches: a break across the lanes, edged with dashes, saying how long it really was. */
function paintFolds(ctx: CanvasRenderingContext2D, scene: Scene, theme: SpaceTimeTheme, width: number): void {
  if (scene.folds.length === 0) return;
  ctx.font = `${FONT.label}px ${FONT_FAMILY}`;
  ctx.textAlign = 'center';
  for (const f of scene.folds) {
    const y1 = f.y1 + 3;
    const y2 = f.y2 - 3;
    ctx.fillStyle = theme.bg;
    ctx.fillRect(AXIS_GUTTER, y1, width - AXIS_GUTTER, y2 - y1);
    ctx.strokeStyle = theme.muted;
    ctx.lineWidth = 1;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(AXIS_GUTTER, Math.round(y1) + 0.5);
    ctx.lineTo(width, Math.round(y1) + 0.5);
    ctx.moveTo(AXIS_GUTTER, Math.round(y2) - 0.5);
    ctx.lineTo(width, Math.round(y2) - 0.5);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = theme.muted;
    ctx.fillText(`⋯ ${f.label} later ⋯`, (AXIS_GUTTER + width) / 2, (y1 + y2) / 2);
  }
  ctx.textAlign = 'left';
}

function label(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, colour: string, halo: string): void {
  ctx.lineWidth = 4;
  ctx.strokeStyle = halo;
  ctx.lineJoin = 'round';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}

function paintArrows(ctx: CanvasRenderingContext2D, arrows: readonly SceneArrow[], theme: SpaceTimeTheme): void {
  if (!arrows.length) return;
  const byKind = new Map<MessageKind, SceneArrow[]>();
  for (const a of arrows) {
    let list = byKind.get(a.kind);
    if (!list) byKind.set(a.kind, (list = []));
    list.push(a);
  }
  // Many arrows: one-device-pixel hairlines, which a software canvas strokes about five times
  // faster than wider lines (measured: 2,000 arrows 18 ms → 3.7 ms in headless Chromium).
  const deviceScale = ctx.getTransform().a || 1;
  ctx.lineWidth = arrows.length > DENSE_ARROWS ? 1 / deviceScale : ARROW_WIDTH;
  for (const kind of MESSAGE_KINDS) {
    const list = byKind.get(kind);
    if (!list) continue;
    ctx.strokeStyle = theme.kind[kind];
    // Delivered and dropped: solid; still in flight: dashed.
    for (const inFlight of [false, true]) {
      ctx.setLineDash(inFlight ? (IN_FLIGHT_DASH as unknown as number[]) : []);
      ctx.beginPath();
      for (const a of list) {
        if ((a.endAt === null) !== inFlight) continue;
        ctx.moveTo(a.x1, a.y1);
        ctx.lineTo(a.x2, a.y2);
        if (a.dropReason === null && !inFlight) {
          const [lx, ly, rx, ry] = arrowHead(a);
          ctx.moveTo(lx, ly);
          ctx.lineTo(a.x2, a.y2);
          ctx.lineTo(rx, ry);
        }
      }
      ctx.stroke();
    }
  }
  ctx.setLineDash([]);

  // Symbols at the midpoints, like the ring's shapes: one path per kind, filled and stroked once.
  if (arrows.length <= SYMBOL_MAX_ARROWS) {
    for (const [kind, list] of byKind) {
      const batch = new Path2D();
      const shape = symbol(kind);
      let any = false;
      for (const a of list) {
        if (arrowLength(a) < SYMBOL_MIN_LENGTH) continue;
        batch.addPath(shape, { a: 1, b: 0, c: 0, d: 1, e: (a.x1 + a.x2) / 2, f: (a.y1 + a.y2) / 2 });
        any = true;
      }
      if (!any) continue;
      const colour = theme.kind[kind];
      const refused = kind === 'vote-refused' || kind === 'append-rejected';
      ctx.fillStyle = kind === 'heartbeat' ? theme.panel : colour;
      ctx.fill(batch);
      ctx.strokeStyle = kind === 'heartbeat' || refused ? colour : theme.panel;
      ctx.lineWidth = kind === 'heartbeat' || refused ? 2 : 1;
      ctx.stroke(batch);
    }
  }

  // Drops: a cross where the message died (why is written with the other labels).
  const drops = arrows.filter((a) => a.dropReason !== null);
  if (!drops.length) return;
  ctx.strokeStyle = theme.drop;
  ctx.lineWidth = 2.5;
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (const a of drops) {
    ctx.moveTo(a.x2 - 5, a.y2 - 5);
    ctx.lineTo(a.x2 + 5, a.y2 + 5);
    ctx.moveTo(a.x2 + 5, a.y2 - 5);
    ctx.lineTo(a.x2 - 5, a.y2 + 5);
  }
  ctx.stroke();
  ctx.lineCap = 'butt';
}

function paintDropLabels(ctx: CanvasRenderingContext2D, arrows: readonly SceneArrow[], theme: SpaceTimeTheme, labels: LabelPlacer): void {
  let drops = 0;
  for (const a of arrows) if (a.dropReason !== null) drops++;
  if (drops === 0 || drops > DROP_TEXT_MAX) return;
  ctx.textAlign = 'left';
  for (const a of arrows) {
    if (a.dropReason === null) continue;
    const text = dropText(a);
    if (labels.place(text, a.x2 + 9, a.y2, 'start')) label(ctx, text, a.x2 + 9, a.y2, theme.drop, theme.panel);
  }
}
