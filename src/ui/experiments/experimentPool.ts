/**
 * The page's pool of experiment workers (one per core): hands out small batches of runs, one
 * batch per worker at a time, so results arrive steadily and a cancel takes effect within one
 * batch. Workers are made on first use and kept; a cancelled experiment's late answers are
 * ignored by batch number.
 */
import type { ExperimentSpec, RunJob, RunResult } from '../../sim/experiments/experiment';
import { TEMPLATES } from '../../sim/experiments/templates';
import type { ExperimentWorkerToHost, HostToExperimentWorker } from '../../worker/protocol';

/** Runs per message: a few tens of ms of work, so progress moves smoothly and cancel is quick. */
export const BATCH_RUNS = 20;

export interface PoolWorker {
  postMessage(message: HostToExperimentWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ExperimentWorkerToHost>) => void): void;
}

export interface PoolCallbacks {
  onResults(results: readonly RunResult[]): void;
  onDone(): void;
  onError(error: string): void;
}

export class ExperimentPool {
  private workers: PoolWorker[] = [];
  private queue: RunJob[][] = [];
  private spec: ExperimentSpec | null = null;
  private callbacks: PoolCallbacks | null = null;
  /** Batch numbers of the current experiment start here; anything lower is stale. */
  private firstBatch = 0;
  private nextBatch = 0;
  private outstanding = 0;
  private readonly busy = new Set<PoolWorker>();

  constructor(
    private readonly makeWorker: () => PoolWorker,
    readonly size: number,
  ) {}

  get running(): boolean {
    return this.callbacks !== null;
  }

  start(spec: ExperimentSpec, jobs: readonly RunJob[], callbacks: PoolCallbacks): void {
    this.cancel();
    if (this.workers.length === 0) {
      for (let i = 0; i < Math.max(1, this.size); i++) {
        const worker = this.makeWorker();
        worker.addEventListener('message', (event) => this.answer(worker, event.data));
        this.workers.push(worker);
      }
    }
    this.spec = spec;
    this.callbacks = callbacks;
    this.firstBatch = this.nextBatch;
    this.outstanding = 0;
    this.queue = [];
    // A scenario whose runs take seconds each (gossip at 1,000 nodes) goes a run at a time, so progress moves and cancel is quick.
    const size = TEMPLATES[spec.template].runsPerBatch ?? BATCH_RUNS;
    for (let i = 0; i < jobs.length; i += size) this.queue.push(jobs.slice(i, i + size));
    if (this.queue.length === 0) {
      this.finish();
      return;
    }
    for (const worker of this.workers) if (!this.busy.has(worker)) this.feed(worker);
  }

  /** Stops handing out runs; batches already in a worker finish there and are dropped. */
  cancel(): void {
    this.queue = [];
    this.callbacks = null;
    this.spec = null;
    this.firstBatch = this.nextBatch;
  }

  private feed(worker: PoolWorker): void {
    const jobs = this.queue.shift();
    if (jobs === undefined || this.spec === null) return;
    this.busy.add(worker);
    this.outstanding++;
    worker.postMessage({ type: 'experiment-batch', batch: this.nextBatch++, spec: this.spec, jobs });
  }

  private answer(worker: PoolWorker, message: ExperimentWorkerToHost): void {
    this.busy.delete(worker);
    const current = message.batch >= this.firstBatch && this.callbacks !== null;
    if (current) {
      this.outstanding--;
      const callbacks = this.callbacks as PoolCallbacks;
      if (message.type === 'experiment-failed') {
        this.cancel();
        callbacks.onError(message.error);
        return;
      }
      callbacks.onResults(message.results);
    }
    if (this.callbacks === null) return;
    this.feed(worker);
    if (this.queue.length === 0 && this.outstanding === 0) this.finish();
  }

  private finish(): void {
    const callbacks = this.callbacks;
    this.callbacks = null;
    this.spec = null;
    callbacks?.onDone();
  }
}
