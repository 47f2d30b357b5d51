/**
 * The side tabs a person opens later (all but Logs, the page's first tab): one chunk, loaded the
 * first time one of them is shown (App.tsx), or when the pointer reaches the tab list.
 */
export { ClientsPanel } from './ClientsPanel';
export { StoresPanel } from './StoresPanel';
export { HistoryPanel } from './HistoryPanel';
export { LockTablePanel } from './LockTablePanel';
export { NodeContextPanel } from './NodeContextPanel';
export { PseudocodePanel } from './PseudocodePanel';
export { InvariantsPanel } from './InvariantsPanel';
export { ScheduleEditor } from '../controls/ScheduleEditor';
export { RunSettings } from '../controls/RunSettings';
