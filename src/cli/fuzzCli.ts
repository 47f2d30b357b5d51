/**
 * `npm run fuzz -- --runs N --seed S [--bug NAME]`: swarm fuzzing with every invariant on.
 * Kept as a function from argv to an exit code, writing through two sinks, so tests call it
 * directly: 0 when every run holds, 1 with a shrunk counterexample, 2 for a bad flag.
 */
import { encodeLink } from '../share/link';
import { BUG_NAMES, PAXOS_BUG_NAMES, PROTOCOL_NAMES, featuresOf, type BugName, type SimConfig } from '../sim/model/config';
import { paxosBugsOf, type PaxosBugName } from '../sim/model/features';
import { PAXOS_FUZZ_MS, paxosFuzz } from '../sim/check/fuzz/paxos';
import { FEATURE_NAMES, canonicalFeatures, isFeatureName, type FeatureName } from '../sim/model/features';
import { FUZZ_DURATION_MS, fuzz, type Counterexample, type FeatureChoice, type FuzzResult } from '../sim/check/fuzz';
import { seedFromText, type Seed } from '../sim/model/prng';
import { formatSchedule, type Action } from '../sim/model/schedule';
import { UsageError, parseFlags, wholeNumber } from './args';
import { header } from './simCli';

export const FUZZ_USAGE = `Usage: npm run fuzz -- --runs N --seed S [--bug NAME] [--features LIST]
  --runs N       how many runs of ${FUZZ_DURATION_MS / 1000} simulated seconds (1-1000000, default 200)
  --seed S       fuzz seed, any non-negative integer (default 1); run i draws from (S << 32) + i
  --bug NAME     switch on one bug: ${BUG_NAMES.join(', ')}
  --features L   protocol features in every run: swarm (each drawn on or off per run, the default),
                 none, all, or a list of ${FEATURE_NAMES.join(', ')}
  --no-shrink    print the counterexample as found, without shrinking it
  --protocol P   ${PROTOCOL_NAMES.join(', ')} (default raft); a Paxos run lasts ${PAXOS_FUZZ_MS.paxos / 1000} s (multi-paxos ${PAXOS_FUZZ_MS['multi-paxos'] / 1000} s)
                 and --bug names a Paxos bug: ${PAXOS_BUG_NAMES.join(', ')}`;

const FLAGS = [
  { name: 'runs', value: true },
  { name: 'seed', value: true },
  { name: 'bug', value: true },
  { name: 'features', value: true },
  { name: 'no-shrink', value: false },
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
  const runsText = flags.get('runs');
  const runs = typeof runsText === 'string' ? wholeNumber(runsText, 'runs', 1, 1_000_000) : 200;
  const seedText = flags.get('seed');
  let seed: Seed = 1;
  if (typeof seedText === 'string') {
    const parsed = seedFromText(seedText);
    if (parsed === null) throw new UsageError(`--seed must be a non-negative integer, not "${seedText}".`);
    seed = parsed;
  }
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

export function parseFuzzArgs(argv: readonly string[]): FuzzArgs | 'help' {
  const flags = parseFlags(argv, FLAGS);
  if (flags.has('help')) return 'help';
  if (flags.has('protocol')) throw new UsageError('--protocol is read by runFuzzCli.');
  const runsText = flags.get('runs');
  const runs = typeof runsText === 'string' ? wholeNumber(runsText, 'runs', 1, 1_000_000) : 200;
  const seedText = flags.get('seed');
  let seed: Seed = 1;
  if (typeof seedText === 'string') {
    const parsed = seedFromText(seedText);
    if (parsed === null) throw new UsageError(`--seed must be a non-negative integer, not "${seedText}".`);
    seed = parsed;
  }
  const bugText = flags.get('bug');
  const bugs: BugName[] = [];
  if (typeof bugText === 'string') {
    if (!(BUG_NAMES as readonly string[]).includes(bugText)) {
      throw new UsageError(`Unknown bug "${bugText}" in --bug; the bugs are ${BUG_NAMES.join(', ')}.`);
    }
    bugs.push(bugText as BugName);
  }
  const featuresText = flags.get('features');
  return {
    runs,
    seed,
    bugs,
    features: typeof featuresText === 'string' ? featureChoice(featuresText) : 'swarm',
    shrink: !flags.has('no-shrink'),
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

/** `npm run sim` flags that print the same run's timeline. */
export function simCommand(config: SimConfig, schedule: readonly Action[], untilMs: number): string {
  const flags = [
    `--seed ${String(config.seed)}`,
    `--nodes ${config.nodeIds.length}`,
    `--timeout ${config.electionTimeoutMs.join('-')}`,
    `--heartbeat ${config.heartbeatMs}`,
    `--latency ${config.latencyMs.join('-')}`,
  ];
  if (config.clientIds.length > 0) flags.push(`--clients ${config.clientIds.join(',')}`);
  if (config.bugs.length > 0) flags.push(`--bugs ${config.bugs.join(',')}`);
  if (featuresOf(config).length > 0) flags.push(`--features ${featuresOf(config).join(',')}`);
  if (config.snapshotEvery !== undefined) flags.push(`--snapshot-every ${config.snapshotEvery}`);
  if (config.readMode !== undefined) flags.push(`--read-mode ${config.readMode}`);
  if (config.protocol !== undefined) flags.push(`--protocol ${config.protocol}`);
  if (config.backoffMs !== undefined) flags.push(`--backoff ${config.backoffMs.join('-')}`);
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
    `VIOLATION of ${v.title} in run ${cx.run} (fuzz seed ${String(args.seed)}${args.bugs.length ? `, bug ${args.bugs.join(', ')}` : ''}), at t=${v.t} ms${v.nodes.length > 0 ? `, nodes ${v.nodes.join(', ')}` : ''}`,
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
  const started = io.clock();
  const gen = fuzz({ seed: args.seed, runs: args.runs, bugs: args.bugs, features: args.features, shrink: args.shrink });
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
    return 1;
  }
  io.out(
    `${result.runsDone} runs of ${FUZZ_DURATION_MS / 1000} simulated seconds (fuzz seed ${String(args.seed)}${args.bugs.length ? `, bug ${args.bugs.join(', ')}` : ''}${featureNote(args.features)}): every invariant held, and every client history passed the lock-service and fenced-order models (and the register model, for log and ReadIndex reads)` +
      `${perMinute !== null ? `; ${perMinute.toLocaleString('en-US')} runs/min` : ''}`,
  );
  io.out(
    `liveness: after the faults stopped, ${liveness.held} runs elected a leader that committed a probe on every node in time; ` +
      `${liveness.skipped} had a configuration that cannot promise it (one node, or timeouts too narrow for the latency)`,
  );
  io.out(`findings (not failures): the unfenced store accepted ${result.findings} writes from clients whose lease had ended`);
  if (result.historyFindings > 0) {
    io.out(
      `findings (not failures): in ${result.historyFindings} runs a store's history was not linearizable under strict mutual exclusion (or the unfenced store's under fencing order, or a lease read's under the register model)`,
    );
  }
  return 0;
}
