import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { resultsCsv, resultsJson } from '../share/experimentFiles';
import { UsageError } from './args';
import { EXPERIMENT_USAGE, experimentReport, resolveExperiment } from './experimentCli';
import { runInThreads } from './experimentThreads';
import { runPaxosExperimentCli } from './paxosExperimentCli';
import { isCompareLocks, runCompareLocksCli } from './compareLocksCli';

async function main(): Promise<number> {
  // The Paxos family's experiments have their own runner (paxosExperimentCli.ts).
  if (process.argv.includes('--paxos')) {
    try {
      const result = runPaxosExperimentCli(process.argv.slice(2));
      process.stdout.write(result.stdout);
      for (const file of result.files) {
        writeFileSync(file.path, file.text);
        process.stdout.write(`Wrote ${file.path}\n`);
      }
      return 0;
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(error.message + '\n');
        return 2;
      }
      throw error;
    }
  }
  // The chapter's table of lock services is a template of its own (no sweep: every service is a row).
  if (isCompareLocks(process.argv.slice(2))) {
    const r = runCompareLocksCli(process.argv.slice(2));
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.file === undefined) return r.code;
    try {
      writeFileSync(r.file.path, r.file.text);
      process.stdout.write(`Wrote ${r.file.path}\n`);
    } catch (error) {
      process.stderr.write(`Could not write ${r.file.path}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    return r.code;
  }
  let resolved;
  try {
    resolved = resolveExperiment(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(error.message + '\n');
      return 2;
    }
    throw error;
  }
  if (resolved === 'help') {
    process.stdout.write(EXPERIMENT_USAGE + '\n');
    return 0;
  }
  const started = performance.now();
  const results = await runInThreads(resolved.spec, resolved.points, resolved.threads ?? 1);
  const wallMs = performance.now() - started;
  process.stdout.write(experimentReport(resolved, results, wallMs));
  let code = 0;
  for (const [path, text] of [
    [resolved.csvPath, () => resultsCsv(resolved.spec, resolved.points, results)],
    [resolved.jsonPath, () => resultsJson(resolved.spec, resolved.points, results)],
  ] as const) {
    if (path === null) continue;
    try {
      writeFileSync(path, text());
      process.stdout.write(`Wrote ${path}\n`);
    } catch (error) {
      process.stderr.write(`Could not write ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
      code = 2;
    }
  }
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
