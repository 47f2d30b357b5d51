/**
 * Either kind of run: Raft's (Simulation, the chapter's) or the Paxos family's (PaxosSimulation).
 * Everything that drives a run whatever its protocol — the timeline, the live check, the CLI,
 * the tours — makes it here, so the choice is made once, from the configuration.
 */
import { isPaxosConfig, type SimConfig } from '../model/config';
import type { Action } from '../model/schedule';
import { PaxosSimulation } from './paxosSimulation';
import { Simulation, type RunOptions } from './simulation';

export type AnyRun = Simulation | PaxosSimulation;

export function newRun(config: SimConfig, schedule: readonly Action[] = [], options: RunOptions = {}): AnyRun {
  return isPaxosConfig(config) ? new PaxosSimulation(config, schedule, options) : new Simulation(config, schedule, options);
}

export function isPaxosRun(run: AnyRun): run is PaxosSimulation {
  return run instanceof PaxosSimulation;
}
