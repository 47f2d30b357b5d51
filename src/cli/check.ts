import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { runCheckCli } from './checkCli';

try {
  process.exitCode = runCheckCli(process.argv.slice(2), {
    readFile: (path) => readFileSync(path, 'utf8'),
    writeFile: (path, text) => writeFileSync(path, text),
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    clock: () => performance.now(),
  });
} catch (error) {
  process.stderr.write(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
