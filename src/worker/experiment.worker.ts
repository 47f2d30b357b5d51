/// <reference lib="webworker" />
/** An experiment worker: one of the page's pool (one per core); runs the batches it is sent. */
import { runExperimentBatch } from './experimentBatch';
import type { HostToExperimentWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.addEventListener('message', (event: MessageEvent<HostToExperimentWorker>) => {
  scope.postMessage(runExperimentBatch(event.data));
});
