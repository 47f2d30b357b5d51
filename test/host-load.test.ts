/** The benches' line about the machine: busy and stolen shares of all cores' time between two /proc/stat readings. */
import { describe, expect, it } from 'vitest';
import { describeLoad } from '../src/cli/hostLoad';

describe('describeLoad', () => {
  it('counts user, nice, system, irq and softirq as busy and the eighth field as stolen', () => {
    const before = [100, 0, 50, 1000, 0, 0, 0, 10];
    // 400 ticks: 200 user + 50 system + 10 softirq busy, 100 idle, 40 stolen.
    const after = [300, 0, 100, 1100, 0, 0, 10, 50];
    expect(describeLoad(before, after)).toMatch(/^machine while measuring: busy 65%, stolen by the host 10% of all cores' time/);
  });

  it('says so when there is nothing to read or no time passed', () => {
    expect(describeLoad(null, null)).toBe('machine load: not available here (no /proc/stat)');
    const same = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(describeLoad(same, same)).toBe('machine load: too short to tell');
  });
});
