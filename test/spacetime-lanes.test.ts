import { describe, expect, it } from 'vitest';
import { AXIS_GUTTER, defaultLaneIds, foldNodes, headerTextWidth, laneLayout, laneOf, SERVICE_LANE } from '../src/ui/spacetime/lanes';
import { FIVE_NODES } from './helpers/traceFixture';

const IDS = [...FIVE_NODES.nodes, ...FIVE_NODES.clients, ...FIVE_NODES.stores];

describe('space-time lanes', () => {
  it('lays out every actor by default, nodes then clients then stores, with readable headers', () => {
    const layout = laneLayout(IDS, FIVE_NODES, 64 + 9 * 160);
    expect(layout.lanes.map((l) => l.id)).toEqual(defaultLaneIds(FIVE_NODES));
    expect(layout.laneWidth).toBe(160);
    expect(layout.lanes[0].x).toBe(AXIS_GUTTER + 80);
    expect(layout.lanes[8].x).toBe(AXIS_GUTTER + 8 * 160 + 80);
    expect(layout.lanes.map((l) => l.header)).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'client A',
      'client B',
      'fenced store',
      'unfenced store',
    ]);
  });

  it('keeps a chosen subset in the chosen order (the chapter figure: n2, n1, n3, n5)', () => {
    const layout = laneLayout(IDS, FIVE_NODES, 450, ['n2', 'n1', 'n3', 'n5']);
    expect(layout.lanes.map((l) => l.id)).toEqual(['n2', 'n1', 'n3', 'n5']);
    expect(laneOf(layout, IDS, 'n4')).toBeNull();
    expect(laneOf(layout, IDS, 'n1')?.x).toBeLessThan(laneOf(layout, IDS, 'n3')!.x);
    expect(laneOf(layout, IDS, 'n2')!.x).toBeLessThan(laneOf(layout, IDS, 'n1')!.x);
  });

  it('folds every node into one service lane (the fencing figure: A, service, B, fenced)', () => {
    const layout = laneLayout(IDS, FIVE_NODES, 850, ['A', SERVICE_LANE, 'B', 'fenced']);
    expect(layout.lanes.map((l) => l.header)).toEqual(['client A', 'lease service', 'client B', 'fenced store']);
    for (const n of FIVE_NODES.nodes) expect(laneOf(layout, IDS, n)?.id).toBe(SERVICE_LANE);
    expect(layout.byId.get(SERVICE_LANE)?.members).toEqual(FIVE_NODES.nodes);
    expect(foldNodes(defaultLaneIds(FIVE_NODES), FIVE_NODES)).toEqual([SERVICE_LANE, 'A', 'B', 'fenced', 'unfenced']);
  });

  it('falls back to short headers when lanes are narrow', () => {
    const layout = laneLayout(IDS, FIVE_NODES, 700);
    expect(layout.lanes.map((l) => l.header)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'A', 'B', 'fenced', 'unfenced']);
    expect(layout.lanes.map((l) => l.label).at(-1)).toBe('unfenced store');
  });

  it('takes tiny store headers in the narrowest lanes, and no header runs into its neighbour', () => {
    // The ring + time view at 1280×720: nine lanes in about 330 px.
    for (const width of [370, 450, 700, 900]) {
      const layout = laneLayout(IDS, FIVE_NODES, width);
      const lanes = layout.lanes;
      const half = (l: (typeof lanes)[number]) => headerTextWidth(l.header, Math.min(16, l.headerPx)) / 2;
      for (let i = 1; i < lanes.length; i++)
        expect(lanes[i - 1].x + half(lanes[i - 1]), `${width} px: ${lanes[i - 1].header} | ${lanes[i].header}`).toBeLessThan(
          lanes[i].x - half(lanes[i]),
        );
    }
    expect(
      laneLayout(IDS, FIVE_NODES, 370)
        .lanes.map((l) => l.header)
        .slice(-2),
    ).toEqual(['fen.', 'unf.']);
    expect(
      laneLayout(IDS, FIVE_NODES, 370)
        .lanes.map((l) => l.label)
        .slice(-2),
    ).toEqual(['fenced store', 'unfenced store']);
  });

  it('skips unknown ids and duplicates', () => {
    const layout = laneLayout(IDS, FIVE_NODES, 450, ['n1', 'zz', 'n1', 'A']);
    expect(layout.lanes.map((l) => l.id)).toEqual(['n1', 'A']);
  });
});
