/**
 * Simulation configuration. Faults are data and units come last in names (TigerBeetle's style).
 * `validateConfig` checks what the chapter's RaftCluster checks, plus the ranges the lab allows,
 * and answers with one sentence naming what is wrong and what is allowed.
 */
import { parseSeed, type Seed } from './prng';

export const MIN_NODES = 1;
export const MAX_NODES = 9;
export const MAX_CLIENTS = 6;
export const MAX_MS = 100_000_000;

/** Switchable bugs: negative controls the invariant checker must catch. */
export const BUG_NAMES = [
  'figure8',
  'forget-vote',
  'no-log-check',
  'expire-any-token',
  'follower-expiry',
  'no-fencing',
] as const;
export type BugName = (typeof BUG_NAMES)[number];

export interface SimConfig {
  readonly seed: Seed;
  readonly nodeIds: readonly string[];
  readonly electionTimeoutMs: readonly [number, number];
  readonly heartbeatMs: number;
  readonly latencyMs: readonly [number, number];
  /** Client ids (A, B, …). Clients exist only when named; a Raft-only run has none. */
  readonly clientIds: readonly string[];
  readonly bugs: readonly BugName[];
}

export const DEFAULT_CONFIG: SimConfig = {
  seed: 42,
  nodeIds: ['n1', 'n2', 'n3', 'n4', 'n5'],
  electionTimeoutMs: [150, 300],
  heartbeatMs: 50,
  latencyMs: [5, 15],
  clientIds: [],
  bugs: [],
};

export function nodeIdsFor(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `n${i + 1}`);
}

export function makeConfig(partial: Partial<SimConfig> = {}): SimConfig {
  return { ...DEFAULT_CONFIG, ...partial };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** Returns null when the configuration is valid, or one sentence saying what is wrong. */
export function checkConfig(config: SimConfig): string | null {
  const seed = parseSeed(config.seed);
  if (typeof seed === 'string') return seed.charAt(0).toUpperCase() + seed.slice(1) + '.';
  const ids = config.nodeIds;
  if (ids.length < MIN_NODES || ids.length > MAX_NODES) {
    return `A cluster has ${MIN_NODES} to ${MAX_NODES} nodes, not ${ids.length}.`;
  }
  if (new Set(ids).size !== ids.length) return 'Node ids must be distinct.';
  for (const id of ids) {
    if (!/^[a-z][a-z0-9]{0,7}$/.test(id)) return `Node id "${id}" must be a lowercase letter followed by up to 7 letters or digits, like n1.`;
  }
  const [tMin, tMax] = config.electionTimeoutMs;
  if (!isInt(tMin) || !isInt(tMax) || !(0 < tMin && tMin <= tMax) || tMax > 60_000) {
    return `Election timeout range must be positive and ordered (min <= max, at most 60000 ms), not ${tMin}-${tMax}.`;
  }
  const hb = config.heartbeatMs;
  if (!isInt(hb) || !(0 < hb && hb < tMin)) {
    return `Heartbeat interval must be a whole number of ms, positive and shorter than the minimum election timeout (${tMin} ms), not ${hb}.`;
  }
  const [lMin, lMax] = config.latencyMs;
  if (!isInt(lMin) || !isInt(lMax) || !(0 <= lMin && lMin <= lMax) || lMax > 60_000) {
    return `Latency range must be non-negative and ordered (min <= max, at most 60000 ms), not ${lMin}-${lMax}.`;
  }
  if (config.clientIds.length > MAX_CLIENTS) return `At most ${MAX_CLIENTS} clients are allowed, not ${config.clientIds.length}.`;
  if (new Set(config.clientIds).size !== config.clientIds.length) return 'Client ids must be distinct.';
  for (const id of config.clientIds) {
    if (!/^[A-Z]$/.test(id)) return `Client id "${id}" must be one capital letter, like A.`;
  }
  for (const bug of config.bugs) {
    if (!(BUG_NAMES as readonly string[]).includes(bug)) {
      return `Unknown bug "${bug}"; the bugs are ${BUG_NAMES.join(', ')}.`;
    }
  }
  return null;
}

export function validateConfig(config: SimConfig): SimConfig {
  const problem = checkConfig(config);
  if (problem) throw new ConfigError(problem);
  return config;
}

/** Parses "A-B" into an ordered pair of whole numbers, or returns an error sentence. */
export function parseRange(text: string, what: string): readonly [number, number] | string {
  const m = /^\s*(\d{1,9})\s*-\s*(\d{1,9})\s*$/.exec(text);
  if (!m) return `${what} must be written A-B with whole numbers of ms, like 150-300, not "${text}".`;
  return [Number(m[1]), Number(m[2])];
}
