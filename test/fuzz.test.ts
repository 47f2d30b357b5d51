// Property tier: the swarm fuzzer. Every switchable bug is found within 200 runs of a fixed
// seed, and the printed (shrunk) schedule reproduces the violation with the bug and holds
// without it. Without bugs the runs hold; the CLI's exit codes and output are checked too.
import { describe, expect, it } from 'vitest';
import { decodeLink } from '../src/share/link';
import { runFuzzCli, type FuzzCliIo } from '../src/cli/fuzzCli';
import { BUG_NAMES, type BugName } from '../src/sim/model/config';
import {
  BUG_FAULTS,
  FAULT_KINDS,
  TARGETED_KINDS,
  drawFeatures,
  fuzz,
  fuzzRun,
  replay,
  runFuzz,
  type FuzzProgress,
} from '../src/sim/check/fuzz';
import { BUGS, FEATURE_NAMES, HISTORY_CHECK_IDS, INVARIANT_IDS, findWithinRuns } from '../src/sim/model/features';
import { formatSchedule, parseSchedule } from '../src/sim/model/schedule';

const SEED = 1;

function cliIo(): FuzzCliIo & { lines: string[]; progressLines: string[] } {
  const lines: string[] = [];
  const progressLines: string[] = [];
  return { out: (l) => lines.push(l), progress: (t) => progressLines.push(t), tty: false, clock: () => 0, lines, progressLines };
}

describe('each switchable bug is found within its stated runs by its own check, and its schedule reproduces', () => {
  it.each(BUGS.map((b) => [b.name, b]))('%s', (name, bug) => {
    const runs = findWithinRuns(bug);
    const result = runFuzz({ seed: SEED, runs, bugs: [name as BugName], maxShrinkRuns: 150 });
    const cx = result.counterexample;
    expect(cx, `no violation in ${runs} runs with ${name}`).not.toBeNull();
    if (cx === null) return;
    expect(cx.run).toBeLessThan(runs);
    expect(bug.caughtBy as readonly string[]).toContain(cx.violation.invariant);
    expect(cx.schedule.length).toBeLessThanOrEqual(cx.original.schedule.length);
    // The printed text, parsed back, is the schedule.
    const schedule = parseSchedule(cx.scheduleText);
    expect(formatSchedule(schedule)).toBe(cx.scheduleText);
    const withBug = replay(cx.config, schedule, cx.untilMs);
    expect(withBug?.invariant).toBe(cx.violation.invariant);
    expect(withBug?.t).toBe(cx.untilMs);
    expect(withBug?.sentence).toBe(cx.violation.sentence);
    const without = replay({ ...cx.config, bugs: [] }, schedule, 10_000);
    expect(without).toBeNull();
  });

  it('each bug names the checks that catch it, and they exist', () => {
    const checks: readonly string[] = [...INVARIANT_IDS, ...HISTORY_CHECK_IDS];
    for (const bug of BUGS) {
      expect(bug.caughtBy.length, bug.name).toBeGreaterThan(0);
      for (const id of bug.caughtBy) expect(checks, bug.name).toContain(id);
    }
  });

  it("the fault kinds each bug's manifest names exist in the swarm, and the swarm weighs them", () => {
    for (const bug of BUGS) {
      for (const k of bug.faults) expect([...FAULT_KINDS, ...TARGETED_KINDS], bug.name).toContain(k);
      expect(BUG_FAULTS[bug.name]).toEqual(bug.faults);
    }
  });
});

describe('the swarm', () => {
  it('is deterministic: the same fuzz seed and run give the same run', () => {
    const a = fuzzRun(5, 17);
    const b = fuzzRun(5, 17);
    expect(formatSchedule(a.schedule)).toBe(formatSchedule(b.schedule));
    expect(a.config).toEqual(b.config);
    expect(formatSchedule(a.schedule)).not.toBe(formatSchedule(fuzzRun(5, 18).schedule));
  });

  it('draws every cluster size from 1 to 9, even ones included, and varied fault subsets', () => {
    const sizes = new Set<number>();
    const subsets = new Set<string>();
    for (let run = 0; run < 40; run++) {
      const o = fuzzRun(3, run, [], 500);
      sizes.add(o.config.nodeIds.length);
      subsets.add(o.kinds.join(','));
    }
    expect([...sizes].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(subsets.size).toBeGreaterThan(30);
  });

  it("a run's recorded schedule replays it exactly", () => {
    for (const run of [0, 1, 2]) {
      const o = fuzzRun(9, run);
      expect(replay(o.config, parseSchedule(formatSchedule(o.schedule)), o.untilMs)).toBeNull();
    }
  });

  it('is a generator: progress after every run, resumable in chunks', () => {
    const gen = fuzz({ seed: 2, runs: 5 });
    const seen: FuzzProgress[] = [];
    let step = gen.next();
    while (!step.done) {
      seen.push(step.value);
      step = gen.next();
    }
    expect(seen.map((p) => (p.phase === 'search' ? p.runsDone : -1))).toEqual([1, 2, 3, 4, 5]);
    expect(step.value.counterexample).toBeNull();
    expect(step.value.runsDone).toBe(5);
  });
});

describe('the swarm draws protocol features', () => {
  it('each feature is on in some runs and off in others, from a stream of its own', () => {
    const seen = new Map<string, Set<boolean>>(FEATURE_NAMES.map((f) => [f, new Set()]));
    for (let run = 0; run < 30; run++) {
      const features = drawFeatures(3, run, []);
      for (const f of FEATURE_NAMES) seen.get(f)?.add(features.includes(f));
      // The run's own stream is untouched: its configuration is what it is with no features.
      const o = fuzzRun(3, run, [], 300);
      expect(o.config.features ?? []).toEqual(features);
      // (A snapshots run also gets a threshold, from its seed: no draw of its own; a reads run a read mode, from its own stream.)
      expect({ ...o.config, features: undefined, snapshotEvery: undefined, readMode: undefined }).toEqual({
        ...fuzzRun(3, run, [], 300, []).config,
        features: undefined,
        readMode: undefined,
      });
    }
    for (const f of FEATURE_NAMES) expect([...(seen.get(f) ?? [])].sort(), f).toEqual([false, true]);
  });

  it("a feature's bug always has its feature on; a fixed list is used as given", () => {
    for (let run = 0; run < 10; run++) expect(drawFeatures(1, run, ['noop-commits-at-once'])).toContain('leader-noop');
    expect(drawFeatures(1, 0, [], [])).toEqual([]);
    expect(drawFeatures(1, 0, ['pre-vote-raises-term'], [])).toEqual(['pre-vote']);
    expect(fuzzRun(1, 0, [], 300, ['leader-noop', 'pre-vote']).config.features).toEqual(['pre-vote', 'leader-noop']);
  });

  it('--features all and none fix the features of every run, and say so', () => {
    const io = cliIo();
    expect(runFuzzCli(['--runs', '3', '--seed', '4', '--features', 'all'], io)).toBe(0);
    expect(io.lines[0]).toMatch(
      /^3 runs of 10 simulated seconds \(fuzz seed 4, features pre-vote, check-quorum, leader-noop, snapshots, reads, fast-backup, transfer, membership\): every invariant held/,
    );
    const none = cliIo();
    expect(runFuzzCli(['--runs', '1', '--seed', '4', '--features', 'none'], none)).toBe(0);
    expect(none.lines[0]).toContain('(fuzz seed 4, no features)');
  });
});

describe('npm run fuzz', () => {
  it('exits 0 when every run holds, with progress per 10%', () => {
    const io = cliIo();
    expect(runFuzzCli(['--runs', '20', '--seed', '4'], io)).toBe(0);
    // Ten for the chapter's service's runs, then one per other lock service (issue 26).
    expect(io.progressLines.length).toBe(16);
    expect(io.progressLines[9]).toMatch(/^fuzz: run 20\/20 \(100%\), no violation so far/);
    expect(io.progressLines[10]).toBe('fuzz: 2 runs of the lock service zookeeper');
    expect(io.lines[0]).toMatch(/^20 runs of 10 simulated seconds \(fuzz seed 4\): every invariant held/);
  });

  it('exits 1 with the seed, the shrunk schedule, the sentence and a share link', () => {
    const io = cliIo();
    expect(runFuzzCli(['--runs', '50', '--seed', '1', '--bug', 'no-log-check'], io)).toBe(1);
    const text = io.lines.join('\n');
    expect(text).toMatch(/^VIOLATION of Leader Completeness in run \d+ \(fuzz seed 1, bug no-log-check\)/);
    expect(text).toMatch(/\n {2}n\d leads term \d+ without/);
    expect(text).toMatch(/\nseed \d+; \d nodes, election timeout/);
    expect(text).toContain('\nreplay: npm run sim -- --seed ');
    const link = io.lines.find((l) => l.startsWith('share link: '))?.slice('share link: '.length) ?? '';
    const decoded = decodeLink(link);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(decoded.spec.config.bugs).toEqual(['no-log-check']);
      const schedule = io.lines[io.lines.findIndex((l) => l.startsWith('schedule (')) + 1].trim();
      expect(formatSchedule(decoded.spec.schedule)).toBe(schedule);
    }
  });

  it.each([
    [['--runs', 'many'], '--runs must be a whole number from 1 to 1000000, not "many".'],
    [['--bug', 'typo'], `Unknown bug "typo" in --bug; the bugs are ${BUG_NAMES.join(', ')}.`],
    [
      ['--features', 'pre-vote,fast'],
      `Unknown feature "fast" in --features; write swarm, none, all, or a list of ${FEATURE_NAMES.join(', ')}.`,
    ],
    [['--seed', '-3'], '--seed must be a non-negative integer, not "-3".'],
    [
      ['--speed', '2'],
      'Unknown flag "--speed"; the known flags are --runs, --seed, --bug, --features, --no-shrink, --lock, --network, --self-check, --protocol, --help.',
    ],
    [
      ['--protocol', 'paxos', '--self-check'],
      "--self-check calibrates Raft's bugs; for paxos run --protocol paxos --bug NAME with each of its bugs.",
    ],
  ])('bad flags %j exit 2 with one sentence', (argv, message) => {
    const io = cliIo();
    expect(runFuzzCli(argv, io)).toBe(2);
    expect(io.lines).toEqual([message]);
  });
});
