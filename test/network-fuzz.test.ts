/**
 * Issue 28 under the fuzzer (`npm run fuzz -- --network`): each run of the chapter's service draws
 * its network model, failure detector, persist delay and slow phases from a stream of its own, so
 * the run's own draws (cluster, timings, faults) are the ones it had, and a run without the flag is
 * what it was. Every drawn configuration is one the lab accepts, and a run replays from its
 * configuration and schedule.
 */
import { describe, expect, it } from 'vitest';
import { runFuzzCli } from '../src/cli/fuzzCli';
import { fuzzRun, replay } from '../src/sim/check/fuzz';
import { checkConfig } from '../src/sim/model/config';

describe('fuzz --network', () => {
  it('draws the network and detector beside the run’s own draws: the same cluster and timings, a config the lab accepts', () => {
    const kinds = new Set<string>();
    for (let run = 0; run < 12; run++) {
      const plain = fuzzRun(1, run, [], 3000);
      const drawn = fuzzRun(1, run, [], 3000, 'swarm', [], { network: true });
      expect(drawn.config.seed).toBe(plain.config.seed);
      expect(drawn.config.nodeIds).toEqual(plain.config.nodeIds);
      expect(drawn.config.electionTimeoutMs).toEqual(plain.config.electionTimeoutMs);
      expect(drawn.kinds).toEqual(plain.kinds);
      expect(checkConfig(drawn.config)).toBeNull();
      expect(drawn.violation).toBeNull();
      if (drawn.config.detector !== undefined) kinds.add(drawn.config.detector.kind);
      if (drawn.config.regions !== undefined) kinds.add('regions');
      if (drawn.config.latencyLognormal !== undefined) kinds.add('lognormal');
      if (!Number.isInteger(drawn.config.latencyMs[1])) kinds.add('fraction');
      if (drawn.schedule.some((a) => a.verb === 'slow')) kinds.add('slow');
      // Replaying the run's configuration and schedule finds nothing either.
      expect(replay(drawn.config, drawn.schedule, drawn.untilMs)).toBeNull();
    }
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['gossip', 'phi-accrual', 'slow']));
    expect(kinds.size).toBeGreaterThanOrEqual(5);
  });

  it('the CLI names what each run draws, and refuses it beside --self-check and with Paxos in one sentence', () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), progress: () => {}, tty: false, clock: () => 0 };
    expect(runFuzzCli(['--runs', '3', '--network', '--lock', 'raft'], io)).toBe(0);
    expect(lines.join('\n')).toContain('each drawing its network model, failure detector, persist delay and slow phases');
    lines.length = 0;
    expect(runFuzzCli(['--self-check', '--network'], io)).toBe(2);
    expect(lines.join('\n')).toMatch(/--self-check .* takes no --network/);
    lines.length = 0;
    expect(runFuzzCli(['--protocol', 'paxos', '--network'], io)).toBe(2);
    expect(lines.join('\n')).toMatch(/--network draws Raft's network models and failure detectors; a paxos run keeps/);
  });
});
