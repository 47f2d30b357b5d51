/**
 * Issue 28's trade-off curve: detection time (x) against false elections an hour (y), one line per
 * failure detector, one mark per setting. A mark opens the run nearest its point's median failover.
 * The y axis is a log scale (plus one, so none an hour sits on the floor): false elections run from
 * none to a hundred thousand an hour, and the interesting points are the few near none.
 */
import { line, scaleLinear, scaleSymlog } from 'd3';
import { memo, useRef } from 'react';
import type { PlannedPoint, RunResult } from '../../sim/experiments/experiment';
import { tradeoffSeries } from '../../sim/experiments/tradeoff';
import {
  GridLines,
  INK,
  MARGIN,
  MUTED,
  PlotFrame,
  RunDot,
  TICK_PX,
  XAxis,
  YAxis,
  colorOf,
  formatNumber,
  runLink,
  usePlotHeight,
  useWidth,
} from './plotKit';

export interface TradeoffPlotProps {
  readonly runs: readonly RunResult[];
  readonly points: readonly PlannedPoint[];
  readonly fileName: string;
  readonly onOpen: (link: string) => void;
}

/** Fixed timeouts in blue squares' colour, phi-accrual in orange: the palette's first two. */
const SERIES_COLOR = { fixed: colorOf(0), 'phi-accrual': colorOf(1) } as const;

export const TradeoffPlot = memo(function TradeoffPlot({ runs, points, fileName, onOpen }: TradeoffPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const keyH = 24;
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom - keyH;
  const top = MARGIN.top + keyH;
  const series = tradeoffSeries(points, runs);
  const marks = series.flatMap((s) => s.marks);
  const xs = marks.map((m) => m.detectionMs);
  const ys = marks.map((m) => m.falsePerHour);
  const x = scaleLinear()
    .domain([0, Math.max(100, ...xs) * 1.2])
    .range([MARGIN.left, MARGIN.left + innerW])
    .nice();
  const yTop = Math.max(10, ...ys);
  const y = scaleSymlog()
    .constant(1)
    .domain([0, yTop * 1.5])
    .range([top + innerH, top]);
  // Powers of ten from 10 (and none; 1 would sit on 0's label): a symlog scale's own ticks crowd the bottom.
  const decades = [0, 10, 100, 1000, 10_000, 100_000, 1_000_000].filter((v) => v <= yTop * 1.5);
  const yScale = Object.assign((v: number) => y(v), {
    ticks: () => decades,
    tickFormat: () => (v: number) => (v >= 1000 ? `${v / 1000}k` : String(v)),
  });
  // A label beside its mark (fixed timeouts right and a little above, Φ left), only where it overlaps no
  // label already placed; the tooltip names every mark.
  const labelAt = new Map<number, { x: number; y: number; text: string; anchor: 'start' | 'end' }>();
  const boxes: { x0: number; x1: number; y0: number; y1: number }[] = [];
  series.forEach((s, k) => {
    for (const m of s.marks) {
      const text = m.label.replace(/^fixed:/, '').replace(/^phi:/, 'Φ ');
      const w = text.length * (TICK_PX - 2) * 0.6;
      const lx = x(m.detectionMs) + (k === 0 ? 8 : -9);
      const ly = y(m.falsePerHour) + (k === 0 ? -10 : 0);
      const box = { x0: k === 0 ? lx : lx - w, x1: k === 0 ? lx + w : lx, y0: ly - 6, y1: ly + 6 };
      if (boxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
      boxes.push(box);
      labelAt.set(m.point, { x: lx, y: ly, text, anchor: k === 0 ? 'start' : 'end' });
    }
  });
  const path = line<{ detectionMs: number; falsePerHour: number }>()
    .x((m) => x(m.detectionMs))
    .y((m) => y(m.falsePerHour));
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame title="The trade-off curve" name={fileName} width={width} height={plotHeight} testid="tradeoff" onOpen={onOpen}>
        <GridLines scale={yScale} width={innerW} height={innerH} />
        <YAxis scale={yScale} height={innerH} top={top} label="False elections an hour" />
        <XAxis scale={x} y={top + innerH} width={innerW} label="Detection time: median failover (ms)" />
        {series.map((s) => (
          <g key={s.kind} data-series={s.kind}>
            <path d={path([...s.marks]) ?? ''} fill="none" stroke={SERIES_COLOR[s.kind]} strokeWidth={2.5} />
            {s.marks.map((m) => (
              <g key={m.point} className="tradeoff-mark" data-label={m.label} data-detection={m.detectionMs} data-false={m.falsePerHour}>
                <RunDot
                  link={runLink(m.run)}
                  title={`${m.label}: detection ${formatNumber(m.detectionMs)} ms (median of ${m.n}), ${formatNumber(m.falsePerHour)} false elections an hour (mean); opens seed ${m.run.seed}, the run nearest the median`}
                  cx={x(m.detectionMs)}
                  cy={y(m.falsePerHour)}
                  r={6}
                  fill={SERIES_COLOR[s.kind]}
                  stroke="#fff"
                  strokeWidth={1.2}
                />
                {labelAt.has(m.point) && (
                  <text
                    x={labelAt.get(m.point)?.x}
                    y={labelAt.get(m.point)?.y}
                    dy="0.35em"
                    textAnchor={labelAt.get(m.point)?.anchor}
                    fontSize={TICK_PX - 2}
                    fill={INK}
                    pointerEvents="none"
                  >
                    {labelAt.get(m.point)?.text}
                  </text>
                )}
              </g>
            ))}
          </g>
        ))}
        <g>
          {series.map((s, k) => (
            <g key={s.kind} transform={`translate(${MARGIN.left + k * 190},14)`}>
              <line x1={0} x2={22} stroke={SERIES_COLOR[s.kind]} strokeWidth={2.5} />
              <circle cx={11} r={5} fill={SERIES_COLOR[s.kind]} />
              <text x={30} dy="0.35em" fontSize={TICK_PX} fill={INK}>
                {s.name}
              </text>
            </g>
          ))}
        </g>
        {marks.length === 0 && (
          <text x={MARGIN.left + innerW / 2} y={top + innerH / 2} textAnchor="middle" fontSize={TICK_PX} fill={MUTED}>
            {runs.length === 0 ? 'No runs yet' : 'No run has both a failover and a false-election count'}
          </text>
        )}
      </PlotFrame>
    </div>
  );
});
