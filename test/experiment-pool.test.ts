/** The page's experiment pool with fake workers: batches spread over workers, results as they come, cancel drops late answers. */
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../src/share/link';
import { planExperiment, jobsOf, runJob, type ExperimentSpec } from '../src/sim/experiments/experiment';
import { parseSweep, type Sweep } from '../src/sim/experiments/sweep';
import { BATCH_RUNS, ExperimentPool, type PoolWorker } from '../src/ui/experiments/experimentPool';
import { runExperimentBatch } from '../src/worker/experimentBatch';
import type { ExperimentWorkerToHost, HostToExperimentWorker } from '../src/worker/protocol';

/** A worker that holds each batch until the test lets it answer (through the real batch runner). */
class HeldWorker implements PoolWorker {
  readonly inbox: HostToExperimentWorker[] = [];
  private listener: ((event: MessageEvent<ExperimentWorkerToHost>) => void) | null = null;
  postMessage(message: HostToExperimentWorker): void {
    this.inbox.push(message);
  }
  addEventListener(_type: 'message', listener: (event: MessageEvent<ExperimentWorkerToHost>) => void): void {
    this.listener = listener;
  }
  answer(): void {
    const message = this.inbox.shift();
    if (message) this.listener?.({ data: runExperimentBatch(message) } as MessageEvent<ExperimentWorkerToHost>);
  }
}

const spec: ExperimentSpec = { template: 'crash-leader', sweep: parseSweep('timeout=150-300,300-600') as Sweep, seeds: 30, firstSeed: 1 };

describe('the experiment pool', () => {
  it('hands one batch to each worker at a time, reports results as they come, and finishes with every run once', () => {
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const jobs = jobsOf(spec, points);
    const workers: HeldWorker[] = [];
    const pool = new ExperimentPool(() => {
      const w = new HeldWorker();
      workers.push(w);
      return w;
    }, 2);
    const got: number[] = [];
    const all: string[] = [];
    let done = false;
    pool.start(spec, jobs, {
      onResults: (r) => (got.push(r.length), all.push(...r.map((x) => encodeLink(x.run)))),
      onDone: () => (done = true),
      onError: (e) => expect.fail(e),
    });
    expect(workers.map((w) => w.inbox.length)).toEqual([1, 1]);
    workers[0].answer();
    expect(got).toEqual([BATCH_RUNS]);
    expect(workers[0].inbox.length).toBe(1);
    while (!done) for (const w of workers) w.answer();
    expect(all.length).toBe(60);
    expect(new Set(all).size).toBe(60);
    expect(all.sort()).toEqual(jobs.map((j) => encodeLink(runJob(spec, points, j).run)).sort());
  });

  it('after cancel, answers to the old experiment are dropped and a new one starts clean', () => {
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const workers: HeldWorker[] = [];
    const pool = new ExperimentPool(() => {
      const w = new HeldWorker();
      workers.push(w);
      return w;
    }, 2);
    let old = 0;
    pool.start(spec, jobsOf(spec, points), { onResults: (r) => (old += r.length), onDone: () => {}, onError: () => {} });
    pool.cancel();
    let fresh = 0;
    let done = false;
    const small: ExperimentSpec = { ...spec, seeds: 2 };
    pool.start(small, jobsOf(small, points), { onResults: (r) => (fresh += r.length), onDone: () => (done = true), onError: () => {} });
    while (!done) for (const w of workers) w.answer();
    expect(old).toBe(0);
    expect(fresh).toBe(4);
  });

  it('a spec that cannot run comes back as one sentence', () => {
    const bad: ExperimentSpec = { ...spec, sweep: { param: 'heartbeat', values: [500] } };
    const answer = runExperimentBatch({ type: 'experiment-batch', batch: 0, spec: bad, jobs: [{ point: 0, seed: 1 }] });
    expect(answer).toEqual({
      type: 'experiment-failed',
      batch: 0,
      error: expect.stringMatching(/^At heartbeat=500 the run cannot be made: Heartbeat interval/),
    });
  });
});
