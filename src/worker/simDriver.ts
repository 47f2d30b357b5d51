/**
 * The worker's dispatcher: takes host messages, hands them to the loaded run (`Playback`), the
 * live invariant check (`LiveCheck`) and the counterexample search (`CounterexampleSearch`), and
 * posts at most one message per frame. Pure logic — the real clock and the frame scheduler are
 * injected, so tests run it in Node with a fake clock over a MessageChannel.
 */
import { DEFAULT_SPEED, MAX_SEEK_MS } from '../sim/model/limits';
import type { Action } from '../sim/model/schedule';
import { CounterexampleSearch } from './counterexampleSearch';
import { makeExport } from './exports';
import { historyJson } from '../sim/model/history';
import { checkHistory } from '../sim/check/linearizability/check';
import { reentrantLocks } from '../sim/model/config';
import { LiveCheck } from './liveCheck';
import { TraceFeed } from './traceFeed';
import { transferablesOf } from '../sim/view/traceColumns';
import { firstChangeAt, Playback, type FrameLimits, type LoadRequest } from './playback';
import { PaintFeed } from './paintFeed';
import {
  clampSpeed,
  HISTORY_CHECK_LIMIT_MS,
  MAX_UNSHOWN_FRAMES,
  PAGE_FRAME_MS,
  type ExportFormat,
  type HostToWorker,
  type PaintFrame,
  type WorkerEndpoint,
  type WorkerToHost,
} from './protocol';

export interface FrameScheduler {
  /** Real time in ms (performance.now in the worker). */
  now(): number;
  /** Calls `callback` at the next frame. */
  requestFrame(callback: () => void): void;
}

export interface DriverOptions {
  /** Real ms of stepping allowed per frame before the rest of the frame's time is dropped. */
  readonly frameBudgetMs?: number;
  /** The longest real gap a frame may account for (a throttled tab does not catch up). */
  readonly maxFrameGapMs?: number;
  /** Real ms per frame the invariant checker may spend catching up (while paused: twice this). */
  readonly checkBudgetMs?: number;
  /** Real ms per frame the counterexample search may spend (at least one fuzz step runs). */
  readonly fuzzBudgetMs?: number;
  /** At most this many fuzz steps (runs or shrink replays) per frame, whatever the clock says. */
  readonly fuzzStepsPerFrame?: number;
}

export { MAX_SEEK_MS };
export { MAX_EVENTS_ON_RESET, firstChangeAt } from './playback';
export { violationView } from './liveCheck';

/** A loaded run and the live check of it: both exist, or neither. */
interface Loaded {
  readonly playback: Playback;
  check: LiveCheck;
}

export class SimDriver {
  private loaded: Loaded | null = null;
  private search: CounterexampleSearch | null = null;
  private runId = 0;
  private speed = DEFAULT_SPEED;
  /** "Slow around events" (presenter mode), kept across loads. */
  private slowAround = false;
  /** The page needs a snapshot; `urgent`: now (a command), not at the playing page's pace. */
  private dirty = false;
  private urgent = false;
  /** The paint workers need the run's view (not just the clock). */
  private paintStale = false;
  /** Real time of the last post to the page, for PAGE_FRAME_MS. */
  private pagePostedAt = -Infinity;
  private frameRequested = false;
  /** Posts of a playing run since the page's last 'shown'; null until the page sends one. */
  private unshown: number | null = null;
  /** The last frame posted nothing because the page was behind. */
  private heldBack = false;
  private readonly limits: FrameLimits;
  private readonly checkBudgetMs: number;
  private readonly fuzzBudgetMs: number;
  private readonly fuzzStepsPerFrame: number;
  private readonly traceFeed = new TraceFeed();
  /** Paint workers' channels by id: each gets every frame the page gets. */
  private readonly painters = new Map<number, MessagePort>();
  /** What the painters were last sent: their frames carry only what changed since (paintFeed.ts). */
  private readonly paintFeed = new PaintFeed();
  private readonly clock = () => this.scheduler.now();
  private readonly onMessage = (event: MessageEvent<HostToWorker>) => this.handle(event.data);

  constructor(
    private readonly endpoint: WorkerEndpoint,
    private readonly scheduler: FrameScheduler,
    options: DriverOptions = {},
  ) {
    this.limits = { frameBudgetMs: options.frameBudgetMs ?? 10, maxFrameGapMs: options.maxFrameGapMs ?? 100 };
    this.checkBudgetMs = options.checkBudgetMs ?? 5;
    this.fuzzBudgetMs = options.fuzzBudgetMs ?? 30;
    this.fuzzStepsPerFrame = options.fuzzStepsPerFrame ?? 50;
    endpoint.addEventListener('message', this.onMessage);
  }

  dispose(): void {
    this.endpoint.removeEventListener('message', this.onMessage);
    if (this.loaded) this.loaded.playback.playing = false;
    this.search = null;
  }

  handle(msg: HostToWorker): void {
    this.guard(() => this.dispatch(msg));
  }

  /**
   * Runs a step of work; if the engine throws, playback pauses and the host hears one sentence.
   * The live check replays the same run and reports the exception as a counterexample.
   */
  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (this.loaded) this.loaded.playback.playing = false;
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.post({ type: 'error', message: `The simulation threw ${text}; playback is paused and the Invariants tab shows where.` });
      this.touch();
    }
  }

  private dispatch(msg: HostToWorker): void {
    // Before anything else: it is no command, and must not land a seek that is waiting for the frame.
    if (msg.type === 'shown') {
      this.unshown = 0;
      // A frame held back for the page goes out now rather than at the worker's next frame,
      // which would often be a frame late and halve the rate of a page that keeps up.
      if (this.heldBack) this.frame();
      return;
    }
    // A seek waits for the frame (so a dragged scrubber costs one replay per frame), but every
    // other command happens after it, at the time it was sent.
    if (msg.type === 'load') this.loaded?.playback.cancelSeek();
    else if (msg.type !== 'seek' && msg.type !== 'speed' && msg.type !== 'assist' && msg.type !== 'fuzz-cancel') this.flushSeek();
    if (msg.type === 'fuzz-cancel') {
      if (this.search) this.finishSearch(null, true);
      return;
    }
    if (msg.type === 'trace') {
      this.traceFeed.on = msg.on;
      this.traceFeed.restart();
      this.touch();
      this.wake();
      return;
    }
    if (msg.type === 'painter') {
      this.painters.set(msg.id, msg.port);
      this.touch();
      this.wake();
      return;
    }
    if (msg.type === 'painter-detach') {
      this.painters.get(msg.id)?.close();
      this.painters.delete(msg.id);
      return;
    }
    if (msg.type === 'export') {
      this.exportRun(msg.requestId, msg.format);
      return;
    }
    if (msg.type === 'history') {
      this.postHistory(msg.requestId);
      return;
    }
    if (msg.type === 'load') {
      const loaded = this.load({
        config: msg.config,
        schedule: msg.schedule,
        startAtMs: msg.startAtMs ?? 0,
        stopAtMs: msg.stopAtMs ?? null,
        playing: msg.playing ?? this.loaded?.playback.playing ?? false,
        label: msg.label ?? null,
        pace: msg.pace ?? null,
      });
      if (!loaded) return;
    } else if (msg.type === 'speed') {
      this.speed = clampSpeed(msg.speed);
      // The person's choice: a tour beat's pace gives way to it.
      this.loaded?.playback.pacing.setPlan(null, null);
    } else if (msg.type === 'assist') {
      this.slowAround = msg.slowAround;
      if (this.loaded) this.loaded.playback.pacing.slowAround = msg.slowAround;
    } else if (msg.type === 'fuzz') this.startSearch(msg);
    else if (!this.command(msg)) return;
    this.touch();
    this.wake();
  }

  /** A command for the loaded run; false when nothing changed (no run, or an error was posted). */
  private command(
    msg: Exclude<
      HostToWorker,
      {
        type:
          'load' | 'speed' | 'assist' | 'fuzz' | 'fuzz-cancel' | 'trace' | 'export' | 'history' | 'shown' | 'painter' | 'painter-detach';
      }
    >,
  ): boolean {
    if (!this.loaded) return false;
    const run = this.loaded.playback;
    switch (msg.type) {
      // At the cap (or with no event ahead before the run's end) these say why in one sentence,
      // and still send a snapshot: the page set itself paused or playing before asking.
      case 'play':
        this.reported(run.play());
        return true;
      case 'pause':
        run.pause();
        return true;
      case 'step':
        this.reported(msg.by === 'ms' ? run.stepMs(msg.ms ?? 1) : run.stepToEvent(msg.direction === -1 ? -1 : 1));
        return true;
      case 'seek':
        return this.reported(run.requestSeek(msg.toMs));
      case 'play-window':
        this.reported(run.playWindow(msg.fromMs, msg.toMs));
        return true;
      case 'action': {
        const before = run.act(msg.body);
        if (typeof before === 'string') return this.reported(before);
        this.scheduleChanged(this.loaded, before);
        return true;
      }
      case 'undo':
      case 'redo': {
        const before = run.history(msg.type);
        if (before === null) return false;
        this.scheduleChanged(this.loaded, before);
        return true;
      }
    }
  }

  /** An export of the loaded run from time 0 to the time on screen, made from a fresh replay. */
  private exportRun(requestId: number, format: ExportFormat): void {
    const run = this.loaded?.playback;
    if (!run) {
      this.post({ type: 'export', requestId, format, text: null, error: 'There is no run to export yet.', seed: '', untilMs: 0 });
      return;
    }
    const untilMs = run.timeline.nowMs;
    const result = makeExport(format, run.config, run.schedule, untilMs);
    this.post({ type: 'export', requestId, format, ...result, seed: String(run.config.seed), untilMs });
  }

  /**
   * The viewed run's client history at the time on screen, checked here on demand (the History
   * tab asks when it opens and when the time changes): recording is cheap, checking is not free.
   */
  private postHistory(requestId: number): void {
    const run = this.loaded?.playback;
    const service = run?.timeline.current.lockService ?? null;
    const ops = service ? historyJson(service.history.ops) : [];
    const verdicts = service
      ? checkHistory(service.history.ops, {
          clock: this.clock,
          timeLimitMs: HISTORY_CHECK_LIMIT_MS,
          reentrant: run !== undefined && reentrantLocks(run.timeline.current.cluster.config),
        })
      : null;
    this.post({ type: 'history', requestId, runId: this.runId, atMs: run?.timeline.nowMs ?? 0, ops, verdicts });
  }

  /** Posts an error sentence, if any; true when there was none. */
  private reported(error: string | null): boolean {
    if (error === null) return true;
    this.post({ type: 'error', message: error });
    return false;
  }

  private load(request: LoadRequest): boolean {
    const playback = Playback.load(request, this.runId + 1);
    if (typeof playback === 'string') return this.reported(playback);
    this.runId = playback.runId;
    playback.pacing.slowAround = this.slowAround;
    this.loaded = { playback, check: new LiveCheck(playback.config, playback.schedule) };
    return true;
  }

  /** The schedule changed (an action, undo or redo): the live check follows from the change on. */
  private scheduleChanged(loaded: Loaded, before: readonly Action[]): void {
    const { playback } = loaded;
    loaded.check = loaded.check.follow(playback.config, playback.schedule, firstChangeAt(before, playback.schedule));
  }

  private flushSeek(): void {
    if (this.loaded?.playback.flushSeek()) this.touch();
  }

  // -- counterexample search ------------------------------------------------------------------

  private startSearch(msg: Extract<HostToWorker, { type: 'fuzz' }>): void {
    if (this.loaded) this.loaded.playback.playing = false;
    this.search = new CounterexampleSearch(msg, this.clock());
  }

  private searchSlice(search: CounterexampleSearch): void {
    const outcome = search.slice({ budgetMs: this.fuzzBudgetMs, maxSteps: this.fuzzStepsPerFrame }, this.clock);
    if (outcome.done) this.finishSearch(outcome.result, false);
    else this.post(outcome.progress);
  }

  private finishSearch(result: Parameters<CounterexampleSearch['doneMessage']>[0], cancelled: boolean): void {
    const search = this.search;
    if (!search) return;
    this.search = null;
    const done = search.doneMessage(result, cancelled, this.clock());
    const cx = result?.counterexample ?? null;
    // The run found is loaded, paused at the violation.
    if (
      cx &&
      this.load({
        config: cx.config,
        schedule: cx.schedule,
        startAtMs: cx.untilMs,
        stopAtMs: null,
        playing: false,
        label: 'counterexample',
      })
    ) {
      this.touch();
      this.wake();
    }
    this.post(done);
  }

  // -- frames ---------------------------------------------------------------------------------

  private wake(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    this.scheduler.requestFrame(() => {
      this.frameRequested = false;
      this.frame();
    });
  }

  /** One frame: seek or advance by speed × elapsed real time (when playing), check, then post once. */
  frame(): void {
    this.guard(() => this.frameWork());
  }

  private frameWork(): void {
    if (this.search) this.searchSlice(this.search);
    const loaded = this.loaded;
    if (!loaded) {
      if (this.search) this.wake();
      return;
    }
    const run = loaded.playback;
    this.flushSeek();
    if (run.advance(this.clock(), this.speed, this.limits, this.clock)) this.dirty = this.paintStale = true;
    this.reported(run.takeNotice());
    if (!this.search) {
      const budget = run.playing ? this.checkBudgetMs : this.checkBudgetMs * 2;
      if (loaded.check.advance(run.horizonMs, this.clock() + budget, this.clock)) this.dirty = true;
    }
    // A page that has not drawn the last frames gets no more while playing: the run goes on,
    // and the next snapshot carries everything since (the events of the skipped frames too).
    const pageBehind = run.playing && this.unshown !== null && this.unshown >= MAX_UNSHOWN_FRAMES;
    this.heldBack = pageBehind;
    // A paint worker gets every frame of motion, whether or not the page keeps up.
    this.postPaint(run);
    // With the motion painted elsewhere, a playing page needs its snapshot only every
    // PAGE_FRAME_MS; a person's command is answered at once.
    const paced = run.playing && this.painters.size > 0 && !this.urgent && this.clock() - this.pagePostedAt < PAGE_FRAME_MS;
    if (pageBehind || paced) {
      // Nothing to post: 'shown' (or the next frame past the pace) posts what there is.
    } else if (this.dirty) {
      this.post(run.snapshotMessage(this.clock(), this.speed, loaded.check.status()));
      this.dirty = false;
      this.urgent = false;
      this.pagePostedAt = this.clock();
      if (run.playing && this.unshown !== null) this.unshown++;
    } else if (run.playing) {
      this.post(run.clockMessage());
      this.pagePostedAt = this.clock();
      if (this.unshown !== null) this.unshown++;
    }
    this.postTrace(loaded.check);
    const checking = loaded.check.checkedToMs < run.horizonMs;
    // Idle (the check caught up): label the trace's messages ahead of the space-time view opening.
    if (!checking && !this.search && !run.playing) {
      if (!loaded.check.recorder.prepareLabels(this.clock() + this.checkBudgetMs, this.clock)) this.wake();
    }
    if (run.playing || this.search || checking || this.traceFeed.behind(loaded.check.recorder)) this.wake();
  }

  /** New trace rows for the space-time view, when it is open; the typed columns are transferred, not copied. */
  private postTrace(check: LiveCheck): void {
    const delta = this.traceFeed.next(check.recorder, this.clock());
    if (delta === null || !this.loaded) return;
    this.endpoint.postMessage({ type: 'trace', runId: this.loaded.playback.runId, delta }, transferablesOf(delta.rows));
  }

  private post(message: WorkerToHost): void {
    this.endpoint.postMessage(message);
  }

  /** The run's view for each paint worker when it changed, its clock alone when only that moved. */
  private postPaint(run: Playback): void {
    if (this.painters.size === 0) return;
    let frame: PaintFrame | null = null;
    if (this.paintStale) frame = run.paintFrame(true, this.paintFeed);
    else if (run.playing) frame = run.paintFrame(false, this.paintFeed);
    this.paintStale = false;
    if (frame) for (const port of this.painters.values()) port.postMessage(frame);
  }

  /** Something a person did (or a new run): the page and the painters get it in the next frame. */
  private touch(): void {
    this.dirty = true;
    this.paintStale = true;
    this.paintFeed.reset();
    this.urgent = true;
  }
}
