/**
 * A Paxos learner (Paxos Made Simple §2.3): a value is chosen once a majority of acceptors
 * accepted it in one ballot, and a learner learns it when it hears so — from the acceptors'
 * Accepted messages (single-decree: every acceptor tells every learner), or from the
 * distinguished learner, the Multi-Paxos leader, which names the chosen slots in its next Accept.
 * What it learned is volatile, like Raft's commit index: a restarted node learns it again.
 */
import type { Ballot } from '../model/ballot';

interface Tally {
  readonly value: string;
  readonly acceptors: string[];
}

export class Learner {
  /** Slot → the value learned there. */
  readonly chosen = new Map<number, string>();
  /** The end of the unbroken run of learned slots from slot 1 (0: none). */
  learnedThrough = 0;
  /** Per slot and ballot, who said they accepted what (dropped once the slot is learned). */
  private readonly tallies = new Map<number, Map<Ballot, Tally>>();

  /**
   * An acceptor says it accepted `value` in `slot` at `ballot`: the acceptors that make the
   * majority when this one completes it (the slot is then learned), else null.
   */
  heard(acceptor: string, ballot: Ballot, slot: number, value: string, majority: number): readonly string[] | null {
    if (this.chosen.has(slot)) return null;
    let bySlot = this.tallies.get(slot);
    if (bySlot === undefined) this.tallies.set(slot, (bySlot = new Map()));
    let tally = bySlot.get(ballot);
    if (tally === undefined) bySlot.set(ballot, (tally = { value, acceptors: [] }));
    if (tally.acceptors.includes(acceptor)) return null;
    tally.acceptors.push(acceptor);
    if (tally.acceptors.length < majority) return null;
    this.learn(slot, tally.value);
    return [...tally.acceptors].sort();
  }

  learn(slot: number, value: string): void {
    this.chosen.set(slot, value);
    this.tallies.delete(slot);
    while (this.chosen.has(this.learnedThrough + 1)) this.learnedThrough++;
  }

  /** The first slot not learned: where a new leader's Prepare starts (Multi-Paxos §3). */
  firstUnlearned(): number {
    return this.learnedThrough + 1;
  }

  /** The highest slot learned (0: none). */
  highestLearned(): number {
    let top = 0;
    for (const slot of this.chosen.keys()) if (slot > top) top = slot;
    return top;
  }

  forget(): void {
    this.chosen.clear();
    this.tallies.clear();
    this.learnedThrough = 0;
  }
}
