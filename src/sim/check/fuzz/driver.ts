/**
 * A tiny cooperative driver for fault stories. A story is a generator that yields what it waits
 * for — `yield after(ms)` or `yield until(test, { everyMs, giveUpAfterMs })` — and the driver
 * resumes it on simulated time. Many stories run at once; the caller advances the simulation to
 * `nextAtMs` and calls `resumeNext` while it is due.
 *
 * Order is part of a fuzz run's identity (a story draws from the run's PRNG when it resumes), so
 * it is fixed: waits resume in (time, sequence) order, and every wait — each `after`, each poll
 * of an `until` — takes the next sequence number at the moment it is made.
 */

export interface After {
  readonly wait: 'after';
  readonly ms: number;
}

export interface Until {
  readonly wait: 'until';
  readonly test: () => boolean;
  readonly everyMs: number;
  readonly giveUpAfterMs: number;
}

export type Wait = After | Until;

/** A story, or a part of one used with `yield*`, returning `R`. */
export type StoryGen<R = void> = Generator<Wait, R, void>;

/** Resume after `ms` of simulated time; at least 1 ms, so a story never runs twice in one instant. */
export function after(ms: number): After {
  return { wait: 'after', ms };
}

/**
 * Poll `test` every `everyMs` (first poll `everyMs` from now) and resume when it holds. A poll that
 * fails at or after `giveUpAfterMs` from now ends the story.
 */
export function until(test: () => boolean, options: { readonly everyMs: number; readonly giveUpAfterMs: number }): Until {
  return { wait: 'until', test, everyMs: options.everyMs, giveUpAfterMs: options.giveUpAfterMs };
}

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly story: StoryGen;
  /** The `until` being polled, or null for an `after`. */
  readonly until: Until | null;
  readonly deadline: number;
}

export class StoryDriver {
  private readonly pending: Pending[] = [];
  private seq = 0;

  /** `now` reads simulated time; the driver never advances it. */
  constructor(private readonly now: () => number) {}

  /** Runs a story until its first wait (a story that never waits finishes here). */
  start(story: StoryGen | void): void {
    if (story) this.step(story);
  }

  /** When the earliest wait is due, or Infinity when no story waits. */
  get nextAtMs(): number {
    return this.pending.length > 0 ? this.pending[0].at : Infinity;
  }

  get waiting(): number {
    return this.pending.length;
  }

  /** Resumes (or polls) the earliest wait. Call only when `nextAtMs <= now`. */
  resumeNext(): void {
    const p = this.pending.shift();
    if (p === undefined) return;
    if (p.until === null || p.until.test()) this.step(p.story);
    else if (this.now() < p.deadline) this.push(p.story, p.until.everyMs, p.until, p.deadline);
    else p.story.return();
  }

  private step(story: StoryGen): void {
    const next = story.next();
    if (next.done) return;
    const w = next.value;
    if (w.wait === 'after') this.push(story, w.ms, null, 0);
    else this.push(story, w.everyMs, w, this.now() + w.giveUpAfterMs);
  }

  private push(story: StoryGen, ms: number, until: Until | null, deadline: number): void {
    const item: Pending = { at: this.now() + Math.max(1, ms), seq: this.seq++, story, until, deadline };
    // Sequence numbers only grow, so the new item goes after every item due at the same time.
    const list = this.pending;
    let i = list.length;
    while (i > 0 && list[i - 1].at > item.at) i--;
    list.splice(i, 0, item);
  }
}
