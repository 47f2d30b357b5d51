/**
 * Issue 28: commit latency for a client in each region against where the majority is placed — the
 * per-region measure on hand-built records, the template's placement of A, B and C, and the preset
 * commit-by-region's finding (a majority in us-east commits at datacenter speed for the us-east client only).
 */
import { describe, expect, it } from 'vitest';
import { planExperiment, runExperiment, type ExperimentSpec } from '../src/sim/experiments/experiment';
import { regionAcquireLatencies, regionCommitMedian } from '../src/sim/experiments/measures';
import type { Observation, RunRecord } from '../src/sim/experiments/observations';
import { findExperimentPreset } from '../src/sim/experiments/presets';
import { quantile } from '../src/sim/experiments/stats';
import { BASE_PARAMS, TEMPLATES, configFor } from '../src/sim/experiments/templates';

const acquired = (client: string, sentAt: number, t: number, granted = true): Observation => ({
  t,
  kind: 'client-acquire',
  client,
  sentAt,
  granted,
});
const rec = (observations: Observation[], clientRegions?: Record<string, string>): RunRecord => ({
  nodeIds: ['n1', 'n2', 'n3'],
  endMs: 9000,
  messages: 0,
  observations,
  ...(clientRegions ? { clientRegions } : {}),
});

describe('a region’s commit latency (request to the reply granting it, for the clients placed there)', () => {
  const where = { A: 'us-east', B: 'us-central', C: 'us-west' };
  it('takes each granted acquire of that region’s clients, and its median', () => {
    const r = rec([acquired('A', 100, 101), acquired('C', 100, 170.5), acquired('A', 200, 203), acquired('A', 300, 301.5)], where);
    expect(regionAcquireLatencies(r, 'us-east')).toEqual([1, 3, 1.5]);
    expect(regionCommitMedian(r, 'us-east')).toBe(1.5);
    expect(regionCommitMedian(r, 'us-west')).toBe(70.5);
  });
  it('has no value for a region without a client, without regions, and leaves out an acquire told busy', () => {
    expect(regionCommitMedian(rec([acquired('A', 100, 101)], where), 'us-central')).toBeNull();
    expect(regionCommitMedian(rec([acquired('A', 100, 101)]), 'us-east')).toBeNull();
    expect(regionAcquireLatencies(rec([acquired('A', 100, 190, false), acquired('A', 200, 201)], where), 'us-east')).toEqual([1]);
  });
});

describe('the template region-clients', () => {
  it('places A in us-east, B in us-central and C in us-west beside the placement’s nodes; steady-load’s placements keep no clients', () => {
    const config = configFor(TEMPLATES['region-clients'], { ...BASE_PARAMS, placement: 1 }, 1);
    expect(config.clientIds).toEqual(['A', 'B', 'C']);
    expect(config.regions).toEqual({
      rtt: 'us',
      places: [
        { region: 'us-east', ids: ['n1', 'n2', 'A'] },
        { region: 'us-central', ids: ['n3', 'n4', 'B'] },
        { region: 'us-west', ids: ['n5', 'C'] },
      ],
    });
    expect(configFor(TEMPLATES['steady-load'], { ...BASE_PARAMS, placement: 1 }, 1).regions?.places.flatMap((p) => p.ids)).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
    ]);
  });

  it('the preset commit-by-region: with the majority in us-east, A commits in about a millisecond when the leader is there, C pays about 70 ms', () => {
    const preset = findExperimentPreset('commit-by-region');
    if (preset === null) throw new Error('no preset commit-by-region');
    const spec: ExperimentSpec = { ...preset.spec, seeds: 12 };
    const points = planExperiment(spec);
    if (typeof points === 'string') throw new Error(points);
    const results = runExperiment(spec, points);
    const at = (placement: string, m: string) =>
      results
        .filter((r) => points[r.point].label === placement)
        .map((r) => r.values[m])
        .filter((v): v is number => typeof v === 'number');
    expect(at('0', 'client-us-east')).toHaveLength(12);
    expect(quantile(at('0', 'client-us-east'), 0.5)).toBeLessThan(2);
    expect(quantile(at('0', 'client-us-west'), 0.5)).toBeGreaterThan(60);
    // Split 2-2-1, no client is near a majority of its own: every median pays an inter-region trip.
    expect(Math.min(...at('1', 'client-us-east'), ...at('1', 'client-us-central'), ...at('1', 'client-us-west'))).toBeGreaterThan(25);
  });
});
