/**
 * The ring diagram as a file: a standalone SVG that looks as the page does now (light or dark),
 * and a PNG drawn from it. The live `<svg class="diagram">` is cloned and every element gets
 * the computed styles that matter written onto it, so the file needs none of our CSS. Messages
 * in flight and the election timers live on a canvas under the SVG; here they become SVG marks at
 * the positions the canvas paints (the same `messageMarks` and `timerMarks`). A legend and a title line are added around the ring.
 */
import type { DropView, MessageView, NodeView } from '../../sim/view/runView';
import { VIEW_H, VIEW_W, type DiagramLayout } from '../../paint/layout';
import { BURST_CROSS, burstRadius, messageMarks } from '../../paint/messageCanvas';
import { MESSAGE_KINDS, MESSAGE_LOOKS, symbolPath } from '../../paint/messageShapes';
import { roleShapePath } from '../diagram/NodeGlyph';
import { timerArcPath, timerMarks, TRACK_OFFSET } from '../../paint/timerArc';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** The computed properties copied onto each cloned element: what paints SVG shapes and text. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'visibility',
  'display',
] as const;

const TITLE_H = 40;
const LEGEND_ROW_H = 26;
const LEGEND_FONT = 14;
const LEGEND_PAD = 14;

export interface RingExportOptions {
  /** The title line drawn above the ring (and the file's <title>). */
  readonly title: string;
  /** Whether to add the legend (role shapes and message kinds) under the ring. */
  readonly legend: boolean;
  /** The layout the diagram was drawn with, so message lanes meet the glyphs. */
  readonly layout: DiagramLayout;
  /** Recent drops, drawn as the drop mark while they are visible on screen. */
  readonly drops?: readonly DropView[];
  /** The nodes, for their election-timer arcs. */
  readonly nodes?: readonly NodeView[];
}

export interface RingSvg {
  readonly text: string;
  /** The picture's size in view units (its viewBox), for rasterising. */
  readonly width: number;
  readonly height: number;
}

function el<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const node = doc.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** `rgba(r, g, b, a)` → `rgb(r, g, b)` and a, since some SVG tools ignore alpha in a paint. */
function splitAlpha(value: string): { color: string; alpha: number } {
  const m = /^rgba\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)[,\s/]+([\d.]+)\s*\)$/.exec(value);
  if (!m) return { color: value, alpha: 1 };
  const alpha = Number(m[4]);
  return { color: alpha === 0 ? 'none' : `rgb(${m[1]}, ${m[2]}, ${m[3]})`, alpha };
}

/** The style attribute for one element, from the live element's computed style. */
function inlineStyle(cs: CSSStyleDeclaration): string {
  const values = new Map<string, string>();
  for (const prop of STYLE_PROPS) {
    const v = cs.getPropertyValue(prop).trim();
    if (v) values.set(prop, v);
  }
  for (const paint of ['fill', 'stroke'] as const) {
    const v = values.get(paint);
    if (!v) continue;
    const { color, alpha } = splitAlpha(v);
    values.set(paint, color);
    if (alpha !== 1 && color !== 'none') values.set(`${paint}-opacity`, String(alpha * Number(values.get(`${paint}-opacity`) ?? 1)));
  }
  return [...values].map(([k, v]) => `${k}:${v}`).join(';');
}

/** Copies computed styles from each live element onto its twin in the clone (same structure). */
function inlineStyles(live: Element, clone: Element): void {
  const cs = getComputedStyle(live);
  clone.setAttribute('style', inlineStyle(cs));
  clone.removeAttribute('tabindex');
  // Node roles are upper-cased by CSS; a file without our CSS must carry the capitals itself.
  if (cs.getPropertyValue('text-transform') === 'uppercase') {
    for (const child of clone.childNodes) if (child.nodeType === 3) child.textContent = (child.textContent ?? '').toUpperCase();
  }
  const a = live.children;
  const b = clone.children;
  for (let i = 0; i < a.length && i < b.length; i++) inlineStyles(a[i], b[i]);
}

/** The marks of messages in flight and recent drops, with the classes the legend's symbols use. */
function messagesGroup(
  doc: Document,
  layout: DiagramLayout,
  messages: readonly MessageView[],
  drops: readonly DropView[],
  clockMs: number,
): SVGGElement {
  const g = el(doc, 'g', { class: 'export-messages' });
  for (const m of messageMarks(layout, { messages, drops, clockMs })) {
    const at = `translate(${m.x.toFixed(2)},${m.y.toFixed(2)})`;
    if (m.mark === 'symbol') {
      g.append(el(doc, 'path', { class: `msg msg-${m.kind}`, d: symbolPath(m.kind), transform: at, 'data-seq': m.seq }));
      continue;
    }
    const burst = el(doc, 'g', { class: 'drop', transform: at, opacity: m.fade.toFixed(3) });
    burst.append(el(doc, 'circle', { r: burstRadius(m.fade).toFixed(2) }), el(doc, 'path', { d: BURST_CROSS }));
    g.append(burst);
  }
  return g;
}

/** Each live non-leader's timer track and the arc still to run, as the canvas paints them. */
function timersGroup(doc: Document, layout: DiagramLayout, nodes: readonly NodeView[], clockMs: number): SVGGElement {
  const g = el(doc, 'g', { class: 'export-timers' });
  for (const t of timerMarks(layout, nodes, clockMs)) {
    const timer = el(doc, 'g', { class: 'timer-of', transform: `translate(${t.x.toFixed(2)},${t.y.toFixed(2)})`, 'data-timer-of': t.id });
    timer.append(el(doc, 'circle', { class: 'timer-track', r: t.radius + TRACK_OFFSET }));
    const d = timerArcPath(t);
    if (d !== '') timer.append(el(doc, 'path', { class: t.candidate ? 'timer-arc timer-arc-candidate' : 'timer-arc', d }));
    g.append(timer);
  }
  return g;
}

/** Roles and message kinds, from the tables the page's legend uses, laid out in rows. */
function legendGroup(doc: Document, textColor: string, messages: readonly MessageView[]): { group: SVGGElement; height: number } {
  const g = el(doc, 'g', { class: 'export-legend', transform: `translate(0,${VIEW_H})` });
  const items: { swatch: SVGElement; name: string }[] = [];
  for (const role of ['follower', 'candidate', 'leader', 'down'] as const) {
    // The page legend's role shape (radius 12), shrunk to sit in a row with the message symbols.
    const swatch = el(doc, 'g', { class: `node role-${role}`, transform: 'scale(0.7)' });
    swatch.append(el(doc, 'path', { class: 'node-shape', d: roleShapePath(role === 'down' ? 'follower' : role, 12) }));
    items.push({ swatch, name: role });
  }
  // The snapshots feature's messages are named only when one is drawn (the page's legend names them in runs with the feature).
  const snapshots = messages.some((m) => m.type === 'InstallSnapshot' || m.type === 'InstallSnapshotReply');
  // Another lock service's peer traffic likewise (issue 26).
  const service = messages.some((m) => m.type === 'ServiceRpc');
  for (const k of MESSAGE_KINDS)
    if ((snapshots || (k !== 'snapshot' && k !== 'snapshot-reply')) && (service || k !== 'service-peer'))
      items.push({ swatch: el(doc, 'path', { class: `msg msg-${k}`, d: symbolPath(k) }), name: MESSAGE_LOOKS[k].name });
  const drop = el(doc, 'g', { class: 'drop drop-loss' });
  drop.append(el(doc, 'circle', { r: 9 }), el(doc, 'path', { d: 'M-6,-6L6,6M6,-6L-6,6' }));
  items.push({ swatch: drop, name: 'dropped' });

  // No text measurement outside a live layout: an average glyph width is close enough for spacing.
  const charW = LEGEND_FONT * 0.56;
  let x = LEGEND_PAD;
  let row = 0;
  for (const { swatch, name } of items) {
    const w = 24 + name.length * charW + 18;
    if (x + w > VIEW_W - LEGEND_PAD && x > LEGEND_PAD) {
      x = LEGEND_PAD;
      row++;
    }
    const y = LEGEND_PAD + row * LEGEND_ROW_H + LEGEND_ROW_H / 2;
    const item = el(doc, 'g', { class: 'legend-item', transform: `translate(${x.toFixed(1)},${y})` });
    const holder = el(doc, 'g', { transform: 'translate(10,0)' });
    holder.append(swatch);
    const label = el(doc, 'text', { x: 24, y: 0, fill: textColor, 'font-size': LEGEND_FONT, 'dominant-baseline': 'central' });
    label.textContent = name;
    item.append(holder, label);
    g.append(item);
    x += w;
  }
  return { group: g, height: LEGEND_PAD * 2 + (row + 1) * LEGEND_ROW_H };
}

/**
 * The ring diagram as a standalone SVG document (with its size): the live diagram's clone with
 * inlined styles, a background, the messages in flight, and optionally a legend, under a title.
 */
export function ringSvg(svg: SVGSVGElement, messages: readonly MessageView[], clockMs: number, options: RingExportOptions): RingSvg {
  const doc = svg.ownerDocument;
  const rootStyle = getComputedStyle(svg);
  const frameStyle = svg.parentElement ? getComputedStyle(svg.parentElement) : null;
  const textColor = rootStyle.color || 'rgb(22, 25, 30)';
  const background = splitAlpha(frameStyle?.backgroundColor || rootStyle.getPropertyValue('--panel').trim() || '#ffffff').color;

  // The added parts go into the live SVG for a moment, so they take their styles from the page's
  // CSS exactly as the legend and the canvas do; they leave again before anything repaints.
  const added: Element[] = [];
  const marks = messagesGroup(doc, options.layout, messages, options.drops ?? [], clockMs);
  const bg = svg.querySelector(':scope > .diagram-bg');
  svg.insertBefore(marks, bg ? bg.nextSibling : svg.firstChild);
  added.push(marks);
  if (options.nodes) {
    const timers = timersGroup(doc, options.layout, options.nodes, clockMs);
    marks.after(timers);
    added.push(timers);
  }
  let legendHeight = 0;
  if (options.legend) {
    const legend = legendGroup(doc, textColor, messages);
    svg.append(legend.group);
    added.push(legend.group);
    legendHeight = legend.height;
  }
  let clone: SVGSVGElement;
  try {
    clone = svg.cloneNode(true) as SVGSVGElement;
    inlineStyles(svg, clone);
  } finally {
    for (const node of added) node.remove();
  }

  // Drags in progress are not part of the picture.
  for (const node of clone.querySelectorAll('.cut-preview')) node.remove();
  const width = VIEW_W;
  const height = TITLE_H + VIEW_H + legendHeight;
  clone.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  clone.setAttributeNS(XMLNS_NS, 'xmlns:xlink', XLINK_NS);
  clone.setAttribute('viewBox', `0 ${-TITLE_H} ${width} ${height}`);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.removeAttribute('role');
  clone.removeAttribute('aria-label');
  clone.setAttribute('style', `${inlineStyle(rootStyle)};background:${background}`);

  const title = el(doc, 'title');
  title.textContent = options.title;
  const backdrop = el(doc, 'rect', { class: 'export-bg', x: 0, y: -TITLE_H, width, height, fill: background });
  const heading = el(doc, 'text', {
    class: 'export-title',
    x: LEGEND_PAD,
    y: -TITLE_H / 2,
    fill: textColor,
    'font-family': rootStyle.fontFamily,
    'font-size': 18,
    'font-weight': 700,
    'dominant-baseline': 'central',
  });
  heading.textContent = options.title;
  clone.prepend(title, backdrop, heading);
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`, width, height };
}

/** The ring diagram as standalone SVG text (see ringSvg). */
export function ringSvgString(svg: SVGSVGElement, messages: readonly MessageView[], clockMs: number, options: RingExportOptions): string {
  return ringSvg(svg, messages, clockMs, options).text;
}

/** Rasterises SVG text: an <img> of it drawn on a canvas `scale` times its size, saved as PNG. */
export function svgToPngBlob(svgText: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  return new Promise<Blob>((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      try {
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(width * scale);
        canvas.height = Math.round(height * scale);
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('this browser gave no canvas to draw the picture on');
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the browser could not encode the PNG'))), 'image/png');
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        URL.revokeObjectURL(url);
      }
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the browser could not draw the SVG'));
    };
    img.src = url;
  });
}
