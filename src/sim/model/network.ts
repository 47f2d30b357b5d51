/**
 * The network's models beyond the chapter's uniform whole-millisecond latency (issue 28): a
 * uniform range with fractions of a millisecond (`0.2-0.3`), a lognormal with a median and a
 * spread (`lognormal:10:0.5`), and regions — named places with a round-trip matrix, each node,
 * client and store placed in one (`us-east=n1,n2,A; us-west=n3,n4`, `--rtt datacenter|us|world`).
 * The configuration's words and their one reader; the draws live in net/latency.ts.
 *
 * A run that uses none of this is the chapter's (uniform whole ms, `latencyMs`). A run that uses
 * any of it has a *precise network*: messages are due at whole microseconds (docs/semantics.md,
 * "Time"). The chapter's own figures are the presets' anchors: "a majority round trip is 500 µs
 * inside a datacenter and 70 ms across US regions".
 */

/** A lognormal latency: half of the messages take less than `medianMs`, and log-latency has standard deviation `spread`. */
export interface LognormalLatency {
  readonly medianMs: number;
  readonly spread: number;
}

export const RTT_PRESETS = ['datacenter', 'us', 'world'] as const;
export type RttPresetName = (typeof RTT_PRESETS)[number];

/** One entry of a custom round-trip matrix: `a/b=70`. */
export interface RttPair {
  readonly a: string;
  readonly b: string;
  readonly ms: number;
}

export type RttSpec = RttPresetName | readonly RttPair[];

export interface RegionPlace {
  readonly region: string;
  /** Nodes, clients and stores (`fenced`, `unfenced`) placed here, in the order written. */
  readonly ids: readonly string[];
}

export interface RegionsConfig {
  readonly rtt: RttSpec;
  /** In the order written; empty: nodes spread over the matrix's regions in turn (see placeActors). */
  readonly places: readonly RegionPlace[];
}

/** A region's round trip to itself, unless a custom matrix names one: the chapter's "500 µs inside a datacenter". */
export const INTRA_REGION_RTT_MS = 0.5;

/** A message takes half a round trip, give or take this fraction (uniform). */
export const REGION_JITTER = 0.1;

/** Lognormal draws are cut at the median times e^(4·spread) (one in about 31,600 is longer), so every latency has a bound the checkers can use. */
export const LOGNORMAL_CUT_SIGMAS = 4;

export const MAX_LATENCY_MS = 60_000;

interface RttTable {
  readonly regions: readonly string[];
  /** Round trips between distinct regions, ms. */
  readonly pairs: readonly (readonly [string, string, number])[];
}

/**
 * The presets' round trips, in ms: the chapter's "70 ms across US regions" (coast to coast) and
 * 0.5 ms inside one region; the others are rounded figures of the order public cloud providers'
 * inter-region latency tables show. They are a lab's approximations, not measurements.
 */
const TABLES: Readonly<Record<RttPresetName, RttTable>> = {
  datacenter: { regions: ['dc'], pairs: [] },
  us: {
    regions: ['us-east', 'us-central', 'us-west'],
    pairs: [
      ['us-east', 'us-central', 30],
      ['us-east', 'us-west', 70],
      ['us-central', 'us-west', 40],
    ],
  },
  world: {
    regions: ['us-east', 'us-central', 'us-west', 'eu-west', 'ap-northeast', 'ap-southeast'],
    pairs: [
      ['us-east', 'us-central', 30],
      ['us-east', 'us-west', 70],
      ['us-central', 'us-west', 40],
      ['us-east', 'eu-west', 75],
      ['us-central', 'eu-west', 100],
      ['us-west', 'eu-west', 140],
      ['us-east', 'ap-northeast', 160],
      ['us-central', 'ap-northeast', 130],
      ['us-west', 'ap-northeast', 100],
      ['eu-west', 'ap-northeast', 220],
      ['us-east', 'ap-southeast', 220],
      ['us-central', 'ap-southeast', 190],
      ['us-west', 'ap-southeast', 170],
      ['eu-west', 'ap-southeast', 160],
      ['ap-northeast', 'ap-southeast', 70],
    ],
  },
};

/** The round-trip matrix of a spec: its regions (in order) and the round trip between any two, ms. */
export interface RttMatrix {
  readonly regions: readonly string[];
  rttMs(a: string, b: string): number | null;
}

export function rttMatrix(spec: RttSpec): RttMatrix {
  const table = new Map<string, number>();
  const key = (a: string, b: string) => (a < b ? `${a}/${b}` : `${b}/${a}`);
  let regions: string[];
  if (typeof spec === 'string') {
    const t = TABLES[spec];
    regions = [...t.regions];
    for (const [a, b, ms] of t.pairs) table.set(key(a, b), ms);
  } else {
    regions = [];
    for (const p of spec) {
      for (const r of [p.a, p.b]) if (!regions.includes(r)) regions.push(r);
      table.set(key(p.a, p.b), p.ms);
    }
  }
  return {
    regions,
    rttMs(a, b) {
      if (!regions.includes(a) || !regions.includes(b)) return null;
      return table.get(key(a, b)) ?? (a === b ? INTRA_REGION_RTT_MS : null);
    },
  };
}

/** The regions each preset knows, for sentences and the page's picker. */
export function presetRegions(name: RttPresetName): readonly string[] {
  return TABLES[name].regions;
}

/** The smallest preset whose matrix has every one of `regions`, or null. */
export function presetFor(regions: readonly string[]): RttPresetName | null {
  for (const name of RTT_PRESETS) if (regions.every((r) => TABLES[name].regions.includes(r))) return name;
  return null;
}

const REGION_NAME = /^[a-z][a-z0-9-]{0,23}$/;
const ACTOR_ID = /^[A-Za-z][A-Za-z0-9]{0,7}$/;
/** Up to three decimals: the precise network's unit is the microsecond. */
const MS_TEXT = /^\d{1,5}(\.\d{1,3})?$/;

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** A number of ms as written canonically (no trailing zeros). */
export function formatMs(ms: number): string {
  return String(Math.round(ms * 1000) / 1000);
}

/** Whether `ms` is a whole number of microseconds (the precise network's unit). */
export function isWholeUs(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(Math.round(ms * 1000) - ms * 1000) < 1e-6;
}

export type LatencyText = { readonly latencyMs: readonly [number, number] } | { readonly lognormal: LognormalLatency };

/**
 * The latency field: `A-B` (uniform; fractions of a ms up to three decimals, `0.2-0.3`) or
 * `lognormal:MEDIAN:SPREAD` (`lognormal:10:0.5`). One sentence naming `what` when it is neither.
 */
export function parseLatencyText(text: string, what: string): LatencyText | string {
  const t = text.trim();
  const ln = /^lognormal:([^:]*):([^:]*)$/.exec(t);
  if (ln) {
    const median = ln[1].trim();
    const spread = ln[2].trim();
    if (!MS_TEXT.test(median) || Number(median) <= 0 || Number(median) > MAX_LATENCY_MS) {
      return `${what}'s lognormal median must be a number of ms above 0 and at most ${MAX_LATENCY_MS} (up to 3 decimals), like lognormal:10:0.5, not "${shown(median)}".`;
    }
    if (!/^\d(\.\d{1,3})?$/.test(spread) || Number(spread) <= 0 || Number(spread) > 3) {
      return `${what}'s lognormal spread must be a number above 0 and at most 3 (the standard deviation of the log of the latency), like lognormal:10:0.5, not "${shown(spread)}".`;
    }
    return { lognormal: { medianMs: Number(median), spread: Number(spread) } };
  }
  const m = /^(\d{1,9}(?:\.\d{1,3})?)\s*-\s*(\d{1,9}(?:\.\d{1,3})?)$/.exec(t);
  if (!m) {
    return `${what} must be written A-B in ms (fractions up to 3 decimals), like 5-15 or 0.2-0.3, or lognormal:MEDIAN:SPREAD, like lognormal:10:0.5, not "${shown(text)}".`;
  }
  return { latencyMs: [Number(m[1]), Number(m[2])] };
}

export function formatLognormal(l: LognormalLatency): string {
  return `lognormal:${formatMs(l.medianMs)}:${l.spread}`;
}

/** `us-east=n1,n2,A; us-west=n3,n4`: the places as written, or one sentence. */
export function parseRegionsText(text: string, what: string): readonly RegionPlace[] | string {
  const places: RegionPlace[] = [];
  const seen = new Map<string, string>();
  for (const raw of text.split(';')) {
    const part = raw.trim();
    if (part === '') continue;
    const m = /^([^=]*)=(.*)$/.exec(part);
    if (!m) return `${what} must be written region=ids; region=ids, like us-east=n1,n2,A; us-west=n3,n4, not "${shown(part)}".`;
    const region = m[1].trim();
    if (!REGION_NAME.test(region)) return `Region name "${shown(region)}" must be lowercase letters, digits and dashes, like us-east.`;
    if (places.some((p) => p.region === region)) return `${what} names region ${region} twice; list each region once.`;
    const ids = m[2]
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    for (const id of ids) {
      if (!ACTOR_ID.test(id)) return `${what} places "${shown(id)}" in ${region}; name nodes, clients or stores, like n1, A or fenced.`;
      const other = seen.get(id);
      if (other !== undefined)
        return `${what} places ${id} in two regions (${other} and ${region}); place each node, client and store once.`;
      seen.set(id, region);
    }
    places.push({ region, ids });
  }
  if (places.length === 0) return `${what} names no region; write it like us-east=n1,n2,A; us-west=n3,n4.`;
  return places;
}

export function formatRegions(places: readonly RegionPlace[]): string {
  return places.map((p) => `${p.region}=${p.ids.join(',')}`).join('; ');
}

/** `datacenter`, `us`, `world`, or a custom matrix `a/b=70, a/c=80` (a region's own round trip is 0.5 ms unless `a/a=` names one). */
export function parseRttText(text: string, what: string): { readonly rtt: RttSpec } | string {
  const t = text.trim();
  if ((RTT_PRESETS as readonly string[]).includes(t)) return { rtt: t as RttPresetName };
  if (!t.includes('='))
    return `${what} must be one of ${RTT_PRESETS.join(', ')}, or round trips like us-east/eu-west=75, not "${shown(text)}".`;
  const pairs: RttPair[] = [];
  for (const raw of t.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const m = /^([^/=]+)\/([^/=]+)=(.*)$/.exec(part);
    if (!m) return `${what} has "${shown(part)}"; a round trip is written a/b=MS, like us-east/eu-west=75.`;
    const a = m[1].trim();
    const b = m[2].trim();
    for (const r of [a, b])
      if (!REGION_NAME.test(r)) return `Region name "${shown(r)}" must be lowercase letters, digits and dashes, like us-east.`;
    const ms = m[3].trim();
    if (!MS_TEXT.test(ms) || Number(ms) > MAX_LATENCY_MS)
      return `${what} gives ${a}/${b} "${shown(ms)}"; a round trip is a number of ms from 0 to ${MAX_LATENCY_MS} (up to 3 decimals).`;
    if (pairs.some((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))) return `${what} gives the round trip ${a}/${b} twice.`;
    pairs.push({ a, b, ms: Number(ms) });
  }
  if (pairs.length === 0) return `${what} names no round trip; write it like us-east/eu-west=75.`;
  return { rtt: pairs };
}

export function formatRtt(spec: RttSpec): string {
  return typeof spec === 'string' ? spec : spec.map((p) => `${p.a}/${p.b}=${formatMs(p.ms)}`).join(', ');
}

/** Every actor's region: nodes, clients and the two stores. */
export interface Placement {
  readonly matrix: RttMatrix;
  readonly regionOf: ReadonlyMap<string, string>;
}

/**
 * Where everything sits. With places written, every node must be named; clients and stores not
 * named sit in the first region written. With none (only a matrix chosen), nodes go to the
 * matrix's regions in turn (n1 the first, n2 the second, …) and clients and stores to the first.
 */
export function placeActors(regions: RegionsConfig, nodeIds: readonly string[], clientIds: readonly string[]): Placement {
  const matrix = rttMatrix(regions.rtt);
  const regionOf = new Map<string, string>();
  for (const p of regions.places) for (const id of p.ids) regionOf.set(id, p.region);
  const first = regions.places.length > 0 ? regions.places[0].region : matrix.regions[0];
  nodeIds.forEach((id, i) => {
    if (!regionOf.has(id)) regionOf.set(id, regions.places.length > 0 ? first : matrix.regions[i % matrix.regions.length]);
  });
  for (const id of [...clientIds, 'fenced', 'unfenced']) if (!regionOf.has(id)) regionOf.set(id, first);
  return { matrix, regionOf };
}

/** One sentence when the regions do not fit the run (an unknown id, an unplaced node, a region the matrix lacks), else null. */
export function checkRegions(
  regions: RegionsConfig,
  nodeIds: readonly string[],
  clientIds: readonly string[],
  what = 'The regions',
): string | null {
  const matrix = rttMatrix(regions.rtt);
  const known = new Set([...nodeIds, ...clientIds, 'fenced', 'unfenced']);
  for (const p of regions.places) {
    for (const id of p.ids) {
      if (!known.has(id)) {
        return `${what} place "${id}", which is no node, client or store of this run; the nodes are ${nodeIds.join(', ')}${clientIds.length ? `, the clients ${clientIds.join(', ')}` : ''} and the stores fenced, unfenced.`;
      }
    }
    if (!matrix.regions.includes(p.region)) {
      const name = typeof regions.rtt === 'string' ? `the ${regions.rtt} round-trip matrix` : 'the round trips given';
      return `Region ${p.region} is not in ${name} (${matrix.regions.join(', ')}); choose another matrix (${RTT_PRESETS.join(', ')}) or give its round trips, like ${p.region}/${matrix.regions[0]}=75.`;
    }
  }
  if (regions.places.length > 0) {
    const placed = new Set(regions.places.flatMap((p) => p.ids));
    const missing = nodeIds.filter((id) => !placed.has(id));
    if (missing.length > 0)
      return `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} in no region; with regions, place every node, like ${regions.places[0].region}=${missing.join(',')}.`;
  }
  // Every pair of regions in use needs a round trip (a custom matrix may leave some out).
  const used = [...new Set(placeActors(regions, nodeIds, clientIds).regionOf.values())];
  for (const a of used) {
    for (const b of used) {
      if (matrix.rttMs(a, b) === null) return `The round trip between ${a} and ${b} is missing; give it like ${a}/${b}=70.`;
    }
  }
  return null;
}

/** What a configuration says of its network, for the fields below (a structural view: config.ts imports this file). */
interface NetworkFields {
  readonly latencyMs: readonly [number, number];
  readonly latencyLognormal?: LognormalLatency;
  readonly regions?: RegionsConfig;
  readonly persistMs?: number;
}

/**
 * Whether the run's messages are due at microseconds rather than whole milliseconds: a latency
 * with a fraction, a lognormal, regions, or a persist delay with a fraction. A run with none of
 * these is the chapter's.
 */
export function isPreciseNetwork(c: NetworkFields): boolean {
  return (
    c.regions !== undefined ||
    c.latencyLognormal !== undefined ||
    !Number.isInteger(c.latencyMs[0]) ||
    !Number.isInteger(c.latencyMs[1]) ||
    (c.persistMs !== undefined && !Number.isInteger(c.persistMs))
  );
}

/** The longest persist delay a server may take before a reply (Figure 2: stable storage before responding), ms. */
export const MAX_PERSIST_MS = 10_000;

/** A run's persist delay before replies, ms: 0 when the field is absent (the chapter's). */
export function persistOf(c: NetworkFields): number {
  return c.persistMs ?? 0;
}

/**
 * The persist delay as written (`--persist`, `persist=`): a number of ms from 0 to MAX_PERSIST_MS,
 * up to three decimals. 0 means none (the field is left out). One sentence naming `what` otherwise.
 */
export function parsePersistText(text: string, what: string): number | string {
  const t = text.trim();
  if (!MS_TEXT.test(t) || Number(t) > MAX_PERSIST_MS)
    return `${what} must be a number of ms from 0 to ${MAX_PERSIST_MS} (up to 3 decimals), like 10 or 2.5, not "${shown(text)}".`;
  return Number(t);
}

/**
 * The shortest and longest one-way latency the run can draw (before `slow`, `delay` and
 * reordering), ms. A reply's trip is also `persistMs` longer: checkers that bound when a message
 * can arrive use deliveryBoundsMs.
 */
type PlacedNetwork = NetworkFields & { readonly nodeIds: readonly string[]; readonly clientIds: readonly string[] };

export function latencyBoundsMs(c: PlacedNetwork): readonly [number, number] {
  if (c.regions === undefined && c.latencyLognormal === undefined) return c.latencyMs;
  // Checkers ask every step; a configuration never changes, so its bounds are worked out once.
  let bounds = BOUNDS.get(c);
  if (bounds === undefined) BOUNDS.set(c, (bounds = boundsOf(c)));
  return bounds;
}

const BOUNDS = new WeakMap<object, readonly [number, number]>();

/**
 * The shortest and longest time from a send to its delivery (before `slow`, `delay` and
 * reordering), ms: the network's latency, and for the longest, a reply's persist delay on top
 * (a request arrives as fast as the network allows; a reply leaves `persistMs` after it).
 */
export function deliveryBoundsMs(c: PlacedNetwork): readonly [number, number] {
  const bounds = latencyBoundsMs(c);
  if (c.persistMs === undefined) return bounds;
  let out = DELIVERY.get(c);
  if (out === undefined) DELIVERY.set(c, (out = [bounds[0], Math.round((bounds[1] + c.persistMs) * 1000) / 1000]));
  return out;
}

const DELIVERY = new WeakMap<object, readonly [number, number]>();

function boundsOf(c: PlacedNetwork): readonly [number, number] {
  if (c.regions !== undefined) {
    const { matrix, regionOf } = placeActors(c.regions, c.nodeIds, c.clientIds);
    const used = [...new Set(regionOf.values())];
    let lo = Infinity;
    let hi = 0;
    for (const a of used) {
      for (const b of used) {
        const oneWayUs = ((matrix.rttMs(a, b) ?? 0) * 1000) / 2;
        lo = Math.min(lo, Math.round(oneWayUs * (1 - REGION_JITTER)) / 1000);
        hi = Math.max(hi, Math.round(oneWayUs * (1 + REGION_JITTER)) / 1000);
      }
    }
    return [lo === Infinity ? 0 : lo, hi];
  }
  if (c.latencyLognormal !== undefined) {
    const { medianMs, spread } = c.latencyLognormal;
    return [0, Math.min(MAX_LATENCY_MS, Math.round(medianMs * Math.exp(LOGNORMAL_CUT_SIGMAS * spread) * 1000) / 1000)];
  }
  return c.latencyMs;
}

/** The network in a few words, for headers and the page ("lognormal, median 10 ms, spread 0.5"), and the persist delay when set. */
export function describeNetwork(c: NetworkFields): string {
  const network = describeLinks(c);
  return c.persistMs === undefined ? network : `${network}, persist ${formatMs(c.persistMs)} ms before replies`;
}

function describeLinks(c: NetworkFields): string {
  if (c.regions !== undefined) {
    const places = c.regions.places.length > 0 ? formatRegions(c.regions.places) : 'nodes spread over its regions';
    return `regions ${places}, round trips ${formatRtt(c.regions.rtt)}`;
  }
  if (c.latencyLognormal !== undefined)
    return `latency lognormal, median ${formatMs(c.latencyLognormal.medianMs)} ms, spread ${c.latencyLognormal.spread}`;
  return `latency ${formatMs(c.latencyMs[0])}-${formatMs(c.latencyMs[1])} ms`;
}
