/**
 * `npm run check -- FILE... [--model M] [--initial V] [--json]`: other tools' files checked in
 * one process (issue 27). A pure function from argv and a file reader to an exit code and lines
 * on two sinks, so tests call it directly: 0 when every file is linearizable (an etcd trace:
 * every Raft invariant holds), 1 when one is not, 2 for bad input (a flag, a missing or broken
 * file), 3 when a verdict is unknown within the time limit. One verdict line per file.
 */
import { readOneEdn, EdnError, type Edn } from '../sim/import/edn';
import {
  checkImported,
  FAILED_CAS,
  MODEL_NAMES,
  MODEL_TEXT,
  type FailedCas,
  type ImportVerdict,
  type ModelName,
} from '../sim/import/checkImported';
import { FORMAT_NAMES, ImportError, readImported, skippedSentence, type ImportedFile } from '../sim/import';
import type { ImportedHistory } from '../sim/import/history';
import { toPorcupine } from '../sim/import/porcupine';
import { RAFT_INVARIANTS, type EtcdTrace } from '../sim/import/etcdTrace';
import { imported as say } from '../sim/model/describeImport';
import { UsageError, parseFlags, wholeNumber } from './args';

export const DEFAULT_TIME_LIMIT_S = 10;

export const CHECK_USAGE = `Usage: npm run check -- FILE... [--model M] [--initial V] [--failed-cas R] [--json] [--time-limit S] [--porcupine OUT]
  FILE            a Jepsen/Knossos history (EDN), a Jepsen line log, Porcupine's visualization
                  data (its HTML page or the JSON) or an etcd raft state trace (NDJSON); several
                  files are checked one after another, one verdict line each
  --model M       ${MODEL_NAMES.join(', ')} (default: from the file; read/write/cas is a
                  CAS register, [key value] tuples a key-value map, get/put/append
                  Porcupine's key-value map (append-kv), :txn a multi-register;
                  :acquire/:release need mutex (Knossos's, ownerless) or owned-mutex)
  --initial V     the registers' initial value as EDN: nil (the default) or 0, as Knossos's suites
  --failed-cas R  what a :fail cas tells: mismatch (the register held another value, Porcupine's
                  reading; the default for line logs and Porcupine data) or no-effect (it did not
                  happen and constrains nothing, Knossos's; the default for EDN histories)
  --json          one JSON object per file, in a list: file, format, linearizable (true, false
                  or "unknown"), model, sentence, subset, prefix, notes
  --time-limit S  seconds of search per file before its verdict is "unknown" (default ${DEFAULT_TIME_LIMIT_S})
  --porcupine OUT also write the history and its linearization as Porcupine's visualization
                  data (JSON), for one history file
Exit: 0 all linearizable, 1 one is not, 2 bad input, 3 a verdict unknown within the time limit.`;

const FLAGS = [
  { name: 'model', value: true },
  { name: 'initial', value: true },
  { name: 'failed-cas', value: true },
  { name: 'json', value: false },
  { name: 'time-limit', value: true },
  { name: 'porcupine', value: true },
  { name: 'help', value: false },
] as const;

export interface CheckCliIo {
  /** The file's text; throws (any error) when it cannot be read. */
  readonly readFile: (path: string) => string;
  readonly writeFile: (path: string, text: string) => void;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Wall-clock ms, for the time limit. */
  readonly clock: () => number;
}

export interface CheckArgs {
  readonly files: readonly string[];
  readonly model: ModelName | undefined;
  readonly initial: Edn;
  readonly initialGiven: boolean;
  /** Absent: each file's tool's reading (failedCasOf). */
  readonly failedCas: FailedCas | undefined;
  readonly json: boolean;
  readonly timeLimitMs: number;
  readonly porcupine: string | null;
}

/** Splits FILE arguments from flags (a value flag takes the next argument), then reads the flags. */
export function parseCheckArgs(argv: readonly string[]): CheckArgs | 'help' {
  const files: string[] = [];
  const flagArgs: string[] = [];
  const takesValue = new Set<string>(FLAGS.filter((f) => f.value).map((f) => f.name));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      flagArgs.push(a);
      if (!a.includes('=') && takesValue.has(a.slice(2)) && i + 1 < argv.length) flagArgs.push(argv[++i]);
    } else files.push(a);
  }
  const flags = parseFlags(flagArgs, FLAGS);
  if (flags.has('help')) return 'help';
  if (files.length === 0)
    throw new UsageError('Give at least one FILE to check (a Jepsen history, a Jepsen line log, Porcupine data or an etcd raft trace).');
  const modelText = flags.get('model');
  let model: ModelName | undefined;
  if (typeof modelText === 'string') {
    if (!(MODEL_NAMES as readonly string[]).includes(modelText))
      throw new UsageError(`Unknown model "${modelText}" in --model; the models are ${MODEL_NAMES.join(', ')}.`);
    model = modelText as ModelName;
  }
  const initialText = flags.get('initial');
  let initial: Edn = null;
  if (typeof initialText === 'string') {
    if (model === 'mutex' || model === 'owned-mutex')
      throw new UsageError(
        "--initial sets a register's first value; a mutex starts free, so leave it out with --model mutex or owned-mutex.",
      );
    try {
      initial = readOneEdn(initialText);
    } catch (error) {
      if (!(error instanceof EdnError)) throw error;
      throw new UsageError(`--initial must be one EDN value such as nil, 0 or "a", not "${initialText}" (${error.what}).`);
    }
  }
  const failedText = flags.get('failed-cas');
  let failedCas: FailedCas | undefined;
  if (typeof failedText === 'string') {
    if (!(FAILED_CAS as readonly string[]).includes(failedText))
      throw new UsageError(`--failed-cas is ${FAILED_CAS.join(' or ')}, not "${failedText}".`);
    failedCas = failedText as FailedCas;
  }
  const limit = flags.get('time-limit');
  const porcupine = flags.get('porcupine');
  if (typeof porcupine === 'string' && files.length !== 1)
    throw new UsageError(`--porcupine writes one history's data: give exactly one FILE with it, not ${files.length}.`);
  return {
    files,
    model,
    initial,
    initialGiven: typeof initialText === 'string',
    failedCas,
    json: flags.has('json'),
    timeLimitMs: (typeof limit === 'string' ? wholeNumber(limit, 'time-limit', 1, 3600) : DEFAULT_TIME_LIMIT_S) * 1000,
    porcupine: typeof porcupine === 'string' ? porcupine : null,
  };
}

/** One file's result, as --json prints it. */
export interface FileResult {
  readonly file: string;
  readonly format?: string;
  readonly linearizable: boolean | 'unknown';
  readonly error?: string;
  readonly [more: string]: unknown;
}

const opRef = (h: ImportedHistory, id: number) => {
  const o = h.ops[id];
  return { id, process: o.process, f: o.f, line: o.callLine, ...(o.retLine !== null ? { returnLine: o.retLine } : {}), type: o.type };
};

function historyResult(
  file: string,
  f: Exclude<ImportedFile, { format: 'etcd-trace' }>,
  v: ImportVerdict,
  ms: number,
): { json: FileResult; line: string } {
  const h = f.history;
  const skipped = skippedSentence(h.skipped);
  const notes = [
    ...(skipped === null ? [] : [skipped]),
    ...(h.annotations.length > 0
      ? [`${h.annotations.length} nemesis event${h.annotations.length === 1 ? '' : 's'} kept as annotations.`]
      : []),
    ...v.notes,
  ];
  const model = `${v.modelText}${v.initial !== null ? ` from ${v.initial}` : ''}, ${h.ops.length} operation${h.ops.length === 1 ? '' : 's'}${v.objects > 1 ? ` in ${v.objects} objects` : ''}${v.failedCasText !== undefined ? `; ${v.failedCasText}` : ''}`;
  const detail: string[] = [];
  if (v.linearizable === false) {
    if (v.sentence !== undefined) detail.push(v.sentence + '.');
    if (v.subset !== undefined) {
      const list = v.subset.map((id) => `process ${h.ops[id].process}'s :${h.ops[id].f} (line ${h.ops[id].callLine})`).join(', ');
      detail.push(`${v.minimal === true ? 'Minimal failing subset' : 'Failing subset (not shrunk further)'}: ${list}.`);
    }
    if (v.prefix !== undefined) detail.push(v.prefix.sentence);
  }
  if (v.linearizable === 'unknown' && v.reason !== undefined) detail.push(v.reason + '.');
  detail.push(...notes);
  const json: FileResult = {
    file,
    format: FORMAT_NAMES[f.format],
    linearizable: v.linearizable,
    model: v.model,
    modelText: v.modelText,
    ...(v.failedCas !== undefined ? { failedCas: v.failedCas } : {}),
    initial: v.initial,
    operations: h.ops.length,
    objects: v.objects,
    ...(v.key !== undefined && v.key !== null ? { key: v.key } : {}),
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    ...(v.sentence !== undefined ? { sentence: v.sentence } : {}),
    ...(v.culprit !== undefined ? { culprit: opRef(h, v.culprit) } : {}),
    ...(v.subset !== undefined ? { subset: v.subset.map((id) => opRef(h, id)), minimal: v.minimal } : {}),
    ...(v.prefix !== undefined
      ? { prefix: { events: v.prefix.events, of: v.prefix.of, line: v.prefix.line, sentence: v.prefix.sentence } }
      : {}),
    annotations: h.annotations.length,
    skipped: h.skipped,
    notes,
    elapsedMs: Math.round(ms),
  };
  return { json, line: say.verdictLine(file, v.linearizable, model, detail.join(' ')) };
}

function porcupineResult(file: string, f: Extract<ImportedFile, { format: 'porcupine' }>): { json: FileResult; line: string } {
  const r = f.report;
  const bad = r.partitionOk.map((ok, i) => (ok ? -1 : i)).filter((i) => i >= 0);
  const linearizable = bad.length === 0;
  const detail = bad
    .map(
      (i) => `partition ${i}: its longest partial linearization places ${r.placed[i]} of ${r.data.Partitions[i].History.length} operations`,
    )
    .join('; ');
  const json: FileResult = {
    file,
    format: FORMAT_NAMES.porcupine,
    linearizable,
    model: 'porcupine-report',
    modelText: "Porcupine's verdict, read from its report",
    operations: f.history.ops.length,
    partitions: r.partitionOk.map((ok, i) => ({
      partition: i,
      linearizable: ok,
      placed: r.placed[i],
      operations: r.data.Partitions[i].History.length,
    })),
  };
  return {
    json,
    line: say.verdictLine(
      file,
      linearizable,
      `Porcupine's verdict, read from its report, ${r.partitionOk.length} partition${r.partitionOk.length === 1 ? '' : 's'}`,
      detail === '' ? '' : detail + '.',
    ),
  };
}

function traceResult(file: string, t: EtcdTrace): { json: FileResult; line: string } {
  const ok = t.violations.length === 0;
  const skipped = skippedSentence(t.skipped);
  const dropped = t.messages.filter((m) => m.receivedAt === null && m.msg.from !== m.msg.to).length;
  const notes = [
    ...(skipped === null ? [] : [skipped]),
    ...(dropped > 0
      ? [`${dropped} message${dropped === 1 ? ' was' : 's were'} sent and never received in the trace (drawn as dropped).`]
      : []),
    ...(t.unmatchedReceives > 0
      ? [`${t.unmatchedReceives} receive${t.unmatchedReceives === 1 ? ' has' : 's have'} no send in the trace.`]
      : []),
  ];
  const detail = ok
    ? notes.join(' ')
    : `${t.violations.length} violation${t.violations.length === 1 ? '' : 's'}: ${t.violations[0].sentence.replace(/\.$/, '')}${t.violations.length > 1 ? ` (and ${t.violations.length - 1} more)` : ''}. ${notes.join(' ')}`.trim();
  const json: FileResult = {
    file,
    format: FORMAT_NAMES['etcd-trace'],
    linearizable: ok,
    model: 'raft-invariants',
    modelText: `Raft invariants (${RAFT_INVARIANTS.join(', ')})`,
    nodes: t.nodes,
    events: t.events.length,
    messages: t.messages.length,
    violations: t.violations.map((v) => ({ invariant: v.invariant, node: v.node, line: v.line, ms: v.ms, sentence: v.sentence })),
    skipped: t.skipped,
    notes,
  };
  const what = `etcd raft trace: ${RAFT_INVARIANTS.length} Raft invariants over ${t.nodes.length} nodes, ${t.events.length.toLocaleString('en-US')} events`;
  return { json, line: say.verdictLine(file, ok, what, detail) };
}

export function runCheckCli(argv: readonly string[], io: CheckCliIo): number {
  let args: CheckArgs | 'help';
  try {
    args = parseCheckArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      io.err('Run npm run check -- --help for the flags.');
      return 2;
    }
    throw error;
  }
  if (args === 'help') {
    io.out(CHECK_USAGE);
    return 0;
  }
  const results: FileResult[] = [];
  let bad = false;
  let failed = false;
  let unknown = false;
  for (const file of args.files) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (error) {
      const why =
        error instanceof Error && 'code' in error && error.code === 'ENOENT'
          ? 'no such file'
          : error instanceof Error
            ? error.message
            : String(error);
      const sentence = `${file}: cannot be read (${why}).`;
      results.push({ file, linearizable: 'unknown', error: sentence });
      if (!args.json) io.err(sentence);
      bad = true;
      continue;
    }
    try {
      const started = io.clock();
      const f = readImported(text);
      let r: { json: FileResult; line: string };
      if (f.format === 'etcd-trace') {
        if (args.porcupine !== null) throw new ImportError(0, '--porcupine writes a client history; an etcd raft trace has none.');
        r = traceResult(file, f.trace);
      } else if (f.format === 'porcupine') {
        r = porcupineResult(file, f);
      } else {
        const v = checkImported(f.history, {
          ...(args.model !== undefined ? { model: args.model } : {}),
          initial: args.initial,
          initialGiven: args.initialGiven,
          ...(args.failedCas !== undefined ? { failedCas: args.failedCas } : {}),
          clock: io.clock,
          timeLimitMs: args.timeLimitMs,
        });
        r = historyResult(file, f, v, io.clock() - started);
        if (args.porcupine !== null) io.writeFile(args.porcupine, JSON.stringify(toPorcupine(f.history, v)) + '\n');
      }
      results.push(r.json);
      if (!args.json) io.out(r.line);
      if (r.json.linearizable === false) failed = true;
      if (r.json.linearizable === 'unknown') unknown = true;
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      const sentence = `${file}: ${error.sentence}`;
      results.push({ file, linearizable: 'unknown', error: sentence });
      if (!args.json) io.err(sentence);
      bad = true;
    }
  }
  if (args.json) io.out(JSON.stringify(results, null, 2));
  return bad ? 2 : failed ? 1 : unknown ? 3 : 0;
}

export { MODEL_TEXT };
