/**
 * How a lane's marks look (issue 27), shared by the canvas, the DOM overlay and the SVG export:
 * each kind its own shape, so none relies on colour alone — a commit a diamond, a configuration
 * change a square, a violation a triangle (the landmark), a nemesis event a dashed rule across
 * the lanes.
 */
import type { MarkKind } from './scene';
import type { SpaceTimeTheme } from './theme';

/** SVG path data centred on (0, 0). */
export const MARK_PATHS: Readonly<Record<Exclude<MarkKind, 'nemesis'>, string>> = {
  commit: 'M0,-6L6,0L0,6L-6,0Z',
  conf: 'M-5,-5H5V5H-5Z',
  violation: 'M0,-10L9,7H-9Z',
};

export const MARK_NAMES: Readonly<Record<MarkKind, string>> = {
  commit: 'commit index advanced',
  conf: 'configuration change',
  violation: 'invariant violated (see Why)',
  nemesis: 'nemesis event (a fault the test injected)',
};

/** Fill and stroke per kind. */
export function markStyle(kind: MarkKind, theme: SpaceTimeTheme): { fill: string; stroke: string } {
  switch (kind) {
    case 'commit':
      return { fill: theme.ok, stroke: theme.panel };
    case 'conf':
      return { fill: theme.panel, stroke: theme.text };
    case 'violation':
      return { fill: theme.bad, stroke: theme.panel };
    case 'nemesis':
      return { fill: 'none', stroke: theme.muted };
  }
}

/** The few words beside a mark on the drawing (the whole text is its hover title). */
export function markLabel(kind: MarkKind, text: string): string {
  if (kind === 'violation') return 'violation';
  return text.length > 28 ? text.slice(0, 27) + '…' : text;
}
