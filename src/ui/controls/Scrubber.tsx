/**
 * The timeline scrubber: the whole run as a track, its landmarks marked (elections, crashes,
 * restarts, partitions, heals, lock grants and expiries, rejected writes, the first invariant
 * violation), a draggable thumb, stepping by event and by landmark, and undo/redo of actions.
 * Every move is a seek in the worker's Timeline (checkpoints + deterministic replay).
 */
import {
  symbol,
  symbolCircle,
  symbolCross,
  symbolDiamond,
  symbolSquare,
  symbolStar,
  symbolTimes,
  symbolTriangle,
  ticks as niceTicks,
  type SymbolType,
} from 'd3';
import { memo, useMemo, useState, type ChangeEvent } from 'react';
import { CAP_NAME, MAX_SEEK_MS } from '../../sim/model/limits';
import type { LandmarkView } from '../../worker/protocol';
import { formatDuration } from '../format';
import { ForkNotice } from './ForkNotice';
import { useBridge, useLab, useLabPanel } from '../labContext';
import {
  selectCanRedo,
  selectCanUndo,
  selectEnd,
  selectHorizon,
  selectLandmarks,
  selectNow,
  selectSchedule,
  selectViolation,
  selectConfig,
} from '../store/selectors';

export type MarkLook = 'leader' | 'crash' | 'restart' | 'partition' | 'heal' | 'grant' | 'expire' | 'rejected' | 'violation' | 'chosen';

export const MARK_NAMES: Record<MarkLook, string> = {
  leader: 'election won',
  crash: 'crash',
  restart: 'restart',
  partition: 'partition',
  heal: 'heal',
  grant: 'lock granted',
  expire: 'lock expired or freed',
  rejected: 'write rejected',
  violation: 'invariant violated',
  chosen: 'value chosen (Paxos)',
};

const MARK_SYMBOLS: Record<MarkLook, SymbolType> = {
  leader: symbolTriangle,
  crash: symbolTimes,
  restart: symbolCircle,
  partition: symbolSquare,
  heal: symbolCross,
  grant: symbolDiamond,
  expire: symbolDiamond,
  rejected: symbolSquare,
  violation: symbolStar,
  chosen: symbolDiamond,
};

export function markLook(m: LandmarkView): MarkLook {
  switch (m.kind) {
    case 'leader':
    case 'crash':
    case 'restart':
    case 'partition':
    case 'heal':
      return m.kind;
    case 'calm':
      return 'heal';
    case 'lock-granted':
      return 'grant';
    case 'paxos-leader':
      return 'leader';
    case 'paxos-chosen':
      return 'chosen';
    case 'lock-expired':
    case 'lock-ghost':
      return 'expire';
    default:
      return 'rejected';
  }
}

export function markPath(look: MarkLook, size = 60): string {
  if (look === 'partition') return 'M-1.6,-6H1.6V6H-1.6Z';
  return symbol(MARK_SYMBOLS[look], look === 'violation' ? size * 1.8 : size)() ?? '';
}

// Memoized: the track re-renders every frame while the run grows, its icons never change.
const MarkIcon = memo(function MarkIcon({ look }: { look: MarkLook }) {
  return (
    <svg viewBox="-7 -7 14 14" width="0.95em" height="0.95em" aria-hidden="true" className={`mark-icon icon-${look}`}>
      <path d={markPath(look)} />
    </svg>
  );
});

/** The marks a Paxos run can have, and the word for a won ballot (no locks, no stores there). */
const PAXOS_MARKS: readonly MarkLook[] = ['leader', 'chosen', 'crash', 'restart', 'partition', 'heal', 'violation'];

const ScrubLegend = memo(function ScrubLegend() {
  const paxos = useLab(selectConfig).protocol !== undefined;
  const looks = paxos ? PAXOS_MARKS : (Object.keys(MARK_NAMES) as MarkLook[]).filter((l) => l !== 'chosen');
  return (
    <ul className="scrub-legend" aria-label="Timeline marks">
      {looks.map((look) => (
        <li key={look}>
          <MarkIcon look={look} />
          {paxos && look === 'leader' ? 'ballot won' : MARK_NAMES[look]}
        </li>
      ))}
      <li>
        <span className="action-tick legend-tick" aria-hidden="true" />
        your actions
      </li>
    </ul>
  );
});

interface Mark {
  readonly t: number;
  readonly look: MarkLook;
  readonly label: string;
  /** 0 on the lane's lower row; 1 when it would cover a mark just before it. */
  readonly level: 0 | 1;
}

/** Marks closer than this share of the track would cover each other. */
const MARK_GAP = 0.012;

/**
 * At most one mark per kind per 1/`buckets` of the track (a long run stays readable), and a
 * mark that would cover the one before it goes up a row.
 */
export function thinMarks(marks: readonly LandmarkView[], endMs: number, buckets = 400): Mark[] {
  const out: { t: number; look: MarkLook; label: string; level: 0 | 1 }[] = [];
  const seen = new Map<string, { index: number; more: number }>();
  const lastAt = [-Infinity, -Infinity];
  const span = Math.max(1, endMs);
  for (const m of marks) {
    const look = markLook(m);
    const key = `${look}:${Math.floor((m.t / span) * buckets)}`;
    const prev = seen.get(key);
    if (prev) {
      prev.more++;
      const first = out[prev.index];
      first.label = `${first.label.replace(/ \(and \d+ more\)$/, '')} (and ${prev.more} more)`;
      continue;
    }
    const x = m.t / span;
    const level: 0 | 1 = x - lastAt[0] >= MARK_GAP ? 0 : x - lastAt[1] >= MARK_GAP ? 1 : 0;
    lastAt[level] = x;
    seen.set(key, { index: out.length, more: 0 });
    out.push({ t: m.t, look, label: `t=${m.t} ms: ${m.text}`, level });
  }
  return out;
}

/**
 * The track's end: the run's end as the worker reports it (the preset's end, the furthest a
 * person reached, the last scheduled action; never past the cap). Nothing else stretches it: a
 * Next-event probe stops at the end, and the track has no margin to drag into.
 */
export function trackEnd(endMs: number, horizonMs: number, nowMs: number): number {
  return Math.max(endMs, horizonMs, nowMs, 1);
}

export const Scrubber = memo(function Scrubber() {
  const bridge = useBridge();
  const now = useLabPanel(selectNow);
  const horizon = useLabPanel(selectHorizon);
  const runEnd = useLabPanel(selectEnd);
  const landmarks = useLabPanel(selectLandmarks);
  const schedule = useLab(selectSchedule);
  const violation = useLab(selectViolation);
  const canUndo = useLab(selectCanUndo);
  const canRedo = useLab(selectCanRedo);
  const [drag, setDrag] = useState<number | null>(null);

  const end = trackEnd(runEnd, horizon, now);
  const atCap = end >= MAX_SEEK_MS;
  const marks = useMemo(() => thinMarks(landmarks, end), [landmarks, end]);
  // d3's ticks, as a linear scale's .ticks(8) gives them (without the scale, which brings d3's colour interpolation along).
  const ticks = useMemo(() => niceTicks(0, end, 8), [end]);
  const pct = (t: number) => `${(Math.min(t, end) / end) * 100}%`;

  // The thumb follows the drag until the worker lands there. Settled while rendering, not in an
  // effect: an effect on `now` would schedule a task after every frame of a playing run.
  if (drag !== null && drag === now) setDrag(null);

  const seek = (t: number) => bridge.goTo(t);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const t = Number(e.target.value);
    setDrag(t);
    seek(t);
  };
  const value = drag ?? now;
  const actionMarks = useMemo(() => [...new Set(schedule.map((a) => a.at))], [schedule]);

  return (
    <section className="scrubber" aria-label="Timeline">
      <div className="scrub-buttons">
        <button
          type="button"
          onClick={() => bridge.jumpToLandmark(-1)}
          aria-label="Previous landmark"
          aria-keyshortcuts="["
          title="Previous landmark ([): the mark on the track before now"
        >
          {/* Not ⇤: that reads as "to the start". A flag is a landmark; ◀• and •▶ beside it step by event. */}
          <span aria-hidden="true">◀⚑</span>
        </button>
        <button
          type="button"
          onClick={() => bridge.stepToPreviousEvent()}
          aria-label="Previous event"
          aria-keyshortcuts="Shift+ArrowLeft ,"
          title="Previous event (Shift+← or ,)"
        >
          ◀•
        </button>
      </div>
      <div className="scrub-track" data-testid="scrubber" data-end={end} data-cap={atCap ? 'true' : undefined}>
        <div className="scrub-lane" aria-label="Landmarks" role="group">
          <div className="scrub-future" style={{ left: pct(horizon) }} title="Not computed yet: play or seek to see it" />
          {marks.map((m) => (
            <button
              key={`${m.look}-${m.t}`}
              type="button"
              tabIndex={-1}
              className={`mark mark-${m.look} level-${m.level}`}
              style={{ left: pct(m.t) }}
              aria-label={m.label}
              title={m.label}
              data-t={m.t}
              data-look={m.look}
              onClick={() => seek(m.t)}
            >
              <MarkIcon look={m.look} />
            </button>
          ))}
          {violation && (
            <button
              type="button"
              tabIndex={-1}
              className="mark mark-violation"
              style={{ left: pct(violation.t) }}
              aria-label={`t=${violation.t} ms: ${violation.title} violated`}
              title={`t=${violation.t} ms: ${violation.title} violated — ${violation.sentence}`}
              data-t={violation.t}
              data-look="violation"
              onClick={() => seek(violation.t)}
            >
              <MarkIcon look="violation" />
            </button>
          )}
        </div>
        <input
          type="range"
          className="scrub-range"
          min={0}
          max={end}
          step={1}
          value={Math.min(value, end)}
          onChange={onChange}
          aria-label="Time in the run"
          aria-valuetext={`t = ${value} ms of ${end} ms${atCap ? `, the end of ${CAP_NAME}` : ''}`}
        />
        <div className="scrub-actions" aria-hidden="true">
          {actionMarks.map((t) => (
            <span key={t} className="action-tick" style={{ left: pct(t) }} />
          ))}
        </div>
        <div className="scrub-axis" aria-hidden="true">
          {ticks
            .filter((t) => !(atCap && t >= end))
            .map((t) => (
              <span key={t} style={{ left: pct(t) }}>
                {t === 0 ? '0' : formatDuration(t)}
              </span>
            ))}
          {atCap && (
            <span className="scrub-cap" style={{ left: '100%' }} data-testid="scrub-cap">
              end of {CAP_NAME}
            </span>
          )}
        </div>
      </div>
      <div className="scrub-buttons">
        <button
          type="button"
          onClick={() => bridge.stepToNextEvent()}
          aria-label="Next event"
          aria-keyshortcuts="Shift+ArrowRight ."
          title="Next event (Shift+→ or .)"
        >
          •▶
        </button>
        <button
          type="button"
          onClick={() => bridge.jumpToLandmark(1)}
          aria-label="Next landmark"
          aria-keyshortcuts="]"
          title="Next landmark (]): the mark on the track after now"
        >
          <span aria-hidden="true">⚑▶</span>
        </button>
        <button
          type="button"
          onClick={() => bridge.undo()}
          disabled={!canUndo}
          aria-keyshortcuts="Control+Z"
          title="Undo the last action (Ctrl+Z); actions it set aside come back"
        >
          ↶ Undo
        </button>
        <button
          type="button"
          onClick={() => bridge.redo()}
          disabled={!canRedo}
          aria-keyshortcuts="Control+Shift+Z"
          title="Redo (Ctrl+Shift+Z)"
        >
          ↷ Redo
        </button>
      </div>
      <ScrubLegend />
      <ForkNotice />
    </section>
  );
});
