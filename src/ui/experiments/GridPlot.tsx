/**
 * Two swept parameters as a heat map: a cell per pair of values (rows the first parameter, columns
 * the second), coloured by the cell's median and with the median printed in it. Viridis runs from
 * dark to light in one hue order that reads the same to the common colour-vision deficiencies and
 * in greyscale, so the colour never carries more than the printed number. Clicking a cell (or
 * Enter on it) shows its runs in the distribution plot, where every dot opens its run.
 */
import { interpolateViridis } from 'd3';
import { memo, useRef } from 'react';
import type { ExperimentSpec, PlannedPoint, RunResult } from '../../sim/experiments/experiment';
import { summarize } from '../../sim/experiments/stats';
import { SWEEP_DEFS } from '../../sim/experiments/sweep';
import { INK, LABEL_PX, MUTED, PlotFrame, TICK_PX, formatNumber, usePlotHeight, useWidth } from './plotKit';

export interface GridPlotProps {
  readonly spec: ExperimentSpec;
  readonly runs: readonly RunResult[];
  readonly points: readonly PlannedPoint[];
  readonly measure: string;
  /** The measure's name with its unit, for the legend. */
  readonly measureLabel: string;
  readonly selected: number;
  readonly fileName: string;
  readonly onSelect: (point: number) => void;
  readonly onOpen: (link: string) => void;
}

/** Room for the legend above the cells, the column values and name below, the row values and name left. */
const M = { top: 44, right: 12, bottom: 50, left: 92 };

/** Dark cells take white text, light ones ink: viridis is dark below about 0.55. */
/** Half a label's width at TICK_PX, so the first and last column values stay inside the plot. */
const halfOf = (label: string | undefined) => ((label ?? '').length * TICK_PX * 0.6) / 2;

const textOn = (t: number) => (t < 0.55 ? '#ffffff' : INK);

export const GridPlot = memo(function GridPlot({
  spec,
  runs,
  points,
  measure,
  measureLabel,
  selected,
  fileName,
  onSelect,
  onOpen,
}: GridPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const height = usePlotHeight();
  const second = spec.sweep2;
  if (second === undefined) return null;
  const rows = spec.sweep.values.length;
  const cols = second.values.length;
  const cellW = (width - M.left - M.right) / cols;
  // Column values wider than their cell (ranges over many columns) alternate between two lines.
  const widest = Math.max(...points.slice(0, cols).map((p) => (p.label2 ?? '').length));
  const stagger = widest * TICK_PX * 0.6 > cellW - 4;
  const bottom = M.bottom + (stagger ? TICK_PX + 2 : 0);
  const cellH = (height - M.top - bottom) / rows;
  const summaries = points.map((p) => summarize(runs.filter((r) => r.point === p.index).map((r) => r.values[measure] ?? null)));
  const medians = summaries.filter((s) => s.n > 0).map((s) => s.p50);
  const lo = medians.length > 0 ? Math.min(...medians) : 0;
  const hi = medians.length > 0 ? Math.max(...medians) : 1;
  // One value everywhere still gets a colour (the middle of the scale), not a division by zero.
  const t = (v: number) => (hi === lo ? 0.5 : (v - lo) / (hi - lo));
  const first = SWEEP_DEFS[spec.sweep.param];
  const other = SWEEP_DEFS[second.param];
  const legendW = Math.min(160, width * 0.3);
  // Past the 'low N' label.
  const legendGap = (4 + formatNumber(lo).length) * TICK_PX * 0.6 + 8;
  const gradient = `${fileName}-legend`;
  const fontPx = Math.max(12, Math.min(TICK_PX, cellH * 0.4, cellW / 4));
  return (
    <div ref={box} className="exp-plot-box">
      <PlotFrame title="Across the grid" name={fileName} width={width} height={height} testid="grid" onOpen={onOpen}>
        <defs>
          <linearGradient id={gradient}>
            {[0, 0.25, 0.5, 0.75, 1].map((s) => (
              <stop key={s} offset={s} stopColor={interpolateViridis(s)} />
            ))}
          </linearGradient>
        </defs>
        <text x={M.left} y={16} fontSize={TICK_PX} fill={INK} fontWeight={600}>
          {`Colour: median ${measureLabel}`}
        </text>
        <g data-testid="grid-legend">
          <text x={M.left} y={33} fontSize={TICK_PX} fill={INK}>
            {`low ${formatNumber(lo)}`}
          </text>
          <rect x={M.left + legendGap} y={23} width={legendW} height={11} fill={`url(#${gradient})`} stroke={MUTED} strokeWidth={0.5} />
          <text x={M.left + legendGap + legendW + 6} y={33} fontSize={TICK_PX} fill={INK}>
            {hi === lo ? 'every cell the same' : `high ${formatNumber(hi)}`}
          </text>
        </g>
        {points.map((p, k) => {
          const i = Math.floor(k / cols);
          const j = k % cols;
          const s = summaries[k];
          const x = M.left + j * cellW;
          const y = M.top + i * cellH;
          const shade = s.n > 0 ? t(s.p50) : null;
          const name = `${spec.sweep.param}=${p.label} ${second.param}=${p.label2 ?? ''}`;
          const text = s.n > 0 ? formatNumber(s.p50) : runs.some((r) => r.point === p.index) ? 'none' : '…';
          return (
            <g
              key={p.index}
              className="grid-cell"
              data-cell={name}
              data-median={s.n > 0 ? s.p50 : ''}
              role="button"
              tabIndex={0}
              aria-label={`${name}: median ${text}, ${s.n} runs; show its runs`}
              aria-pressed={p.index === selected}
              onClick={() => onSelect(p.index)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onSelect(p.index);
                }
              }}
            >
              <title>{`${name}: median ${text} (p5 ${formatNumber(s.p5)}, p95 ${formatNumber(s.p95)}, ${s.n} runs)`}</title>
              <rect
                x={x + 1}
                y={y + 1}
                width={Math.max(1, cellW - 2)}
                height={Math.max(1, cellH - 2)}
                fill={shade === null ? '#f6f8fa' : interpolateViridis(shade)}
                stroke={p.index === selected ? INK : 'none'}
                strokeWidth={p.index === selected ? 3 : 0}
              />
              {p.index === selected && (
                // A white ring inside the ink one: the choice shows on dark and light cells alike.
                <rect
                  x={x + 4}
                  y={y + 4}
                  width={Math.max(1, cellW - 8)}
                  height={Math.max(1, cellH - 8)}
                  fill="none"
                  stroke="#ffffff"
                  strokeWidth={1.5}
                />
              )}
              <text
                x={x + cellW / 2}
                y={y + cellH / 2 + fontPx * 0.35}
                textAnchor="middle"
                fontSize={fontPx}
                fontWeight={600}
                fill={shade === null ? MUTED : textOn(shade)}
              >
                {text}
              </text>
            </g>
          );
        })}
        {spec.sweep.values.map((_, i) => (
          <text key={i} x={M.left - 6} y={M.top + (i + 0.5) * cellH + TICK_PX * 0.35} textAnchor="end" fontSize={TICK_PX} fill={INK}>
            {points[i * cols].label}
          </text>
        ))}
        {second.values.map((_, j) => (
          <text
            key={j}
            className="grid-column-label"
            x={Math.max(halfOf(points[j].label2), Math.min(width - 2 - halfOf(points[j].label2), M.left + (j + 0.5) * cellW))}
            y={height - bottom + TICK_PX + 4 + (stagger && j % 2 === 1 ? TICK_PX + 2 : 0)}
            textAnchor="middle"
            fontSize={TICK_PX}
            fill={INK}
          >
            {points[j].label2}
          </text>
        ))}
        <text x={M.left + (width - M.left - M.right) / 2} y={height - 8} textAnchor="middle" fontSize={LABEL_PX} fill={INK}>
          {`${other.label} (${other.unit}) →`}
        </text>
        <text
          transform={`translate(${18}, ${M.top + (height - M.top - bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
          fontSize={LABEL_PX}
          fill={INK}
        >
          {`${first.label} (${first.unit})`}
        </text>
      </PlotFrame>
    </div>
  );
});
