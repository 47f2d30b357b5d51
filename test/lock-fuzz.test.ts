/**
 * Issue 26 items 2 and 6 in the fuzzer: runs of every lock service, clock jumps drawn only where a
 * service is named (so the chapter's runs are what they were, draw for draw), the slips the
 * fuzzer found in the services themselves kept fixed, and `lock=` in links.
 */
import { describe, expect, it } from 'vitest';
import { runFuzzCli } from '../src/cli/fuzzCli';
import { fuzzRun, replay } from '../src/sim/check/fuzz';
import { LOCK_RUN_KINDS } from '../src/sim/check/fuzz/lockRuns';
import { lockModel, reentrantLockModel, type LockInput } from '../src/sim/check/linearizability/models';
import { checkConfig, serverIdsFor, type SimConfig } from '../src/sim/model/config';
import { LOCK_SERVICE_NAMES } from '../src/sim/model/lockServices';
import { parseSchedule } from '../src/sim/model/schedule';
import { decodeLink, encodeLink } from '../src/share/link';

const others = LOCK_SERVICE_NAMES.filter((l) => l !== 'raft');

function sim(flags: string, schedule: string): { config: SimConfig; text: string } {
  // The flags of a replay line, as a link reads them (one reader of configurations).
  const d = decodeLink(`?v=1&${flags}&t=1`, { pageCap: false });
  if (!d.ok) throw new Error(d.error);
  return { config: d.spec.config, text: schedule };
}

describe('fuzz runs of another lock service (issue 26)', () => {
  it.each(others)(
    '%s: its servers, at least two clients, only the faults that mean something without Raft, and a configuration the lab accepts',
    (lock) => {
      const out = fuzzRun(3, 5, [], 4000, 'swarm', [], { lock });
      expect(out.config.lock).toBe(lock);
      expect(out.config.nodeIds).toEqual(serverIdsFor(lock, out.config.nodeIds.length));
      expect(out.config.clientIds.length).toBeGreaterThanOrEqual(2);
      expect(checkConfig(out.config)).toBeNull();
      for (const k of out.kinds) expect(LOCK_RUN_KINDS).toContain(k);
      expect(out.kinds).toContain('locks');
    },
  );

  it('clock jumps are drawn in runs of a named service, never in the chapter’s', () => {
    const jumps = (o: ReturnType<typeof fuzzRun>) => o.schedule.filter((a) => a.verb === 'clockjump').length;
    let named = 0;
    for (let run = 0; run < 4; run++) {
      expect(jumps(fuzzRun(2, run, [], 6000))).toBe(0);
      named += jumps(fuzzRun(2, run, [], 6000, 'swarm', [], { lock: 'redlock' }));
    }
    expect(named).toBeGreaterThan(0);
  });

  it('the same run of the chapter’s service is unchanged by the lock option being absent or raft', () => {
    const a = fuzzRun(9, 3, [], 3000);
    const b = fuzzRun(9, 3, [], 3000, 'swarm', [], { lock: 'raft' });
    expect(b.config).toEqual(a.config);
    expect(b.schedule).toEqual(a.schedule);
  });

  it('a lock service’s bug picks its own service', () => {
    const out = fuzzRun(1, 0, ['release-without-compare'], 2000);
    expect(out.config.lock).toBe('redis');
  });

  it('npm run fuzz without --lock goes on to every other service, one line each', () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), progress: () => {}, tty: false, clock: () => 0 };
    expect(runFuzzCli(['--runs', '2', '--seed', '5'], io)).toBe(0);
    for (const lock of others)
      expect(
        lines.some((l) => l.startsWith(`lock service ${lock}: 1 runs, every invariant held`)),
        lock,
      ).toBe(true);
  });

  it('bad --lock flags are one sentence each, exit 2', () => {
    const cases: [string[], string][] = [
      [
        ['--lock', 'redos'],
        'Unknown lock service "redos" in --lock; the lock services are raft, zookeeper, etcd, advisory, redis, redlock, gossip.',
      ],
      [
        ['--lock', 'zookeeper', '--bug', 'release-without-compare'],
        'Bug "release-without-compare" is a bug of the lock service redis; give --lock redis or no --lock.',
      ],
      [
        ['--lock', 'redis', '--features', 'pre-vote'],
        '--features changes Raft, which the lock service redis does not run; leave --features out or pick raft, zookeeper or etcd.',
      ],
    ];
    for (const [argv, sentence] of cases) {
      const lines: string[] = [];
      expect(runFuzzCli(argv, { out: (l) => lines.push(l), progress: () => {}, tty: false, clock: () => 0 })).toBe(2);
      expect(lines).toEqual([sentence]);
    }
  });
});

describe('slips the fuzzer found in the services, kept fixed', () => {
  it('re-entrant recipes (ZooKeeper, etcd): the holder’s second acquire is told its own token, which their model allows and the chapter’s does not', () => {
    const ops: LockInput[] = [
      { kind: 'acquire', client: 'B', result: 'granted', token: 2 },
      { kind: 'acquire', client: 'B', result: 'granted', token: 2 },
    ];
    const run = (m: typeof lockModel) =>
      ops.reduce<ReturnType<typeof m.init> | null>((s, i) => (s === null ? null : m.step(s, i)), m.init());
    expect(run(lockModel)).toBeNull();
    expect(run(reentrantLockModel)).not.toBeNull();
    for (const lock of ['zookeeper', 'etcd']) {
      const { config, text } = sim(
        `seed=4197047610&nodes=3&timeout=243-262&heartbeat=29&latency=5-21&clients=ABCD&lock=${lock}`,
        '@9769 client B acquire k1 110; @9769 client B write k1=B7; @9976 client B acquire k1 34',
      );
      expect(replay(config, parseSchedule(text), 11_001), lock).toBeNull();
    }
  });

  it('advisory: a late answer to an earlier connect is not taken for the lock call’s (each request has its own id)', () => {
    const { config, text } = sim(
      'seed=3618975460&nodes=1&timeout=128-363&heartbeat=26&latency=3-21&clients=AB&lock=advisory',
      '@1276 client B pause 1822; @2148 client B acquire k1 30; @2273 delay B 848',
    );
    expect(replay(config, parseSchedule(text), 11_001)).toBeNull();
  });

  it('etcd: a client counts a new lease from when it asked for it, not from when its acquire began (no lease storm after a pause)', () => {
    const { config, text } = sim(
      'seed=1050748352&nodes=7&timeout=129-365&heartbeat=31&latency=4-8&clients=ABC&lock=etcd',
      '@1527 client C acquire k1 129; @2118 client B acquire k1 1415; @5517 client B pause 2832; @10000 calm',
    );
    expect(replay(config, parseSchedule(text), 23_192)).toBeNull();
  });
  it('ZooKeeper: a re-entrant acquire queued while its session expired is not granted from the lost holding; it takes the lock anew', () => {
    // B's second acquire started as a re-entrant one (B still held k1), then B learned its session
    // had expired; the re-grant, delivered a millisecond later, said "granted" with no token.
    const { config, text } = sim(
      'seed=1764582484&nodes=4&timeout=139-156&heartbeat=46&latency=6-18&clients=ABC&lock=zookeeper&lockopts=herd',
      '@3194 client B acquire k1 144; @3525 client B pause 1657; @4371 client B acquire k1 30',
    );
    expect(replay(config, parseSchedule(text), 11_001)).toBeNull();
  });

  it('the database’s row versions count per key: a write with version 1 of k1 is checked against the grant of k1, not of k2', () => {
    // C took k2 with version 1 and B took k1 with version 1; the fencing-order check took B's
    // write for one with C's token, as if tokens were global as the chapter's counter is.
    const { config, text } = sim(
      'seed=2529547152&nodes=1&timeout=226-412&heartbeat=33&latency=5-24&clients=ABCD&lock=advisory',
      '@7286 client C acquire k2 32; @7883 client B acquire k1 33; @7883 client B write k1=B18',
    );
    expect(replay(config, parseSchedule(text), 11_001)).toBeNull();
  });

  it('a client that has asked to release a lock no longer believes it holds it, while the answer is on its way', () => {
    // B released k1 at 7695 ms; the delete committed and A was granted at 8607 ms while B's answer
    // was still lost: counting B as a holder until then reported two holders within their leases.
    const { config, text } = sim(
      'seed=2394035540&nodes=7&timeout=196-441&heartbeat=64&latency=4-31&clients=AB&lock=zookeeper',
      '@1056 reorder 24; @1309 loss 34; @3657 loss 24; @3883 client A pause 3027; @4285 reorder 0; @4316 client A acquire k1 2958; @4826 client B acquire k1 2444; @6317 delay n6 684; @6506 reorder 21; @6520 delay n6 0; @7060 reorder 0; @7285 loss 22; @7539 reorder 23; @7695 client B release k1',
    );
    expect(replay(config, parseSchedule(text), 8_607)).toBeNull();
  });
});

describe('lock= and lockopts= in links', () => {
  it('a run of another service round-trips through its link; the chapter’s link names no lock', () => {
    const { config } = sim('seed=4&lock=redis&nodes=2&lockopts=persist&clients=AB', '');
    expect(config).toMatchObject({ lock: 'redis', lockOptions: ['persist'], nodeIds: ['r1', 'r2'] });
    const link = encodeLink({ config, schedule: [], atMs: 100 });
    expect(link).toContain('lock=redis');
    expect(link).toContain('lockopts=persist');
    const back = decodeLink(link);
    expect(back.ok && back.spec.config).toEqual(config);
    const chapter = decodeLink('?v=1&seed=4&t=100');
    expect(chapter.ok && encodeLink({ config: chapter.spec.config, schedule: [], atMs: 100 })).not.toContain('lock');
  });

  it('a bad lock or option in a link is one sentence', () => {
    expect(decodeLink('?v=1&seed=4&lock=redos&t=1')).toEqual({
      ok: false,
      error:
        'This link’s configuration is invalid: The lock service must be one of raft, zookeeper, etcd, advisory, redis, redlock, gossip, not "redos".'.replace(
          '’',
          "'",
        ),
    });
    const d = decodeLink('?v=1&seed=4&lock=redis&lockopts=herd&t=1');
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toContain('the options of redis are persist');
  });
});
