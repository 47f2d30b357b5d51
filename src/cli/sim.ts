import { performance } from 'node:perf_hooks';
import { runSimCli } from './simCli';

try {
  const result = runSimCli(process.argv.slice(2), () => performance.now());
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
} catch (error) {
  process.stderr.write(`Internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
