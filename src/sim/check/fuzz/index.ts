/**
 * Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012) with every invariant on.
 *
 * Each run draws, from its own CPython-compatible PRNG seeded by (fuzz seed << 32) + run number,
 * a cluster size, timings, a random subset of fault kinds and then — while the simulation
 * runs — a schedule of those faults. Faults are chosen against the live state (crash *the
 * leader*, flap *a node that just voted*), but every one is recorded through `Simulation.act`, so
 * the run's schedule text replays it exactly. On a violation the schedule is shrunk (drop
 * actions, then shorten) while the same invariant still fails.
 *
 * Everything here is pure and chunked: `fuzz()` is a generator that yields after every run and
 * every shrink attempt, so a Web Worker can interleave it with messages and report progress.
 */
export { after, until, StoryDriver, type After, type StoryGen, type Until, type Wait } from './driver';
export { RunContext } from './context';
export { FAULTS, type Fault } from './faults';
export { fuzz, runFuzz, type Counterexample, type FuzzOptions, type FuzzProgress, type FuzzResult } from './search';
export { replay, runChecked, shortenAction, shrinkSchedule, type ShrinkProgress } from './shrink';
export { FAULT_KINDS, TARGETED_KINDS, type FaultKind, type SwarmDraw, type SwarmKind, type TargetedKind } from './draw';
export { TARGETED, TargetedStories } from './targeted';
export { SwarmNames } from './names';
export {
  BUG_FAULTS,
  drawFeatures,
  drawSwarm,
  type FeatureChoice,
  FUZZ_DURATION_MS,
  fuzzRun,
  type FuzzRunOptions,
  runRandom,
  type RunOutcome,
} from './swarm';
