/** `npm run experiment`: flags, one sentence per mistake, and the same numbers on one thread or two. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/args';
import { experimentReport, resolveExperiment } from '../src/cli/experimentCli';
import { runInThreads } from '../src/cli/experimentThreads';
import { resultsCsv } from '../src/share/experimentFiles';
import { runExperiment } from '../src/sim/experiments/experiment';

const dir = mkdtempSync(join(tmpdir(), 'lockstep-exp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const problem = (argv: string[]) => {
  try {
    resolveExperiment(argv);
    return null;
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
};

describe('npm run experiment', () => {
  it('answers bad flags with one sentence naming what is wrong and what is allowed', () => {
    expect(problem(['--template', 'crash'])).toMatch(
      /^Unknown template "crash"; the templates are crash-leader, partition-heal, steady-load, lease-pause, figure-16, false-suspicion, failover-year, takeover-pause, gossip-spread, region-clients\.$/,
    );
    expect(problem(['--template', 'crash-leader', '--sweep', 'timeout=300-100'])).toMatch(/must be ordered/);
    expect(problem(['--template', 'crash-leader', '--sweep', 'colour=1,2'])).toMatch(
      /Unknown sweep parameter "colour"; the parameters are timeout, spread/,
    );
    expect(problem(['--template', 'crash-leader', '--sweep', 'timeout=150'])).toMatch(/must be a range A-B/);
    expect(problem(['--template', 'crash-leader', '--sweep', 'heartbeat=10,200'])).toMatch(
      /^At heartbeat=200 the run cannot be made: Heartbeat interval .* shorter than the minimum election timeout/,
    );
    expect(problem(['--template', 'crash-leader', '--sweep', 'nodes=3', '--seeds', 'lots'])).toBe(
      '--seeds must be a whole number from 1 to 5000, not "lots".',
    );
    expect(problem(['--template', 'crash-leader', '--sweep', 'nodes=1,2,3,4,5', '--seeds', '5000'])).toMatch(
      /make 25000 runs; at most 20000/,
    );
    expect(problem(['--template', 'crash-leader'])).toMatch(/^Give --sweep/);
    expect(problem(['--sweep', 'nodes=3'])).toMatch(/^Give --template/);
    expect(problem(['--template', 'crash-leader', '--sweep', 'nodes=3', '--latency', '1-2,3-4'])).toMatch(/--latency takes one value/);
    expect(problem(['--preset', 'nope'])).toMatch(/^Unknown preset "nope"; the presets are chapter-failover/);
  });

  it("one thread and two threads give the same CSV, and the report says where the chapter's 192 ms sits", async () => {
    const resolved = resolveExperiment([
      '--preset',
      'chapter-failover',
      '--seeds',
      '20',
      '--first-seed',
      '30',
      '--sweep',
      'timeout=150-300',
    ]);
    if (resolved === 'help') throw new Error('help');
    const one = runExperiment(resolved.spec, resolved.points);
    const two = await runInThreads(resolved.spec, resolved.points, 2);
    expect(resultsCsv(resolved.spec, resolved.points, two)).toBe(resultsCsv(resolved.spec, resolved.points, one));
    const report = experimentReport(resolved, one, null);
    expect(report).toMatch(/timeout=150-300: median \d+/);
    expect(report).toMatch(/The chapter's 192 ms sits at percentile [\d.]+ of failover time at timeout=150-300 \(20 runs\)\./);
  });

  it('writes CSV and JSON files from the command line, with exit code 2 for a bad flag', () => {
    const csv = join(dir, 'out.csv');
    const json = join(dir, 'out.json');
    execFileSync(
      'npx',
      [
        'tsx',
        'src/cli/experiment.ts',
        '--template',
        'steady-load',
        '--sweep',
        'latency=0-1,70-70',
        '--seeds',
        '2',
        '--csv',
        csv,
        '--json',
        json,
      ],
      { encoding: 'utf8' },
    );
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows.length).toBe(5);
    expect(rows[0]).toBe(
      'template,parameter,value,seed,commit-p50 (ms),commit-p95 (ms),messages-per-commit (messages),availability (% of time),split-votes (% of terms),link',
    );
    const parsed = JSON.parse(readFileSync(json, 'utf8')) as { runs: unknown[]; points: { label: string }[] };
    expect(parsed.runs.length).toBe(4);
    expect(parsed.points.map((p) => p.label)).toEqual(['0-1', '70-70']);
    const bad = spawnSync('npx', ['tsx', 'src/cli/experiment.ts', '--template', 'crash-leader', '--sweep', 'loss=200'], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('--sweep: Each loss value must be a whole number from 0 to 100 (%), like 0,5,10,20, not "200".');
  });
});
