/**
 * Protocol features switched on together: each was written beside the others, so what one keeps
 * the others must find. A snapshot keeps the reads' map and its put sessions; fast-backup's hints
 * and the leader's back-up count from a snapshot's last index.
 */
import { describe, expect, it } from 'vitest';
import { configFromFields, DEFAULT_CONFIG, type SimConfig } from '../src/sim/model/config';
import { backUp, conflictHint } from '../src/sim/raft/fastBackup';
import { attachInvariants } from '../src/sim/check/invariants';
import { checkHistory } from '../src/sim/check/linearizability/check';
import { LockStateMachine } from '../src/sim/service/lockStateMachine';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import type { LogEntry } from '../src/sim/model/types';
import { raftLogOf } from './helpers/raftLog';

const entries = (terms: readonly number[]): LogEntry[] => terms.map((term, i) => ({ term, command: `c${i + 1}` }));

describe('snapshots × reads', () => {
  it('a snapshot keeps the map and each client’s newest put, so a restored node applies a retried put once', () => {
    const a = new LockStateMachine();
    a.apply({ type: 'put', client: 'B', requestId: 2, key: 'x', value: 'B2' }, 0);
    a.apply({ type: 'put', client: 'A', requestId: 1, key: 'x', value: 'A1' }, 0);
    const state = a.snapshotState();
    expect(state.kv).toEqual([{ key: 'x', value: 'A1' }]);
    expect(state.lastPut).toEqual([
      { client: 'A', requestId: 1 },
      { client: 'B', requestId: 2 },
    ]);
    const b = new LockStateMachine();
    b.restore(state, 0);
    // B's put #2, retried and committed a second time after the snapshot: already applied.
    b.apply({ type: 'put', client: 'B', requestId: 2, key: 'x', value: 'B2' }, 0);
    expect(b.kv.get('x')).toBe('A1');
  });

  it('fuzz seed 1, run 513 of every feature: every read is linearizable (a node that installed a snapshot re-applied a retried put)', () => {
    const fields = {
      seed: '235783119',
      nodes: '9',
      timeout: '196-408',
      heartbeat: '15',
      latency: '3-29',
      clients: 'A,B,C',
      features: 'pre-vote,check-quorum,leader-noop,snapshots,reads,fast-backup,transfer',
      snapshotEvery: '2',
    };
    const config = configFromFields(DEFAULT_CONFIG, fields) as SimConfig;
    expect(typeof config).toBe('object');
    const sim = new Simulation(
      config,
      parseSchedule(
        '@500 client B put x=B1; @517 delay 813; @576 client C get x; @687 transfer n2; @746 client B put x=B2; @906 delay n3 910; @1135 client B get x; @1294 client C get x; @1563 delay 0; @1595 client A put x=A3; @1735 client B get x; @1944 client B get x; @1987 delay n3 0; @2142 crash n6; @2343 client A get x; @2415 restart n1; @2447 restart n1; @2676 client C get x; @2939 restart n6; @3044 transfer n2; @3075 client A get x; @3308 partition n9,n1,n2; @3349 crash n9; @3356 client A put x=A4; @3599 partition n5; @3599 submit v2 to n5; @3604 crash n5; @3610 restart n9; @3651 client B get x; @3799 client B get x; @3870 crash n4; @4043 restart n4; @4127 client A put x=A5; @4187 client C pause 2625; @4187 client C write k1=C3; @4215 crash n9; @4215 restart n5; @4215 heal; @4485 crash n7; @4594 restart n9; @4668 client B get x; @4749 restart n7; @4815 crash n6; @5013 restart n6; @5125 crash n2; @5405 crash n8; @5417 restart n2; @5497 restart n8; @5695 crash n3; @5864 client A get x; @5909 restart n3; @6045 crash n6; @6125 client C put x=C8; @6150 restart n6; @6326 crash n9; @6328 client B get x; @6385 transfer n7; @6454 client A get x; @6650 restart n9; @6759 client B put x=B9; @6845 crash n8; @6849 client A get x; @6918 client B get x; @7009 client B get x; @7163 restart n4; @7235 client B get x; @7659 delay n3 514',
      ),
    );
    const checker = attachInvariants(sim);
    sim.advanceTo(11_931);
    expect(checker.violations).toEqual([]);
    const history = sim.lockService!.history.ops;
    expect(history.some((o) => o.op === 'get' && o.result !== null)).toBe(true);
    expect(checkHistory(history).register).toEqual({ linearizable: true });
  });
});

describe('snapshots × fast-backup', () => {
  it('a follower’s hint counts from its snapshot: the array holds entries base+1 on', () => {
    // Entries 5..9 stored after a snapshot ≤ 4; the leader asks about index 9 and the follower's run of term 3 starts at 7.
    expect(conflictHint(raftLogOf(entries([2, 2, 3, 3, 3]), 4), 9)).toEqual({ conflictTerm: 3, conflictIndex: 7 });
    // It never looks below its snapshot: a run of term 2 from 5 stops at 5.
    expect(conflictHint(raftLogOf(entries([2, 2, 2]), 4), 7)).toEqual({ conflictTerm: 2, conflictIndex: 5 });
    // Too short: its log ends at 4 + 3.
    expect(conflictHint(raftLogOf(entries([2, 2, 2]), 4), 10)).toEqual({ conflictTerm: 0, conflictIndex: 8 });
  });

  it('the leader backs up within its stored entries, to its snapshot index when the term is the snapshot’s, below it to InstallSnapshot', () => {
    // Leader: snapshot ≤ 4 (term 1), then 5..8 of terms 2, 2, 4, 4.
    const log = raftLogOf(entries([2, 2, 4, 4]), 4, 1);
    expect(backUp(log, 9, { conflictTerm: 2, conflictIndex: 3 })).toEqual({ next: 7, rule: 'past-own-term' });
    expect(backUp(log, 9, { conflictTerm: 1, conflictIndex: 2 })).toEqual({ next: 5, rule: 'past-own-term' });
    // A term the leader does not hold past its snapshot: the follower's first index, which InstallSnapshot answers.
    expect(backUp(log, 9, { conflictTerm: 3, conflictIndex: 3 })).toEqual({ next: 3, rule: 'to-follower-first' });
  });
});

describe('snapshots × leader-noop', () => {
  it('a one-voter leader that compacts its no-op in the ms it won still passes the no-op invariant (fuzz seed 1, run 8414 of every feature)', () => {
    const fields = {
      seed: '3765933803',
      nodes: '2',
      timeout: '205-393',
      heartbeat: '34',
      latency: '1-27',
      clients: 'A,B',
      features: 'pre-vote,check-quorum,leader-noop,snapshots,reads,fast-backup,transfer,membership',
      snapshotEvery: '7',
      readMode: 'lease',
    };
    const config = configFromFields(DEFAULT_CONFIG, fields) as SimConfig;
    const sim = new Simulation(config, parseSchedule('@6141 client A acquire k1 1995; @7683 partition n1; @7888 remove n2; @10000 calm'));
    const checker = attachInvariants(sim);
    sim.advanceTo(10_519);
    const n1 = sim.cluster.nodes[0];
    // The run's point: n1 leads term 3 and its no-op is already inside its snapshot.
    expect([n1.role, n1.term, n1.snapshotTerm]).toEqual(['leader', 3, 3]);
    expect(checker.violations).toEqual([]);
  });
});
