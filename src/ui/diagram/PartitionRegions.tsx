/**
 * Partition groups as shaded regions: the hull of each group's glyphs, labelled with whether it
 * holds a majority (only a majority can elect a leader or commit).
 */
import { line, polygonHull, curveCatmullRomClosed, type Delaunay } from 'd3';
import { Fragment, memo, useMemo } from 'react';
import { useLab } from '../labContext';
import { majorityOf, selectNodeIds, selectPartitions, selectRunsRaft } from '../store/selectors';
import { useShallow } from 'zustand/react/shallow';
import { actorPoint, type DiagramLayout } from '../../paint/layout';
import { GROUP_FONT, placeGroupLabels } from '../../paint/labelPlacement';
import { PRESENTER_FONT, useDiagramText } from '../present/diagramText';

type P = Delaunay.Point;
const smooth = line<P>().curve(curveCatmullRomClosed.alpha(0.5));

/** The smoothed hull around a group's glyphs (its labels are placed in src/paint/labelPlacement.ts). */
export function groupOutline(layout: DiagramLayout, ids: readonly string[], pad: number): string | null {
  const pts: P[] = [];
  for (const id of ids) {
    const c = actorPoint(layout, id);
    if (!c) continue;
    for (let i = 0; i < 16; i++) {
      const a = (Math.PI * 2 * i) / 16;
      pts.push([c.x + pad * Math.cos(a), c.y + pad * Math.sin(a)]);
    }
  }
  if (pts.length === 0) return null;
  const hull = polygonHull(pts);
  if (!hull) return null;
  return smooth(hull) ?? '';
}

export const PartitionRegions = memo(function PartitionRegions({ layout }: { layout: DiagramLayout }) {
  const groups = useLab(selectPartitions);
  const nodeIds = useLab(useShallow(selectNodeIds));
  // Presenter mode (and the phone) draws them at its side labels' size, like every other label there.
  const text = useDiagramText();
  const font = text === null ? GROUP_FONT : PRESENTER_FONT.side * text.scale;
  // Placing tries every order of the groups: only when the groups or the ring change.
  const raft = useLab(selectRunsRaft);
  const labels = useMemo(() => placeGroupLabels(layout, groups, nodeIds, font, raft), [layout, groups, nodeIds, font, raft]);
  if (groups.length === 0) return null;
  const majority = majorityOf(nodeIds.length);
  // Colour says which side can make progress, whatever order the groups were written in: the
  // majority side always in one colour, each minority side in the minority colours.
  let minorities = 0;
  return (
    <g className="partitions">
      {groups.map((g, i) => {
        const outline = groupOutline(layout, g, layout.nodeRadius + 30);
        if (outline === null) return null;
        const members = g.filter((id) => nodeIds.includes(id)).length;
        const hasMajority = members >= majority;
        const side = hasMajority ? 'side-majority' : `side-minority minority-${minorities++ % 2}`;
        const { lines, at: spotAt, line } = labels[i];
        return (
          <g key={i} className={`partition-group ${side}`} data-side={hasMajority ? 'majority' : 'minority'}>
            <path d={outline} />
            <text x={spotAt.x} y={spotAt.y - (lines.length * line) / 2 + line * 0.8} fontSize={font}>
              {/* A space between the lines keeps the words apart for screen readers and text search. */}
              {lines.map((l, k) => (
                <Fragment key={k}>
                  {k > 0 && ' '}
                  <tspan x={spotAt.x} dy={k === 0 ? 0 : line}>
                    {l}
                  </tspan>
                </Fragment>
              ))}
            </text>
          </g>
        );
      })}
    </g>
  );
});
