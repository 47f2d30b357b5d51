/**
 * Several measures of one kind across the sweep, side by side (issue 28: a client's commit latency
 * in each region, against where the majority is placed): for each setting, a group of columns, one
 * per measure in its colour, every run a dot (it opens its run) and the median a bar with its value.
 */
import { scaleBand, scaleLinear } from 'd3';
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
  TICK_PX,
  XAxis,
  YAxis,
  colorOf,
  formatNumber,
  jitter,
  runLink,
  runNote,
  usePlotHeight,
  useWidth,
} from './plotKit';

export interface SeriesPlotProps {
  readonly runs: readonly RunResult[];
  readonly points: readonly PlannedPoint[];
  /** The measures, each a series, with the name its key shows. */
  readonly series: readonly { readonly measure: string; readonly name: string }[];
  readonly title: string;
  readonly axisLabel: string;
  readonly paramLabel: string;
  readonly fileName: string;
  readonly onOpen: (link: string) => void;
  /** A setting's name under its group (placement 0 is "0: majority east"); absent, its label. */
  readonly tickText?: (p: PlannedPoint) => string;
}

export const SeriesPlot = memo(function SeriesPlot({
  runs,
  points,
  series,
  title,
  axisLabel,
  paramLabel,
  fileName,
  onOpen,
  tickText,
}: SeriesPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const keyH = 24;
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom - keyH;
  const top = MARGIN.top + keyH;
  const all = runs.flatMap((r) => series.map((s) => r.values[s.measure])).filter((v): v is number => typeof v === 'number');
  const x = scaleLinear()
    .domain([-0.5, Math.max(0.5, points.length - 0.5)])
    .range([MARGIN.left, MARGIN.left + innerW]);
  const band = scaleBand<string>()
    .domain(series.map((s) => s.measure))
    .range([-0.42, 0.42])
    .paddingInner(0.15);
  const topValue = Math.max(1, ...all);
  const y = scaleLinear()
    .domain([0, topValue * 1.15])
    .range([top + innerH, top])
    .nice();
  const colX = (point: number, measure: string) => x(point + (band(measure) ?? 0) + band.bandwidth() / 2);
  const colW = Math.abs(x(band.bandwidth()) - x(0));
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame title={title} name={fileName} width={width} height={plotHeight} testid="series" onOpen={onOpen}>
        <GridLines scale={y} width={innerW} height={innerH} />
        <YAxis scale={y} height={innerH} top={top} label={axisLabel} />
        <XAxis
          scale={x}
          y={top + innerH}
          width={innerW}
          label={paramLabel}
          ticks={points.map((p) => ({ v: p.index, text: tickText?.(p) ?? p.label }))}
        />
        {series.map((s, k) =>
          points.map((p) => {
            const mine = runs.filter((r) => r.point === p.index);
            const sum = summarize(mine.map((r) => r.values[s.measure] ?? null));
            const cx = colX(p.index, s.measure);
            return (
              <g
                key={`${s.measure}-${p.index}`}
                className="series-column"
                data-series={s.measure}
                data-point={p.label}
                data-median={sum.n > 0 ? sum.p50 : ''}
              >
                {mine.map((r) => {
                  const v = r.values[s.measure];
                  if (typeof v !== 'number') return null;
                  return (
                    <RunDot
                      key={r.seed}
                      link={runLink(r)}
                      title={`${s.name}, ${p.label}, seed ${r.seed}: ${formatNumber(v)} ms${runNote(r)}`}
                      cx={cx + jitter(r.seed, p.index * 7 + k) * colW * 0.35}
                      cy={y(v)}
                      r={3.5}
                      fill={colorOf(k)}
                      fillOpacity={0.5}
                    />
                  );
                })}
                {sum.n > 0 && (
                  <>
                    <line x1={cx - colW / 2} x2={cx + colW / 2} y1={y(sum.p50)} y2={y(sum.p50)} stroke={INK} strokeWidth={3} />
                    <text x={cx} y={y(sum.p50) - 8} textAnchor="middle" fontSize={TICK_PX - 1} fontWeight={600} fill={INK}>
                      {formatNumber(sum.p50)}
                    </text>
                  </>
                )}
              </g>
            );
          }),
        )}
        <g>
          {series.map((s, k) => (
            <g key={s.measure} transform={`translate(${MARGIN.left + k * Math.min(180, innerW / series.length)},14)`}>
              <circle cx={5} r={5} fill={colorOf(k)} />
              <text x={14} dy="0.35em" fontSize={TICK_PX} fill={INK}>
                {s.name}
              </text>
            </g>
          ))}
        </g>
        {all.length === 0 && (
          <text x={MARGIN.left + innerW / 2} y={top + innerH / 2} textAnchor="middle" fontSize={TICK_PX} fill={MUTED}>
            {runs.length === 0 ? 'No runs yet' : 'No run has a value for these measures'}
          </text>
        )}
      </PlotFrame>
    </div>
  );
});
