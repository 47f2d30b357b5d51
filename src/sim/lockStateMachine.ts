/**
 * The replicated lock table (shared/seeds/000). Every node applies committed commands in log
 * order; the fencing token is assigned here, at apply time, from one counter for the whole
 * service, so every node computes the same token for the same Grant.
 */
import type { ApplyResult, Command } from './types';

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

  reset(): void {
    this.locks.clear();
    this.nextToken = 1;
  }

  apply(command: Command, localNowMs: number, options: ApplyOptions = {}): ApplyResult {
    if (typeof command === 'string') return NOOP;
    switch (command.type) {
      case 'grant': {
        // Defensive: the leader refuses an acquire while the key is held, so this never
        // happens in the normal flow; a Grant that arrives anyway changes nothing.
        if (this.locks.has(command.key)) return { type: 'GrantRejected' };
        const token = this.nextToken++;
        this.locks.set(command.key, { owner: command.owner, token, leaseMs: command.leaseMs, grantedAtLocalMs: localNowMs });
        return { type: 'Granted', token };
      }
      case 'release': {
        if (!this.locks.has(command.key)) return { type: 'NotFound' };
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
}

const NOOP: ApplyResult = { type: 'Noop' };
