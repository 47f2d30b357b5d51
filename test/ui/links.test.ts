import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { findPreset } from '../../src/sim/run/presets';
import { parseSchedule } from '../../src/sim/model/schedule';
import { encodeLink } from '../../src/share/link';
import { linkQuery, runFromQuery } from '../../src/ui/runs';
import { createLabStore, type LabState } from '../../src/ui/store/labStore';
import { startUrlSync, URL_EVERY_MS, URL_EVERY_MS_PAUSED } from '../../src/ui/urlSync';
import { Simulation } from '../../src/sim/run/simulation';
import { takeRunView } from '../../src/sim/view/runView';

afterEach(() => {
  vi.useRealTimers();
});

describe('the page’s links', () => {
  it('opens a share link paused at its time, at its speed', () => {
    const run = runFromQuery('?v=1&seed=7&nodes=3&clients=AB&bugs=no-fencing&s=%40100+crash+n2&t=1234&speed=2');
    expect(run).toEqual({
      config: { ...DEFAULT_CONFIG, seed: 7, nodeIds: ['n1', 'n2', 'n3'], clientIds: ['A', 'B'], bugs: ['no-fencing'] },
      schedule: parseSchedule('@100 crash n2'),
      startAtMs: 1234,
      stopAtMs: null,
      playing: false,
      speed: 2,
      label: 'link',
    });
    expect(runFromQuery('')).toBeNull();
    expect(runFromQuery('?')).toBeNull();
  });

  it('recognises a preset’s run, so a reload keeps its blurb and its end', () => {
    const fencing = findPreset('fencing')!;
    const link = encodeLink({ config: fencing.config, schedule: parseSchedule(fencing.schedule), atMs: 2000 });
    expect(runFromQuery(`?${link}`)).toMatchObject({ label: 'fencing', stopAtMs: 15000, startAtMs: 2000, playing: false });
  });

  it('answers old-style and bad links with one sentence', () => {
    expect(runFromQuery('?seed=7&nodes=9&paused')).toBe(
      'This link has an unknown field "paused"; a Lockstep link has v, seed, nodes, timeout, heartbeat, latency, clients, bugs, features, read, lock, lockopts, s, z, t, speed, tour, beat, view, present, embed, console, snapshot, protocol, backoff, regions, rtt, persist, detector, phi, window, fanout, round, suspect, takeover.',
    );
    expect(runFromQuery('?speed=1')).toBe('This link has no format version (v=1); it is not a Lockstep run link.');
    expect(runFromQuery('?v=1&seed=42&nodes=12')).toBe(
      'This link\'s configuration is invalid: The number of nodes must be a whole number from 1 to 9, not "12".',
    );
    expect(runFromQuery('?v=1&seed=42&t=700000')).toBe('This link\'s time "700000" must be a whole number of ms from 0 to 600000.');
    expect(runFromQuery('?v=2&seed=42')).toBe('This link is format version "2"; this Lockstep reads version 1.');
  });

  it('carries a tour and its beat, and says in one sentence what is wrong with them', () => {
    const run = runFromQuery('?v=1&seed=42&tour=fencing&beat=3');
    expect(run).toMatchObject({ tour: { name: 'fencing', beat: 3 } });
    expect(runFromQuery('?v=1&seed=42&tour=fencing')).toMatchObject({ tour: { name: 'fencing', beat: 1 } });
    const query = linkQuery({ config: DEFAULT_CONFIG, schedule: [], nowMs: 10, speed: 0.1, tour: { name: 'chapter', beat: 2 } });
    expect(query).toBe('v=1&seed=42&t=10&tour=chapter&beat=2');
    expect(runFromQuery(query)).toMatchObject({ tour: { name: 'chapter', beat: 2 } });
    expect(runFromQuery('?v=1&seed=42&tour=nope&beat=1')).toBe(
      'This link\'s tour "nope" is not one of the tours: first-election, replication, failover, split-vote, partition, log-repair, figure8, chapter, fencing, ghost-lock, clock-drift, failover-lease, rejoin-disrupts, isolated-leader, noop-commit, snapshot-catch-up, stale-read, stale-read-index, stale-term-backup, hand-over, phi-accrual, gossip, takeover-ttl, grow-and-remove, redlock-debate, zookeeper-herd, advisory-failover, two-at-once, paxos-re-propose, paxos-duel, multi-paxos-leader-change, raft-vs-paxos.',
    );
    expect(runFromQuery('?v=1&seed=42&tour=fencing&beat=9')).toBe(
      'This link\'s beat "9" must be a whole number from 1 to 7 (the tour "fencing" has 7 beats).',
    );
    expect(runFromQuery('?v=1&seed=42&beat=2')).toBe('This link has a beat but no tour; write it like "&tour=fencing&beat=3".');
  });

  it('a run’s link decodes back to the same run', () => {
    const query = linkQuery({
      config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] },
      schedule: parseSchedule('@300 crash n2; @310 client A acquire job:42 10000'),
      nowMs: 512,
      speed: 0.1,
    });
    expect(query).toBe('v=1&seed=42&clients=AB&s=%40300+crash+n2%3B+%40310+client+A+acquire+job%3A42+10000&t=512');
    expect(runFromQuery(query)).toMatchObject({
      schedule: parseSchedule('@300 crash n2; @310 client A acquire job:42 10000'),
      startAtMs: 512,
      speed: 0.1,
    });
  });
});

describe('the URL follows the run', () => {
  function storeAt(t: number, playing: boolean) {
    const sim = new Simulation(DEFAULT_CONFIG);
    sim.advanceTo(t);
    return (s: LabState) => ({ frame: { ...s.frame, snapshot: takeRunView(sim), playing, runId: 1 } });
  }

  it(`at once when paused (but not more than every ${URL_EVERY_MS_PAUSED} ms), at most every ${URL_EVERY_MS} ms while playing`, () => {
    vi.useFakeTimers();
    let clock = 0;
    const store = createLabStore();
    const written: string[] = [];
    const stop = startUrlSync(store, { replace: (q) => written.push(q), now: () => clock });
    expect(written).toEqual([]); // nothing before the first snapshot
    store.setState(storeAt(10, false));
    expect(written).toEqual(['v=1&seed=42&t=10']);
    const T = 2 * URL_EVERY_MS; // a quiet spell after the first write
    clock = T;
    store.setState(storeAt(20, true));
    expect(written).toHaveLength(2); // the first change after a quiet spell goes at once
    clock = T + 100;
    store.setState(storeAt(30, true));
    clock = T + 200;
    store.setState(storeAt(40, true));
    expect(written).toHaveLength(2);
    vi.advanceTimersByTime(URL_EVERY_MS - 300);
    expect(written).toHaveLength(2);
    clock = T + URL_EVERY_MS;
    vi.advanceTimersByTime(200);
    expect(written.at(-1)).toBe('v=1&seed=42&t=40');
    clock += 200;
    store.setState(storeAt(50, false)); // paused: a seek or step shows at once
    expect(written.at(-1)).toBe('v=1&seed=42&t=50');
    clock += 20;
    store.setState((s) => ({ frame: { ...s.frame, schedule: parseSchedule('@50 crash n1') } })); // a burst (a dragged scrubber) waits a little
    expect(written.at(-1)).toBe('v=1&seed=42&t=50');
    vi.advanceTimersByTime(80);
    expect(written.at(-1)).toBe('v=1&seed=42&s=%4050+crash+n1&t=50');
    stop();
  });
});
