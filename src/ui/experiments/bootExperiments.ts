/**
 * The pool of experiment workers (one per core but one, made on the first run) behind the
 * Experiments view, connected when the view's chunk first loads (App.tsx loads it on demand).
 * Tests read the view's store as `window.lockstepExperiments`.
 */
import { ExperimentPool, type PoolWorker } from './experimentPool';
import { connectExperimentPool, experimentsStore } from './experimentsStore';

let booted = false;

export function bootExperiments(): void {
  if (booted) return;
  booted = true;
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
  // One worker per core but one: the page's own thread (and the simulation worker of the main
  // view) keep a core, so the page stays responsive while an experiment runs.
  const workers = Math.max(1, cores - 1);
  const makeWorker = () =>
    new Worker(new URL('../../worker/experiment.worker.ts', import.meta.url), { type: 'module' }) as unknown as PoolWorker;
  connectExperimentPool(new ExperimentPool(makeWorker, workers), () => performance.now());
  (window as unknown as { lockstepExperiments: unknown }).lockstepExperiments = experimentsStore;
}
