/**
 * The space-time diagram's two exports, SVG and PNG: the window, lanes, heartbeat and quiet-time
 * settings and theme on screen, drawn by the same scene the canvas paints (svgExport.ts), with a
 * title naming the seed and window and a legend. Registered while a space-time view is mounted.
 */
import type { LabStore } from '../store/labStore';
import type { SpaceTimeViewState } from '../spacetime/SpaceTimeView';
import { pngFromSvg, svgSize } from '../spacetime/pngFromSvg';
import { traceToSvg } from '../spacetime/svgExport';
import { downloadBlob, downloadText, exportFileName } from './download';
import { registerExport } from './exportActions';

export function registerSpacetimeExports(store: LabStore, view: () => SpaceTimeViewState | null): () => void {
  const svgNow = () => {
    const s = store.getState();
    const v = view();
    if (!s.trace || !v) throw new Error('the space-time view has no trace yet');
    const seed = s.frame.config.seed;
    const now = s.frame.snapshot?.now ?? 0;
    const svg = traceToSvg(s.trace, {
      theme: v.theme,
      width: v.width,
      height: v.height,
      window: v.window,
      seed: String(seed),
      lanes: v.lanes,
      heartbeats: v.heartbeats,
      compress: v.compress,
      filter: v.filter,
      nowMs: now,
      history: v.history,
    });
    return { svg, name: (ext: string) => exportFileName('spacetime', seed, now, ext) };
  };
  const available = () => store.getState().trace !== null && view() !== null;
  const offSvg = registerExport('spacetime-svg', {
    label: 'Space-time diagram (SVG)',
    available,
    run: () => {
      const { svg, name } = svgNow();
      downloadText(name('svg'), svg, 'image/svg+xml');
    },
  });
  const offPng = registerExport('spacetime-png', {
    label: 'Space-time diagram (PNG)',
    available,
    run: async () => {
      const { svg, name } = svgNow();
      const { width, height } = svgSize(svg);
      downloadBlob(name('png'), await pngFromSvg(svg, width, height));
    },
  });
  return () => {
    offSvg();
    offPng();
  };
}
