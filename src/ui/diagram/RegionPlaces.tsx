/**
 * Issue 28: where each node, client and store stands, in a run with regions. A region's nodes sit
 * side by side on the ring (ringOrder) under a band in the region's colour, named inside the ring;
 * each client and store carries its region's tag; a line under the ring gives the round trips
 * between the regions in use, the price of every message that crosses a band's edge. Runs without
 * regions draw nothing here, and their ring is the chapter's.
 */
import { arc } from 'd3';
import { memo, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatMs, placeActors, type Placement } from '../../sim/model/network';
import { CLIENT_SIZE, STORE_SIZE, VIEW_H, VIEW_W, type DiagramLayout } from '../../paint/layout';
import { useLab } from '../labContext';
import { ringOrder } from './ringOrder';
import { selectClientIds, selectConfig, selectHasStores, selectNodeIds } from '../store/selectors';
import { PRESENTER_CLIENT_SIZE, PRESENTER_FONT, PRESENTER_STORE_SIZE, useDiagramText } from '../present/diagramText';

/** The regions in ring order, each with its members. */
export function regionGroups(
  placement: Placement,
  nodeIds: readonly string[],
  others: readonly string[],
): { region: string; nodes: string[]; others: string[] }[] {
  const out: { region: string; nodes: string[]; others: string[] }[] = [];
  const at = (r: string) => {
    let g = out.find((x) => x.region === r);
    if (g === undefined) out.push((g = { region: r, nodes: [], others: [] }));
    return g;
  };
  for (const id of nodeIds) at(placement.regionOf.get(id) as string).nodes.push(id);
  for (const id of others) {
    const r = placement.regionOf.get(id);
    if (r !== undefined) at(r).others.push(id);
  }
  return out;
}

/** The round trips between the regions in use (and inside one), in one line. */
export function roundTripLine(placement: Placement, regions: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < regions.length; i++)
    for (let j = i + 1; j < regions.length; j++) {
      const ms = placement.matrix.rttMs(regions[i], regions[j]);
      if (ms !== null) parts.push(`${regions[i]}–${regions[j]} ${formatMs(ms)} ms`);
    }
  const inside = regions.map((r) => placement.matrix.rttMs(r, r));
  const same = inside.every((x) => x === inside[0]) && inside[0] !== null;
  parts.push(
    same
      ? `inside a region ${formatMs(inside[0] as number)} ms`
      : regions.map((r, i) => `inside ${r} ${formatMs(inside[i] ?? 0)} ms`).join(' · '),
  );
  return `Round trips: ${parts.join(' · ')}`;
}

/** Presenter mode's corner: a pair per line, and the last line says they are round trips. */
function presenterRoundTrips(line: string): string[] {
  const parts = line.replace(/^Round trips: /, '').split(' · ');
  parts[parts.length - 1] += ' (round trips)';
  return parts;
}

/** Parts joined with " · " into lines of at most `width` characters. */
function wrap(parts: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const p of parts) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 3 + p.length <= width) lines[last] += ` · ${p}`;
    else lines.push(p);
  }
  return lines;
}

const band = arc<{ a0: number; a1: number; r0: number; r1: number }>()
  .startAngle((d) => d.a0)
  .endAngle((d) => d.a1)
  .innerRadius((d) => d.r0)
  .outerRadius((d) => d.r1)
  .cornerRadius(18);

export const RegionPlaces = memo(function RegionPlaces({ layout }: { layout: DiagramLayout }) {
  const regions = useLab((s) => selectConfig(s).regions);
  const nodeIds = useLab(useShallow(selectNodeIds));
  const clientIds = useLab(useShallow(selectClientIds));
  const hasStores = useLab(selectHasStores);
  const presenter = useDiagramText();
  const ps = presenter?.scale ?? 1;
  const placed = useMemo(() => {
    if (regions === undefined) return null;
    const placement = placeActors(regions, nodeIds, clientIds);
    const ring = ringOrder(nodeIds, regions, clientIds);
    const groups = regionGroups(placement, ring, [...clientIds, ...(hasStores ? ['fenced', 'unfenced'] : [])]);
    return { placement, ring, groups };
  }, [regions, nodeIds, clientIds, hasStores]);
  if (placed === null) return null;
  const { placement, ring, groups } = placed;
  const n = ring.length;
  const ids = Object.keys(layout.nodes);
  if (ids.length === 0) return null;
  // The ring's centre and radius, from the nodes the layout placed (presenter mode has its own ring).
  const pts = ring.map((id) => layout.nodes[id]).filter((p) => p !== undefined);
  const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  const r = n === 1 ? 0 : Math.hypot(pts[0].x - cx, pts[0].y - cy);
  const step = (2 * Math.PI) / Math.max(1, n);
  const nr = layout.nodeRadius;
  const font = presenter ? PRESENTER_FONT.side * ps : 17;
  const tagFont = presenter ? PRESENTER_FONT.side * ps : 17;
  const clientH = (presenter ? PRESENTER_CLIENT_SIZE : CLIENT_SIZE).h;
  const storeH = (presenter ? PRESENTER_STORE_SIZE : STORE_SIZE).h;
  const used = groups.filter((g) => g.nodes.length > 0 || g.others.length > 0).map((g) => g.region);
  // Wrapped to the diagram's width (about 0.56 em a character), so a world matrix stays inside it.
  const rttX = presenter === null ? 12 : VIEW_W - 12;
  // Presenter mode: a pair per line in the bottom right corner, clear of the bigger ring.
  const rttLines =
    presenter === null
      ? wrap(roundTripLine(placement, used).split(' · '), Math.floor((VIEW_W * 0.7) / (tagFont * 0.56)))
      : presenterRoundTrips(roundTripLine(placement, used));
  return (
    <g className="region-places" data-testid="region-places">
      {groups.map((g, gi) => {
        const colour = `region-${gi % 6}`;
        const title = `${g.region}: ${[...g.nodes, ...g.others].join(', ')}`;
        if (g.nodes.length === 0 || n === 1) return null;
        const first = ring.indexOf(g.nodes[0]);
        const last = ring.indexOf(g.nodes[g.nodes.length - 1]);
        // d3's arc angles run clockwise from 12 o'clock, as the ring does from n1.
        const whole = g.nodes.length === n;
        const a0 = whole ? 0 : first * step - step * 0.42;
        const a1 = whole ? 2 * Math.PI : last * step + step * 0.42;
        const mid = (a0 + a1) / 2;
        const labelR = r - nr - font * 1.9;
        const lx = cx + labelR * Math.sin(whole ? Math.PI : mid);
        const ly = cy - labelR * Math.cos(whole ? Math.PI : mid);
        return (
          <g key={g.region} className={`region-place ${colour}`} data-region={g.region}>
            <title>{title}</title>
            <path d={band({ a0, a1, r0: r - nr - 10, r1: r + nr + 10 }) ?? ''} transform={`translate(${cx},${cy})`} />
            {/* Presenter mode's bigger glyphs leave the ring's inside no room: the names go in the key below. */}
            {presenter === null && (
              <text x={lx} y={ly + font * 0.35} fontSize={font}>
                {g.region}
              </text>
            )}
          </g>
        );
      })}
      {groups.flatMap((g, gi) =>
        g.others.map((id) => {
          const at = layout.clients[id] ?? layout.stores[id];
          if (at === undefined) return null;
          const h = layout.clients[id] !== undefined ? clientH : storeH;
          return (
            <text
              key={id}
              className={`region-tag region-${gi % 6}`}
              data-region-of={id}
              x={at.x}
              y={at.y + h / 2 + tagFont * 1.15}
              fontSize={tagFont}
            >
              {g.region}
            </text>
          );
        }),
      )}
      {presenter !== null && (
        // Presenter mode: the regions' key in the top left corner, a line per region in its colour.
        <text className="region-key" data-testid="region-key" x={12} y={0} fontSize={tagFont}>
          {groups.map((g, gi) => (
            <tspan key={g.region} className={`region-${gi % 6}`} x={12} dy={tagFont * 1.2}>
              {g.region}: {[...g.nodes, ...g.others.filter((id) => id !== 'fenced' && id !== 'unfenced')].join(', ')}
            </tspan>
          ))}
        </text>
      )}
      <text
        className="region-rtt"
        data-testid="region-rtt"
        x={rttX}
        y={VIEW_H - 10 - (rttLines.length - 1) * tagFont * 1.2}
        fontSize={tagFont}
        textAnchor={presenter === null ? 'start' : 'end'}
      >
        {rttLines.map((l, i) => (
          <tspan key={i} x={rttX} dy={i === 0 ? 0 : tagFont * 1.2}>
            {l}
          </tspan>
        ))}
      </text>
    </g>
  );
});
