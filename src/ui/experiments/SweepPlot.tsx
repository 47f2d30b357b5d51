/**
 * A measure across the swept parameter: the median at each point, joined, over the p5-p95 band,
 * with every run as a faint dot (clickable) spread a little sideways so they do not hide each other.
 */
import { area, line, scaleLinear } from 'd3';
import { memo, useRef } from 'react';
import type { PlannedPoint, RunResult } from '../../sim/experiments/experiment';
import { summarize } from '../../sim/experiments/stats';
import {
  GridLines,
  INK,
  MARGIN,
  MUTED,
  PlotFrame,
  RunDot,
  runLink,
  TICK_PX,
  XAxis,
  YAxis,
  colorOf,
  formatNumber,
  jitter,
  usePlotHeight,
  useWidth,
} from './plotKit';

export interface SweepPlotProps {
  readonly runs: readonly RunResult[];
  readonly points: readonly PlannedPoint[];
  readonly measure: string;
  readonly axisLabel: string;
  readonly integer: boolean;
  readonly paramLabel: string;
  readonly fileName: string;
  readonly controls?: React.ReactNode;
  readonly onOpen: (link: string) => void;
}

export const SweepPlot = memo(function SweepPlot({
  runs,
  points,
  measure,
  axisLabel,
  integer,
  paramLabel,
  fileName,
  controls,
  onOpen,
}: SweepPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom;
  const byPoint = points.map((p) => runs.filter((r) => r.point === p.index));
  const summaries = byPoint.map((rs) => summarize(rs.map((r) => r.values[measure] ?? null)));
  const all = runs.map((r) => r.values[measure]).filter((v): v is number => v !== null && v !== undefined);
  const x = scaleLinear()
    .domain([-0.5, Math.max(0.5, points.length - 0.5)])
    .range([MARGIN.left, MARGIN.left + innerW]);
  // Headroom over the top value for the medians' labels.
  const top = Math.max(1, ...all);
  const y = scaleLinear()
    .domain([Math.min(0, ...all), top + (top - Math.min(0, ...all)) * 0.12])
    .range([MARGIN.top + innerH, MARGIN.top]);
  if (!integer) y.nice();
  const present = summaries.map((s, i) => ({ s, i })).filter(({ s }) => s.n > 0);
  const band = area<{ s: (typeof summaries)[number]; i: number }>()
    .x(({ i }) => x(i))
    .y0(({ s }) => y(s.p5))
    .y1(({ s }) => y(s.p95));
  const median = line<{ s: (typeof summaries)[number]; i: number }>()
    .x(({ i }) => x(i))
    .y(({ s }) => y(s.p50));
  const step = innerW / Math.max(1, points.length);
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame
        title="Across the sweep"
        name={fileName}
        controls={controls}
        width={width}
        height={plotHeight}
        testid="sweep"
        onOpen={onOpen}
      >
        <GridLines scale={y} width={innerW} height={innerH} integer={integer} />
        <YAxis scale={y} height={innerH} label={axisLabel} integer={integer} />
        <XAxis
          scale={x}
          y={MARGIN.top + innerH}
          width={innerW}
          label={paramLabel}
          ticks={points.map((p) => ({ v: p.index, text: p.label }))}
        />
        {present.length > 1 && <path d={band(present) ?? ''} fill="#56B4E9" fillOpacity={0.3} stroke="none" />}
        {present.length === 1 &&
          present.map(({ s, i }) => (
            <rect key={i} x={x(i) - 14} width={28} y={y(s.p95)} height={Math.max(1, y(s.p5) - y(s.p95))} fill="#56B4E9" fillOpacity={0.3} />
          ))}
        {byPoint.map((rs, i) =>
          rs.map((r) => {
            const v = r.values[measure];
            if (v === null || v === undefined) return null;
            return (
              <RunDot
                key={`${i}-${r.seed}`}
                link={runLink(r)}
                title={`${points[i].label}, seed ${r.seed}: ${formatNumber(v)}`}
                cx={x(i) + jitter(r.seed, i) * Math.min(40, step * 0.3)}
                cy={y(v)}
                r={3.5}
                fill={colorOf(i)}
                fillOpacity={0.45}
              />
            );
          }),
        )}
        {present.length > 0 && <path d={median(present) ?? ''} fill="none" stroke={INK} strokeWidth={2.5} />}
        {present.map(({ s, i }) => (
          <g key={i}>
            <rect x={x(i) - 6} y={y(s.p50) - 6} width={12} height={12} fill={INK} />
            <text x={x(i) + 10} y={y(s.p50) - 8} fontSize={TICK_PX} fill={INK} fontWeight={600}>
              {formatNumber(s.p50)}
            </text>
          </g>
        ))}
        {all.length === 0 && (
          <text x={MARGIN.left + innerW / 2} y={MARGIN.top + innerH / 2} textAnchor="middle" fontSize={TICK_PX} fill={MUTED}>
            {runs.length === 0 ? 'No runs yet' : 'No run has a value for this measure'}
          </text>
        )}
      </PlotFrame>
    </div>
  );
});
