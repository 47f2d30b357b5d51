// The `timeout <node>` verb: a teacher starts an election on cue (RaftScope's "time out").
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

const linesOf = (sim: Simulation) => sim.cluster.events.map((e) => e.line);

describe('timeout <node>', () => {
  it('parses, formats back and names an unknown node in one sentence', () => {
    const actions = parseSchedule('@300 timeout n3');
    expect(actions).toEqual([{ at: 300, verb: 'timeout', node: 'n3' }]);
    expect(formatSchedule(actions)).toBe('@300 timeout n3');
    expect(() => parseSchedule('@300 timeout')).toThrow(
      'Action 1 ("@300 timeout", at character 1) is not of the form "@<ms> timeout <node>".',
    );
    expect(() => new Simulation(DEFAULT_CONFIG, parseSchedule('@300 timeout n9'))).toThrow(
      'Action 1 ("@300 timeout n9") names node "n9", which is not in the cluster; the nodes are n1, n2, n3, n4, n5.',
    );
  });

  it('makes a follower campaign at once, in the next term, and it wins', () => {
    // Seed 42: n2 leads term 1 from t=156; at 1000 n3 is a follower of term 1.
    const sim = new Simulation(DEFAULT_CONFIG, parseSchedule('@1000 timeout n3'));
    sim.advanceTo(1100);
    const after = linesOf(sim).filter((l) => Number(l.slice(2, 7)) >= 1000);
    expect(after[0]).toBe("t= 1000 ms n3's election timer is forced to fire");
    expect(after[1]).toBe('t= 1000 ms n3 election timeout, candidate in term 2');
    expect(sim.cluster.events.find((e) => e.kind === 'election-forced')?.subjects).toEqual(['n3']);
    expect(sim.cluster.leader()?.id).toBe('n3');
    expect(sim.cluster.leader()?.term).toBe(2);
  });

  it('is refused, with a sentence, on a down node and on the leader', () => {
    const sim = new Simulation(DEFAULT_CONFIG, parseSchedule('@500 crash n4; @600 timeout n4; @700 timeout n2'));
    sim.advanceTo(800);
    const lines = linesOf(sim);
    expect(lines).toContain('t=  600 ms timeout n4 refused: n4 is down');
    expect(lines).toContain('t=  700 ms timeout n2 refused: n2 is the leader and has no election timer');
    expect(sim.cluster.leader()?.id).toBe('n2');
    expect(sim.cluster.leader()?.term).toBe(1);
  });

  it('is deterministic: the same schedule gives the same lines', () => {
    const run = () => {
      const sim = new Simulation(DEFAULT_CONFIG, parseSchedule('@400 timeout n1; @900 timeout n5'));
      sim.advanceTo(1500);
      return linesOf(sim);
    };
    expect(run()).toEqual(run());
  });
});
