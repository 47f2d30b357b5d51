/** Every run as a dot: one measure against another, coloured by the sweep's point (a key names them). */
import { scaleLinear } from 'd3';
import { memo, useRef } from 'react';
import type { PlannedPoint, RunResult } from '../../sim/experiments/experiment';
import {
  GridLines,
  INK,
  domainOf,
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

export interface ScatterPlotProps {
  readonly runs: readonly RunResult[];
  readonly points: readonly PlannedPoint[];
  readonly xMeasure: string;
  readonly yMeasure: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xInteger: boolean;
  readonly yInteger: boolean;
  readonly param: string;
  readonly fileName: string;
  readonly controls?: React.ReactNode;
  readonly onOpen: (link: string) => void;
}

export const ScatterPlot = memo(function ScatterPlot(props: ScatterPlotProps) {
  const { runs, points, xMeasure, yMeasure, onOpen } = props;
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const plotHeight = usePlotHeight();
  const innerW = width - MARGIN.left - MARGIN.right;
  // The key runs along the top, above the dots, wrapping when the labels do not fit on one line.
  const legend: { p: PlannedPoint; x: number; y: number }[] = [];
  let lx = MARGIN.left;
  let ly = 14;
  for (const p of points) {
    const w = 24 + `${props.param}=${p.label}`.length * TICK_PX * 0.58;
    if (lx + w > MARGIN.left + (width - MARGIN.left - MARGIN.right) && lx > MARGIN.left) {
      lx = MARGIN.left;
      ly += 20;
    }
    legend.push({ p, x: lx, y: ly });
    lx += w + 10;
  }
  const keyH = ly + 12;
  const innerH = plotHeight - MARGIN.top - MARGIN.bottom - keyH;
  const dots = runs
    .map((r) => ({ r, vx: r.values[xMeasure], vy: r.values[yMeasure] }))
    .filter(
      (d): d is { r: RunResult; vx: number; vy: number } => d.vx !== null && d.vx !== undefined && d.vy !== null && d.vy !== undefined,
    );
  const xs = dots.map((d) => d.vx);
  const ys = dots.map((d) => d.vy);
  const x = scaleLinear()
    .domain(domainOf(xs, props.xInteger))
    .range([MARGIN.left, MARGIN.left + innerW]);
  const y = scaleLinear()
    .domain(domainOf(ys, props.yInteger))
    .range([MARGIN.top + keyH + innerH, MARGIN.top + keyH]);
  if (!props.xInteger) x.nice();
  if (!props.yInteger) y.nice();
  // Whole-number measures pile up on one spot: spread each run by up to a third of a unit.
  const jx = props.xInteger ? Math.abs(x(1) - x(0)) / 3 : 0;
  const jy = props.yInteger ? Math.abs(y(1) - y(0)) / 3 : 0;
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame
        title="Runs"
        name={props.fileName}
        controls={props.controls}
        width={width}
        height={plotHeight}
        testid="scatter"
        onOpen={onOpen}
      >
        <GridLines scale={y} width={innerW} height={innerH} integer={props.yInteger} />
        <YAxis scale={y} height={innerH} top={MARGIN.top + keyH} label={props.yLabel} integer={props.yInteger} />
        <XAxis scale={x} y={MARGIN.top + keyH + innerH} width={innerW} label={props.xLabel} integer={props.xInteger} />
        {dots.map(({ r, vx, vy }) => (
          <RunDot
            key={`${r.point}-${r.seed}`}
            link={runLink(r)}
            title={`${props.param}=${points[r.point]?.label}, seed ${r.seed}: ${formatNumber(vx)}, ${formatNumber(vy)}${runNote(r)}`}
            cx={x(vx) + jitter(r.seed, r.point) * Math.min(jx, 12)}
            cy={y(vy) + jitter(r.point, r.seed) * Math.min(jy, 12)}
            r={4}
            fill={colorOf(r.point)}
            fillOpacity={0.7}
            stroke="#fff"
            strokeWidth={0.6}
          />
        ))}
        <g>
          {legend.map(({ p, x: lx, y: ly }) => (
            <g key={p.index} transform={`translate(${lx},${ly})`}>
              <circle r={5} cx={5} fill={colorOf(p.index)} />
              <text x={14} dy="0.35em" fontSize={TICK_PX} fill={INK}>
                {`${props.param}=${p.label}`}
              </text>
            </g>
          ))}
        </g>
        {dots.length === 0 && (
          <text x={MARGIN.left + innerW / 2} y={MARGIN.top + keyH + innerH / 2} textAnchor="middle" fontSize={TICK_PX} fill={MUTED}>
            {runs.length === 0 ? 'No runs yet' : 'No run has both values'}
          </text>
        )}
      </PlotFrame>
    </div>
  );
});
