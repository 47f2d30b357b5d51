// The Paxos experiments (issue 29, items 2 and 5), on a few seeds: what each run measures, that
// each row's link replays its run, and the CLI's one-sentence errors. The full sweeps belong to
// `npm run experiment -- --paxos duel|side-by-side`.
import { describe, expect, it } from 'vitest';
import { decodeLink, encodeLink } from '../src/share/link';
import { duelRun, sideBySideRun } from '../src/sim/experiments/paxos';
import { PaxosSimulation } from '../src/sim/run/paxosSimulation';
import { runPaxosExperimentCli } from '../src/cli/paxosExperimentCli';
import { UsageError } from '../src/cli/args';

describe('dueling proposers (Paxos Made Simple §2.4: progress needs a distinguished proposer or a random back-off)', () => {
  it('seed 17 duels for nine pre-emptions without back-off, and a 20-100 ms back-off ends it in its first ballot', () => {
    const none = duelRun(17, null);
    const backoff = duelRun(17, [20, 100]);
    expect(none.values).toMatchObject({ chosenMs: 177, preemptions: 9 });
    expect(backoff.values).toMatchObject({ chosenMs: 33, preemptions: 1 });
  });

  it("a run's link replays it: the same value chosen at the same time", () => {
    const r = duelRun(17, null);
    const link = decodeLink(encodeLink(r.run));
    expect(link.ok).toBe(true);
    if (!link.ok) return;
    const sim = new PaxosSimulation(link.spec.config, link.spec.schedule);
    sim.advanceTo(r.run.atMs);
    expect(sim.cluster.chosen[0]?.atMs).toBe(177 + 10);
  });
});

describe('Raft beside Multi-Paxos on one workload and one leader crash', () => {
  it('both commit every command they were given, spend about the same messages on each, and fail over', () => {
    const raft = sideBySideRun(1, 'raft');
    const mp = sideBySideRun(1, 'multi-paxos');
    for (const r of [raft, mp]) {
      // A command every 100 ms from 1 s to 4 s while a leader is known: the failover's gap gets none.
      expect(r.values.committed).toBe(28);
      expect(r.values.failoverMs).toBeGreaterThan(0);
      expect(r.values.messagesPerCommand).toBeGreaterThan(20);
      expect(r.values.messagesPerCommand).toBeLessThan(40);
    }
    expect(mp.run.config.protocol).toBe('multi-paxos');
    expect(raft.run.config.protocol).toBeUndefined();
  });

  it('the CLI names a wrong experiment and a misplaced --svg in one sentence', () => {
    expect(() => runPaxosExperimentCli(['--paxos', 'race'])).toThrow(
      new UsageError('--paxos must be one of duel, side-by-side, not "race".'),
    );
    expect(() => runPaxosExperimentCli(['--paxos', 'side-by-side', '--seeds', '1', '--svg', 'x.svg'])).toThrow(
      '--svg draws the duel experiment (time to chosen against the back-off range).',
    );
  });
});
