/**
 * `npm run fuzz -- --runs N --seed S [--bug NAME]`: swarm fuzzing with every invariant on, and
 * `npm run fuzz -- --self-check`: every switchable bug's calibration. Kept as a function from argv
 * to an exit code, writing through two sinks, so tests call it directly: 0 when every run holds
 * (or every bug is found), 1 with a shrunk counterexample (or a bug not found), 2 for a bad flag.
 */
import { encodeLink } from '../share/link';
import {
  BUG_NAMES,
  PAXOS_BUG_NAMES,
  PROTOCOL_NAMES,
  bugsOfService,
  featuresOf,
  lockServiceOfBug,
  type BugName,
  type LockServiceName,
  type SimConfig,
} from '../sim/model/config';
import { LOCK_SERVICE_NAMES, isLockServiceName, lockServiceManifest } from '../sim/model/lockServices';
import { paxosBugsOf, type PaxosBugName } from '../sim/model/features';
import { PAXOS_FUZZ_MS, paxosFuzz } from '../sim/check/fuzz/paxos';
import {
  BUGS,
  FEATURE_NAMES,
  SOMETIMES,
  SOMETIMES_FEATURE,
  canonicalFeatures,
  findWithinRuns,
  isFeatureName,
  type FeatureName,
} from '../sim/model/features';
import { FUZZ_DURATION_MS, fuzz, replay, runFuzz, type Counterexample, type FeatureChoice, type FuzzResult } from '../sim/check/fuzz';
import { MESSAGES_PER_SECOND_BOUND } from '../sim/check/invariants';
import { seedFromText, type Seed } from '../sim/model/prng';
import { formatSchedule, type Action } from '../sim/model/schedule';
import { UsageError, parseFlags, wholeNumber } from './args';
import { header } from './simCli';
import { detectorToFields, type DetectorFields } from '../sim/model/detector';
import { formatLognormal, formatRegions, formatRtt } from '../sim/model/network';

export const FUZZ_USAGE = `Usage: npm run fuzz -- --runs N --seed S [--bug NAME] [--features LIST] [--lock NAME] [--network]
       npm run fuzz -- --self-check [--seed S]
  --runs N       how many runs of ${FUZZ_DURATION_MS / 1000} simulated seconds (1-1000000, default 200)
  --seed S       fuzz seed, any non-negative integer (default 1); run i draws from (S << 32) + i
  --bug NAME     switch on one bug: ${BUG_NAMES.join(', ')}
  --features L   protocol features in every run: swarm (each drawn on or off per run, the default),
                 none, all, or a list of ${FEATURE_NAMES.join(', ')}
  --lock NAME    the lock service of every run: ${LOCK_SERVICE_NAMES.join(', ')}; absent, the runs are the
                 chapter's service's, then a tenth as many of each other service (a lock service's
                 bug picks its own service)
  --network      issue 28: each run of the chapter's service also draws its network (fractional or
                 lognormal latency, or regions), failure detector (phi-accrual, gossip, a takeover
                 threshold), a persist delay and slow phases, from a stream of its own
  --no-shrink    print the counterexample as found, without shrinking it
  --self-check   fuzz with each switchable bug in turn: each must be found, with a schedule that
                 replays it, within the runs its manifest states (a weakened checker shows here)
  --protocol P   ${PROTOCOL_NAMES.join(', ')} (default raft); a Paxos run lasts ${PAXOS_FUZZ_MS.paxos / 1000} s (multi-paxos ${PAXOS_FUZZ_MS['multi-paxos'] / 1000} s)
                 and --bug names a Paxos bug: ${PAXOS_BUG_NAMES.join(', ')}`;

const FLAGS = [
  { name: 'runs', value: true },
  { name: 'seed', value: true },
  { name: 'bug', value: true },
  { name: 'features', value: true },
  { name: 'no-shrink', value: false },
  { name: 'lock', value: true },
  { name: 'network', value: false },
  { name: 'self-check', value: false },
  { name: 'protocol', value: true },
  { name: 'help', value: false },
] as const;

export interface FuzzCliIo {
  /** Result lines. */
  readonly out: (line: string) => void;
  /** Progress: `text` replaces the previous progress line when `inPlace`. */
  readonly progress: (text: string, inPlace: boolean) => void;
  /** Whether progress may update one line in place (a terminal). */
  readonly tty: boolean;
  /** Wall-clock ms, for the runs-per-minute figure. */
  readonly clock: () => number;
}

export interface FuzzArgs {
  readonly runs: number;
  readonly seed: Seed;
  readonly bugs: readonly BugName[];
  readonly features: FeatureChoice;
  readonly shrink: boolean;
  readonly selfCheck: boolean;
  /** `--lock`: every run's service; null: the chapter's, then each other service (or the bug's own). */
  readonly lock: LockServiceName | null;
  /** `--network`: issue 28's network models and detectors drawn in each run of the chapter's service. */
  readonly network: boolean;
}

/** `--protocol paxos|multi-paxos`: the Paxos swarm's arguments (fuzz/paxos.ts). */
interface PaxosFuzzArgs {
  readonly protocol: 'paxos' | 'multi-paxos';
  readonly runs: number;
  readonly seed: Seed;
  readonly bugs: readonly PaxosBugName[];
  readonly shrink: boolean;
}

function parsePaxosFuzzArgs(flags: Map<string, string | true>, protocol: 'paxos' | 'multi-paxos'): PaxosFuzzArgs {
  if (flags.has('features')) throw new UsageError(`--features are Raft's; a ${protocol} run has none.`);
  if (flags.has('lock')) throw new UsageError(`--lock picks a lock service, which runs without Paxos; a ${protocol} run has none.`);
  if (flags.has('network'))
    throw new UsageError(
      `--network draws Raft's network models and failure detectors; a ${protocol} run keeps the chapter's whole-ms network.`,
    );
  if (flags.has('self-check'))
    throw new UsageError(
      `--self-check calibrates Raft's bugs; for ${protocol} run --protocol ${protocol} --bug NAME with each of its bugs.`,
    );
  const { runs, seed } = runsAndSeed(flags);
  const bugText = flags.get('bug');
  const allowed = paxosBugsOf(protocol);
  const bugs: PaxosBugName[] = [];
  if (typeof bugText === 'string') {
    if (!(allowed as readonly string[]).includes(bugText))
      throw new UsageError(`Unknown bug "${bugText}" in --bug; the bugs of ${protocol} are ${allowed.join(', ')}.`);
    bugs.push(bugText as PaxosBugName);
  }
  return { protocol, runs, seed, bugs, shrink: !flags.has('no-shrink') };
}

function runPaxosFuzzCli(args: PaxosFuzzArgs, io: FuzzCliIo): number {
  const started = io.clock();
  const tenth = Math.max(1, Math.floor(args.runs / 10));
  const result = paxosFuzz(args.seed, args.runs, args.protocol, args.bugs, args.shrink, (run) => {
    if (run > 0 && (io.tty || run % tenth === 0))
      io.progress(`fuzz: run ${run}/${args.runs} (${args.protocol}), no violation so far`, io.tty);
  });
  if (io.tty) io.progress('', true);
  const wallMs = io.clock() - started;
  const cx = result.counterexample;
  const bugNote = args.bugs.length ? `, bug ${args.bugs.join(', ')}` : '';
  if (cx !== null) {
    const v = cx.violation;
    io.out(
      `VIOLATION of ${v.title} in run ${cx.run} of ${result.runs} (${args.protocol}, fuzz seed ${String(args.seed)}${bugNote}), at t=${v.t} ms${v.nodes.length > 0 ? `, nodes ${v.nodes.join(', ')}` : ''}`,
    );
    io.out(`  ${v.sentence}`);
    io.out(`seed ${String(cx.config.seed)}; ${header(cx.config)}`);
    io.out(`fault kinds: ${cx.kinds.join(', ')}`);
    io.out(
      `schedule (shrunk from ${cx.original.length} to ${cx.schedule.length} actions in ${cx.shrinkRuns} replays; run until ${cx.untilMs} ms):`,
    );
    io.out(`  ${formatSchedule(cx.schedule) || '(empty)'}`);
    io.out(`replay: ${simCommand(cx.config, cx.schedule, cx.untilMs)}`);
    io.out(`share link: ${shareQuery(cx.config, cx.schedule, cx.untilMs)}`);
    return 1;
  }
  const perMinute = wallMs > 0 ? Math.round((result.runs / wallMs) * 60_000) : null;
  io.out(
    `${result.runs} ${args.protocol} runs of ${PAXOS_FUZZ_MS[args.protocol] / 1000} simulated seconds (fuzz seed ${String(args.seed)}${bugNote}): every Paxos invariant held` +
      `${perMinute !== null ? `; ${perMinute.toLocaleString('en-US')} runs/min` : ''}`,
  );
  return 0;
}

/** `--runs` (default 200) and `--seed` (default 1), read the same way for Raft's and Paxos's fuzzers. */
function runsAndSeed(flags: ReturnType<typeof parseFlags>): { runs: number; seed: Seed } {
  const runsText = flags.get('runs');
  const runs = typeof runsText === 'string' ? wholeNumber(runsText, 'runs', 1, 1_000_000) : 200;
  const seedText = flags.get('seed');
  let seed: Seed = 1;
  if (typeof seedText === 'string') {
    const parsed = seedFromText(seedText);
    if (parsed === null) throw new UsageError(`--seed must be a non-negative integer, not "${seedText}".`);
    seed = parsed;
  }
  return { runs, seed };
}

export function parseFuzzArgs(argv: readonly string[]): FuzzArgs | 'help' {
  const flags = parseFlags(argv, FLAGS);
  if (flags.has('help')) return 'help';
  if (flags.has('protocol')) throw new UsageError('--protocol is read by runFuzzCli.');
  const clash = (['runs', 'bug', 'features', 'no-shrink', 'lock', 'network'] as const).find((f) => flags.has(f));
  if (flags.has('self-check') && clash !== undefined)
    throw new UsageError(
      `--self-check runs every bug with the runs and features its calibration states; it takes no --${clash} (only --seed).`,
    );
  const { runs, seed } = runsAndSeed(flags);
  const bugText = flags.get('bug');
  const bugs: BugName[] = [];
  if (typeof bugText === 'string') {
    if (!(BUG_NAMES as readonly string[]).includes(bugText)) {
      throw new UsageError(`Unknown bug "${bugText}" in --bug; the bugs are ${BUG_NAMES.join(', ')}.`);
    }
    bugs.push(bugText as BugName);
  }
  const lockText = flags.get('lock');
  let lock: LockServiceName | null = null;
  if (typeof lockText === 'string') {
    if (!isLockServiceName(lockText))
      throw new UsageError(`Unknown lock service "${lockText}" in --lock; the lock services are ${LOCK_SERVICE_NAMES.join(', ')}.`);
    lock = lockText;
  }
  const bugService = bugs.length > 0 ? lockServiceOfBug(bugs[0]) : null;
  if (bugs.length > 0 && lock !== null && !bugsOfService(lock).includes(bugs[0]))
    throw new UsageError(
      bugService !== null
        ? `Bug "${bugs[0]}" is a bug of the lock service ${bugService}; give --lock ${bugService} or no --lock.`
        : `Bug "${bugs[0]}" means nothing with the lock service ${lock}; its bugs are ${bugsOfService(lock).join(', ')}.`,
    );
  const featuresText = flags.get('features');
  if (typeof featuresText === 'string' && lock !== null && lock !== 'raft' && !lockServiceManifest(lock).raft)
    throw new UsageError(
      `--features changes Raft, which the lock service ${lock} does not run; leave --features out or pick raft, zookeeper or etcd.`,
    );
  return {
    lock: lock ?? bugService,
    runs,
    seed,
    bugs,
    features: typeof featuresText === 'string' ? featureChoice(featuresText) : 'swarm',
    shrink: !flags.has('no-shrink'),
    selfCheck: flags.has('self-check'),
    network: flags.has('network'),
  };
}

/** `--features`: swarm, none, all, or a comma list of feature names. */
function featureChoice(text: string): FeatureChoice {
  const t = text.trim();
  if (t === 'swarm') return 'swarm';
  if (t === 'none') return [];
  if (t === 'all') return [...FEATURE_NAMES];
  const names = t
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = names.find((f) => !isFeatureName(f));
  if (unknown !== undefined || names.length === 0) {
    throw new UsageError(
      `Unknown feature "${unknown ?? t}" in --features; write swarm, none, all, or a list of ${FEATURE_NAMES.join(', ')}.`,
    );
  }
  return canonicalFeatures(names as FeatureName[]);
}

/** The app's share link (src/share/link.ts) for a counterexample, landing at the violation. */
export function shareQuery(config: SimConfig, schedule: readonly Action[], atMs: number): string {
  return '?' + encodeLink({ config, schedule, atMs });
}

/** The sim CLI's flag for each detector field (simCli's FLAG_NAMES). */
const DETECTOR_FLAGS: readonly (readonly [keyof DetectorFields, string])[] = [
  ['detector', '--detector'],
  ['phi', '--phi'],
  ['window', '--phi-window'],
  ['fanout', '--fanout'],
  ['round', '--gossip-round'],
  ['suspect', '--suspect-after'],
  ['takeover', '--takeover'],
];

/** `npm run sim` flags that print the same run's timeline. */
export function simCommand(config: SimConfig, schedule: readonly Action[], untilMs: number): string {
  const flags = [
    `--seed ${String(config.seed)}`,
    `--nodes ${config.nodeIds.length}`,
    `--timeout ${config.electionTimeoutMs.join('-')}`,
    `--heartbeat ${config.heartbeatMs}`,
    // A lognormal names its own --latency below.
    ...(config.latencyLognormal === undefined ? [`--latency ${config.latencyMs.join('-')}`] : []),
  ];
  if (config.clientIds.length > 0) flags.push(`--clients ${config.clientIds.join(',')}`);
  if (config.bugs.length > 0) flags.push(`--bugs ${config.bugs.join(',')}`);
  if (featuresOf(config).length > 0) flags.push(`--features ${featuresOf(config).join(',')}`);
  if (config.snapshotEvery !== undefined) flags.push(`--snapshot-every ${config.snapshotEvery}`);
  if (config.readMode !== undefined) flags.push(`--read-mode ${config.readMode}`);
  if (config.lock !== undefined) flags.push(`--lock ${config.lock}`);
  if (config.lockOptions !== undefined && config.lockOptions.length > 0) flags.push(`--lock-options ${config.lockOptions.join(',')}`);
  if (config.protocol !== undefined) flags.push(`--protocol ${config.protocol}`);
  if (config.backoffMs !== undefined) flags.push(`--backoff ${config.backoffMs.join('-')}`);
  // Issue 28's models (fuzz --network): the same words the sim CLI reads.
  if (config.latencyLognormal !== undefined) flags.push(`--latency ${formatLognormal(config.latencyLognormal)}`);
  if (config.regions !== undefined) {
    if (config.regions.places.length > 0) flags.push(`--regions "${formatRegions(config.regions.places)}"`);
    flags.push(`--rtt ${formatRtt(config.regions.rtt)}`);
  }
  const d = detectorToFields(config.detector);
  for (const [field, flag] of DETECTOR_FLAGS) {
    const v = d[field];
    if (v !== undefined) flags.push(`${flag} ${v}`);
  }
  if (config.persistMs !== undefined) flags.push(`--persist ${config.persistMs}`);
  flags.push(`--until ${untilMs}`, `--schedule "${formatSchedule(schedule)}"`);
  return `npm run sim -- ${flags.join(' ')}`;
}

function featureNote(choice: FeatureChoice): string {
  if (choice === 'swarm') return '';
  return choice.length === 0 ? ', no features' : `, features ${choice.join(', ')}`;
}

export function counterexampleLines(cx: Counterexample, args: FuzzArgs): string[] {
  const v = cx.violation;
  return [
    `VIOLATION of ${v.title} in run ${cx.run} (fuzz seed ${String(args.seed)}${args.lock !== null ? `, lock service ${args.lock}` : ''}${args.bugs.length ? `, bug ${args.bugs.join(', ')}` : ''}), at t=${v.t} ms${v.nodes.length > 0 ? `, nodes ${v.nodes.join(', ')}` : ''}`,
    `  ${v.sentence}`,
    `seed ${String(cx.config.seed)}; ${header(cx.config)}`,
    `fault kinds: ${cx.kinds.join(', ')}`,
    `schedule (shrunk from ${cx.original.schedule.length} to ${cx.schedule.length} actions in ${cx.shrinkRuns} replays; run until ${cx.untilMs} ms):`,
    `  ${cx.scheduleText || '(empty)'}`,
    `replay: ${simCommand(cx.config, cx.schedule, cx.untilMs)}`,
    `share link: ${shareQuery(cx.config, cx.schedule, cx.untilMs)}`,
  ];
}

export function runFuzzCli(argv: readonly string[], io: FuzzCliIo): number {
  let args: FuzzArgs | 'help';
  try {
    const flags = parseFlags(argv, FLAGS);
    const protocol = flags.get('protocol');
    if (typeof protocol === 'string' && protocol !== 'raft' && !flags.has('help')) {
      if (protocol !== 'paxos' && protocol !== 'multi-paxos')
        throw new UsageError(`--protocol must be one of ${PROTOCOL_NAMES.join(', ')}, not "${protocol}".`);
      return runPaxosFuzzCli(parsePaxosFuzzArgs(flags, protocol), io);
    }
    args = parseFuzzArgs(argv.filter((a, i) => a !== '--protocol' && argv[i - 1] !== '--protocol'));
  } catch (error) {
    if (error instanceof UsageError) {
      io.out(error.message);
      return 2;
    }
    throw error;
  }
  if (args === 'help') {
    io.out(FUZZ_USAGE);
    return 0;
  }
  if (args.selfCheck) return selfCheck(args.seed, io);
  const started = io.clock();
  const long = longRunProgress(args.runs, io);
  const gen = fuzz({
    seed: args.seed,
    runs: args.runs,
    bugs: args.bugs,
    features: args.features,
    shrink: args.shrink,
    onRunProgress: long,
    lock: args.lock,
    network: args.network,
  });
  const tenth = Math.max(1, Math.floor(args.runs / 10));
  let result: FuzzResult;
  let lastShown = -1;
  const liveness = { held: 0, skipped: 0 };
  for (;;) {
    const step = gen.next();
    if (step.done) {
      result = step.value;
      break;
    }
    const p = step.value;
    if (p.phase === 'search') {
      if (p.last.liveness.startsWith('held')) liveness.held++;
      else if (p.last.liveness.startsWith('skipped')) liveness.skipped++;
      const last = p.runsDone === args.runs || p.last.violation !== null;
      if (io.tty ? p.runsDone - lastShown >= Math.max(1, Math.floor(args.runs / 200)) || last : p.runsDone % tenth === 0 || last) {
        lastShown = p.runsDone;
        const pct = Math.floor((p.runsDone / args.runs) * 100);
        const state = p.last.violation !== null ? `violation in run ${p.last.run}` : 'no violation so far';
        io.progress(`fuzz: run ${p.runsDone}/${args.runs} (${pct}%), ${state}, ${p.findings} stale writes found`, io.tty);
      }
    } else if (io.tty || p.attempts % 25 === 0) {
      io.progress(`shrinking: ${p.actions} actions left after ${p.attempts} of at most ${p.budget} replays`, io.tty);
    }
  }
  if (io.tty) io.progress('', true);
  const wallMs = io.clock() - started;
  const perMinute = wallMs > 0 ? Math.round((result.runsDone / wallMs) * 60_000) : null;
  const cx = result.counterexample;
  if (cx !== null) {
    for (const line of counterexampleLines(cx, args)) io.out(line);
    for (const line of sometimesLines(result)) io.out(line);
    return 1;
  }
  io.out(
    `${result.runsDone} runs of ${FUZZ_DURATION_MS / 1000} simulated seconds (fuzz seed ${String(args.seed)}${args.bugs.length ? `, bug ${args.bugs.join(', ')}` : ''}${featureNote(args.features)}${args.network ? ', each drawing its network model, failure detector, persist delay and slow phases' : ''}): every invariant held, and every client history passed the lock-service and fenced-order models (and the register model, for log and ReadIndex reads)` +
      `${perMinute !== null ? `; ${perMinute.toLocaleString('en-US')} runs/min` : ''}`,
  );
  io.out(
    `liveness: after the faults stopped, ${liveness.held} runs elected a leader that committed a probe on every node in time; ` +
      `${liveness.skipped} had a configuration that cannot promise it (one node, timeouts too narrow for the latency, or a lock service that runs no Raft${args.network ? ', or a failure detector other than the fixed timer' : ''})`,
  );
  io.out(`findings (not failures): the unfenced store accepted ${result.findings} writes from clients whose lease had ended`);
  if (result.historyFindings > 0) {
    io.out(
      `findings (not failures): in ${result.historyFindings} runs a store's history was not linearizable under strict mutual exclusion (or the unfenced store's under fencing order, or a lease read's under the register model)`,
    );
  }
  io.out(
    `bound: the busiest simulated second of any run sent ${result.busiestSecond.toLocaleString('en-US')} messages (a run is stopped as a counterexample above ${MESSAGES_PER_SECOND_BOUND.toLocaleString('en-US')})`,
  );
  if (args.lock !== null && result.overlapRuns > 0) io.out(overlapLine(args.lock, result));
  for (const line of sometimesLines(result)) io.out(line);
  // Without --lock (and a bug of the chapter's service or none), every other lock service too, a tenth as many runs each.
  if (args.lock === null) return everyService(args, io);
  return 0;
}

function overlapLine(lock: LockServiceName, result: FuzzResult): string {
  const m = lockServiceManifest(lock);
  return `findings (not failures): in ${result.overlapRuns} of ${result.runsDone} runs two clients believed they held one lock at once${m.consistent ? ' (past a paused lease; within their leases it would have been a violation of lock-exclusive)' : ` (${lock} promises nothing under pauses, clock jumps and failovers)`}`;
}

/** Each lock service but the chapter's, `ceil(runs / 10)` runs of the same fuzz seed: one line each, or a counterexample. */
function everyService(args: FuzzArgs, io: FuzzCliIo): number {
  const runs = Math.max(1, Math.ceil(args.runs / 10));
  for (const lock of LOCK_SERVICE_NAMES) {
    if (lock === 'raft') continue;
    // A bug of Raft itself (figure8, ...) runs on the services that run Raft; the chapter's lock's bugs only there.
    if (args.bugs.length > 0 && !bugsOfService(lock).includes(args.bugs[0])) continue;
    io.progress(`fuzz: ${runs} runs of the lock service ${lock}`, io.tty);
    const result = runFuzz({
      seed: args.seed,
      runs,
      bugs: args.bugs,
      features: lockServiceManifest(lock).raft ? args.features : [],
      shrink: args.shrink,
      lock,
    });
    const cx = result.counterexample;
    if (cx !== null) {
      if (io.tty) io.progress('', true);
      for (const line of counterexampleLines(cx, { ...args, lock })) io.out(line);
      return 1;
    }
    io.out(
      `lock service ${lock}: ${runs} runs, every invariant held` +
        (result.overlapRuns > 0
          ? `; in ${result.overlapRuns} two clients believed they held one lock at once (findings)`
          : '; no two clients believed they held one lock at once') +
        `; the unfenced store accepted ${result.findings} writes from clients whose lease had ended`,
    );
  }
  if (io.tty) io.progress('', true);
  return 0;
}

/**
 * The long-run progress line: a run that has taken over 2 s of wall time says where it is (its
 * simulated time and the messages in flight), in place on a terminal, else every 5 s.
 */
function longRunProgress(runs: number, io: FuzzCliIo): (run: number, nowMs: number, inflight: number) => void {
  let current = -1;
  let startedAt = 0;
  let shownAt = 0;
  return (run, nowMs, inflight) => {
    const now = io.clock();
    if (run !== current) {
      current = run;
      startedAt = now;
      shownAt = now;
      return;
    }
    if (now - startedAt < 2000 || now - shownAt < (io.tty ? 500 : 5000)) return;
    shownAt = now;
    io.progress(
      `fuzz: run ${run + 1}/${runs} is long: ${Math.round((now - startedAt) / 1000)} s so far, at ${nowMs} simulated ms, ${inflight.toLocaleString('en-US')} messages in flight`,
      io.tty,
    );
  };
}

/** The reachability report: how many runs reached each situation, and those no run reached. */
export function sometimesLines(result: FuzzResult): string[] {
  const width = String(result.runsDone).length;
  const lines = [`sometimes: of ${result.runsDone} runs, how many reached each situation:`];
  const never: string[] = [];
  const outOfReach: string[] = [];
  for (const s of SOMETIMES) {
    const n = result.reached.get(s.id) ?? 0;
    const feature = SOMETIMES_FEATURE[s.id];
    // Every situation is one of Raft's: a run of a service without Raft (Redis, Redlock, ...) reaches none.
    const featureRuns = feature === undefined ? result.raftRuns : (result.featureRuns.get(feature) ?? 0);
    lines.push(`  ${String(n).padStart(width)}  ${s.title}${feature !== undefined ? ` (${feature}, on in ${featureRuns} runs)` : ''}`);
    if (n > 0) continue;
    if (featureRuns === 0) outOfReach.push(`${s.title} (${feature !== undefined ? `${feature} was on in no run` : 'no run ran Raft'})`);
    else never.push(s.title);
  }
  if (never.length === 0 && outOfReach.length === 0) lines.push('every situation was reached in at least one run');
  if (never.length > 0) lines.push(`NEVER REACHED (${never.length}): ${never.join('; ')}`);
  if (outOfReach.length > 0) lines.push(`out of reach in these runs: ${outOfReach.join('; ')}`);
  return lines;
}

/**
 * Every switchable bug's calibration (`--self-check`): fuzz with the bug alone (its feature on,
 * the rest drawn) until a violation, which must be one of the checks its manifest names
 * (`caughtBy`) and replay from its schedule to the same invariant, within the runs the manifest
 * states. One line per bug; 1 if any is not found so.
 */
function selfCheck(seed: FuzzArgs['seed'], io: FuzzCliIo): number {
  const started = io.clock();
  io.out(
    `self-check: each switchable bug must be found, with a schedule that replays it, within its stated runs (fuzz seed ${String(seed)})`,
  );
  let missed = 0;
  const width = Math.max(...BUGS.map((b) => b.name.length));
  for (const bug of BUGS) {
    const runs = findWithinRuns(bug);
    const result = fuzz({ seed, runs, bugs: [bug.name], shrink: false });
    let step = result.next();
    while (!step.done) step = result.next();
    const cx = step.value.counterexample;
    const name = bug.name.padEnd(width);
    if (cx === null) {
      missed++;
      io.out(`  ${name}  NOT FOUND within ${runs} runs`);
      continue;
    }
    if (!(bug.caughtBy as readonly string[]).includes(cx.violation.invariant)) {
      missed++;
      io.out(`  ${name}  found at run ${cx.run}, but by ${cx.violation.title}, NOT BY ITS OWN CHECK (${bug.caughtBy.join(' or ')})`);
      continue;
    }
    const again = replay(cx.config, cx.schedule, cx.untilMs);
    if (again === null || again.invariant !== cx.violation.invariant) {
      missed++;
      io.out(`  ${name}  found at run ${cx.run} (${cx.violation.title}), but its schedule does NOT REPLAY it`);
      continue;
    }
    io.out(`  ${name}  found at run ${cx.run} of ${runs} (${cx.violation.title}), replayed`);
  }
  const seconds = ((io.clock() - started) / 1000).toFixed(1);
  io.out(
    missed === 0
      ? `self-check: all ${BUGS.length} bugs found and replayed in ${seconds} s`
      : `self-check: ${missed} of ${BUGS.length} bugs NOT FOUND or not replayed (${seconds} s): a checker, a story or a draw has weakened`,
  );
  return missed === 0 ? 0 : 1;
}
