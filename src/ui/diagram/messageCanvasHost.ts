/**
 * The page's side of the message canvas (see src/paint/messagePainter.ts for the drawing): it reads what
 * only the DOM knows — the frame's size, the current theme's colours, the motion preference —
 * and hands them to the painter with the layout and the look. The canvas covers only the part
 * of the frame messages and timers can reach (paintBounds), placed over it. Where the browser
 * can, the canvas goes to a paint worker that the simulation worker feeds directly (`connect`),
 * so the page's frames never touch it; otherwise (jsdom, older browsers) the painter runs here
 * and `show` feeds it. A small controller with update/destroy, as DESIGN.md asks of D3-style code.
 */
import type { DiagramLayout } from '../../paint/layout';
import { paintBounds, SMALLEST_SYMBOL_AREA, type MessageFrame } from '../../paint/messageCanvas';
import { MessagePainter, viewFit, type Palette, type PaintLook } from '../../paint/messagePainter';
import { KIND_VARS, type MessageKind } from '../../paint/messageShapes';

/** Hands the paint worker's channel to the simulation worker; the function returned closes it. */
export type ConnectPainter = (port: MessagePort) => () => void;

export class MessageCanvas {
  private readonly local: MessagePainter | null = null;
  private readonly worker: Worker | null = null;
  private readonly disconnect: (() => void) | null = null;
  private layout: DiagramLayout;
  private palette: Palette;
  private symbolScale = 1;
  private trails = false;
  /** The frame's CSS size, kept from the last resize (null: not read yet). */
  private size: { readonly cw: number; readonly ch: number } | null = null;
  /** Where the canvas was last placed in the frame (CSS px), to restyle it only when that changes. */
  private placed = '';
  private readonly resizeObserver: ResizeObserver | null;
  private readonly colorScheme: MediaQueryList | null;
  private readonly reducedMotion: MediaQueryList | null;
  private readonly onScheme = () => {
    this.palette = readPalette(this.canvas);
    this.sendLook();
  };
  private readonly onMotion = () => this.sendLook();

  /**
   * `frame` is the element the canvas is positioned in and the ring's view is fitted to (the
   * diagram's frame; the canvas's own parent by default).
   */
  constructor(
    private readonly canvas: HTMLCanvasElement,
    layout: DiagramLayout,
    connect?: ConnectPainter,
    private readonly frame: HTMLElement | null = canvas.parentElement,
  ) {
    this.layout = layout;
    this.palette = readPalette(canvas);
    if (
      connect &&
      typeof canvas.transferControlToOffscreen === 'function' &&
      typeof Worker !== 'undefined' &&
      typeof MessageChannel !== 'undefined'
    ) {
      const offscreen = canvas.transferControlToOffscreen();
      const channel = new MessageChannel();
      this.worker = new Worker(new URL('../../worker/paint.worker.ts', import.meta.url), { type: 'module' });
      this.worker.postMessage({ type: 'canvas', canvas: offscreen, frames: channel.port2 }, [offscreen, channel.port2]);
      this.disconnect = connect(channel.port1);
    } else {
      // jsdom (component tests) has no 2D context; the painter then draws nothing.
      let ctx: CanvasRenderingContext2D | null;
      try {
        ctx = canvas.getContext('2d');
      } catch {
        ctx = null;
      }
      this.local = new MessagePainter(canvas, ctx);
    }
    this.resizeObserver =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            // Layout is clean while resize observers run, so this read costs nothing.
            this.size = this.frameSize();
            this.sendLook();
          });
    this.resizeObserver?.observe(this.frame ?? canvas);
    this.colorScheme = typeof matchMedia === 'undefined' ? null : matchMedia('(prefers-color-scheme: dark)');
    this.colorScheme?.addEventListener('change', this.onScheme);
    this.reducedMotion = typeof matchMedia === 'undefined' ? null : matchMedia('(prefers-reduced-motion: reduce)');
    this.reducedMotion?.addEventListener('change', this.onMotion);
    this.sendLook();
  }

  update(layout: DiagramLayout): void {
    this.layout = layout;
    this.sendLook();
  }

  /** How big symbols are drawn, and whether each has a trail toward their target. */
  setLook(symbolScale: number, trails: boolean): void {
    this.symbolScale = symbolScale;
    this.trails = trails;
    this.sendLook();
  }

  /** Whether the painter runs on this thread and needs `show`; a paint worker gets its frames from the simulation worker. */
  get drawsHere(): boolean {
    return this.local !== null;
  }

  /** A frame for the painter on this thread (a paint worker gets its frames from the simulation worker). */
  show(frame: MessageFrame): void {
    this.local?.show(frame);
  }

  destroy(): void {
    this.resizeObserver?.disconnect();
    this.colorScheme?.removeEventListener('change', this.onScheme);
    this.reducedMotion?.removeEventListener('change', this.onMotion);
    this.local?.destroy();
    this.disconnect?.();
    this.worker?.terminate();
  }

  private frameSize(): { readonly cw: number; readonly ch: number } {
    const el = this.frame ?? this.canvas;
    return { cw: el.clientWidth, ch: el.clientHeight };
  }

  /** The canvas's place in a frame of cw × ch CSS px: paintBounds fitted as the SVG fits its view, whole pixels, inside the frame. */
  private place(cw: number, ch: number): PaintLook['clip'] {
    const { s, ox, oy } = viewFit(cw, ch);
    const b = paintBounds(this.layout, this.symbolScale);
    const x = Math.max(0, Math.floor(ox + b.x0 * s));
    const y = Math.max(0, Math.floor(oy + b.y0 * s));
    const clip = {
      x,
      y,
      width: Math.max(0, Math.min(cw, Math.ceil(ox + b.x1 * s)) - x),
      height: Math.max(0, Math.min(ch, Math.ceil(oy + b.y1 * s)) - y),
    };
    const placed = `${clip.x},${clip.y},${clip.width},${clip.height}`;
    if (placed !== this.placed) {
      this.placed = placed;
      const style = this.canvas.style;
      style.left = `${clip.x}px`;
      style.top = `${clip.y}px`;
      style.width = `${clip.width}px`;
      style.height = `${clip.height}px`;
    }
    return clip;
  }

  private sendLook(): void {
    // The size is read when it changes (the resize observer), not every frame: reading it in a
    // frame whose DOM React just changed would force a layout in the middle of the frame.
    if (this.size === null) this.size = this.frameSize();
    const clip = this.place(this.size.cw, this.size.ch);
    const look: PaintLook = {
      layout: this.layout,
      palette: this.palette,
      symbolScale: this.symbolScale,
      trails: this.trails,
      reducedMotion: this.reducedMotion?.matches ?? false,
      cssWidth: this.size.cw,
      cssHeight: this.size.ch,
      clip,
      dpr: (typeof window !== 'undefined' && window.devicePixelRatio) || 1,
    };
    // The on-screen size of the smallest symbol (its equal-area square), for tests and tuning.
    const symbolPx = (Math.sqrt(SMALLEST_SYMBOL_AREA) * this.symbolScale * viewFit(look.cssWidth, look.cssHeight).s).toFixed(1);
    if (this.canvas.dataset.symbolPx !== symbolPx) this.canvas.dataset.symbolPx = symbolPx;
    if (this.worker) this.worker.postMessage({ type: 'look', look });
    else this.local?.setLook(look);
  }
}

function readPalette(el: Element): Palette {
  const style = typeof getComputedStyle === 'undefined' ? null : getComputedStyle(el);
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  const kind = {} as Record<MessageKind, string>;
  for (const [k, v] of Object.entries(KIND_VARS) as [MessageKind, string][]) kind[k] = read(v, '#888');
  return {
    panel: read('--panel', '#fff'),
    drop: read('--drop', '#c62828'),
    track: read('--border', '#c3c8d0'),
    timer: read('--timer', '#3f629a'),
    candidateTimer: read('--candidate-stroke', '#9a5d00'),
    kind,
  };
}
