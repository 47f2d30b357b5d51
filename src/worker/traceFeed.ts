/**
 * The trace stream for the space-time view. The live check's copy of the run carries a trace
 * recorder (it runs every millisecond to the horizon anyway); this posts what the host lacks:
 * the rows from the first one whose fate was still open at the last post, and the spans. A new
 * recorder (a new run, or a schedule changed before the check's time) starts a new trace.
 * Posts at most every `everyMs` of real time unless the trace started over.
 */
import type { TraceDelta } from '../sim/view/traceColumns';
import type { TraceRecorder } from '../sim/view/traceRecorder';

let traceIds = 0;

export class TraceFeed {
  on = false;
  private recorder: TraceRecorder | null = null;
  private traceId = 0;
  /** Rows before this were posted with their final fate. */
  private sentRows = 0;
  private sentUntil = -1;
  private sentAt = -Infinity;

  constructor(private readonly everyMs = 100) {}

  /** Everything is sent afresh next time (the host asked for the trace again). */
  restart(): void {
    this.recorder = null;
  }

  /** Whether the host lacks part of this recorder's trace (so another frame should post it). */
  behind(recorder: TraceRecorder): boolean {
    return this.on && (recorder !== this.recorder || recorder.nowMs !== this.sentUntil);
  }

  /** The delta to post now, or null when there is nothing new (or it is too soon). */
  next(recorder: TraceRecorder, realNow: number): TraceDelta | null {
    if (!this.on) return null;
    const reset = recorder !== this.recorder;
    if (reset) {
      this.recorder = recorder;
      this.traceId = ++traceIds;
      this.sentRows = 0;
      this.sentUntil = -1;
    } else if (recorder.nowMs === this.sentUntil || realNow - this.sentAt < this.everyMs) {
      return null;
    }
    const fromRow = this.sentRows;
    const delta: TraceDelta = {
      traceId: this.traceId,
      reset,
      untilMs: recorder.nowMs,
      actors: recorder.actors,
      actorIds: recorder.actorIds,
      fromRow,
      rows: recorder.columnsFrom(fromRow).columns,
      ...recorder.spans(),
    };
    this.sentRows = recorder.firstOpenRow;
    this.sentUntil = recorder.nowMs;
    this.sentAt = realNow;
    return delta;
  }
}
