// Scenario tier: the chapter's demo and its split-vote control, run through the CLI and through
// Simulation, must print the chapter's timeline line for line (seed 42, CPython's draws).
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { CHAPTER_SCHEDULE, findPreset } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

const CHAPTER_EVENTS = [
  't=  156 ms n2 election timeout, candidate in term 1',
  't=  168 ms n2 wins term 1 with votes from n1, n2, n5',
  't= 1168 ms n2 crashes',
  't= 1338 ms n3 election timeout, candidate in term 2',
  't= 1360 ms n3 wins term 2 with votes from n1, n3, n5',
  't= 1360 ms n2 restarts as follower in term 1',
  't= 1560 ms partition {n2, n3} | {n1, n4, n5}',
  't= 1733 ms n1 election timeout, candidate in term 3',
  't= 1753 ms n1 wins term 3 with votes from n1, n4, n5',
  't= 1953 ms partition healed',
  't= 1962 ms n3 steps down, follower in term 3',
];
const FINAL_LOG = ['x=1', 'x=2', 'y=1'];
const NODE_IDS = ['n1', 'n2', 'n3', 'n4', 'n5'];

function chapterRun(): Simulation {
  const sim = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
  sim.advanceTo(2253);
  return sim;
}

describe('the chapter demo (seed 42)', () => {
  it('the preset is the documented schedule, seed 42, run until 2253 ms', () => {
    const preset = findPreset('chapter');
    expect(preset?.schedule).toBe(
      '@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1410 submit x=2; @1560 partition n2,n3; ' +
        '@1753 submit x=3 to n3; @1753 submit y=1 to n1; @1953 heal',
    );
    expect(preset?.config.seed).toBe(42);
    expect(preset?.untilMs).toBe(2253);
  });

  it('prints the header, the eleven event lines and the closing summary through the CLI', () => {
    const result = runSimCli(['--preset', 'chapter']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('5 nodes, election timeout 150-300 ms, heartbeat every 50 ms, latency 5-15 ms, seed 42');
    expect(lines.filter((l) => l.startsWith('t='))).toEqual(CHAPTER_EVENTS);
    expect(lines.slice(1, 12)).toEqual(CHAPTER_EVENTS);
    expect(lines).toContain("leaders per term: {1: ['n2'], 2: ['n3'], 3: ['n1']}; election safety holds: True");
    expect(lines).toContain("5/5 logs equal ['x=1', 'x=2', 'y=1'], committed on 5/5");
  });

  it('gives the same events through Simulation directly', () => {
    const sim = chapterRun();
    expect(sim.cluster.events.map((e) => e.line)).toEqual(CHAPTER_EVENTS);
    expect(sim.cluster.electionSafetyHolds()).toBe(true);
  });

  it('ends with x=1, x=2, y=1 committed on all five nodes; x=3 is gone', () => {
    const sim = chapterRun();
    for (const node of sim.cluster.nodes) {
      expect(
        node.log.map((e) => e.command),
        node.id,
      ).toEqual(FINAL_LOG);
      expect(node.commitIndex, node.id).toBe(3);
      expect(node.alive, node.id).toBe(true);
      expect(node.term, node.id).toBe(3);
    }
    expect(sim.cluster.leader()?.id).toBe('n1');
  });

  it('records exactly one leader per term: {1: [n2], 2: [n3], 3: [n1]}', () => {
    const sim = chapterRun();
    expect(Object.fromEntries(sim.cluster.leadersByTerm)).toEqual({ 1: ['n2'], 2: ['n3'], 3: ['n1'] });
  });

  it('keeps the stale leader n3 from committing x=3 while partitioned (2/5 is no majority)', () => {
    const sim = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
    sim.advanceTo(1952);
    const n3 = sim.cluster.nodeById.get('n3')!;
    const n1 = sim.cluster.nodeById.get('n1')!;
    expect(n3.role).toBe('leader');
    expect(n3.term).toBe(2);
    expect(n3.log.map((e) => e.command)).toEqual(['x=1', 'x=2', 'x=3']);
    expect(n3.commitIndex).toBe(2);
    expect(n1.term).toBe(3);
    expect(n1.log.map((e) => e.command)).toEqual(FINAL_LOG);
    expect(n1.commitIndex).toBe(3);
  });

  it('is a pure function of seed and schedule: two runs agree on every event and every draw', () => {
    const a = chapterRun();
    const b = chapterRun();
    expect(b.cluster.events).toEqual(a.cluster.events);
    expect(b.cluster.sent).toEqual(a.cluster.sent);
    expect(b.cluster.rng.nextUint32()).toBe(a.cluster.rng.nextUint32());
  });
});

describe('the split-vote control (identical 200 ms timeouts)', () => {
  it('elects no leader in 2000 ms and passes ten terms of split votes', () => {
    const sim = new Simulation({ ...DEFAULT_CONFIG, electionTimeoutMs: [200, 200] });
    sim.advanceTo(2000);
    expect(sim.cluster.leadersByTerm.size).toBe(0);
    expect(sim.cluster.leader()).toBeNull();
    expect(Math.max(...sim.cluster.nodes.map((n) => n.term))).toBe(10);
    for (const node of sim.cluster.nodes) expect(node.role, node.id).toBe('candidate');
    // Every node times out at every multiple of 200 ms: 5 nodes x 10 terms.
    expect(sim.cluster.events.filter((e) => e.kind === 'election')).toHaveLength(50);
  });

  it('says so through the CLI preset', () => {
    const result = runSimCli(['--preset', 'split-vote']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('leaders per term: {}; election safety holds: True');
    expect(result.stdout).toContain('no leader at 2000 ms; highest term 10');
    expect(result.stdout).toContain('t= 2000 ms n5 election timeout, candidate in term 10');
  });
});

describe('--json output', () => {
  const report = JSON.parse(runSimCli(['--preset', 'chapter', '--json']).stdout) as Record<string, unknown>;

  it('has the documented top-level fields', () => {
    for (const field of ['now', 'events', 'nodes', 'leadersByTerm', 'sent', 'dropped', 'stats']) {
      expect(report, field).toHaveProperty(field);
    }
    expect(report.now).toBe(2253);
    expect(report.events).toEqual(CHAPTER_EVENTS);
    expect(typeof report.dropped).toBe('number');
  });

  it('describes every node: alive, role, term, votedFor, commitIndex, log of {term, command}', () => {
    const nodes = report.nodes as Record<string, Record<string, unknown>>;
    expect(Object.keys(nodes)).toEqual(NODE_IDS);
    for (const id of NODE_IDS) {
      const node = nodes[id];
      expect(node.alive).toBe(true);
      expect(['follower', 'candidate', 'leader']).toContain(node.role);
      expect(node.term).toBe(3);
      expect(node).toHaveProperty('votedFor');
      expect(node.commitIndex).toBe(3);
      expect(node.log).toEqual([
        { term: 2, command: 'x=1' },
        { term: 2, command: 'x=2' },
        { term: 3, command: 'y=1' },
      ]);
    }
    expect(nodes.n1.role).toBe('leader');
    expect(nodes.n1.votedFor).toBe('n1');
  });

  it('keys leadersByTerm by term as strings', () => {
    expect(report.leadersByTerm).toEqual({ '1': ['n2'], '2': ['n3'], '3': ['n1'] });
    expect(Object.keys(report.leadersByTerm as object).every((k) => typeof k === 'string')).toBe(true);
  });

  it('counts sent messages by type and reports run statistics', () => {
    const sent = report.sent as Record<string, number>;
    expect(Object.keys(sent).sort()).toEqual(['AppendEntries', 'AppendReply', 'RequestVote', 'VoteReply']);
    for (const count of Object.values(sent)) expect(Number.isInteger(count) && count >= 0).toBe(true);
    expect(sent.RequestVote).toBeGreaterThanOrEqual(12); // three elections, four peers each
    const stats = report.stats as Record<string, unknown>;
    expect(stats).toHaveProperty('wallMs');
    expect(stats).toHaveProperty('simMsPerSec');
  });

  it('computes simMsPerSec from the injected clock', () => {
    let t = 0;
    const clock = () => (t += 100); // every reading 100 ms later: the run takes 100 ms of wall time
    const stats = (JSON.parse(runSimCli(['--preset', 'chapter', '--json'], clock).stdout) as { stats: Record<string, number> }).stats;
    expect(stats.wallMs).toBe(100);
    expect(stats.simMsPerSec).toBe(22530);
  });
});
