/**
 * Where the ring's labels go (src/paint/labelPlacement.ts): side labels clear of the other
 * glyphs, the clients, the stores, the cut hint and each other at every cluster size, in the
 * normal ring and at projector sizes; partition labels clear of all of that too; widths never
 * under what the font draws; and the same places every time.
 */
import { polygonContains, polygonHull } from 'd3';
import { describe, expect, it } from 'vitest';
import { nodeIdsFor } from '../src/sim/model/config';
import { diagramLayout, HINT_CORNER, RING_GEOMETRY, type Box, type DiagramLayout } from '../src/paint/layout';
import { boldTextEm, overlapArea, placeGroupLabels, sideLabelBox, touchesCircle } from '../src/paint/labelPlacement';
import { PRESENTER_GEOMETRY } from '../src/ui/present/diagramText';

const inFrame = (b: Box) => b.x0 >= 0 && b.y0 >= 0 && b.x1 <= 940 && b.y1 <= 590;

function sideBoxes(layout: DiagramLayout, ids: readonly string[], font: number, line: number) {
  return ids.map((id) => ({ id, box: sideLabelBox(layout.nodes[id], layout.nodeLabels[id], font, line) }));
}

describe('side labels ("voted n2", "clock +20%")', () => {
  for (const [name, geometry] of [
    ['normal ring', RING_GEOMETRY],
    ['presenter mode', PRESENTER_GEOMETRY],
  ] as const) {
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      it(`${name}, ${n} nodes: inside the diagram, clear of every other glyph, the clients, the stores and each other`, () => {
        const ids = nodeIdsFor(n);
        // Up to four clients on the normal ring; two at projector sizes, where four fill the client column.
        const clients = ['A', 'B', 'C', 'D'].slice(0, geometry === RING_GEOMETRY ? (n % 4) + 1 : (n % 2) + 1);
        const layout = diagramLayout(ids, clients, true, geometry);
        const boxes = sideBoxes(layout, ids, geometry.sideFont, geometry.sideLine);
        const actors: Box[] = [
          ...Object.values(layout.clients).map((p) => ({
            x0: p.x - geometry.clientSize.w / 2,
            x1: p.x + geometry.clientSize.w / 2,
            y0: p.y - geometry.clientSize.h / 2,
            y1: p.y + geometry.clientSize.h / 2,
          })),
          ...Object.values(layout.stores).map((p) => ({
            x0: p.x - geometry.storeSize.w / 2,
            x1: p.x + geometry.storeSize.w / 2,
            y0: p.y - geometry.storeSize.h / 2,
            y1: p.y + geometry.storeSize.h / 2,
          })),
        ];
        for (const { id, box } of boxes) {
          expect(inFrame(box), `${id}'s label is inside the diagram`).toBe(true);
          for (const a of actors) expect(overlapArea(box, a), `${id}'s label is clear of a client or store`).toBe(0);
          for (const other of ids)
            if (other !== id)
              expect(touchesCircle(box, layout.nodes[other], layout.nodeRadius * 1.1), `${id}'s label is clear of ${other}`).toBe(false);
          for (const o of boxes) if (o.id !== id) expect(overlapArea(box, o.box), `${id}'s label is clear of ${o.id}'s`).toBe(0);
          if (geometry === RING_GEOMETRY) expect(overlapArea(box, HINT_CORNER), `${id}'s label is clear of the cut hint`).toBe(0);
        }
      });
    }
  }

  it('are outward from the ring wherever there is room (5 nodes: the bottom two)', () => {
    const layout = diagramLayout(nodeIdsFor(5), ['A', 'B'], true);
    expect(layout.nodeLabels.n3.dy).toBeGreaterThan(0);
    expect(layout.nodeLabels.n4.dy).toBeGreaterThan(0);
  });

  it('land in the same places every time', () => {
    const ids = nodeIdsFor(9);
    expect(diagramLayout(ids, ['A', 'B'], true).nodeLabels).toEqual(diagramLayout(ids, ['A', 'B'], true).nodeLabels);
  });
});

describe('partition labels', () => {
  const cases: [string, string[][]][] = [
    [
      '5 nodes, 2 | 3',
      [
        ['n1', 'n2'],
        ['n3', 'n4', 'n5'],
      ],
    ],
    ['5 nodes, one cut off', [['n3'], ['n1', 'n2', 'n4', 'n5']]],
    [
      '7 nodes, 3 | 4',
      [
        ['n1', 'n2', 'n3'],
        ['n4', 'n5', 'n6', 'n7'],
      ],
    ],
    [
      '9 nodes, three sides',
      [
        ['n1', 'n2'],
        ['n3', 'n4', 'n5'],
        ['n6', 'n7', 'n8', 'n9'],
      ],
    ],
  ];
  for (const [name, groups] of cases) {
    it(`${name}: each clear of the glyphs, the side labels, the clients, the stores and each other`, () => {
      const ids = groups.flat().sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      const layout = diagramLayout(ids, ['A', 'B'], true);
      const labels = placeGroupLabels(layout, groups, ids);
      expect(labels).toHaveLength(groups.length);
      for (const [i, l] of labels.entries()) {
        expect(inFrame(l.box)).toBe(true);
        for (const b of layout.keepClear.boxes) expect(overlapArea(l.box, b)).toBe(0);
        for (const g of layout.keepClear.glyphs) expect(touchesCircle(l.box, g, layout.nodeRadius * 1.1)).toBe(false);
        for (const [j, o] of labels.entries()) if (j !== i) expect(overlapArea(l.box, o.box)).toBe(0);
      }
      expect(labels.map((l) => l.lines.join(' '))).toEqual(
        groups.map((g) =>
          g.length >= Math.floor(ids.length / 2) + 1
            ? `majority (${g.length} of ${ids.length})`
            : `minority (${g.length} of ${ids.length}): cannot commit`,
        ),
      );
    });
  }

  it("each sit outside every other group's shaded region (a minority label inside the majority's hull reads as the majority's)", () => {
    const region = (layout: DiagramLayout, g: readonly string[]) => {
      const pts: [number, number][] = [];
      for (const id of g) {
        const c = layout.nodes[id] ?? layout.clients[id];
        for (let i = 0; i < 16; i++) {
          const a = (Math.PI * 2 * i) / 16;
          pts.push([c.x + (layout.nodeRadius + 30) * Math.cos(a), c.y + (layout.nodeRadius + 30) * Math.sin(a)]);
        }
      }
      return polygonHull(pts)!;
    };
    for (const [name, groups] of [
      ...cases,
      [
        '5 nodes and clients, 2 + A | 3 + B',
        [
          ['n1', 'n2', 'A'],
          ['n3', 'n4', 'n5', 'B'],
        ],
      ] as [string, string[][]],
    ]) {
      const ids = groups.flat().filter((id) => id.startsWith('n'));
      ids.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      const layout = diagramLayout(ids, ['A', 'B'], true);
      const labels = placeGroupLabels(layout, groups, ids);
      for (const [i, l] of labels.entries())
        for (const [j, g] of groups.entries()) {
          if (j === i) continue;
          const hull = region(layout, g);
          const { x0, x1, y0, y1 } = l.box;
          for (const p of [
            [x0, y0],
            [x1, y0],
            [x0, y1],
            [x1, y1],
            [(x0 + x1) / 2, (y0 + y1) / 2],
          ] as [number, number][])
            expect(polygonContains(hull, p), `${name}: group ${i + 1}'s label inside group ${j + 1}'s region`).toBe(false);
        }
    }
  });

  it('reserve at least the width the bold font draws (measured in Chromium on DejaVu Sans Bold)', () => {
    // Measured widths in em: "minority (4 of 9):" 9.63, "cannot commit" 8.39, "majority (5 of 9)" 9.18.
    expect(boldTextEm('minority (4 of 9):')).toBeGreaterThanOrEqual(9.63);
    expect(boldTextEm('cannot commit')).toBeGreaterThanOrEqual(8.39);
    expect(boldTextEm('majority (5 of 9)')).toBeGreaterThanOrEqual(9.18);
  });
});
