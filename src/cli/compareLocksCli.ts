/**
 * `npm run experiment -- --template compare-locks [--seeds N] [--first-seed S] [--json FILE]`:
 * the chapter's trade-off table with measured cells (src/sim/experiments/compareLocks.ts), the
 * chapter's words beside each, and the link of the run behind each cell. A pure function from
 * argv to the text and the file to write; experiment.ts does the writing.
 */
import { encodeLink } from '../share/link';
import { COMPARE_LEASE_MS, COMPARE_PAUSE_MS, compareLocks, type CompareRun, type ServiceRow } from '../sim/experiments/compareLocks';
import { LOCK_SERVICES } from '../sim/model/lockServices';
import { UsageError, parseFlags, wholeNumber } from './args';

const FLAGS = [
  { name: 'template', value: true },
  { name: 'seeds', value: true },
  { name: 'first-seed', value: true },
  { name: 'json', value: true },
  { name: 'help', value: false },
] as const;

export const COMPARE_USAGE = `Usage: npm run experiment -- --template compare-locks [--seeds N] [--first-seed S] [--json FILE]
  Every lock service (${LOCK_SERVICES.map((s) => s.name).join(', ')}) over the same seeds and faults:
  the holder pauses past its TTL, the holder crashes, one quiet acquire. Each measured cell is
  printed beside the chapter's words, with the link of the run that shows it.
  --seeds N       seeds per service and scenario, 1-50 (default 5)
  --first-seed S  seeds run from S (default 1)
  --json FILE     write the table (every cell, its run and its link) as JSON`;

export interface CompareCliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly file?: { readonly path: string; readonly text: string };
}

/** Whether argv asks for this template (experiment.ts hands it over). */
export function isCompareLocks(argv: readonly string[]): boolean {
  const i = argv.indexOf('--template');
  return (i >= 0 && argv[i + 1] === 'compare-locks') || argv.includes('--template=compare-locks');
}

const link = (r: CompareRun | null) => (r === null ? '' : '?' + encodeLink({ config: r.config, schedule: r.schedule, atMs: r.untilMs }));

export function runCompareLocksCli(argv: readonly string[]): CompareCliResult {
  let seeds = 5;
  let firstSeed = 1;
  let jsonPath: string | null = null;
  try {
    const flags = parseFlags(argv, FLAGS);
    if (flags.has('help')) return { code: 0, stdout: COMPARE_USAGE + '\n', stderr: '' };
    const s = flags.get('seeds');
    if (typeof s === 'string') seeds = wholeNumber(s, 'seeds', 1, 50);
    const f = flags.get('first-seed');
    if (typeof f === 'string') firstSeed = wholeNumber(f, 'first-seed', 0, 1_000_000_000);
    const j = flags.get('json');
    if (typeof j === 'string') {
      if (j === '') throw new UsageError('--json needs a file name.');
      jsonPath = j;
    }
  } catch (error) {
    if (error instanceof UsageError)
      return {
        code: 2,
        stdout: '',
        stderr: `${error.message.replace(/the known flags are .*$/, 'compare-locks takes --seeds, --first-seed and --json.')}\n`,
      };
    throw error;
  }
  const rows = compareLocks(seeds, firstSeed);
  const stdout = tableLines(rows, seeds, firstSeed).join('\n') + '\n';
  if (jsonPath === null) return { code: 0, stdout, stderr: '' };
  const json = rows.map((r) => ({
    ...r,
    overlap: { ...r.overlap, run: undefined, link: link(r.overlap.run) },
    unfenced: { ...r.unfenced, run: undefined, link: link(r.unfenced.run) },
    fenced: r.fenced === null ? null : { ...r.fenced, run: undefined, link: link(r.fenced.run) },
    failover: { ...r.failover, run: undefined, link: link(r.failover.run) },
    messagesPerAcquire: { ...r.messagesPerAcquire, run: undefined, link: link(r.messagesPerAcquire.run) },
  }));
  return {
    code: 0,
    stdout,
    stderr: '',
    file: { path: jsonPath, text: JSON.stringify({ format: 'lockstep-compare-locks', seeds, firstSeed, rows: json }, null, 2) + '\n' },
  };
}

/** The table as text: per service, each of the chapter's columns, its words and the measured cell. */
export function tableLines(rows: readonly ServiceRow[], seeds: number, firstSeed: number): string[] {
  const lines = [
    `The chapter's table, measured (compare-locks): ${rows.length} lock services, ${seeds} seeds each from seed ${firstSeed}, 3 scenarios: ${rows.length * seeds * 3} runs`,
    `  pause: A holds job (lease ${COMPARE_LEASE_MS} ms) and stops for ${COMPARE_PAUSE_MS} ms; B asks after A's lease would have run out and writes; A writes when it wakes`,
    `  crash: A holds job and crashes at 1000 ms; B asks every 500 ms. quiet: one acquire on a settled service`,
  ];
  for (const r of rows) {
    const ch = r.chapter;
    lines.push('', `${r.title} (${r.service})`);
    lines.push(
      `  safe when the holder pauses — the chapter: "${ch.safeWhenPaused}"; measured: two clients believed they held job in ${r.overlap.text}; the unfenced store took A's stale write after B's in ${r.unfenced.text}; ` +
        (r.fenced === null
          ? 'the fenced store cannot help: no token, it refused every write'
          : `the fenced store took it in ${r.fenced.text}`),
    );
    lines.push(`    run: ${link(r.unfenced.run)}`);
    lines.push(
      `  failover — the chapter: "${ch.failover}"; measured, from the holder's crash to the next grant: ${r.failover.text}`,
      `    run: ${link(r.failover.run)}`,
    );
    lines.push(
      `  write cost — the chapter: "${ch.writeCost}" (the chapter's constant, not measured here); measured: ${r.messagesPerAcquire.text} and ${r.roundTripsPerAcquire ?? '-'} round trips per acquire (heartbeats, pings and keep-alives left out)`,
      `    run: ${link(r.messagesPerAcquire.run)}`,
    );
    lines.push(`  fencing token — the chapter: "${ch.fencingToken}"; this model: ${r.token ?? 'none'}`);
    lines.push(`  operational cost — the chapter: "${ch.operationalCost}" (not measured)`);
  }
  return lines;
}
