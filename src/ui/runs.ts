/**
 * Which run to open: the default (seed 42, 5 nodes, clients A and B, playing), a preset, or one
 * described by the page's query string — a share link in the one format of `src/share/link.ts`,
 * which lands paused at its time. Bad links (old-style ones included) give one sentence and
 * fall back to the default run.
 */
import { DEFAULT_CONFIG, type SimConfig } from '../sim/model/config';
import { DEFAULT_SPEED, SPEED_CHOICES } from '../sim/model/limits';
import { PRESETS, presetActions, type Preset } from '../sim/run/presets';
import type { Action } from '../sim/model/schedule';
import { decodeLink, encodeLink, type LinkView, type RunSpec, type TourPlace } from '../share/link';

export interface RunRequest {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  readonly startAtMs: number;
  readonly stopAtMs: number | null;
  readonly playing: boolean;
  readonly speed: number;
  readonly label: string;
  /** Open this tour at this beat (landing at the beat's end) instead of the run above. */
  readonly tour?: TourPlace;
  /** What the diagram pane shows, when the link says. */
  readonly view?: LinkView;
  /** Page modes the link switches on (presenter mode, the embed frame, the presenter console). */
  readonly present?: boolean;
  readonly embed?: boolean;
  readonly console?: boolean;
}

/**
 * The view a run opens in: the ring. Beside the space-time view the ring's words drop below
 * 12 px even at 1920×1080, so a preset that reproduces a chapter figure opens on the ring too,
 * with the figure one click away (Ring + time opens on the figure's window and lanes).
 */
export function defaultViewFor(_label: string | null): LinkView {
  return 'ring';
}

export const DEFAULT_PRESET: Preset = {
  name: 'default',
  title: 'Free play',
  blurb:
    'Five nodes elect a leader; clients A and B share a lock service. Click a node to crash it, drag across the ring to cut the network, or use the client buttons.',
  config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] },
  schedule: '',
  untilMs: 0,
};

export const ALL_PRESETS: readonly Preset[] = [DEFAULT_PRESET, ...PRESETS];

export function presetRun(preset: Preset, speed = DEFAULT_SPEED): RunRequest {
  return {
    config: preset.config,
    schedule: presetActions(preset),
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

/** Actions are plain data from one parser, so equal actions have equal JSON. */
const sameActions = (a: readonly Action[], b: readonly Action[]) =>
  a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));

/** The preset whose inputs these are exactly, if any (a reloaded preset keeps its blurb and end). */
export function presetFor(config: SimConfig, schedule: readonly Action[]): Preset | null {
  const key = configKey(config);
  for (const p of ALL_PRESETS) {
    if (configKey(p.config) === key && sameActions(presetActions(p), schedule)) return p;
  }
  return null;
}

/** A run from a decoded link or run file: paused at its time. */
export function runFromSpec(spec: RunSpec): RunRequest {
  const preset = presetFor(spec.config, spec.schedule);
  return {
    config: spec.config,
    schedule: spec.schedule,
    startAtMs: spec.atMs,
    stopAtMs: preset && preset.untilMs > spec.atMs ? preset.untilMs : null,
    playing: false,
    speed: spec.speed ?? DEFAULT_SPEED,
    label: preset?.name ?? 'link',
    ...(spec.tour !== undefined ? { tour: spec.tour } : {}),
    ...(spec.view !== undefined ? { view: spec.view } : {}),
    ...(spec.present ? { present: true } : {}),
    ...(spec.embed ? { embed: true } : {}),
    ...(spec.console ? { console: true } : {}),
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
  readonly schedule: readonly Action[];
  readonly nowMs: number;
  readonly speed: number;
  /** The open tour and beat, when the run is that beat's. */
  readonly tour?: TourPlace;
  /** The diagram pane's view, when it is not the run's default. */
  readonly view?: LinkView;
  /** Presenter mode or the embed frame, when on. */
  readonly present?: boolean;
  readonly embed?: boolean;
}

/** The run at this time, paused, as a link or run file describes it (the speed only if not the default). */
export function runSpecOf(s: LinkState): RunSpec {
  const speed = Math.round(s.speed * 1000) / 1000;
  return {
    config: s.config,
    schedule: s.schedule,
    atMs: s.nowMs,
    ...(speed !== DEFAULT_SPEED ? { speed } : {}),
    ...(s.tour !== undefined ? { tour: s.tour } : {}),
    ...(s.view !== undefined ? { view: s.view } : {}),
    ...(s.present ? { present: true } : {}),
    ...(s.embed ? { embed: true } : {}),
  };
}

/** The query string (without `?`) that reopens this run at this time, paused. */
export function linkQuery(s: LinkState): string {
  return encodeLink(runSpecOf(s));
}

/** The speed choice nearest `speed` (by ratio: 1.072× is nearest 1×). */
export function nearestSpeedChoice(speed: number): number {
  let best: number = DEFAULT_SPEED;
  for (const c of SPEED_CHOICES) if (Math.abs(Math.log(c / speed)) < Math.abs(Math.log(best / speed))) best = c;
  return best;
}

/** The key a visit leaves in localStorage: a returning visit opens on Free play, a first one on "Start here". */
export const VISITED_KEY = 'lockstep-visited';
