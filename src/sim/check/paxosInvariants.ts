/**
 * The Paxos family's invariants (features/paxos.ts names them), checked as the run goes, outside
 * node code (DESIGN.md, convention 3). The checker keeps its own account of what is chosen — a
 * value accepted by a majority of acceptors in one ballot (Paxos Made Simple §2.1) — from every
 * acceptance the cluster reports, so it never trusts what a learner claims:
 *
 * - paxos-one-value: at most one value is chosen in each slot (§2.1, the safety requirement);
 * - paxos-promise-kept: an acceptor never accepts a ballot below the one it promised (P1a);
 * - paxos-chosen-stays: once v is chosen at ballot b, every acceptance at a higher ballot in that
 *   slot is of v (P2b, which is what keeps a chosen value chosen);
 * - paxos-learned-chosen: a learner learns only the value chosen in that slot (§2.3);
 * - paxos-engine-crash: the engine never throws.
 */
import type { Ballot } from '../model/ballot';
import { invariant as sayRaft } from '../model/describe';
import { paxosInvariant as say } from '../model/describePaxos';

const sayLine = sayRaft.line;
import type { PaxosInvariantId } from '../model/features';
import { majorityOf } from '../model/majority';
import { formatSchedule } from '../model/schedule';
import type { PaxosCluster } from '../net/paxosCluster';
import type { PaxosNode } from '../paxos/node';
import type { PaxosSimulation } from '../run/paxosSimulation';
import type { Violation } from './invariants';

export interface PaxosCheckerOptions {
  /** Stop recording after this many violations (default: 20). */
  readonly maxViolations?: number;
}

interface ChosenValue {
  readonly value: string;
  readonly ballot: Ballot;
}

export class PaxosInvariantChecker {
  readonly violations: Violation[] = [];
  private readonly cluster: PaxosCluster;
  private readonly majority: number;
  private readonly maxViolations: number;
  /** slot → ballot → the value and the acceptors that accepted it in that ballot. */
  private readonly tallies = new Map<number, Map<Ballot, { value: string; acceptors: Set<string> }>>();
  /** slot → the first value chosen there. */
  readonly chosen = new Map<number, ChosenValue>();

  constructor(
    private readonly run: PaxosSimulation,
    options: PaxosCheckerOptions = {},
  ) {
    this.cluster = run.cluster;
    this.majority = majorityOf(this.cluster.nodeIds.length);
    this.maxViolations = options.maxViolations ?? 20;
  }

  attach(): this {
    this.cluster.addObserver({
      accepted: (node, slot, ballot, value, before) => this.onAccepted(node, slot, ballot, value, before),
      learned: (node, slot, value) => this.onLearned(node, slot, value),
    });
    return this;
  }

  get first(): Violation | null {
    return this.violations[0] ?? null;
  }

  private onAccepted(node: PaxosNode, slot: number, ballot: Ballot, value: string, promisedBefore: Ballot): void {
    if (ballot < promisedBefore)
      this.violate('paxos-promise-kept', [node.id], say.belowPromise(node.id, slot, ballot, value, promisedBefore), slot);
    const held = this.chosen.get(slot);
    if (held !== undefined && ballot > held.ballot && value !== held.value)
      this.violate('paxos-chosen-stays', [node.id], say.chosenChanged(slot, held.value, held.ballot, node.id, value, ballot), slot);
    let bySlot = this.tallies.get(slot);
    if (bySlot === undefined) this.tallies.set(slot, (bySlot = new Map()));
    let tally = bySlot.get(ballot);
    if (tally === undefined) bySlot.set(ballot, (tally = { value, acceptors: new Set() }));
    // One ballot proposes one value per slot; a buggy proposer could still send two (the checker counts the first).
    if (tally.value !== value) return;
    tally.acceptors.add(node.id);
    if (tally.acceptors.size < this.majority) return;
    if (held === undefined) this.chosen.set(slot, { value, ballot });
    else if (held.value !== value && tally.acceptors.size === this.majority) {
      const who = this.cluster.nodeIds.filter((id) => tally.acceptors.has(id));
      this.violate('paxos-one-value', who, say.twoValues(slot, held.value, held.ballot, value, ballot, who), slot);
    }
  }

  private onLearned(node: PaxosNode, slot: number, value: string): void {
    const held = this.chosen.get(slot);
    if (held === undefined || held.value !== value)
      this.violate('paxos-learned-chosen', [node.id], say.learnedUnchosen(node.id, slot, value, held?.value ?? null), slot);
  }

  recordCrash(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.violate('paxos-engine-crash', [], say.engineThrew(text));
  }

  /** Invariant and slot pairs already reported: one report each (the same rule broken again in a slot adds nothing). */
  private readonly reported = new Set<string>();

  private violate(id: PaxosInvariantId, nodes: readonly string[], sentence: string, slot = 0): void {
    if (this.violations.length >= this.maxViolations) return;
    const key = `${id}:${slot}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const t = this.cluster.nowMs;
    const title = say.titles[id];
    const actions = this.run.schedule.slice(0, this.run.appliedCount);
    this.violations.push({
      invariant: id,
      title,
      t,
      nodes: [...new Set(nodes)],
      sentence,
      line: sayLine(t, title, sentence),
      config: this.cluster.config,
      schedule: formatSchedule(actions),
      untilMs: t,
    });
  }
}

export function attachPaxosInvariants(run: PaxosSimulation, options: PaxosCheckerOptions = {}): PaxosInvariantChecker {
  return new PaxosInvariantChecker(run, options).attach();
}
