/**
 * How the scene's primitives look, shared by the canvas painter and the SVG export so the two
 * agree: opacities, widths, dashes and the short texts drawn beside marks.
 */
import { FATE_NAMES } from '../../sim/view/traceColumns';
import type { BandState, SceneArrow } from './scene';

/** Font sizes (px). Lane headers are 16 px so they read on a projector at 1280×720. */
export const FONT = { header: 16, label: 14, axis: 13 } as const;
export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif";

/** Each band state's fill opacity: the leader stands out, followers stay quiet. */
export const BAND_ALPHA: Readonly<Record<BandState, number>> = {
  follower: 0.35,
  candidate: 0.75,
  leader: 0.9,
  down: 0.3,
  up: 0.6,
  paused: 0.6,
  crashed: 0.35,
};

/** Band widths (px): a running client is a thin line, everything else a band. */
export function bandWidth(state: BandState, band: number): number {
  return state === 'up' ? 2 : band;
}

export const ARROW_WIDTH = 1.6;
/** Beyond this many arrows in view the canvas draws them as hairlines (see paint.ts). */
export const DENSE_ARROWS = 400;
export const IN_FLIGHT_DASH = [6, 4] as const;
export const OVERRUN_DASH = [2, 5] as const;
export const PARTITION_ALPHA = { minority: 0.16, majority: 0.07 } as const;

/** Symbols on arrows only while they stay legible: not too many, not too short. */
export const SYMBOL_MAX_ARROWS = 1500;
export const SYMBOL_MIN_LENGTH = 28;
/** Drop reasons are written beside their crosses while there are few. */
export const DROP_TEXT_MAX = 60;

export function dropText(a: Pick<SceneArrow, 'fate'>): string {
  return FATE_NAMES[a.fate];
}

/** The arrow's length (px). */
export function arrowLength(a: Pick<SceneArrow, 'x1' | 'y1' | 'x2' | 'y2'>): number {
  return Math.hypot(a.x2 - a.x1, a.y2 - a.y1);
}

/** ✓ and ✗ as paths centred on 0,0 (r ≈ 6). */
export const CHECK_PATH = 'M-6,0L-2,5L7,-6';
export const CROSS_PATH = 'M-6,-6L6,6M6,-6L-6,6';

/** "1234567" → "1,234,567". */
export function groupThousands(whole: number): string {
  let rest = String(whole);
  let out = '';
  while (rest.length > 3) {
    out = `,${rest.slice(-3)}${out}`;
    rest = rest.slice(0, -3);
  }
  return rest + out;
}

/**
 * The ms as the view writes them in text: "1,234 ms", "12.5 ms". Called for every arrow's
 * accessible name, so it avoids toFixed and regular expressions (they dominated a DOM update).
 */
export function ms(t: number): string {
  const tenths = Math.round(Math.abs(t) * 10);
  const whole = Math.floor(tenths / 10);
  const frac = tenths % 10;
  return `${t < 0 && tenths > 0 ? '-' : ''}${whole < 1000 ? whole : groupThousands(whole)}${frac ? `.${frac}` : ''} ms`;
}

/** One line for a tooltip and an accessible name: the label, then when it went and how it ended. */
export function arrowSummary(a: Pick<SceneArrow, 'label' | 'from' | 'to' | 'sentAt' | 'endAt' | 'dropReason' | 'fate'>): string {
  const route = `${a.from} to ${a.to}`;
  if (a.endAt === null) return `${a.label} (${route}): sent at ${ms(a.sentAt)}, still in flight`;
  if (a.dropReason !== null) return `${a.label} (${route}): sent at ${ms(a.sentAt)}, dropped at ${ms(a.endAt)}: ${dropText(a)}`;
  return `${a.label} (${route}): sent at ${ms(a.sentAt)}, delivered at ${ms(a.endAt)}`;
}

/** Roughly how wide a text is (px): enough to keep labels from overprinting one another. */
export function textWidth(text: string, fontPx: number = FONT.label): number {
  return text.length * fontPx * 0.58;
}

/**
 * Keeps labels from overprinting: each placed label reserves its box, and a label that would
 * overlap one already placed is skipped (its text stays in the tooltip and the accessible names).
 */
export class LabelPlacer {
  private readonly boxes: number[] = [];

  place(text: string, x: number, y: number, anchor: 'start' | 'end' | 'middle', fontPx: number = FONT.label): boolean {
    const w = textWidth(text, fontPx);
    const x1 = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
    const x2 = x1 + w;
    const y1 = y - fontPx * 0.5;
    const y2 = y + fontPx * 0.5;
    const b = this.boxes;
    for (let i = 0; i < b.length; i += 4) if (x1 < b[i + 2] && x2 > b[i] && y1 < b[i + 3] && y2 > b[i + 1]) return false;
    b.push(x1, y1, x2, y2);
    return true;
  }
}

/** Where a store mark's two lines sit below it (px from the mark's centre). */
export const STORE_LINE_DY = [21, 37] as const;

/** "250 ms – 750 ms": whole ms unless the window is short enough for tenths to matter; seconds for long windows ("0 s – 600 s"). */
export function windowText(w: readonly [number, number]): string {
  const span = w[1] - w[0];
  if (span >= 10_000) {
    const sec = (t: number) => `${groupThousands(Math.round(t / 1000))} s`;
    const tenth = (t: number) => `${(t / 1000).toFixed(1)} s`;
    return span >= 100_000 ? `${sec(w[0])} – ${sec(w[1])}` : `${tenth(w[0])} – ${tenth(w[1])}`;
  }
  const round = span >= 50 ? Math.round : (t: number) => t;
  return `${ms(round(w[0]))} – ${ms(round(w[1]))}`;
}
