import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

describe('schedule order (DESIGN.md: applied after advancing to that time, in the order written)', () => {
  it('same-time actions apply in the order written', () => {
    const sim = new Simulation(DEFAULT_CONFIG, parseSchedule('@500 crash n2; @500 restart n2; @500 crash n2'));
    sim.advanceTo(600);
    expect(sim.cluster.events.filter((e) => e.t === 500).map((e) => e.text)).toEqual([
      'n2 crashes',
      'n2 restarts as follower in term 1',
      'n2 crashes',
    ]);
  });

  it('an action written after a later one applies as soon as its turn comes', () => {
    const sim = new Simulation(DEFAULT_CONFIG, parseSchedule('@900 crash n1; @300 crash n3'));
    sim.advanceTo(1000);
    const crashes = sim.cluster.events.filter((e) => e.kind === 'crash').map((e) => e.line);
    expect(crashes).toEqual(['t=  900 ms n1 crashes', 't=  900 ms n3 crashes']);
  });

  it('formatting keeps the written order', () => {
    expect(formatSchedule(parseSchedule('@900 crash n1; @300 crash n3'))).toBe('@900 crash n1; @300 crash n3');
  });
});
