/**
 * The chapter's trade-off table, measured (issue 26 item 4): every lock service over the same
 * seeds and the same faults, each cell filled from runs, the chapter's own words beside it.
 *
 * Three scenarios, each a fixed schedule (so a cell's run replays from its link exactly):
 * - pause: A takes `job`, writes, and stops the world past its TTL (Kleppmann's pause); its next
 *   write leaves when it wakes. B asks for `job` after A's lease would have run out, and writes.
 *   Measured: whether two clients believed they held `job` at once, whether the unfenced store
 *   took A's stale write after B's, and whether the fenced store did.
 * - crash: A takes `job` and crashes; B asks every 500 ms. Measured: the time to B's grant.
 * - quiet: one acquire on a settled service. Measured: the messages and round trips it cost
 *   (what operations caused: heartbeats, pings and keep-alives left out; view/lockMeasures.ts).
 * Write cost in the chapter's units (a majority hop ~500 µs, Redis ~100k ops/s) is the chapter's
 * constant from the service's manifest, labelled so, never pretended to be measured.
 */
import { serverIdsFor, type SimConfig } from '../model/config';
import { LOCK_SERVICES, lockServiceManifest, type ChapterRow, type LockServiceName } from '../model/lockServices';
import { freezeAction, type Action, type ActionBody } from '../model/schedule';
import { Simulation } from '../run/simulation';
import { MessageTally, lockMeasures, type LockMeasures } from '../view/lockMeasures';

export const COMPARE_SCENARIOS = ['pause', 'crash', 'quiet'] as const;
export type CompareScenario = (typeof COMPARE_SCENARIOS)[number];

/** The lease every scenario's clients ask for, and A's pause (twice the lease). */
export const COMPARE_LEASE_MS = 2000;
export const COMPARE_PAUSE_MS = 5000;

/** A run a cell opens: with its configuration and schedule, run until `untilMs`, it shows the cell. */
export interface CompareRun {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  readonly untilMs: number;
}

const at = (t: number, body: ActionBody): Action => freezeAction({ at: t, ...body } as Action);
const c = (client: string, intent: Extract<ActionBody, { verb: 'client' }>['intent']): ActionBody => ({ verb: 'client', client, intent });

/** The scenario's schedule and length. */
export function scenarioSchedule(scenario: CompareScenario): { schedule: Action[]; untilMs: number } {
  const lease = COMPARE_LEASE_MS;
  switch (scenario) {
    case 'pause':
      return {
        schedule: [
          at(500, c('A', { op: 'acquire', key: 'job', leaseMs: lease })),
          at(900, c('A', { op: 'write', key: 'job', value: 'A1' })),
          at(1000, c('A', { op: 'pause', ms: COMPARE_PAUSE_MS })),
          // Sent when A wakes (t=6000): a write from a holder whose lease ran out long ago.
          at(1000, c('A', { op: 'write', key: 'job', value: 'A2' })),
          // B asks once A's lease would have run out, and again a second later; it writes before A wakes.
          at(1000 + lease + 500, c('B', { op: 'acquire', key: 'job', leaseMs: 3 * lease })),
          at(1000 + lease + 1500, c('B', { op: 'acquire', key: 'job', leaseMs: 3 * lease })),
          at(1000 + lease + 2000, c('B', { op: 'write', key: 'job', value: 'B1' })),
        ],
        untilMs: 1000 + COMPARE_PAUSE_MS + 2000,
      };
    case 'crash': {
      const asks = Array.from({ length: 16 }, (_, i) => at(1100 + 500 * i, c('B', { op: 'acquire', key: 'job', leaseMs: lease })));
      return {
        schedule: [at(500, c('A', { op: 'acquire', key: 'job', leaseMs: lease })), at(1000, c('A', { op: 'crash' })), ...asks],
        untilMs: 10_000,
      };
    }
    case 'quiet':
      return { schedule: [at(500, c('A', { op: 'acquire', key: 'job', leaseMs: lease }))], untilMs: 1500 };
  }
}

/** The configuration of one service's run: the chapter's timings, its default servers, clients A and B. */
export function compareConfig(lock: LockServiceName, seed: number): SimConfig {
  const m = lockServiceManifest(lock);
  return {
    seed,
    nodeIds: serverIdsFor(lock, m.defaultServers),
    electionTimeoutMs: [150, 300],
    heartbeatMs: 50,
    latencyMs: [5, 15],
    clientIds: ['A', 'B'],
    bugs: [],
    ...(lock !== 'raft' ? { lock } : {}),
  };
}

/** One run's measures. */
export function runScenario(lock: LockServiceName, scenario: CompareScenario, seed: number): { run: CompareRun; measures: LockMeasures } {
  const config = compareConfig(lock, seed);
  const { schedule, untilMs } = scenarioSchedule(scenario);
  const sim = new Simulation(config, schedule);
  const tally = new MessageTally();
  sim.cluster.tracer = tally;
  sim.advanceTo(untilMs);
  const measures = lockMeasures(sim, tally);
  if (measures === null) throw new Error('a compare run has clients');
  return { run: { config, schedule, untilMs }, measures };
}

/** A measured cell: the figure, how many runs it rests on, and the run that shows it (null: none does). */
export interface Cell {
  readonly text: string;
  readonly run: CompareRun | null;
}

export interface ServiceRow {
  readonly service: LockServiceName;
  readonly title: string;
  readonly chapter: ChapterRow;
  /** Runs in which two clients believed they held the lock at once (pause scenario). */
  readonly overlap: Cell & { readonly runs: number; readonly of: number };
  /** Runs in which the unfenced store took A's stale write after B's. */
  readonly unfenced: Cell & { readonly runs: number; readonly of: number };
  /** Runs in which the fenced store took it; null: the service has no token, so the fenced store refuses every write. */
  readonly fenced: (Cell & { readonly runs: number; readonly of: number }) | null;
  /** Median ms from A's crash to B's grant (null: B was granted in no run). */
  readonly failover: Cell & { readonly medianMs: number | null; readonly granted: number; readonly of: number };
  readonly messagesPerAcquire: Cell & { readonly median: number | null };
  readonly roundTripsPerAcquire: number | null;
  readonly token: string | null;
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The run closest to a median (the first such seed). */
function closest<T>(items: readonly T[], value: (t: T) => number | null, target: number | null): T | null {
  if (target === null) return null;
  let best: T | null = null;
  let gap = Infinity;
  for (const it of items) {
    const v = value(it);
    if (v === null) continue;
    if (Math.abs(v - target) < gap) {
      gap = Math.abs(v - target);
      best = it;
    }
  }
  return best;
}

/** One run of the comparison. */
export interface CompareJob {
  readonly lock: LockServiceName;
  readonly scenario: CompareScenario;
  readonly seed: number;
}

export interface CompareResult extends CompareJob {
  readonly run: CompareRun;
  readonly measures: LockMeasures;
}

/** Every run of the comparison, service by service, scenario by scenario, seed by seed (the page runs them a few at a time). */
export function compareJobs(seeds: number, firstSeed: number): CompareJob[] {
  return LOCK_SERVICES.flatMap((m) =>
    COMPARE_SCENARIOS.flatMap((scenario) => Array.from({ length: seeds }, (_, i) => ({ lock: m.name, scenario, seed: firstSeed + i }))),
  );
}

export function runJob(job: CompareJob): CompareResult {
  return { ...job, ...runScenario(job.lock, job.scenario, job.seed) };
}

/** Every service's row, over `seeds` seeds from `firstSeed`. */
export function compareLocks(seeds: number, firstSeed: number): ServiceRow[] {
  return rowsOf(compareJobs(seeds, firstSeed).map(runJob));
}

/** The rows of the services every scenario of which has results (in the registry's order). */
export function rowsOf(results: readonly CompareResult[]): ServiceRow[] {
  const rows: ServiceRow[] = [];
  for (const m of LOCK_SERVICES) {
    const lock = m.name;
    const of = (s: CompareScenario) => results.filter((r) => r.lock === lock && r.scenario === s);
    const pause = of('pause');
    const crash = of('crash');
    const quiet = of('quiet');
    if (pause.length === 0 || crash.length === 0 || quiet.length === 0) continue;
    const share = (hit: (x: LockMeasures) => boolean) => {
      const hits = pause.filter((p) => hit(p.measures));
      return { runs: hits.length, of: pause.length, text: `${hits.length}/${pause.length} runs`, run: (hits[0] ?? pause[0]).run };
    };
    const failovers = crash.map((x) => ({ x, ms: x.measures.failovers.find((f) => f.client === 'A')?.nextGrantMs ?? null }));
    const granted = failovers.filter((f) => f.ms !== null);
    const med = median(granted.map((f) => f.ms as number));
    const msgs = quiet.map((q) => ({ q, v: q.measures.messagesPerAcquire }));
    const msgMed = median(msgs.flatMap((x) => (x.v !== null ? [x.v] : [])));
    rows.push({
      service: lock,
      title: m.title,
      chapter: m.chapter,
      overlap: share((x) => x.overlaps.some((o) => o.key === 'job')),
      unfenced: share((x) => x.unfencedOutOfOrder > 0),
      fenced: m.token !== null ? share((x) => x.fencedStaleAccepted > 0) : null,
      failover: {
        medianMs: med,
        granted: granted.length,
        of: crash.length,
        text:
          med === null
            ? `B was granted in none of ${crash.length} runs`
            : `median ${Math.round(med)} ms (${granted.length}/${crash.length} runs granted)`,
        run: closest(failovers, (f) => f.ms, med)?.x.run ?? crash[0].run,
      },
      messagesPerAcquire: {
        median: msgMed,
        text: msgMed === null ? 'no acquire granted' : `${msgMed} messages`,
        run: closest(msgs, (x) => x.v, msgMed)?.q.run ?? quiet[0].run,
      },
      roundTripsPerAcquire: median(
        quiet.flatMap((q) => (q.measures.roundTripsPerAcquire !== null ? [q.measures.roundTripsPerAcquire] : [])),
      ),
      token: m.token,
    });
  }
  return rows;
}
