/**
 * How much of the machine a benchmark had: on a virtual machine the host can take CPU time away
 * ("steal", the eighth field of /proc/stat's cpu line), and frame times measured then say more
 * about the neighbours than about the page. The benches print it beside their figures. Linux
 * only; elsewhere there is nothing to read and the line says so.
 */
import { readFileSync } from 'node:fs';

export type CpuTimes = readonly number[];

/** The machine's cumulative CPU times (user, nice, system, idle, iowait, irq, softirq, steal), or null. */
export function cpuTimes(): CpuTimes | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    if (!line.startsWith('cpu ')) return null;
    return line.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return null;
  }
}

/** "busy 71%, steal 3% of the machine's CPU time": what the machine did between two readings. */
export function describeLoad(before: CpuTimes | null, after: CpuTimes | null): string {
  if (!before || !after || before.length < 8 || after.length < 8) return 'machine load: not available here (no /proc/stat)';
  const d = after.map((v, i) => v - before[i]);
  const total = d.reduce((a, b) => a + b, 0);
  if (total <= 0) return 'machine load: too short to tell';
  const busy = d[0] + d[1] + d[2] + d[5] + d[6];
  const pct = (v: number) => `${Math.round((100 * v) / total)}%`;
  return `machine while measuring: busy ${pct(busy)}, stolen by the host ${pct(d[7])} of all cores' time (frame times are not comparable when the host takes more than a few per cent)`;
}
