/** The two ring-diagram exports, registered for the Export menu against the page's store. */
import type { LabStore } from '../store/labStore';
import { diagramLayout } from '../../paint/layout';
import { selectClientIds, selectClock, selectDrops, selectHasStores, selectMessages, selectNodeIds, selectNodes } from '../store/selectors';
import { downloadBlob, downloadText, exportFileName } from './download';
import { registerExport } from './exportActions';
import { ringSvg, svgToPngBlob, type RingSvg } from './ringExport';

function liveDiagram(): SVGSVGElement | null {
  return document.querySelector<SVGSVGElement>('svg.diagram');
}

/** The diagram as it is now, and the file name (without extension) that says which moment it is. */
function ringNow(store: LabStore): { svg: RingSvg; name: (ext: string) => string } {
  const s = store.getState();
  const live = liveDiagram();
  if (!live || !s.frame.snapshot) throw new Error('there is no diagram on the page yet');
  const seed = s.frame.config.seed;
  const now = s.frame.snapshot.now;
  const layout = diagramLayout(selectNodeIds(s), selectClientIds(s), selectHasStores(s));
  const title = `Lockstep${s.frame.label ? ` · ${s.frame.label}` : ''} · seed ${String(seed)} · t = ${now} ms`;
  const svg = ringSvg(live, selectMessages(s), selectClock(s), {
    title,
    legend: true,
    layout,
    drops: selectDrops(s),
    nodes: selectNodes(s),
  });
  return { svg, name: (ext) => exportFileName('ring', seed, now, ext) };
}

export function registerRingExports(store: LabStore): () => void {
  const available = () => store.getState().frame.snapshot !== null && liveDiagram() !== null;
  const offSvg = registerExport('ring-svg', {
    label: 'Ring diagram (SVG)',
    available,
    run: () => {
      const { svg, name } = ringNow(store);
      downloadText(name('svg'), svg.text, 'image/svg+xml');
    },
  });
  const offPng = registerExport('ring-png', {
    label: 'Ring diagram (PNG)',
    available,
    run: async () => {
      const { svg, name } = ringNow(store);
      downloadBlob(name('png'), await svgToPngBlob(svg.text, svg.width, svg.height));
    },
  });
  return () => {
    offSvg();
    offPng();
  };
}
