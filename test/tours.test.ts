// Guided tours: every beat of every tour plays to its end with its narration's claims holding,
// at the same time on every run; every preset opens as its tour.
import { describe, expect, it } from 'vitest';
import { PRESETS, presetActions } from '../src/sim/run/presets';
import { formatSchedule } from '../src/sim/model/schedule';
import { newRun, isPaxosRun, type AnyRun } from '../src/sim/run/run';
import { attachInvariants } from '../src/sim/check/invariants';
import { attachPaxosInvariants } from '../src/sim/check/paxosInvariants';
import { resolveTour, TourError } from '../src/sim/teach/tours/runner';
import { evaluate } from '../src/sim/teach/tours/predicates';
import { TOURS, findTour } from '../src/sim/teach/tours/tours';
import { TOUR_CATALOG } from '../src/sim/teach/tours/catalog';
import type { Tour } from '../src/sim/teach/tours/types';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { decodeLink, encodeLink } from '../src/share/link';

/** Raft's checker, or the Paxos family's for a Paxos run. */
const checkerOf = (sim: AnyRun) => (isPaxosRun(sim) ? attachPaxosInvariants(sim) : attachInvariants(sim));

const ACTOR = /\{([A-Za-z][A-Za-z0-9]{0,7})\}/g;

describe('tours', () => {
  it('has the twelve tours of the teaching issue, one per protocol feature and the TTL rule’s, with distinct names', () => {
    expect(TOURS.map((t) => t.name)).toEqual([
      'first-election',
      'replication',
      'failover',
      'split-vote',
      'partition',
      'log-repair',
      'figure8',
      'chapter',
      'fencing',
      'ghost-lock',
      'clock-drift',
      'failover-lease',
      'rejoin-disrupts',
      'isolated-leader',
      'noop-commit',
      'snapshot-catch-up',
      'stale-read',
      'stale-read-index',
      'stale-term-backup',
      'hand-over',
      'phi-accrual',
      'gossip',
      'takeover-ttl',
      'grow-and-remove',
      'redlock-debate',
      'zookeeper-herd',
      'advisory-failover',
      'two-at-once',
      'paxos-re-propose',
      'paxos-duel',
      'multi-paxos-leader-change',
      'raft-vs-paxos',
    ]);
  });

  it('the catalog a link and the scenario picker read before the tours load names every tour, with its title and number of beats', () => {
    expect(TOUR_CATALOG).toEqual(TOURS.map((t) => ({ name: t.name, title: t.title, beats: t.beats.length })));
  });

  for (const tour of TOURS) {
    describe(tour.title, () => {
      const resolved = resolveTour(tour);

      it('plays beat by beat to its end with every assertion holding', () => {
        expect(resolved.beats).toHaveLength(tour.beats.length);
        for (const b of resolved.beats) {
          expect({ beat: b.number, failures: b.failures }).toEqual({ beat: b.number, failures: [] });
          expect(b.endMs).toBeGreaterThan(b.startMs);
          expect(b.beat.expect?.length ?? 0).toBeGreaterThan(0);
        }
      });

      it('ends each beat at the same time every run, and a replay of its run lands on the same state', () => {
        const again = resolveTour(tour);
        expect(again.beats.map((b) => [b.startMs, b.endMs])).toEqual(resolved.beats.map((b) => [b.startMs, b.endMs]));
        for (const b of resolved.beats) {
          // What the page does for a beat: load its run and play it from the start to the end.
          // Its run is the whole line's schedule (later beats' actions come after its end).
          const sim = newRun(b.config, b.lineSchedule);
          sim.advanceTo(b.endMs);
          for (const call of b.beat.expect ?? []) expect(evaluate(call, sim)).toBe(true);
          if ('when' in b.beat.until) expect(evaluate(b.beat.until.when, sim)).toBe(true);
          const own = newRun(b.config, b.schedule);
          own.advanceTo(b.endMs);
          expect(own.cluster.events.map((e) => e.line)).toEqual(sim.cluster.events.map((e) => e.line));
        }
      });

      it('names in its narration only nodes and clients the run has', () => {
        const ids = new Set([...tour.config.nodeIds, ...tour.config.clientIds]);
        for (const beat of [{ narration: tour.intro }, ...tour.beats]) {
          for (const m of beat.narration.matchAll(ACTOR)) expect(ids.has(m[1]), `${tour.name}: {${m[1]}}`).toBe(true);
          expect(beat.narration.split('**').length % 2, `${tour.name}: unbalanced ** in "${beat.narration}"`).toBe(1);
        }
      });

      it('breaks no invariant on its main line (a bug branch may)', () => {
        for (const b of resolved.beats) {
          if (b.config.bugs.length > 0) continue;
          const sim = newRun(b.config, b.schedule);
          const checker = checkerOf(sim);
          sim.advanceTo(b.endMs);
          expect(checker.violations.map((v) => v.line)).toEqual([]);
        }
      });
    });
  }

  it('opens every preset as its tour: same configuration, and the main line ends on the preset’s schedule', () => {
    for (const preset of PRESETS) {
      const tour = findTour(preset.name);
      expect(tour, preset.name).not.toBeNull();
      const resolved = resolveTour(tour as Tour);
      expect(resolved.beats[0].config).toEqual(preset.config);
      expect(formatSchedule(resolved.beats[0].lineSchedule), preset.name).toBe(formatSchedule(presetActions(preset)));
    }
  });

  it('shows the branches change one thing: Figure 8 commits f1 only with the bug, fencing refuses only without it', () => {
    const fig = resolveTour(findTour('figure8') as Tour).beats;
    expect(fig[3].config.bugs).toEqual([]);
    expect(fig[6].config.bugs).toEqual(['figure8']);
    expect(fig[6].startMs).toBe(fig[3].startMs);
    // Beat 8 says the Invariants tab flags Leader Completeness: the checker must agree.
    const buggy = newRun(fig[7].config, fig[7].schedule);
    const checker = checkerOf(buggy);
    buggy.advanceTo(fig[7].endMs);
    expect(checker.violations[0]?.invariant).toBe('leader-completeness');
    const fencing = resolveTour(findTour('fencing') as Tour).beats;
    expect(fencing[5].schedule).toEqual(fencing[4].schedule);
    expect(fencing[5].config.bugs).toEqual(['no-fencing']);
  });

  it('the Paxos tours change one thing in a branch, and the checker agrees with what the narration says', () => {
    // P2c (Paxos Made Simple §2.2): with the bug, the re-propose tour's last beat chooses a second value.
    const adopt = resolveTour(findTour('paxos-re-propose') as Tour).beats;
    expect(adopt[3].config.bugs).toEqual(['paxos-own-value']);
    const buggy = newRun(adopt[3].config, adopt[3].schedule);
    const checker = checkerOf(buggy);
    buggy.advanceTo(adopt[3].endMs);
    expect(checker.violations[0]?.invariant).toBe('paxos-chosen-stays');
    // §2.4 (progress): only the back-off changes in the duel's branch, and it ends the duel sooner.
    const duel = resolveTour(findTour('paxos-duel') as Tour).beats;
    expect(duel[2].config).toEqual({ ...duel[0].config, backoffMs: [20, 100] });
    expect(duel[2].endMs).toBeLessThan(duel[1].endMs);
    // The side-by-side tour: the same schedule on both protocols.
    const side = resolveTour(findTour('raft-vs-paxos') as Tour).beats;
    expect(side[1].schedule).toEqual(side[0].schedule);
    expect([side[0].config.protocol, side[1].config.protocol]).toEqual([undefined, 'multi-paxos']);
  });

  it('a link to any beat of any tour decodes to that beat', () => {
    for (const tour of TOURS) {
      for (let beat = 1; beat <= tour.beats.length; beat++) {
        const link = encodeLink({ config: tour.config, schedule: [], atMs: 0, tour: { name: tour.name, beat } });
        const decoded = decodeLink(link);
        expect(decoded.ok && decoded.spec.tour, link).toEqual({ name: tour.name, beat });
      }
    }
  });

  it('names a broken beat in one sentence', () => {
    const broken: Tour = {
      name: 'broken',
      title: 'Broken',
      intro: '',
      config: DEFAULT_CONFIG,
      beats: [
        { narration: 'a', until: { atMs: 500 }, expect: [{ p: 'noLeader' }] },
        { narration: 'b', actions: '@100 crash n2', until: { atMs: 900 } },
      ],
    };
    expect(() => resolveTour(broken)).toThrow(
      new TourError('Tour "broken", beat 2: "@100 crash n2" must come after the beat starts at 500 ms.'),
    );
    const never: Tour = { ...broken, beats: [{ narration: 'a', until: { when: { p: 'leaderOfTerm', term: 9 }, capMs: 1000 } }] };
    expect(() => resolveTour(never)).toThrow(
      'Tour "broken", beat 1: waited from 0 ms to 1000 ms, but it never held that a leader of term 9 exists.',
    );
    const failing = resolveTour({ ...broken, beats: [{ narration: 'a', until: { atMs: 500 }, expect: [{ p: 'noLeader' }] }] });
    expect(failing.beats[0].failures).toEqual(['expected there is no leader, but there is a leader: n2 leads term 1']);
  });
});
