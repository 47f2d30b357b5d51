/**
 * The cluster diagram. React owns every SVG element; D3 supplies scales, shapes, hulls, arcs
 * and pointer geometry. Subscriptions are narrow: the diagram itself only to the ids, each
 * glyph to its own node; messages are painted on a canvas underneath, outside React.
 */
import { lazy, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useBridge, useLab, useLabStore } from '../labContext';
import {
  nextServerId,
  selectClientIds,
  selectClock,
  selectHasMembership,
  selectHasStores,
  selectMessages,
  selectConfig,
  selectNodeIds,
} from '../store/selectors';
import { messageAt } from '../../paint/messageCanvas';
import { ClientGlyph, DisagreeMark, StoreGlyph } from './ActorGlyphs';
import { createCutGesture } from './cutGesture';
import { diagramLayout, groupsForCut, VIEW_H, VIEW_W, type Point } from '../../paint/layout';
import { MessagesLayer } from './MessagesLayer';
import { NodeGlyph } from './NodeGlyph';
import { PartitionRegions } from './PartitionRegions';
import { ringOrder } from './ringOrder';

// Issue 28: the regions' bands and tags load only in a run with regions.
const RegionPlaces = lazy(() => import('./RegionPlaces').then((m) => ({ default: m.RegionPlaces })));
import { PRESENTER_GEOMETRY, useDiagramText } from '../present/diagramText';

export const Diagram = memo(function Diagram() {
  const nodeIds = useLab(useShallow(selectNodeIds));
  const clientIds = useLab(useShallow(selectClientIds));
  const hasStores = useLab(selectHasStores);
  const hasMembership = useLab(selectHasMembership);
  const bridge = useBridge();
  const store = useLabStore();
  // Presenter mode: bigger glyphs on a slightly smaller ring (src/ui/present/diagramText.ts).
  const presenterText = useDiagramText();
  const presenting = presenterText !== null;
  const textScale = presenterText?.scale ?? 1;
  // Issue 28: a run with regions seats each region's nodes side by side on the ring.
  const regions = useLab((s) => selectConfig(s).regions);
  const ring = useMemo(() => ringOrder(nodeIds, regions, clientIds), [regions, nodeIds, clientIds]);
  const layout = useMemo(
    () =>
      diagramLayout(
        ring,
        clientIds,
        hasStores,
        presenting
          ? { ...PRESENTER_GEOMETRY, sideFont: PRESENTER_GEOMETRY.sideFont * textScale, sideLine: PRESENTER_GEOMETRY.sideLine * textScale }
          : undefined,
      ),
    [ring, clientIds, hasStores, presenting, textScale],
  );
  const svgRef = useRef<SVGSVGElement>(null);
  const [cutLine, setCutLine] = useState<{ a: Point; b: Point } | null>(null);

  const callbacks = useMemo(
    () => ({
      preview: setCutLine,
      cut: (a: Point, b: Point) => {
        // A click (no drag) on a message in flight asks Why about it.
        if (Math.hypot(b.x - a.x, b.y - a.y) < 6) {
          const s = store.getState();
          const hit = messageAt(layout, selectMessages(s), selectClock(s), a);
          if (hit) s.askWhy({ kind: 'message', seq: hit.seq });
          return;
        }
        const groups = groupsForCut(layout, nodeIds, a, b);
        if (groups) bridge.act({ verb: 'partition', groups });
      },
    }),
    [layout, nodeIds, bridge, store],
  );
  const gesture = useRef<ReturnType<typeof createCutGesture> | null>(null);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    gesture.current = createCutGesture(svg, { preview: () => {}, cut: () => {} });
    return () => {
      gesture.current?.destroy();
      gesture.current = null;
    };
    // Created once per svg; the effect below swaps in fresh callbacks.
  }, []);
  useEffect(() => {
    gesture.current?.update(callbacks);
  }, [callbacks]);

  const preview = cutLine ? groupsForCut(layout, nodeIds, cutLine.a, cutLine.b) : null;
  const nextServer = hasMembership ? nextServerId(nodeIds) : null;
  return (
    <div className="diagram-frame">
      {hasMembership && (
        // Membership changes (§4.1): the leader catches the new server up as a learner, then adds it.
        <button
          type="button"
          className="add-server"
          disabled={nextServer === null}
          title={
            nextServer === null ? 'A run has at most 9 servers.' : `Ask the leader to add ${nextServer} (it catches up as a learner first).`
          }
          onClick={() => {
            if (nextServer !== null) bridge.act({ verb: 'add', node: nextServer });
          }}
        >
          {nextServer === null ? '9 servers' : `+ add ${nextServer}`}
        </button>
      )}
      <MessagesLayer layout={layout} presenting={presenting} />
      <svg
        ref={svgRef}
        className={presenting ? 'diagram presenting' : 'diagram'}
        viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
        preserveAspectRatio="xMidYMid meet"
        role="group"
        aria-label="Cluster diagram: nodes on a ring, clients on the left, stores on the right. Drag across empty space to cut the network."
      >
        <rect className="diagram-bg" x={0} y={0} width={VIEW_W} height={VIEW_H} />
        {regions !== undefined && (
          <Suspense fallback={null}>
            <RegionPlaces layout={layout} />
          </Suspense>
        )}
        <PartitionRegions layout={layout} />
        {clientIds.map((id) => (
          <ClientGlyph key={id} id={id} at={layout.clients[id]} />
        ))}
        {hasStores && (
          <>
            <StoreGlyph id="fenced" at={layout.stores.fenced} />
            <StoreGlyph id="unfenced" at={layout.stores.unfenced} />
            <DisagreeMark between={[layout.stores.fenced, layout.stores.unfenced]} />
          </>
        )}
        {nodeIds.map((id) => (
          <NodeGlyph key={id} id={id} at={layout.nodes[id]} radius={layout.nodeRadius} label={layout.nodeLabels[id]} />
        ))}
        {cutLine && (
          <g className="cut-preview">
            <line x1={cutLine.a.x} y1={cutLine.a.y} x2={cutLine.b.x} y2={cutLine.b.y} />
            <text x={cutLine.b.x + 10} y={cutLine.b.y - 10} fontSize={16}>
              {preview ? `cut: ${preview.map((g) => g.join(',')).join(' | ')}` : 'drag across the ring to cut'}
            </text>
          </g>
        )}
      </svg>
    </div>
  );
});
