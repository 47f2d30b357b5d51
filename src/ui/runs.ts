/**
 * Which run to open: the default (seed 42, 5 nodes, clients A and B, playing), a preset, or one
 * described by the page's query string — a share link in the one format of `src/share/link.ts`,
 * which lands paused at its time. Bad links (old-style ones included) give one sentence and
 * fall back to the default run.
 */
import { DEFAULT_CONFIG, type SimConfig } from '../sim/config';
import { PRESETS, type Preset } from '../sim/presets';
import { formatSchedule, parseSchedule, type Action } from '../sim/schedule';
import { decodeLink, encodeLink, type RunSpec } from '../share/link';
import { DEFAULT_SPEED, MAX_SEEK_MS } from '../worker/protocol';

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

const configKey = (c: SimConfig) => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** The preset whose inputs these are exactly, if any (a reloaded preset keeps its blurb and end). */
export function presetFor(config: SimConfig, schedule: string): Preset | null {
  const key = configKey(config);
  for (const p of ALL_PRESETS) {
    if (configKey(p.config) === key && formatSchedule(parseSchedule(p.schedule)) === schedule) return p;
  }
  return null;
}

/** A run from a decoded link or run file: paused at its time. */
export function runFromSpec(spec: RunSpec): RunRequest | string {
  if (spec.atMs > MAX_SEEK_MS) return `This link's time ${spec.atMs} ms is past the ${MAX_SEEK_MS} ms this page can replay to.`;
  const schedule = formatSchedule(spec.schedule);
  const preset = presetFor(spec.config, schedule);
  return {
    config: spec.config,
    schedule,
    startAtMs: spec.atMs,
    stopAtMs: preset && preset.untilMs > spec.atMs ? preset.untilMs : null,
    playing: false,
    speed: spec.speed ?? DEFAULT_SPEED,
    label: preset?.name ?? 'link',
  };
}

/** The run a page's query string asks for: null for none, a sentence for a bad link. */
export function runFromQuery(search: string): RunRequest | string | null {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query === '') return null;
  const decoded = decodeLink(query);
  if (!decoded.ok) return decoded.error;
  return runFromSpec(decoded.spec);
}

/** What the URL holds for a run: its inputs, where it is, and the speed if not the default. */
export interface LinkState {
  readonly config: SimConfig;
  readonly schedule: string;
  readonly nowMs: number;
  readonly speed: number;
}

let parsedText = '';
let parsed: Action[] = [];

/** The query string (without `?`) that reopens this run at this time, paused. */
export function linkQuery(s: LinkState): string {
  if (s.schedule !== parsedText) {
    parsed = parseSchedule(s.schedule);
    parsedText = s.schedule;
  }
  const speed = Math.round(s.speed * 1000) / 1000;
  const spec: RunSpec = { config: s.config, schedule: parsed, atMs: s.nowMs, ...(speed !== DEFAULT_SPEED ? { speed } : {}) };
  return encodeLink(spec);
}
