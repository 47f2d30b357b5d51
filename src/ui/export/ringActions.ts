/**
 * The two ring-diagram exports, registered for the Export menu against the page's store. The
 * writer (ringExport.ts) loads on demand, when a ring export is first asked for.
 */
import type { LabStore } from '../store/labStore';
import { diagramLayout } from '../../paint/layout';
import { ringOrder } from '../diagram/ringOrder';
import {
  selectClientIds,
  selectClock,
  selectConfig,
  selectDrops,
  selectHasStores,
  selectMessages,
  selectNodeIds,
  selectNodes,
} from '../store/selectors';
import { downloadBlob, downloadText, exportFileName } from './download';
import { registerExport } from './exportActions';
import type { RingSvg } from './ringExport';

/** A failed fetch reads as the export's reason in the banner ("Could not export …: …"). */
const loadWriter = () =>
  import('./ringExport').catch(() => {
    throw new Error('the page could not fetch the ring writer (is it offline?); try again when it is back online');
  });

/** Fetches the writer ahead (the pointer is on the Export button), so the first export does not wait for it. */
export function preloadRingWriter(): void {
  void import('./ringExport').catch(() => undefined);
}

function liveDiagram(): SVGSVGElement | null {
  return document.querySelector<SVGSVGElement>('svg.diagram');
}

/** The diagram as it is now, and the file name (without extension) that says which moment it is. */
async function ringNow(store: LabStore): Promise<{ svg: RingSvg; name: (ext: string) => string }> {
  const s = store.getState();
  const live = liveDiagram();
  if (!live || !s.frame.snapshot) throw new Error('there is no diagram on the page yet');
  // The run at this moment is read before the writer loads (a fetch the first time only).
  const messages = selectMessages(s);
  const clock = selectClock(s);
  const drops = selectDrops(s);
  const nodes = selectNodes(s);
  const { ringSvg } = await loadWriter();
  const seed = s.frame.config.seed;
  const now = s.frame.snapshot.now;
  const layout = diagramLayout(
    ringOrder(selectNodeIds(s), selectConfig(s).regions, selectClientIds(s)),
    selectClientIds(s),
    selectHasStores(s),
  );
  const title = `Lockstep${s.frame.label ? ` · ${s.frame.label}` : ''} · seed ${String(seed)} · t = ${now} ms`;
  const svg = ringSvg(live, messages, clock, { title, legend: true, layout, drops, nodes });
  return { svg, name: (ext) => exportFileName('ring', seed, now, ext) };
}

export function registerRingExports(store: LabStore): () => void {
  const available = () => store.getState().frame.snapshot !== null && liveDiagram() !== null;
  const offSvg = registerExport('ring-svg', {
    label: 'Ring diagram (SVG)',
    available,
    run: async () => {
      const { svg, name } = await ringNow(store);
      downloadText(name('svg'), svg.text, 'image/svg+xml');
    },
  });
  const offPng = registerExport('ring-png', {
    label: 'Ring diagram (PNG)',
    available,
    run: async () => {
      const { svg, name } = await ringNow(store);
      const { svgToPngBlob } = await loadWriter();
      downloadBlob(name('png'), await svgToPngBlob(svg.text, svg.width, svg.height));
    },
  });
  return () => {
    offSvg();
    offPng();
  };
}
