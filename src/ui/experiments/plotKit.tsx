/**
 * What the three experiment plots share: a colour-blind-safe palette (Okabe and Ito), text sizes
 * for a projector (at least 14 px at 1280x720), axes drawn by React from D3 scales, the plot's
 * own width, and SVG/PNG export. Every style is an SVG attribute, so an exported file looks the
 * same as the plot without the page's stylesheet.
 */
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { encodeLink } from '../../share/link';
import { MAX_NODES } from '../../sim/model/config';
import type { RunResult } from '../../sim/experiments/experiment';
import { downloadBlob, downloadText } from '../export/download';
import { pngFromSvg } from '../spacetime/pngFromSvg';

/** Okabe and Ito's palette, without the yellow (too light on white for thin marks). */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#8C6D1F'] as const;
export const INK = '#1f2328';
export const MUTED = '#57606a';
export const GRID = '#d0d7de';
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** 15 px ticks at a laptop's or a projector's 1280 px; 17 px on a wide screen (1920 px), where the page's own text grows too. */
const WIDE = typeof window !== 'undefined' && window.innerWidth >= 1600;
export const TICK_PX = WIDE ? 17 : 15;
export const LABEL_PX = WIDE ? 18 : 16;

export const MARGIN = { top: 16, right: 20, bottom: 58, left: 68 };

export function colorOf(i: number): string {
  return PALETTE[i % PALETTE.length];
}

/** A plot's height: two rows of plots fill the window's height (at 1280x720 each is 275 px), within bounds. */
export function usePlotHeight(): number {
  const [height, setHeight] = useState(() => plotHeightFor(typeof window === 'undefined' ? 720 : window.innerHeight));
  useLayoutEffect(() => {
    const onResize = () => setHeight(plotHeightFor(window.innerHeight));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}

function plotHeightFor(windowHeight: number): number {
  return Math.max(230, Math.min(440, Math.floor((windowHeight - 170) / 2)));
}

/** The element's content width, kept up to date. */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback = 480): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(240, Math.floor(el.clientWidth)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export interface Scale {
  (v: number): number;
  ticks(count?: number): number[];
  tickFormat(count?: number, spec?: string): (v: number) => string;
}

/** A scale's ticks; only whole numbers for a measure that counts things. */
function ticksOf(scale: Scale, count: number, integer: boolean): number[] {
  const ticks = scale.ticks(count);
  return integer ? ticks.filter((v) => Number.isInteger(v)) : ticks;
}

/** A measure's domain: whole-number measures get half a unit each side, so bars and dots sit on their number, not on the edge. */
export function domainOf(values: readonly number[], integer: boolean, extra: readonly number[] = []): [number, number] {
  const all = [...values, ...extra];
  const lo = all.length ? Math.min(...all) : 0;
  const hi = all.length ? Math.max(...all) : 1;
  if (integer) return [Math.floor(lo) - 0.5, Math.ceil(hi) + 0.5];
  // A little room past the largest value, so no dot sits on the plot's edge.
  const top = hi > lo ? hi : lo + 1;
  return [Math.min(lo, 0), top + (top - Math.min(lo, 0)) * 0.05];
}

export function XAxis({
  scale,
  y,
  width,
  label,
  ticks,
  integer = false,
}: {
  scale: Scale;
  y: number;
  width: number;
  label: string;
  ticks?: readonly { v: number; text: string }[];
  integer?: boolean;
}) {
  const count = Math.max(2, Math.floor(width / 90));
  const format = integer ? String : scale.tickFormat(count);
  const marks = ticks ?? ticksOf(scale, count, integer).map((v) => ({ v, text: format(v) }));
  return (
    <g>
      <line x1={MARGIN.left} x2={MARGIN.left + width} y1={y} y2={y} stroke={INK} />
      {marks.map((m) => (
        <g key={`${m.v}-${m.text}`} transform={`translate(${scale(m.v)},${y})`}>
          <line y2={6} stroke={INK} />
          <text y={22} textAnchor="middle" fontSize={TICK_PX} fill={INK} fontFamily={FONT}>
            {m.text}
          </text>
        </g>
      ))}
      <text x={MARGIN.left + width / 2} y={y + 48} textAnchor="middle" fontSize={LABEL_PX} fill={INK} fontFamily={FONT} fontWeight={600}>
        {label}
      </text>
    </g>
  );
}

export function YAxis({
  scale,
  height,
  label,
  format,
  integer = false,
  top = MARGIN.top,
}: {
  scale: Scale;
  height: number;
  label: string;
  format?: (v: number) => string;
  integer?: boolean;
  top?: number;
}) {
  const count = Math.max(2, Math.floor(height / 50));
  const f = format ?? (integer ? String : scale.tickFormat(count));
  return (
    <g>
      <line x1={MARGIN.left} x2={MARGIN.left} y1={top} y2={top + height} stroke={INK} />
      {ticksOf(scale, count, integer).map((v) => (
        <g key={v} transform={`translate(${MARGIN.left},${scale(v)})`}>
          <line x2={-6} stroke={INK} />
          <text x={-10} dy="0.35em" textAnchor="end" fontSize={TICK_PX} fill={INK} fontFamily={FONT}>
            {f(v)}
          </text>
        </g>
      ))}
      <text
        transform={`translate(18,${top + height / 2}) rotate(-90)`}
        textAnchor="middle"
        fontSize={LABEL_PX}
        fill={INK}
        fontFamily={FONT}
        fontWeight={600}
      >
        {label}
      </text>
    </g>
  );
}

/** Horizontal grid lines behind the marks. */
export function GridLines({ scale, width, height, integer = false }: { scale: Scale; width: number; height: number; integer?: boolean }) {
  return (
    <g>
      {ticksOf(scale, Math.max(2, Math.floor(height / 50)), integer).map((v) => (
        <line key={v} x1={MARGIN.left} x2={MARGIN.left + width} y1={scale(v)} y2={scale(v)} stroke={GRID} strokeDasharray="2 3" />
      ))}
    </g>
  );
}

const links = new WeakMap<RunResult, string>();

/** Whether the page can open a run: the diagram draws at most MAX_NODES nodes (gossip-spread's runs go to 1,000). */
export function opensOnPage(result: RunResult): boolean {
  return result.run.config.nodeIds.length <= MAX_NODES;
}

/** What a run's tooltip adds when it cannot open (one sentence), else nothing. */
export function runNote(result: RunResult): string {
  const n = result.run.config.nodeIds.length;
  return opensOnPage(result)
    ? ''
    : ` — a run of ${n} nodes cannot open on the diagram, which draws at most ${MAX_NODES}; its numbers are here and in the CSV.`;
}

/** A run's share link, made once per result: the plots redraw every dot as more results arrive. '' for a run the page cannot open. */
export function runLink(result: RunResult): string {
  if (!opensOnPage(result)) return '';
  let link = links.get(result);
  if (link === undefined) {
    link = encodeLink(result.run);
    links.set(result, link);
  }
  return link;
}

/**
 * A run drawn as a dot carrying its link. Clicks are handled once for the whole plot (PlotFrame),
 * not per dot: a sweep draws thousands of them and redraws as results arrive.
 */
export function RunDot({
  link,
  title,
  cx,
  cy,
  r,
  fill,
  fillOpacity,
  stroke,
  strokeWidth,
}: {
  link: string;
  title: string;
  cx: number;
  cy: number;
  r: number;
  fill: string;
  fillOpacity?: number;
  stroke?: string;
  strokeWidth?: number;
}) {
  return (
    <circle
      // A run the page cannot open (past 9 nodes) is a mark without a link: its tooltip says why.
      data-run-link={link === '' ? undefined : link}
      data-run-closed={link === '' ? 'true' : undefined}
      className={link === '' ? 'run-mark run-mark-closed' : 'run-mark'}
      cx={cx}
      cy={cy}
      r={r}
      fill={fill}
      fillOpacity={fillOpacity}
      stroke={stroke}
      strokeWidth={strokeWidth}
    >
      <title>{title}</title>
    </circle>
  );
}

/** A plot's frame: its title, the SVG and Save SVG / Save PNG. */
export function PlotFrame({
  title,
  name,
  controls,
  width,
  height,
  children,
  testid,
  onOpen,
}: {
  title: string;
  onOpen: (link: string) => void;
  name: string;
  controls?: ReactNode;
  width: number;
  height: number;
  children: ReactNode;
  testid: string;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const svgText = () => {
    const svg = svgRef.current;
    if (!svg) return '';
    const copy = svg.cloneNode(true) as SVGSVGElement;
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    return new XMLSerializer().serializeToString(copy);
  };
  return (
    <figure className="exp-plot" data-plot={testid}>
      <figcaption>
        <span className="exp-plot-title">{title}</span>
        {controls}
        <span className="exp-plot-save">
          <button type="button" onClick={() => downloadText(`${name}.svg`, svgText(), 'image/svg+xml')}>
            SVG
          </button>
          <button type="button" onClick={() => void pngFromSvg(svgText(), width, height).then((b) => downloadBlob(`${name}.png`, b))}>
            PNG
          </button>
        </span>
      </figcaption>
      <svg
        ref={svgRef}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        aria-label={`${title}: every dot is a run; click one to open it`}
        fontFamily={FONT}
        onClick={(e) => {
          const link = (e.target as Element).closest('[data-run-link]')?.getAttribute('data-run-link');
          if (link) onOpen(link);
        }}
      >
        <rect width={width} height={height} fill="#ffffff" />
        {children}
      </svg>
    </figure>
  );
}

/** A small deterministic jitter in [-1, 1] from a run's seed and point, so dots do not hide each other. */
export function jitter(seed: number, point: number): number {
  let h = (seed * 2654435761 + point * 40503) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 2246822507) >>> 0;
  // Unsigned again after the xor: a negative h made the remainder negative, and dots strayed up to twice their spread to the left.
  h = (h ^ (h >>> 13)) >>> 0;
  return ((h % 2001) - 1000) / 1000;
}

export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (Math.abs(v) >= 100 || Number.isInteger(v)) return String(Math.round(v));
  return v.toFixed(1);
}
