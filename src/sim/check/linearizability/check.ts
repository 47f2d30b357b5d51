/**
 * A run's client history checked against each model, one object at a time
 * (P-compositionality: a history is linearizable iff each object's sub-history is, Herlihy &
 * Wing 1990): the lock service per lock key, each store under strict mutual exclusion per lock
 * key, each store under fencing order per store key. A model that fails names a minimal subset.
 */
import type { HistoryOpJson } from '../../model/history';
import {
  exclusiveModel,
  lockModel,
  reentrantLockModel,
  orderModel,
  registerModel,
  type ExclusiveInput,
  type LockInput,
  type OrderInput,
  type RegisterInput,
} from './models';
import { MAX_MEMO, linearize, type Budget, type CheckOp, type Model } from './search';
import { shrinkFailing } from './shrink';

/** What the checker reads of an operation: the history's plain form, where `invokeOrder`/`completeOrder` (which refine equal times) may be left out. */
export type CheckedOp = Omit<HistoryOpJson, 'invokeOrder' | 'completeOrder'> & {
  readonly invokeOrder?: number;
  readonly completeOrder?: number | null;
};

export const VERDICT_NAMES = ['locks', 'fenced', 'unfenced', 'fencedOrder', 'unfencedOrder', 'register'] as const;
export type VerdictName = (typeof VERDICT_NAMES)[number];

/**
 * Which failures are bugs. The lock service must always be linearizable, and the fenced store
 * must keep fencing order; strict mutual exclusion at either store, and order at the unfenced
 * one, are what a lease alone does not give: failures there are findings (the chapter's point).
 */
export const VERDICT_STAKES: Readonly<Record<VerdictName, 'violation' | 'finding'>> = {
  locks: 'violation',
  fencedOrder: 'violation',
  fenced: 'finding',
  unfenced: 'finding',
  unfencedOrder: 'finding',
  register: 'violation',
};

export type Verdict =
  | { readonly linearizable: true }
  | {
      readonly linearizable: false;
      /** Operation ids of a subset that cannot be linearized, in id order. */
      readonly subset: readonly number[];
      /** The object (key) it belongs to. */
      readonly key: string;
      /** False if the shrinking stopped at its budget: the subset fails but may not be minimal. */
      readonly minimal: boolean;
      /** register: the get in the subset that read a value it could not have (the stale read). */
      readonly staleRead?: number;
      /**
       * register: set when the stale read was a lease read (§6.4.1). A lease relies on bounded
       * clock drift, so this failure is a finding, not a violation; log and ReadIndex reads have
       * no such excuse.
       */
      readonly leaseRead?: true;
    }
  | { readonly linearizable: 'unknown'; readonly reason: string }
  | { readonly linearizable: 'n/a'; readonly reason: string };

export type LinearizabilityReport = Partial<Record<VerdictName, Verdict>>;

export interface CheckOptions {
  /** Search steps per model (default 2,000,000): deterministic, so a run's verdict is too. */
  readonly steps?: number;
  /** Outside the pure core: a clock in ms and a time limit per model. */
  readonly clock?: () => number;
  readonly timeLimitMs?: number;
  /**
   * Shrink only the failures that are violations (the fuzzer counts findings and needs no subset
   * for them): a finding then names every operation the search looked at, `minimal: false`.
   */
  readonly shrinkFindingsToo?: boolean;
  /** The service's lock recipe is re-entrant (ZooKeeper, etcd): the holder's acquire is granted with its own token. */
  readonly reentrant?: boolean;
}

interface Part<I> {
  readonly key: string;
  readonly ops: CheckOp<I>[];
  readonly needs: Map<number, number[]>;
  readonly fixed: Set<number>;
  /** Fixed operations a subset keeps only with the grant they concern. */
  readonly grantOf: Map<number, number>;
}

const DEFAULT_STEPS = 2_000_000;

function callOf(o: CheckedOp): number {
  return o.invokeOrder ?? o.invokeMs;
}
function retOf(o: CheckedOp): number | null {
  // An expiry may take effect at any point after the leader's clock ended the lease (the issue's
  // model): its first apply is recorded, but only the next grant pins it down. So a stale write
  // is shown against the grant that made it stale, not against the expiry alone.
  if (o.completeMs === null || o.op === 'expire' || o.op === 'ghost-release') return null;
  return o.completeOrder ?? o.completeMs;
}

function lockInput(o: CheckedOp): LockInput {
  // A ghost lock's release frees the key from the token it names, as an expiry does.
  if (o.op === 'expire' || o.op === 'ghost-release') return { kind: 'expire', token: o.token as number };
  if (o.op === 'acquire') {
    const result = o.result === 'granted' || o.result === 'busy' ? o.result : null;
    return { kind: 'acquire', client: o.client, result, token: result === 'granted' ? o.token : null };
  }
  const r = o.result;
  const result = r === 'released' || r === 'not-found' || r === 'not-holder' || r === 'busy' ? r : null;
  return { kind: 'release', client: o.client, result, token: o.token };
}

function newPart<I>(key: string): Part<I> {
  return { key, ops: [], needs: new Map(), fixed: new Set(), grantOf: new Map() };
}

function partOf<I>(parts: Map<string, Part<I>>, key: string): Part<I> {
  let p = parts.get(key);
  if (!p) parts.set(key, (p = newPart<I>(key)));
  return p;
}

/**
 * (Lock key, token) → the acquire that was told it was granted that token for that key. By key,
 * because a token need only be unique per lock: the chapter's counter and ZooKeeper's zxid are
 * global, but the database's row version counts per key (issue 26), so two keys' grants can carry
 * the same number.
 */
type Grants = Map<string, CheckedOp>;
const grantSlot = (lockKey: string | null, token: number): string => `${lockKey ?? ''}\u0000${token}`;
function grantOf(grants: Grants, lockKey: string | null, token: number | null): CheckedOp | undefined {
  return token === null ? undefined : grants.get(grantSlot(lockKey, token));
}

function grantsByToken(ops: readonly CheckedOp[]): Grants {
  const out: Grants = new Map();
  // The first acquire told it: a re-entrant acquire (ZooKeeper, etcd) is told its own token again, later.
  for (const o of ops) {
    if (o.op !== 'acquire' || o.result !== 'granted' || o.token === null) continue;
    const slot = grantSlot(o.key, o.token);
    if (!out.has(slot)) out.set(slot, o);
  }
  return out;
}

/** The lock operations of one key, shared by the lock model and the strict-exclusion models. */
function addLockOp<I>(p: Part<I>, o: CheckedOp, grants: Grants, input: I): void {
  p.ops.push({ id: o.id, input, call: callOf(o), ret: retOf(o) });
  if (o.op === 'release' && (o.result === 'not-found' || o.result === 'not-holder')) {
    // A retried release is several requests: one copy may have freed the key before the copy
    // that was answered found it free or taken. That copy's effect is optional, as a pending op's.
    // Not so for busy ("not released"): the leader never answers a release busy (lockService.ts),
    // so a busy release that freed the key all the same is a broken promise, not an earlier copy.
    const copy: LockInput = { kind: 'release', client: o.client, result: null, token: o.token };
    p.ops.push({ id: o.id, input: copy as I, call: callOf(o), ret: null });
  }
  if (o.op === 'expire' || o.op === 'ghost-release') {
    p.fixed.add(o.id);
    const g = grantOf(grants, o.key, o.token);
    if (g !== undefined) p.grantOf.set(o.id, g.id);
  } else if (o.op === 'release' && o.result === 'released' && o.token !== null) {
    const g = grantOf(grants, o.key, o.token);
    if (g !== undefined) p.needs.set(o.id, [g.id]);
  }
}

/**
 * The operations of the lock table: acquires, releases and the service's own frees. The engine
 * keeps the key-value map beside the lock table, not in it (`lockStateMachine.ts`), so a put or
 * get of a key that is also a lock's name is another object's operation and never a release.
 */
function isLockOp(o: CheckedOp): boolean {
  return o.op === 'acquire' || o.op === 'release' || o.op === 'expire' || o.op === 'ghost-release';
}

function lockParts(ops: readonly CheckedOp[], grants: Grants): Part<LockInput>[] {
  const parts = new Map<string, Part<LockInput>>();
  for (const o of ops) if (isLockOp(o)) addLockOp(partOf(parts, o.key), o, grants, lockInput(o));
  return [...parts.values()];
}

function exclusiveParts(ops: readonly CheckedOp[], grants: Grants, store: 'fenced' | 'unfenced'): Part<ExclusiveInput>[] {
  const parts = new Map<string, Part<ExclusiveInput>>();
  for (const o of ops) if (isLockOp(o)) addLockOp(partOf(parts, o.key), o, grants, lockInput(o));
  for (const o of ops) {
    // Only writes the store took have an effect; a refused or lost write constrains nothing.
    if (o.op !== 'write' || o.store !== store || o.result !== 'accepted') continue;
    const p = partOf(parts, o.lockKey ?? '(no lock)');
    p.ops.push({ id: o.id, input: { kind: 'write', client: o.client, token: o.token }, call: callOf(o), ret: retOf(o) });
    const g = grantOf(grants, o.lockKey, o.token);
    if (g !== undefined) p.needs.set(o.id, [g.id]);
  }
  return [...parts.values()].filter((p) => p.ops.some((op) => op.input.kind === 'write'));
}

function orderParts(ops: readonly CheckedOp[], grants: Grants, store: 'fenced' | 'unfenced'): Part<OrderInput>[] {
  const parts = new Map<string, Part<OrderInput>>();
  for (const o of ops) {
    if (o.op !== 'write' || o.store !== store || o.completeMs === null) continue;
    const p = partOf(parts, o.key);
    p.ops.push({
      id: o.id,
      input: { kind: 'write', client: o.client, token: o.token, accepted: o.result === 'accepted' },
      call: callOf(o),
      ret: retOf(o),
    });
    const g = grantOf(grants, o.lockKey, o.token);
    if (g === undefined) continue;
    p.needs.set(o.id, [g.id]);
    // The grant is a fact this object reads (its own copy): was the token granted to the writer yet?
    if (!p.ops.some((x) => x.id === g.id)) {
      p.ops.push({ id: g.id, input: { kind: 'grant', client: g.client, token: g.token as number }, call: callOf(g), ret: retOf(g) });
    }
  }
  return [...parts.values()];
}

function checkParts<S, I>(model: Model<S, I>, parts: readonly Part<I>[], options: CheckOptions, shrink = true): Verdict {
  const steps = options.steps ?? DEFAULT_STEPS;
  const budget: Budget =
    options.clock !== undefined && options.timeLimitMs !== undefined
      ? { steps, clock: options.clock, deadline: options.clock() + options.timeLimitMs }
      : { steps };
  let unknown = false;
  const sorted = [...parts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const part of sorted) {
    const r = linearize(model, part.ops, budget);
    if (r.result === 'unknown') {
      unknown = true;
      break;
    }
    if (r.result === 'fail' && !shrink) {
      const seen = part.ops.filter((o) => o.call <= r.reach).map((o) => o.id);
      return { linearizable: false, subset: [...new Set(seen)].sort((a, b) => a - b), key: part.key, minimal: false };
    }
    if (r.result === 'fail') {
      const shrinkBudget: Budget =
        options.clock !== undefined && options.timeLimitMs !== undefined
          ? { steps, clock: options.clock, deadline: options.clock() + options.timeLimitMs }
          : { steps };
      const shrunk = shrinkFailing(model, part.ops, r.reach, part.needs, part.fixed, shrinkBudget);
      // A retried release sits in the search twice (its answer and its earlier copy's effect): one id.
      const kept = new Set(shrunk.ids);
      // An expiry explains a subset only next to the grant whose lease it ended.
      const subset = [...kept].filter((id) => !part.fixed.has(id) || kept.has(part.grantOf.get(id) ?? -1));
      return { linearizable: false, subset: subset.sort((a, b) => a - b), key: part.key, minimal: shrunk.minimal };
    }
  }
  if (unknown) {
    const timed = budget.clock !== undefined && budget.deadline !== undefined && budget.clock() >= budget.deadline;
    return {
      linearizable: 'unknown',
      reason: timed
        ? `the search reached its time limit of ${options.timeLimitMs} ms`
        : budget.steps > 0
          ? `the search reached its limit of ${MAX_MEMO.toLocaleString('en-US')} remembered configurations`
          : `the search gave up after ${steps.toLocaleString('en-US')} steps`,
    };
  }
  return { linearizable: true };
}

/**
 * The key-value map's operations per key (reads feature, §6.4): every put (one never answered
 * may have taken effect or not) and every answered get. A retried put applies once (§6.3's
 * sessions), so each put is one operation.
 */
function registerParts(ops: readonly CheckedOp[]): Part<RegisterInput>[] {
  const parts = new Map<string, Part<RegisterInput>>();
  for (const o of ops) {
    if (o.op === 'put') {
      partOf(parts, o.key).ops.push({ id: o.id, input: { kind: 'put', value: o.value ?? '' }, call: callOf(o), ret: retOf(o) });
    } else if (o.op === 'get' && o.completeMs !== null) {
      partOf(parts, o.key).ops.push({ id: o.id, input: { kind: 'get', value: o.value }, call: callOf(o), ret: retOf(o) });
    }
  }
  return [...parts.values()];
}

/** The register verdict, naming the stale read in a failing subset and whether it was a lease read. */
function checkRegister(ops: readonly CheckedOp[], options: CheckOptions): Verdict {
  const parts = registerParts(ops);
  if (parts.length === 0) return { linearizable: 'n/a', reason: 'this run has no put or get operations' };
  const verdict = checkParts(registerModel, parts, options);
  if (verdict.linearizable !== false) return verdict;
  const byId = new Map<number, CheckedOp>();
  for (const o of ops) byId.set(o.id, o);
  // The stale read: the subset's get answered last (the earlier ones are what made it stale).
  let stale: CheckedOp | null = null;
  for (const id of verdict.subset) {
    const o = byId.get(id);
    if (o !== undefined && o.op === 'get' && (stale === null || (retOf(o) ?? 0) > (retOf(stale) ?? 0))) stale = o;
  }
  if (stale === null) return verdict;
  return { ...verdict, staleRead: stale.id, ...(stale.readMode === 'lease' ? { leaseRead: true as const } : {}) };
}

/** Whether a failed verdict is a violation or a finding: its model's stake, less a lease read's (§6.4.1). */
export function verdictStake(name: VerdictName, verdict: Verdict | undefined): 'violation' | 'finding' {
  if (verdict !== undefined && verdict.linearizable === false && verdict.leaseRead === true) return 'finding';
  return VERDICT_STAKES[name];
}

/** Every verdict for one history. `register` is n/a in a run without put or get. */
export function checkHistory(ops: readonly CheckedOp[], options: CheckOptions = {}): LinearizabilityReport {
  const grants = grantsByToken(ops);
  const findings = options.shrinkFindingsToo ?? true;
  return {
    locks: checkParts(options.reentrant === true ? reentrantLockModel : lockModel, lockParts(ops, grants), options),
    fenced: checkParts(exclusiveModel, exclusiveParts(ops, grants, 'fenced'), options, findings),
    unfenced: checkParts(exclusiveModel, exclusiveParts(ops, grants, 'unfenced'), options, findings),
    fencedOrder: checkParts(orderModel, orderParts(ops, grants, 'fenced'), options),
    unfencedOrder: checkParts(orderModel, orderParts(ops, grants, 'unfenced'), options, findings),
    register: checkRegister(ops, options),
  };
}

/** The verdicts that are violations (the service or the fenced store broke its promise). */
export function violatedVerdicts(report: LinearizabilityReport): VerdictName[] {
  return VERDICT_NAMES.filter((name) => verdictStake(name, report[name]) === 'violation' && report[name]?.linearizable === false);
}
