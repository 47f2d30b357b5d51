/**
 * What paints the message canvas: messages in flight, drops and the election timers of one
 * frame, on any 2D context. It reads nothing from the DOM — size, colours and the motion
 * preference are handed to it — so the same code paints on the page's canvas (tests, browsers
 * without OffscreenCanvas) and in the paint worker (src/worker/paint.worker.ts), where a new
 * canvas frame costs the page's main thread nothing.
 */
import { VIEW_H, VIEW_W, type DiagramLayout } from './layout';
import { BURST_CROSS, burstRadius, messageMarks, messageTrails, TRAIL_LENGTH, type MessageFrame } from './messageCanvas';
import { MESSAGE_LOOKS, type MessageKind } from './messageShapes';
import { symbolPath } from './messageShapes';
import { timerArcPath, timerMarks, TRACK_OFFSET, TRACK_WIDTH } from './timerArc';

/** The colours the canvas paints with, read from the page's CSS custom properties. */
export interface Palette {
  readonly panel: string;
  readonly drop: string;
  readonly track: string;
  readonly timer: string;
  readonly candidateTimer: string;
  readonly kind: Readonly<Record<MessageKind, string>>;
}

/** How the painter draws: set when the page's look changes, never per frame. */
export interface PaintLook {
  readonly layout: DiagramLayout;
  readonly palette: Palette;
  /** Symbols drawn this much bigger, with (or without) a trail toward their target. */
  readonly symbolScale: number;
  readonly trails: boolean;
  /** With reduced motion, a drop is a still mark rather than a growing, fading ring. */
  readonly reducedMotion: boolean;
  /** The frame's CSS size (the ring's view is fitted to it), and the device pixel ratio. */
  readonly cssWidth: number;
  readonly cssHeight: number;
  /** Where in the frame the canvas sits and how big it is (CSS px): only what messages and timers can reach. */
  readonly clip: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly dpr: number;
}

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** Symbols are pre-drawn at this many offsets per pixel along each axis. */
const SUBPIXEL_STEPS = 8;

/** The ring's view units mapped onto the canvas as the SVG's viewBox + xMidYMid meet maps them. */
export function viewFit(cssWidth: number, cssHeight: number): { s: number; ox: number; oy: number } {
  const s = Math.min(cssWidth / VIEW_W, cssHeight / VIEW_H);
  return { s, ox: (cssWidth - VIEW_W * s) / 2, oy: (cssHeight - VIEW_H * s) / 2 };
}

export const EMPTY_FRAME: MessageFrame = { messages: [], drops: [], clockMs: 0 };

export class MessagePainter {
  private readonly shapes = new Map<MessageKind, Path2D>();
  private cross: Path2D | null = null;
  /** Pre-drawn symbols by kind and subpixel offset, for spriteScale (null: draw the path). */
  private readonly sprites = new Map<string, ImageBitmap | null>();
  private spriteScale = 0;
  private spritePalette: Palette | null = null;
  private pending = 0;
  private look: PaintLook | null = null;
  private frame: MessageFrame = EMPTY_FRAME;

  constructor(
    private readonly canvas: HTMLCanvasElement | OffscreenCanvas,
    private readonly ctx: Context2D | null,
  ) {}

  setLook(look: PaintLook): void {
    this.look = look;
    this.schedule();
  }

  show(frame: MessageFrame): void {
    this.frame = frame;
    this.schedule();
  }

  destroy(): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.pending = 0;
    this.clearSprites();
  }

  /** At most one draw per animation frame, however many frames arrive. */
  private schedule(): void {
    if (this.pending || !this.ctx) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.draw();
    });
  }

  private draw(): void {
    const ctx = this.ctx;
    const look = this.look;
    if (!ctx || !look) return;
    const { dpr, cssWidth: cw, cssHeight: ch, clip } = look;
    const width = Math.max(1, Math.round(clip.width * dpr));
    const height = Math.max(1, Math.round(clip.height * dpr));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    // The view's origin relative to the canvas, which starts at (clip.x, clip.y) of the frame.
    const fit = viewFit(cw, ch);
    const s = fit.s;
    const ox = fit.ox - clip.x;
    const oy = fit.oy - clip.y;
    this.drawTimers(ctx, look, dpr, s, ox, oy);
    if (look.trails) this.drawTrails(ctx, look, dpr, s, ox, oy);
    const k = look.symbolScale;
    for (const m of messageMarks(look.layout, this.frame)) {
      if (m.mark === 'burst') {
        this.burst(ctx, look, m.x, m.y, look.reducedMotion ? 1 : m.fade, dpr, s, ox, oy);
        continue;
      }
      this.stamp(ctx, look, m.kind, dpr * s * k, dpr * (ox + m.x * s), dpr * (oy + m.y * s));
    }
  }

  /** Each timer's faint full track, and over it the arc of the timeout still to run. */
  private drawTimers(ctx: Context2D, look: PaintLook, dpr: number, s: number, ox: number, oy: number): void {
    const nodes = this.frame.nodes;
    if (!nodes) return;
    for (const t of timerMarks(look.layout, nodes, this.frame.clockMs)) {
      ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * (ox + t.x * s), dpr * (oy + t.y * s));
      ctx.globalAlpha = 0.6;
      ctx.strokeStyle = look.palette.track;
      ctx.lineWidth = TRACK_WIDTH;
      ctx.beginPath();
      ctx.arc(0, 0, t.radius + TRACK_OFFSET, 0, Math.PI * 2);
      ctx.stroke();
      const d = timerArcPath(t);
      if (d === '') continue;
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = t.candidate ? look.palette.candidateTimer : look.palette.timer;
      ctx.fill(new Path2D(d));
    }
    ctx.globalAlpha = 1;
  }

  /**
   * One message symbol centred at device pixel (x, y), copied from a small pre-drawn image of
   * its kind at this scale. Software canvas rasterises every path with antialiasing each frame;
   * at 9 nodes that was ~250 paths and about 3 ms per frame, while copying the same pixels
   * costs a fraction of it. The images are drawn at an eighth-pixel grid of offsets, so a
   * symbol lands within 1/16 px of where the path would have been drawn.
   */
  private stamp(ctx: Context2D, look: PaintLook, kind: MessageKind, scale: number, x: number, y: number): void {
    if (scale !== this.spriteScale || look.palette !== this.spritePalette) {
      this.clearSprites();
      this.spriteScale = scale;
      this.spritePalette = look.palette;
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
      sprite = this.drawSprite(look.palette, kind, scale, fx / SUBPIXEL_STEPS, fy / SUBPIXEL_STEPS);
      this.sprites.set(key, sprite);
    }
    if (sprite === null) {
      // No offscreen canvas here: draw the path itself.
      ctx.setTransform(scale, 0, 0, scale, x, y);
      this.symbol(ctx, look.palette, kind);
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
  private drawSprite(palette: Palette, kind: MessageKind, scale: number, fx: number, fy: number): ImageBitmap | null {
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
    this.symbol(sctx, palette, kind);
    return sprite.transferToImageBitmap();
  }

  /** A translucent line with an arrowhead from each message toward its target. */
  private drawTrails(ctx: Context2D, look: PaintLook, dpr: number, s: number, ox: number, oy: number): void {
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * ox, dpr * oy);
    ctx.globalAlpha = 0.55;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    for (const t of messageTrails(look.layout, this.frame, TRAIL_LENGTH * look.symbolScale)) {
      const color = look.palette.kind[t.kind];
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
  private symbol(ctx: Context2D, palette: Palette, kind: MessageKind): void {
    const path = this.shape(kind);
    const color = palette.kind[kind];
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
      ctx.strokeStyle = palette.panel;
      ctx.lineWidth = 1.5;
    }
    ctx.stroke(path);
  }

  private burst(ctx: Context2D, look: PaintLook, x: number, y: number, fade: number, dpr: number, s: number, ox: number, oy: number): void {
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * (ox + x * s), dpr * (oy + y * s));
    ctx.globalAlpha = fade;
    ctx.strokeStyle = look.palette.drop;
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
