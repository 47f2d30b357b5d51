/**
 * Seeking benchmark: a busy 10-minute run (submits every 250 ms, lock traffic, crashes and
 * partitions), then seeks to random instants; each seek must take under 50 ms.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { makeConfig } from '../sim/model/config';
import { CPythonRandom } from '../sim/model/prng';
import { parseSchedule } from '../sim/model/schedule';
import { Timeline } from '../sim/run/timeline';

export const RUN_MS = 600_000;

export function busySchedule(runMs: number): string {
  const parts: string[] = [];
  for (let t = 250; t < runMs; t += 250) parts.push(`@${t} submit x=${t}`);
  for (let t = 5_000; t < runMs; t += 30_000) {
    parts.push(`@${t} crash n${1 + (((t / 30_000) % 5) | 0)}`, `@${t + 4_000} restart n${1 + (((t / 30_000) % 5) | 0)}`);
    parts.push(`@${t + 10_000} partition n1,n2 | n3,n4,n5`, `@${t + 13_000} heal`);
    parts.push(`@${t + 1_000} client A acquire job:42 3000`, `@${t + 1_500} client A write result=A`);
    parts.push(
      `@${t + 2_000} client B acquire job:42 3000`,
      `@${t + 9_000} client B acquire job:42 3000`,
      `@${t + 9_500} client B write result=B`,
    );
  }
  // Actions apply in the order written, so write them in time order.
  const at = (a: string) => Number(a.slice(1, a.indexOf(' ')));
  return parts.sort((a, b) => at(a) - at(b)).join('; ');
}

export function benchSeek(log: (line: string) => void = console.log): { medianMs: number; p95Ms: number; maxMs: number } {
  const config = makeConfig({ clientIds: ['A', 'B'] });
  const schedule = parseSchedule(busySchedule(RUN_MS));
  const started = performance.now();
  const timeline = new Timeline(config, schedule);
  timeline.advanceTo(RUN_MS);
  const buildMs = performance.now() - started;
  const rng = new CPythonRandom(1);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = rng.randint(0, RUN_MS);
    const s = performance.now();
    timeline.seek(t);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[times.length >> 1];
  const p95Ms = times[Math.floor(times.length * 0.95)];
  const maxMs = times[times.length - 1];
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  log(
    `seek in a 10-minute run (${schedule.length} actions, ${timeline.checkpointCount} checkpoints, built in ${buildMs.toFixed(0)} ms, heap ${heapMb.toFixed(0)} MB):`,
  );
  log(
    `  200 random seeks: median ${medianMs.toFixed(2)} ms, p95 ${p95Ms.toFixed(2)} ms, max ${maxMs.toFixed(2)} ms (target: every seek under 50 ms) ${maxMs < 50 ? 'OK' : 'MISSED'}`,
  );
  return { medianMs, p95Ms, maxMs };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) benchSeek();
