/**
 * The exports made from the whole run (time 0 to the time on screen) rather than from what the
 * page holds: the JSON trace, the event log as Markdown and CSV, and a ShiViz log. The worker
 * replays the run and writes them with the same functions as `npm run sim -- --trace`, so the
 * page's trace file and the CLI's are the same bytes.
 */
import type { HostBridge } from '../bridge/hostBridge';
import type { ExportFormat } from '../../worker/protocol';
import { downloadText, exportFileName } from './download';
import { registerExport, type ExportSlotId } from './exportActions';

const FORMATS: readonly { slot: ExportSlotId; format: ExportFormat; label: string; kind: string; ext: string; mime: string }[] = [
  { slot: 'trace-json', format: 'trace-json', label: 'Trace (JSON)', kind: 'trace', ext: 'json', mime: 'application/json' },
  { slot: 'events-markdown', format: 'events-md', label: 'Event log (Markdown)', kind: 'events', ext: 'md', mime: 'text/markdown' },
  { slot: 'events-csv', format: 'events-csv', label: 'Event log (CSV)', kind: 'events', ext: 'csv', mime: 'text/csv' },
  { slot: 'shiviz', format: 'shiviz', label: 'ShiViz log', kind: 'shiviz', ext: 'log', mime: 'text/plain' },
];

export function registerRunExports(bridge: HostBridge): () => void {
  const available = () => bridge.store.getState().frame.snapshot !== null;
  const offs = FORMATS.map((f) =>
    registerExport(f.slot, {
      label: f.label,
      available,
      run: async () => {
        const reply = await bridge.requestExport(f.format);
        if (reply.text === null) throw new Error(reply.error ?? 'the worker made no file');
        downloadText(exportFileName(f.kind, reply.seed, reply.untilMs, f.ext), reply.text, f.mime);
      },
    }),
  );
  return () => offs.forEach((off) => off());
}
