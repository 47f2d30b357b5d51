/**
 * Plays a tour: for each beat, the run it shows (configuration and schedule on its line), the
 * time it starts and the time it ends — found by stepping a Simulation until the beat's predicate
 * holds, or to its time — and whether its assertions hold there. A run is a pure function of
 * (configuration, schedule), so every beat's end is the same on every machine, and the page can
 * rebuild any beat by loading its run and seeking to its end.
 */
import type { SimConfig } from '../../model/config';
import { ScheduleError, checkSchedule, formatAction, parseSchedule, type Action } from '../../model/schedule';
import { newRun, type AnyRun } from '../../run/run';
import { LANDMARK_KINDS } from '../../run/timeline';
import { beatPanel, beatShows } from './mentions';
import { MessageLog, paceAround, type BeatPace } from './pace';
import { describeCall, evaluate, type PredicateCall } from './predicates';
import type { Beat, Shown, ShownPanel, Tour } from './types';

/** How far past its start a beat's predicate may take before the tour is broken. */
export const DEFAULT_BEAT_CAP_MS = 30_000;

export interface ResolvedBeat {
  /** 1-based. */
  readonly number: number;
  readonly beat: Beat;
  readonly config: SimConfig;
  /** The schedule on this beat's line, up to and including this beat's actions. */
  readonly schedule: readonly Action[];
  /**
   * The whole line's schedule: this beat's and those of the beats after it up to the next branch.
   * Their actions all come after this beat's end, so this run is the same as `schedule`'s up to
   * `endMs` — the page loads it, and playing on past a beat shows the rest of the story.
   */
  readonly lineSchedule: readonly Action[];
  readonly startMs: number;
  readonly endMs: number;
  /** One sentence per assertion that failed (empty when the narration holds). */
  readonly failures: readonly string[];
  /** The beat's key moment and the slow stretch around it (null: a steady beat). */
  readonly pace: BeatPace | null;
  /** What the narration names or the beat shows: the page keeps each in view. */
  readonly shows: readonly Shown[];
  /** The side panel the page opens for the beat (null: it stays as it is). */
  readonly panel: ShownPanel | null;
}

export interface ResolvedTour {
  readonly tour: Tour;
  readonly beats: readonly ResolvedBeat[];
}

export class TourError extends Error {
  override name = 'TourError';
}

function parseActions(tour: Tour, number: number, text: string | undefined): Action[] {
  if (text === undefined || text.trim() === '') return [];
  try {
    return parseSchedule(text);
  } catch (error) {
    if (error instanceof ScheduleError) throw new TourError(`Tour "${tour.name}", beat ${number}: ${error.message}`);
    throw error;
  }
}

/** Resolves every beat of a tour (deterministic; throws a TourError naming a broken beat). */
export function resolveTour(tour: Tour): ResolvedTour {
  const out: ResolvedBeat[] = [];
  let config = tour.config;
  /** The actions each beat on the current line added, by beat index. */
  let added: Action[][] = [];
  for (let i = 0; i < tour.beats.length; i++) {
    const beat = tour.beats[i];
    const number = i + 1;
    let startMs = i === 0 ? 0 : out[i - 1].endMs;
    if (beat.branch) {
      const from = beat.branch.fromBeat;
      if (!Number.isInteger(from) || from < 1 || from > i)
        throw new TourError(`Tour "${tour.name}", beat ${number}: a branch rewinds to an earlier beat (1 to ${i}), not ${from}.`);
      const change = beat.branch.change;
      config = {
        ...config,
        ...(change.bugs !== undefined ? { bugs: change.bugs } : {}),
        ...(change.features !== undefined ? { features: change.features } : {}),
        ...(change.electionTimeoutMs !== undefined ? { electionTimeoutMs: change.electionTimeoutMs } : {}),
        ...(change.backoffMs !== undefined ? { backoffMs: change.backoffMs } : {}),
        ...(change.protocol !== undefined ? { protocol: change.protocol } : {}),
        ...(change.lockOptions !== undefined ? { lockOptions: change.lockOptions } : {}),
        ...(change.detector !== undefined ? { detector: change.detector } : {}),
      };
      // The actions the rewound beats added are replaced by the change's (or kept when none);
      // one list per beat, so a later branch rewinds by beat number too.
      if (change.actions !== undefined) {
        const replaced = parseActions(tour, number, change.actions);
        added = [...added.slice(0, from - 1), replaced, ...added.slice(from, i).map(() => [])];
      }
      startMs = from === 1 ? 0 : out[from - 2].endMs;
    }
    const own = parseActions(tour, number, beat.actions);
    for (const a of own) {
      // After the start, not at it: the state at the previous beat's end must not include them.
      if (startMs > 0 ? a.at <= startMs : a.at < 0) {
        throw new TourError(`Tour "${tour.name}", beat ${number}: "${formatAction(a)}" must come after the beat starts at ${startMs} ms.`);
      }
    }
    added.push(own);
    // Stable by time: a branch's actions may come before later beats' ones in the list.
    const schedule = added.flat().sort((a, b) => a.at - b.at);
    const problem = checkSchedule(schedule, config);
    if (problem) throw new TourError(`Tour "${tour.name}", beat ${number}: ${problem}`);
    const sim = newRun(config, schedule);
    // Only observes (a tracer): the run with it is the run without it.
    const messages = new MessageLog(startMs);
    sim.cluster.tracer = messages;
    sim.advanceTo(startMs);
    const moment = beat.moment !== undefined && 'when' in beat.moment ? beat.moment.when : null;
    const { endMs, momentMs } = playUntil(tour, number, beat, sim, startMs, moment);
    sim.cluster.tracer = null;
    const failures: string[] = [];
    for (const call of beat.expect ?? []) {
      const verdict = evaluate(call, sim);
      if (verdict !== true) failures.push(`expected ${describeCall(call)}, but ${verdict}`);
    }
    const keyMs = momentMs ?? keyMoment(tour, number, beat, schedule, sim, startMs, endMs);
    const pace = keyMs === null ? null : paceAround(messages, keyMs, startMs, endMs);
    const shows = beatShows(tour, beat, number);
    out.push({
      number,
      beat,
      config,
      schedule,
      lineSchedule: schedule,
      startMs,
      endMs,
      failures,
      pace,
      shows,
      panel: beatPanel(beat, shows),
    });
  }
  // Each beat's line runs on to the last beat before the next branch.
  const beats = out.map((b, i) => {
    let last = i;
    while (last + 1 < out.length && !out[last + 1].beat.branch) last++;
    return last === i ? b : { ...b, lineSchedule: out[last].schedule };
  });
  return { tour, beats };
}

/**
 * Where a beat's point happens: the time its data gives; else, for a beat that waits on a
 * condition, the moment it came true; else the last action of its run within it; else its last landmark
 * (an election won, a crash, a lock granted… the scrubber's marks); else nowhere in particular.
 */
function keyMoment(
  tour: Tour,
  number: number,
  beat: Beat,
  schedule: readonly Action[],
  sim: AnyRun,
  startMs: number,
  endMs: number,
): number | null {
  if (beat.steady) return null;
  if (beat.moment !== undefined && 'atMs' in beat.moment) {
    const t = beat.moment.atMs;
    if (!Number.isInteger(t) || t <= startMs || t > endMs)
      throw new TourError(
        `Tour "${tour.name}", beat ${number}: its moment at ${t} ms is not within the beat (${startMs + 1} to ${endMs} ms).`,
      );
    return t;
  }
  if ('when' in beat.until) return endMs;
  const last = schedule.filter((a) => a.at > startMs && a.at <= endMs).at(-1);
  if (last !== undefined) return last.at;
  const events = sim.cluster.events;
  for (let i = events.length - 1; i >= 0 && events[i].t > startMs; i--)
    if (events[i].t <= endMs && LANDMARK_KINDS.has(events[i].kind)) return events[i].t;
  return null;
}

/** Plays a beat to its end; with a `moment` condition, also finds the first millisecond it holds. */
function playUntil(
  tour: Tour,
  number: number,
  beat: Beat,
  sim: AnyRun,
  startMs: number,
  moment: PredicateCall | null,
): { endMs: number; momentMs: number | null } {
  const until = beat.until;
  let momentMs: number | null = null;
  const watch = () => {
    if (momentMs === null && moment !== null && evaluate(moment, sim) === true) momentMs = sim.nowMs;
  };
  const found = (endMs: number) => {
    if (moment !== null && momentMs === null)
      throw new TourError(
        `Tour "${tour.name}", beat ${number}: its moment never came within the beat: it never held that ${describeCall(moment)}.`,
      );
    return { endMs, momentMs };
  };
  if ('atMs' in until) {
    if (until.atMs <= startMs)
      throw new TourError(`Tour "${tour.name}", beat ${number}: it ends at ${until.atMs} ms, not after its start at ${startMs} ms.`);
    if (moment === null) sim.advanceTo(until.atMs);
    else
      while (sim.nowMs < until.atMs) {
        sim.step();
        watch();
      }
    return found(until.atMs);
  }
  const cap = startMs + (until.capMs ?? DEFAULT_BEAT_CAP_MS);
  while (sim.nowMs < cap) {
    sim.step();
    watch();
    if (evaluate(until.when, sim) === true) return found(sim.nowMs);
  }
  throw new TourError(
    `Tour "${tour.name}", beat ${number}: waited from ${startMs} ms to ${cap} ms, but it never held that ${describeCall(until.when)}.`,
  );
}

const cache = new WeakMap<Tour, ResolvedTour>();

/** resolveTour, once per tour (tours are constants). */
export function resolvedTour(tour: Tour): ResolvedTour {
  let r = cache.get(tour);
  if (!r) {
    r = resolveTour(tour);
    cache.set(tour, r);
  }
  return r;
}
