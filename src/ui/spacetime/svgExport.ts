/**
 * The space-time view as one standalone SVG file: a title (seed and time window), the lane
 * headers, the scene and a legend, with every colour inline (from the theme passed in), so it
 * opens anywhere and prints the same in a dark or a light theme. Pure: a string in, a string out.
 */
import { MESSAGE_KINDS, MESSAGE_LOOKS, symbolPath, type MessageKind } from '../../paint/messageShapes';
import { arrowHead } from './geometry';
import type { TraceView } from '../../sim/view/traceColumns';
import type { TimeWindow } from './geometry';
import { AXIS_GUTTER, laneLayout, type LaneLayout } from './lanes';
import { buildScene, LANE_GEOMETRY, type HeartbeatMode, type MessageFilter, type Scene, type SceneMark } from './scene';
import { INFO_DASH, OP_GEOMETRY, opAlpha, type SceneHistory } from './historyBars';
import { MARK_NAMES, MARK_PATHS, markLabel, markStyle } from './marks';
import {
  ARROW_WIDTH,
  arrowLength,
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
  ms,
  OVERRUN_DASH,
  PARTITION_ALPHA,
  STORE_LINE_DY,
  SYMBOL_MAX_ARROWS,
  SYMBOL_MIN_LENGTH,
  textWidth,
} from './style';
import type { SpaceTimeTheme } from './theme';

export interface SvgExportOptions {
  readonly theme: SpaceTimeTheme;
  /** The scene's canvas size: the scene's own coordinates are kept. */
  readonly width: number;
  readonly height: number;
  /** "Lockstep, seed 7: 0–2,000 ms". */
  readonly title: string;
  /** The cursor's label ("t = 1,234 ms"); drawn only when the scene has a cursor. */
  readonly cursorLabel?: string;
}

const TITLE_H = 34;
const LEGEND_ROW = 24;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const n = (v: number) => (Math.round(v * 10) / 10).toString();

/** "Lockstep, seed 7: 0–2,000 ms" (or seconds for long windows). */
export function exportTitle(seed: string | number, window: readonly [number, number]): string {
  const fmt = (t: number) =>
    window[1] - window[0] >= 10_000 ? `${+(t / 1000).toFixed(2)} s` : `${Math.round(t).toLocaleString('en-US')} ms`;
  return `Lockstep, seed ${seed}: ${fmt(window[0])} to ${fmt(window[1])}`;
}

export function sceneToSvg(scene: Scene, layout: LaneLayout, opts: SvgExportOptions): string {
  const { theme, width } = opts;
  const legend = legendItems(scene);
  // Columns as wide as the longest entry, so names never run into the next column.
  const colW = Math.min(width - 16, Math.max(120, ...legend.map((item) => textWidth(item.name, FONT.axis) + 34)));
  const perRow = Math.max(1, Math.floor((width - 16) / colW));
  const legendH = Math.ceil(legend.length / perRow) * LEGEND_ROW + 12;
  const height = TITLE_H + opts.height + legendH;
  const out: string[] = [];
  const push = (s: string) => out.push(s);
  push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT_FAMILY)}">`,
  );
  push(`<title>${escapeXml(opts.title)}</title>`);
  push(`<rect width="${width}" height="${height}" fill="${theme.panel}"/>`);
  push(`<text x="12" y="23" font-size="${FONT.header}" font-weight="700" fill="${theme.text}">${escapeXml(opts.title)}</text>`);
  push(`<g transform="translate(0,${TITLE_H})">`);
  push(`<defs><clipPath id="lanes"><rect x="0" y="${n(scene.top)}" width="${width}" height="${n(scene.height)}"/></clipPath></defs>`);

  // Headers.
  for (const lane of layout.lanes) {
    push(
      `<text x="${n(lane.x)}" y="${n(scene.top - 12)}" text-anchor="middle" font-size="${Math.min(FONT.header, lane.headerPx)}" font-weight="700" fill="${theme.text}">${escapeXml(lane.header)}</text>`,
    );
  }
  push(`<g clip-path="url(#lanes)">`);
  for (const p of scene.partitions) {
    push(
      `<rect x="${n(p.x1)}" y="${n(p.y1)}" width="${n(p.x2 - p.x1)}" height="${n(p.y2 - p.y1)}" fill="${theme.groups[p.group % theme.groups.length]}" fill-opacity="${p.minority ? PARTITION_ALPHA.minority : PARTITION_ALPHA.majority}"/>`,
    );
  }
  const grid =
    scene.axis.map((t) => `M${AXIS_GUTTER - 4},${n(t.y)}H${width}`).join('') +
    layout.lanes.map((l) => `M${n(l.x)},${n(scene.top)}V${n(scene.top + scene.height)}`).join('');
  push(`<path d="${grid}" stroke="${theme.border}" stroke-opacity="0.6" fill="none"/>`);
  for (const b of scene.bands) {
    const w = bandWidth(b.state, LANE_GEOMETRY.band);
    const dashed = b.state === 'down' || b.state === 'crashed' ? ` stroke="${theme.band[b.state]}" stroke-dasharray="4 3"` : '';
    push(
      `<rect x="${n(b.x - w / 2)}" y="${n(b.y1)}" width="${w}" height="${n(Math.max(1, b.y2 - b.y1))}" fill="${theme.band[b.state]}" fill-opacity="${BAND_ALPHA[b.state]}"${dashed}/>`,
    );
  }
  for (const l of scene.leases) {
    const w = LANE_GEOMETRY.leaseWidth;
    const fill = l.side === 'client' ? theme.clientLease : theme.serviceLease;
    push(
      `<rect x="${n(l.x - w / 2)}" y="${n(l.y1)}" width="${w}" height="${n(Math.max(1, l.y2 - l.y1))}" fill="${fill}"><title>${escapeXml(l.label)}</title></rect>`,
    );
    if (!l.open) push(`<rect x="${n(l.x - w)}" y="${n(l.y2 - 1.5)}" width="${2 * w}" height="3" fill="${fill}"/>`);
  }
  for (const o of scene.overruns) {
    push(
      `<line x1="${n(o.x)}" y1="${n(o.y1)}" x2="${n(o.x)}" y2="${n(o.y2)}" stroke="${theme.clientLease}" stroke-width="3" stroke-dasharray="${OVERRUN_DASH.join(' ')}"/>`,
    );
  }

  for (const b of scene.ops) {
    const w = OP_GEOMETRY.width;
    const outline = b.inSubset
      ? ` stroke="${theme.cursor}" stroke-width="2"`
      : b.tone === 'info'
        ? ` stroke="${theme.op.info}" stroke-width="1.5" stroke-dasharray="${INFO_DASH.join(' ')}"`
        : '';
    push(
      `<rect class="op" x="${n(b.x - w / 2)}" y="${n(b.y1)}" width="${w}" height="${n(b.y2 - b.y1)}" fill="${theme.op[b.tone]}" fill-opacity="${opAlpha(b)}"${outline} data-op-id="${b.id}"><title>${escapeXml(b.label)}</title></rect>`,
    );
  }

  for (const m of scene.marks) {
    const style = markStyle(m.kind, theme);
    if (m.kind === 'nemesis') {
      push(
        `<line class="mark" x1="${AXIS_GUTTER}" y1="${n(m.y)}" x2="${n(opts.width)}" y2="${n(m.y)}" stroke="${style.stroke}" stroke-width="1.5" stroke-dasharray="6 3"><title>${escapeXml(m.text)}</title></line>`,
      );
      continue;
    }
    const bang =
      m.kind === 'violation' ? `<text y="4" text-anchor="middle" font-size="11" font-weight="700" fill="${theme.panel}">!</text>` : '';
    push(
      `<g class="mark" data-mark-kind="${m.kind}" transform="translate(${n(m.x)},${n(m.y)})"><title>${escapeXml(m.text)}</title><path d="${MARK_PATHS[m.kind]}" fill="${style.fill}" stroke="${style.stroke}" stroke-width="1.5"/>${bang}<text x="10" y="4" font-size="${FONT.label}" fill="${m.kind === 'violation' ? theme.bad : theme.muted}">${escapeXml(markLabel(m.kind, m.text))}</text></g>`,
    );
  }

  // Arrows: one path per kind and style, like the canvas.
  const byKind = new Map<MessageKind, { solid: string[]; dashed: string[] }>();
  for (const a of scene.arrows) {
    let paths = byKind.get(a.kind);
    if (!paths) byKind.set(a.kind, (paths = { solid: [], dashed: [] }));
    const d = `M${n(a.x1)},${n(a.y1)}L${n(a.x2)},${n(a.y2)}`;
    if (a.endAt === null) paths.dashed.push(d);
    else {
      const head =
        a.dropReason === null ? (([lx, ly, rx, ry]) => `M${n(lx)},${n(ly)}L${n(a.x2)},${n(a.y2)}L${n(rx)},${n(ry)}`)(arrowHead(a)) : '';
      paths.solid.push(d + head);
    }
  }
  for (const kind of MESSAGE_KINDS) {
    const paths = byKind.get(kind);
    if (!paths) continue;
    if (paths.solid.length)
      push(`<path d="${paths.solid.join('')}" stroke="${theme.kind[kind]}" stroke-width="${ARROW_WIDTH}" fill="none"/>`);
    if (paths.dashed.length)
      push(
        `<path d="${paths.dashed.join('')}" stroke="${theme.kind[kind]}" stroke-width="${ARROW_WIDTH}" stroke-dasharray="${IN_FLIGHT_DASH.join(' ')}" fill="none"/>`,
      );
  }
  if (scene.arrows.length <= SYMBOL_MAX_ARROWS) {
    for (const a of scene.arrows) {
      if (arrowLength(a) < SYMBOL_MIN_LENGTH) continue;
      push(
        `<path transform="translate(${n((a.x1 + a.x2) / 2)},${n((a.y1 + a.y2) / 2)})" d="${symbolPath(a.kind, 0.5)}" ${symbolStyle(a.kind, theme)}/>`,
      );
    }
  }
  const drops = scene.arrows.filter((a) => a.dropReason !== null);
  if (drops.length) {
    push(
      `<path d="${drops.map((a) => `M${n(a.x2 - 5)},${n(a.y2 - 5)}l10,10M${n(a.x2 + 5)},${n(a.y2 - 5)}l-10,10`).join('')}" stroke="${theme.drop}" stroke-width="2.5" stroke-linecap="round" fill="none"/>`,
    );
  }
  if (scene.ticks.length) {
    const h = LANE_GEOMETRY.tickLength / 2;
    push(
      `<path d="${scene.ticks.map((t) => `M${n(t.x - h)},${n(t.y)}h${2 * h}`).join('')}" stroke="${theme.kind.heartbeat}" stroke-width="1.5"/>`,
    );
  }
  // Labels in the canvas's order of priority, none overprinting another.
  const labels = new LabelPlacer();
  const label = (s: string, x: number, y: number, fill: string, anchor: 'start' | 'end' | 'middle', weight = 400) => {
    if (labels.place(s, x, y, anchor)) push(text(s, x, y, fill, theme.panel, anchor, weight));
  };
  for (const m of scene.storeMarks) {
    const colour = m.accepted ? theme.ok : theme.bad;
    push(
      `<g transform="translate(${n(m.x)},${n(m.y)})"><circle r="10" fill="${theme.panel}"/><path d="${m.accepted ? CHECK_PATH : CROSS_PATH}" stroke="${colour}" stroke-width="3" stroke-linecap="round" fill="none"/></g>`,
    );
    m.lines.forEach((line, i) => label(line, m.x, m.y + STORE_LINE_DY[i], colour, 'middle', 600));
  }
  for (const l of scene.leases) {
    const client = l.side === 'client';
    label(
      l.token === null ? 'no token' : `token ${l.token}`,
      l.x + (client ? -1 : 1) * LANE_GEOMETRY.leaseWidth,
      l.labelY + 9,
      client ? theme.clientLease : theme.serviceLease,
      client ? 'end' : 'start',
    );
  }
  for (const b of scene.bands) if (b.label) label(b.label, b.x + LANE_GEOMETRY.band / 2 + 4, b.y1 + 9, theme.text, 'start');
  for (const p of scene.partitions) if (p.label) label(p.label, p.x1 + 4, p.y1 + 9, theme.text, 'start');
  if (drops.length <= DROP_TEXT_MAX) for (const a of drops) label(dropText(a), a.x2 + 9, a.y2, theme.drop, 'start');
  for (const f of scene.folds) {
    const y1 = f.y1 + 3;
    const y2 = f.y2 - 3;
    push(
      `<rect class="fold" x="${AXIS_GUTTER}" y="${n(y1)}" width="${n(width - AXIS_GUTTER)}" height="${n(y2 - y1)}" fill="${theme.bg}"/>`,
    );
    push(
      `<path d="M${AXIS_GUTTER},${n(y1)}H${width}M${AXIS_GUTTER},${n(y2)}H${width}" stroke="${theme.muted}" stroke-dasharray="6 4" fill="none"/>`,
    );
    label(`⋯ ${f.label} later ⋯`, (AXIS_GUTTER + width) / 2, (y1 + y2) / 2, theme.muted, 'middle');
  }
  push(`</g>`);
  push(
    `<text x="${AXIS_GUTTER - 8}" y="${n(scene.top - 13)}" text-anchor="end" font-size="${FONT.axis}" fill="${theme.muted}">${scene.axisUnit}</text>`,
  );
  for (const t of scene.axis) {
    if (t.y < scene.top + 6 || t.y > scene.top + scene.height - 6) continue;
    push(
      `<text x="${AXIS_GUTTER - 8}" y="${n(t.y)}" dominant-baseline="middle" text-anchor="end" font-size="${FONT.axis}" fill="${theme.muted}">${escapeXml(t.label)}</text>`,
    );
  }
  if (scene.cursorY !== null) {
    push(
      `<line x1="${AXIS_GUTTER}" y1="${n(scene.cursorY)}" x2="${width}" y2="${n(scene.cursorY)}" stroke="${theme.cursor}" stroke-width="2"/>`,
    );
    if (opts.cursorLabel) push(text(opts.cursorLabel, width - 6, scene.cursorY - 9, theme.cursor, theme.panel, 'end', 700));
  }
  push(`</g>`);

  // Legend.
  push(`<g transform="translate(12,${TITLE_H + opts.height + 8})" font-size="${FONT.axis}" fill="${theme.text}">`);
  legend.forEach((item, i) => {
    const x = (i % perRow) * colW;
    const y = Math.floor(i / perRow) * LEGEND_ROW + 10;
    push(
      `<g transform="translate(${x},${y})">${item.mark(theme)}<text x="20" dominant-baseline="middle">${escapeXml(item.name)}</text></g>`,
    );
  });
  push(`</g></svg>`);
  return out.join('\n');
}

function symbolStyle(kind: MessageKind, theme: SpaceTimeTheme): string {
  const colour = theme.kind[kind];
  if (kind === 'heartbeat') return `fill="${theme.panel}" stroke="${colour}" stroke-width="2"`;
  if (MESSAGE_LOOKS[kind].hollow) return `fill="${colour}" stroke="${colour}" stroke-width="2"`;
  return `fill="${colour}" stroke="${theme.panel}" stroke-width="1"`;
}

function text(s: string, x: number, y: number, fill: string, halo: string, anchor: 'start' | 'end' | 'middle', weight = 400): string {
  return `<text x="${n(x)}" y="${n(y)}" dominant-baseline="middle" text-anchor="${anchor}" font-size="${FONT.label}" font-weight="${weight}" fill="${fill}" stroke="${halo}" stroke-width="4" stroke-linejoin="round" paint-order="stroke">${escapeXml(s)}</text>`;
}

interface LegendItem {
  readonly name: string;
  readonly mark: (theme: SpaceTimeTheme) => string;
}

/** The legend lists the message kinds the scene shows, then drops, leases and store marks if present. */
function legendItems(scene: Scene): LegendItem[] {
  const kinds = new Set(scene.arrows.map((a) => a.kind));
  if (scene.ticks.length) kinds.add('heartbeat');
  const items: LegendItem[] = MESSAGE_KINDS.filter((k) => kinds.has(k)).map((k) => ({
    name: MESSAGE_LOOKS[k].name,
    mark: (theme) => `<path transform="translate(6,0)" d="${symbolPath(k, 0.6)}" ${symbolStyle(k, theme)}/>`,
  }));
  if (scene.arrows.some((a) => a.dropReason !== null))
    items.push({ name: 'dropped', mark: (t) => `<path d="M1,-5l10,10M11,-5l-10,10" stroke="${t.drop}" stroke-width="2.5" fill="none"/>` });
  if (scene.leases.some((l) => l.side === 'client'))
    items.push({
      name: "client's lease (left of lane)",
      mark: (t) => `<rect x="3" y="-8" width="7" height="16" fill="${t.clientLease}"/>`,
    });
  if (scene.leases.some((l) => l.side === 'service'))
    items.push({
      name: "service's lease (right of lane)",
      mark: (t) => `<rect x="3" y="-8" width="7" height="16" fill="${t.serviceLease}"/>`,
    });
  if (scene.ops.length)
    items.push({
      name: "client's operations (right of lane)",
      mark: (t) => `<rect x="3" y="-8" width="6" height="16" fill="${t.op.ok}"/>`,
    });
  if (scene.ops.some((b) => b.tone === 'info'))
    items.push({
      name: 'indeterminate (:info): may or may not have taken effect',
      mark: (t) =>
        `<rect x="3" y="-8" width="6" height="16" fill="${t.op.info}" fill-opacity="0.55" stroke="${t.op.info}" stroke-dasharray="${INFO_DASH.join(' ')}"/>`,
    });
  for (const kind of ['commit', 'conf', 'violation'] as const)
    if (scene.marks.some((m) => m.kind === kind)) {
      items.push({
        name: MARK_NAMES[kind],
        mark: (t) =>
          `<path transform="translate(6,0)" d="${MARK_PATHS[kind]}" fill="${markStyle(kind, t).fill}" stroke="${markStyle(kind, t).stroke}"/>`,
      });
    }
  if (scene.marks.some((m) => m.kind === 'nemesis'))
    items.push({
      name: MARK_NAMES.nemesis,
      mark: (t) => `<line x1="0" y1="0" x2="14" y2="0" stroke="${t.muted}" stroke-width="1.5" stroke-dasharray="6 3"/>`,
    });
  if (scene.ops.some((b) => b.inSubset))
    items.push({
      name: 'operations no order explains',
      mark: (t) => `<rect x="3" y="-8" width="6" height="16" fill="${t.op.refused}" stroke="${t.cursor}" stroke-width="2"/>`,
    });
  if (scene.overruns.length)
    items.push({
      name: 'acting after its lease ended',
      mark: (t) =>
        `<line x1="6" y1="-8" x2="6" y2="8" stroke="${t.clientLease}" stroke-width="3" stroke-dasharray="${OVERRUN_DASH.join(' ')}"/>`,
    });
  if (scene.storeMarks.some((m) => m.accepted))
    items.push({
      name: 'write accepted',
      mark: (t) => `<path transform="translate(6,0)" d="${CHECK_PATH}" stroke="${t.ok}" stroke-width="3" fill="none"/>`,
    });
  if (scene.storeMarks.some((m) => !m.accepted))
    items.push({
      name: 'write refused',
      mark: (t) => `<path transform="translate(6,0)" d="${CROSS_PATH}" stroke="${t.bad}" stroke-width="3" fill="none"/>`,
    });
  return items;
}

export interface TraceSvgOptions {
  readonly theme: SpaceTimeTheme;
  readonly width: number;
  /** The lanes' height; the file adds a title above and a legend below. */
  readonly height: number;
  readonly window: TimeWindow;
  readonly lanes?: readonly string[];
  readonly heartbeats?: HeartbeatMode;
  /** Fold quiet stretches, as the view does in that mode. */
  readonly compress?: boolean;
  /** Only these messages, as the view shows them under the event log's filters. */
  readonly filter?: MessageFilter | null;
  /** The cursor, if it should be drawn. */
  readonly nowMs?: number | null;
  /** The run's seed, for the title. */
  readonly seed: string | number;
  /** The clients' operations, as the view draws them beside their lanes. */
  readonly history?: SceneHistory | null;
  /** Marks on the lanes (an imported file's commits, configuration changes, violations, nemesis events). */
  readonly marks?: readonly SceneMark[];
  /** The file's title instead of "Lockstep, seed …" (an imported file has no seed). */
  readonly title?: string;
}

/** The whole export in one call: lays out the lanes, builds the window's scene and writes the file. */
export function traceToSvg(trace: TraceView, opts: TraceSvgOptions): string {
  const layout = laneLayout(trace.actorIds, trace.actors, opts.width, opts.lanes);
  const top = 40;
  const scene = buildScene(trace, layout, {
    window: opts.window,
    top,
    height: opts.height - top - 8,
    heartbeats: opts.heartbeats ?? 'fold',
    nowMs: opts.nowMs ?? null,
    compress: opts.compress ?? false,
    ...(opts.filter ? { filter: opts.filter } : {}),
    ...(opts.history ? { history: opts.history } : {}),
    ...(opts.marks ? { marks: opts.marks } : {}),
  });
  return sceneToSvg(scene, layout, {
    theme: opts.theme,
    width: opts.width,
    height: opts.height,
    title: opts.title ?? exportTitle(opts.seed, opts.window),
    cursorLabel: opts.nowMs != null ? `t = ${ms(opts.nowMs)}` : undefined,
  });
}
