import type { AnyRun } from '../src/sim/run/run';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeConfig, type SimConfig } from '../src/sim/model/config';
import { findPreset } from '../src/sim/run/presets';
import { formatSchedule, parseSchedule, type Action } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { takeRunView } from '../src/sim/view/runView';
import { Timeline } from '../src/sim/run/timeline';

/** Everything observable about a run at an instant: the snapshot, every event, the PRNG's next draw. */
function fingerprint(sim: AnyRun): string {
  const probe = sim.clone();
  return JSON.stringify({
    snapshot: takeRunView(sim),
    events: sim.cluster.events.map((e) => e.line),
    next: probe.cluster.rng.getrandbits(32),
  });
}

function fresh(config: SimConfig, schedule: readonly Action[], t: number): Simulation {
  const sim = new Simulation(config, schedule);
  sim.advanceTo(t);
  return sim;
}

const fencing = findPreset('fencing');
if (!fencing) throw new Error('no fencing preset');
const fencingSchedule = parseSchedule(fencing.schedule);

describe('time travel', () => {
  it('a clone is independent and continues exactly like the original', () => {
    const a = fresh(fencing.config, fencingSchedule, 5000);
    const b = a.clone();
    a.advanceTo(14000);
    b.advanceTo(14000);
    expect(fingerprint(b)).toBe(fingerprint(a));
    const c = a.clone();
    c.act({ verb: 'crash', node: 'n1' });
    expect(a.cluster.node('n1').alive).toBe(true);
  });

  it('seeking anywhere lands on the same state as a fresh run to that time', () => {
    const timeline = new Timeline(fencing.config, fencingSchedule, 1000);
    timeline.advanceTo(15000);
    for (const t of [14000, 0, 7321, 13500, 1, 15000, 2999, 12000]) {
      timeline.seek(t);
      expect(timeline.nowMs).toBe(t);
      expect(fingerprint(timeline.current), `at ${t}`).toBe(fingerprint(fresh(fencing.config, fencingSchedule, t)));
    }
  });

  it('seeking is deterministic for random schedules and seek orders (fast-check)', () => {
    const config = makeConfig({ clientIds: ['A', 'B'] });
    const action = fc.oneof(
      fc.constantFrom(
        'crash n1',
        'restart n1',
        'crash n3',
        'restart n3',
        'partition n1,n2 | n3,n4,n5',
        'heal',
        'submit x=1',
        'loss 20',
        'loss 0',
        'drift n2 30',
      ),
      fc.constantFrom(
        'client A acquire job 800',
        'client B acquire job 800',
        'client A write r=a',
        'client B write r=b',
        'client A pause 900',
      ),
    );
    const schedule = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 5000 }), action), { maxLength: 12 })
      .map((items) => parseSchedule(items.map(([t, a]) => `@${t} ${a}`).join('; ')));
    fc.assert(
      fc.property(schedule, fc.array(fc.integer({ min: 0, max: 6000 }), { minLength: 1, maxLength: 5 }), (actions, seeks) => {
        const timeline = new Timeline(config, actions, 500);
        timeline.advanceTo(6000);
        for (const t of seeks) {
          timeline.seek(t);
          expect(fingerprint(timeline.current)).toBe(fingerprint(fresh(config, actions, t)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('acting in the past forks the run; undo brings the set-aside actions back', () => {
    const timeline = new Timeline(fencing.config, fencingSchedule, 1000);
    timeline.advanceTo(15000);
    const original = fingerprint(timeline.current);
    timeline.seek(5000);
    const recorded = timeline.act({ verb: 'crash', node: 'n2' });
    expect(recorded).toMatchObject({ action: { at: 5000, verb: 'crash', node: 'n2' }, forked: true });
    expect(typeof recorded !== 'string' && formatSchedule(recorded.setAside)).toBe(
      '@13000 client B acquire job:42 10000; @13000 client B write result=B-first; @13000 client A write result=A-second',
    );
    expect(timeline.fork).toEqual({ atMs: 5000, last: { atMs: 5000, setAside: 3 } });
    // Later actions are set aside: the schedule now ends with the new action.
    expect(formatSchedule(timeline.schedule)).toBe(
      '@1000 client A acquire job:42 10000; @1000 client A write result=A-first; @2000 client B acquire job:42 10000; @2500 client A pause 11000; @5000 crash n2',
    );
    timeline.advanceTo(9000);
    expect(fingerprint(timeline.current)).toBe(fingerprint(fresh(fencing.config, timeline.schedule, 9000)));
    timeline.seek(6000);
    expect(fingerprint(timeline.current)).toBe(fingerprint(fresh(fencing.config, timeline.schedule, 6000)));

    expect(timeline.undo()).toBe(true);
    expect(timeline.fork).toBeNull();
    expect(formatSchedule(timeline.schedule)).toBe(formatSchedule(fencingSchedule));
    expect(timeline.nowMs).toBe(6000);
    timeline.seek(15000);
    expect(fingerprint(timeline.current)).toBe(original);

    expect(timeline.redo()).toBe(true);
    expect(timeline.fork).toEqual({ atMs: 5000, last: { atMs: 5000, setAside: 3 } });
    expect(timeline.schedule.at(-1)).toMatchObject({ at: 5000, verb: 'crash', node: 'n2' });
    expect(fingerprint(timeline.current)).toBe(fingerprint(fresh(fencing.config, timeline.schedule, 15000)));
  });

  it('an action at a checkpoint instant is not lost when replaying from that checkpoint', () => {
    const config = makeConfig();
    const timeline = new Timeline(config, [], 1000);
    timeline.advanceTo(2000);
    timeline.act({ verb: 'crash', node: 'n2' });
    timeline.advanceTo(3000);
    timeline.seek(2500);
    expect(timeline.current.cluster.node('n2').alive).toBe(false);
    expect(fingerprint(timeline.current)).toBe(fingerprint(fresh(config, timeline.schedule, 2500)));
  });

  it('keeps at most the allowed number of checkpoints by doubling their spacing, and seeks stay exact', () => {
    const timeline = new Timeline(fencing.config, fencingSchedule, 250, 8);
    timeline.advanceTo(15000);
    expect(timeline.checkpointCount).toBeLessThanOrEqual(8);
    expect(timeline.checkpointMs).toBe(2000);
    for (const t of [14999, 3, 8000, 12345, 6001]) {
      timeline.seek(t);
      expect(fingerprint(timeline.current), `at ${t}`).toBe(fingerprint(fresh(fencing.config, fencingSchedule, t)));
    }
  });

  it('an invalid action changes nothing and says why', () => {
    const timeline = new Timeline(makeConfig(), parseSchedule('@5000 crash n1'), 1000);
    timeline.advanceTo(1000);
    const result = timeline.act({ verb: 'crash', node: 'n9' });
    expect(result).toMatch(/node "n9", which is not in the cluster/);
    expect(formatSchedule(timeline.schedule)).toBe('@5000 crash n1');
    timeline.advanceTo(5001);
    expect(timeline.current.cluster.node('n1').alive).toBe(false);
  });

  it('marks landmarks and steps between events', () => {
    const timeline = new Timeline(fencing.config, fencingSchedule, 1000);
    timeline.advanceTo(15000);
    const marks = timeline.landmarks();
    expect(marks.find((m) => m.kind === 'leader')?.t).toBe(168);
    expect(marks.some((m) => m.kind === 'store-rejected' && /rejects/.test(m.text))).toBe(true);
    expect(marks.some((m) => m.kind === 'lock-expired' && /expires/.test(m.text))).toBe(true);
    timeline.seek(200);
    expect(timeline.eventTimeFrom(-1)).toBe(168);
    expect(timeline.eventTimeFrom(1)).toBe(1000);
  });
});
