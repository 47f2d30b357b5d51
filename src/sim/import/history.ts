/**
 * A client history read from another tool's file (Jepsen's EDN or line log, a Porcupine
 * report): every event in file order (the file's order is real time, formats.md §1), paired
 * into operations per process. A process runs one operation at a time; a crashed process is
 * replaced by a new number, so an operation left open (`:info`, or no completion at all) never
 * blocks its process's successor. Non-client events (the nemesis) are kept as annotations.
 */
import type { Edn } from './edn';

export type OpType = 'ok' | 'fail' | 'info' | 'pending';

export interface ImportedOp {
  /** Its position in `ops` (operations numbered in invocation order). */
  readonly id: number;
  readonly process: string;
  /** `read`, `write`, `cas`, `acquire`, `release`, `txn`, … (the keyword without its colon). */
  readonly f: string;
  /** How it ended: `info` and `pending` are indeterminate. */
  readonly type: OpType;
  /** What it carries as completed: an `:ok`'s value (a read's result), else the invocation's. */
  readonly value: Edn;
  readonly invokeValue: Edn;
  /** Positions in `events`. */
  readonly call: number;
  /** The completion's position (`:ok`, `:fail` or `:info`), null if there is none. */
  readonly ret: number | null;
  readonly callLine: number;
  readonly retLine: number | null;
  /** From the file's `:time` (ns) or timestamps, in ms; null when the file has none. */
  readonly callMs: number | null;
  readonly retMs: number | null;
  /** The completion's `:error` (or a log's `:timed-out`), as EDN text; null if none. */
  readonly error: string | null;
}

export interface Annotation {
  /** The event's position in `events`. */
  readonly at: number;
  readonly line: number;
  readonly ms: number | null;
  /** Who logged it (`nemesis`). */
  readonly process: string;
  readonly type: string;
  readonly f: string;
  /** The value as EDN text. */
  readonly value: string;
}

export interface HistoryEvent {
  readonly op: number;
  readonly kind: 'call' | 'ret';
}

export interface Skipped {
  readonly count: number;
  /** Why, with how many lines each ("other log output": 12). */
  readonly reasons: Readonly<Record<string, number>>;
}

export type HistoryFormat = 'jepsen-edn' | 'jepsen-log' | 'porcupine';

export interface ImportedHistory {
  readonly kind: 'history';
  readonly format: HistoryFormat;
  readonly ops: readonly ImportedOp[];
  /** Client events in file order (annotations are not among them). */
  readonly events: readonly HistoryEvent[];
  readonly annotations: readonly Annotation[];
  readonly skipped: Skipped;
  /** Whether operations carry times from the file (else the drawing uses file order). */
  readonly timed: boolean;
}

/** A problem with a file, one sentence that names the line (1-based; 0 for the file as a whole). */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly sentence: string,
  ) {
    super(sentence);
  }
}

interface Open {
  readonly op: number;
}

/** Pairs events into operations as a reader meets them. */
export class HistoryBuilder {
  private readonly mutable: { -readonly [K in keyof ImportedOp]: ImportedOp[K] }[] = [];
  private readonly events: HistoryEvent[] = [];
  private readonly annotations: Annotation[] = [];
  private readonly open = new Map<string, Open>();
  private readonly reasons: Record<string, number> = {};
  private skippedCount = 0;
  private timed = false;

  constructor(private readonly format: HistoryFormat) {}

  skip(reason: string): void {
    this.skippedCount++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
  }

  annotate(a: Omit<Annotation, 'at'>): void {
    this.annotations.push({ ...a, at: this.events.length });
  }

  invoke(process: string, f: string, value: Edn, line: number, ms: number | null): void {
    const was = this.open.get(process);
    if (was !== undefined) {
      const o = this.mutable[was.op];
      throw new ImportError(
        line,
        `line ${line}: process ${process} invokes :${f} while its :${o.f} from line ${o.callLine} is still open; a process runs one operation at a time (expected a completion of that :${o.f} first).`,
      );
    }
    if (ms !== null) this.timed = true;
    const id = this.mutable.length;
    this.mutable.push({
      id,
      process,
      f,
      type: 'pending',
      value,
      invokeValue: value,
      call: this.events.length,
      ret: null,
      callLine: line,
      retLine: null,
      callMs: ms,
      retMs: null,
      error: null,
    });
    this.events.push({ op: id, kind: 'call' });
    this.open.set(process, { op: id });
  }

  complete(
    process: string,
    type: 'ok' | 'fail' | 'info',
    f: string,
    value: Edn,
    line: number,
    ms: number | null,
    error: string | null,
  ): void {
    const was = this.open.get(process);
    if (was === undefined) {
      throw new ImportError(
        line,
        `line ${line}: process ${process} completes a :${f} (:${type}) it never invoked; expected an :invoke by process ${process} before it.`,
      );
    }
    const o = this.mutable[was.op];
    if (o.f !== f) {
      throw new ImportError(
        line,
        `line ${line}: process ${process} completes :${f} but its open operation (line ${o.callLine}) is :${o.f}; expected the same :f.`,
      );
    }
    this.open.delete(process);
    o.type = type;
    o.ret = this.events.length;
    o.retLine = line;
    o.retMs = ms;
    o.error = error;
    // An :ok carries the result (a read's value); a :fail or :info keeps what was asked.
    if (type === 'ok') o.value = value;
    this.events.push({ op: o.id, kind: 'ret' });
  }

  build(): ImportedHistory {
    return {
      kind: 'history',
      format: this.format,
      ops: this.mutable,
      events: this.events,
      annotations: this.annotations,
      skipped: { count: this.skippedCount, reasons: { ...this.reasons } },
      timed: this.timed,
    };
  }
}
