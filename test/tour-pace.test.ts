// A tour's pace (src/sim/teach/tours/pace.ts) and what its narration names (mentions.ts): every
// beat's key moment is known before it plays, slows down before it comes, and plays each of its
// messages for at least 1.5 s; the fast parts fit a few seconds; a beat naming a panel opens it.
import { describe, expect, it } from 'vitest';
import { SPEED_CHOICES } from '../src/sim/model/limits';
import { Simulation } from '../src/sim/run/simulation';
import { beatPanel, mentionsIn } from '../src/sim/teach/tours/mentions';
import { MessageLog, pacePlan, planRealMs, READABLE_MESSAGE_MS, SLOW_PART_MAX_REAL_MS, speedAt } from '../src/sim/teach/tours/pace';
import { resolvedTour } from '../src/sim/teach/tours/runner';
import { findTour, TOURS } from '../src/sim/teach/tours/tours';
import type { Tour } from '../src/sim/teach/tours/types';

const tour = (name: string) => resolvedTour(findTour(name) as Tour);

describe('a tour beat plays its key moment slowly enough to read', () => {
  it('slows down before every key moment, not after, and shows each of its messages for at least 1.5 s', () => {
    let paced = 0;
    for (const t of TOURS) {
      for (const b of resolvedTour(t).beats) {
        const p = b.pace;
        if (p === null) {
          expect(b.beat.steady || !('when' in b.beat.until), `${t.name} beat ${b.number} waits on a condition but has no moment`).toBe(
            true,
          );
          continue;
        }
        paced++;
        const where = `${t.name} beat ${b.number}`;
        expect(p.keyMs, where).toBeGreaterThan(b.startMs);
        expect(p.keyMs, where).toBeLessThanOrEqual(b.endMs);
        // Before the moment: playback is already slow when it comes.
        expect(p.slowFromMs, where).toBeLessThan(p.keyMs);
        expect(p.slowFromMs, where).toBeGreaterThanOrEqual(b.startMs);
        for (const m of p.keyMessages) {
          expect(m.sentAt, where).toBeGreaterThanOrEqual(p.slowFromMs);
          expect(m.endAt, where).toBeLessThanOrEqual(p.slowToMs);
          expect((m.endAt - m.sentAt) / p.slowSpeed, `${where}: ${m.type} ${m.src}→${m.dst}`).toBeGreaterThanOrEqual(READABLE_MESSAGE_MS);
        }
        expect((p.slowToMs - p.slowFromMs) / p.slowSpeed, where).toBeLessThanOrEqual(SLOW_PART_MAX_REAL_MS);
        expect(SPEED_CHOICES, where).toContain(p.slowSpeed);
      }
    }
    expect(paced).toBeGreaterThan(80);
  });

  it('fencing beat 5: slows before A’s stale write reaches the stores, which takes seconds, not half of one', () => {
    const b = tour('fencing').beats[4];
    const p = b.pace!;
    expect(p.keyMs).toBe(b.endMs); // the fenced store refuses the write: the beat's condition
    const write = p.keyMessages.find((m) => m.type === 'StoreWrite' && m.src === 'A' && m.dst === 'fenced');
    expect(write).toBeDefined();
    expect(p.slowFromMs).toBeLessThanOrEqual(write!.sentAt);
    const steps = pacePlan(b.startMs, b.endMs, p, 0.1);
    // The write's flight plays entirely at the slow speed.
    expect(speedAt(steps, write!.sentAt)).toBe(p.slowSpeed);
    expect(planRealMs(steps, write!.sentAt, write!.endAt)).toBeGreaterThanOrEqual(READABLE_MESSAGE_MS);
    // Before it, the wait for A to wake plays at the chosen 0.1× (it fits without speeding up).
    expect(speedAt(steps, b.startMs)).toBe(0.1);
  });

  it('plays the fast part of a long beat at a round speed that fits it, never slower than the person chose', () => {
    const b = tour('fencing').beats[2]; // 2.5 s to 11 s: the lease runs out
    const steps = pacePlan(b.startMs, b.endMs, b.pace, 0.1);
    expect(steps[0].speed).toBeGreaterThan(1);
    for (const s of steps) expect(SPEED_CHOICES).toContain(s.speed);
    expect(planRealMs(steps, b.startMs, b.pace!.slowFromMs)).toBeLessThanOrEqual(8000);
    // A person who chose 5× keeps 5× outside the key moment.
    const fast = pacePlan(b.startMs, b.endMs, b.pace, 5);
    expect(speedAt(fast, b.startMs)).toBe(5);
    expect(speedAt(fast, b.pace!.keyMs)).toBe(b.pace!.slowSpeed);
  });

  it('keeps every beat of every tour under half a minute at the default speed', () => {
    for (const t of TOURS)
      for (const b of resolvedTour(t).beats) {
        const real = planRealMs(pacePlan(b.startMs, b.endMs, b.pace, 0.1), b.startMs, b.endMs);
        expect(real, `${t.name} beat ${b.number}`).toBeLessThanOrEqual(30_000);
      }
  });

  it('records messages without changing the run: the same event lines with the log as without', () => {
    const b = tour('chapter').beats[6];
    const plain = new Simulation(b.config, b.lineSchedule);
    plain.advanceTo(b.endMs);
    const watched = new Simulation(b.config, b.lineSchedule);
    const log = new MessageLog(0);
    watched.cluster.tracer = log;
    watched.advanceTo(b.endMs);
    expect(watched.cluster.events.map((e) => e.line)).toEqual(plain.cluster.events.map((e) => e.line));
    expect(log.messages.size).toBeGreaterThan(100);
  });
});

describe('what a narration names', () => {
  it('finds panels and marks by their words, not inside code', () => {
    expect(mentionsIn('The History tab’s **register** verdict fails')).toEqual(['history']);
    expect(mentionsIn('The Invariants tab flags **Leader Completeness**.')).toEqual(['invariants']);
    // "the replicated log" is the idea, not the Logs panel; "its log" is a node's row there.
    expect(mentionsIn('The lock table is part of the replicated log')).toEqual(['locks']);
    expect(mentionsIn('It kept its log (x=1)')).toEqual(['logs']);
    expect(mentionsIn('The **unfenced** store takes it')).toEqual(['stores']);
    expect(mentionsIn('an **election timer** (the arc around it)')).toEqual(['timers']);
    expect(mentionsIn('(the action `timeout n4`)')).toEqual([]);
  });

  it('opens the panel a beat names in words, over the one it highlights (fencing 7, stale-read 3)', () => {
    expect(tour('fencing').beats[6].panel).toBe('history');
    expect(tour('stale-read').beats[2].panel).toBe('history');
    expect(tour('figure8').beats[7].panel).toBe('invariants');
    expect(tour('fencing').beats[4].panel).toBe('stores');
    expect(tour('failover-lease').beats[0].panel).toBe('locks');
    // A beat that names the logs while pointing at a node opens the logs too.
    expect(tour('replication').beats[5].panel).toBe('logs');
    expect(beatPanel({ narration: '', until: { atMs: 1 } }, [])).toBeNull();
  });

  it('gives every beat that names a panel that panel (or a place on the ring for stores and timers)', () => {
    for (const t of TOURS)
      for (const b of resolvedTour(t).beats) {
        const panels = b.shows.filter((s) => s !== 'stores' && s !== 'timers');
        // One side panel is open at a time: a beat names at most one.
        expect(panels.length, `${t.name} beat ${b.number} names ${panels.join(' and ')}`).toBeLessThanOrEqual(1);
        if (panels.length > 0) expect(panels, `${t.name} beat ${b.number}`).toContain(b.panel);
      }
  });
});
