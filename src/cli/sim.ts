import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { runSimCli } from './simCli';

try {
  const result = runSimCli(process.argv.slice(2), () => performance.now());
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
  for (const file of result.files ?? []) {
    try {
      writeFileSync(file.path, file.text);
    } catch (error) {
      process.stderr.write(`Could not write ${file.path}: ${writeProblem(error)}.\n`);
      process.exitCode = 2;
    }
  }
} catch (error) {
  process.stderr.write(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

/** Why a file could not be written, in a few words. */
function writeProblem(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT') return 'its folder does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'ENOSPC') return 'the disk is full';
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
