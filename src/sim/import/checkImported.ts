/**
 * An imported history checked for linearizability (issue 27): the model chosen from the file
 * (only read/write/cas: a CAS register; `[key value]` tuples: a key-value map, each key its own
 * register; `:txn`: Knossos's multi-register) or by the caller; the history split into
 * independent objects where the model allows (P-compositionality, Herlihy & Wing 1990: a
 * history is linearizable iff each object's is); each object searched by search.ts; and a
 * failure explained: the longest linearizable prefix, the operation that can never be placed
 * and why in one sentence, and a minimal failing subset.
 */
import {
  NIL,
  UNSEEN,
  appendKvModel,
  casRegisterModel,
  multiRegisterModel,
  mutexSymmetry,
  ownedMutexModel,
  ownerlessMutexModel,
  registerSymmetry,
  type AppendKvOp,
  type MicroOp,
  type MutexOp,
  type RegisterOp,
} from '../check/linearizability/fieldModels';
import { MAX_MEMO, linearize, type Budget, type CheckOp, type Model, type SearchOptions } from '../check/linearizability/search';
import { shrinkByChunks } from '../check/linearizability/shrink';
import { imported as say } from '../model/describeImport';
import { EdnMap, EdnSeq, Keyword, printEdn, untag, type Edn } from './edn';
import { ImportError, type ImportedHistory, type ImportedOp } from './history';

export const MODEL_NAMES = ['cas-register', 'kv', 'append-kv', 'multi-register', 'mutex', 'owned-mutex'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export const MODEL_TEXT: Readonly<Record<ModelName, string>> = {
  'cas-register': 'CAS register',
  kv: 'key-value map, each key a CAS register',
  'append-kv': "Porcupine's key-value map (get, put, append), each key alone",
  'multi-register': "Knossos's multi-register",
  mutex: "Knossos's mutex (ownerless: any release frees it)",
  'owned-mutex': "Lockstep's mutex with owners (only the holder's release frees it)",
};

/** The operations each model reads; others are left out with a note. */
const MODEL_FS: Readonly<Record<ModelName, readonly string[]>> = {
  'cas-register': ['read', 'write', 'cas'],
  kv: ['read', 'write', 'cas'],
  'append-kv': ['get', 'put', 'append'],
  'multi-register': ['txn'],
  mutex: ['acquire', 'release'],
  'owned-mutex': ['acquire', 'release'],
};

export interface ImportCheckOptions {
  readonly model?: ModelName;
  /** The registers' initial value (default nil). */
  readonly initial?: Edn;
  /** Whether `initial` was given (else a failure from nil also tries 0, as a hint). */
  readonly initialGiven?: boolean;
  readonly clock?: () => number;
  readonly timeLimitMs?: number;
  /** Search steps (deterministic budget); default unlimited when a time limit is set, else 20,000,000. */
  readonly steps?: number;
  /** Explain a failure (prefix, culprit, sentence, minimal subset); default true. */
  readonly explain?: boolean;
  /** What a failed cas tells (default: by the file's tool, failedCasOf). */
  readonly failedCas?: FailedCas;
  readonly progress?: (placed: number, total: number) => void;
}

/** One operation's place in the linearization found: the state before and after it. */
export interface LinearizedStep {
  readonly op: number;
  readonly before: string;
  readonly after: string;
}

export interface ImportVerdict {
  readonly linearizable: boolean | 'unknown';
  readonly model: ModelName;
  /** Which model, in words (the mutexes name whether they track owners). */
  readonly modelText: string;
  /** Registers: the reading of a failed cas used, and it in words ("a failed cas did not happen, as Knossos reads it"). */
  readonly failedCas?: FailedCas;
  readonly failedCasText?: string;
  /** The registers' initial value as EDN (null for the mutexes). */
  readonly initial: string | null;
  readonly reason?: string;
  /** The object that failed (a key), null when the history is one object. */
  readonly key?: string | null;
  /** The one sentence naming the operation that can never be placed, and why. */
  readonly sentence?: string;
  readonly culprit?: number;
  /** Operation ids of a minimal failing subset, in id order. */
  readonly subset?: readonly number[];
  readonly minimal?: boolean;
  /** The longest prefix (in events of the failing object) that is linearizable. */
  readonly prefix?: { readonly events: number; readonly of: number; readonly line: number | null; readonly sentence: string };
  /** The linearization found (of the whole history, or of the failing object's longest prefix), per operation. */
  readonly linearization: readonly LinearizedStep[];
  readonly notes: readonly string[];
  /** How many objects the history was split into. */
  readonly objects: number;
  /** Per operation id: the object (key) it belongs to ('' for a history that is one object), null if the model does not read it. */
  readonly objectKeys: readonly (string | null)[];
}

/** Register values interned as small integers (nil is NIL), and back to EDN text. */
class Values {
  private readonly ids = new Map<string, number>([['nil', NIL]]);
  readonly texts: string[] = ['nil'];
  id(v: Edn): number {
    const t = printEdn(v);
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.texts.length;
      this.ids.set(t, id);
      this.texts.push(t);
    }
    return id;
  }
}

/** `[k v]` (or a `#jepsen.independent.Tuple{:key k :value v}`): the key and the value, else null. */
function tupleOf(v: Edn): readonly [Edn, Edn] | null {
  const u = untag(v);
  if (u instanceof EdnSeq && u.length === 2) return [u[0], u[1]];
  if (u instanceof EdnMap && u.has('key') && u.entries.length === 2) return [u.get('key') as Edn, u.get('value') ?? null];
  return null;
}

/** A history of [key value] tuples (Jepsen's `independent`): every register operation carries one. */
function isIndependent(ops: readonly ImportedOp[]): boolean {
  const reg = ops.filter((o) => o.f === 'read' || o.f === 'write' || o.f === 'cas');
  if (reg.length === 0) return false;
  return reg.every((o) => {
    const t = tupleOf(o.invokeValue);
    if (t === null) return false;
    // A plain cas [1 2] is a tuple too: only [k [from to]] makes a keyed cas.
    if (o.f === 'cas') return untag(t[1]) instanceof EdnSeq;
    return !(untag(t[1]) instanceof EdnSeq);
  });
}

/**
 * What a `:fail` cas tells, as the field's two references read it. Porcupine's Jepsen etcd model
 * takes it as a cas that returned false: the register held another value ("mismatch"). Knossos
 * drops every failed operation before it checks (`history/without-failures`: a :fail did not take
 * place), so the cas constrains nothing ("no-effect"). A verdict names the reading it used.
 */
export const FAILED_CAS = ['mismatch', 'no-effect'] as const;
export type FailedCas = (typeof FAILED_CAS)[number];

/** The reading of the tool that writes the file's format: Knossos's for EDN histories, Porcupine's for its logs and reports. */
export function failedCasOf(h: ImportedHistory): FailedCas {
  return h.format === 'jepsen-edn' ? 'no-effect' : 'mismatch';
}

const FAILED_CAS_TEXT: Readonly<Record<FailedCas, string>> = {
  mismatch: 'a failed cas found another value, as Porcupine reads it',
  'no-effect': 'a failed cas did not happen, as Knossos reads it',
};

/** The model a history needs, or a sentence saying why the file does not say. */
export function chooseModel(h: ImportedHistory, requested?: ModelName): ModelName {
  if (requested !== undefined) {
    const known = new Set(MODEL_FS[requested]);
    if (!h.ops.some((o) => known.has(o.f))) {
      const fs = [...new Set(h.ops.map((o) => ':' + o.f))].join(', ') || 'none';
      throw new ImportError(
        0,
        `The model ${requested} (${MODEL_TEXT[requested]}) checks ${MODEL_FS[requested].map((f) => ':' + f).join(', ')}; this history's operations are ${fs}.`,
      );
    }
    return requested;
  }
  const fs = new Set(h.ops.map((o) => o.f));
  if (fs.size === 0) throw new ImportError(0, 'The history has no client operations to check (only annotations or skipped lines).');
  const only = (list: readonly string[]) => [...fs].every((f) => list.includes(f));
  if (only(['read', 'write', 'cas'])) return isIndependent(h.ops) ? 'kv' : 'cas-register';
  if (only(['txn'])) return 'multi-register';
  if (only(['get', 'put', 'append'])) return 'append-kv';
  if (only(['acquire', 'release'])) {
    throw new ImportError(
      0,
      "This history's :acquire and :release fit two mutexes: choose --model mutex (Knossos's: it does not track who holds the lock, so any release frees it) or --model owned-mutex (Lockstep's: only the holder's release frees it).",
    );
  }
  const unknown = [...fs].filter((f) => !['read', 'write', 'cas', 'txn', 'acquire', 'release'].includes(f));
  throw new ImportError(
    0,
    `No model of Lockstep's checks ${unknown.map((f) => ':' + f).join(', ')}: it checks registers (:read, :write, :cas), key-value maps ([key value] tuples), Porcupine's key-value maps (:get, :put, :append), multi-registers (:txn) and mutexes (:acquire, :release).`,
  );
}

/** One independent object: its operations for the search and what explains them. */
interface Part<S, I> {
  readonly key: string | null;
  readonly model: Model<S, I>;
  readonly ops: CheckOp<I>[];
  readonly symmetry?: (input: I) => string | null;
  /** A state in words (`3`, `held by 2`, `x=0 y=1`). */
  readonly stateText: (s: S) => string;
  /** The culprit sentence for an operation never placed, given the states it was tried in. */
  readonly culprit: (op: ImportedOp, held: readonly S[]) => string;
  /**
   * Whether a subset of `from` (the operations the shrink starts with) still explains itself:
   * every value a kept read (or cas) saw still has a kept writer when `from` had one. Without it
   * the smallest failing subset of a stale read would be the read alone ("nobody wrote 1"), which
   * says nothing about why it was stale. Judged against `from`, not the whole history: the shrink
   * starts from the failing prefix, and a writer after it (a read of 2 returned before the only
   * write of 2 began) would otherwise forbid every removal and leave the whole prefix "minimal".
   */
  readonly readable?: (from: readonly CheckOp<I>[]) => (ops: readonly CheckOp<I>[]) => boolean;
}

interface Built {
  readonly parts: Part<unknown, unknown>[];
  readonly notes: string[];
  readonly initial: string | null;
  readonly objectKeys: (string | null)[];
}

const whenOf = (o: ImportedOp) => say.when(o.retMs ?? o.callMs, o.retLine ?? o.callLine);

/** CheckOps for one register's operations; `valueOf` picks the register value out of an op's value. */
function registerPart(
  key: string | null,
  ops: readonly ImportedOp[],
  values: Values,
  initial: Edn,
  valueOf: (v: Edn) => Edn,
  notes: string[],
  failedCas: FailedCas,
): Part<number, RegisterOp> {
  const initialId = values.id(initial);
  const casPair = (o: ImportedOp): [number, number] => {
    const v = untag(valueOf(o.invokeValue));
    if (!(v instanceof EdnSeq) || v.length !== 2) {
      throw new ImportError(o.callLine, `line ${o.callLine}: a :cas carries [expected new]; this one carries ${printEdn(v)}.`);
    }
    return [values.id(v[0]), values.id(v[1])];
  };
  // Nil is a value only if the register starts at nil or someone sets it to nil.
  const nilHeld =
    initialId === NIL ||
    ops.some(
      (o) =>
        (o.f === 'write' && values.id(valueOf(o.invokeValue)) === NIL) || (o.f === 'cas' && o.type !== 'fail' && casPair(o)[1] === NIL),
    );
  let nilReads = 0;
  const out: CheckOp<RegisterOp>[] = [];
  for (const o of ops) {
    let input: RegisterOp;
    let ret: number | null = o.type === 'ok' || (o.f === 'cas' && o.type === 'fail') ? o.ret : null;
    if (o.f === 'read') {
      // A read that failed or never answered observed nothing: it constrains nothing.
      if (o.type !== 'ok') continue;
      const v = values.id(valueOf(o.value));
      if (v === NIL && !nilHeld) {
        nilReads++;
        continue;
      }
      input = { kind: 'read', value: v };
    } else if (o.f === 'write') {
      if (o.type === 'fail') continue;
      input = { kind: 'write', value: values.id(valueOf(o.invokeValue)) };
    } else if (o.f === 'cas') {
      const [from, to] = casPair(o);
      if (o.type === 'fail' && failedCas === 'no-effect') continue;
      input = { kind: 'cas', from, to, ok: o.type === 'ok' ? true : o.type === 'fail' ? false : null };
    } else continue;
    if (o.type === 'info' || o.type === 'pending') ret = null;
    out.push({ id: o.id, input, call: o.call, ret });
  }
  if (nilReads > 0) notes.push(say.nilReads(nilReads, values.texts[initialId]));
  const text = (s: number) => values.texts[s];
  const writers = (v: number) =>
    ops.filter(
      (o) => o.type !== 'fail' && ((o.f === 'write' && values.id(valueOf(o.invokeValue)) === v) || (o.f === 'cas' && casPair(o)[1] === v)),
    );
  const readable = (from: readonly CheckOp<RegisterOp>[]) => {
    const produced = new Set<number>();
    for (const c of from) if (c.input.kind === 'write') produced.add(c.input.value);
    for (const c of from) if (c.input.kind === 'cas' && c.input.ok !== false) produced.add(c.input.to);
    return (sub: readonly CheckOp<RegisterOp>[]) => {
      const have = new Set<number>([initialId]);
      for (const c of sub) {
        if (c.input.kind === 'write') have.add(c.input.value);
        else if (c.input.kind === 'cas' && c.input.ok !== false) have.add(c.input.to);
      }
      return sub.every((c) => {
        const seen = c.input.kind === 'read' ? c.input.value : c.input.kind === 'cas' && c.input.ok === true ? c.input.from : null;
        return seen === null || !produced.has(seen) || have.has(seen);
      });
    };
  };
  return {
    key,
    model: casRegisterModel(initialId),
    ops: out,
    symmetry: registerSymmetry,
    readable,
    stateText: text,
    culprit: (o, held) => {
      const heldText = [...new Set(held)].sort((a, b) => a - b).map(text);
      const source = (v: number) =>
        say.sourceOf(
          text(v),
          writers(v).map((w) => ({ line: w.callLine, after: o.ret !== null && w.call > o.ret })),
          text(initialId),
        );
      if (o.f === 'read') {
        const v = values.id(valueOf(o.value));
        return say.readCulprit(text(v), whenOf(o), heldText, source(v));
      }
      const [from, to] = casPair(o);
      if (o.type === 'fail') return say.failedCasCulprit(text(from), text(to), whenOf(o));
      return say.casCulprit(text(from), text(to), whenOf(o), heldText, source(from));
    },
  };
}

/** A string value of Porcupine's key-value model as its file writes it (a string, or any EDN printed). */
const kvString = (v: Edn): string => (typeof v === 'string' ? v : v === null ? '' : printEdn(v));

/**
 * Porcupine's key-value histories, one object per key (P-compositionality): each operation's
 * `:key` (or a `[key value]` tuple) names its key; a get's `:ok` value is what it saw.
 */
function appendKvParts(ops: readonly ImportedOp[]): Part<string, AppendKvOp>[] {
  const byKey = new Map<string, { op: ImportedOp; input: AppendKvOp }[]>();
  for (const o of ops) {
    if (o.type === 'fail') continue; // it did not take effect
    const t = tupleOf(o.type === 'ok' && o.f === 'get' ? o.value : o.invokeValue);
    if (t === null)
      throw new ImportError(
        o.callLine,
        `line ${o.callLine}: a key-value operation names its key (:key, or a [key value] value); this :${o.f} carries ${printEdn(o.invokeValue)}.`,
      );
    if (o.f === 'get' && o.type !== 'ok') continue; // a get that never answered saw nothing
    const key = kvString(t[0]);
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push({ op: o, input: { kind: o.f as AppendKvOp['kind'], value: kvString(t[1]) } });
  }
  const quote = (s: string) => JSON.stringify(s);
  // A kept get keeps every put and append whose value is part of what it saw, when the shrink
  // started with them: else its minimal subset would be the get alone ("the key held \"\"").
  const readable = (from: readonly CheckOp<AppendKvOp>[]) => {
    const writes = from.filter((c) => c.input.kind !== 'get' && c.input.value !== '');
    return (sub: readonly CheckOp<AppendKvOp>[]) => {
      const kept = new Set(sub.map((c) => c.id));
      return sub.every((c) => c.input.kind !== 'get' || writes.every((w) => !c.input.value.includes(w.input.value) || kept.has(w.id)));
    };
  };
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, list]) => ({
      key,
      model: appendKvModel,
      ops: list.map(({ op, input }) => ({ id: op.id, input, call: op.call, ret: op.type === 'ok' ? op.ret : null })),
      stateText: quote,
      readable,
      culprit: (o, held) => {
        const t = tupleOf(o.type === 'ok' && o.f === 'get' ? o.value : o.invokeValue);
        return say.kvCulprit(o.f, quote(key), quote(kvString(t?.[1] ?? null)), whenOf(o), [...new Set(held)].map(quote));
      },
    }));
}

function mutexPart(ops: readonly ImportedOp[], owned: boolean): Part<number, MutexOp> {
  const out: CheckOp<MutexOp>[] = [];
  for (const o of ops) {
    if ((o.f !== 'acquire' && o.f !== 'release') || o.type === 'fail') continue;
    const owner = Number(o.process);
    out.push({ id: o.id, input: { kind: o.f, owner }, call: o.call, ret: o.type === 'ok' ? o.ret : null });
  }
  const text = (s: number) => (s === 0 ? 'free' : owned ? `held by ${s - 1}` : 'held');
  // A kept release keeps an acquire (by its owner, for the mutex with owners) when the history had one.
  const readable = (from: readonly CheckOp<MutexOp>[]) => {
    const acquirers = new Set(from.filter((c) => c.input.kind === 'acquire').map((c) => (owned ? c.input.owner : 0)));
    return (sub: readonly CheckOp<MutexOp>[]) => {
      const have = new Set(sub.filter((c) => c.input.kind === 'acquire').map((c) => (owned ? c.input.owner : 0)));
      return sub.every(
        (c) => c.input.kind !== 'release' || !acquirers.has(owned ? c.input.owner : 0) || have.has(owned ? c.input.owner : 0),
      );
    };
  };
  return {
    key: null,
    readable,
    model: owned ? ownedMutexModel : ownerlessMutexModel,
    ops: out,
    symmetry: mutexSymmetry(owned),
    stateText: text,
    culprit: (o, held) => {
      const states = [...new Set(held)].sort((a, b) => a - b);
      if (o.f === 'acquire')
        return say.acquireCulprit(o.process, whenOf(o), owned ? states.filter((s) => s > 0).map((s) => String(s - 1)) : []);
      return say.releaseCulprit(o.process, whenOf(o), owned, states.map(text));
    },
  };
}

/** A transaction's micro-operations: `[[:read :x 1] [:write :y 2]]`. */
function microOps(o: ImportedOp, v: Edn, registers: Map<string, number>, values: Values, nilHeld: boolean, known: boolean): MicroOp[] {
  const u = untag(v);
  if (!(u instanceof EdnSeq))
    throw new ImportError(
      o.callLine,
      `line ${o.callLine}: a :txn carries a vector of [:read k v] and [:write k v]; this one carries ${printEdn(u)}.`,
    );
  return u.map((m) => {
    const t = untag(m);
    if (!(t instanceof EdnSeq) || t.length !== 3 || !(t[0] instanceof Keyword) || (t[0].name !== 'read' && t[0].name !== 'write')) {
      throw new ImportError(
        o.callLine,
        `line ${o.callLine}: expected a micro-operation [:read k v] or [:write k v] in this :txn, found ${printEdn(m)}.`,
      );
    }
    const k = printEdn(t[1]);
    let register = registers.get(k);
    if (register === undefined) registers.set(k, (register = registers.size));
    const kind = t[0].name;
    let value = values.id(t[2]);
    // A read's value is only known once it completed; nil there means "not seen" when nil cannot be held.
    if (kind === 'read' && (!known || (value === NIL && !nilHeld))) value = UNSEEN;
    return { kind, register, value };
  });
}

function multiParts(ops: readonly ImportedOp[], values: Values, initial: Edn): Part<readonly number[], readonly MicroOp[]>[] {
  const registers = new Map<string, number>();
  const initialId = values.id(initial);
  const txns = ops.filter((o) => o.f === 'txn' && o.type !== 'fail');
  // Nil is a value only when registers start at nil or a transaction writes nil.
  const writesNil = txns.some((o) => {
    const u = untag(o.invokeValue);
    return u instanceof EdnSeq && u.some((m) => m instanceof EdnSeq && m[0] instanceof Keyword && m[0].name === 'write' && m[2] === null);
  });
  const nilHeld = initialId === NIL || writesNil;
  const inputs = txns.map((o) => microOps(o, o.type === 'ok' ? o.value : o.invokeValue, registers, values, nilHeld, o.type === 'ok'));
  const names = [...registers.keys()];
  const textOf = (regs: readonly number[]) => (s: readonly number[]) =>
    regs.map((r, i) => `${names[r]}=${s[i] === UNSEEN ? '?' : values.texts[s[i]]}`).join(' ');
  const build = (
    key: string | null,
    regs: readonly number[],
    pick: (m: MicroOp[]) => MicroOp[] | null,
  ): Part<readonly number[], readonly MicroOp[]> => {
    const local = new Map(regs.map((r, i) => [r, i]));
    const out: CheckOp<readonly MicroOp[]>[] = [];
    txns.forEach((o, i) => {
      const mine = pick(inputs[i]);
      if (mine === null) return;
      const input = mine.map((m) => ({ ...m, register: local.get(m.register) as number }));
      out.push({ id: o.id, input, call: o.call, ret: o.type === 'ok' ? o.ret : null });
    });
    const stateText = textOf(regs);
    return {
      key,
      model: multiRegisterModel(regs.map(() => initialId)),
      ops: out,
      stateText,
      culprit: (o, held) => say.txnCulprit(printEdn(o.value), whenOf(o), [...new Set(held.map(stateText))]),
    };
  };
  // Transactions that each touch one register split per register (P-compositionality); else one object.
  const single = inputs.every((m) => new Set(m.map((x) => x.register)).size <= 1);
  if (!single)
    return [
      build(
        null,
        names.map((_, i) => i),
        (m) => m,
      ),
    ];
  return names.map((name, r) => build(name, [r], (m) => (m.length > 0 && m[0].register === r ? m : null)));
}

function buildParts(h: ImportedHistory, model: ModelName, initial: Edn, failedCas: FailedCas): Built {
  const notes: string[] = [];
  const values = new Values();
  const known = new Set(MODEL_FS[model]);
  const dropped = new Map<string, number>();
  for (const o of h.ops) if (!known.has(o.f)) dropped.set(o.f, (dropped.get(o.f) ?? 0) + 1);
  for (const [f, count] of dropped) notes.push(say.droppedOps(count, f, MODEL_TEXT[model]));
  const ops = h.ops.filter((o) => known.has(o.f));
  const objectKeys: (string | null)[] = h.ops.map((o) => (known.has(o.f) ? '' : null));
  const initialText = model === 'mutex' || model === 'owned-mutex' ? null : printEdn(initial);
  const done = (parts: Part<unknown, unknown>[], init: string | null): Built => ({ parts, notes, initial: init, objectKeys });
  if (model === 'cas-register')
    return done([registerPart(null, ops, values, initial, (v) => v, notes, failedCas) as Part<unknown, unknown>], initialText);
  if (model === 'mutex' || model === 'owned-mutex') return done([mutexPart(ops, model === 'owned-mutex') as Part<unknown, unknown>], null);
  if (model === 'append-kv') {
    const parts = appendKvParts(ops);
    for (const part of parts) for (const o of part.ops) objectKeys[o.id] = part.key;
    return done(parts as Part<unknown, unknown>[], null);
  }
  if (model === 'multi-register') {
    const parts = multiParts(ops, values, initial);
    for (const part of parts) if (part.key !== null) for (const o of part.ops) objectKeys[o.id] = part.key;
    return done(parts as Part<unknown, unknown>[], initialText);
  }
  // kv: one register per key.
  const byKey = new Map<string, ImportedOp[]>();
  for (const o of ops) {
    const t = tupleOf(o.invokeValue);
    if (t === null)
      throw new ImportError(
        o.callLine,
        `line ${o.callLine}: a key-value history's operations carry [key value]; this :${o.f} carries ${printEdn(o.invokeValue)}.`,
      );
    const k = printEdn(t[0]);
    objectKeys[o.id] = k;
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    list.push(o);
  }
  const parts = [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([k, list]) =>
        registerPart(
          k,
          list,
          values,
          initial,
          (v) => {
            const t = tupleOf(v);
            return t === null ? v : t[1];
          },
          notes,
          failedCas,
        ) as Part<unknown, unknown>,
    );
  return done(parts, initialText);
}

const DEFAULT_STEPS = 20_000_000;

function budgetOf(options: ImportCheckOptions): Budget {
  const steps = options.steps ?? (options.timeLimitMs !== undefined ? Number.MAX_SAFE_INTEGER : DEFAULT_STEPS);
  const base = options.progress !== undefined ? { progress: options.progress } : {};
  return options.clock !== undefined && options.timeLimitMs !== undefined
    ? { steps, clock: options.clock, deadline: options.clock() + options.timeLimitMs, ...base }
    : { steps, ...base };
}

function unknownReason(budget: Budget, options: ImportCheckOptions): string {
  const timed = budget.clock !== undefined && budget.deadline !== undefined && budget.clock() >= budget.deadline;
  if (timed) return say.unknownReason(options.timeLimitMs ?? null, MAX_MEMO);
  if (budget.steps <= 0)
    return `the search gave up after ${(options.steps ?? DEFAULT_STEPS).toLocaleString('en-US')} steps before a verdict`;
  return say.unknownReason(null, MAX_MEMO);
}

/** The part's operations cut after its first `k` events: operations called later are out, completions later are dropped. */
function prefixOf<I>(ops: readonly CheckOp<I>[], positions: readonly number[], k: number): CheckOp<I>[] {
  if (k === 0) return [];
  const cut = positions[k - 1];
  return ops.filter((o) => o.call <= cut).map((o) => (o.ret !== null && o.ret > cut ? { ...o, ret: null } : o));
}

function steps<S, I>(part: Part<S, I>, ops: readonly CheckOp<I>[], order: readonly number[], states: readonly S[]): LinearizedStep[] {
  let before = part.stateText(part.model.init());
  return order.map((i, j) => {
    const after = part.stateText(states[j]);
    const step = { op: ops[i].id, before, after };
    before = after;
    return step;
  });
}

interface Explained {
  readonly sentence?: string;
  readonly culprit?: number;
  readonly subset?: readonly number[];
  readonly minimal: boolean;
  readonly prefix?: ImportVerdict['prefix'];
  readonly linearization: LinearizedStep[];
}

/**
 * A failure explained from one search (see search.ts's `keepBest`): the furthest return the
 * search reached ends the longest linearizable prefix and is the operation that can never be
 * placed; the states it was tried in are what the object held then. Then a minimal subset.
 */
function explain<S, I>(part: Part<S, I>, h: ImportedHistory, budget: Budget): Explained {
  const search: SearchOptions<I> = { dominance: true, ...(part.symmetry !== undefined ? { symmetry: part.symmetry } : {}) };
  const r = linearize(part.model, part.ops, budget, { ...search, keepBest: true, recordTries: true });
  if (r.result !== 'fail' || r.stuck === undefined || r.stuck < 0) return { minimal: false, linearization: [] };
  const stuckOp = part.ops[r.stuck];
  const culpritOp = h.ops[stuckOp.id];
  const held = r.tries?.[r.stuck] ?? [];
  const sentence = part.culprit(culpritOp, held);
  const best = r.best ?? { order: [], states: [] };
  const linearization = steps(part, part.ops, best.order, best.states);
  // The prefix: this object's events before the stuck return.
  const positions = part.ops.flatMap((o) => (o.ret === null ? [o.call] : [o.call, o.ret])).sort((a, b) => a - b);
  const cut = stuckOp.ret as number;
  const before = positions.filter((p) => p < cut);
  const lastEvent = before.length === 0 ? null : h.events[before[before.length - 1]];
  const line = lastEvent === null ? null : lastEvent.kind === 'call' ? h.ops[lastEvent.op].callLine : h.ops[lastEvent.op].retLine;
  const prefix = { events: before.length, of: positions.length, line, sentence: say.prefix(line, culpritOp.retLine, part.key) };
  // The minimal subset, from the failing prefix (the history through the stuck return).
  const failing = prefixOf(part.ops, positions, before.length + 1);
  // The subset keeps the culprit, so it shows why the sentence's operation can never be placed
  // (not another failure the prefix also holds).
  const readable = part.readable?.(failing);
  const keeps = (sub: readonly CheckOp<I>[]) => sub.some((o) => o.id === stuckOp.id) && (readable === undefined || readable(sub));
  const shrunk = shrinkByChunks(part.model, failing, budget, search, keeps);
  return {
    sentence,
    culprit: culpritOp.id,
    subset: [...new Set(shrunk.ids)].sort((a, b) => a - b),
    minimal: shrunk.minimal,
    prefix,
    linearization,
  };
}

/** Checks an imported history; throws ImportError when the file does not say which model (or a value is malformed). */
export function checkImported(h: ImportedHistory, options: ImportCheckOptions = {}): ImportVerdict {
  const model = chooseModel(h, options.model);
  const initial = options.initial ?? null;
  const failedCas = options.failedCas ?? failedCasOf(h);
  const built = buildParts(h, model, initial, failedCas);
  const budget = budgetOf(options);
  // The reading is named only where it mattered: a register history with a failed cas.
  const registers = (model === 'cas-register' || model === 'kv') && h.ops.some((o) => o.f === 'cas' && o.type === 'fail');
  const base = {
    model,
    modelText: MODEL_TEXT[model],
    ...(registers ? { failedCas, failedCasText: FAILED_CAS_TEXT[failedCas] } : {}),
    initial: built.initial,
    notes: built.notes,
    objects: built.parts.length,
    objectKeys: built.objectKeys,
  };
  const linearization: LinearizedStep[] = [];
  let unknown = false;
  for (const part of built.parts) {
    const search: SearchOptions<unknown> = { dominance: true, ...(part.symmetry !== undefined ? { symmetry: part.symmetry } : {}) };
    const r = linearize(part.model, part.ops, budget, search);
    if (r.result === 'unknown') {
      unknown = true;
      break;
    }
    if (r.result === 'ok') {
      linearization.push(...steps(part, part.ops, r.order, r.states));
      continue;
    }
    const failed = { ...base, linearizable: false as const, key: part.key };
    if (options.explain === false) return { ...failed, linearization };
    const why = explain(part, h, budget);
    const notes = [...built.notes];
    if (options.initialGiven !== true && initial === null && model !== 'mutex' && model !== 'owned-mutex') {
      // Knossos's suites start at 0: say so when that would pass (a hint, never a silent switch).
      const zero = checkImported(h, { ...options, initial: 0, initialGiven: true, explain: false });
      if (zero.linearizable === true) notes.push(say.fromZero());
    }
    return { ...failed, ...why, linearization: [...linearization, ...why.linearization], notes };
  }
  if (unknown) return { ...base, linearizable: 'unknown', reason: unknownReason(budget, options), linearization };
  return { ...base, linearizable: true, linearization };
}
