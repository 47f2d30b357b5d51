// Scenario tier: the classic Raft test scenarios (the paper's, and MIT 6.824's lab tests) as
// schedules, each with its assertions, every invariant checked after every millisecond.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type SimConfig } from '../src/sim/model/config';
import { commandText } from '../src/sim/model/describe';
import { replay } from '../src/sim/check/fuzz';
import { attachInvariants, type InvariantChecker } from '../src/sim/check/invariants';
import { CPythonRandom } from '../src/sim/model/prng';
import { formatSchedule, parseSchedule, type ActionBody } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

const IDS = ['n1', 'n2', 'n3', 'n4', 'n5'];

function run(schedule: string, untilMs: number, config: SimConfig = DEFAULT_CONFIG): { sim: Simulation; checker: InvariantChecker } {
  const sim = new Simulation(config, parseSchedule(schedule));
  const checker = attachInvariants(sim);
  sim.advanceTo(untilMs);
  return { sim, checker };
}

const logOf = (sim: Simulation, id: string) => sim.cluster.node(id).log.map((e) => commandText(e.command));
const lines = (sim: Simulation) => sim.cluster.events.map((e) => e.line);

function leadersAt(sim: Simulation): string[] {
  return sim.cluster.nodes.filter((n) => n.alive && n.role === 'leader').map((n) => n.id);
}

describe('classic Raft scenarios', () => {
  it('initial election: one leader, everyone in its term, and it stays without faults', () => {
    const { sim, checker } = run('', 3000);
    expect(lines(sim).slice(0, 2)).toEqual([
      't=  156 ms n2 election timeout, candidate in term 1',
      't=  168 ms n2 wins term 1 with votes from n1, n2, n5',
    ]);
    expect(leadersAt(sim)).toEqual(['n2']);
    expect(sim.cluster.nodes.map((n) => n.term)).toEqual([1, 1, 1, 1, 1]);
    expect(sim.cluster.nodes.filter((n) => n.id !== 'n2').every((n) => n.leaderId === 'n2')).toBe(true);
    expect(lines(sim).length).toBe(2); // heartbeats keep every timer from firing
    expect(checker.violations).toEqual([]);
    // And for many seeds: a leader within a second, at most one per term.
    for (let seed = 1; seed <= 30; seed++) {
      const r = run('', 1000, { ...DEFAULT_CONFIG, seed });
      expect(leadersAt(r.sim).length, `seed ${seed}`).toBe(1);
      expect(r.checker.violations).toEqual([]);
    }
  });

  it('re-election after losing the leader; the old leader rejoins as a follower', () => {
    const { sim, checker } = run('@1168 crash n2; @2000 restart n2; @2100 submit x=1', 3000);
    expect(lines(sim)).toContain('t= 1360 ms n3 wins term 2 with votes from n1, n3, n5');
    const crashAt = 1168;
    const wonAt = sim.cluster.events.find((e) => e.kind === 'leader' && e.t > crashAt)?.t ?? Infinity;
    expect(wonAt - crashAt).toBeLessThanOrEqual(300 + 2 * 15 + 50); // one max timeout, a round trip, slack
    expect(leadersAt(sim)).toEqual(['n3']);
    expect(sim.cluster.node('n2').role).toBe('follower');
    expect(sim.cluster.node('n2').term).toBe(2);
    for (const id of IDS) expect(logOf(sim, id)).toEqual(['x=1']);
    expect(checker.violations).toEqual([]);
  });

  it('no agreement without a majority, agreement once a majority is back', () => {
    const schedule = '@500 crash n1; @500 crash n3; @500 crash n4; @600 submit x=1';
    const { sim, checker } = run(schedule, 3000);
    expect(leadersAt(sim)).toEqual(['n2']);
    expect(logOf(sim, 'n2')).toEqual(['x=1']);
    expect(logOf(sim, 'n5')).toEqual(['x=1']);
    expect(sim.cluster.nodes.map((n) => n.commitIndex)).toEqual([0, 0, 0, 0, 0]);
    sim.act({ verb: 'restart', node: 'n3' });
    sim.advanceTo(3500);
    expect(sim.cluster.node('n2').commitIndex).toBe(1);
    expect(sim.cluster.node('n3').log.length).toBe(1);
    expect(checker.violations).toEqual([]);
  });

  it('a partitioned old leader rejoins and loses its uncommitted entries', () => {
    const schedule = '@500 submit x=1; @1000 partition n2; @1010 submit x=2 to n2; @1600 submit y=1; @2000 heal';
    const { sim, checker } = run(schedule, 1999);
    expect(logOf(sim, 'n2')).toEqual(['x=1', 'x=2']);
    expect(sim.cluster.node('n2').role).toBe('leader'); // a stale leader: it cannot know yet
    expect(sim.cluster.node('n2').commitIndex).toBe(1);
    const newLeader = sim.cluster.leader();
    expect(newLeader?.id).not.toBe('n2');
    sim.advanceTo(2500);
    expect(sim.cluster.node('n2').role).toBe('follower');
    for (const id of IDS) expect(logOf(sim, id)).toEqual(['x=1', 'y=1']);
    expect(checker.violations).toEqual([]);
  });

  it('log back-up after long divergent partitions, one entry at a time', () => {
    // 6.824's TestBackup: the leader and one follower take 30 entries they can never commit; the
    // majority commits 30 others; then its leader and one follower are cut off with 30 more
    // uncommitted entries while the rest (with the first pair back) commits 10; then all heal.
    const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const parts = ['@300 submit a0', '@500 partition n1,n2'];
    range('m', 30).forEach((v, i) => parts.push(`@${510 + 10 * i} submit ${v} to n2`));
    range('c', 30).forEach((v, i) => parts.push(`@${1000 + 10 * i} submit ${v}`));
    parts.push('@1400 partition n4,n5');
    range('s', 30).forEach((v, i) => parts.push(`@${1450 + 10 * i} submit ${v} to n5`));
    range('p', 10).forEach((v, i) => parts.push(`@${2000 + 10 * i} submit ${v}`));
    parts.push('@2500 heal');
    const { sim, checker } = run(parts.join('; '), 1399);
    expect(logOf(sim, 'n1')).toEqual(['a0', ...range('m', 30)]);
    expect(logOf(sim, 'n3')).toEqual(['a0', ...range('c', 30)]);
    sim.advanceTo(2499);
    expect(logOf(sim, 'n1')).toEqual(['a0', ...range('c', 30), ...range('p', 10)]); // backed up over 30 entries
    expect(logOf(sim, 'n5')).toEqual(['a0', ...range('c', 30), ...range('s', 30)]);
    sim.advanceTo(4000);
    const final = ['a0', ...range('c', 30), ...range('p', 10)];
    for (const id of IDS) expect(logOf(sim, id)).toEqual(final);
    expect(sim.cluster.nodes.every((n) => n.commitIndex === final.length)).toBe(true);
    expect(checker.violations).toEqual([]);
  });

  it('persistence across restarts of every node: term, vote and log survive', () => {
    const crashAll = IDS.map((id) => `@1000 crash ${id}`).join('; ');
    const restartAll = IDS.map((id) => `@1100 restart ${id}`).join('; ');
    const schedule = `@300 submit x=1; @300 submit x=2; @300 submit x=3; ${crashAll}; ${restartAll}; @2000 submit x=4`;
    const { sim, checker } = run(schedule, 1099);
    const terms = sim.cluster.nodes.map((n) => n.term);
    const votes = sim.cluster.nodes.map((n) => n.votedFor);
    sim.advanceTo(1100);
    expect(sim.cluster.nodes.map((n) => n.term)).toEqual(terms);
    expect(sim.cluster.nodes.map((n) => n.votedFor)).toEqual(votes);
    expect(sim.cluster.nodes.map((n) => n.commitIndex)).toEqual([0, 0, 0, 0, 0]); // volatile
    for (const id of IDS) expect(logOf(sim, id)).toEqual(['x=1', 'x=2', 'x=3']);
    sim.advanceTo(3000);
    for (const id of IDS) expect(logOf(sim, id)).toEqual(['x=1', 'x=2', 'x=3', 'x=4']);
    expect(sim.cluster.nodes.map((n) => n.lastApplied)).toEqual([4, 4, 4, 4, 4]);
    expect(Math.min(...sim.cluster.nodes.map((n) => n.term))).toBeGreaterThan(terms[0]);
    expect(checker.violations).toEqual([]);
  });

  // The paper's Figure 8: (a) n2 leads term 1 and gives f1 to n1 only; (b) n5 leads term 2 and
  // takes f2 at the same index; (c) n1 leads term 4 and spreads f1 to a majority; (d) n5 leads
  // again and overwrites f1. Counting replicas of f1 in (c) is the figure8 bug.
  const FIGURE8 =
    '@500 partition n1,n2; @500 submit f1 to n2; @520 crash n2; @750 partition n5; @750 submit f2 to n5; @760 crash n5; ' +
    '@770 heal; @780 restart n2; @1500 crash n1; @1500 crash n2; @1500 restart n5; @2500 restart n1; @2500 restart n2; @2600 submit f3';

  it("Figure 8: an earlier term's entry on a majority is not committed by counting, so its overwrite is safe", () => {
    const { sim, checker } = run(FIGURE8, 3500);
    const text = lines(sim).join('\n');
    expect(text).toContain('n5 wins term 2');
    expect(text).toContain('n1 wins term 4');
    expect(text).toContain('n5 wins term 6');
    for (const id of IDS) expect(logOf(sim, id)).toEqual(['f2', 'f3']);
    expect(checker.violations).toEqual([]);
    const buggy = replay({ ...DEFAULT_CONFIG, bugs: ['figure8'] }, parseSchedule(FIGURE8), 3500);
    expect(buggy?.line).toBe(
      't= 1719 ms VIOLATION Leader Completeness: n5 leads term 6 without f1 (term 1), committed at index 1 in term 4; its log has f2 (term 2) there.',
    );
  });

  it('Figure 8 with many leader crashes (6.824 style): what was committed survives', () => {
    const rng = new CPythonRandom(8);
    const sim = new Simulation(DEFAULT_CONFIG);
    const checker = attachInvariants(sim);
    const committed = new Map<number, string>();
    let crashes = 0;
    let value = 0;
    const act = (body: ActionBody) => sim.act(body);
    for (let round = 0; round < 60; round++) {
      sim.advanceTo(sim.nowMs + rng.randint(20, 250));
      const leader = sim.cluster.leader();
      if (leader !== null) {
        act({ verb: 'submit', command: `v${value++}`, target: null });
        if (rng.random() < 0.6) {
          sim.advanceTo(sim.nowMs + rng.randint(1, 20));
          if (leader.alive) {
            act({ verb: 'crash', node: leader.id });
            crashes++;
          }
        }
      }
      const down = sim.cluster.nodes.filter((n) => !n.alive);
      if (down.length >= 2 || (down.length > 0 && rng.random() < 0.5)) act({ verb: 'restart', node: down[rng.randbelow(down.length)].id });
      for (const n of sim.cluster.nodes) for (let i = 1; i <= n.commitIndex; i++) committed.set(i, commandText(n.log[i - 1].command));
    }
    for (const n of sim.cluster.nodes) if (!n.alive) act({ verb: 'restart', node: n.id });
    sim.advanceTo(sim.nowMs + 1000);
    act({ verb: 'submit', command: 'last', target: null });
    sim.advanceTo(sim.nowMs + 1000);
    expect(crashes).toBeGreaterThan(12);
    expect(checker.violations).toEqual([]);
    const final = logOf(sim, 'n1');
    for (const id of IDS) expect(logOf(sim, id)).toEqual(final);
    for (const [index, text] of committed) expect(final[index - 1]).toBe(text);
    expect(final[final.length - 1]).toBe('last');
    // The recorded schedule is the run: replaying its text gives the same logs.
    const again = new Simulation(DEFAULT_CONFIG, parseSchedule(formatSchedule(sim.schedule)));
    again.advanceTo(sim.nowMs);
    expect(logOf(again, 'n1')).toEqual(final);
  });

  it('churn under message loss: every value a client saw committed survives', () => {
    const rng = new CPythonRandom(2024);
    const sim = new Simulation({ ...DEFAULT_CONFIG, seed: 7 });
    const checker = attachInvariants(sim);
    const act = (body: ActionBody) => sim.act(body);
    act({ verb: 'loss', pct: 20 });
    /** Values submitted and where: a client sees one committed when its leader commits that entry. */
    const pending: { value: string; leader: string; index: number; term: number }[] = [];
    const seen = new Map<string, number>();
    let value = 0;
    while (sim.nowMs < 8000) {
      sim.advanceTo(sim.nowMs + rng.randint(10, 120));
      const roll = rng.random();
      const leader = sim.cluster.leader();
      if (roll < 0.6 && leader !== null) {
        const text = `c${value++}`;
        act({ verb: 'submit', command: text, target: null });
        pending.push({ value: text, leader: leader.id, index: leader.log.length, term: leader.term });
      } else if (roll < 0.75) {
        const alive = sim.cluster.nodes.filter((n) => n.alive);
        if (alive.length > 3) act({ verb: 'crash', node: alive[rng.randbelow(alive.length)].id });
      } else if (roll < 0.9) {
        const down = sim.cluster.nodes.filter((n) => !n.alive);
        if (down.length > 0) act({ verb: 'restart', node: down[rng.randbelow(down.length)].id });
      } else if (roll < 0.95) {
        const cut = rng.randint(1, 4);
        act({ verb: 'partition', groups: [IDS.slice(0, cut)] });
      } else {
        act({ verb: 'heal' });
      }
      for (const p of pending) {
        if (seen.has(p.value)) continue;
        const n = sim.cluster.node(p.leader);
        const entry = n.log[p.index - 1];
        if (n.commitIndex >= p.index && entry !== undefined && entry.term === p.term && commandText(entry.command) === p.value) {
          seen.set(p.value, p.index);
        }
      }
    }
    act({ verb: 'heal' });
    act({ verb: 'loss', pct: 0 });
    for (const n of sim.cluster.nodes) if (!n.alive) act({ verb: 'restart', node: n.id });
    sim.advanceTo(sim.nowMs + 1000);
    act({ verb: 'submit', command: 'final', target: null });
    sim.advanceTo(sim.nowMs + 1000);
    expect(checker.violations).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
    expect(sim.cluster.dropped).toBeGreaterThan(100);
    for (const id of IDS) {
      const log = logOf(sim, id);
      for (const [text, index] of seen) expect(log[index - 1], `${id} lost ${text}`).toBe(text);
      expect(sim.cluster.node(id).lastApplied).toBe(log.length);
    }
  });
});
