/**
 * Runs an experiment's jobs on Node worker threads (one per core by default), in batches, the
 * way the page's pool of Web Workers does; every thread runs the same pure `runJob`.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { jobsOf, runJob, type ExperimentSpec, type PlannedPoint, type RunResult } from '../sim/experiments/experiment';

export const BATCH = 25;

// A plain-JavaScript entry that registers tsx first (a thread does not inherit the loader).
const THREAD_URL = new URL('./experimentThread.mjs', import.meta.url);

export interface ThreadRequest {
  readonly spec: ExperimentSpec;
  readonly points: readonly PlannedPoint[];
  readonly jobs: readonly { point: number; seed: number }[];
}

export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

export async function runInThreads(
  spec: ExperimentSpec,
  points: readonly PlannedPoint[],
  threads = defaultThreads(),
): Promise<RunResult[]> {
  const jobs = jobsOf(spec, points);
  if (threads <= 1 || jobs.length <= BATCH) return jobs.map((job) => runJob(spec, points, job));
  const batches: (typeof jobs)[] = [];
  for (let i = 0; i < jobs.length; i += BATCH) batches.push(jobs.slice(i, i + BATCH));
  const results: RunResult[] = [];
  let next = 0;
  const workers = Array.from({ length: Math.min(threads, batches.length) }, () => new Worker(THREAD_URL));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = () => {
              if (next >= batches.length) {
                resolve();
                return;
              }
              const request: ThreadRequest = { spec, points, jobs: batches[next++] };
              worker.postMessage(request);
            };
            worker.on('message', (batch: RunResult[]) => {
              results.push(...batch);
              feed();
            });
            worker.on('error', reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
