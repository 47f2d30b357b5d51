/**
 * The page's limits live in the core, below everything that reads them (the worker, the
 * controls, share links), so none of those has to import another to learn them.
 */
import { formatAction, type Action } from './schedule';

/**
 * The page's limits, one source each: the worker, the controls and share links all use these, so
 * a link that decodes can always be replayed.
 *
 * Speeds are simulated ms per real ms. 0.1x: a 50 ms heartbeat takes half a second to see;
 * 0.002x, a tour's slowest: a 5 ms message takes 2.5 s to cross the ring.
 */
export const MIN_SPEED = 0.002;
export const MAX_SPEED = 100;
export const DEFAULT_SPEED = 0.1;
export const SPEED_CHOICES = [0.002, 0.003, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;

/**
 * The page's cap: the furthest a seek, a load's start time, playback or a scheduled action may
 * go (replaying is fast, but not free). The command line has its own, larger limit (MAX_MS).
 */
export const MAX_SEEK_MS = 600_000;

/** The cap in the page's words, e.g. "the page's 600 s". */
export const CAP_NAME = `the page's ${MAX_SEEK_MS / 1000} s`;

/** Said when Play, a step or Next event is asked for at the cap. */
export const AT_CAP_SENTENCE = `The run is at the end of ${CAP_NAME} (t = ${MAX_SEEK_MS} ms) and goes no further here; for a longer run use the command line (npm run sim -- --until <ms>).`;

/** One sentence when an action of this schedule falls past the page's cap, else null. */
export function scheduleCapProblem(actions: readonly Action[]): string | null {
  const i = actions.findIndex((a) => a.at > MAX_SEEK_MS);
  if (i < 0) return null;
  return `Action ${i + 1} ("${formatAction(actions[i])}") is past the end of ${CAP_NAME}: the page plays runs up to ${MAX_SEEK_MS} ms (the command line goes further).`;
}
