/**
 * The clients' history, as Jepsen records one: every operation a client invokes, when it was
 * invoked and completed (by the simulated clock), and the result the client saw. An operation
 * that never completed (the client crashed, or it is still waiting) keeps `completeMs: null`
 * and may or may not have taken effect. Recording only appends plain objects and fills in a
 * completion: it draws nothing, sends nothing and logs nothing, so a run is the same with it.
 *
 * Besides the clients' own operations the history holds the service's internal operations that
 * free a key (`client` = the node that proposed it), from proposal to first apply: the expiry of
 * a lease (`op: 'expire'`), and the release of a ghost lock (`op: 'ghost-release'`: the leader
 * granted a key to a client it could no longer reach, and let it go at once).
 */

export type HistoryOpKind = 'acquire' | 'release' | 'write' | 'expire' | 'ghost-release' | 'put' | 'get';

/** What the client saw: a lock-service answer, or whether a store took the write. */
export type HistoryResult = 'granted' | 'busy' | 'released' | 'not-found' | 'not-holder' | 'accepted' | 'refused' | 'expired' | 'ok';

export interface HistoryOp {
  readonly id: number;
  readonly client: string;
  readonly op: HistoryOpKind;
  /** The lock's key for acquire, release and expire; the store's key for a write. */
  readonly key: string;
  /** The value written (writes, puts), or the value a get returned (null: none, or not answered). */
  value: string | null;
  /** The token granted (acquire), named (release, expire) or stamped on the write; null if none. */
  token: number | null;
  /** The store a write went to (each store is its own object); null for the lock service. */
  readonly store: 'fenced' | 'unfenced' | null;
  /** The lock whose token a write carries (what the writer believed it held). */
  readonly lockKey: string | null;
  readonly invokeMs: number;
  completeMs: number | null;
  result: HistoryResult | null;
  /**
   * Position of the invocation and completion among all of this history's records: within one
   * simulated millisecond things still happen one after another, and the checker needs that order.
   */
  readonly invokeOrder: number;
  completeOrder: number | null;
  /** How a get was to be answered (reads feature, §6.4); present on gets only. */
  readonly readMode?: 'log' | 'read-index' | 'lease';
}

/** An append-only history; ids are positions in `ops`. */
export class History {
  readonly ops: HistoryOp[] = [];
  private order = 0;
  /** Per store and client: writes sent and not landed yet, oldest first. */
  private readonly inFlight = new Map<string, HistoryOp[]>();

  invoke(
    client: string,
    op: HistoryOpKind,
    key: string,
    nowMs: number,
    fields: Partial<Pick<HistoryOp, 'value' | 'token' | 'store' | 'lockKey' | 'readMode'>> = {},
  ): HistoryOp {
    const record: HistoryOp = {
      id: this.ops.length,
      client,
      op,
      key,
      value: fields.value ?? null,
      token: fields.token ?? null,
      store: fields.store ?? null,
      lockKey: fields.lockKey ?? null,
      invokeMs: nowMs,
      completeMs: null,
      result: null,
      invokeOrder: this.order++,
      completeOrder: null,
      // Only gets carry it, so every other operation's JSON is what it was before reads.
      ...(fields.readMode !== undefined ? { readMode: fields.readMode } : {}),
    };
    this.ops.push(record);
    return record;
  }

  complete(
    record: HistoryOp,
    nowMs: number,
    result: HistoryResult,
    token: number | null = record.token,
    value: string | null = record.value,
  ): void {
    if (record.completeMs !== null) return;
    record.completeMs = nowMs;
    record.value = value;
    record.completeOrder = this.order++;
    record.result = result;
    record.token = token;
    // Done for good: frozen, so a checkpoint's deep copy shares it instead of copying it.
    Object.freeze(record);
  }

  /** A client sends one write to a store: an operation until the store has taken or refused it. */
  writeSent(
    client: string,
    store: 'fenced' | 'unfenced',
    key: string,
    value: string,
    token: number | null,
    lockKey: string | null,
    nowMs: number,
  ): void {
    const record = this.invoke(client, 'write', key, nowMs, { value, token, store, lockKey });
    const slot = `${store} ${client}`;
    let list = this.inFlight.get(slot);
    if (!list) this.inFlight.set(slot, (list = []));
    list.push(record);
  }

  /**
   * A write landed at a store. Messages overtake each other, so it is matched by what it carries;
   * a duplicate delivered after its original has nothing left to match and is not an operation.
   */
  writeLanded(
    client: string,
    store: 'fenced' | 'unfenced',
    key: string,
    value: string,
    token: number | null,
    lockKey: string | null,
    accepted: boolean,
    nowMs: number,
  ): void {
    const list = this.inFlight.get(`${store} ${client}`);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const r = list[i];
      if (r.key === key && r.value === value && r.token === token && r.lockKey === lockKey) {
        list.splice(i, 1);
        this.complete(r, nowMs, accepted ? 'accepted' : 'refused');
        return;
      }
    }
  }
}

/** The plain form of an operation for `--json` and the worker. */
export interface HistoryOpJson {
  readonly id: number;
  readonly client: string;
  readonly op: HistoryOpKind;
  readonly key: string;
  readonly value: string | null;
  readonly token: number | null;
  readonly store: 'fenced' | 'unfenced' | null;
  readonly lockKey: string | null;
  readonly invokeMs: number;
  readonly completeMs: number | null;
  readonly result: HistoryResult | null;
  readonly invokeOrder: number;
  readonly completeOrder: number | null;
  readonly readMode?: 'log' | 'read-index' | 'lease';
}

export function historyJson(ops: readonly HistoryOp[]): HistoryOpJson[] {
  return ops.map((o) => ({ ...o }));
}
