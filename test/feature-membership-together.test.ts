// Membership changes (§4.1, §4.2.1) together with the other protocol features: snapshots (§5.1:
// a snapshot carries the configuration in force at its last included index), fast-backup and
// transfer (per-peer state grows with the cluster; §3.10's target must be a voter) and reads (§6.4,
// §6.4.1: ReadIndex's round and the lease count the voters of the configuration in force).
import { describe, expect, it } from 'vitest';
import { makeConfig, type SimConfig } from '../src/sim/model/config';
import type { FeatureName } from '../src/sim/model/features';
import { attachInvariants } from '../src/sim/check/invariants';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

// Seed 42 with three nodes: n2 wins term 1 at 170 ms (the chapter's first election).
const three = (features: FeatureName[], extra: Partial<SimConfig> = {}): SimConfig => ({
  ...makeConfig({ nodeIds: ['n1', 'n2', 'n3'], features: ['membership', ...features] }),
  ...extra,
});

function run(config: SimConfig, schedule: string, untilMs: number) {
  const sim = new Simulation(config, parseSchedule(schedule), { recordDetails: true });
  const checker = attachInvariants(sim);
  sim.advanceTo(untilMs);
  return { sim, checker };
}

const lines = (sim: Simulation, kind: string) => sim.cluster.events.filter((e) => e.kind === kind).map((e) => e.text);
const FOUR = ['n1', 'n2', 'n3', 'n4'];
// n2 leads, grows to four (n4 a learner, then a voter), then commits more entries.
const GROW = '@400 submit a=1; @600 add n4; @900 submit b=2; @910 submit c=3; @920 submit d=4; @930 submit e=5; @940 submit f=6';

describe('§5.1 × §4.1 a snapshot carries the configuration in force at its last included index', () => {
  it('the configuration entry is compacted, yet every server keeps {n1, n2, n3, n4} and its global index', () => {
    const { sim, checker } = run(three(['snapshots'], { snapshotEvery: 3 }), GROW, 1500);
    for (const node of sim.cluster.nodes) {
      expect(node.snapshot?.index).toBeGreaterThan(2); // the entry at index 2 (the add) is in the snapshot
      expect(node.snapshot?.config?.voters).toEqual(FOUR);
      expect(node.snapshot?.config?.index).toBe(2);
      expect(node.membership?.voters).toEqual(FOUR);
      expect(node.membership?.configIndex).toBe(2);
    }
    expect(sim.cluster.node('n2').majority).toBe(3);
    expect(checker.violations).toEqual([]);
  });

  it('a configuration entry after a snapshot is found at its global index', () => {
    const { sim, checker } = run(
      three(['snapshots'], { snapshotEvery: 2 }),
      '@400 submit a=1; @410 submit b=2; @420 submit c=3; @600 add n4',
      1200,
    );
    const n2 = sim.cluster.node('n2');
    expect(n2.snapshotIndex).toBeGreaterThan(0);
    expect(n2.membership?.configIndex).toBe(4);
    expect(checker.violations).toEqual([]);
  });

  it('InstallSnapshot installs it: a server down during the change learns {n1, n2, n3, n4} from the snapshot', () => {
    const { sim, checker } = run(
      three(['snapshots'], { snapshotEvery: 3 }),
      `@300 crash n1; ${GROW}; @1200 restart n1; @1500 submit g=7`,
      2000,
    );
    const n1 = sim.cluster.node('n1');
    expect(sim.cluster.details.some((d) => d.kind === 'snapshot-installed' && d.values.node === 'n1')).toBe(true);
    expect(n1.snapshot?.config?.voters).toEqual(FOUR);
    expect(n1.membership?.voters).toEqual(FOUR);
    expect(n1.peers).toEqual(['n2', 'n3', 'n4']);
    expect(checker.violations).toEqual([]);
  });

  it('a restart restores it from the snapshot, and entries appended after never undo it', () => {
    const { sim, checker } = run(
      three(['snapshots'], { snapshotEvery: 3 }),
      `${GROW}; @1200 crash n3; @1300 restart n3; @1500 submit g=7; @1510 submit h=8`,
      2000,
    );
    const n3 = sim.cluster.node('n3');
    expect(n3.snapshot?.config?.voters).toEqual(FOUR);
    expect(n3.membership?.voters).toEqual(FOUR);
    expect(n3.majority).toBe(3);
    expect(checker.violations).toEqual([]);
  });
});

describe('§5.3 (fast-backup) and §3.10 (transfer) × §4.1 per-peer state grows with the cluster', () => {
  it("a server added at run time gets the leader's per-peer state: fast-backup's round trips start at 0", () => {
    // Checked before n4 first answers (the latency is at least 5 ms), and again once it has.
    const { sim } = run(three(['fast-backup']), '@400 submit a=1; @600 add n4', 602);
    const n2 = sim.cluster.node('n2');
    expect(n2.peers).toEqual(['n1', 'n3', 'n4']);
    expect(n2.backupRoundsOf('n4')).toBe(0);
    sim.advanceTo(1000);
    expect(n2.backupRoundsOf('n4')).toBe(0);
  });

  it('the new server can be the target of a transfer, and becomes leader', () => {
    const { sim, checker } = run(three(['transfer']), '@400 submit a=1; @600 add n4; @1000 transfer n4', 1500);
    expect(lines(sim, 'transfer-refused')).toEqual([]);
    expect(sim.cluster.leader()?.id).toBe('n4');
    expect(checker.violations).toEqual([]);
  });

  it('a transfer target must be a voter of the configuration in force: a removed server is refused with one sentence', () => {
    const { sim } = run(three(['transfer']), '@400 submit a=1; @600 remove n3; @900 transfer n3', 1200);
    expect(lines(sim, 'transfer-refused')).toEqual([
      'transfer n3 refused: n3 is not a voter of the configuration {n1, n2} in force (a learner or a removed server cannot lead, §4.1)',
    ]);
    expect(sim.cluster.leader()?.id).toBe('n2');
  });
});

describe('§6.4 and §6.4.1 (reads) × §4.1 a majority of the voters of the configuration in force', () => {
  const reads = (mode: 'read-index' | 'lease') => three(['reads'], { clientIds: ['A', 'B'], readMode: mode });
  const served = (sim: Simulation, node: string) => sim.cluster.details.filter((d) => d.kind === 'read-served' && d.values.node === node);

  it("ReadIndex counts a server added at run time: with n2's round answered by n3 and n4 (n1 cut off), the read is served", () => {
    const { sim, checker } = run(reads('read-index'), '@400 client A put x=1; @600 add n4; @1000 partition n1; @1100 client B get x', 1600);
    expect(sim.cluster.node('n2').membership?.voters).toEqual(FOUR);
    expect(served(sim, 'n2')).toHaveLength(1);
    expect(checker.violations).toEqual([]);
  });

  it('ReadIndex does not count a server being removed: n2 with only n3 (whose removal is uncommitted) never confirms', () => {
    const { sim } = run(reads('read-index'), '@400 client A put x=1; @600 remove n3; @600 partition n2,n3; @900 client B get x', 1200);
    const n2 = sim.cluster.node('n2');
    expect(n2.membership?.voters).toEqual(['n1', 'n2']);
    expect(n2.role).toBe('leader');
    expect(n2.confirmedRound()).toBeLessThan(n2.readRound); // only rounds n1 answered before the partition
    expect(served(sim, 'n2')).toEqual([]);
  });

  it('the lease is not held on the answers of a server being removed', () => {
    const { sim } = run(reads('lease'), '@400 client A put x=1; @600 remove n3; @600 partition n2,n3; @900 client B get x', 1200);
    const n2 = sim.cluster.node('n2');
    expect(n2.role).toBe('leader');
    expect(n2.leaseStartLocalMs()).toBeLessThan(600); // the last round n1 answered, before the partition
    expect(served(sim, 'n2')).toEqual([]);
  });
});
