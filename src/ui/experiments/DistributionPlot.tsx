/**
 * A measure's distribution at one setting: a histogram (bars count runs; every run is also a dot
 * in the strip under the bars) or the empirical CDF (every run a dot on the curve). A chapter's
 * number, when the preset has one, is a dashed line with its percentile.
 */
import { bin, scaleLinear } from 'd3';
import { memo, useRef } from 'react';
import type { RunResult } from '../../sim/experiments/experiment';
import type { ChapterMark } from '../../sim/experiments/presets';
import { percentileRank } from '../../sim/experiments/stats';
import {
  GridLines,
  INK,
  domainOf,
  LABEL_PX,
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

const STRIP = 22;

export interface DistributionProps {
  readonly runs: readonly RunResult[];
  readonly measure: string;
  readonly axisLabel: string;
  readonly integer: boolean;
  readonly pointIndex: number;
  readonly pointLabel: string;
  readonly mode: 'histogram' | 'cdf';
  readonly mark: ChapterMark | null;
  readonly fileName: string;
  readonly controls: React.ReactNode;
  readonly onOpen: (link: string) => void;
}

export const DistributionPlot = memo(function DistributionPlot(props: DistributionProps) {
  const { runs, measure, axisLabel, integer, pointIndex, mode, mark, onOpen } = props;
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom - (mode === 'histogram' ? STRIP : 0);
  const valued = runs
    .map((r) => ({ r, v: r.values[measure] }))
    .filter((x): x is { r: RunResult; v: number } => x.v !== null && x.v !== undefined)
    .sort((a, b) => a.v - b.v || a.r.seed - b.r.seed);
  const values = valued.map((x) => x.v);
  // Whole numbers with few distinct values (a count, or a latency that is always 1 ms): one bar per number.
  const few = values.length > 0 && values[values.length - 1] - values[0] <= 40 && (integer || values.every((v) => Number.isInteger(v)));
  const marked = mark !== null ? [...values, mark.value] : values;
  const wide: [number, number] = marked.length ? [Math.min(...marked), Math.max(Math.max(...marked), Math.min(...marked) + 1)] : [0, 1];
  const x = scaleLinear()
    .domain(few ? domainOf(marked, true) : wide)
    .range([MARGIN.left, MARGIN.left + innerW]);
  if (!few) x.nice();
  const markValue = mark?.value;
  const color = colorOf(pointIndex);
  const bottom = MARGIN.top + innerH;
  let body: React.ReactNode;
  let yAxis: React.ReactNode;
  if (mode === 'histogram') {
    const [d0, d1] = x.domain();
    // A whole-number measure with few values: one bar per number; otherwise bins at the axis's ticks.
    const thresholds = few
      ? Array.from({ length: Math.round(d1 - d0) - 1 }, (_, i) => d0 + i + 1)
      : x.ticks(Math.min(40, Math.max(10, Math.floor(innerW / 18))));
    const bins = bin().domain([d0, d1]).thresholds(thresholds)(values);
    const y = scaleLinear()
      .domain([0, Math.max(1, ...bins.map((b) => b.length))])
      .nice()
      .range([bottom, MARGIN.top]);
    yAxis = (
      <>
        <GridLines scale={y} width={innerW} height={innerH} />
        <YAxis scale={y} height={innerH} label="Runs" format={(v) => (Number.isInteger(v) ? String(v) : '')} />
      </>
    );
    body = (
      <>
        {bins.map((b, i) => (
          <rect
            key={i}
            x={x(b.x0 ?? 0) + 1}
            width={Math.max(1, x(b.x1 ?? 0) - x(b.x0 ?? 0) - 2)}
            y={y(b.length)}
            height={bottom - y(b.length)}
            fill={color}
            fillOpacity={0.75}
          />
        ))}
        {valued.map(({ r, v }) => (
          <RunDot
            key={r.seed}
            link={runLink(r)}
            title={`seed ${r.seed}: ${formatNumber(v)}${runNote(r)}`}
            cx={x(v)}
            cy={bottom + STRIP / 2 + 4 + jitter(r.seed, 0) * 6}
            r={4}
            fill={color}
            stroke="#fff"
            strokeWidth={0.8}
          />
        ))}
      </>
    );
  } else {
    const y = scaleLinear().domain([0, 100]).range([bottom, MARGIN.top]);
    const n = values.length;
    let path = '';
    valued.forEach(({ v }, i) => {
      const prev = (100 * i) / n;
      const cur = (100 * (i + 1)) / n;
      path += `${i === 0 ? 'M' : 'L'}${x(v)},${y(prev)}L${x(v)},${y(cur)}`;
    });
    yAxis = (
      <>
        <GridLines scale={y} width={innerW} height={innerH} />
        <YAxis scale={y} height={innerH} label="Runs at or below (%)" />
      </>
    );
    body = (
      <>
        <path d={path} fill="none" stroke={color} strokeWidth={2} />
        {valued.map(({ r, v }, i) => (
          <RunDot
            key={r.seed}
            link={runLink(r)}
            title={`seed ${r.seed}: ${formatNumber(v)}${runNote(r)}`}
            cx={x(v)}
            cy={y((100 * (i + 1)) / n)}
            r={4}
            fill={color}
            stroke="#fff"
            strokeWidth={0.8}
          />
        ))}
      </>
    );
  }
  const showMark =
    mark !== null && markValue !== undefined && mark.point === props.pointLabel && mark.measure === measure && values.length > 0;
  const rank = showMark ? percentileRank(values, markValue as number) : NaN;
  const missing = runs.length - values.length;
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame
        title="Distribution"
        name={props.fileName}
        controls={props.controls}
        width={width}
        height={plotHeight}
        testid="distribution"
        onOpen={onOpen}
      >
        {yAxis}
        {body}
        <XAxis scale={x} y={mode === 'histogram' ? bottom + STRIP : bottom} width={innerW} label={axisLabel} integer={few} />
        {showMark && (
          <g data-chapter-mark={markValue}>
            <line
              x1={x(markValue as number)}
              x2={x(markValue as number)}
              y1={MARGIN.top}
              y2={bottom}
              stroke={INK}
              strokeWidth={2}
              strokeDasharray="6 4"
            />
            {/* Right of the line in the plot's left half, left of it in the right half, so it never runs off the edge. */}
            <text
              x={x(markValue as number) + (x(markValue as number) < MARGIN.left + innerW / 2 ? 8 : -8)}
              y={MARGIN.top + 16}
              textAnchor={x(markValue as number) < MARGIN.left + innerW / 2 ? 'start' : 'end'}
              fontSize={LABEL_PX}
              fill={INK}
              fontWeight={600}
              stroke="#ffffff"
              strokeWidth={4}
              paintOrder="stroke"
            >
              <tspan>{mark?.text}</tspan>
              <tspan
                x={x(markValue as number) + (x(markValue as number) < MARGIN.left + innerW / 2 ? 8 : -8)}
                dy="1.2em"
              >{`percentile ${formatNumber(rank)}`}</tspan>
            </text>
          </g>
        )}
        {values.length === 0 && (
          <text x={MARGIN.left + innerW / 2} y={MARGIN.top + innerH / 2} textAnchor="middle" fontSize={LABEL_PX} fill={MUTED}>
            {runs.length === 0 ? 'No runs yet' : `None of the ${runs.length} runs has a value`}
          </text>
        )}
        {values.length > 0 && missing > 0 && (
          <text x={MARGIN.left + innerW} y={MARGIN.top + 16} textAnchor="end" fontSize={TICK_PX} fill={MUTED}>
            {`${missing} of ${runs.length} runs without a value`}
          </text>
        )}
      </PlotFrame>
    </div>
  );
});
