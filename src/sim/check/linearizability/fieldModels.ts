/**
 * The sequential specifications other tools' histories are checked against (issue 27): the
 * models Knossos and Porcupine users expect. Values are small integers (the importer interns
 * each distinct value once, `NIL` for nil), so a state is a number and its key is itself.
 *
 * What an operation's completion means follows Jepsen: `:ok` took effect (a read returns what
 * it saw), `:fail` certainly did not (the importer leaves failed reads, writes, acquires and
 * releases out), `:info` or no completion may or may not have taken effect at any time after its
 * invocation (the search may leave a never-returning operation out, or place it anywhere after
 * its call). A failed cas is the exception: on the registers these tools test (etcd, ZooKeeper,
 * Porcupine's etcd model) it means the compare found another value, so it is a read that the
 * register did not hold `from` (Porcupine's etcd model checks it so).
 */
import type { Model } from './search';

/** The value id of nil: a register that was never written, or a write of nil. */
export const NIL = 0;

export type RegisterOp =
  /** An `:ok` read that returned `value`. */
  | { readonly kind: 'read'; readonly value: number }
  | { readonly kind: 'write'; readonly value: number }
  /** `ok`: true swapped, false found another value than `from`, null indeterminate (swaps if it runs and `from` matches). */
  | { readonly kind: 'cas'; readonly from: number; readonly to: number; readonly ok: boolean | null };

function registerStep(s: number, op: RegisterOp): number | null {
  switch (op.kind) {
    case 'read':
      return op.value === s ? s : null;
    case 'write':
      return op.value;
    case 'cas':
      if (op.ok === true) return s === op.from ? op.to : null;
      if (op.ok === false) return s !== op.from ? s : null;
      return s === op.from ? op.to : s;
  }
}

/** Knossos's `cas-register` and Porcupine's etcd model: read, write, compare-and-set, from `initial`. */
export function casRegisterModel(initial: number): Model<number, RegisterOp> {
  return { init: () => initial, step: registerStep, key: (s) => s };
}

/** Pending operations with the same effect are interchangeable (search.ts's symmetry). */
export function registerSymmetry(op: RegisterOp): string | null {
  if (op.kind === 'write') return `w${op.value}`;
  if (op.kind === 'cas' && op.ok === null) return `c${op.from}>${op.to}`;
  return null;
}

export type MutexOp = { readonly kind: 'acquire' | 'release'; readonly owner: number };

/**
 * Knossos's `mutex`: it records only whether the lock is held, not by whom, so any release of a
 * held lock frees it and an acquire needs it free. State 0 free, 1 held.
 */
export const ownerlessMutexModel: Model<number, MutexOp> = {
  init: () => 0,
  step: (s, op) => (op.kind === 'acquire' ? (s === 0 ? 1 : null) : s === 1 ? 0 : null),
  key: (s) => s,
};

/**
 * Lockstep's mutex with owners (the lock service's rule, without tokens): an acquire needs the
 * lock free and makes its process the holder; only the holder's release frees it. State 0
 * free, else the holder's number + 1. Stricter than Knossos's: a release by another process fails.
 */
export const ownedMutexModel: Model<number, MutexOp> = {
  init: () => 0,
  step: (s, op) => (op.kind === 'acquire' ? (s === 0 ? op.owner + 1 : null) : s === op.owner + 1 ? 0 : null),
  key: (s) => s,
};

export function mutexSymmetry(owned: boolean): (op: MutexOp) => string | null {
  return owned ? (op) => `${op.kind}${op.owner}` : (op) => op.kind;
}

/** One micro-operation of a Knossos multi-register transaction: `[:read :x 1]` or `[:write :y 2]`. */
export interface MicroOp {
  readonly kind: 'read' | 'write';
  /** The register's index. */
  readonly register: number;
  /** The value read or written; for a read, UNSEEN when it observed nothing Lockstep can compare. */
  readonly value: number;
}

/** A read that carries no value to check (Knossos reads a nil a register cannot hold as "unknown"). */
export const UNSEEN = -1;

/**
 * Knossos's `multi-register`: several registers, each transaction reading and writing some of
 * them at one instant. The state is every register's value; a transaction's reads see the
 * values before its writes and its own earlier writes, in order.
 */
export function multiRegisterModel(initial: readonly number[]): Model<readonly number[], readonly MicroOp[]> {
  return {
    init: () => initial,
    step: (s, txn) => {
      let out: number[] | null = null;
      for (const m of txn) {
        const now = (out ?? s)[m.register];
        if (m.kind === 'read') {
          if (m.value !== UNSEEN && m.value !== now) return null;
        } else if (now !== m.value) {
          out ??= [...s];
          out[m.register] = m.value;
        }
      }
      return out ?? s;
    },
    key: (s) => s.join(','),
  };
}

/** One operation of Porcupine's key-value model on one key: a get that returned `value`, a put, an append. */
export type AppendKvOp = { readonly kind: 'get' | 'put' | 'append'; readonly value: string };

/**
 * Porcupine's key-value test model (its kv test histories: get, put, append), one key alone: the
 * key holds a string, "" at first; a get returns it, a put replaces it, an append adds to its end.
 */
export const appendKvModel: Model<string, AppendKvOp> = {
  init: () => '',
  step: (s, op) => (op.kind === 'get' ? (op.value === s ? s : null) : op.kind === 'put' ? op.value : s + op.value),
  key: (s) => s,
};
