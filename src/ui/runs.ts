/**
 * Which run to open: the default (seed 42, 5 nodes, clients A and B, playing), a preset, or one
 * described by the page's query string (a share link: seed, nodes, clients, timeouts, heartbeat,
 * latency, schedule, speed, time). Bad links give one sentence and fall back to the default.
 */
import { checkConfig, DEFAULT_CONFIG, MAX_NODES, MIN_NODES, nodeIdsFor, parseRange, type SimConfig } from '../sim/config';
import { findPreset, PRESETS, type Preset } from '../sim/presets';
import { parseSeed } from '../sim/prng';
import { clampSpeed, DEFAULT_SPEED } from '../worker/protocol';

export interface RunRequest {
  readonly config: SimConfig;
  readonly schedule: string;
  readonly startAtMs: number;
  readonly stopAtMs: number | null;
  readonly playing: boolean;
  readonly speed: number;
  readonly label: string;
}

export const DEFAULT_PRESET: Preset = {
  name: 'default',
  title: 'Free play',
  blurb: 'Five nodes elect a leader; clients A and B share a lock service. Click a node to crash it, drag across the ring to cut the network, or use the client buttons.',
  config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] },
  schedule: '',
  untilMs: 0,
};

export const ALL_PRESETS: readonly Preset[] = [DEFAULT_PRESET, ...PRESETS];

export function presetRun(preset: Preset, speed = DEFAULT_SPEED): RunRequest {
  return {
    config: preset.config,
    schedule: preset.schedule,
    startAtMs: 0,
    stopAtMs: preset.untilMs > 0 ? preset.untilMs : null,
    playing: true,
    speed,
    label: preset.name,
  };
}

export function defaultRun(): RunRequest {
  return presetRun(DEFAULT_PRESET);
}

function whole(text: string, what: string, min: number, max: number): number | string {
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < min || Number(text) > max) return `${what} must be a whole number from ${min} to ${max}, not "${text}".`;
  return Number(text);
}

/** A run from a query string like `?seed=7&nodes=9&clients=A,B&latency=5-15&schedule=...`. */
export function runFromQuery(search: string): RunRequest | string | null {
  const q = new URLSearchParams(search);
  if ([...q.keys()].length === 0) return null;
  const presetName = q.get('preset');
  let base: RunRequest = defaultRun();
  if (presetName !== null) {
    const preset = findPreset(presetName) ?? (presetName === 'default' ? DEFAULT_PRESET : null);
    if (!preset) return `There is no preset "${presetName}"; the presets are ${ALL_PRESETS.map((p) => p.name).join(', ')}.`;
    base = presetRun(preset);
  }
  let config: SimConfig = base.config;
  const seed = q.get('seed');
  if (seed !== null) {
    const parsed = parseSeed(seed);
    if (typeof parsed === 'string') return `The seed in the link: ${parsed}.`;
    config = { ...config, seed: parsed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(parsed) : seed };
  }
  const nodes = q.get('nodes');
  if (nodes !== null) {
    const n = whole(nodes, 'The number of nodes', MIN_NODES, MAX_NODES);
    if (typeof n === 'string') return n;
    config = { ...config, nodeIds: nodeIdsFor(n) };
  }
  const clients = q.get('clients');
  if (clients !== null) config = { ...config, clientIds: clients.trim() === '' ? [] : clients.split(',').map((c) => c.trim()) };
  for (const [param, field, what] of [
    ['timeout', 'electionTimeoutMs', 'Election timeout'],
    ['latency', 'latencyMs', 'Latency'],
  ] as const) {
    const text = q.get(param);
    if (text === null) continue;
    const range = parseRange(text, what);
    if (typeof range === 'string') return range;
    config = { ...config, [field]: range };
  }
  const hb = q.get('heartbeat');
  if (hb !== null) {
    const n = whole(hb, 'The heartbeat interval', 1, 60_000);
    if (typeof n === 'string') return n;
    config = { ...config, heartbeatMs: n };
  }
  const problem = checkConfig(config);
  if (problem) return problem;
  let speed = base.speed;
  const speedText = q.get('speed');
  if (speedText !== null) {
    const s = Number(speedText);
    if (!Number.isFinite(s) || s <= 0) return `Speed must be a positive number (0.01 to 100), not "${speedText}".`;
    speed = clampSpeed(s);
  }
  let startAtMs = 0;
  const t = q.get('t');
  if (t !== null) {
    const n = whole(t, 'The time in the link', 0, 600_000);
    if (typeof n === 'string') return n;
    startAtMs = n;
  }
  const until = q.get('until');
  let stopAtMs = base.stopAtMs;
  if (until !== null) {
    const n = whole(until, 'The end time in the link', 1, 600_000);
    if (typeof n === 'string') return n;
    stopAtMs = n;
  }
  return {
    config,
    schedule: q.get('schedule') ?? base.schedule,
    startAtMs,
    stopAtMs,
    playing: q.get('paused') === null,
    speed,
    label: presetName ?? 'link',
  };
}

/** The query string that reopens this run at this time. */
export function shareQuery(config: SimConfig, schedule: string, nowMs: number): string {
  const q = new URLSearchParams();
  q.set('seed', String(config.seed));
  q.set('nodes', String(config.nodeIds.length));
  q.set('clients', config.clientIds.join(','));
  q.set('timeout', config.electionTimeoutMs.join('-'));
  q.set('heartbeat', String(config.heartbeatMs));
  q.set('latency', config.latencyMs.join('-'));
  if (schedule) q.set('schedule', schedule);
  if (nowMs > 0) q.set('t', String(nowMs));
  q.set('paused', '');
  return `?${q.toString()}`;
}
