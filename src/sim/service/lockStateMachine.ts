/**
 * The replicated lock table (shared/seeds/000). Every node applies committed commands in log
 * order; the fencing token is assigned here, at apply time, from one counter for the whole
 * service, so every node computes the same token for the same Grant.
 */
import { isLockCommand, type ApplyResult, type Command, type SnapshotState, type KvCommand } from '../model/types';

export type { ApplyResult };

export interface LockHolder {
  readonly owner: string;
  readonly token: number;
  readonly leaseMs: number;
  /** The applying node's local clock reading when it applied the Grant (for lease countdowns). */
  readonly grantedAtLocalMs: number;
}

export interface ApplyOptions {
  /** Bug `expire-any-token`: an Expire removes the lock whatever token it names. */
  readonly expireAnyToken?: boolean;
}

export class LockStateMachine {
  readonly locks = new Map<string, LockHolder>();
  /** The token the next Grant receives; starts at 1 and never repeats. */
  nextToken = 1;
  /** Reads (§6.4): the replicated key-value map, next to the lock table. */
  readonly kv = new Map<string, string>();
  /** Per client, the newest put request applied (§6.3): a retried copy of it applies once. */
  private readonly lastPut = new Map<string, number>();

  reset(): void {
    this.locks.clear();
    this.nextToken = 1;
    this.kv.clear();
    this.lastPut.clear();
  }

  /** Snapshots (§5): the table and token counter, frozen, to keep in a snapshot (keys in order). */
  snapshotState(): SnapshotState {
    const locks = [...this.locks]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, h]) => Object.freeze({ key, owner: h.owner, token: h.token, leaseMs: h.leaseMs }));
    if (this.kv.size === 0 && this.lastPut.size === 0) return Object.freeze({ locks: Object.freeze(locks), nextToken: this.nextToken });
    const kv = [...this.kv].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => Object.freeze({ key, value }));
    const lastPut = [...this.lastPut]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([client, requestId]) => Object.freeze({ client, requestId }));
    return Object.freeze({
      locks: Object.freeze(locks),
      nextToken: this.nextToken,
      kv: Object.freeze(kv),
      lastPut: Object.freeze(lastPut),
    });
  }

  /**
   * Snapshots: becomes a snapshot's state. A lease's countdown starts again at `localNowMs` (the
   * node cannot know when another node applied the Grant), so it only ever ends later: the safe side.
   */
  restore(state: SnapshotState | null, localNowMs: number): void {
    this.reset();
    if (state === null) return;
    for (const l of state.locks)
      this.locks.set(l.key, { owner: l.owner, token: l.token, leaseMs: l.leaseMs, grantedAtLocalMs: localNowMs });
    this.nextToken = state.nextToken;
    for (const { key, value } of state.kv ?? []) this.kv.set(key, value);
    for (const { client, requestId } of state.lastPut ?? []) this.lastPut.set(client, requestId);
  }

  apply(command: Command, localNowMs: number, options: ApplyOptions = {}): ApplyResult {
    if (typeof command !== 'string' && (command.type === 'put' || command.type === 'get')) return this.applyKv(command);
    // Plain commands and a leader's no-op (§8) change no lock.
    if (!isLockCommand(command)) return NOOP;
    switch (command.type) {
      case 'grant': {
        const current = this.locks.get(command.key);
        // Defensive: the leader refuses an acquire while another client holds the key, so this
        // never happens in the normal flow; a Grant that arrives anyway changes nothing.
        if (current !== undefined && current.owner !== command.owner) return { type: 'GrantRejected' };
        // A Grant to the holder renews: a new token and a lease counted from this apply, so the
        // holder's lease (counted from its request, which came first) never outlasts the service's.
        // A renewal never shortens the lease: the holder may still count on the old one.
        const left = current === undefined ? 0 : current.grantedAtLocalMs + current.leaseMs - localNowMs;
        const leaseMs = left > command.leaseMs ? left : command.leaseMs;
        const token = this.nextToken++;
        this.locks.set(command.key, { owner: command.owner, token, leaseMs, grantedAtLocalMs: localNowMs });
        return { type: 'Granted', token };
      }
      case 'release': {
        const current = this.locks.get(command.key);
        if (current === undefined) return { type: 'NotFound' };
        // Only the holder frees a lock, and only the grant it names: a late or misdirected
        // release cannot remove someone else's lock (the same guard as Expire's token).
        if (current.owner !== command.owner || (command.token !== null && command.token !== current.token)) {
          return { type: 'NotHolder', holder: current.owner, token: current.token };
        }
        this.locks.delete(command.key);
        return { type: 'Released' };
      }
      case 'expire': {
        const current = this.locks.get(command.key);
        // The token check makes Expire idempotent: a late Expire cannot remove a fresh grant.
        if (current === undefined || (current.token !== command.token && !options.expireAnyToken)) {
          return { type: 'Expired', existed: false };
        }
        this.locks.delete(command.key);
        return { type: 'Expired', existed: true };
      }
    }
  }

  private applyKv(command: KvCommand): ApplyResult {
    if (command.type === 'get') return { type: 'Got', value: this.kv.get(command.key) ?? null };
    const last = this.lastPut.get(command.client) ?? 0;
    if (command.requestId > last) {
      this.lastPut.set(command.client, command.requestId);
      this.kv.set(command.key, command.value);
    }
    return PUT;
  }
}

const NOOP: ApplyResult = { type: 'Noop' };
const PUT: ApplyResult = { type: 'Put' };
