/**
 * Multi-Paxos's replicated state machine (Paxos Made Simple §3: "a collection of servers, each
 * independently implementing the state machine, executes the commands in the order chosen"): a
 * key-value map that applies learned slots in slot order and never past a gap. A command is
 * `key=value` (as Raft's submit takes); a no-op, filling a gap after a leader change, changes
 * nothing. The lock service stays on Raft: its service/ wing is written against Raft's cluster.
 */
import { NOOP_VALUE } from './proposer';

export class SlotMachine {
  /** The last slot applied. */
  applied = 0;
  readonly values = new Map<string, string>();

  /** Applies `value`, the command of slot `applied + 1`. */
  apply(value: string): void {
    this.applied++;
    if (value === NOOP_VALUE) return;
    const eq = value.indexOf('=');
    if (eq > 0) this.values.set(value.slice(0, eq), value.slice(eq + 1));
  }

  /** `x=1, y=2` in key order, or `empty`. */
  text(): string {
    if (this.values.size === 0) return 'empty';
    return [...this.values]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
  }

  reset(): void {
    this.applied = 0;
    this.values.clear();
  }
}
