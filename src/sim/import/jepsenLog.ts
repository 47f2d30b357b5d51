/**
 * Jepsen's line log of the etcd-test era (formats.md §2): one operation event per line after a
 * logger prefix, `INFO  jepsen.util - 3	:invoke	:cas	[1 4]`, fields separated by tabs or runs
 * of spaces: process, type, f, value. Lines that are not operation events are other log output:
 * skipped and counted. A completion whose value is a keyword (`:timed-out`) is an error, not a
 * result: the operation keeps the value it was invoked with.
 */
import { EdnError, Keyword, printEdn, readOneEdn, type Edn } from './edn';
import { HistoryBuilder, ImportError, type ImportedHistory } from './history';

/** `jepsen.util - P  :type  :f  value` anywhere in the line (after any timestamp and logger prefix). */
const OP_LINE = /\bjepsen\.util\s*[-:]\s+(\S+)\s+:(invoke|ok|fail|info)\s+(:?[^\s]+)(?:\s+(.*?))?\s*$/;
/** Timestamps some Jepsen logs start with: `2015-05-05 10:22:31,563`. */
const STAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[,.](\d{1,6}))?/;

/** Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil), so no Date is needed in the core. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Milliseconds since the epoch of a `YYYY-MM-DD HH:MM:SS,mmm` prefix, or null. */
export function stampMs(text: string): number | null {
  const m = STAMP.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const frac = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3)) + Number('0.' + (m[7].slice(3) || '0'));
  return (daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * 1000 + frac;
}

export function readJepsenLog(text: string): ImportedHistory {
  const b = new HistoryBuilder('jepsen-log');
  const lines = text.split(/\r?\n/);
  let firstMs: number | null = null;
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i];
    if (raw.trim() === '') continue;
    const m = OP_LINE.exec(raw);
    if (!m) {
      b.skip('other log output');
      continue;
    }
    const [, proc, type, fText, valueText = ''] = m;
    let value: Edn = null;
    if (valueText !== '') {
      try {
        value = readOneEdn(valueText);
      } catch (error) {
        if (!(error instanceof EdnError)) throw error;
        throw new ImportError(
          line,
          `line ${line}: the value "${valueText}" of this :${type} does not read as EDN (${error.what}); expected nil, a number, a string or a vector such as [1 4].`,
        );
      }
    }
    const f = fText.startsWith(':') ? fText.slice(1) : fText;
    const stamp = stampMs(raw);
    if (stamp !== null && firstMs === null) firstMs = stamp;
    const ms = stamp !== null && firstMs !== null ? stamp - firstMs : null;
    any = true;
    if (!/^\d+$/.test(proc)) {
      // The nemesis logs through the same logger: a fault to draw, not a client's operation.
      b.annotate({ line, ms, process: proc.replace(/^:/, ''), type, f, value: valueText === '' ? 'nil' : printEdn(value) });
      continue;
    }
    if (type === 'invoke') {
      b.invoke(proc, f, value, line, ms);
      continue;
    }
    // `:info :write :timed-out`: the keyword says what went wrong; the write keeps its value.
    const isError = value instanceof Keyword && type !== 'ok';
    b.complete(proc, type as 'ok' | 'fail' | 'info', f, isError ? null : value, line, ms, isError ? printEdn(value) : null);
  }
  if (!any) {
    throw new ImportError(
      0,
      `No line of the file is a Jepsen operation event (expected lines like "INFO  jepsen.util - 3  :invoke  :read  nil"; ${lines.filter((l) => l.trim() !== '').length} lines of other text).`,
    );
  }
  return b.build();
}
