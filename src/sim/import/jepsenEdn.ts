/**
 * Jepsen / Knossos histories in EDN (formats.md §1): a vector or list of operations, or one
 * operation per line with nothing around them; an operation is a map (`{:process 0, :type
 * :invoke, :f :read, :value nil}`, possibly a record such as `#jepsen.history.Op{…}`) or, in
 * older files, a tuple `[process type f value]`. A process that is not a number (`:nemesis`)
 * is not a client: its events become annotations.
 */
import { EdnError, EdnMap, EdnSeq, Keyword, printEdn, readEdn, untag, type Edn } from './edn';
import { HistoryBuilder, ImportError, type ImportedHistory } from './history';

const TYPES = new Set(['invoke', 'ok', 'fail', 'info']);

/** A keyword's name, or a string or symbol's text (some writers use strings). */
function nameOf(v: Edn | undefined): string | null {
  if (v instanceof Keyword) return v.name;
  if (typeof v === 'string') return v;
  return null;
}

function describeKind(v: Edn): string {
  if (v === null) return 'nil';
  if (v instanceof EdnMap) return 'a map';
  if (v instanceof EdnSeq) return v.kind === 'list' ? 'a list' : 'a vector';
  if (v instanceof Keyword) return `the keyword :${v.name}`;
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number' || typeof v === 'bigint') return `the number ${String(v)}`;
  return printEdn(v).slice(0, 40);
}

/** An old-style tuple `[process type f value]`. */
function isTuple(v: Edn): boolean {
  return v instanceof EdnSeq && v.length === 4 && v[1] instanceof Keyword && TYPES.has(v[1].name);
}

const isOp = (v: Edn) => untag(v) instanceof EdnMap || isTuple(v);

export function readJepsenEdn(text: string): ImportedHistory {
  let parsed: ReturnType<typeof readEdn>;
  try {
    parsed = readEdn(text);
  } catch (error) {
    if (error instanceof EdnError) {
      throw new ImportError(
        error.line,
        `line ${error.line}, column ${error.column}: ${error.what} (expected EDN, the notation Jepsen writes histories in).`,
      );
    }
    throw error;
  }
  const { forms, itemLines } = parsed;
  if (forms.length === 0)
    throw new ImportError(0, 'The file holds no EDN forms: expected a Jepsen history (a vector of operation maps, or one map per line).');
  let items: { value: Edn; line: number }[];
  const only = forms[0].value;
  if (forms.length === 1 && only instanceof EdnSeq && !isTuple(only)) {
    const at = itemLines.get(only) ?? [];
    items = only.map((v, i) => ({ value: v, line: at[i] ?? forms[0].line }));
  } else {
    items = forms.map((f) => ({ value: f.value, line: f.line }));
  }
  for (const it of items) {
    if (!isOp(it.value)) {
      throw new ImportError(
        it.line,
        `line ${it.line}: expected an operation (a map with :process, :type and :f, or a [process type f value] tuple), found ${describeKind(it.value)}.`,
      );
    }
  }

  const b = new HistoryBuilder('jepsen-edn');
  for (const { value, line } of items) {
    const v = untag(value);
    let process: Edn | undefined;
    let type: Edn | undefined;
    let f: Edn | undefined;
    let val: Edn;
    let time: Edn | undefined;
    let error: Edn | undefined;
    if (v instanceof EdnMap) {
      process = v.get('process');
      type = v.get('type');
      f = v.get('f');
      val = v.get('value') ?? null;
      // A `:key` beside the value (Porcupine's key-value histories) is read as Jepsen's
      // independent `[key value]` tuple, so every per-key model finds the key in one place.
      const key = v.get('key');
      if (key !== undefined) {
        const tuple = new EdnSeq();
        tuple.push(key, val);
        val = tuple;
      }
      time = v.get('time');
      error = v.get('error');
    } else {
      const t = v as unknown as EdnSeq;
      [process, type, f, val] = [t[0], t[1], t[2], t[3]];
    }
    const typeName = nameOf(type);
    if (typeName === null || !TYPES.has(typeName)) {
      throw new ImportError(
        line,
        `line ${line}: expected :type to be :invoke, :ok, :fail or :info, found ${type === undefined ? 'no :type' : describeKind(type)}.`,
      );
    }
    const fName = nameOf(f);
    if (fName === null)
      throw new ImportError(
        line,
        `line ${line}: expected :f (the operation, such as :read or :write), found ${f === undefined ? 'no :f' : describeKind(f)}.`,
      );
    if (process === undefined)
      throw new ImportError(line, `line ${line}: expected :process (the client's number, or :nemesis), found none.`);
    const ms = typeof time === 'number' ? time / 1e6 : typeof time === 'bigint' ? Number(time) / 1e6 : null;
    if (typeof process !== 'number' || !Number.isInteger(process)) {
      // The nemesis (or any process that is not a client number): a fault, not an operation.
      const who = nameOf(process) ?? printEdn(process);
      b.annotate({ line, ms, process: who, type: typeName, f: fName, value: printEdn(val) });
      continue;
    }
    const p = String(process);
    if (typeName === 'invoke') b.invoke(p, fName, val, line, ms);
    else
      b.complete(
        p,
        typeName as 'ok' | 'fail' | 'info',
        fName,
        val,
        line,
        ms,
        error === undefined || error === null ? null : printEdn(error),
      );
  }
  return b.build();
}
