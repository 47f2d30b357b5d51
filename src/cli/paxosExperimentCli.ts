/**
 * `npm run experiment -- --paxos duel|side-by-side [--seeds N] [--first-seed N] [--csv FILE] [--svg FILE]`:
 * the Paxos family's experiments (src/sim/experiments/paxos.ts) in Node. `duel` sweeps the
 * randomized back-off range and plots the time until a value is chosen (median and p5-p95 band)
 * as an SVG; `side-by-side` compares Raft and Multi-Paxos on one workload and fault. Every CSV
 * row carries the run's share link.
 */
import { encodeLink } from '../share/link';
import { DUEL_BACKOFFS, backoffLabel, duelRun, sideBySideRun, summarizeRuns, type PaxosExperimentRun } from '../sim/experiments/paxos';
import type { Summary } from '../sim/experiments/stats';
import { UsageError, parseFlags, wholeNumber } from './args';

export const PAXOS_EXPERIMENTS = ['duel', 'side-by-side'] as const;

const FLAGS = [
  { name: 'paxos', value: true },
  { name: 'seeds', value: true },
  { name: 'first-seed', value: true },
  { name: 'csv', value: true },
  { name: 'svg', value: true },
  { name: 'help', value: false },
] as const;

export interface PaxosExperimentResult {
  readonly stdout: string;
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

const fmt = (s: Summary, digits = 0) =>
  s.n === 0 ? 'n/a' : `${s.p50.toFixed(digits)} (p5 ${s.p5.toFixed(digits)}, p95 ${s.p95.toFixed(digits)})`;

export function runPaxosExperimentCli(argv: readonly string[]): PaxosExperimentResult {
  const flags = parseFlags(argv, FLAGS);
  const which = flags.get('paxos');
  if (typeof which !== 'string' || !(PAXOS_EXPERIMENTS as readonly string[]).includes(which))
    throw new UsageError(`--paxos must be one of ${PAXOS_EXPERIMENTS.join(', ')}, not "${String(which)}".`);
  const seedsText = flags.get('seeds');
  const seeds = typeof seedsText === 'string' ? wholeNumber(seedsText, 'seeds', 1, 5000) : 200;
  const firstText = flags.get('first-seed');
  const first = typeof firstText === 'string' ? wholeNumber(firstText, 'first-seed', 0, 1_000_000_000) : 1;
  const seedList = Array.from({ length: seeds }, (_, i) => first + i);
  const runs: PaxosExperimentRun[] =
    which === 'duel'
      ? DUEL_BACKOFFS.flatMap((b) => seedList.map((s) => duelRun(s, b)))
      : (['raft', 'multi-paxos'] as const).flatMap((p) => seedList.map((s) => sideBySideRun(s, p)));
  const summary = summarizeRuns(runs);
  const lines: string[] = [];
  if (which === 'duel') {
    lines.push(
      `Dueling proposers: n1 and n5 propose different values at 10 ms (5 nodes, latency 5-15 ms), ${seeds} seeds per back-off range`,
    );
    lines.push('back-off (ms) | time to chosen, ms: median (p5, p95) | pre-emptions | ballots prepared | messages');
    for (const [label, s] of summary)
      lines.push(
        `${label.padEnd(13)} | ${fmt(s.chosenMs).padEnd(36)} | ${fmt(s.preemptions).padEnd(12)} | ${fmt(s.ballots).padEnd(16)} | ${fmt(s.messages)}`,
      );
  } else {
    lines.push(
      `Raft and Multi-Paxos side by side: a command every 100 ms from 1000 ms, the leader crashed at 2000 ms, 5 nodes, ${seeds} seeds`,
    );
    lines.push(
      'protocol    | messages per committed command (election or phase 1 + replication or phase 2) | commit latency ms | failover ms',
    );
    for (const [label, s] of summary)
      lines.push(
        `${label.padEnd(11)} | ${fmt(s.messagesPerCommand, 1)} = ${s.electionMessagesPerCommand.p50.toFixed(2)} + ${s.replicationMessagesPerCommand.p50.toFixed(2)} | ${fmt(s.commitLatencyMs, 1)} | ${fmt(s.failoverMs)}`,
      );
  }
  const files: { path: string; text: string }[] = [];
  const csv = flags.get('csv');
  if (typeof csv === 'string') {
    const keys = Object.keys(runs[0].values);
    const rows = [['label', 'seed', ...keys, 'link'].join(',')];
    for (const r of runs) rows.push([r.label, r.seed, ...keys.map((k) => r.values[k] ?? ''), `?${encodeLink(r.run)}`].join(','));
    files.push({ path: csv, text: rows.join('\n') + '\n' });
  }
  const svg = flags.get('svg');
  if (typeof svg === 'string') {
    if (which !== 'duel') throw new UsageError('--svg draws the duel experiment (time to chosen against the back-off range).');
    files.push({ path: svg, text: duelSvg(summary) });
  }
  return { stdout: lines.join('\n') + '\n', files };
}

/** Time to chosen (median, p5-p95 band) against the back-off range: a plain SVG, no dependency. */
export function duelSvg(summary: ReadonlyMap<string, Record<string, Summary>>): string {
  const labels = DUEL_BACKOFFS.map(backoffLabel).filter((l) => summary.has(l));
  const W = 640;
  const H = 360;
  const left = 70;
  const bottom = 300;
  const top = 40;
  const right = W - 20;
  const maxY = Math.max(...labels.map((l) => (summary.get(l) as Record<string, Summary>).chosenMs.p95)) * 1.1;
  const x = (i: number) => left + ((right - left) * (i + 0.5)) / labels.length;
  const y = (v: number) => bottom - ((bottom - top) * v) / maxY;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="14">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="16">Dueling proposers: time until a value is chosen</text>`);
  parts.push(
    `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#333"/><line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#333"/>`,
  );
  for (let v = 0; v <= maxY; v += Math.max(10, Math.round(maxY / 50) * 10)) {
    parts.push(
      `<line x1="${left - 4}" y1="${y(v)}" x2="${left}" y2="${y(v)}" stroke="#333"/><text x="${left - 8}" y="${y(v) + 5}" text-anchor="end">${v}</text>`,
    );
  }
  const band = labels.map((l, i) => `${x(i)},${y((summary.get(l) as Record<string, Summary>).chosenMs.p95)}`);
  const low = labels.map((l, i) => `${x(i)},${y((summary.get(l) as Record<string, Summary>).chosenMs.p5)}`).reverse();
  parts.push(`<polygon points="${[...band, ...low].join(' ')}" fill="#56b4e9" fill-opacity="0.3"/>`);
  parts.push(
    `<polyline points="${labels.map((l, i) => `${x(i)},${y((summary.get(l) as Record<string, Summary>).chosenMs.p50)}`).join(' ')}" fill="none" stroke="#0072b2" stroke-width="2.5"/>`,
  );
  labels.forEach((l, i) => {
    const s = (summary.get(l) as Record<string, Summary>).chosenMs;
    parts.push(
      `<circle cx="${x(i)}" cy="${y(s.p50)}" r="4" fill="#0072b2"><title>${l} ms: median ${s.p50} ms, p5 ${s.p5}, p95 ${s.p95}</title></circle>`,
    );
    parts.push(`<text x="${x(i)}" y="${bottom + 20}" text-anchor="middle">${l}</text>`);
  });
  parts.push(`<text x="${W / 2}" y="${bottom + 45}" text-anchor="middle">randomized back-off range before preparing again (ms)</text>`);
  parts.push(
    `<text transform="translate(18 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">ms until chosen (median, p5–p95)</text>`,
  );
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
