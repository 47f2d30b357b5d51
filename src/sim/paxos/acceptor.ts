/**
 * A Paxos acceptor (Paxos Made Simple §2.2, phases 1b and 2b). Its two rules:
 * - P1a: it accepts a proposal numbered n unless it has responded to a prepare request numbered
 *   greater than n;
 * - it promises (answers a Prepare) only a ballot greater than any it promised before.
 * `promised` and `accepted` are its stable storage (§2.3: "an acceptor must remember this
 * information even if it fails and then restarts"); the node keeps them across a restart. One
 * promise covers every slot (Multi-Paxos §3: a Prepare names the first slot it is for and
 * stands for all later ones), and each slot keeps the last value accepted in it.
 */
import { NO_BALLOT, type Ballot } from '../model/ballot';
import type { PaxosAcceptedValue } from '../model/types';

export type PrepareAnswer =
  | { readonly ok: true; readonly previous: Ballot; readonly accepted: readonly PaxosAcceptedValue[] }
  | { readonly ok: false; readonly promised: Ballot };

export class Acceptor {
  /** The highest ballot promised (NO_BALLOT: none yet). */
  promised: Ballot = NO_BALLOT;
  /** Per slot, the highest-ballot proposal accepted there. */
  readonly accepted = new Map<number, { readonly ballot: Ballot; readonly value: string }>();

  /** Phase 1b: promise `ballot` for every slot from `fromSlot` on, reporting what was accepted there. */
  prepare(ballot: Ballot, fromSlot: number): PrepareAnswer {
    if (ballot <= this.promised) return { ok: false, promised: this.promised };
    const previous = this.promised;
    this.promised = ballot;
    const accepted: PaxosAcceptedValue[] = [];
    for (const [slot, a] of this.accepted) if (slot >= fromSlot) accepted.push({ slot, ballot: a.ballot, value: a.value });
    accepted.sort((x, y) => x.slot - y.slot);
    return { ok: true, previous, accepted };
  }

  /**
   * Phase 2b: accept `value` in `slot` at `ballot` unless a higher ballot was promised (true when
   * accepted). `belowPromise` is the bug paxos-accept-below-promise: it accepts anyway.
   */
  accept(ballot: Ballot, slot: number, value: string, belowPromise: boolean): boolean {
    if (ballot < this.promised && !belowPromise) return false;
    if (ballot > this.promised) this.promised = ballot; // accepting n promises n too
    this.accepted.set(slot, { ballot, value });
    return true;
  }

  /** The bug paxos-forget-promise: a restart that kept nothing on stable storage. */
  forget(): void {
    this.promised = NO_BALLOT;
    this.accepted.clear();
  }

  /** The highest ballot among the values accepted from `fromSlot` on (NO_BALLOT: none). */
  highestAccepted(fromSlot = 1): Ballot {
    let best = NO_BALLOT;
    for (const [slot, a] of this.accepted) if (slot >= fromSlot && a.ballot > best) best = a.ballot;
    return best;
  }
}
