// Why texts and detail events of the protocol features, on the features' own presets.
import { describe, expect, it } from 'vitest';
import { describeDetail } from '../src/sim/model/describe';
import type { FeatureName } from '../src/sim/model/features';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { Simulation } from '../src/sim/run/simulation';
import { takeRunView } from '../src/sim/view/runView';
import { DISSERTATION, explain } from '../src/sim/teach/why';

function run(preset: string, features: FeatureName[], atMs: number): Simulation {
  const p = findPreset(preset);
  if (!p) throw new Error(preset);
  const sim = new Simulation({ ...p.config, features }, presetActions(p), { recordDetails: true });
  sim.advanceTo(atMs);
  return sim;
}

const text = (e: { answer: readonly string[] }) => e.answer.join(' ');

describe('pre-vote (§9.6)', () => {
  it('a cut-off pre-candidate is explained as asking, staying in its term', () => {
    const sim = run('rejoin-disrupts', ['pre-vote'], 1000);
    const snap = takeRunView(sim);
    const n4 = snap.nodes.find((n) => n.id === 'n4');
    expect(n4?.preCandidate).toBe(true);
    const why = explain({ kind: 'node', id: 'n4' }, snap, sim.cluster.events);
    expect(text(why)).toContain('n4 is asking for pre-votes');
    expect(text(why)).toContain('it cannot get a majority');
    expect(why.rule).toBe(DISSERTATION.preVote);
  });

  it('a PreVote in flight is labelled and explained as a question that changes nothing', () => {
    const sim = new Simulation({ ...findPreset('rejoin-disrupts')!.config, features: ['pre-vote'] }, []);
    sim.advanceTo(160); // n2's pre-votes are on their way (its timer fired at 156)
    const snap = takeRunView(sim);
    const m = snap.messages.find((x) => x.type === 'RequestVote');
    expect(m?.label).toMatch(/^PreVote term 1 /);
    const why = explain({ kind: 'message', seq: m!.seq }, snap);
    expect(why.title).toMatch(/^PreVote n2 → /);
    expect(why.rule).toBe(DISSERTATION.preVote);
  });

  it('details say who asked, who refused and why, and who won', () => {
    const sim = run('rejoin-disrupts', ['pre-vote'], 3000);
    const lines = sim.cluster.details.map(describeDetail);
    expect(lines).toContain('n4 asks for pre-votes for term 2, staying in term 1 (§9.6)');
    expect(lines).toContain('n2 has pre-votes from n2, n4, n5 (3 of 3 needed): it starts the election for term 1');
    expect(lines.some((l) => /^n\d refuses a pre-vote for n\d \(term 1\): term 1 is not newer than its own 1$/.test(l))).toBe(true);
  });
});

describe('check-quorum (§6.2)', () => {
  it('a stale leader without CheckQuorum is told it never stops on its own; with it, the detail says why it stepped down', () => {
    const off = run('isolated-leader', [], 1500);
    const why = explain({ kind: 'node', id: 'n2' }, takeRunView(off), off.cluster.events);
    expect(text(why)).toContain('Nothing makes it stop on its own');
    expect(why.rule).toContain(DISSERTATION.checkQuorum);
    const on = run('isolated-leader', ['check-quorum'], 1500);
    expect(on.cluster.details.map(describeDetail)).toContain(
      'n2 heard from 1 of the 3 servers it needs since t=618 ms: it steps down (CheckQuorum, §6.2)',
    );
  });
});

describe('leader-noop (§8)', () => {
  it("an earlier term's entry left uncommitted points at the no-op; the no-op itself is explained", () => {
    const off = run('noop-commit', [], 3000);
    const why = explain({ kind: 'entry', node: 'n1', index: 1 }, takeRunView(off));
    expect(why.title).toBe('Why is x=1 at index 1 not committed on n1?');
    expect(text(why)).toContain('leader-noop in Settings ▸ Protocol');
    const on = run('noop-commit', ['leader-noop'], 3000);
    const snap = takeRunView(on);
    const n1 = snap.nodes.find((n) => n.id === 'n1');
    expect(n1?.log.map((e) => e.kind)).toEqual(['noop', 'plain', 'noop']);
    const noop = explain({ kind: 'entry', node: 'n1', index: 3 }, snap);
    expect(noop.title).toBe('Why is no-op at index 3 committed on n1?');
    expect(text(noop)).toContain('carries no command');
    expect(noop.rule).toContain(DISSERTATION.noop);
  });
});
