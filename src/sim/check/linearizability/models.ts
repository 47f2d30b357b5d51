/**
 * Sequential specifications of what clients may see, one object (one key) each. A history is
 * checked against them by `search.ts`; `check.ts` says which operations go to which object.
 *
 * Refusals (busy, not-holder) change nothing and are allowed in every state: the leader also
 * answers busy while an entry for the key is still unapplied, when the lock may well be free.
 * The models constrain what has an effect: grants, releases, expiries and accepted writes.
 */
import type { Model } from './search';

/** A token the client never learned: a grant by an acquire that never completed. */
export const UNKNOWN_TOKEN = 0;

export type LockInput =
  /** result null: never completed, so it may have been granted (with a token nobody saw). */
  | { readonly kind: 'acquire'; readonly client: string; readonly result: 'granted' | 'busy' | null; readonly token: number | null }
  | {
      readonly kind: 'release';
      readonly client: string;
      readonly result: 'released' | 'not-found' | 'not-holder' | 'busy' | null;
      readonly token: number | null;
    }
  /** The service's own operation: the lease of `token` ended (or its ghost lock was let go) and the log freed the key. */
  | { readonly kind: 'expire'; readonly token: number };

export interface LockState {
  readonly holder: string | null;
  /** The holder's token (UNKNOWN_TOKEN if it never heard it). */
  readonly token: number;
  /** The highest token granted so far: tokens come from one counter and never repeat. */
  readonly last: number;
}

const FREE: LockState = { holder: null, token: 0, last: 0 };

/**
 * Whether a release by `client` naming `token` frees the hold, by the lock table's rule
 * (lockStateMachine.ts): the asker holds the key, and names the holder's token or none. A hold
 * with a token nobody was told (a pending acquire's grant, a renewal) is freed only by a release
 * naming no token: a client names a token it was told, and the grant it never heard of replaced it.
 */
const holds = (s: LockState, client: string, token: number | null): boolean => s.holder === client && (token === null || s.token === token);

function lockStep(s: LockState, input: LockInput): LockState | null {
  switch (input.kind) {
    case 'acquire': {
      if (input.result === 'busy') return s;
      // Free, or held by the asker: an acquire by the holder renews with a new token.
      if (s.holder !== null && s.holder !== input.client) return null;
      if (input.result === null) return { holder: input.client, token: UNKNOWN_TOKEN, last: s.last };
      const token = input.token as number;
      if (token <= s.last) return null;
      return { holder: input.client, token, last: token };
    }
    case 'release':
      switch (input.result) {
        // Without client sessions (§6.3) one release can be answered by another copy's entry: a
        // new release may wait on the client's own older Release and hear released. So released
        // is idempotent: it frees the asker's own hold, or finds the key already free. Releasing
        // a key someone else holds is never allowed. (A retry that hears not-found or not-holder
        // after its first copy freed the key: check.ts adds that copy's possible effect.)
        case 'released':
          if (holds(s, input.client, input.token)) return { holder: null, token: 0, last: s.last };
          return s.holder === null ? s : null;
        case null:
          // It may have taken effect; if it did, it freed the key only if the asker held it.
          return holds(s, input.client, input.token) ? { holder: null, token: 0, last: s.last } : s;
        default:
          return s;
      }
    case 'expire':
      // The lock table held the key with this token when it expired, so a hold with an older token
      // had ended by then: a retried acquire can renew the holder with a token nobody was told.
      // An Expire that finds a newer grant (or nothing) changes nothing, as the lock table has it.
      return s.holder !== null && s.token <= input.token ? { holder: null, token: 0, last: s.last } : s;
  }
}

const lockKey = (s: LockState): string => `${s.holder ?? ''}/${s.token}/${s.last}`;

/** The lock service as clients see it: per key, who holds it with which token. */
export const lockModel: Model<LockState, LockInput> = { init: () => FREE, step: lockStep, key: lockKey };

/**
 * The lock recipes of ZooKeeper and etcd are re-entrant (Curator's InterProcessMutex, etcd's
 * concurrency.Mutex): an acquire by the holder, whose znode or key still exists, is granted at
 * once with the token it already holds. Otherwise the same model.
 */
export const reentrantLockModel: Model<LockState, LockInput> = {
  init: () => FREE,
  step: (s, input) =>
    input.kind === 'acquire' &&
    input.result === 'granted' &&
    s.holder === input.client &&
    input.token === s.token &&
    s.token !== UNKNOWN_TOKEN
      ? s
      : lockStep(s, input),
  key: lockKey,
};

export type ExclusiveInput =
  | LockInput
  /** A write the store took: under strict mutual exclusion the writer holds its token right then. */
  | { readonly kind: 'write'; readonly client: string; readonly token: number | null };

/**
 * A resource under strict mutual exclusion: what people hope a lock gives them. A write takes
 * effect only while its writer holds the token it carries (writes the store refused have no
 * effect and are left out of this object).
 */
export const exclusiveModel: Model<LockState, ExclusiveInput> = {
  init: () => FREE,
  step: (s, input) => {
    if (input.kind !== 'write') return lockStep(s, input);
    return input.token !== null && s.holder === input.client && s.token === input.token ? s : null;
  },
  key: lockKey,
};

export type OrderInput =
  | { readonly kind: 'grant'; readonly client: string; readonly token: number }
  | { readonly kind: 'write'; readonly client: string; readonly token: number | null; readonly accepted: boolean };

export interface OrderState {
  /** Highest token accepted for this store key; 0 before any. */
  readonly highest: number;
  /** `client:token` of every grant linearized so far, sorted. */
  readonly granted: readonly string[];
}

/**
 * A resource under fencing order (the chapter's rule, "the resource rejects any token below the
 * highest it has accepted"): accepted tokens never go back, each was granted to its writer
 * before the write, and a refused write carried no token or one below the highest.
 */
export const orderModel: Model<OrderState, OrderInput> = {
  init: () => ({ highest: 0, granted: [] }),
  step: (s, input) => {
    if (input.kind === 'grant') {
      const g = `${input.client}:${input.token}`;
      return { highest: s.highest, granted: [...s.granted, g].sort() };
    }
    const t = input.token;
    if (!input.accepted) return t === null || t < s.highest ? s : null;
    if (t === null || t < s.highest || !s.granted.includes(`${input.client}:${t}`)) return null;
    return { highest: t, granted: s.granted };
  },
  key: (s) => `${s.highest}/${s.granted.join(',')}`,
};

export type RegisterInput = { readonly kind: 'put'; readonly value: string } | { readonly kind: 'get'; readonly value: string | null };

/** A register's state: the last value put (null before any), boxed because null means refused. */
export interface RegisterState {
  readonly value: string | null;
}

const EMPTY: RegisterState = { value: null };

/** The classic read/write register: a get returns the last value put (null before any). */
export const registerModel: Model<RegisterState, RegisterInput> = {
  init: () => EMPTY,
  step: (s, input) => (input.kind === 'put' ? { value: input.value } : input.value === s.value ? s : null),
  key: (s) => (s.value === null ? '\u0000' : 'v' + s.value),
};
