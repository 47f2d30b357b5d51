/**
 * An imported file as the page shows it (issue 27): plain data only (it crosses from the import
 * worker by structured clone, so no class instances), with everything the views draw — the
 * operations with their times, tones and texts, the verdict and its explanation, the space-time
 * view's trace and marks — and the two files the page offers instead of a share link: the parsed
 * file (JSON) and, for a history, Porcupine's visualization data.
 */
import {
  checkImported,
  MODEL_NAMES,
  type ImportCheckOptions,
  type ImportVerdict,
  type LinearizedStep,
  type ModelName,
} from './checkImported';
import { ednToJson, printEdn, readOneEdn, type Edn } from './edn';
import { RAFT_INVARIANT_TITLES, RAFT_INVARIANTS, type EtcdTrace, type TraceViolation } from './etcdTrace';
import { etcdMarks, etcdTraceView, historyMarks, historyTraceView, OWN_LANES_MAX, opTimes, processLanes, type LaneMark } from './etcdView';
import { FORMAT_NAMES, ImportError, readImported, skippedSentence, type ImportFormat, type ImportedFile } from './index';
import type { ImportedHistory, OpType } from './history';
import { porcupineDescription, toPorcupine, type PorcupineReport } from './porcupine';
import type { TraceView } from '../view/traceColumns';

export interface ViewOp {
  readonly id: number;
  readonly process: string;
  /** Its lane on the space-time view (`p3`). */
  readonly lane: string;
  readonly f: string;
  readonly type: OpType;
  /** Where it sits on the time axis (file times, else event positions); `to` null: never returns. */
  readonly from: number;
  readonly to: number | null;
  /** The info or fail completion's time (an :info bar is drawn on past it, dashed, as it may still take effect). */
  readonly endedAt: number | null;
  readonly callLine: number;
  readonly retLine: number | null;
  /** `process 3 :cas [1 2] → :fail (lines 5–7)`. */
  readonly text: string;
  /** In the linearization found: the state before and after it; null if it is not in it. */
  readonly before: string | null;
  readonly after: string | null;
}

export interface ViewVerdict {
  readonly linearizable: boolean | 'unknown';
  readonly modelText: string;
  readonly model: ModelName | 'raft-invariants' | 'porcupine-report';
  readonly initial: string | null;
  /** Registers: how a failed cas was read ("a failed cas did not happen, as Knossos reads it"), else null. */
  readonly failedCasText: string | null;
  readonly sentence: string | null;
  readonly reason: string | null;
  readonly culprit: number | null;
  readonly subset: readonly number[];
  readonly minimal: boolean;
  readonly prefix: string | null;
  readonly notes: readonly string[];
}

export interface ImportedView {
  readonly name: string;
  readonly format: ImportFormat;
  readonly formatName: string;
  readonly kind: 'history' | 'trace';
  /** Whether the axis is the file's time (else file order: one step per event). */
  readonly timed: boolean;
  readonly ops: readonly ViewOp[];
  readonly processes: readonly string[];
  readonly verdict: ViewVerdict;
  readonly trace: TraceView;
  readonly marks: readonly LaneMark[];
  /** An etcd trace's violations, each a landmark with its Why sentence. */
  readonly violations: readonly TraceViolation[];
  /** The parsed file as JSON (the export a share link cannot be). */
  readonly parsedJson: string;
  /** A history's Porcupine visualization data (JSON), or null. */
  readonly porcupineJson: string | null;
}

export interface ImportViewOptions extends Omit<ImportCheckOptions, 'initial' | 'initialGiven' | 'model'> {
  readonly model?: ModelName;
  /** The registers' initial value as EDN text (default nil). */
  readonly initial?: string;
}

/** Thrown when the file does not say which model: the page shows a picker with these choices. */
export class NeedsModel extends ImportError {
  constructor(
    sentence: string,
    readonly choices: readonly ModelName[],
  ) {
    super(0, sentence);
  }
}

const lines = (from: number, to: number | null) => (to === null || to === from ? `line ${from}` : `lines ${from}–${to}`);

function opText(h: ImportedHistory, id: number): string {
  const o = h.ops[id];
  // A read's invocation carries nil: what it returned is what matters.
  const what =
    o.f === 'read' && o.invokeValue === null ? `process ${o.process} :read` : `process ${o.process} :${o.f} ${printEdn(o.invokeValue)}`;
  const result =
    o.type === 'ok'
      ? o.f === 'read' || o.f === 'txn'
        ? ` → ${printEdn(o.value)}`
        : ' → :ok'
      : o.type === 'pending'
        ? ', never completed'
        : ` → :${o.type}`;
  const err = o.error === null ? '' : ` ${o.error}`;
  return `${what}${result}${err} (${lines(o.callLine, o.retLine)})`;
}

function historyJson(h: ImportedHistory): string {
  return JSON.stringify(
    {
      format: 'lockstep-imported-history',
      source: h.format,
      timed: h.timed,
      operations: h.ops.map((o) => ({
        id: o.id,
        process: o.process,
        f: o.f,
        type: o.type,
        value: ednToJson(o.value),
        invokeValue: ednToJson(o.invokeValue),
        callLine: o.callLine,
        returnLine: o.retLine,
        callMs: o.callMs,
        returnMs: o.retMs,
        error: o.error,
      })),
      annotations: h.annotations,
      skipped: h.skipped,
    },
    null,
    2,
  );
}

function viewOps(h: ImportedHistory, steps: readonly LinearizedStep[], lanes: Map<string, string>): ViewOp[] {
  const at = new Map(steps.map((s) => [s.op, s]));
  return h.ops.map((o) => {
    const t = opTimes(h, o);
    const indeterminate = o.type === 'info' || o.type === 'pending';
    const step = at.get(o.id);
    return {
      id: o.id,
      process: o.process,
      lane: lanes.get(o.process) as string,
      f: o.f,
      type: o.type,
      from: t.from,
      // An indeterminate operation never returns: it may take effect at any time after its call.
      to: indeterminate ? null : t.to,
      endedAt: indeterminate ? t.to : null,
      callLine: o.callLine,
      retLine: o.retLine,
      text: opText(h, o.id),
      before: step?.before ?? null,
      after: step?.after ?? null,
    };
  });
}

function historyNotes(h: ImportedHistory, lanes: Map<string, string>): string[] {
  const skipped = skippedSentence(h.skipped);
  const laneCount = new Set(lanes.values()).size;
  return [
    ...(skipped === null ? [] : [skipped]),
    ...(lanes.size > OWN_LANES_MAX
      ? [
          `${lanes.size.toLocaleString('en-US')} processes on ${laneCount} lanes (t0–t${laneCount - 1}): a process that replaced a crashed one takes a lane whose process has finished, as Jepsen's worker threads do; each operation names its process.`,
        ]
      : []),
    ...(h.annotations.length > 0
      ? [`${h.annotations.length} nemesis event${h.annotations.length === 1 ? '' : 's'} drawn as dashed rules across the lanes.`]
      : []),
    ...(h.timed ? [] : ['The file has no :time: operations are drawn in file order, one step per event.']),
  ];
}

function checkedHistory(name: string, f: Extract<ImportedFile, { history: ImportedHistory }>, options: ImportViewOptions): ImportedView {
  const h = f.history;
  let initial: Edn = null;
  if (options.initial !== undefined && options.initial.trim() !== '') {
    try {
      initial = readOneEdn(options.initial);
    } catch {
      throw new ImportError(0, `The initial value must be one EDN value such as nil, 0 or "a", not "${options.initial}".`);
    }
  }
  let v: ImportVerdict;
  try {
    v = checkImported(h, {
      ...options,
      ...(options.model !== undefined ? { model: options.model } : {}),
      initial,
      initialGiven: options.initial !== undefined && options.initial.trim() !== '',
    });
  } catch (error) {
    if (error instanceof ImportError && /choose --model mutex/.test(error.sentence)) {
      throw new NeedsModel(
        "This history's :acquire and :release fit two mutexes: Knossos's (it does not track who holds the lock, so any release frees it) or Lockstep's with owners (only the holder's release frees it). Pick one.",
        ['mutex', 'owned-mutex'],
      );
    }
    throw error;
  }
  const lanes = processLanes(h);
  const trace = historyTraceView(h, 1, lanes);
  return {
    name,
    format: f.format,
    formatName: FORMAT_NAMES[f.format],
    kind: 'history',
    timed: h.timed,
    ops: viewOps(h, v.linearization, lanes),
    processes: trace.actors.clients,
    verdict: {
      linearizable: v.linearizable,
      modelText: v.modelText,
      failedCasText: v.failedCasText ?? null,
      model: v.model,
      initial: v.initial,
      sentence: v.sentence ?? null,
      reason: v.reason ?? null,
      culprit: v.culprit ?? null,
      subset: v.subset ?? [],
      minimal: v.minimal ?? false,
      prefix: v.prefix?.sentence ?? null,
      notes: [...historyNotes(h, lanes), ...v.notes],
    },
    trace,
    marks: historyMarks(h, trace.actors.clients[0] ?? null),
    violations: [],
    parsedJson: historyJson(h),
    porcupineJson: JSON.stringify(toPorcupine(h, v)),
  };
}

function porcupineView(name: string, report: PorcupineReport): ImportedView {
  const h = report.history;
  // Porcupine's own verdict; the state after each operation in its largest partial linearization.
  const steps: LinearizedStep[] = [];
  report.data.Partitions.forEach((p, i) => {
    const largest = [...p.PartialLinearizations].sort((a, b) => b.length - a.length)[0] ?? [];
    let before = '?';
    for (const s of largest) {
      steps.push({ op: report.opIds[i][s.Index], before, after: s.StateDescription });
      before = s.StateDescription;
    }
  });
  const bad = report.partitionOk.flatMap((ok, i) => (ok ? [] : [i]));
  const placed = new Set(steps.map((s) => s.op));
  const unplaced = bad.flatMap((i) => report.opIds[i].filter((id) => !placed.has(id)));
  const first = unplaced.length > 0 ? h.ops[unplaced[0]] : null;
  const lanes = processLanes(h);
  const trace = historyTraceView(h, 1, lanes);
  return {
    name,
    format: 'porcupine',
    formatName: FORMAT_NAMES.porcupine,
    kind: 'history',
    timed: true,
    ops: viewOps(h, steps, lanes).map((o) => ({ ...o, text: `client ${o.process}: ${String(h.ops[o.id].invokeValue)}` })),
    processes: trace.actors.clients,
    verdict: {
      linearizable: bad.length === 0,
      modelText: "Porcupine's verdict, read from its report",
      failedCasText: null,
      model: 'porcupine-report',
      initial: null,
      sentence:
        first === null
          ? null
          : `${String(first.invokeValue)} (client ${first.process}) is in no partial linearization Porcupine found: partition ${bad[0]} places ${report.placed[bad[0]]} of ${report.data.Partitions[bad[0]].History.length} operations`,
      reason: null,
      culprit: first?.id ?? null,
      subset: unplaced,
      minimal: false,
      prefix: null,
      notes: [
        `${report.partitionOk.length} partition${report.partitionOk.length === 1 ? '' : 's'}; the operations no partial linearization places are outlined.`,
      ],
    },
    trace,
    marks: historyMarks(h, trace.actors.clients[0] ?? null),
    violations: [],
    parsedJson: JSON.stringify(report.data, null, 2),
    porcupineJson: JSON.stringify(report.data),
  };
}

function traceView(name: string, t: EtcdTrace): ImportedView {
  const skipped = skippedSentence(t.skipped);
  const dropped = t.messages.filter((m) => m.receivedAt === null && m.msg.from !== m.msg.to).length;
  return {
    name,
    format: 'etcd-trace',
    formatName: FORMAT_NAMES['etcd-trace'],
    kind: 'trace',
    timed: t.timed,
    ops: [],
    processes: [],
    verdict: {
      linearizable: t.violations.length === 0,
      modelText: `Raft invariants: ${RAFT_INVARIANTS.map((i) => RAFT_INVARIANT_TITLES[i]).join('; ')}`,
      failedCasText: null,
      model: 'raft-invariants',
      initial: null,
      sentence: t.violations[0]?.sentence ?? null,
      reason: null,
      culprit: null,
      subset: [],
      minimal: false,
      prefix: null,
      notes: [
        `${t.nodes.length} nodes, ${t.events.length.toLocaleString('en-US')} events, ${t.messages.length.toLocaleString('en-US')} messages.`,
        ...(skipped === null ? [] : [skipped]),
        ...(dropped > 0
          ? [`${dropped} message${dropped === 1 ? ' was' : 's were'} sent and never received in the trace: drawn as dropped.`]
          : []),
        ...(t.unmatchedReceives > 0
          ? [`${t.unmatchedReceives} receive${t.unmatchedReceives === 1 ? ' has' : 's have'} no send in the trace.`]
          : []),
        ...(t.timed ? [] : ['The trace has no ts: events are drawn in file order, one step per event.']),
      ],
    },
    trace: etcdTraceView(t),
    marks: etcdMarks(t),
    violations: t.violations,
    parsedJson: JSON.stringify(
      {
        format: 'lockstep-imported-raft-trace',
        nodes: t.nodes,
        events: t.events,
        messages: t.messages,
        violations: t.violations,
        skipped: t.skipped,
      },
      null,
      2,
    ),
    porcupineJson: null,
  };
}

/** Reads and checks a file for the page. Throws ImportError (or NeedsModel) with one sentence. */
export function importedView(name: string, text: string, options: ImportViewOptions = {}): ImportedView {
  const f = readImported(text);
  if (f.format === 'etcd-trace') return traceView(name, f.trace);
  if (f.format === 'porcupine') return porcupineView(name, f.report);
  return checkedHistory(name, f, options);
}

export { MODEL_NAMES, porcupineDescription };
export type { ModelName };
