/**
 * A measure across the swept parameter: the median at each point, joined, over the p5-p95 band,
 * with every run as a faint dot (clickable) spread a little sideways so they do not hide each other.
 */
import { area, line, scaleLinear, scaleLog } from 'd3';
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
  runNote,
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
  /** A sweep of sizes over orders of magnitude (gossip at 8 to 1,000 nodes) reads on a log2 axis. */
  readonly logX?: boolean;
  /** A dashed line to read the medians against (log2 N), with its label. */
  readonly reference?: { readonly label: string; readonly at: (v: number) => number };
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
  logX = false,
  reference,
}: SweepPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom;
  const byPoint = points.map((p) => runs.filter((r) => r.point === p.index));
  const summaries = byPoint.map((rs) => summarize(rs.map((r) => r.values[measure] ?? null)));
  const all = runs.map((r) => r.values[measure]).filter((v): v is number => v !== null && v !== undefined);
  // A sweep of plain numbers is drawn to scale (50, 100 and 400 ms are not evenly spaced); a sweep
  // of ranges (150-300, 300-600) is a set of categories: evenly spaced, each its own band, with
  // no line joining them, which would read as a trend along a scale there is not.
  const values = points.map((p) => p.value);
  const numeric = values.length > 1 && values.every((v): v is number => typeof v === 'number') && new Set(values).size === values.length;
  const lo = numeric ? Math.min(...(values as number[])) : 0;
  const hi = numeric ? Math.max(...(values as number[])) : 0;
  const pad = (hi - lo) * 0.08;
  const logScale = numeric && logX && lo > 0;
  const x = logScale
    ? scaleLog()
        .base(2)
        .domain([lo / 1.3, hi * 1.7])
        .range([MARGIN.left, MARGIN.left + innerW])
    : numeric
      ? scaleLinear()
          .domain([lo - pad, hi + pad])
          .range([MARGIN.left, MARGIN.left + innerW])
      : scaleLinear()
          .domain([-0.5, Math.max(0.5, points.length - 0.5)])
          .range([MARGIN.left, MARGIN.left + innerW]);
  const xAt = (i: number) => (numeric ? x(points[i].value as number) : x(i));
  // Headroom over the top value for the medians' labels.
  const refs = reference && numeric ? (values as number[]).map((v) => reference.at(v)) : [];
  const top = Math.max(1, ...all, ...refs);
  const y = scaleLinear()
    .domain([Math.min(0, ...all), top + (top - Math.min(0, ...all)) * 0.12])
    .range([MARGIN.top + innerH, MARGIN.top]);
  if (!integer) y.nice();
  const present = summaries.map((s, i) => ({ s, i })).filter(({ s }) => s.n > 0);
  // Medians are joined (over their p5-p95 band) only along a scale.
  const joined = numeric && present.length > 1;
  const along = joined ? [...present].sort((a, b) => (points[a.i].value as number) - (points[b.i].value as number)) : present;
  const band = area<{ s: (typeof summaries)[number]; i: number }>()
    .x(({ i }) => xAt(i))
    .y0(({ s }) => y(s.p5))
    .y1(({ s }) => y(s.p95));
  const median = line<{ s: (typeof summaries)[number]; i: number }>()
    .x(({ i }) => xAt(i))
    .y(({ s }) => y(s.p50));
  // How far apart neighbouring points are on screen: the runs' dots spread within a share of it.
  const sorted = points.map((_, i) => xAt(i)).sort((a, b) => a - b);
  const step = sorted.slice(1).reduce((m, v, k) => Math.min(m, v - sorted[k]), innerW / Math.max(1, points.length));
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
          ticks={points.map((p) => ({ v: numeric ? (p.value as number) : p.index, text: p.label }))}
        />
        {joined && <path d={band(along) ?? ''} fill="#56B4E9" fillOpacity={0.3} stroke="none" />}
        {!joined &&
          present.map(({ s, i }) => (
            <rect
              key={i}
              className="sweep-band"
              x={xAt(i) - 14}
              width={28}
              y={y(s.p95)}
              height={Math.max(1, y(s.p5) - y(s.p95))}
              fill="#56B4E9"
              fillOpacity={0.3}
            />
          ))}
        {byPoint.map((rs, i) =>
          rs.map((r) => {
            const v = r.values[measure];
            if (v === null || v === undefined) return null;
            return (
              <RunDot
                key={`${i}-${r.seed}`}
                link={runLink(r)}
                title={`${points[i].label}, seed ${r.seed}: ${formatNumber(v)}${runNote(r)}`}
                cx={xAt(i) + jitter(r.seed, i) * Math.min(40, step * 0.3)}
                cy={y(v)}
                r={3.5}
                fill={colorOf(i)}
                fillOpacity={0.45}
              />
            );
          }),
        )}
        {reference && numeric && refs.length > 1 && (
          <g className="sweep-reference" data-reference={reference.label}>
            <path
              d={
                line<number>()
                  .x((v) => x(v))
                  .y((v) => y(reference.at(v)))([...(values as number[])].sort((a, b) => a - b)) ?? ''
              }
              fill="none"
              stroke={MUTED}
              strokeWidth={2}
              strokeDasharray="6 4"
            />
            <text x={x(hi) - 4} y={y(reference.at(hi)) - 8} textAnchor="end" fontSize={TICK_PX} fill={MUTED}>
              {reference.label}
            </text>
          </g>
        )}
        {joined && <path className="sweep-median" d={median(along) ?? ''} fill="none" stroke={INK} strokeWidth={2.5} />}
        {present.map(({ s, i }) => (
          <g key={i}>
            <rect className="sweep-median-mark" x={xAt(i) - 6} y={y(s.p50) - 6} width={12} height={12} fill={INK} />
            <text x={xAt(i) + 10} y={y(s.p50) - 8} fontSize={TICK_PX} fill={INK} fontWeight={600}>
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
