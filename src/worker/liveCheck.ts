/**
 * The live invariant check: a separate copy of the viewed run, advanced to the timeline's horizon
 * in slices between frames, with every invariant checked after every millisecond. A run is a pure
 * function of its inputs, so what this copy finds is exactly what the viewed run does.
 */
import type { SimConfig } from '../sim/model/config';
import { attachInvariants, type InvariantChecker, type Violation } from '../sim/check/invariants';
import type { Action } from '../sim/model/schedule';
import { PaxosInvariantChecker, attachPaxosInvariants } from '../sim/check/paxosInvariants';
import { PaxosSimulation } from '../sim/run/paxosSimulation';
import { newRun, type AnyRun } from '../sim/run/run';
import { TraceRecorder } from '../sim/view/traceRecorder';
import type { CheckStatus, ViolationView } from './protocol';

export function violationView(v: Violation): ViolationView {
  return { invariant: v.invariant, title: v.title, t: v.t, nodes: [...v.nodes], sentence: v.sentence, line: v.line };
}

export class LiveCheck {
  private readonly sim: AnyRun;
  /** Raft's checker, or (a Paxos run) the Paxos family's, which has no findings or liveness. */
  private readonly checker: InvariantChecker | PaxosInvariantChecker;
  /** The trace of this copy of the run, for the space-time view (it only observes). */
  readonly recorder: TraceRecorder;
  private last: CheckStatus | null = null;
  /** The engine threw: the checker recorded it as a violation, and this copy goes no further. */
  private crashed = false;

  constructor(config: SimConfig, schedule: readonly Action[]) {
    const sim = newRun(config, schedule);
    this.sim = sim;
    this.checker =
      sim instanceof PaxosSimulation ? attachPaxosInvariants(sim, { maxViolations: 1 }) : attachInvariants(sim, { maxViolations: 1 });
    this.recorder = TraceRecorder.attach(this.sim);
  }

  get checkedToMs(): number {
    return this.sim.nowMs;
  }

  /**
   * The schedule changed from the time `changedAt` on. If this copy has not reached it yet only
   * its future differs and it carries on; otherwise a fresh check starts.
   */
  follow(config: SimConfig, schedule: readonly Action[], changedAt: number): LiveCheck {
    if (this.sim.nowMs < changedAt && !this.crashed) {
      this.sim.replaceFutureActions(schedule);
      return this;
    }
    return new LiveCheck(config, schedule);
  }

  /** Checks towards `targetMs` until `clock()` passes `deadline`; true if it checked anything. */
  advance(targetMs: number, deadline: number, clock: () => number): boolean {
    const sim = this.sim;
    if (this.crashed || sim.nowMs >= targetMs) return false;
    try {
      while (sim.nowMs < targetMs) {
        sim.step();
        if ((sim.nowMs & 15) === 0 && clock() > deadline) break;
      }
    } catch (error) {
      this.crashed = true;
      this.checker.recordCrash(error);
    }
    return true;
  }

  /** The verdict so far; the same object while nothing changed, so the host can skip it. */
  status(): CheckStatus {
    const checker = this.checker;
    const first = checker.first;
    const raft = checker instanceof PaxosInvariantChecker ? null : checker;
    const stale = raft?.findings.length ?? 0;
    const early = raft?.leaseFindings.length ?? 0;
    const live = raft?.liveness ?? { state: 'idle' as const, note: '' };
    const last = this.last;
    if (
      last &&
      last.checkedToMs === this.sim.nowMs &&
      last.staleWrites === stale &&
      (last.leasesEndedEarly ?? 0) === early &&
      (last.liveness?.state ?? 'idle') === live.state &&
      (last.violation === null) === (first === null)
    ) {
      return last;
    }
    return (this.last = {
      checkedToMs: this.sim.nowMs,
      violation: first ? violationView(first) : null,
      staleWrites: stale,
      ...(early > 0 ? { leasesEndedEarly: early } : {}),
      ...(live.state !== 'idle' ? { liveness: { state: live.state, note: live.note } } : {}),
    });
  }
}
