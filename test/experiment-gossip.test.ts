/**
 * Issue 28, item 5: gossip convergence as an experiment — the template gossip-spread (N nodes with
 * the gossip detector, a follower crashed, run until every live view suspects it), its two measures
 * on hand-built records, the preset's sizes, the page's pool handing such runs out one at a time, and
 * the one sentence a big cluster without gossip gets.
 */
import { describe, expect, it } from 'vitest';
import { experimentReport, resolveExperiment } from '../src/cli/experimentCli';
import { planExperiment, runExperiment, type ExperimentSpec } from '../src/sim/experiments/experiment';
import { gossipConvergence } from '../src/sim/experiments/gossipScale';
import { gossipRoundsToAll, gossipSpreadRounds } from '../src/sim/experiments/measures';
import type { Observation, RunRecord } from '../src/sim/experiments/observations';
import { findExperimentPreset } from '../src/sim/experiments/presets';
import { parseSweep, type Sweep } from '../src/sim/experiments/sweep';
import { TEMPLATES } from '../src/sim/experiments/templates';
import { BATCH_RUNS } from '../src/ui/experiments/experimentPool';

const NODES = ['n1', 'n2', 'n3', 'n4'];
const rec = (observations: Observation[], gossipRoundMs: number | null = 50): RunRecord => ({
  nodeIds: NODES,
  endMs: 3000,
  messages: 0,
  observations,
  ...(gossipRoundMs === null ? {} : { gossipRoundMs }),
});
const suspect = (t: number, by: string, node = 'n4'): Observation => ({ t, kind: 'suspect', node, by });

describe('the gossip measures (rounds to every live view; the spread from the first view to the last)', () => {
  it('count from the crash, and from the first suspicion, to the last live view’s, in rounds', () => {
    const r = rec([
      // Before the crash, a suspicion of n4 (a slow start) does not count.
      suspect(400, 'n1'),
      { t: 1000, kind: 'crash', node: 'n4' },
      suspect(1600, 'n2'),
      suspect(1650, 'n1'),
      suspect(1700, 'n2'),
      suspect(1725, 'n3'),
      // Another member's suspicion is not the crashed node's.
      suspect(1900, 'n1', 'n2'),
    ]);
    expect(gossipRoundsToAll(r)).toBe(14.5);
    expect(gossipSpreadRounds(r)).toBe(2.5);
  });

  it('have no value while a live view has not suspected it, without a crash, or without gossip', () => {
    const crash: Observation = { t: 1000, kind: 'crash', node: 'n4' };
    expect(gossipRoundsToAll(rec([crash, suspect(1600, 'n1'), suspect(1650, 'n2')]))).toBeNull();
    expect(gossipSpreadRounds(rec([suspect(1600, 'n1')]))).toBeNull();
    expect(gossipRoundsToAll(rec([crash, suspect(1600, 'n1'), suspect(1600, 'n2'), suspect(1600, 'n3')], null))).toBeNull();
    // A node that crashed too is not a live view that must suspect.
    const both = rec([crash, { t: 1100, kind: 'crash', node: 'n3' }, suspect(1600, 'n1'), suspect(1700, 'n2')]);
    expect(gossipSpreadRounds(both)).toBe(2);
  });
});

describe('the template gossip-spread', () => {
  const sweep = (t: string) => parseSweep(t) as Sweep;

  it('measures what the bench measures (gossipConvergence), run for run, and its run carries the gossip detector', () => {
    const spec: ExperimentSpec = { template: 'gossip-spread', sweep: sweep('nodes=8,16'), seeds: 2, firstSeed: 1 };
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const results = runExperiment(spec, points);
    for (const r of results) {
      const n = Number(points[r.point].label);
      const bench = gossipConvergence(n, r.seed);
      expect(r.values).toEqual({ 'gossip-spread': bench.spreadRounds, 'gossip-rounds': bench.rounds });
      expect(r.run.config.detector).toEqual({ kind: 'gossip', fanout: 3, roundMs: 50, suspectMs: 600 });
      expect(r.run.config.nodeIds.length).toBe(n);
    }
  });

  it('a cluster past 9 nodes without the gossip detector gets one sentence; the page hands gossip runs out one at a time', () => {
    expect(planExperiment({ template: 'crash-leader', sweep: sweep('nodes=5,16'), seeds: 1, firstSeed: 1 })).toBe(
      'At nodes=16 the run cannot be made: A cluster has 1 to 9 nodes, not 16.',
    );
    expect(parseSweep('nodes=1001')).toBe('Each nodes value must be a whole number from 1 to 1000 (nodes), like 3,5,7,9, not "1001".');
    expect(TEMPLATES['gossip-spread'].runsPerBatch).toBe(1);
    expect(BATCH_RUNS).toBeGreaterThan(1);
  });

  it('the preset gossip-convergence sweeps 8 to 1,000 nodes, 10 seeds in the CLI and 3 on the page, and the CLI prints log2 N beside the spread', () => {
    const preset = findExperimentPreset('gossip-convergence');
    expect(preset?.spec.sweep.values).toEqual([8, 16, 32, 64, 128, 256, 512, 1000]);
    expect([preset?.spec.seeds, preset?.pageSeeds]).toEqual([10, 3]);
    const resolved = resolveExperiment(['--preset', 'gossip-convergence', '--sweep', 'nodes=8,32', '--seeds', '1']);
    if (resolved === 'help') throw new Error('help');
    const report = experimentReport(resolved, runExperiment(resolved.spec, resolved.points), null);
    expect(report).toMatch(
      /Against log2 N \(the page's reference line\):\n {2}nodes=8: spread median \d+(\.\d)? rounds, log2 N 3\.0\n {2}nodes=32: spread median \d+(\.\d)? rounds, log2 N 5\.0\n/,
    );
  });
});
