/**
 * The proposer's one decision (Paxos Made Simple §2.2, P2c): with promises for ballot n from a
 * majority, it must propose, in each slot, the value of the highest-numbered proposal any of
 * those acceptors accepted there — and may choose freely only where none did. A Multi-Paxos
 * leader makes it for every slot from the first it has not learned (§3), filling a slot no
 * promise mentions below the highest one mentioned with a no-op.
 */
import type { Ballot } from '../model/ballot';
import type { PaxosAcceptedValue } from '../model/types';

/** The value a no-op slot carries; the state machine skips it. */
export const NOOP_VALUE = 'no-op';

export interface SlotChoice {
  readonly slot: number;
  readonly value: string;
  /** Where the value comes from: a promise's accepted value, a no-op for a gap, or free. */
  readonly source: 'adopted' | 'gap' | 'free';
  /** For `adopted`: the ballot it was accepted in and the acceptor whose promise carried it. */
  readonly from: Ballot;
  readonly acceptor: string;
}

/**
 * For every slot from `fromSlot` to the highest any promise names, what P2c lets the proposer
 * send: the highest-ballot accepted value (`adopted`), or a no-op where no promise carries one
 * (`gap`). Promises are visited in `order` (node order), so ties cannot happen (a ballot has one
 * value per slot) and the result never depends on arrival order.
 */
export function valuesToPropose(
  promises: ReadonlyMap<string, readonly PaxosAcceptedValue[]>,
  order: readonly string[],
  fromSlot: number,
): SlotChoice[] {
  const best = new Map<number, { ballot: Ballot; value: string; acceptor: string }>();
  let top = fromSlot - 1;
  for (const id of order) {
    const accepted = promises.get(id);
    if (accepted === undefined) continue;
    for (const a of accepted) {
      if (a.slot < fromSlot) continue;
      if (a.slot > top) top = a.slot;
      const held = best.get(a.slot);
      if (held === undefined || a.ballot > held.ballot) best.set(a.slot, { ballot: a.ballot, value: a.value, acceptor: id });
    }
  }
  const out: SlotChoice[] = [];
  for (let slot = fromSlot; slot <= top; slot++) {
    const held = best.get(slot);
    out.push(
      held !== undefined
        ? { slot, value: held.value, source: 'adopted', from: held.ballot, acceptor: held.acceptor }
        : { slot, value: NOOP_VALUE, source: 'gap', from: 0, acceptor: '' },
    );
  }
  return out;
}
