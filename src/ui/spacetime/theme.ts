/**
 * The space-time view's colours, as one plain object: the canvas painter and the SVG export both
 * take it, so the export carries inline colours and works in dark and light alike. In the page it
 * is read from the stylesheet's CSS variables (the role and message-kind colours the ring uses).
 */
import { KIND_VARS, type MessageKind } from '../../paint/messageShapes';
import type { BandState } from './scene';
import type { BarTone } from '../panels/historyLanes';

export interface SpaceTimeTheme {
  readonly bg: string;
  readonly panel: string;
  readonly text: string;
  readonly muted: string;
  readonly border: string;
  readonly cursor: string;
  readonly drop: string;
  readonly ok: string;
  readonly bad: string;
  readonly band: Readonly<Record<BandState, string>>;
  readonly kind: Readonly<Record<MessageKind, string>>;
  readonly groups: readonly string[];
  readonly clientLease: string;
  readonly serviceLease: string;
  /** A client operation's bar, by what the client was told (the History view's colours). */
  readonly op: Readonly<Record<BarTone, string>>;
}

/** The CSS variable each colour comes from (the same ones the ring and its legend use). */
const VARS = {
  bg: '--bg',
  panel: '--panel',
  text: '--text',
  muted: '--muted',
  border: '--border',
  cursor: '--focus',
  drop: '--drop',
  ok: '--ok',
  bad: '--bad',
  clientLease: '--lease-client',
  serviceLease: '--lease-service',
} as const;

const BAND_VARS: Readonly<Record<BandState, string>> = {
  follower: '--follower-stroke',
  candidate: '--candidate-stroke',
  leader: '--leader-stroke',
  down: '--down-stroke',
  up: '--border',
  paused: '--candidate-stroke',
  crashed: '--down-stroke',
};

const OP_VARS: Readonly<Record<BarTone, string>> = {
  ok: '--ok',
  refused: '--msg-vote',
  open: '--muted',
  service: '--lease-service',
  info: '--op-info',
  fail: '--msg-refused',
};

const GROUP_VARS = ['--group-0', '--group-1', '--group-2', '--group-3'];

/** The stylesheet's light values: the fallback when a variable is missing, and the export's default. */
const LIGHT_VALUES: Readonly<Record<string, string>> = {
  '--bg': '#f4f4f0',
  '--panel': '#ffffff',
  '--text': '#16191e',
  '--muted': '#545b67',
  '--border': '#c3c8d0',
  '--focus': '#d6336c',
  '--drop': '#c62828',
  '--ok': '#1b7a3f',
  '--bad': '#b3261e',
  '--follower-stroke': '#3f629a',
  '--candidate-stroke': '#9a5d00',
  '--leader-stroke': '#16693a',
  '--down-stroke': '#6b6b6b',
  '--msg-vote': '#dd6b00',
  '--msg-granted': '#1f9150',
  '--msg-refused': '#c62828',
  '--msg-append': '#1f63d0',
  '--msg-reply': '#0f8f9e',
  '--msg-client': '#8e3fb0',
  '--msg-client-reply': '#b5459b',
  '--msg-store': '#99541c',
  '--group-0': '#3f7fd9',
  '--group-1': '#d9823f',
  '--group-2': '#3fae6b',
  '--group-3': '#a45fd0',
  '--lease-client': '#8e3fb0',
  '--lease-service': '#c2410c',
  '--op-info': '#d97706',
};

const DARK_VALUES: Readonly<Record<string, string>> = {
  ...LIGHT_VALUES,
  '--bg': '#121418',
  '--panel': '#1c1f25',
  '--text': '#eceff4',
  '--muted': '#a9b1be',
  '--border': '#3b414c',
  '--focus': '#ff7aa8',
  '--drop': '#ff6b6b',
  '--ok': '#6fe39b',
  '--bad': '#ff8a80',
  '--follower-stroke': '#93b6ee',
  '--candidate-stroke': '#ffc95c',
  '--leader-stroke': '#7ff0a8',
  '--down-stroke': '#979ca4',
  '--msg-vote': '#ff9a3d',
  '--msg-granted': '#5fd68f',
  '--msg-refused': '#ff6b6b',
  '--msg-append': '#6ea8ff',
  '--msg-reply': '#4fd3e0',
  '--msg-client': '#d08bf0',
  '--msg-client-reply': '#f08bd4',
  '--msg-store': '#e0a060',
  '--lease-client': '#d08bf0',
  '--lease-service': '#fb923c',
  '--op-info': '#fbbf24',
};

/** A theme from a variable lookup (e.g. getComputedStyle(el).getPropertyValue); missing ones fall back to the light values. */
export function themeFrom(
  read: (name: string) => string | null | undefined,
  fallback: Readonly<Record<string, string>> = LIGHT_VALUES,
): SpaceTimeTheme {
  const get = (name: string) => read(name)?.trim() || fallback[name] || '#888888';
  const band = {} as Record<BandState, string>;
  for (const [k, v] of Object.entries(BAND_VARS) as [BandState, string][]) band[k] = get(v);
  const kind = {} as Record<MessageKind, string>;
  for (const [k, v] of Object.entries(KIND_VARS) as [MessageKind, string][]) kind[k] = get(v);
  const base = {} as Record<keyof typeof VARS, string>;
  for (const [k, v] of Object.entries(VARS) as [keyof typeof VARS, string][]) base[k] = get(v);
  const op = {} as Record<BarTone, string>;
  for (const [k, v] of Object.entries(OP_VARS) as [BarTone, string][]) op[k] = get(v);
  return { ...base, band, kind, op, groups: GROUP_VARS.map(get) };
}

export const LIGHT_THEME: SpaceTimeTheme = themeFrom(() => null, LIGHT_VALUES);
export const DARK_THEME: SpaceTimeTheme = themeFrom(() => null, DARK_VALUES);

/** The theme the page's stylesheet gives `el` (light values where there is no stylesheet, as in jsdom). */
export function readTheme(el: Element): SpaceTimeTheme {
  const style = typeof getComputedStyle === 'undefined' ? null : getComputedStyle(el);
  return themeFrom((name) => style?.getPropertyValue(name));
}
