/**
 * `npm run fingerprint -- [--runs N] [--out FILE]`: one hash of everything a run reports, over
 * many random runs (the swarm's, with and without every feature and bug) and every preset: the
 * `--json` report with details, history and verdicts, the trace export, the share link and the
 * fuzzer's own outcome. A refactor that must not change behaviour keeps the hash; `--out` writes
 * one line per run so two fingerprints can be diffed to the first run that differs.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { encodeLink, decodeLink } from '../share/link';
import { bugsOfService, featuresOf, type BugName, type SimConfig } from '../sim/model/config';
import { FEATURE_NAMES } from '../sim/model/features';
import { fuzzRun, type FeatureChoice } from '../sim/check/fuzz';
import { PRESETS } from '../sim/run/presets';
import { formatSchedule, parseSchedule, type Action } from '../sim/model/schedule';
import { UsageError, parseFlags, wholeNumber } from './args';
import { runSimCli } from './simCli';

const FLAGS = [
  { name: 'runs', value: true },
  { name: 'out', value: true },
  { name: 'help', value: false },
] as const;

/** The flags `npm run sim` takes for this run. */
function simArgv(config: SimConfig, schedule: readonly Action[], untilMs: number): string[] {
  const argv = [
    '--seed',
    String(config.seed),
    '--nodes',
    String(config.nodeIds.length),
    '--timeout',
    config.electionTimeoutMs.join('-'),
    '--heartbeat',
    String(config.heartbeatMs),
    '--latency',
    config.latencyMs.join('-'),
    '--until',
    String(untilMs),
    '--schedule',
    formatSchedule(schedule),
  ];
  if (config.clientIds.length > 0) argv.push('--clients', config.clientIds.join(','));
  if (config.bugs.length > 0) argv.push('--bugs', config.bugs.join(','));
  if (featuresOf(config).length > 0) argv.push('--features', featuresOf(config).join(','));
  if (config.snapshotEvery !== undefined) argv.push('--snapshot-every', String(config.snapshotEvery));
  if (config.readMode !== undefined) argv.push('--read-mode', config.readMode);
  return argv;
}

/** A report without its wall-clock figures. */
function stable(stdout: string): string {
  const report = JSON.parse(stdout) as Record<string, unknown>;
  delete report.stats;
  // Issue 26's lock measures are new fields derived from the run; everything the run did is hashed as before.
  delete report.overlaps;
  delete report.lockMeasures;
  return JSON.stringify(report);
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Everything one run reports, as one line: its name and the hash of each part. */
function runLine(name: string, config: SimConfig, schedule: readonly Action[], untilMs: number, extra: string): string {
  const argv = simArgv(config, schedule, untilMs);
  const json = runSimCli([...argv, '--json', '--trace', 'trace.json']);
  const text = runSimCli([...argv, '--verbose']);
  const link = encodeLink({ config, schedule, atMs: untilMs });
  const back = decodeLink(link, { pageCap: false });
  const linkBack = back.ok
    ? formatSchedule(back.spec.schedule) + JSON.stringify(back.spec.config, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
    : back.error;
  const parts = [
    json.code === 2 ? json.stderr : stable(json.stdout),
    json.files?.[0]?.text ?? '',
    text.stdout,
    String(json.code) + String(text.code),
    link,
    linkBack,
    extra,
  ];
  return `${name} ${parts.map(hash).join(' ')}`;
}

interface Group {
  readonly name: string;
  readonly runs: number;
  readonly bugs: readonly BugName[];
  readonly features: FeatureChoice;
}

function groups(total: number): Group[] {
  const out: Group[] = [
    { name: 'none', runs: Math.round(total * 0.25), bugs: [], features: [] },
    { name: 'swarm', runs: Math.round(total * 0.25), bugs: [], features: 'swarm' },
    { name: 'all', runs: Math.round(total * 0.15), bugs: [], features: [...FEATURE_NAMES] },
  ];
  // The chapter's service's bugs, the list as it was before the other lock services brought theirs.
  const bugs = bugsOfService('raft');
  const perBug = Math.max(1, Math.round((total * 0.35) / bugs.length));
  for (const bug of bugs) out.push({ name: `bug-${bug}`, runs: perBug, bugs: [bug], features: 'swarm' });
  return out;
}

export function fingerprintLines(total: number, progress: (text: string) => void = () => {}): string[] {
  const lines: string[] = [];
  for (const preset of PRESETS) {
    lines.push(runLine(`preset-${preset.name}`, preset.config, parseSchedule(preset.schedule), preset.untilMs, ''));
  }
  for (const group of groups(total)) {
    for (let run = 0; run < group.runs; run++) {
      const outcome = fuzzRun(7, run, group.bugs, 6000, group.features);
      const extra = JSON.stringify({
        kinds: outcome.kinds,
        violation: outcome.violation?.line ?? null,
        findings: outcome.findings,
        historyFindings: outcome.historyFindings,
        liveness: outcome.liveness,
      });
      lines.push(runLine(`${group.name}-${run}`, outcome.config, outcome.schedule, outcome.untilMs, extra));
    }
    progress(`${group.name}: ${group.runs} runs`);
  }
  return lines;
}

function main(argv: readonly string[]): number {
  let flags: Map<string, string | true>;
  try {
    flags = parseFlags(argv, FLAGS);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(error.message + '\n');
      return 2;
    }
    throw error;
  }
  if (flags.has('help')) {
    process.stdout.write('Usage: npm run fingerprint -- [--runs N] [--out FILE]\n');
    return 0;
  }
  const runsText = flags.get('runs');
  let total = 800;
  try {
    if (typeof runsText === 'string') total = wholeNumber(runsText, 'runs', 1, 100_000);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(error.message + '\n');
      return 2;
    }
    throw error;
  }
  const lines = fingerprintLines(total, (text) => process.stderr.write(text + '\n'));
  const out = flags.get('out');
  if (typeof out === 'string') writeFileSync(out, lines.join('\n') + '\n');
  process.stdout.write(`${lines.length} runs, fingerprint ${hash(lines.join('\n'))}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
