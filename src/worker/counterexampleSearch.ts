/**
 * The counterexample search: the swarm fuzzer run in slices between frames, reporting progress,
 * so the page stays responsive while it searches and shrinks.
 */
import type { BugName } from '../sim/model/config';
import type { FeatureName } from '../sim/model/features';
import { fuzz, type Counterexample, type FuzzProgress, type FuzzResult } from '../sim/check/fuzz';
import { violationView } from './liveCheck';
import type { FuzzDoneMessage, FuzzProgressMessage } from './protocol';

export interface SearchRequest {
  readonly seed: number;
  readonly runs: number;
  readonly bugs: readonly BugName[];
  /** Every run's protocol features (a bug still forces its own); absent: drawn per run, as `npm run fuzz` does. */
  readonly features?: readonly FeatureName[];
  readonly durationMs?: number;
}

export interface SliceLimits {
  /** Real ms per frame the search may spend (at least one fuzz step runs). */
  readonly budgetMs: number;
  /** At most this many fuzz steps (runs or shrink replays) per frame, whatever the clock says. */
  readonly maxSteps: number;
}

export type SliceOutcome =
  { readonly done: false; readonly progress: FuzzProgressMessage } | { readonly done: true; readonly result: FuzzResult };

export class CounterexampleSearch {
  private readonly gen: Generator<FuzzProgress, FuzzResult, void>;
  readonly runs: number;
  private runsDone = 0;
  private shrinkAttempts = 0;
  private phase: 'search' | 'shrink' = 'search';

  constructor(
    request: SearchRequest,
    private readonly startedAt: number,
  ) {
    this.runs = Math.max(1, Math.min(100_000, Math.floor(request.runs)));
    this.gen = fuzz({
      seed: request.seed,
      runs: this.runs,
      bugs: request.bugs,
      durationMs: request.durationMs,
      ...(request.features ? { features: request.features } : {}),
    });
  }

  /** One slice: fuzz steps until the budget is spent (at least one). */
  slice(limits: SliceLimits, clock: () => number): SliceOutcome {
    const deadline = clock() + limits.budgetMs;
    let steps = 0;
    do {
      const step = this.gen.next();
      if (step.done) return { done: true, result: step.value };
      const p = step.value;
      this.phase = p.phase;
      if (p.phase === 'search') this.runsDone = p.runsDone;
      else this.shrinkAttempts = p.attempts;
    } while (++steps < limits.maxSteps && clock() < deadline);
    const seconds = Math.max(1e-3, (clock() - this.startedAt) / 1000);
    return {
      done: false,
      progress: {
        type: 'fuzz-progress',
        phase: this.phase,
        runsDone: this.runsDone,
        runs: this.runs,
        runsPerSec: this.runsDone / seconds,
        shrinkAttempts: this.shrinkAttempts,
      },
    };
  }

  /** How the search ended: with a result, or cancelled (null). */
  doneMessage(result: FuzzResult | null, cancelled: boolean, now: number): FuzzDoneMessage {
    const cx: Counterexample | null = result?.counterexample ?? null;
    return {
      type: 'fuzz-done',
      runsDone: result?.runsDone ?? this.runsDone,
      runs: this.runs,
      cancelled,
      seconds: (now - this.startedAt) / 1000,
      found: cx ? { violation: violationView(cx.violation), schedule: cx.schedule, actions: cx.schedule.length, run: cx.run } : null,
    };
  }
}
