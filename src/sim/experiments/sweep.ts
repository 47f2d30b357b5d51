/**
 * The sweep: one parameter and its values, as text at the edges (`timeout=100-200,150-300`), and
 * the seeds per point. One parser for the page and the CLI, one sentence per mistake.
 */
import { MAX_SCALE_NODES, MIN_NODES } from '../model/config';
import type { ExperimentParams } from './templates';

export const SWEEP_PARAMS = [
  'timeout',
  'spread',
  'heartbeat',
  'latency',
  'nodes',
  'loss',
  'drift',
  'pause',
  'lease',
  'phi',
  'slow',
  'placement',
  'takeover',
  'persist',
  'detector',
] as const;
export type SweepParam = (typeof SWEEP_PARAMS)[number];

export type SweepValue = number | readonly [number, number];

interface ParamDef {
  readonly label: string;
  /** For axis labels. */
  readonly unit: string;
  readonly range: boolean;
  /** Issue 28: values to the microsecond (up to 3 decimals), for latencies below a millisecond. */
  readonly fractions?: true;
  readonly min: number;
  readonly max: number;
  readonly example: string;
  readonly apply: (p: ExperimentParams, v: SweepValue) => ExperimentParams;
  /** A parameter whose values are words as well as numbers (detector): its own parse and format; absent, `range` decides. */
  readonly parsePart?: (part: string) => SweepValue | null;
  readonly format?: (v: SweepValue) => string;
  /** What `parsePart` takes, for its sentence. */
  readonly allowed?: string;
}

const num = (v: SweepValue) => (typeof v === 'number' ? v : v[0]);
const pair = (v: SweepValue): readonly [number, number] => (typeof v === 'number' ? [v, v] : v);

export const SWEEP_DEFS: Readonly<Record<SweepParam, ParamDef>> = {
  timeout: {
    label: 'Election timeout range',
    unit: 'ms',
    range: true,
    min: 1,
    max: 60_000,
    example: '100-200,150-300,300-600',
    apply: (p, v) => ({ ...p, timeoutMs: pair(v) }),
  },
  spread: {
    label: 'Election timeout spread (max − min)',
    unit: 'ms',
    range: false,
    min: 0,
    max: 60_000,
    example: '0,10,50,150',
    apply: (p, v) => ({ ...p, timeoutMs: [p.timeoutMs[0], p.timeoutMs[0] + num(v)] }),
  },
  heartbeat: {
    label: 'Heartbeat interval',
    unit: 'ms',
    range: false,
    min: 1,
    max: 60_000,
    example: '10,50,100',
    apply: (p, v) => ({ ...p, heartbeatMs: num(v) }),
  },
  latency: {
    label: 'Message latency range',
    unit: 'ms',
    range: true,
    fractions: true,
    min: 0,
    max: 60_000,
    example: '0.2-0.3,5-15,60-80',
    apply: (p, v) => ({ ...p, latencyMs: pair(v) }),
  },
  nodes: {
    label: 'Cluster size',
    unit: 'nodes',
    range: false,
    min: MIN_NODES,
    // Past 9 only with the gossip detector (gossip-spread): the configuration's check says so for the others.
    max: MAX_SCALE_NODES,
    example: '3,5,7,9',
    apply: (p, v) => ({ ...p, nodes: num(v) }),
  },
  loss: {
    label: 'Message loss',
    unit: '%',
    range: false,
    min: 0,
    max: 100,
    example: '0,5,10,20',
    apply: (p, v) => ({ ...p, lossPct: num(v) }),
  },
  drift: {
    label: 'Clock drift of every node',
    unit: '%',
    range: false,
    min: -90,
    max: 90,
    example: '0,20,50',
    apply: (p, v) => ({ ...p, driftPct: num(v) }),
  },
  pause: {
    label: 'Client pause',
    unit: 'ms',
    range: false,
    min: 0,
    max: 500_000,
    example: '1000,1900,2100,3000',
    apply: (p, v) => ({ ...p, pauseMs: num(v) }),
  },
  lease: {
    label: 'Lease',
    unit: 'ms',
    range: false,
    min: 1,
    max: 500_000,
    example: '1000,2000,4000',
    apply: (p, v) => ({ ...p, leaseMs: num(v) }),
  },
  // Issue 28: the failure detector's threshold, and the network's slow phases.
  phi: {
    label: 'Phi-accrual threshold Φ (0: the fixed timeout)',
    unit: 'Φ',
    range: false,
    min: 0,
    max: 30,
    example: '0,1,2,4,8',
    apply: (p, v) => ({ ...p, phi: num(v) }),
  },
  slow: {
    label: 'Latency factor in slow phases',
    unit: '×',
    range: false,
    min: 1,
    max: 100,
    example: '1,2,3,5',
    apply: (p, v) => ({ ...p, slowFactor: num(v) }),
  },
  placement: {
    label: 'Placement of five nodes in us regions (0: majority in us-east, 1: 2-2-1, 2: majority west)',
    unit: '',
    range: false,
    min: 0,
    max: 2,
    example: '0,1,2',
    apply: (p, v) => ({ ...p, placement: num(v) }),
  },
  takeover: {
    label: 'Takeover threshold (0: none, only the lease frees a lock)',
    unit: 'ms',
    range: false,
    min: 0,
    max: 10_000_000,
    example: '2000,4000,8000,12000',
    apply: (p, v) => ({ ...p, takeoverMs: num(v) }),
  },
  persist: {
    label: "Persist delay before a server's replies (0: none)",
    unit: 'ms',
    range: false,
    min: 0,
    max: 10_000,
    example: '0,5,10',
    apply: (p, v) => ({ ...p, persistMs: num(v) }),
  },
  // Issue 28, the trade-off curve: one sweep holding both detectors, so each is a series on one
  // plot. A range is a fixed timeout (fixed:150-300), a number phi-accrual's Φ (phi:4).
  detector: {
    label: 'Failure detector: a fixed timeout range or phi-accrual threshold Φ',
    unit: '',
    range: false,
    min: 1,
    max: 60_000,
    example: 'fixed:75-150,fixed:150-300,phi:2,phi:8',
    allowed: 'fixed:A-B (a timeout range in whole ms, 1 to 60000) or phi:N (Φ, a whole number from 1 to 30)',
    parsePart(part) {
      const fixed = /^fixed:(\d{1,5})-(\d{1,5})$/.exec(part);
      if (fixed) {
        const a = Number(fixed[1]);
        const b = Number(fixed[2]);
        return a >= 1 && a <= b && b <= 60_000 ? [a, b] : null;
      }
      const phi = /^phi:(\d{1,2})$/.exec(part);
      return phi && Number(phi[1]) >= 1 && Number(phi[1]) <= 30 ? Number(phi[1]) : null;
    },
    format: (v) => (typeof v === 'number' ? `phi:${v}` : `fixed:${v[0]}-${v[1]}`),
    apply: (p, v) => (typeof v === 'number' ? { ...p, phi: v } : { ...p, timeoutMs: v, phi: 0 }),
  },
};

/** A detector sweep's value: which detector it names (a range is a fixed timeout, a number phi-accrual's Φ). */
export function detectorKindOf(v: SweepValue): 'fixed' | 'phi-accrual' {
  return typeof v === 'number' ? 'phi-accrual' : 'fixed';
}

export const MAX_SWEEP_VALUES = 12;
export const MAX_SEEDS = 5000;
export const MAX_RUNS = 20_000;
/**
 * A grid of two swept parameters has at most this many cells (every pair of values): 48 keeps each
 * cell's number at 12 px or more on the page at 1280×720 (8 columns by 6 rows, or 12 by 4).
 */
export const MAX_GRID_CELLS = 48;

export interface Sweep {
  readonly param: SweepParam;
  readonly values: readonly SweepValue[];
}

export function formatValue(v: SweepValue, param?: SweepParam): string {
  const own = param === undefined ? undefined : SWEEP_DEFS[param].format;
  if (own !== undefined) return own(v);
  return typeof v === 'number' ? String(v) : `${v[0]}-${v[1]}`;
}

export function formatSweep(s: Sweep): string {
  return `${s.param}=${s.values.map((v) => formatValue(v, s.param)).join(',')}`;
}

/** The value on a plot's x axis: a range is placed at its midpoint. */
export function axisValue(v: SweepValue): number {
  return typeof v === 'number' ? v : (v[0] + v[1]) / 2;
}

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** Parses `name=v1,v2,...`: the sweep, or one sentence saying what is wrong and what is allowed. */
export function parseSweep(text: string): Sweep | string {
  const m = /^\s*([a-z]+)\s*=\s*(.*?)\s*$/s.exec(text);
  if (!m)
    return `The sweep must be written parameter=values, like timeout=100-200,150-300, not "${shown(text)}"; the parameters are ${SWEEP_PARAMS.join(', ')}.`;
  const param = m[1];
  if (!(SWEEP_PARAMS as readonly string[]).includes(param))
    return `Unknown sweep parameter "${shown(param)}"; the parameters are ${SWEEP_PARAMS.join(', ')}.`;
  const def = SWEEP_DEFS[param as SweepParam];
  const parts = m[2].split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.every((p) => p === ''))
    return `The sweep over ${param} needs at least one value, like ${param}=${def.example}.`;
  if (parts.length > MAX_SWEEP_VALUES)
    return `The sweep over ${param} has ${parts.length} values; at most ${MAX_SWEEP_VALUES} are allowed.`;
  const values: SweepValue[] = [];
  const allowed = `from ${def.min} to ${def.max}`;
  for (const part of parts) {
    if (def.parsePart !== undefined) {
      const v = def.parsePart(part);
      if (v === null) return `Each ${param} value must be ${def.allowed ?? allowed}, like ${def.example}, not "${shown(part)}".`;
      values.push(v);
    } else if (def.range) {
      const r = (def.fractions ? /^(\d{1,6}(?:\.\d{1,3})?)\s*-\s*(\d{1,6}(?:\.\d{1,3})?)$/ : /^(\d{1,6})\s*-\s*(\d{1,6})$/).exec(part);
      if (!r)
        return `Each ${param} value must be a range A-B in ${def.fractions ? '' : 'whole '}${def.unit}${def.fractions ? ' (up to 3 decimals)' : ''}, like ${def.example}, not "${shown(part)}".`;
      const a = Number(r[1]);
      const b = Number(r[2]);
      if (a > b || a < def.min || b > def.max) return `The ${param} range "${part}" must be ordered (A <= B) and ${allowed} ${def.unit}.`;
      values.push([a, b]);
    } else {
      if (!/^-?\d{1,6}$/.test(part) || Number(part) < def.min || Number(part) > def.max) {
        return `Each ${param} value must be a whole number ${allowed} (${def.unit}), like ${def.example}, not "${shown(part)}".`;
      }
      values.push(Number(part));
    }
  }
  return { param: param as SweepParam, values };
}

/** Which field each parameter sets: spread and timeout both set the election timeout. */
const setsTimeout = (p: SweepParam) => p === 'timeout' || p === 'spread' || p === 'detector';

/** Whether two sweeps make a grid: null, or one sentence naming what is wrong. */
export function gridProblem(first: Sweep, second: Sweep): string | null {
  if (first.param === second.param)
    return `The second sweep parameter must differ from the first; both are ${first.param}, so put all its values in one sweep.`;
  if (setsTimeout(first.param) && setsTimeout(second.param))
    return `${first.param} and ${second.param} both set the election timeout, so they cannot be swept against each other; sweep one of them.`;
  const pair = [first.param, second.param];
  if (pair.includes('detector') && pair.includes('phi'))
    return 'detector and phi both set the failure detector, so they cannot be swept against each other; sweep one of them.';
  const cells = first.values.length * second.values.length;
  if (cells > MAX_GRID_CELLS)
    return `${first.param} × ${second.param} makes ${first.values.length} × ${second.values.length} = ${cells} cells; at most ${MAX_GRID_CELLS} are allowed (MAX_GRID_CELLS), so drop some values.`;
  return null;
}

/** Seeds per point as text: the number, or one sentence. */
export function parseSeedCount(text: string, points: number, what = 'Seeds per point'): number | string {
  const t = text.trim();
  if (!/^\d{1,6}$/.test(t) || Number(t) < 1 || Number(t) > MAX_SEEDS)
    return `${what} must be a whole number from 1 to ${MAX_SEEDS}, not "${shown(text)}".`;
  const n = Number(t);
  if (n * points > MAX_RUNS) return `${n} seeds at ${points} points make ${n * points} runs; at most ${MAX_RUNS} are allowed.`;
  return n;
}

/** Which field of the parameters each sweep parameter sets (spread sets the timeout). */
const FIELD_OF: Readonly<Record<Exclude<SweepParam, 'spread' | 'detector'>, keyof ExperimentParams>> = {
  timeout: 'timeoutMs',
  heartbeat: 'heartbeatMs',
  latency: 'latencyMs',
  nodes: 'nodes',
  loss: 'lossPct',
  drift: 'driftPct',
  pause: 'pauseMs',
  lease: 'leaseMs',
  phi: 'phi',
  slow: 'slowFactor',
  placement: 'placement',
  takeover: 'takeoverMs',
  persist: 'persistMs',
};

/** Settings every point shares, as text: `timeout=1000-2000 heartbeat=100`. */
export function formatFixed(base: Partial<ExperimentParams>): string {
  const parts: string[] = [];
  for (const [param, field] of Object.entries(FIELD_OF)) {
    const v = base[field];
    if (v !== undefined) parts.push(`${param}=${formatValue(v as SweepValue)}`);
  }
  return parts.join(' ');
}

/** Parses shared settings (`name=value`, separated by spaces), over `base`: the settings, or one sentence. */
export function parseFixed(text: string, base: ExperimentParams): Partial<ExperimentParams> | string {
  let params = base;
  const out: Record<string, unknown> = {};
  for (const token of text.split(/[\s;]+/).filter((t) => t !== '')) {
    const one = parseSweep(token);
    if (typeof one === 'string') return `In the shared settings: ${one}`;
    if (one.param === 'spread') return 'In the shared settings, give the timeout as a range (timeout=150-300) rather than a spread.';
    if (one.param === 'detector')
      return 'In the shared settings, give a fixed timeout as timeout=150-300 or phi-accrual as phi=4; detector= is for a sweep.';
    if (one.values.length !== 1)
      return `In the shared settings, ${one.param} takes one value, not ${one.values.length}; to try several, sweep it.`;
    params = SWEEP_DEFS[one.param].apply(params, one.values[0]);
    const field = FIELD_OF[one.param];
    out[field] = params[field];
  }
  return out as Partial<ExperimentParams>;
}
