/**
 * A run: a cluster plus the schedule that drives it. A run is a pure function of
 * (configuration, schedule, submit-every), so `new Simulation(...)` advanced to any time gives
 * the same state every time — which is what share links, time travel and the fuzzer rely on.
 */
import { deepClone } from '../model/clone';
import { Cluster } from '../net/cluster';
import { checkConfig, lockOf, runsRaft, type SimConfig } from '../model/config';
import { LockService } from '../service/lockService';
import { lockBackendFor } from '../locks';
import { describe } from '../model/describe';
import { checkSchedule, formatBody, freezeAction, type Action, type ActionBody } from '../model/schedule';

export interface RunOptions {
  /** At every positive multiple of this many ms, after that time's actions, submit `x=<i>` to the leader. */
  readonly submitEveryMs?: number | null;
  /** Record detail events (`cluster.details`); off by default, and it changes nothing else. */
  readonly recordDetails?: boolean;
  /** Keep only about this many of the newest detail events (default: all). */
  readonly detailLimit?: number;
}

export class Simulation {
  readonly cluster: Cluster;
  readonly lockService: LockService | null;
  private readonly actions: Action[];
  private nextAction = 0;
  private readonly submitEveryMs: number | null;
  /** The i of the next `x=<i>` submitted by --submit-every; grows only on success. */
  private submitCounter = 0;
  /** No multiple of submitEveryMs falls before this time (see applyDue). */
  private submitCheckMs = 0;

  constructor(config: SimConfig, schedule: readonly Action[] = [], options: RunOptions = {}) {
    const problem = checkConfig(config) ?? checkSchedule(schedule, config);
    if (problem) throw new RangeError(problem);
    this.cluster = new Cluster(config);
    this.cluster.recordDetails = options.recordDetails ?? false;
    this.cluster.detailLimit = options.detailLimit ?? Infinity;
    // A lock service that runs no Raft (Redis, Redlock, the database, gossip) only seats its servers on the nodes.
    this.cluster.raftActive = runsRaft(config);
    this.lockService = config.clientIds.length > 0 ? new LockService(this.cluster, config.clientIds, lockBackendFor(lockOf(config))) : null;
    // Kept in the order written: an action whose time has already passed when its turn comes
    // (written after a later one) applies at once, as a plain loop over the schedule would.
    this.actions = [...schedule];
    this.submitEveryMs = options.submitEveryMs ?? null;
    this.applyDue();
  }

  get nowMs(): number {
    return this.cluster.nowMs;
  }

  get schedule(): readonly Action[] {
    return this.actions;
  }

  /**
   * An independent copy at the same instant (a checkpoint for time travel). A trace recorder
   * stays with this run: the copy is made with the tracer unhooked, so the recorder is neither
   * copied (its arrays would make every checkpoint cost more) nor fed by the copy's replays.
   */
  clone(): Simulation {
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

  /** Actions not yet applied (all later than now): removed from the run and returned. */
  dropFutureActions(): Action[] {
    return this.actions.splice(this.nextAction);
  }

  /** How many of the schedule's actions have been applied. */
  get appliedCount(): number {
    return this.nextAction;
  }

  /**
   * Replaces the actions not yet applied with those of `schedule` past the applied prefix
   * (the caller guarantees the prefix is unchanged).
   */
  replaceFutureActions(schedule: readonly Action[]): void {
    this.actions.length = this.nextAction;
    for (let i = this.nextAction; i < schedule.length; i++) this.actions.push(schedule[i]);
  }

  /** Time of the next scheduled action, or Infinity. */
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
    // The next --submit-every time after now, kept up to date by addition as time moves on.
    let nextSubmit = every === null ? Infinity : (Math.floor(cluster.nowMs / every) + 1) * every;
    while (cluster.nowMs < t) {
      // Quiet milliseconds only move the clock: jump to just before the next one that acts.
      let limit = t < nextSubmit ? t : nextSubmit;
      const action = this.nextActionAt();
      if (action < limit) limit = action;
      cluster.skipQuiet(limit - 1);
      this.step();
      while (nextSubmit <= cluster.nowMs) nextSubmit += every as number;
    }
  }

  /** Applies the schedule's actions that are due now (the constructor and every step do). */
  applyDue(): void {
    const now = this.cluster.nowMs;
    const actions = this.actions;
    let acted = false;
    while (this.nextAction < actions.length && actions[this.nextAction].at <= now) {
      this.apply(actions[this.nextAction++]);
      acted = true;
    }
    const every = this.submitEveryMs;
    // The modulo runs once per multiple of `every`, not every millisecond: before
    // submitCheckMs (the first multiple after the last time checked) there is none.
    if (every !== null && now >= this.submitCheckMs) {
      const rest = now % every;
      this.submitCheckMs = now - rest + every;
      if (now > 0 && rest === 0) {
        const leader = this.cluster.leader();
        if (leader !== null) {
          leader.submit(`x=${this.submitCounter}`);
          this.submitCounter++;
          acted = true;
        }
      }
    }
    // Actions change state after the step's own sample: a trace recorder samples again.
    const tracer = this.cluster.tracer;
    if (acted && tracer !== null) tracer.afterStep();
  }

  /**
   * A person's action, taken now: checked against the configuration, recorded into the
   * schedule at the current time (before any later scheduled actions) and applied. Returns the
   * recorded action, or an error sentence (and changes nothing).
   */
  act(body: ActionBody): Action | string {
    const action = freezeAction({ at: this.cluster.nowMs, ...body } as Action);
    const problem = checkSchedule([action], this.knownConfig());
    if (problem) return problem.replace(/^Action 1 /, 'Action ');
    this.actions.splice(this.nextAction, 0, action);
    this.nextAction++;
    this.apply(action);
    const tracer = this.cluster.tracer;
    if (tracer !== null) tracer.afterStep();
    return action;
  }

  /** The configuration with every node the run has now (membership changes add some). */
  private knownConfig(): SimConfig {
    const c = this.cluster;
    return c.nodes.length === c.config.nodeIds.length ? c.config : { ...c.config, nodeIds: c.nodes.map((n) => n.id) };
  }

  /** Applies one action now. The action must already be checked against the configuration. */
  apply(action: Action): void {
    const c = this.cluster;
    if (c.features.membership) {
      // A schedule may name a server whose add the leader refused: the action is refused too.
      const id =
        'node' in action && action.verb !== 'add' && action.verb !== 'remove'
          ? action.node
          : action.verb === 'submit'
            ? action.target
            : null;
      if (id !== null && !c.nodeById.has(id)) {
        c.logEvent(describe.absentServer(formatBody(action), id), 'member-change-refused', [id]);
        return;
      }
    }
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
      case 'submit':
        c.submit(action.command, action.target);
        break;
      case 'drift':
        c.setDrift(action.node, action.pct);
        break;
      case 'clockjump':
        c.jumpClock(action.node, action.ms);
        break;
      case 'loss':
        c.setLoss(action.pct);
        break;
      case 'delay':
        c.setDelay(action.target, action.ms);
        break;
      case 'duplicate':
        c.setDuplicates(action.pct);
        break;
      case 'reorder':
        c.setReorder(action.pct);
        break;
      case 'calm':
        c.calm();
        break;
      case 'timeout':
        c.forceTimeout(action.node);
        break;
      case 'transfer':
        c.transferLeadership(action.node);
        break;
      case 'add':
      case 'remove':
        c.changeMembership(action.verb, action.node);
        break;
      case 'client':
        if (this.lockService === null) throw new RangeError(`This run has no clients, so "client ${action.client}" cannot act.`);
        this.lockService.clientIntent(action.client, action.intent);
        break;
    }
  }
}
