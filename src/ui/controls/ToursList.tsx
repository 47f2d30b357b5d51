/**
 * The tours list the Tours button opens (ToursMenu.tsx): what each tour teaches, how many beats it
 * has and how long it runs at the default speed with its slow motion — a teacher's plan for a
 * class. Loaded on demand with the tours' text, the first time the list opens. The running times
 * are worked out a tour at a time while the page is idle (a tour's beats are replayed to find where
 * each slows down), so the list shows at once.
 */
import { memo, useEffect, useState } from 'react';
import { DEFAULT_SPEED } from '../../sim/model/limits';
import { pacePlan, planRealMs } from '../../sim/teach/tours/pace';
import { TOURS } from '../../sim/teach/tours/tours';
import type { Tour } from '../../sim/teach/tours/types';
import { loadTours, tourNamed } from '../tour';

/** The tours in the order a course meets them, in groups. */
export const TOUR_GROUPS: readonly { readonly title: string; readonly names: readonly string[] }[] = [
  { title: 'Raft, step by step', names: ['first-election', 'replication', 'failover', 'split-vote'] },
  { title: 'Partitions and repair', names: ['partition', 'log-repair', 'figure8', 'chapter'] },
  { title: 'Locks, leases and fencing', names: ['fencing', 'ghost-lock', 'clock-drift', 'failover-lease'] },
];

/** Tours in no group above (protocol features, and tours added later) are listed under this title. */
export const OTHER_GROUP = 'Protocol features';

export function groupedTours(): { title: string; tours: Tour[] }[] {
  const listed = new Set(TOUR_GROUPS.flatMap((g) => g.names));
  const byName = (n: string) => TOURS.find((t) => t.name === n);
  const groups = TOUR_GROUPS.map((g) => ({ title: g.title, tours: g.names.map(byName).filter((t): t is Tour => t !== undefined) }));
  return [...groups, { title: OTHER_GROUP, tours: TOURS.filter((t) => !listed.has(t.name)) }].filter((g) => g.tours.length > 0);
}

/** How long a tour runs (real ms) at the default speed, every beat with its slow motion. */
export function tourRunningMs(name: string): number | null {
  const tour = tourNamed(name);
  if (tour === null) return null;
  let total = 0;
  for (const b of tour.beats) total += planRealMs(pacePlan(b.startMs, b.endMs, b.pace, DEFAULT_SPEED), b.startMs, b.endMs);
  return total;
}

/** "about 1 min", "about 40 s". */
export function runningText(ms: number): string {
  if (ms < 55_000) return `about ${Math.max(5, Math.round(ms / 5000) * 5)} s`;
  return `about ${Math.round(ms / 60_000)} min`;
}

const idle = (f: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 500 }) : (setTimeout(f, 30) as unknown as number);

/** The running times, filled in one tour per idle moment once asked for. */
function useRunningTimes(wanted: boolean): ReadonlyMap<string, number> {
  const [times, setTimes] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    const queue = TOURS.map((t) => t.name).filter((n) => !times.has(n));
    const start = () => idle(next);
    const next = () => {
      if (cancelled) return;
      const name = queue.shift();
      if (name === undefined) return;
      const ms = tourRunningMs(name);
      if (ms !== null) setTimes((m) => new Map(m).set(name, ms));
      idle(next);
    };
    // The beats' runs are in the tours' chunk: fetch it, then fill the times in.
    loadTours().then(start, () => undefined);
    return () => {
      cancelled = true;
    };
    // Asked once: the times never change.
  }, [wanted]);
  return times;
}

/** The groups and their tours, each a button that opens the tour at beat 1. */
export const ToursList = memo(function ToursList({ current, choose }: { current: string | null; choose: (name: string) => void }) {
  const times = useRunningTimes(true);
  return (
    <>
      {groupedTours().map((g) => (
        <section key={g.title} className="tours-group">
          <h2>{g.title}</h2>
          <ul>
            {g.tours.map((t) => {
              const ms = times.get(t.name);
              return (
                <li key={t.name}>
                  <button
                    type="button"
                    className="tour-choice"
                    data-tour={t.name}
                    aria-current={t.name === current ? 'true' : undefined}
                    onClick={() => choose(t.name)}
                  >
                    <span className="tour-choice-title">{t.title}</span>
                    <span className="tour-choice-meta" data-testid={`tour-meta-${t.name}`}>
                      {t.beats.length} beats · {ms === undefined ? '…' : runningText(ms)}
                    </span>
                    <span className="tour-choice-intro">{t.intro}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </>
  );
});
