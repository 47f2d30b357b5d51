/**
 * The views people open later (lazyView.tsx), each in a chunk of its own, and the moments the
 * page starts fetching one before it is asked for: the pointer over (or focus on) the control
 * that opens it. A view whose chunk is here when it is opened shows at once; one that is still
 * on its way shows "Loading…" first, and React then holds its reveal a little (about 300 ms) so
 * the line does not flicker, which is why a hint of intent is worth acting on.
 */
import type { ComponentType } from 'react';
import { lazyView, type LazyView } from './lazyView';
import type { SideTab } from './store/labStore';

// Views people open later come in chunks of their own the first time they are shown (lazyView.tsx),
// so the first paint of the ring waits only for the ring.
export const spaceTime = lazyView(() => import('./spacetime/ConnectedSpaceTime').then((m) => m.ConnectedSpaceTime));
// The side tabs but Logs, in one chunk (panels/laterPanels.ts).
type LaterPanels = typeof import('./panels/laterPanels');
const laterPanel = (pick: (m: LaterPanels) => ComponentType) => lazyView(() => import('./panels/laterPanels').then(pick));
export const LATER_TABS: Partial<Record<SideTab, LazyView<object>>> = {
  clients: laterPanel((m) => m.ClientsPanel),
  stores: laterPanel((m) => m.StoresPanel),
  history: laterPanel((m) => m.HistoryPanel),
  locks: laterPanel((m) => m.LockTablePanel),
  node: laterPanel((m) => m.NodeContextPanel),
  code: laterPanel((m) => m.PseudocodePanel),
  invariants: laterPanel((m) => m.InvariantsPanel),
  schedule: laterPanel((m) => m.ScheduleEditor),
  settings: laterPanel((m) => m.RunSettings),
};
/** The later tabs share one chunk; each tab's view is readied, so none of them waits when first shown. */
export const preloadLaterTabs = () => Object.values(LATER_TABS).forEach((tab) => void tab.preload());
// The tours list (what each teaches, its beats and running time) comes with the tours' text.
export const toursList = lazyView(() => import('./controls/ToursList').then((m) => m.ToursList));
export const presenterView = lazyView(() => import('./present/PresenterView').then((m) => m.PresenterView));
export const experimentsView = lazyView(() =>
  Promise.all([import('./experiments/ExperimentsView'), import('./experiments/bootExperiments')]).then(([view, boot]) => {
    boot.bootExperiments();
    return view.ExperimentsView;
  }),
);
// Another tool's file (issue 27): the import screen, its readers and checker come when one is dropped or imported.
export const importView = lazyView(() => import('./importer/ImportView').then((m) => m.default));
