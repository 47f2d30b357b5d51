/**
 * The worker's exports of a run from time 0 to `untilMs`: a fresh replay (detail events on), so
 * an export never depends on how much of the run the page holds. The trace goes through
 * `runTraceJson`, the function `npm run sim -- --trace` uses, so the two files are the same bytes.
 */
import type { SimConfig } from '../sim/model/config';
import { eventLogCsv, eventLogMarkdown, shivizLog } from '../sim/view/exportText';
import type { Action } from '../sim/model/schedule';
import { newRun } from '../sim/run/run';
import { buildRunTrace, runTraceJson } from '../sim/view/traceJson';
import type { ExportFormat } from './protocol';

export function makeExport(
  format: ExportFormat,
  config: SimConfig,
  schedule: readonly Action[],
  untilMs: number,
): { text: string; error: null } | { text: null; error: string } {
  try {
    switch (format) {
      case 'trace-json':
        return { text: runTraceJson(config, schedule, untilMs), error: null };
      case 'shiviz':
        return { text: shivizLog(buildRunTrace(config, schedule, untilMs)), error: null };
      case 'events-md':
      case 'events-csv': {
        const sim = newRun(config, [], { recordDetails: true });
        sim.replaceFutureActions(schedule);
        sim.applyDue();
        sim.advanceTo(untilMs);
        const { events, details } = sim.cluster;
        const text =
          format === 'events-md' ? eventLogMarkdown(events, details, { seed: config.seed, untilMs }) : eventLogCsv(events, details);
        return { text, error: null };
      }
    }
  } catch (error) {
    return { text: null, error: `the replay threw ${error instanceof Error ? error.message : String(error)}` };
  }
}
