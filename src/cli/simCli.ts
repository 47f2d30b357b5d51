/**
 * `npm run sim -- [flags]`: the same core as the browser, run in Node. Kept as a function from
 * argv to (exit code, stdout, stderr) so tests call it directly.
 */
import {
  BUG_NAMES,
  DEFAULT_CONFIG,
  DEFAULT_SNAPSHOT_EVERY,
  READ_MODES,
  featuresOf,
  lockOptionsOf,
  MAX_CLIENTS,
  MAX_MS,
  MAX_NODES,
  MAX_SCALE_NODES,
  MIN_NODES,
  configFromFields,
  type ConfigFields,
  type FieldNames,
  type SimConfig,
  PROTOCOL_NAMES,
  isPaxosConfig,
  reentrantLocks,
} from '../sim/model/config';
import { attachPaxosInvariants } from '../sim/check/paxosInvariants';
import { PaxosSimulation } from '../sim/run/paxosSimulation';
import { paxosRunReport, paxosSummaryLines } from '../sim/view/paxosReport';
import { decodeLink } from '../share/link';
import { RTT_PRESETS, describeNetwork } from '../sim/model/network';
import { DEFAULT_FANOUT, DEFAULT_PHI, DEFAULT_PHI_WINDOW, DETECTORS, describeDetector } from '../sim/model/detector';
import { FEATURE_NAMES } from '../sim/model/features';
import { LOCK_OPTION_NAMES, LOCK_SERVICE_NAMES } from '../sim/model/lockServices';
import { PRESETS, findPreset } from '../sim/run/presets';
import { historyJson } from '../sim/model/history';
import { history as sayHistory, invariant as sayInvariant } from '../sim/model/describe';
import { checkHistory, violatedVerdicts } from '../sim/check/linearizability/check';
import { detailJson, interleavedLines, lockSummaryLines, runReport, summaryLines } from '../sim/view/report';
import { ScheduleError, checkSchedule, parseSchedule, type Action } from '../sim/model/schedule';
import { attachInvariants } from '../sim/check/invariants';
import { Simulation } from '../sim/run/simulation';
import { runTraceJson } from '../sim/view/traceJson';
import { MessageTally, lockMeasureLines, lockMeasures } from '../sim/view/lockMeasures';
import type { RunStop } from '../sim/view/traceTypes';
import { UsageError, parseFlags, wholeNumber } from './args';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files to write (`--trace FILE`): the caller writes them, so runSimCli stays a pure function. */
  readonly files?: readonly { readonly path: string; readonly text: string }[];
}

const FLAGS = [
  { name: 'seed', value: true },
  { name: 'nodes', value: true },
  { name: 'timeout', value: true },
  { name: 'heartbeat', value: true },
  { name: 'latency', value: true },
  { name: 'schedule', value: true },
  { name: 'until', value: true },
  { name: 'submit-every', value: true },
  { name: 'preset', value: true },
  { name: 'clients', value: true },
  { name: 'bugs', value: true },
  { name: 'features', value: true },
  { name: 'snapshot-every', value: true },
  { name: 'read-mode', value: true },
  { name: 'protocol', value: true },
  { name: 'backoff', value: true },
  { name: 'lock', value: true },
  { name: 'lock-options', value: true },
  // Issue 28: regions and their round trips, and the failure detector with its settings.
  { name: 'regions', value: true },
  { name: 'rtt', value: true },
  { name: 'persist', value: true },
  { name: 'detector', value: true },
  { name: 'phi', value: true },
  { name: 'phi-window', value: true },
  { name: 'fanout', value: true },
  { name: 'gossip-round', value: true },
  { name: 'suspect-after', value: true },
  { name: 'takeover', value: true },
  { name: 'link', value: true },
  { name: 'trace', value: true },
  { name: 'json', value: false },
  { name: 'verbose', value: false },
  { name: 'no-check', value: false },
  { name: 'help', value: false },
] as const;

export const SIM_USAGE = `Usage: npm run sim -- [flags]
  --seed N            PRNG seed, any non-negative integer (default 42)
  --nodes N           cluster size ${MIN_NODES}-${MAX_NODES} (up to ${MAX_SCALE_NODES} with --detector gossip), ids n1..nN (default 5)
  --timeout A-B       election timeout range in ms (default 150-300)
  --heartbeat MS      leader heartbeat interval in ms (default 50)
  --latency A-B       message latency range in ms (default 5-15; fractions like 0.2-0.3 run on
                      microseconds), or lognormal:MEDIAN:SPREAD (like lognormal:10:0.5)
  --regions "TEXT"    place nodes, clients and stores: "us-east=n1,n2,A; us-west=n3,n4; eu-west=n5,B"
  --rtt NAME          round trips between regions: ${RTT_PRESETS.join(', ')} (0.5 ms inside one), or
                      "us-east/eu-west=75, ..."; a message takes half its link's round trip, ±10%
  --persist MS        a server's disk write before it replies (Figure 2: stable storage before
                      responding): VoteReply, AppendReply and InstallSnapshotReply leave MS later
                      (0-10000, fractions to the µs; default none)
  --detector NAME     failure detector for elections and lock handover: ${DETECTORS.join(', ')} (default fixed)
  --phi PHI           phi-accrual: suspicion threshold Φ (default ${DEFAULT_PHI}); --phi-window N heartbeats kept (default ${DEFAULT_PHI_WINDOW})
  --fanout K          gossip: peers told each round (default ${DEFAULT_FANOUT}); --gossip-round MS (default: the
                      heartbeat); --suspect-after MS without news (default: the shortest election timeout)
  --takeover MS       fixed: the lock service hands a lock over once its holder sent no keep-alive for MS
  --schedule "TEXT"   actions like "@1168 crash n2; @1360 restart n2"
  --until MS          simulate until this time (default: preset's, else last action + 1000, at least 2000)
  --submit-every K    at every multiple of K ms, submit x=<i> to the leader
  --clients A,B       lock-service clients (one capital letter each, at most ${MAX_CLIENTS})
  --bugs a,b          switch on bugs: ${BUG_NAMES.join(', ')}
  --features a,b      switch on protocol features (off: the chapter's Raft): ${FEATURE_NAMES.join(', ')}
  --snapshot-every N  with the snapshots feature: compact after N applied entries (default ${DEFAULT_SNAPSHOT_EVERY})
  --read-mode MODE    with reads: how a get that names no mode is answered: ${READ_MODES.join(', ')} (default log)
  --lock NAME         the lock service: ${LOCK_SERVICE_NAMES.join(', ')} (default raft, the chapter's)
  --lock-options L    the lock service's switches: ${LOCK_OPTION_NAMES.join(', ')} (see --lock's docs)
  --preset NAME       ${PRESETS.map((p) => p.name).join(', ')}
  --link URL          replay a share link (its run, until its time unless --until is given)
  --trace FILE        also write the run's trace (versioned JSON: messages and state spans) to FILE
  --protocol NAME     ${PROTOCOL_NAMES.join(', ')} (default raft; Paxos runs take propose, crash, restart, partition, heal, loss, calm)
  --backoff A-B       Paxos: a pre-empted proposer waits a random A-B ms before it prepares again (default: at once)
  --json              print one JSON object instead of text (detail events in "details", client
                      operations in "history", linearizability verdicts in "linearizable")
  --verbose           interleave detail events (marked ·) with the chapter's lines
  --no-check          skip the invariant checks (measure the bare engine)
Exit codes: 0 every invariant held, 1 a violation was found, 2 a bad flag or schedule.`;

/** Configuration errors name the flag the person typed. */
const FLAG_NAMES: FieldNames = {
  seed: '--seed',
  nodes: '--nodes',
  timeout: '--timeout',
  heartbeat: '--heartbeat',
  latency: '--latency',
  clients: '--clients',
  bugs: '--bugs',
  features: '--features',
  snapshotEvery: '--snapshot-every',
  readMode: '--read-mode',
  protocol: '--protocol',
  backoff: '--backoff',
  lock: '--lock',
  lockOptions: '--lock-options',
  regions: '--regions',
  rtt: '--rtt',
  persist: '--persist',
  detector: '--detector',
  phi: '--phi',
  window: '--phi-window',
  fanout: '--fanout',
  round: '--gossip-round',
  suspect: '--suspect-after',
  takeover: '--takeover',
};

export interface ResolvedRun {
  readonly config: SimConfig;
  readonly schedule: Action[];
  readonly untilMs: number;
  readonly submitEveryMs: number | null;
  readonly json: boolean;
  readonly verbose: boolean;
  readonly check: boolean;
  /** Where to write the run's trace (`--trace`), or null. */
  readonly tracePath: string | null;
}

/** Flags that describe the run itself: a share link already gives all of them. */
const RUN_FLAGS = [
  'preset',
  'seed',
  'nodes',
  'timeout',
  'heartbeat',
  'latency',
  'clients',
  'bugs',
  'features',
  'read-mode',
  'lock',
  'lock-options',
  'schedule',
  'snapshot-every',
  'protocol',
  'backoff',
  'regions',
  'rtt',
  'persist',
  'detector',
  'phi',
  'phi-window',
  'fanout',
  'gossip-round',
  'suspect-after',
  'takeover',
] as const;

/** Turns flags into a checked run description, or throws a UsageError with one sentence. */
export function resolveRun(argv: readonly string[]): ResolvedRun | 'help' {
  const flags = parseFlags(argv, FLAGS);
  if (flags.has('help')) return 'help';
  const str = (name: string) => {
    const v = flags.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const link = str('link');
  if (link !== undefined) return resolveLink(link, flags, str);
  let config: SimConfig = DEFAULT_CONFIG;
  let scheduleText = '';
  let untilMs: number | null = null;
  const presetName = str('preset');
  if (presetName !== undefined) {
    const preset = findPreset(presetName);
    if (!preset) throw new UsageError(`Unknown preset "${presetName}"; the presets are ${PRESETS.map((p) => p.name).join(', ')}.`);
    config = preset.config;
    scheduleText = preset.schedule;
    untilMs = preset.untilMs;
  }
  const fields: ConfigFields = {
    seed: str('seed'),
    nodes: str('nodes'),
    timeout: str('timeout'),
    heartbeat: str('heartbeat'),
    latency: str('latency'),
    clients: str('clients'),
    bugs: str('bugs'),
    features: str('features'),
    snapshotEvery: str('snapshot-every'),
    readMode: str('read-mode'),
    protocol: str('protocol'),
    backoff: str('backoff'),
    lock: str('lock'),
    lockOptions: str('lock-options'),
    regions: str('regions'),
    rtt: str('rtt'),
    persist: str('persist'),
    detector: str('detector'),
    phi: str('phi'),
    window: str('phi-window'),
    fanout: str('fanout'),
    round: str('gossip-round'),
    suspect: str('suspect-after'),
    takeover: str('takeover'),
  };
  const checked = configFromFields(config, fields, FLAG_NAMES);
  if (typeof checked === 'string') throw new UsageError(checked);
  config = checked;
  const scheduleFlag = str('schedule');
  if (scheduleFlag !== undefined) scheduleText = scheduleFlag;
  let schedule: Action[];
  try {
    schedule = parseSchedule(scheduleText);
  } catch (error) {
    if (error instanceof ScheduleError) throw new UsageError(error.message);
    throw error;
  }
  const scheduleProblem = checkSchedule(schedule, config);
  if (scheduleProblem) throw new UsageError(scheduleProblem);
  const until = str('until');
  if (until !== undefined) untilMs = wholeNumber(until, 'until', 0, MAX_MS);
  if (untilMs === null) untilMs = Math.max(2000, ...schedule.map((a) => a.at + 1000));
  return { config, schedule, untilMs, ...outputOptions(flags, str) };
}

type FlagText = (name: string) => string | undefined;

/** What every run takes besides its description: load, output and checks. */
function outputOptions(flags: Map<string, string | true>, str: FlagText) {
  const every = str('submit-every');
  const submitEveryMs = every === undefined ? null : wholeNumber(every, 'submit-every', 1, MAX_MS);
  const tracePath = str('trace') ?? null;
  if (tracePath === '') throw new UsageError('--trace needs a file name.');
  return { submitEveryMs, json: flags.has('json'), verbose: flags.has('verbose'), check: !flags.has('no-check'), tracePath };
}

/** `--link URL`: the link's run, until its time unless --until says otherwise. */
function resolveLink(link: string, flags: Map<string, string | true>, str: FlagText): ResolvedRun {
  const clash = RUN_FLAGS.find((name) => flags.has(name));
  if (clash !== undefined) throw new UsageError(`--link already gives the run, so it cannot be combined with --${clash}.`);
  // The command line keeps its own limit (MAX_MS), not the page's 600 s.
  const decoded = decodeLink(link, { pageCap: false });
  if (!decoded.ok) throw new UsageError(decoded.error);
  const until = str('until');
  const untilMs = until !== undefined ? wholeNumber(until, 'until', 0, MAX_MS) : decoded.spec.atMs;
  return { config: decoded.spec.config, schedule: [...decoded.spec.schedule], untilMs, ...outputOptions(flags, str) };
}

export function header(config: SimConfig): string {
  const [tMin, tMax] = config.electionTimeoutMs;
  const clients = config.clientIds.length > 0 ? `, clients ${config.clientIds.join(', ')}` : '';
  const bugs = config.bugs.length > 0 ? `, bugs ${config.bugs.join(', ')}` : '';
  // Named only when some are on: a run of the chapter's Raft prints the chapter's header.
  const features = featuresOf(config).length > 0 ? `, features ${featuresOf(config).join(', ')}` : '';
  if (isPaxosConfig(config)) return paxosHeader(config);
  return `${config.nodeIds.length} nodes, election timeout ${tMin}-${tMax} ms, heartbeat every ${config.heartbeatMs} ms, ${describeNetwork(config)}, seed ${String(config.seed)}${clients}${bugs}${features}${config.snapshotEvery !== undefined ? `, snapshot every ${config.snapshotEvery} entries` : ''}${config.readMode !== undefined ? `, read mode ${config.readMode}` : ''}${config.detector !== undefined ? `, detector ${describeDetector(config.detector, config)}` : ''}${lockHeader(config)}`;
}

/** A report's violations in --json, the same keys for either protocol. */
function violationsJson(
  violations: readonly { invariant: string; title: string; t: number; nodes: readonly string[]; sentence: string; line: string }[],
) {
  return violations.map(({ invariant, title, t, nodes, sentence, line }) => ({ invariant, title, t, nodes, sentence, line }));
}

/** Named only when it is not the chapter's: a raft run prints the chapter's header. */
function lockHeader(config: SimConfig): string {
  if (config.lock === undefined) return '';
  const options = lockOptionsOf(config);
  return `, lock service ${config.lock}${options.length > 0 ? ` (${options.join(', ')})` : ''}`;
}

export function runSimCli(argv: readonly string[], clock: () => number = () => 0): CliResult {
  let run: ResolvedRun | 'help';
  try {
    run = resolveRun(argv);
  } catch (error) {
    if (error instanceof UsageError) return { code: 2, stdout: '', stderr: error.message + '\n' };
    throw error;
  }
  if (run === 'help') return { code: 0, stdout: SIM_USAGE + '\n', stderr: '' };
  if (isPaxosConfig(run.config)) return runPaxosCli(run, clock);
  // The schedule was checked against the configuration above, so it joins the run after the
  // checker does: an action at time 0 that makes the engine throw is reported like the rest.
  // Detail events are recorded only when they are printed; recording changes nothing else.
  const sim = new Simulation(run.config, [], { submitEveryMs: run.submitEveryMs, recordDetails: run.json || run.verbose });
  // Every invariant is checked after every simulated millisecond, here as in tests and the page.
  const checker = run.check ? attachInvariants(sim) : null;
  // Counts what operations cost on the wire (it only observes; the trace file, if any, is made by a run of its own).
  const tally = sim.lockService !== null ? (sim.cluster.tracer = new MessageTally()) : null;
  const started = clock();
  let stop: RunStop | null = null;
  try {
    sim.replaceFutureActions(run.schedule);
    sim.applyDue();
    sim.advanceTo(run.untilMs);
  } catch (error) {
    // An exception inside the engine is a finding like any violation: report it, do not crash.
    if (checker === null) throw error;
    checker.recordCrash(error);
    // The report ends here; so does the trace, which says so (it replays without the checker).
    stop = { atMs: sim.nowMs, reason: sayInvariant.engineThrew(sayInvariant.thrown(error)) };
  }
  const wallMs = clock() - started;
  const simMsPerSec = wallMs > 0 ? Math.round((run.untilMs / wallMs) * 1000) : null;
  // The clients' history, checked once at the end; with the checker on, a failed lock-service or
  // fenced-order verdict is one of its violations (as in the fuzzer), so text and JSON agree.
  const historyOps = sim.lockService?.history.ops ?? null;
  const historyOptions = { clock, timeLimitMs: CHECK_TIME_LIMIT_MS, reentrant: reentrantLocks(run.config) };
  const verdicts =
    historyOps === null ? null : checker !== null ? checker.checkHistory(historyOptions) : checkHistory(historyOps, historyOptions);
  const broken = violated(checker) || (checker === null && verdicts !== null && violatedVerdicts(verdicts).length > 0);
  if (run.json) {
    const invariants = checker
      ? {
          checked: true,
          violations: violationsJson(checker.violations),
          staleWritesAccepted: checker.findings.length,
          leasesEndedEarlyUnderDrift: checker.leaseFindings.filter((f) => f.why === undefined).length,
          // Issue 28: locks a failure detector handed over while their holder still counted its lease
          // (only when there are any: a report of a run without a detector keeps its bytes).
          ...twoHolders(checker.leaseFindings),
          liveness: checker.liveness,
        }
      : { checked: false };
    const { now, events, ...rest } = runReport(sim.cluster, sim.lockService);
    const details = sim.cluster.details.map(detailJson);
    const checked = historyOps !== null && verdicts !== null ? { history: historyJson(historyOps), linearizable: verdicts } : null;
    // Issue 26's measures, for every run with clients: overlaps from the clients' own view, and the rest.
    const measures = lockMeasures(sim, tally);
    const report = {
      now,
      events,
      details,
      ...rest,
      ...checked,
      ...(measures !== null ? { overlaps: measures.overlaps, lockMeasures: measures } : {}),
      invariants,
      stats: { wallMs: Math.round(wallMs * 1000) / 1000, simMsPerSec },
    };
    return { code: broken ? 1 : 0, stdout: JSON.stringify(report, null, 2) + '\n', stderr: '', ...traceFiles(run, stop) };
  }
  const eventLines = run.verbose ? interleavedLines(sim.cluster.events, sim.cluster.details) : sim.cluster.events.map((e) => e.line);
  const backend = sim.lockService?.backend ?? null;
  const raftLines = sim.cluster.raftActive ? summaryLines(sim.cluster) : [];
  const lines = [header(run.config), ...eventLines, ...raftLines, ...(backend !== null ? backend.summaryLines() : [])];
  if (sim.lockService) lines.push(...lockSummaryLines(sim.lockService));
  // The lock measures are printed for another service, or when --lock was given (the chapter's runs print the chapter's lines).
  const named = argv.some((a) => a === '--lock' || a.startsWith('--lock='));
  const measures = run.config.lock !== undefined || named ? lockMeasures(sim, tally) : null;
  if (measures !== null) lines.push(...lockMeasureLines(measures));
  if (verdicts !== null) lines.push(sayHistory.verdictLine(verdicts));
  if (checker) {
    if (checker.violations.length === 0) lines.push('invariants: every invariant held at every millisecond');
    else lines.push(...checker.violations.map((v) => v.line));
    if (checker.liveness.state !== 'idle') lines.push(`liveness ${checker.liveness.state}: ${checker.liveness.note}`);
    if (checker.findings.length > 0)
      lines.push(`findings: the unfenced store accepted ${checker.findings.length} write(s) from clients whose lease had ended`);
    const drifted = checker.leaseFindings.filter((f) => f.why === undefined).length;
    if (drifted > 0) {
      lines.push(`findings: with clock drift set, the service ended ${drifted} lease(s) before the client's own count ran out`);
    }
    // Issue 28: the service's failure detector handed a lock over while its holder still counted its lease.
    const taken = checker.leaseFindings.filter((f) => f.why === 'takeover');
    if (taken.length > 0) {
      lines.push(
        `findings: two holders — the service's failure detector handed ${taken.length} lock(s) over while the holder still counted its lease (${taken.map((f) => `${f.client} on ${f.key} until t=${f.deadline} ms`).join('; ')}): the takeover threshold must exceed the TTL`,
      );
    }
  }
  return { code: broken ? 1 : 0, stdout: lines.join('\n') + '\n', stderr: '', ...traceFiles(run, stop) };
}

function twoHolders(findings: readonly { readonly why?: 'takeover' }[]): { twoHolders?: number } {
  const n = findings.filter((f) => f.why === 'takeover').length;
  return n > 0 ? { twoHolders: n } : {};
}

/** Per model, the search may take this long before it answers "unknown". */
export const CHECK_TIME_LIMIT_MS = 2000;

/** `--trace FILE`: the run's trace, made by the same function the page's Export uses. */
function traceFiles(run: ResolvedRun, stop: RunStop | null): Pick<CliResult, 'files'> {
  if (run.tracePath === null) return {};
  return { files: [{ path: run.tracePath, text: runTraceJson(run.config, run.schedule, run.untilMs, run.submitEveryMs, stop) }] };
}

/** A run that shows a violation exits 1, so a replayed counterexample fails where it is run. */
function violated(checker: { readonly violations: readonly unknown[] } | null): boolean {
  return checker !== null && checker.violations.length > 0;
}

/** A Paxos run's first line: the protocol, the settings it reads, and its bugs and back-off. */
function paxosHeader(config: SimConfig): string {
  const [tMin, tMax] = config.electionTimeoutMs;
  const [lMin, lMax] = config.latencyMs;
  const multi = config.protocol === 'multi-paxos';
  const timing = multi
    ? `election timeout ${tMin}-${tMax} ms, heartbeat every ${config.heartbeatMs} ms`
    : `retry after ${tMax} ms without a majority`;
  const backoff = config.backoffMs !== undefined ? `, back-off ${config.backoffMs[0]}-${config.backoffMs[1]} ms` : '';
  const bugs = config.bugs.length > 0 ? `, bugs ${config.bugs.join(', ')}` : '';
  return `${config.nodeIds.length} nodes, protocol ${config.protocol}, ${timing}, latency ${lMin}-${lMax} ms, seed ${String(config.seed)}${backoff}${bugs}`;
}

/**
 * A Paxos run (`--protocol paxos|multi-paxos`), with every Paxos invariant checked as it goes
 * (check/paxosInvariants.ts): the same flags, output shapes and exit codes as a Raft run.
 */
function runPaxosCli(run: ResolvedRun, clock: () => number): CliResult {
  const sim = new PaxosSimulation(run.config, [], { submitEveryMs: run.submitEveryMs, recordDetails: run.json || run.verbose });
  const checker = run.check ? attachPaxosInvariants(sim) : null;
  const started = clock();
  try {
    sim.replaceFutureActions(run.schedule);
    sim.applyDue();
    sim.advanceTo(run.untilMs);
  } catch (error) {
    if (checker === null) throw error;
    checker.recordCrash(error);
  }
  const wallMs = clock() - started;
  const broken = checker !== null && checker.violations.length > 0;
  const files =
    run.tracePath === null
      ? {}
      : { files: [{ path: run.tracePath, text: runTraceJson(run.config, run.schedule, run.untilMs, run.submitEveryMs) }] };
  if (run.json) {
    const { now, events, ...rest } = paxosRunReport(sim.cluster);
    const report = {
      now,
      events,
      details: sim.cluster.details.map(detailJson),
      ...rest,
      invariants: checker
        ? {
            checked: true,
            violations: violationsJson(checker.violations),
          }
        : { checked: false },
      stats: { wallMs: Math.round(wallMs * 1000) / 1000 },
    };
    return { code: broken ? 1 : 0, stdout: JSON.stringify(report, null, 2) + '\n', stderr: '', ...files };
  }
  const c = sim.cluster;
  const eventLines = run.verbose ? interleavedLines(c.events, c.details) : c.events.map((e) => e.line);
  const lines = [header(run.config), ...eventLines, ...paxosSummaryLines(c)];
  if (checker) {
    if (checker.violations.length === 0) lines.push('invariants: every Paxos invariant held at every millisecond');
    else lines.push(...checker.violations.map((v) => v.line));
  }
  return { code: broken ? 1 : 0, stdout: lines.join('\n') + '\n', stderr: '', ...files };
}
