/**
 * History-checking benchmark (issue 15): a 10,000-operation lock-service history over 10 keys,
 * every model checked, must take under a second; a pathological single-key history must come
 * back "unknown" at its time limit instead of searching for ever.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { CheckedOp } from '../sim/check/linearizability/check';
import { VERDICT_NAMES, checkHistory, type LinearizabilityReport } from '../sim/check/linearizability/check';
import { CPythonRandom } from '../sim/model/prng';

/**
 * A linearizable history made by running a lock service one operation at a time: each operation
 * takes effect at its own instant, and its invocation and completion lie up to 20 ms either side,
 * so about eight operations of a key overlap at any time and the search has real choices.
 */
export function syntheticHistory(totalOps: number, keys: number, seed = 1): CheckedOp[] {
  const rng = new CPythonRandom(seed);
  const clients = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
  const held = new Map<string, { client: string; token: number }>();
  let nextToken = 1;
  const ops: CheckedOp[] = [];
  const push = (o: Omit<CheckedOp, 'id' | 'invokeMs' | 'completeMs'>, at: number) =>
    ops.push({ ...o, id: ops.length, invokeMs: at - rng.randint(0, 20), completeMs: at + rng.randint(0, 20) });
  for (let at = 100; ops.length < totalOps; at += 1) {
    const key = `k${rng.randbelow(keys)}`;
    const client = clients[rng.randbelow(clients.length)];
    const h = held.get(key);
    const base = { client, key, value: null, token: null, store: null, lockKey: null } as const;
    const roll = rng.randbelow(10);
    if (h === undefined) {
      const token = nextToken++;
      held.set(key, { client, token });
      push({ ...base, op: 'acquire', token, result: 'granted' }, at);
    } else if (roll < 5) {
      // The holder writes to both stores with its token; each store is its own object.
      for (const store of ['fenced', 'unfenced'] as const) {
        push(
          {
            ...base,
            client: h.client,
            op: 'write',
            key: `r${key}`,
            value: `${h.client}${at}`,
            token: h.token,
            store,
            lockKey: key,
            result: 'accepted',
          },
          at,
        );
      }
    } else if (roll < 7) {
      push({ ...base, op: 'acquire', result: h.client === client ? 'granted' : 'busy', token: h.client === client ? nextToken : null }, at);
      if (h.client === client) held.set(key, { client, token: nextToken++ });
    } else {
      held.delete(key);
      push({ ...base, client: h.client, op: 'release', token: h.token, result: 'released' }, at);
    }
  }
  return ops;
}

/**
 * One key, `n` clients granted tokens 1..n at once and writing with them at once, then a write of
 * token 1 after all of them: it cannot be ordered, but the grants commute, so the search must
 * try every subset of them (2^n configurations) to be sure.
 */
export function pathologicalHistory(n: number): CheckedOp[] {
  const ops: CheckedOp[] = [];
  const base = { key: 'job', value: null, store: null, lockKey: null } as const;
  for (let i = 0; i < n; i++) {
    const client = `C${i}`;
    ops.push({ ...base, id: ops.length, client, op: 'acquire', token: i + 1, invokeMs: 0, completeMs: 100, result: 'granted' });
  }
  for (let i = 0; i < n; i++) {
    ops.push({
      ...base,
      id: ops.length,
      client: `C${i}`,
      op: 'write',
      key: 'r',
      value: `v${i}`,
      token: i + 1,
      store: 'fenced',
      lockKey: 'job',
      invokeMs: 50,
      completeMs: 300,
      result: 'accepted',
    });
  }
  ops.push({
    ...base,
    id: ops.length,
    client: 'C0',
    op: 'write',
    key: 'r',
    value: 'late',
    token: 1,
    store: 'fenced',
    lockKey: 'job',
    invokeMs: 400,
    completeMs: 410,
    result: 'accepted',
  });
  return ops;
}

const verdictText = (report: LinearizabilityReport) =>
  VERDICT_NAMES.map((name) => {
    const v = report[name]?.linearizable;
    return `${name} ${v === true ? 'ok' : v === false ? 'FAIL' : String(v)}`;
  }).join(', ');

export function benchHistory(log: (line: string) => void = console.log): { largeMs: number; pathologicalMs: number; met: boolean } {
  const large = syntheticHistory(10_000, 10);
  // Warm the search up once (JIT), then time the median of five checks.
  checkHistory(large);
  const times: number[] = [];
  let report: LinearizabilityReport = {};
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    report = checkHistory(large, { clock: () => performance.now(), timeLimitMs: 10_000 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const largeMs = times[2];
  const largeOk = largeMs < 1000 && VERDICT_NAMES.every((n) => report[n]?.linearizable === true || report[n]?.linearizable === 'n/a');
  log(
    `history check, ${large.length.toLocaleString('en-US')} operations over 10 keys, every model: median ${largeMs.toFixed(1)} ms of 5 (target < 1000 ms, all linearizable) ${largeOk ? 'OK' : 'MISSED'}`,
  );
  log(`  verdicts: ${verdictText(report)}`);

  const limitMs = 500;
  const hard = pathologicalHistory(24);
  const started = performance.now();
  const hardReport = checkHistory(hard, { clock: () => performance.now(), timeLimitMs: limitMs });
  const pathologicalMs = performance.now() - started;
  const verdict = hardReport.fencedOrder?.linearizable;
  // Every model has its own limit; the fenced-order one is the one that explodes.
  const hardOk = verdict === 'unknown' && pathologicalMs < limitMs * VERDICT_NAMES.length + 500;
  log(
    `pathological single-key history (${hard.length} operations, 24 concurrent grants and writes): fencedOrder ${String(verdict)} ` +
      `after ${pathologicalMs.toFixed(0)} ms in all (time limit ${limitMs} ms per model) ${hardOk ? 'OK' : 'MISSED'}`,
  );
  return { largeMs, pathologicalMs, met: largeOk && hardOk };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = benchHistory().met ? 0 : 1;
}
