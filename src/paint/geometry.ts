/**
 * The diagram's words, in viewBox units: the view's size, a point, a box, a side label's place
 * and what a layout holds. Label placement needs them and layout.ts needs label placement, so
 * they live here, below both (layout.ts passes them on to everyone else).
 */
export const VIEW_W = 940;
export const VIEW_H = 590;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface NodeLabelPlace {
  readonly dx: number;
  readonly dy: number;
  readonly anchor: 'start' | 'middle' | 'end';
  /** The outward direction from the ring's centre, in radians. */
  readonly angle: number;
}

/** An axis-aligned box in view units. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface DiagramLayout {
  readonly nodes: Readonly<Record<string, Point>>;
  /** Where each node's side label (votes, drift) goes, relative to the node: outward from the ring. */
  readonly nodeLabels: Readonly<Record<string, NodeLabelPlace>>;
  readonly clients: Readonly<Record<string, Point>>;
  readonly stores: Readonly<Record<string, Point>>;
  /** Glyph radius of a node; smaller for bigger clusters so neighbours never touch. */
  readonly nodeRadius: number;
  /** What later labels (the partition's) must not cover: boxes of clients, stores, side labels and the hint's corner, and the node glyphs as circles. */
  readonly keepClear: KeepClear;
}

export interface KeepClear {
  readonly boxes: readonly Box[];
  readonly glyphs: readonly Point[];
  readonly glyphReach: number;
}
