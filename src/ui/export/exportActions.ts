/**
 * What the Export menu offers. Each format is provided by whoever owns it: a provider calls
 * `registerExport` (usually from a component's effect, returning its cleanup) and the menu
 * lists it. The menu always shows the formats in EXPORT_SLOTS, in that order; a slot with no
 * provider is shown disabled rather than faked. Providers with other ids are listed after them.
 *
 * A provider, e.g. the trace:
 *
 *   useEffect(() => registerExport('trace-json', {
 *     label: 'Trace (JSON)',
 *     available: () => store.getState().frame.snapshot !== null,
 *     run: () => downloadText(exportFileName('trace', seed, now, 'json'), text, 'application/json'),
 *   }), [store]);
 */
import { useSyncExternalStore } from 'react';

export interface ExportAction {
  /** The menu item's name: the view and the format, e.g. "Trace (JSON)". */
  readonly label: string;
  /** Builds and saves the file; a throw or rejection shows the page's error banner. */
  run(): Promise<void> | void;
  /** Whether it can run now (say, a run is loaded); checked each time the menu opens. */
  available(): boolean;
}

/** The formats the menu always lists, by id. */
export const EXPORT_SLOTS = [
  { id: 'ring-svg', label: 'Ring diagram (SVG)' },
  { id: 'ring-png', label: 'Ring diagram (PNG)' },
  { id: 'spacetime-svg', label: 'Space-time diagram (SVG)' },
  { id: 'spacetime-png', label: 'Space-time diagram (PNG)' },
  { id: 'trace-json', label: 'Trace (JSON)' },
  { id: 'events-markdown', label: 'Event log (Markdown)' },
  { id: 'events-csv', label: 'Event log (CSV)' },
  { id: 'shiviz', label: 'ShiViz log' },
  { id: 'run-file', label: 'Run file (JSON, for Import…)' },
] as const;

export type ExportSlotId = (typeof EXPORT_SLOTS)[number]['id'];

/** One menu item: a slot or a registered action. `action` is null while nothing provides it. */
export interface ExportItem {
  readonly id: string;
  readonly label: string;
  readonly action: ExportAction | null;
}

const actions = new Map<string, ExportAction>();
const listeners = new Set<() => void>();
let items: readonly ExportItem[] = buildItems();

function buildItems(): readonly ExportItem[] {
  const slotIds = new Set<string>(EXPORT_SLOTS.map((s) => s.id));
  const slots = EXPORT_SLOTS.map((s) => ({ id: s.id, label: actions.get(s.id)?.label ?? s.label, action: actions.get(s.id) ?? null }));
  const extra = [...actions].filter(([id]) => !slotIds.has(id)).map(([id, action]) => ({ id, label: action.label, action }));
  return [...slots, ...extra];
}

function changed(): void {
  items = buildItems();
  for (const listener of listeners) listener();
}

/**
 * Provides the export `id` (a slot id from EXPORT_SLOTS, or a new one). A later registration
 * of the same id replaces the earlier. Returns a function that withdraws this registration.
 */
export function registerExport(id: ExportSlotId | (string & {}), action: ExportAction): () => void {
  actions.set(id, action);
  changed();
  return () => {
    if (actions.get(id) !== action) return;
    actions.delete(id);
    changed();
  };
}

/** The menu's items now, slots first (a stable array until a registration changes). */
export function exportItems(): readonly ExportItem[] {
  return items;
}

export function subscribeExports(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The menu's items, re-rendering when a provider registers or withdraws. */
export function useExportItems(): readonly ExportItem[] {
  return useSyncExternalStore(subscribeExports, exportItems, exportItems);
}
