/**
 * Messages in flight drawn on a canvas under the SVG diagram. Hundreds of moving SVG elements
 * cost the browser style, layout and paint every frame; a canvas redraw of the same shapes
 * costs a fraction of that (measured with `npm run bench:ui`). Each message sits at
 * (now − sent)/(deliver − sent) of its lane — a pure function of the clock, so stepping and
 * seeking need no animation state (RaftScope's rule). A message that will be lost dies half
 * way; a dropped one bursts where it died.
 *
 * A small controller with update/destroy, as DESIGN.md asks of D3-style code: React creates
 * the canvas, this draws on it.
 */
import type { DropView, MessageView } from '../../sim/snapshot';
import { lerp, messageLane, VIEW_H, VIEW_W, type DiagramLayout } from './layout';
import { dropPosition, KIND_VARS, MESSAGE_LOOKS, messageKind, symbolPath, type MessageKind } from './messageShapes';

/** The smallest symbol's area (view units²): the heartbeat's hollow circle. */
const SMALLEST_SYMBOL_AREA = Math.min(...Object.values(MESSAGE_LOOKS).map((l) => l.size));

/** How long (simulated ms) a drop's burst stays visible. */
export const DROP_VISIBLE_MS = 120;

export function progressOf(m: Pick<MessageView, 'sentAt' | 'deliverAt'>, clockMs: number): number {
  const span = m.deliverAt - m.sentAt;
  if (span <= 0) return 1;
  return Math.min(1, Math.max(0, (clockMs - m.sentAt) / span));
}

/** How near (view units) a click must land to a drawn message to pick it. */
export const MESSAGE_HIT_RADIUS = 16;

/**
 * The message drawn nearest `at` (view units), within MESSAGE_HIT_RADIUS, or null: the same
 * positions draw() paints, so a click on a symbol picks that message.
 */
export function messageAt(layout: DiagramLayout, messages: readonly MessageView[], clockMs: number, at: { x: number; y: number }): MessageView | null {
  let best: MessageView | null = null;
  let bestD = MESSAGE_HIT_RADIUS;
  for (const m of messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, clockMs);
    if (m.lost && p >= 0.5) continue;
    const pos = lerp(lane.from, lane.to, p);
    const d = Math.hypot(pos.x - at.x, pos.y - at.y);
    if (d <= bestD) {
      best = m;
      bestD = d;
    }
  }
  return best;
}

export interface MessageFrame {
  readonly messages: readonly MessageView[];
  readonly drops: readonly DropView[];
  readonly clockMs: number;
}

/** One thing the canvas paints: a message's symbol, or the burst where one was dropped. */
export type MessageMark =
  | { readonly mark: 'symbol'; readonly x: number; readonly y: number; readonly kind: MessageKind; readonly seq: number }
  | { readonly mark: 'burst'; readonly x: number; readonly y: number; readonly fade: number };

/**
 * Where each message and drop of a frame is painted, in view units: the canvas draws these,
 * and the ring export writes the same marks as SVG, so both put every message in one place.
 */
export function messageMarks(layout: DiagramLayout, frame: MessageFrame): MessageMark[] {
  const { messages, drops, clockMs } = frame;
  const marks: MessageMark[] = [];
  for (const m of messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, clockMs);
    if (m.lost && p >= 0.5) {
      const at = lerp(lane.from, lane.to, 0.5);
      const fade = 1 - Math.min(1, (clockMs - (m.sentAt + (m.deliverAt - m.sentAt) / 2)) / DROP_VISIBLE_MS);
      marks.push({ mark: 'burst', x: at.x, y: at.y, fade: Math.max(0.25, fade) });
      continue;
    }
    const at = lerp(lane.from, lane.to, p);
    marks.push({ mark: 'symbol', x: at.x, y: at.y, kind: messageKind(m), seq: m.seq });
  }
  for (const d of drops) {
    const age = clockMs - d.droppedAt;
    if (age < 0 || age > DROP_VISIBLE_MS) continue;
    const lane = messageLane(layout, d.src, d.dst);
    if (!lane) continue;
    const at = lerp(lane.from, lane.to, dropPosition(d.reason));
    marks.push({ mark: 'burst', x: at.x, y: at.y, fade: 1 - age / DROP_VISIBLE_MS });
  }
  return marks;
}

/** A message's pointer toward its target: from where it is, `length` view units along its lane (less near the end). */
export interface MessageTrail {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly kind: MessageKind;
}

/** Trails: one per message still flying (a lost message past its death has none). */
export function messageTrails(layout: DiagramLayout, frame: MessageFrame, length: number): MessageTrail[] {
  const trails: MessageTrail[] = [];
  for (const m of frame.messages) {
    const lane = messageLane(layout, m.src, m.dst);
    if (!lane) continue;
    const p = progressOf(m, frame.clockMs);
    if ((m.lost && p >= 0.5) || p >= 1) continue;
    const at = lerp(lane.from, lane.to, p);
    const left = Math.hypot(lane.to.x - at.x, lane.to.y - at.y);
    if (left < 1) continue;
    const end = lerp(at, lane.to, Math.min(1, length / left));
    trails.push({ x1: at.x, y1: at.y, x2: end.x, y2: end.y, kind: messageKind(m) });
  }
  return trails;
}

/** How long (view units) a trail reaches toward the target, at symbol scale 1. */
export const TRAIL_LENGTH = 56;

/** A drop's burst ring grows as it fades. */
export function burstRadius(fade: number): number {
  return 8 + 16 * (1 - fade);
}

interface Palette {
  readonly panel: string;
  readonly drop: string;
  readonly kind: Readonly<Record<MessageKind, string>>;
}


/** Symbols are pre-drawn at this many offsets per pixel along each axis. */
const SUBPIXEL_STEPS = 8;

/** The cross of a drop's burst, centred on 0,0. */
export const BURST_CROSS = 'M-7,-7L7,7M7,-7L-7,7';

export class MessageCanvas {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private layout: DiagramLayout;
  private palette: Palette;
  private readonly shapes = new Map<MessageKind, Path2D>();
  private cross: Path2D | null = null;
  /** Pre-drawn symbols by kind and subpixel offset, for spriteScale (null: draw the path). */
  private readonly sprites = new Map<string, ImageBitmap | null>();
  private spriteScale = 0;
  private frame: MessageFrame = { messages: [], drops: [], clockMs: 0 };
  /** Symbols drawn this much bigger, with (or without) a trail toward their target. */
  private symbolScale = 1;
  private trails = false;
  private pending = 0;
  /** The canvas's CSS size, kept from the last resize (null: not read yet). */
  private size: { readonly cw: number; readonly ch: number } | null = null;
  private readonly resizeObserver: ResizeObserver | null;
  private readonly colorScheme: MediaQueryList | null;
  /** With reduced motion, a drop is a still mark rather than a growing, fading ring. */
  private readonly reducedMotion: MediaQueryList | null;
  private readonly onScheme = () => {
    this.palette = readPalette(this.canvas);
    this.clearSprites();
    this.schedule();
  };

  constructor(canvas: HTMLCanvasElement, layout: DiagramLayout) {
    this.canvas = canvas;
    // jsdom (component tests) has no 2D context; the controller then draws nothing.
    let ctx: CanvasRenderingContext2D | null;
    try {
      ctx = canvas.getContext('2d');
    } catch {
      ctx = null;
    }
    this.ctx = ctx;
    this.layout = layout;
    this.palette = readPalette(canvas);
    this.resizeObserver = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => {
      // Layout is clean while resize observers run, so this read costs nothing.
      this.size = { cw: canvas.clientWidth, ch: canvas.clientHeight };
      this.schedule();
    });
    this.resizeObserver?.observe(canvas);
    this.colorScheme = typeof matchMedia === 'undefined' ? null : matchMedia('(prefers-color-scheme: dark)');
    this.colorScheme?.addEventListener('change', this.onScheme);
    this.reducedMotion = typeof matchMedia === 'undefined' ? null : matchMedia('(prefers-reduced-motion: reduce)');
  }

  update(layout: DiagramLayout): void {
    this.layout = layout;
    this.schedule();
  }

  /** How big symbols are drawn, and whether each has a trail toward its target. */
  setLook(symbolScale: number, trails: boolean): void {
    this.symbolScale = symbolScale;
    this.trails = trails;
    this.schedule();
  }

  show(frame: MessageFrame): void {
    this.frame = frame;
    this.schedule();
  }

  destroy(): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.pending = 0;
    this.resizeObserver?.disconnect();
    this.colorScheme?.removeEventListener('change', this.onScheme);
    this.clearSprites();
  }

  /** At most one draw per animation frame, however many snapshots arrive. */
  private schedule(): void {
    if (this.pending || !this.ctx) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.draw();
    });
  }

  private draw(): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    // The size is read when it changes (the resize observer), not every frame: reading it in a
    // frame whose DOM React just changed would force a layout in the middle of the frame.
    if (this.size === null) this.size = { cw: canvas.clientWidth, ch: canvas.clientHeight };
    const { cw, ch } = this.size;
    const width = Math.max(1, Math.round(cw * dpr));
    const height = Math.max(1, Math.round(ch * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    // The SVG above uses viewBox + xMidYMid meet: map view units the same way.
    const s = Math.min(cw / VIEW_W, ch / VIEW_H);
    const ox = (cw - VIEW_W * s) / 2;
    const oy = (ch - VIEW_H * s) / 2;
    const dropMotion = !this.reducedMotion?.matches;
    // The on-screen size of the smallest symbol (its equal-area square), for tests and tuning.
    const symbolPx = (Math.sqrt(SMALLEST_SYMBOL_AREA) * this.symbolScale * s).toFixed(1);
    if (canvas.dataset.symbolPx !== symbolPx) canvas.dataset.symbolPx = symbolPx;
    if (this.trails) this.drawTrails(dpr, s, ox, oy);
    const k = this.symbolScale;
    for (const m of messageMarks(this.layout, this.frame)) {
      if (m.mark === 'burst') {
        this.burst(m.x, m.y, dropMotion ? m.fade : 1, dpr, s, ox, oy);
        continue;
      }
      this.stamp(m.kind, dpr * s * k, dpr * (ox + m.x * s), dpr * (oy + m.y * s));
    }
  }

  /**
   * One message symbol centred at device pixel (x, y), copied from a small pre-drawn image of
   * its kind at this scale. Software canvas rasterises every path with antialiasing each frame;
   * at 9 nodes that was ~250 paths and about 3 ms of the main thread per frame, while copying
   * the same pixels costs a fraction of it. The images are drawn at an eighth-pixel grid of
   * offsets, so a symbol lands within 1/16 px of where the path would have been drawn.
   */
  private stamp(kind: MessageKind, scale: number, x: number, y: number): void {
    const ctx = this.ctx as CanvasRenderingContext2D;
    if (scale !== this.spriteScale) {
      this.clearSprites();
      this.spriteScale = scale;
    }
    const qx = Math.round(x * SUBPIXEL_STEPS);
    const qy = Math.round(y * SUBPIXEL_STEPS);
    const ix = Math.floor(qx / SUBPIXEL_STEPS);
    const iy = Math.floor(qy / SUBPIXEL_STEPS);
    const fx = qx - ix * SUBPIXEL_STEPS;
    const fy = qy - iy * SUBPIXEL_STEPS;
    const key = `${kind}:${fx}:${fy}`;
    let sprite = this.sprites.get(key);
    if (sprite === undefined) {
      sprite = this.drawSprite(kind, scale, fx / SUBPIXEL_STEPS, fy / SUBPIXEL_STEPS);
      this.sprites.set(key, sprite);
    }
    if (sprite === null) {
      // No offscreen canvas here: draw the path itself.
      ctx.setTransform(scale, 0, 0, scale, x, y);
      this.symbol(ctx, kind);
      return;
    }
    const half = (sprite.width - 1) / 2;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(sprite, ix - half, iy - half);
  }

  private clearSprites(): void {
    for (const sprite of this.sprites.values()) sprite?.close();
    this.sprites.clear();
  }

  /** A kind's symbol drawn once, centred at (half + fx, half + fy) of a square canvas. */
  private drawSprite(kind: MessageKind, scale: number, fx: number, fy: number): ImageBitmap | null {
    // An ImageBitmap: drawImage copies it as it is, where a canvas source is snapshotted per call.
    if (typeof OffscreenCanvas === 'undefined') return null;
    // The symbol's reach: its size's square root bounds every d3 symbol, plus the stroke and
    // its miter at the sharpest point, plus a pixel for antialiasing.
    const reach = (Math.sqrt(MESSAGE_LOOKS[kind].size) + 6) * scale + 2;
    const half = Math.ceil(reach);
    const sprite = new OffscreenCanvas(2 * half + 1, 2 * half + 1);
    const sctx = sprite.getContext('2d');
    if (!sctx) return null;
    sctx.setTransform(scale, 0, 0, scale, half + fx, half + fy);
    this.symbol(sctx, kind);
    return sprite.transferToImageBitmap();
  }

  /** A translucent line with an arrowhead from each message toward its target. */
  private drawTrails(dpr: number, s: number, ox: number, oy: number): void {
    const ctx = this.ctx as CanvasRenderingContext2D;
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * ox, dpr * oy);
    ctx.globalAlpha = 0.55;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    for (const t of messageTrails(this.layout, this.frame, TRAIL_LENGTH * this.symbolScale)) {
      const color = this.palette.kind[t.kind];
      ctx.strokeStyle = color;
      ctx.beginPath();
      ctx.moveTo(t.x1, t.y1);
      ctx.lineTo(t.x2, t.y2);
      ctx.stroke();
      const a = Math.atan2(t.y2 - t.y1, t.x2 - t.x1);
      const head = 9;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.moveTo(t.x2, t.y2);
      ctx.lineTo(t.x2 - head * Math.cos(a - 0.45), t.y2 - head * Math.sin(a - 0.45));
      ctx.lineTo(t.x2 - head * Math.cos(a + 0.45), t.y2 - head * Math.sin(a + 0.45));
      ctx.closePath();
      ctx.fill();
    }
    ctx.lineCap = 'butt';
    ctx.globalAlpha = 1;
  }

  private shape(kind: MessageKind): Path2D {
    let path = this.shapes.get(kind);
    if (!path) this.shapes.set(kind, (path = new Path2D(symbolPath(kind))));
    return path;
  }

  /** One message symbol at the current transform, styled like the legend. */
  private symbol(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, kind: MessageKind): void {
    const path = this.shape(kind);
    const color = this.palette.kind[kind];
    if (kind === 'heartbeat') {
      ctx.strokeStyle = color;
      ctx.lineWidth = 3;
      ctx.stroke(path);
      return;
    }
    ctx.fillStyle = color;
    ctx.fill(path);
    if (kind === 'vote-refused' || kind === 'append-rejected') {
      ctx.strokeStyle = color;
      ctx.lineWidth = 3;
    } else {
      ctx.strokeStyle = this.palette.panel;
      ctx.lineWidth = 1.5;
    }
    ctx.stroke(path);
  }

  private burst(x: number, y: number, fade: number, dpr: number, s: number, ox: number, oy: number): void {
    const ctx = this.ctx as CanvasRenderingContext2D;
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * (ox + x * s), dpr * (oy + y * s));
    ctx.globalAlpha = fade;
    ctx.strokeStyle = this.palette.drop;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.arc(0, 0, burstRadius(fade), 0, Math.PI * 2);
    ctx.stroke();
    ctx.lineWidth = 3.5;
    ctx.lineCap = 'round';
    if (!this.cross) this.cross = new Path2D(BURST_CROSS);
    ctx.stroke(this.cross);
    ctx.lineCap = 'butt';
    ctx.globalAlpha = 1;
  }
}

function readPalette(el: Element): Palette {
  const style = typeof getComputedStyle === 'undefined' ? null : getComputedStyle(el);
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  const kind = {} as Record<MessageKind, string>;
  for (const [k, v] of Object.entries(KIND_VARS) as [MessageKind, string][]) kind[k] = read(v, '#888');
  return { panel: read('--panel', '#fff'), drop: read('--drop', '#c62828'), kind };
}
