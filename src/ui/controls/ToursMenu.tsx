/**
 * Every tour, one click from anywhere (the top bar): what each teaches, how many beats it has and
 * how long it runs at the default speed with its slow motion — a teacher's plan for a class.
 * Choosing one opens it at beat 1. The running times are worked out a tour at a time while the
 * page is idle (a tour's beats are replayed to find where each slows down), so the list opens at once.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { DEFAULT_SPEED } from '../../sim/model/limits';
import { pacePlan, planRealMs } from '../../sim/teach/tours/pace';
import { TOURS } from '../../sim/teach/tours/tours';
import type { Tour } from '../../sim/teach/tours/types';
import { useBridge, useLab } from '../labContext';
import { openTourBeat, tourNamed } from '../tour';
import { FloatingPanel } from './Popover';

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
    const next = () => {
      if (cancelled) return;
      const name = queue.shift();
      if (name === undefined) return;
      const ms = tourRunningMs(name);
      if (ms !== null) setTimes((m) => new Map(m).set(name, ms));
      idle(next);
    };
    idle(next);
    return () => {
      cancelled = true;
    };
    // Asked once: the times never change.
  }, [wanted]);
  return times;
}

export const ToursMenu = memo(function ToursMenu({ className }: { className?: string }) {
  const bridge = useBridge();
  const current = useLab((s) => s.tour?.name ?? null);
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  const times = useRunningTimes(asked);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!root.current?.contains(target) && !panel.current?.contains(target)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const choose = (name: string) => {
    setOpen(false);
    openTourBeat(bridge, { name, beat: 1 }, 'play');
  };
  return (
    <div className={`popover tours-menu ${className ?? ''}`} ref={root}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? 'tours-list' : undefined}
        data-testid="tours-button"
        title="Every guided tour: what it teaches, its beats and its running time"
        onClick={() => {
          setAsked(true);
          setOpen(!open);
        }}
      >
        Tours <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <FloatingPanel anchor={root} align="left" id="tours-list" panelRef={panel} className="tours-panel" label="Guided tours">
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
        </FloatingPanel>
      )}
    </div>
  );
});
