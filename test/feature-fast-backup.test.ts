// fast-backup: the optimization the Raft paper's §5.3 sketches (Ongaro 2014 §3.5). Rules of the
// hint and the leader's jump, the round trips saved on the preset, and the bug as a negative control.
import { describe, expect, it } from 'vitest';
import { describeDetail } from '../src/sim/model/describe';
import type { DetailEvent } from '../src/sim/model/events';
import { backUp, conflictHint } from '../src/sim/raft/fastBackup';
import { runFuzz } from '../src/sim/check/fuzz';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { PSEUDOCODE_LINE_IDS } from '../src/sim/teach/pseudocode';
import { Simulation } from '../src/sim/run/simulation';
import { takeRunView } from '../src/sim/view/runView';
import type { LogEntry } from '../src/sim/model/types';
import { explain } from '../src/sim/teach/why';
import type { FeatureName } from '../src/sim/model/features';
import type { BugName } from '../src/sim/model/config';
import type { RaftLog } from '../src/sim/raft/log';
import { raftLogOf } from './helpers/raftLog';

const logOf = (terms: number[]): RaftLog => raftLogOf(terms.map((term, i): LogEntry => ({ term, command: `e${i + 1}` })));

function presetRun(features: FeatureName[], bugs: BugName[] = [], untilMs = 3000): Simulation {
  const preset = findPreset('stale-term-backup');
  if (preset === null) throw new Error('no preset');
  const sim = new Simulation({ ...preset.config, features, bugs }, presetActions(preset), { recordDetails: true });
  sim.advanceTo(untilMs);
  return sim;
}

const rejectionsBy = (sim: Simulation, node: string) =>
  sim.cluster.details.filter(
    (d): d is Extract<DetailEvent, { kind: 'append-rejected' }> =>
      d.kind === 'append-rejected' && d.values.node === node && d.values.reason !== 'stale-term',
  );

describe('§5.3 fast back-up, the follower: a rejection names the conflicting term and its first index', () => {
  it.each([
    [
      'a mismatch inside a run of one term: that term, from where the run starts',
      [1, 1, 2, 2, 2],
      4,
      { conflictTerm: 2, conflictIndex: 3 },
    ],
    ['a mismatch at the first entry', [3, 3], 1, { conflictTerm: 3, conflictIndex: 1 }],
    ['a log too short: no term, and the index just past its end', [1, 2], 5, { conflictTerm: 0, conflictIndex: 3 }],
    ['an empty log', [], 1, { conflictTerm: 0, conflictIndex: 1 }],
  ] as const)('%s', (_name, terms, prev, hint) => {
    expect(conflictHint(logOf([...terms]), prev)).toEqual(hint);
  });
});

describe('§5.3 fast back-up, the leader: one round trip per conflicting term', () => {
  it('holding entries of the term: just past its own last entry of it', () => {
    // Leader 1,1,3,3,5,5; follower says term 3 from index 2.
    expect(backUp(logOf([1, 1, 3, 3, 5, 5]), 7, { conflictTerm: 3, conflictIndex: 2 })).toEqual({ next: 5, rule: 'past-own-term' });
  });

  it('holding none of the term: to the follower’s first index of it', () => {
    expect(backUp(logOf([1, 1, 4, 4, 4]), 6, { conflictTerm: 2, conflictIndex: 3 })).toEqual({ next: 3, rule: 'to-follower-first' });
  });

  it('a follower whose log is too short: to just past its end', () => {
    expect(backUp(logOf([1, 1, 1, 1, 1]), 6, { conflictTerm: 0, conflictIndex: 3 })).toEqual({ next: 3, rule: 'to-follower-end' });
  });

  it('a late or duplicated rejection never moves nextIndex forward, and never below 1', () => {
    expect(backUp(logOf([1, 1, 1, 1]), 3, { conflictTerm: 0, conflictIndex: 5 })).toEqual({ next: 2, rule: 'to-follower-end' });
    expect(backUp(logOf([2]), 1, { conflictTerm: 1, conflictIndex: 1 }).next).toBe(1);
  });
});

describe('the stale-term-backup preset: the round trips saved', () => {
  it('with the chapter’s one-entry back-up, n2 rejects n3 10 times before the logs meet', () => {
    const sim = presetRun([]);
    const rejections = rejectionsBy(sim, 'n2');
    expect(rejections).toHaveLength(10);
    expect(rejections.every((d) => d.values.leader === 'n3' && d.values.conflictIndex === undefined)).toBe(true);
    expect(sim.cluster.details.some((d) => d.kind === 'backed-up')).toBe(false);
    expect(sim.cluster.node('n2').log.map((e) => e.command)).toEqual(['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8']);
  });

  it('with fast-backup, 1 rejection: n2 hints term 1 from index 1, n3 jumps nextIndex 10 -> 2, and round trip 1 is counted', () => {
    const sim = presetRun(['fast-backup']);
    const rejections = rejectionsBy(sim, 'n2');
    expect(rejections).toHaveLength(1);
    expect(rejections[0].values).toMatchObject({ conflictTerm: 1, conflictIndex: 1 });
    expect(rejections[0].lines).toContain('fb.hint');
    const backed = sim.cluster.details.filter((d): d is Extract<DetailEvent, { kind: 'backed-up' }> => d.kind === 'backed-up');
    expect(backed.map((d) => d.values)).toEqual([
      { node: 'n3', peer: 'n2', term: 5, from: 10, to: 2, rule: 'past-own-term', conflictTerm: 1, conflictIndex: 1, rounds: 1 },
    ]);
    expect(describeDetail(backed[0])).toBe(
      'n3 backs up nextIndex[n2] 10 -> 2 (past its own last entry of term 1); round trip 1 of backing up (fast back-up, §5.3)',
    );
    expect(sim.cluster.node('n2').log.map((e) => e.command)).toEqual(['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8']);
    for (const d of [...rejections, ...backed]) for (const id of d.lines) expect(PSEUDOCODE_LINE_IDS).toContain(id);
  });

  it('Why on the hinting reply names the term, its first index and the round trips spent', () => {
    const preset = findPreset('stale-term-backup');
    if (preset === null) throw new Error('no preset');
    const sim = new Simulation({ ...preset.config, features: ['fast-backup'] }, presetActions(preset));
    let seq: number | null = null;
    while (seq === null && sim.nowMs < 3000) {
      sim.step();
      const env = sim.cluster.inflight.items.find((e) => e.payload.type === 'AppendReply' && e.payload.conflictIndex !== undefined);
      if (env) seq = env.seq;
    }
    expect(seq).not.toBeNull();
    const why = explain({ kind: 'message', seq: seq as number }, takeRunView(sim));
    expect(why.answer.join(' ')).toContain('its entry there is of term 1, and it holds term 1 from index 1');
    expect(why.answer.join(' ')).toContain('one per conflicting term');
    expect(why.rule).toContain('§5.3');
    expect(why.facts).toContainEqual(['conflictIndex', '1']);
  });

  it('a leader’s snapshot shows the round trips only with the feature', () => {
    const on = takeRunView(presetRun(['fast-backup'], [], 2565));
    expect(on.nodes.find((n) => n.id === 'n3')?.backupRounds).toMatchObject({ n2: 1 });
    const off = takeRunView(presetRun([], [], 2565));
    expect(off.nodes.find((n) => n.id === 'n3')?.backupRounds).toBeUndefined();
  });
});

describe('the bug hint-skips-check (negative control)', () => {
  it('the fuzzer finds it within 200 runs with a replayable schedule (fuzz seed 1)', () => {
    const result = runFuzz({ seed: 1, runs: 200, bugs: ['hint-skips-check'], maxShrinkRuns: 100 });
    expect(result.counterexample).not.toBeNull();
    expect(result.counterexample?.run).toBeLessThan(200);
    expect(['log-matching', 'state-machine-safety', 'leader-completeness']).toContain(result.counterexample?.violation.invariant);
  });

  it('without the bug, the same 200 runs with fast-backup on hold every invariant', () => {
    const result = runFuzz({ seed: 1, runs: 200, features: ['fast-backup'] });
    expect(result.counterexample).toBeNull();
  });
});
