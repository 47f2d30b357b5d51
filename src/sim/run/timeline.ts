/**
 * Time travel over a deterministic run. The run is a pure function of (configuration,
 * schedule), so any instant can be rebuilt by replay; checkpoints (deep copies taken every
 * CHECKPOINT_MS as the run advances) bound the replay to a few seconds of simulated time.
 * Acting in the past forks the run: the actions after that instant are set aside, and undo
 * brings them back.
 */
import type { SimConfig } from '../model/config';
import type { EventKind } from '../model/events';
import type { Action, ActionBody } from '../model/schedule';
import { newRun, type AnyRun } from './run';
import type { RunOptions } from './simulation';

export const CHECKPOINT_MS = 2000;
/**
 * Checkpoints kept at most. Past this the spacing doubles and every other one goes, so an hour
 * of run costs no more memory than ten minutes, and a seek replays at most one spacing.
 */
export const MAX_CHECKPOINTS = 300;

/** Event kinds marked on the scrubber: elections, faults, lock grants and frees, refused writes. */
export const LANDMARK_KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
  'leader',
  'crash',
  'restart',
  'partition',
  'heal',
  'calm',
  'lock-granted',
  'lock-expired',
  'lock-ghost',
  'store-rejected',
  // Paxos runs: a ballot won (phase 1 done, or a Multi-Paxos leader), and a value chosen.
  'paxos-leader',
  'paxos-chosen',
]);

export interface Landmark {
  readonly t: number;
  readonly kind: EventKind;
  readonly text: string;
}

interface HistoryEntry {
  readonly added: Action;
  /** How many actions came before it in the schedule. */
  readonly position: number;
  readonly setAside: readonly Action[];
  /** Taken in the run's past: before what was computed, or before scheduled actions. */
  readonly forked: boolean;
}

/** What `Timeline.act` did: the action recorded and the later actions it set aside. */
export interface ActResult {
  readonly action: Action;
  readonly setAside: readonly Action[];
  /** The action changed the run's past (it set actions aside, or time after it had been computed). */
  readonly forked: boolean;
}

/** A fork still in the run (see `Timeline.fork`). */
export interface Fork {
  /** The earliest time an action still in the run changed the run's past. */
  readonly atMs: number;
  /** The last action, when it forked the run (so undo takes exactly it back). */
  readonly last: { readonly atMs: number; readonly setAside: number } | null;
}

export class Timeline {
  readonly config: SimConfig;
  private scheduleList: Action[];
  /** The run at the instant being viewed. */
  current: AnyRun;
  /** The furthest-advanced run of this schedule (its events give the landmarks ahead of now). */
  private furthest: AnyRun;
  private readonly checkpoints = new Map<number, AnyRun>();
  private readonly undoStack: HistoryEntry[] = [];
  private readonly redoStack: HistoryEntry[] = [];
  /** Current spacing of checkpoints; doubles whenever MAX_CHECKPOINTS would be exceeded. */
  checkpointMs: number;
  private readonly maxCheckpoints: number;
  /** Every copy's run options: whether it records detail events (the page's viewed run does) and how many it keeps. */
  private readonly runOptions: RunOptions;

  constructor(
    config: SimConfig,
    schedule: readonly Action[] = [],
    checkpointMs = CHECKPOINT_MS,
    maxCheckpoints = MAX_CHECKPOINTS,
    options: RunOptions = {},
  ) {
    this.config = config;
    this.runOptions = { ...options };
    this.scheduleList = [...schedule];
    this.checkpointMs = checkpointMs;
    this.maxCheckpoints = Math.max(2, maxCheckpoints);
    this.current = newRun(config, this.scheduleList, this.runOptions);
    this.furthest = this.current;
  }

  get nowMs(): number {
    return this.current.nowMs;
  }

  get schedule(): readonly Action[] {
    return this.scheduleList;
  }

  /** The furthest time computed for this schedule. */
  get horizonMs(): number {
    return this.furthest.nowMs;
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** Moves the current run forward by one millisecond, checkpointing as it goes. */
  step(): void {
    this.current.step();
    this.afterAdvance();
  }

  advanceTo(t: number): void {
    while (this.current.nowMs < t) this.step();
  }

  private afterAdvance(): void {
    const now = this.current.nowMs;
    if (now % this.checkpointMs === 0 && !this.checkpoints.has(now)) {
      this.checkpoints.set(now, this.current.clone());
      if (this.checkpoints.size > this.maxCheckpoints) this.thinCheckpoints();
    }
    if (now > this.furthest.nowMs) this.furthest = this.current;
  }

  /** Lands on time `t` (backwards or forwards) by replaying from the nearest checkpoint. */
  seek(t: number): void {
    const target = Math.max(0, Math.floor(t));
    if (target === this.current.nowMs) return;
    const fromCurrent = target > this.current.nowMs ? target - this.current.nowMs : Infinity;
    let best = 0;
    for (const at of this.checkpoints.keys()) if (at <= target && at > best) best = at;
    if (fromCurrent <= target - best) {
      this.advanceTo(target);
      return;
    }
    const sim = this.restore(best);
    const keepFurthest = this.furthest;
    this.current = sim;
    this.advanceTo(target);
    if (keepFurthest.nowMs >= this.current.nowMs) this.furthest = keepFurthest;
  }

  /**
   * A person's action at the current instant. Actions later than now are set aside (the run
   * forks); returns the recorded action and what it set aside, or an error sentence (and then
   * changes nothing).
   */
  act(body: ActionBody): ActResult | string {
    const now = this.current.nowMs;
    const computedPast = now < this.horizonMs;
    const later = this.current.dropFutureActions();
    const result = this.current.act(body);
    if (typeof result === 'string') {
      this.current.replaceFutureActions(later);
      return result;
    }
    this.scheduleList = [...this.current.schedule];
    const forked = computedPast || later.length > 0;
    this.undoStack.push({ added: result, position: this.scheduleList.length - 1, setAside: later, forked });
    this.redoStack.length = 0;
    // A checkpoint taken at `now` predates the new action, so it goes too.
    this.forget(now - 1);
    return { action: result, setAside: later, forked };
  }

  /** The run's forks that undo could still take back; null when no action changed its past. */
  get fork(): Fork | null {
    let atMs = Infinity;
    for (const entry of this.undoStack) if (entry.forked && entry.added.at < atMs) atMs = entry.added.at;
    if (atMs === Infinity) return null;
    const top = this.undoStack[this.undoStack.length - 1];
    return { atMs, last: top.forked ? { atMs: top.added.at, setAside: top.setAside.length } : null };
  }

  /** Takes back the last action and restores the actions it set aside; stays at the same time. */
  undo(): boolean {
    const entry = this.undoStack.pop();
    if (!entry) return false;
    this.scheduleList = [...this.scheduleList.slice(0, entry.position), ...entry.setAside];
    this.redoStack.push(entry);
    this.rebuildFrom(entry.added.at);
    return true;
  }

  redo(): boolean {
    const entry = this.redoStack.pop();
    if (!entry) return false;
    this.scheduleList = [...this.scheduleList.slice(0, entry.position), entry.added];
    this.undoStack.push(entry);
    this.rebuildFrom(entry.added.at);
    return true;
  }

  /** The schedule changed at time `t`: everything computed at or after it is stale. */
  private rebuildFrom(t: number): void {
    const viewAt = this.current.nowMs;
    this.forget(t - 1);
    this.current = this.checkpointBefore(t);
    this.furthest = this.current;
    this.advanceTo(viewAt);
  }

  private checkpointBefore(t: number): AnyRun {
    let best = 0;
    for (const at of this.checkpoints.keys()) if (at < t && at > best) best = at;
    return this.restore(best);
  }

  /** A fresh copy of the checkpoint at `at`, carrying the current schedule's later actions. Time 0 is rebuilt from scratch. */
  private restore(at: number): AnyRun {
    const checkpoint = this.checkpoints.get(at);
    if (at === 0 || checkpoint === undefined) return newRun(this.config, this.scheduleList, this.runOptions);
    const sim = checkpoint.clone();
    sim.replaceFutureActions(this.scheduleList);
    return sim;
  }

  private thinCheckpoints(): void {
    this.checkpointMs *= 2;
    for (const at of [...this.checkpoints.keys()]) if (at % this.checkpointMs !== 0) this.checkpoints.delete(at);
  }

  /** Drops checkpoints after time `t` (they were computed from another schedule). */
  private forget(t: number): void {
    for (const at of [...this.checkpoints.keys()]) if (at > t) this.checkpoints.delete(at);
    this.furthest = this.current;
  }

  /** Landmarks of the run so far (up to the horizon). */
  landmarks(): Landmark[] {
    const out: Landmark[] = [];
    for (const e of this.furthest.cluster.events) if (LANDMARK_KINDS.has(e.kind)) out.push({ t: e.t, kind: e.kind, text: e.text });
    return out;
  }

  /** The time of the previous/next event strictly before/after now (for stepping by event). */
  eventTimeFrom(direction: -1 | 1): number | null {
    const now = this.current.nowMs;
    const events = this.furthest.cluster.events;
    if (direction < 0) {
      for (let i = events.length - 1; i >= 0; i--) if (events[i].t < now) return events[i].t;
      return null;
    }
    for (const e of events) if (e.t > now) return e.t;
    return null;
  }

  get checkpointCount(): number {
    return this.checkpoints.size;
  }
}
