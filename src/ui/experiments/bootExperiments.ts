/**
 * Boot: the pool of experiment workers (one per core, made on the first run) behind the
 * Experiments view. `#experiments` in the address opens the view at once (a course page can link
 * to it). Tests read the view's store as `window.lockstepExperiments`.
 */
import { ExperimentPool, type PoolWorker } from './experimentPool';
import { connectExperimentPool, experimentsStore, setExperimentsOpen } from './experimentsStore';

export function bootExperiments(): void {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
  const makeWorker = () => new Worker(new URL('../../worker/experiment.worker.ts', import.meta.url), { type: 'module' }) as unknown as PoolWorker;
  connectExperimentPool(new ExperimentPool(makeWorker, cores), () => performance.now());
  if (location.hash === '#experiments') setExperimentsOpen(true);
  (window as unknown as { lockstepExperiments: unknown }).lockstepExperiments = experimentsStore;
}
