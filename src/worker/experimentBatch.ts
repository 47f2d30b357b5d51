/**
 * What an experiment worker does with a batch: plan the experiment (once per spec) and run each
 * job with the same pure `runJob` the CLI uses. Kept apart from the worker entry so tests call it.
 */
import { planExperiment, runJob, type ExperimentSpec, type PlannedPoint } from '../sim/experiments/experiment';
import type { ExperimentWorkerToHost, HostToExperimentWorker } from './protocol';

let planned: { key: string; points: PlannedPoint[] | string } | null = null;

function pointsOf(spec: ExperimentSpec): PlannedPoint[] | string {
  const key = JSON.stringify(spec);
  if (planned === null || planned.key !== key) planned = { key, points: planExperiment(spec) };
  return planned.points;
}

export function runExperimentBatch(message: HostToExperimentWorker): ExperimentWorkerToHost {
  const points = pointsOf(message.spec);
  if (typeof points === 'string') return { type: 'experiment-failed', batch: message.batch, error: points };
  try {
    return { type: 'experiment-results', batch: message.batch, results: message.jobs.map((job) => runJob(message.spec, points, job)) };
  } catch (error) {
    return {
      type: 'experiment-failed',
      batch: message.batch,
      error: `A run failed inside the engine: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
