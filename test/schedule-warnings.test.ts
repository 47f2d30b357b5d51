// What a valid schedule will not do as written (src/sim/run/scheduleWarnings.ts): one sentence
// each, found by replaying the run, never a refusal.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { parseSchedule } from '../src/sim/model/schedule';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { configWarning, scheduleWarnings } from '../src/sim/run/scheduleWarnings';
import { Simulation } from '../src/sim/run/simulation';

const warn = (text: string, config = DEFAULT_CONFIG) => scheduleWarnings(parseSchedule(text), config);

describe('schedule warnings', () => {
  it('says nothing about the chapter’s demo', () => {
    expect(warn(CHAPTER_SCHEDULE)).toEqual([]);
  });

  it('an action written after a later one runs when its turn comes', () => {
    expect(warn('@900 crash n1; @300 crash n3')).toEqual([
      'Action 2 ("@300 crash n3") is written after Action 1 ("@900 crash n1"): actions run in the order written, so it runs at 900 ms, not at 300 ms.',
    ]);
  });

  it('crashing a crashed node, restarting a live one, a bare heal: each does nothing', () => {
    expect(warn('@500 crash n3; @600 crash n3; @700 restart n1; @800 heal')).toEqual([
      'Action 2 ("@600 crash n3") does nothing: n3 is already down at 600 ms.',
      'Action 3 ("@700 restart n1") does nothing: n1 is up at 700 ms.',
      'Action 4 ("@800 heal") does nothing: there is no partition to heal at 800 ms.',
    ]);
    // Same-time actions see the state the one before left: crash then restart then crash is fine.
    expect(warn('@500 crash n2; @500 restart n2; @500 crash n2; @600 partition n1,n2; @700 heal')).toEqual([]);
  });

  it('a timeout on the leader or a down node is refused; on a follower it is not', () => {
    // Seed 42: n2 leads term 1 from 168 ms.
    expect(warn('@400 timeout n2; @450 crash n4; @460 timeout n4; @500 timeout n3')).toEqual([
      'Action 1 ("@400 timeout n2") is refused: n2 leads term 1 at 400 ms, and a leader has no election timer to fire.',
      'Action 3 ("@460 timeout n4") is refused: n4 is down at 460 ms.',
    ]);
  });

  it('settings where no leader can be elected: latency past the election timeout', () => {
    const slow = { ...DEFAULT_CONFIG, latencyMs: [200, 300] as const };
    expect(configWarning(slow)).toBe(
      'With latency 200–300 ms and election timeouts 150–300 ms, a vote’s round trip (at least 400 ms) outlasts every election timeout, so no candidate ever collects a majority: no leader can be elected. Raft needs messages much faster than the timeout (§5.6).'.replace(
        '’',
        "'",
      ),
    );
    expect(warn('', slow)).toHaveLength(1);
    // And the sentence is true: in 5 s of that run nobody leads.
    const sim = new Simulation(slow);
    sim.advanceTo(5000);
    expect(sim.cluster.leader()).toBeNull();
    expect(sim.cluster.events.some((e) => e.kind === 'leader')).toBe(false);
    expect(configWarning(DEFAULT_CONFIG)).toBeNull();
    expect(configWarning({ ...DEFAULT_CONFIG, latencyMs: [70, 70] })).toBeNull();
  });
});
