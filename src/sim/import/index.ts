/**
 * Readers of other tools' files (issue 27, formats.md): which format a file is, read by its
 * reader, and for a history the linearizability check. A file that is none of them, or one of
 * them with a broken line, gets one sentence naming the line and what was expected.
 */
import { readEtcdTrace, type EtcdTrace } from './etcdTrace';
import { ImportError, type ImportedHistory } from './history';
import { readJepsenEdn } from './jepsenEdn';
import { readJepsenLog } from './jepsenLog';
import { readPorcupine, type PorcupineReport } from './porcupine';

export { ImportError } from './history';
export type { ImportedHistory, ImportedOp, Annotation } from './history';
export type { EtcdTrace } from './etcdTrace';
export type { PorcupineReport } from './porcupine';

export type ImportFormat = 'jepsen-edn' | 'jepsen-log' | 'porcupine' | 'etcd-trace';

export const FORMAT_NAMES: Readonly<Record<ImportFormat, string>> = {
  'jepsen-edn': 'Jepsen/Knossos history (EDN)',
  'jepsen-log': "Jepsen's line log",
  porcupine: 'Porcupine visualization data',
  'etcd-trace': "etcd raft's state trace (NDJSON)",
};

export type ImportedFile =
  | { readonly format: 'jepsen-edn' | 'jepsen-log'; readonly history: ImportedHistory }
  | { readonly format: 'porcupine'; readonly report: PorcupineReport; readonly history: ImportedHistory }
  | { readonly format: 'etcd-trace'; readonly trace: EtcdTrace };

/** The format a file's text is in, by its first lines (not its name: files get renamed), or null. */
export function sniffFormat(text: string): ImportFormat | null {
  const head = text.slice(0, 20_000);
  const start = head.trimStart();
  if (/\{\s*"Partitions"\s*:/.test(head) || /^<(!doctype|html)/i.test(start)) return 'porcupine';
  if (start.startsWith('{"') || start.startsWith('{ "')) return 'etcd-trace';
  if (/\bjepsen\.util\s*[-:]\s+\S+\s+:(invoke|ok|fail|info)\b/.test(head)) return 'jepsen-log';
  if (/^[[({;#:]/.test(start) || /^\{\s*:/.test(start)) return 'jepsen-edn';
  return null;
}

/** Reads a file of any of the four formats; throws ImportError with one sentence. */
export function readImported(text: string): ImportedFile {
  if (text.trim() === '')
    throw new ImportError(0, 'The file is empty: expected a Jepsen history (EDN or line log), Porcupine data or an etcd raft trace.');
  const format = sniffFormat(text);
  switch (format) {
    case 'jepsen-edn':
      return { format, history: readJepsenEdn(text) };
    case 'jepsen-log':
      return { format, history: readJepsenLog(text) };
    case 'porcupine': {
      const report = readPorcupine(text);
      return { format, report, history: report.history };
    }
    case 'etcd-trace':
      return { format, trace: readEtcdTrace(text) };
    case null: {
      const first = text.trimStart().split('\n')[0].slice(0, 60);
      throw new ImportError(
        1,
        `line 1 ("${first}") is none of the formats Lockstep reads: expected a Jepsen history in EDN ([{:process 0, :type :invoke, …}]), Jepsen's line log (INFO jepsen.util - 0 :invoke :read nil), Porcupine's visualization data ({"Partitions": …}) or etcd raft's trace (one JSON object per line).`,
      );
    }
  }
}

/** "12 lines skipped: 10 other log output, 2 a log line without a trace event." or null. */
export function skippedSentence(skipped: { count: number; reasons: Readonly<Record<string, number>> }): string | null {
  if (skipped.count === 0) return null;
  const why = Object.entries(skipped.reasons)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  return `${skipped.count} line${skipped.count === 1 ? '' : 's'} skipped (${why}).`;
}
