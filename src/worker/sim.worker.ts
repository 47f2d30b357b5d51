/// <reference lib="webworker" />
/**
 * The worker entry: wires the driver to the worker global. Frames come from the worker's own
 * requestAnimationFrame where the browser has one, else a 16 ms timer.
 */
import type { WorkerEndpoint } from './protocol';
import { SimDriver } from './simDriver';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const hasFrames = typeof scope.requestAnimationFrame === 'function';

new SimDriver(scope as unknown as WorkerEndpoint, {
  now: () => performance.now(),
  requestFrame: (callback) => {
    if (hasFrames) scope.requestAnimationFrame(() => callback());
    else setTimeout(callback, 16);
  },
});
