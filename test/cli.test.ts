// `npm run sim`: flags in, text or JSON out; every bad flag is exit code 2 and one sentence on
// stderr, never a stack trace. runSimCli is a function of argv, so the tests call it directly.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECTIONS, formatRate, measureRate, median, parseBenchArgs, runBench, timeSection, type RateSection } from '../src/cli/bench';
import { detailTargetMet, formatDetailCost, type DetailCost } from '../src/cli/benchDetails';
import { SIM_USAGE, header, runSimCli } from '../src/cli/simCli';
import { encodeLink } from '../src/share/link';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { runTraceJson, traceFromJson } from '../src/sim/view/traceJson';
import { FeatureInvariants } from '../src/sim/check/featureInvariants';
import { RaftNode } from '../src/sim/raft/node';

interface JsonNode {
  readonly alive: boolean;
  readonly role: string;
  readonly term: number;
  readonly log: { term: number; command: string }[];
}
const json = (argv: string[]) => JSON.parse(runSimCli([...argv, '--json']).stdout) as { nodes: Record<string, JsonNode>; events: string[] };
const commands = (node: JsonNode) => node.log.map((e) => e.command);

describe('bad flags: exit code 2 and one sentence', () => {
  const cases: { argv: string[]; message: RegExp }[] = [
    { argv: ['--bogus'], message: /^Unknown flag "--bogus"; the known flags are --seed, --nodes, .*--help\.$/ },
    { argv: ['stray'], message: /^Unexpected argument "stray"; flags start with --/ },
    { argv: ['--nodes', '12'], message: /^--nodes must be a whole number from 1 to 9, not "12"\.$/ },
    { argv: ['--nodes', '0'], message: /^--nodes must be a whole number from 1 to 9, not "0"\.$/ },
    { argv: ['--nodes'], message: /^Flag --nodes needs a value\.$/ },
    {
      argv: ['--timeout', '300-150'],
      message: /^Election timeout range must be positive and ordered \(min <= max, at most 60000 ms\), not 300-150\.$/,
    },
    { argv: ['--timeout', 'fast'], message: /^--timeout must be written A-B with whole numbers of ms, like 150-300, not "fast"\.$/ },
    {
      argv: ['--heartbeat', '500'],
      message: /^Heartbeat interval must be .*shorter than the minimum election timeout \(150 ms\), not 500\.$/,
    },
    { argv: ['--latency', '9-3'], message: /^Latency range must be non-negative and ordered .*not 9-3\.$/ },
    { argv: ['--seed', '-1'], message: /^--seed must be a non-negative integer, not "-1"\.$/ },
    { argv: ['--seed', '4.2'], message: /^--seed must be a non-negative integer, not "4\.2"\.$/ },
    { argv: ['--preset', 'nope'], message: /^Unknown preset "nope"; the presets are chapter, split-vote, / },
    {
      argv: ['--schedule', '@100 explode n1'],
      message: /^Action 1 \("@100 explode n1", at character 1\) has unknown verb "explode"; the verbs are /,
    },
    {
      argv: ['--schedule', '@5 crash n9'],
      message: /^Action 1 \("@5 crash n9"\) names node "n9", which is not in the cluster; the nodes are n1, n2, n3, n4, n5\.$/,
    },
    {
      argv: ['--nodes', '3', '--schedule', '@5 crash n4'],
      message: /names node "n4", which is not in the cluster; the nodes are n1, n2, n3\.$/,
    },
    { argv: ['--schedule', '@5 partition n1,n2 | n2'], message: /names n2 in more than one group/ },
    { argv: ['--until', 'abc'], message: /^--until must be a whole number from 0 to 100000000, not "abc"\.$/ },
    { argv: ['--submit-every', '0'], message: /^--submit-every must be a whole number from 1 to 100000000, not "0"\.$/ },
    { argv: ['--json=yes'], message: /^Flag --json takes no value\.$/ },
    { argv: ['--seed', '1', '--seed', '2'], message: /^Flag --seed is given twice; give it once\.$/ },
    { argv: ['--bugs', 'nope'], message: /^Unknown bug "nope" in --bugs; the bugs are / },
    { argv: ['--link', '?v=1&seed=1', '--seed', '3'], message: /^--link already gives the run, so it cannot be combined with --seed\.$/ },
    {
      argv: ['--preset', 'chapter', '--link', '?v=1&seed=1'],
      message: /^--link already gives the run, so it cannot be combined with --preset\.$/,
    },
    { argv: ['--link', 'nonsense'], message: /^This link has an unknown field "nonsense"; a Lockstep link has v, seed, / },
    { argv: ['--link', '?v=9&seed=1'], message: /^This link is format version "9"; this Lockstep reads version 1\.$/ },
    { argv: ['--link', '?v=1&seed=1&s=@5+crash+n9'], message: /^This link's schedule is invalid: .*names node "n9"/ },
    { argv: ['--trace='], message: /^--trace needs a file name\.$/ },
  ];
  for (const c of cases) {
    it(`${c.argv.join(' ')}`, () => {
      const result = runSimCli(c.argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.endsWith('\n')).toBe(true);
      const text = result.stderr.trimEnd();
      expect(text).toMatch(c.message);
      expect(text).not.toMatch(/\n/); // one line
      expect(text).not.toMatch(/\bat .*:\d+|Error:/); // no stack trace, no error class name
      expect(text.endsWith('.')).toBe(true);
    });
  }

  it('--help prints the usage on stdout with exit code 0', () => {
    const result = runSimCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run sim -- \[flags\]/);
    expect(result.stdout).toContain('--submit-every K');
  });
});

describe('the human header line', () => {
  it('describes the default run', () => {
    expect(runSimCli([]).stdout.split('\n')[0]).toBe(
      '5 nodes, election timeout 150-300 ms, heartbeat every 50 ms, latency 5-15 ms, seed 42',
    );
    expect(header(DEFAULT_CONFIG)).toBe('5 nodes, election timeout 150-300 ms, heartbeat every 50 ms, latency 5-15 ms, seed 42');
  });

  it('reflects every flag', () => {
    const argv = ['--nodes', '3', '--timeout', '200-400', '--heartbeat', '20', '--latency', '0-3', '--seed', '7', '--until', '100'];
    expect(runSimCli(argv).stdout.split('\n')[0]).toBe(
      '3 nodes, election timeout 200-400 ms, heartbeat every 20 ms, latency 0-3 ms, seed 7',
    );
  });

  it('keeps seeds past 2^53 exact', () => {
    expect(runSimCli(['--seed', '123456789012345678901234567890', '--until', '10']).stdout.split('\n')[0]).toMatch(
      /seed 123456789012345678901234567890$/,
    );
  });
});

describe('--submit-every K', () => {
  it('submits x=0, x=1, ... to the leader at every multiple of K once there is one', () => {
    // Seed 42: n2 leads from 168 ms, so 100 ms has no leader and is skipped without using up x=0.
    const report = json(['--submit-every', '100', '--until', '1000']);
    const leader = report.nodes.n2;
    expect(leader.role).toBe('leader');
    expect(commands(leader)).toEqual(['x=0', 'x=1', 'x=2', 'x=3', 'x=4', 'x=5', 'x=6', 'x=7', 'x=8']);
    expect(leader.log.every((e) => e.term === 1)).toBe(true);
    expect(report.events.some((e) => e.includes('rejected'))).toBe(false); // skipped silently
  });

  it('i grows only on success: the ms with no leader after a crash submit nothing', () => {
    const report = json(['--submit-every', '100', '--until', '1600', '--schedule', '@1168 crash n2']);
    // A crashed node keeps its last role internally (as in the chapter), so count live leaders.
    const leaders = Object.entries(report.nodes).filter(([, n]) => n.alive && n.role === 'leader');
    expect(leaders).toHaveLength(1);
    const [id, leader] = leaders[0];
    expect(id).not.toBe('n2');
    // x=0..x=9 at 200..1100 ms under n2; none at 1200 or 1300 (no leader); then x=10, x=11, ...
    const log = commands(leader);
    expect(log.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `x=${i}`));
    expect(log.slice(10)).toEqual(Array.from({ length: log.length - 10 }, (_, i) => `x=${10 + i}`));
    expect(log.length).toBeLessThan(15); // at most 1400, 1500 and 1600 after the failover
    expect(commands(report.nodes.n2)).toEqual(log.slice(0, 10));
  });

  it("comes after that millisecond's scheduled actions", () => {
    const report = json(['--submit-every', '500', '--until', '600', '--schedule', '@500 submit y=1']);
    expect(commands(report.nodes.n2)).toEqual(['y=1', 'x=0']);
  });

  it('is deterministic: the same flags give the same logs', () => {
    const a = runSimCli(['--submit-every', '7', '--seed', '3', '--until', '3000', '--json']).stdout;
    const b = runSimCli(['--submit-every', '7', '--seed', '3', '--until', '3000', '--json']).stdout;
    expect(b).toBe(a);
  });
});

describe('text output', () => {
  it('runs until the last action + 1000 ms (at least 2000) by default', () => {
    expect(JSON.parse(runSimCli(['--json']).stdout).now).toBe(2000);
    expect(JSON.parse(runSimCli(['--json', '--schedule', '@2500 heal']).stdout).now).toBe(3500);
  });

  it('reports a rejected submit as an event', () => {
    const out = runSimCli(['--schedule', '@100 submit x=1; @500 submit x=2 to n3', '--until', '600']).stdout;
    expect(out).toContain('t=  100 ms submit x=1 rejected: no leader');
    expect(out).toContain('t=  500 ms submit x=2 to n3 rejected: n3 is not the leader');
  });
});

describe('npm run bench helpers', () => {
  it('median of odd and even counts', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it('timeSection runs the warm-ups untimed, then times each repetition', () => {
    let now = 0;
    let calls = 0;
    const durations = [100, 100, 5, 9, 7]; // two warm-ups, then three timed runs
    const timing = timeSection(() => (now += durations[calls++]), { warmups: 2, reps: 3, clock: () => now });
    expect(calls).toBe(5);
    expect(timing.samplesMs).toEqual([5, 9, 7]);
    expect(timing.medianMs).toBe(7);
    expect(timing.warmupRuns).toBe(2);
  });

  it('a timed warm-up runs at least the given runs, then until the time has passed, capped', () => {
    let now = 0;
    const run = () => (now += 30);
    expect(timeSection(run, { warmups: 1, warmupMs: 100, reps: 1, clock: () => now }).warmupRuns).toBe(4); // 30, 60, 90, 120
    expect(timeSection(run, { warmups: 1, warmupMs: 10_000, maxWarmups: 5, reps: 1, clock: () => now }).warmupRuns).toBe(5);
    expect(timeSection(run, { warmups: 3, warmupMs: 1, reps: 1, clock: () => now }).warmupRuns).toBe(3);
  });

  it('measureRate turns the median into units per second and checks the target', () => {
    let now = 0;
    const section: RateSection = {
      name: 'demo',
      unit: 'sim-ms/s',
      work: 120_000,
      target: { perSec: 4_800_000, why: 'test' },
      run: () => (now += 20),
    };
    const result = measureRate(section, { warmups: 0, reps: 3, clock: () => now });
    expect(result.perSec).toBe(6_000_000);
    expect(result.met).toBe(true);
    expect(formatRate(result)).toBe(
      'demo: 6,000,000 sim-ms/s (median 20.0 ms of 3 runs after 0 warm-up runs, min 20.0, max 20.0); target >= 4,800,000 (test): ok',
    );
    const slow = measureRate({ ...section, run: () => (now += 40) }, { warmups: 0, reps: 1, clock: () => now });
    expect(slow.met).toBe(false);
    expect(formatRate(slow)).toMatch(/3,000,000 sim-ms\/s .*: BELOW TARGET$/);
  });

  it('the sections are the two issue-2 workloads with their targets (20x the Python reference)', () => {
    expect(SECTIONS.slice(0, 2).map((s) => [s.work, s.target?.perSec])).toEqual([
      [120_000, 4_800_000],
      [120_000, 15_800_000],
    ]);
  });

  it('bad bench flags are one sentence and exit code 2', () => {
    expect(parseBenchArgs([])).toEqual({ reps: 9, warmups: null, strict: false });
    expect(parseBenchArgs(['--reps', '3', '--warmups', '0', '--strict'])).toEqual({ reps: 3, warmups: 0, strict: true });
    const errors: string[] = [];
    expect(
      runBench(
        ['--reps', '0'],
        () => {},
        (line) => errors.push(line),
      ),
    ).toBe(2);
    expect(errors).toEqual(['--reps must be a whole number from 1 to 1000, not "0".']);
  });
});

describe("the bench's detail-cost section (issue 24, item 7)", () => {
  const heap = (totalMb: number, runMb: number) => ({ totalBytes: totalMb * 1048576, runBytes: runMb * 1048576 });
  const cost = (timeRatio: number, heapOn: ReturnType<typeof heap> | string): DetailCost => ({
    name: 'cli',
    details: 1000,
    reps: 5,
    warmups: 2,
    offMs: 100,
    onMs: 100 * timeRatio,
    timeRatio,
    heapOff: heap(10, 3),
    heapOn,
    heapRatio: typeof heapOn === 'string' ? null : heapOn.totalBytes / (10 * 1048576),
  });

  it('prints time and heap off, on and their ratio, each against the 2x target', () => {
    const lines = formatDetailCost(cost(1.5, heap(15, 8)));
    expect(lines[1]).toBe(
      '    CPU time: 100 ms off, 150 ms on, 1.50x (median of 5 interleaved off/on runs after 2 of each); target < 2x: ok',
    );
    expect(lines[2]).toMatch(
      /^ {4}heap: 10\.0 MB off, 15\.0 MB on, 1\.50x \(the run's own 3\.0 MB -> 8\.0 MB, 5242\.9 bytes a detail\); target < 2x: ok$/,
    );
    expect(detailTargetMet(cost(1.5, heap(15, 8)))).toBe(true);
  });

  it('a ratio of 2x or more, in either, is below target', () => {
    expect(formatDetailCost(cost(2, heap(15, 8)))[1]).toMatch(/2\.00x .*; target < 2x: BELOW TARGET$/);
    expect(formatDetailCost(cost(1.2, heap(25, 18)))[2]).toMatch(/2\.50x .*: BELOW TARGET$/);
    expect(detailTargetMet(cost(2, heap(15, 8)))).toBe(false);
    expect(detailTargetMet(cost(1.2, heap(25, 18)))).toBe(false);
  });

  it('a heap that could not be measured says why and counts as below target', () => {
    const c = cost(1.2, 'the measuring process failed: out of memory');
    expect(formatDetailCost(c)[2]).toBe('    heap: not measured (the measuring process failed: out of memory); target < 2x: BELOW TARGET');
    expect(detailTargetMet(c)).toBe(false);
  });
});

describe('invariants in the sim CLI (issue 6: checked in the CLI, tests and the UI)', () => {
  const figure8 = [
    '--seed',
    '3045747055',
    '--nodes',
    '5',
    '--timeout',
    '141-368',
    '--heartbeat',
    '17',
    '--latency',
    '6-34',
    '--until',
    '1890',
    '--schedule',
    '@486 submit v1; @486 submit v2; @519 crash n5; @693 restart n5; @1064 submit v3; @1065 crash n1; @1134 restart n1; @1356 partition n4; @1356 submit v4 to n4; @1399 crash n4; @1559 partition n5; @1559 submit v5 to n5; @1564 restart n4; @1844 heal',
  ];

  it('says every invariant held on the chapter run', () => {
    expect(runSimCli(['--preset', 'chapter']).stdout).toContain('invariants: every invariant held at every millisecond');
  });

  it('prints the violation a fuzzer-found schedule reproduces with the bug, and none without it', () => {
    const withBug = runSimCli([...figure8, '--bugs', 'figure8']);
    expect(withBug.stdout).toMatch(/t= 1890 ms VIOLATION Leader Completeness: n5 leads term 7 without v4/);
    expect(withBug.code).toBe(1);
    const json = JSON.parse(runSimCli([...figure8, '--bugs', 'figure8', '--json']).stdout);
    expect(json.invariants.violations[0]).toMatchObject({ invariant: 'leader-completeness', t: 1890 });
    const without = runSimCli(figure8);
    expect(without.stdout).toContain('invariants: every invariant held at every millisecond');
    expect(without.code).toBe(0);
  });

  it('counts stale unfenced writes as findings, and --no-check skips the checker', () => {
    expect(runSimCli(['--preset', 'fencing']).stdout).toContain(
      'findings: the unfenced store accepted 1 write(s) from clients whose lease had ended',
    );
    const json = JSON.parse(runSimCli(['--preset', 'fencing', '--json', '--no-check']).stdout);
    expect(json.invariants).toEqual({ checked: false });
  });
});

describe("replays of the audit's findings (issue 24)", () => {
  it('a map key that is also a lock key: the history checker keeps the map and the lock table apart, as the engine does', () => {
    const argv = [
      '--seed',
      '7',
      '--clients',
      'A',
      '--features',
      'reads',
      '--schedule',
      '@500 client A acquire x 10000; @700 client A put x=1; @900 client A write r=1',
    ];
    const out = runSimCli([...argv, '--json']);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as { linearizable: Record<string, unknown> };
    for (const name of ['locks', 'fenced', 'unfenced', 'fencedOrder', 'unfencedOrder', 'register'])
      expect(report.linearizable[name]).toEqual({ linearizable: true });
    expect(runSimCli(argv).stdout).toContain(
      'linearizable: locks yes, fenced yes, unfenced yes, fencedOrder yes, unfencedOrder yes, register yes',
    );
  });
  it('pre-vote with a partition that names a client: the invariant reads only the servers of a group, and the run exits 0', () => {
    const out = runSimCli([
      '--seed',
      '1',
      '--clients',
      'A,B',
      '--features',
      'pre-vote',
      '--schedule',
      '@500 partition B',
      '--until',
      '1500',
    ]);
    expect(out.stdout).toContain('t=  500 ms partition {B} | {n1, n2, n3, n4, n5}');
    expect(out.stdout).toContain('invariants: every invariant held at every millisecond');
    expect(out.code).toBe(0);
  });

  describe('a run that throws: --json and --trace end at the same moment, and the trace says so', () => {
    afterEach(() => vi.restoreAllMocks());
    const argv = ['--seed', '1', '--clients', 'A,B', '--features', 'pre-vote', '--until', '1500', '--json', '--trace', 't.json'];
    const both = (extra: string[]) => {
      const out = runSimCli([...argv, ...extra]);
      const report = JSON.parse(out.stdout) as {
        now: number;
        events: string[];
        invariants: { violations: { invariant: string; t: number }[] };
      };
      const trace = traceFromJson(out.files?.[0].text ?? '');
      if (typeof trace === 'string') throw new Error(trace);
      return { out, report, trace };
    };

    it('a checker that throws: the trace, which replays without the checker, stops there too', () => {
      // What the pre-vote invariant did with `partition B` (a client), by hand.
      const check = FeatureInvariants.prototype.check;
      vi.spyOn(FeatureInvariants.prototype, 'check').mockImplementation(function (this: FeatureInvariants) {
        if ((this as unknown as { cluster: { nowMs: number } }).cluster.nowMs >= 501) throw new Error('There is no node "B"');
        check.call(this);
      });
      const { out, report, trace } = both(['--schedule', '@500 partition B']);
      expect(out.code).toBe(1);
      expect(report.now).toBe(501);
      expect(report.invariants.violations.map((v) => `${v.invariant} ${v.t}`)).toEqual(['engine-crash 501']);
      expect(trace.run.untilMs).toBe(1500);
      expect(trace.run.stopped).toEqual({ atMs: 501, reason: 'the simulation threw Error: There is no node "B".' });
      expect(trace.events.map((e) => e.line)).toEqual(report.events);
      expect(Math.max(...trace.messages.map((m) => m.sentAt))).toBeLessThanOrEqual(501);
      expect(Math.max(...trace.nodeSpans.map((s) => s.from))).toBeLessThanOrEqual(501);
    });

    it('the engine that throws: both runs throw at the same step', () => {
      const tick = RaftNode.prototype.tick;
      vi.spyOn(RaftNode.prototype, 'tick').mockImplementation(function (this: RaftNode) {
        if (this.id === 'n3' && (this as unknown as { host: { nowMs: number } }).host.nowMs === 700) throw new RangeError('a slip');
        tick.call(this);
      });
      const { report, trace } = both(['--schedule', '@500 partition B']);
      expect(report.now).toBe(700);
      expect(trace.run.stopped).toEqual({ atMs: 700, reason: 'the simulation threw RangeError: a slip.' });
      expect(trace.events.map((e) => e.line)).toEqual(report.events);
    });

    it('a run that did not stop has no "stopped" in its trace', () => {
      const { trace } = both(['--schedule', '@500 partition B']);
      expect('stopped' in trace.run).toBe(false);
      expect(trace.events.at(-1)?.t).toBeLessThanOrEqual(1500);
    });
  });

  it('--json counts every message type that was sent, and the trace holds exactly those messages besides its marked copies', () => {
    const catchUp = findPreset('snapshot-catch-up');
    if (catchUp === null) throw new Error('no snapshot-catch-up preset');
    const argv = [
      '--features',
      'snapshots,transfer',
      '--clients',
      'A',
      '--until',
      '3500',
      '--schedule',
      `${catchUp.schedule}; @2100 duplicate 20; @2400 duplicate 0; @2600 client A acquire k 500; @3000 transfer n3`,
      '--json',
      '--trace',
      't.json',
    ];
    const out = runSimCli(argv);
    const sent = (JSON.parse(out.stdout) as { sent: Record<string, number> }).sent;
    expect(Object.keys(sent)).toEqual([
      'RequestVote',
      'VoteReply',
      'AppendEntries',
      'AppendReply',
      'ClientRequest',
      'ClientReply',
      'InstallSnapshot',
      'InstallSnapshotReply',
      'TimeoutNow',
    ]);
    const trace = traceFromJson(out.files?.[0].text ?? '');
    if (typeof trace === 'string') throw new Error(trace);
    const counted: Record<string, number> = {};
    for (const m of trace.messages) if (m.copyOf === undefined) counted[m.type] = (counted[m.type] ?? 0) + 1;
    expect(counted).toEqual(sent);
    expect(trace.messages.filter((m) => m.copyOf !== undefined).length).toBeGreaterThan(0);
    // A run of the chapter's Raft keeps its four counts, zeros included, and nothing else.
    const chapter = JSON.parse(runSimCli(['--preset', 'split-vote', '--json']).stdout) as { sent: Record<string, number> };
    expect(Object.keys(chapter.sent)).toEqual(['RequestVote', 'VoteReply', 'AppendEntries', 'AppendReply']);
  });

  it("client-lease-honoured with no bug on: a retried release waits for the client's own Release wherever it sits among the unapplied entries", () => {
    const argv = [
      '--seed',
      '521350205',
      '--nodes',
      '2',
      '--timeout',
      '134-306',
      '--heartbeat',
      '39',
      '--latency',
      '1-28',
      '--clients',
      'A,B,C',
      '--features',
      'pre-vote,leader-noop,snapshots,reads,fast-backup,transfer',
      '--snapshot-every',
      '4',
      '--read-mode',
      'read-index',
      '--until',
      '4587',
      '--schedule',
      '@408 client B get x; @447 duplicate 12; @623 client C put x=C1; @1182 reorder 10; @1230 client A get x; @1561 client B put x=B2; ' +
        '@1838 client A put x=A3; @2040 client A put x=A4; @2685 duplicate 28; @2788 client B put x=B5; @2909 client C acquire k1 139; ' +
        '@3049 client C acquire k1 2272; @3393 partition n1; @3393 client C release k1; @3904 restart n2; @4363 heal',
    ];
    // C's retry reached n2 with its first Release unapplied and an Expire after it: it was answered
    // "busy, not released" and six ms later that Release committed while C counted its lease.
    const out = runSimCli(argv);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('invariants: every invariant held at every millisecond');
    expect(out.stdout).not.toContain('C release k1 -> busy');
    const later = runSimCli(argv.map((a) => (a === '4587' ? '4700' : a)));
    expect(later.stdout).toContain('t= 4598 ms C released k1');
  });
});

describe('--trace FILE and --link URL', () => {
  const fencing = findPreset('fencing');
  if (fencing === null) throw new Error('no fencing preset');

  it('are in the usage text', () => {
    expect(SIM_USAGE).toMatch(/--trace FILE .*trace/);
    expect(SIM_USAGE).toMatch(/--link URL .*share link/);
  });

  it('--trace returns the trace the page would export, after the usual output', () => {
    const plain = runSimCli(['--preset', 'fencing']);
    const traced = runSimCli(['--preset', 'fencing', '--trace', 'out/fencing.json']);
    expect(traced.stdout).toBe(plain.stdout);
    expect(plain.files).toBeUndefined();
    expect(traced.files).toEqual([
      { path: 'out/fencing.json', text: runTraceJson(fencing.config, presetActions(fencing), fencing.untilMs, null) },
    ]);
    const withLoad = runSimCli([
      '--seed',
      '7',
      '--until',
      '900',
      '--submit-every',
      '100',
      '--schedule',
      '@400 crash n1',
      '--json',
      '--trace',
      't.json',
    ]);
    const config = { ...DEFAULT_CONFIG, seed: 7 };
    expect(withLoad.files?.[0].text).toBe(runTraceJson(config, parseSchedule('@400 crash n1'), 900, 100));
    expect(JSON.parse(withLoad.files?.[0].text ?? '')).toMatchObject({
      format: 'lockstep-trace',
      version: 1,
      run: { seed: '7', untilMs: 900, submitEveryMs: 100 },
    });
  });

  it("--link replays the run the equivalent flags give, until the link's time", () => {
    const link = 'https://example.org/lockstep/?' + encodeLink({ config: fencing.config, schedule: presetActions(fencing), atMs: 14000 });
    const viaLink = runSimCli(['--link', link]);
    const viaFlags = runSimCli(['--preset', 'fencing', '--until', '14000']);
    expect(viaLink.code).toBe(0);
    expect(viaLink.stdout).toBe(viaFlags.stdout);
    const later = runSimCli(['--link', link, '--until', '15000', '--json']);
    expect(later.stdout).toBe(runSimCli(['--preset', 'fencing', '--json']).stdout);
    const traced = runSimCli(['--link', link, '--trace', 'x.json']);
    expect(traced.files?.[0].text).toBe(runTraceJson(fencing.config, presetActions(fencing), 14000, null));
  });

  it('sim.ts writes the file, and a file it cannot write is one sentence and exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-trace-'));
    const file = join(dir, 'chapter.json');
    const tsx = join('node_modules', '.bin', 'tsx');
    const ok = spawnSync(tsx, ['src/cli/sim.ts', '--preset', 'chapter', '--trace', file], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    const chapter = findPreset('chapter');
    if (chapter === null) throw new Error('no chapter preset');
    expect(readFileSync(file, 'utf8')).toBe(runTraceJson(chapter.config, presetActions(chapter), chapter.untilMs, null));
    const bad = spawnSync(tsx, ['src/cli/sim.ts', '--preset', 'chapter', '--trace', join(dir, 'missing', 'x.json')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain('invariants: every invariant held');
    expect(bad.stderr).toBe(`Could not write ${join(dir, 'missing', 'x.json')}: its folder does not exist.\n`);
  }, 30_000);
});
