import { performance } from 'node:perf_hooks';
import { runFuzzCli } from './fuzzCli';

const tty = process.stderr.isTTY === true;
try {
  process.exitCode = runFuzzCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(line + '\n'),
    progress: (text, inPlace) => process.stderr.write(inPlace ? `\r\x1b[2K${text}` : text + '\n'),
    tty,
    clock: () => performance.now(),
  });
} catch (error) {
  process.stderr.write(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
