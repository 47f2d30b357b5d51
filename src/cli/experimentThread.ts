/** One worker thread of `npm run experiment`: runs the batches it is sent and posts their results. */
import { parentPort } from 'node:worker_threads';
import { runJob } from '../sim/experiments/experiment';
import type { ThreadRequest } from './experimentThreads';

parentPort?.on('message', (request: ThreadRequest) => {
  parentPort?.postMessage(request.jobs.map((job) => runJob(request.spec, request.points, job)));
});
