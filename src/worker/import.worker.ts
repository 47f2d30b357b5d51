/// <reference lib="webworker" />
/**
 * The import worker (issue 27): reads and checks one file from another tool, so a long search
 * never blocks the page. Loaded only when a person drops or imports such a file.
 */
import { ImportError } from '../sim/import/history';
import { importedView, NeedsModel } from '../sim/import/view';
import type { HostToImportWorker, ImportWorkerToHost } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (m: ImportWorkerToHost) => scope.postMessage(m);

scope.addEventListener('message', (event: MessageEvent<HostToImportWorker>) => {
  const m = event.data;
  const started = performance.now();
  let lastPost = 0;
  try {
    const view = importedView(m.name, m.text, {
      ...(m.model !== undefined ? { model: m.model } : {}),
      ...(m.initial !== undefined ? { initial: m.initial } : {}),
      ...(m.failedCas !== undefined ? { failedCas: m.failedCas } : {}),
      clock: () => performance.now(),
      timeLimitMs: m.timeLimitMs,
      progress: (placed, total) => {
        const now = performance.now();
        // At most ten progress messages a second: the bar needs no more.
        if (now - lastPost < 100) return;
        lastPost = now;
        post({ type: 'import-progress', request: m.request, placed, total, elapsedMs: now - started });
      },
    });
    post({ type: 'import-done', request: m.request, view, elapsedMs: performance.now() - started });
  } catch (error) {
    if (error instanceof NeedsModel) post({ type: 'import-failed', request: m.request, error: error.sentence, choices: error.choices });
    else if (error instanceof ImportError) post({ type: 'import-failed', request: m.request, error: error.sentence });
    else
      post({
        type: 'import-failed',
        request: m.request,
        error: `The file could not be checked: ${error instanceof Error ? error.message : String(error)}.`,
      });
  }
});
