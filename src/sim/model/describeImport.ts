/**
 * The sentences of imported histories (issue 27, src/sim/import/). Apart from describe.ts only so
 * the page's first load does not carry them: the importer loads on demand.
 */
/** `1,204 ms`, or `line 34` when the file has no times. */
function importedWhen(ms: number | null, line: number | null): string {
  if (ms !== null) return `at ${ms >= 100 ? Math.round(ms).toLocaleString('en-US') : Number(ms.toPrecision(3)).toString()} ms`;
  return line !== null ? `at line ${line}` : 'at the end of the file';
}

/** `0`, `0 or 4`, `0, 2 or 4`. */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * Sentences about histories imported from other tools (issue 27): why one cannot be linearized,
 * naming the operation that can never be placed, in the words people asked Porcupine and
 * Knossos for ("read of 3 at 1,204 ms: the register held 0 or 4 then; nobody wrote 3").
 */
export const imported = {
  when: importedWhen,
  orList,
  /** Why nobody could have given a read (or a cas) the value it saw. */
  sourceOf: (value: string, writers: readonly { readonly line: number; readonly after: boolean }[], initial: string | null): string => {
    if (writers.length === 0)
      return initial === value ? `only the initial value was ${value}, and it was overwritten first` : `nobody wrote ${value}`;
    if (writers.every((w) => w.after)) {
      return writers.length === 1
        ? `the only write of ${value} (line ${writers[0].line}) began after it returned`
        : `every write of ${value} began after it returned`;
    }
    const at = writers.map((w) => w.line);
    const where = at.length === 1 ? `line ${at[0]}` : `lines ${at.slice(0, -1).join(', ')} and ${at[at.length - 1]}`;
    return `no write of ${value} (${where}) can be ordered just before it without breaking another operation`;
  },
  readCulprit: (value: string, when: string, held: readonly string[], source: string) =>
    held.length === 0
      ? `read of ${value} ${when}: no order of the operations before it reaches it; ${source}`
      : `read of ${value} ${when}: the register held ${orList(held)} then; ${source}`,
  casCulprit: (from: string, to: string, when: string, held: readonly string[], source: string) =>
    `cas from ${from} to ${to} ${when}: the register held ${held.length === 0 ? 'nothing it could run on' : orList(held)} then, never ${from}; ${source}`,
  failedCasCulprit: (from: string, to: string, when: string) =>
    `failed cas from ${from} to ${to} ${when}: the register held ${from} whenever the cas could have run, so the compare should have matched`,
  acquireCulprit: (process: string, when: string, holders: readonly string[]) =>
    `acquire by process ${process} ${when}: the lock was held${holders.length > 0 ? ` by ${orList(holders.map((h) => `process ${h}`))}` : ''} then, and no release could come first`,
  releaseCulprit: (process: string, when: string, owned: boolean, held: readonly string[]) =>
    owned && held.length > 0
      ? `release by process ${process} ${when}: the lock was ${orList(held)} then, never held by ${process}`
      : `release by process ${process} ${when}: the lock was free then; nobody held it`,
  /** Porcupine's key-value model: a get (or, rarely, a put or append) that no order of the key's operations reaches. */
  kvCulprit: (op: string, key: string, value: string, when: string, held: readonly string[]) =>
    held.length === 0
      ? `${op} ${value} on key ${key} ${when}: no order of the key's operations before it reaches it`
      : `${op} ${value} on key ${key} ${when}: the key held ${orList(held)} then`,
  txnCulprit: (txn: string, when: string, held: readonly string[]) =>
    `transaction ${txn} ${when}: none of the states it could run in (${held.length === 0 ? 'none' : held.join('; ')}) gives what it read`,
  otherCulprit: (what: string, when: string) => `${what} ${when}: no order of the operations around it lets it take effect`,
  prefix: (line: number | null, next: number | null, key: string | null) =>
    `${key === null ? 'The history' : `Key ${key}`} is linearizable ${line === null ? 'only before its first event' : `up to line ${line}`}; ${next === null ? 'the next completion' : `the completion on line ${next}`} cannot be placed.`,
  unknownReason: (limitMs: number | null, memo: number) =>
    limitMs !== null
      ? `the search reached its time limit of ${limitMs.toLocaleString('en-US')} ms before a verdict (not a wrong answer: no answer)`
      : `the search reached its limit of ${memo.toLocaleString('en-US')} remembered configurations before a verdict`,
  fromZero: () => "From 0 it is linearizable: Knossos's suites start registers at 0 (give --initial 0).",
  nilReads: (count: number, initial: string) =>
    `${count} read${count === 1 ? '' : 's'} returned nil, which a register starting at ${initial} that nobody sets to nil never holds: read as observing nothing, as Knossos reads them.`,
  droppedOps: (count: number, f: string, model: string) =>
    `${count} :${f} operation${count === 1 ? '' : 's'} left out: the ${model} has no :${f}.`,
  verdictLine: (file: string, linearizable: boolean | 'unknown', model: string, detail: string) =>
    `${file}: ${linearizable === true ? 'linearizable' : linearizable === false ? 'NOT linearizable' : 'unknown'} (${model})${detail === '' ? '' : ` — ${detail}`}`,
};
