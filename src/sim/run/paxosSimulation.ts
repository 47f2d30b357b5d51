/**
 * A Paxos run: a PaxosCluster plus the schedule that drives it — the same contract as
 * Simulation (a pure function of configuration, schedule and submit-every; the same schedule
 * language, applied after the run has advanced to each action's time, in the order written), so
 * the timeline, the live check, the trace, links and the CLI drive either kind of run (run.ts).
 */
import { deepClone } from '../model/clone';
import { checkConfig, type SimConfig } from '../model/config';
import { checkSchedule, freezeAction, type Action, type ActionBody } from '../model/schedule';
import { PaxosCluster } from '../net/paxosCluster';
import type { RunOptions } from './simulation';

export class PaxosSimulation {
  readonly protocol: 'paxos' | 'multi-paxos';
  readonly cluster: PaxosCluster;
  /** The lock service runs on Raft only (docs/semantics.md, "Paxos"). */
  readonly lockService = null;
  private readonly actions: Action[];
  private nextAction = 0;
  private readonly submitEveryMs: number | null;
  private submitCounter = 0;

  constructor(config: SimConfig, schedule: readonly Action[] = [], options: RunOptions = {}) {
    const problem = checkConfig(config) ?? checkSchedule(schedule, config);
    if (problem) throw new RangeError(problem);
    this.cluster = new PaxosCluster(config);
    this.protocol = this.cluster.protocol;
    this.cluster.recordDetails = options.recordDetails ?? false;
    this.cluster.detailLimit = options.detailLimit ?? Infinity;
    this.actions = [...schedule];
    this.submitEveryMs = this.cluster.multi ? (options.submitEveryMs ?? null) : null;
    this.applyDue();
  }

  get nowMs(): number {
    return this.cluster.nowMs;
  }

  get schedule(): readonly Action[] {
    return this.actions;
  }

  clone(): PaxosSimulation {
    const cluster = this.cluster;
    const tracer = cluster.tracer;
    if (tracer === null) return deepClone(this);
    cluster.tracer = null;
    try {
      return deepClone(this);
    } finally {
      cluster.tracer = tracer;
    }
  }

  dropFutureActions(): Action[] {
    return this.actions.splice(this.nextAction);
  }

  get appliedCount(): number {
    return this.nextAction;
  }

  replaceFutureActions(schedule: readonly Action[]): void {
    this.actions.length = this.nextAction;
    for (let i = this.nextAction; i < schedule.length; i++) this.actions.push(schedule[i]);
  }

  nextActionAt(): number {
    return this.nextAction < this.actions.length ? this.actions[this.nextAction].at : Infinity;
  }

  step(): void {
    this.cluster.step();
    this.applyDue();
  }

  advanceTo(t: number): void {
    const cluster = this.cluster;
    const every = this.submitEveryMs;
    let nextSubmit = every === null ? Infinity : (Math.floor(cluster.nowMs / every) + 1) * every;
    while (cluster.nowMs < t) {
      let limit = t < nextSubmit ? t : nextSubmit;
      const action = this.nextActionAt();
      if (action < limit) limit = action;
      cluster.skipQuiet(limit - 1);
      this.step();
      while (nextSubmit <= cluster.nowMs) nextSubmit += every as number;
    }
  }

  applyDue(): void {
    const now = this.cluster.nowMs;
    const actions = this.actions;
    let acted = false;
    while (this.nextAction < actions.length && actions[this.nextAction].at <= now) {
      this.apply(actions[this.nextAction++]);
      acted = true;
    }
    const every = this.submitEveryMs;
    // As Simulation's --submit-every: `x=<i>` to the leader at every positive multiple, i growing on success.
    if (every !== null && now > 0 && now % every === 0 && this.cluster.leader() !== null) {
      this.cluster.submit(`x=${this.submitCounter}`);
      this.submitCounter++;
      acted = true;
    }
    const tracer = this.cluster.tracer;
    if (acted && tracer !== null) tracer.afterStep();
  }

  act(body: ActionBody): Action | string {
    const action = freezeAction({ at: this.cluster.nowMs, ...body } as Action);
    const problem = checkSchedule([action], this.cluster.config);
    if (problem) return problem.replace(/^Action 1 /, 'Action ');
    this.actions.splice(this.nextAction, 0, action);
    this.nextAction++;
    this.apply(action);
    const tracer = this.cluster.tracer;
    if (tracer !== null) tracer.afterStep();
    return action;
  }

  /** Applies one action now (checked against the configuration already: only Paxos verbs reach here). */
  apply(action: Action): void {
    const c = this.cluster;
    switch (action.verb) {
      case 'crash':
        c.crash(action.node);
        break;
      case 'restart':
        c.restart(action.node);
        break;
      case 'partition':
        c.partition(action.groups);
        break;
      case 'heal':
        c.heal();
        break;
      case 'loss':
        c.setLoss(action.pct);
        break;
      case 'calm':
        c.calm();
        break;
      case 'propose':
        c.propose(action.value, action.node);
        break;
      case 'submit':
        c.submit(action.command, action.target);
        break;
      case 'timeout':
        c.forceTimeout(action.node);
        break;
      default:
        throw new RangeError(`A ${c.protocol} run cannot apply "${action.verb}".`);
    }
  }
}
