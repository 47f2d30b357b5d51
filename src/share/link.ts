/**
 * Share links: the URL holds the whole run — format version, seed, configuration, schedule and
 * the current time — so opening it replays the exact run and lands paused at that moment.
 * Short links stay human-readable (`?v=1&seed=42&s=@1168+crash+n2`); long schedules are
 * deflated (fflate) and base64url-encoded in `z`. Every bad link gets one sentence.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { DEFAULT_CONFIG, MAX_NODES, configFromFields, featuresOf, lockOptionsOf, type SimConfig } from '../sim/model/config';
import { formatLognormal, formatMs, formatRegions, formatRtt } from '../sim/model/network';
import { detectorToFields, type DetectorFields } from '../sim/model/detector';
import { MAX_SCHEDULE_CHARS, ScheduleError, checkSchedule, formatSchedule, parseSchedule, type Action } from '../sim/model/schedule';
import { TOUR_CATALOG, catalogTour } from '../sim/teach/tours/catalog';
// The page's own limits: a link that decodes can always be replayed.
import { MAX_SEEK_MS, MAX_SPEED, MIN_SPEED, scheduleCapProblem } from '../sim/model/limits';

export const LINK_VERSION = 1;
/** Longest link text accepted, and longest schedule a compressed link may expand to. */
export const MAX_LINK_CHARS = 64 * 1024;
/** Schedules longer than this are compressed. */
const COMPRESS_OVER_CHARS = 600;

export interface RunSpec {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  /** Where the run lands, paused. */
  readonly atMs: number;
  /** A view setting, not part of the run: playback speed (simulated ms per real ms), if not the default. */
  readonly speed?: number;
  /** A guided tour open at this beat (1-based); the page opens the beat's own run, at its end. */
  readonly tour?: TourPlace;
  /** A view setting: what the diagram pane shows (the ring, the space-time view, or both). */
  readonly view?: LinkView;
  /** A view setting: open in presenter mode (`&present=1`). */
  readonly present?: boolean;
  /** A view setting: the minimal frame for an iframe on a course page (`&embed=1`). */
  readonly embed?: boolean;
  /** The presenter console window of a projector page (`&console=1`); not part of the run. */
  readonly console?: boolean;
}

export const LINK_VIEWS = ['ring', 'split', 'time'] as const;
export type LinkView = (typeof LINK_VIEWS)[number];

export interface TourPlace {
  readonly name: string;
  readonly beat: number;
}

export type Decoded = { readonly ok: true; readonly spec: RunSpec } | { readonly ok: false; readonly error: string };

const sameRange = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/** The query string (without `?`) for a run. Defaults are left out so short links stay short. */
export function encodeLink(spec: RunSpec): string {
  const c = spec.config;
  const p = new URLSearchParams();
  p.set('v', String(LINK_VERSION));
  p.set('seed', String(c.seed));
  if (c.nodeIds.length !== DEFAULT_CONFIG.nodeIds.length) p.set('nodes', String(c.nodeIds.length));
  if (!sameRange(c.electionTimeoutMs, DEFAULT_CONFIG.electionTimeoutMs)) p.set('timeout', c.electionTimeoutMs.join('-'));
  if (c.heartbeatMs !== DEFAULT_CONFIG.heartbeatMs) p.set('heartbeat', String(c.heartbeatMs));
  const latency = latencyText(c);
  if (latency !== null) p.set('latency', latency);
  if (c.clientIds.length > 0) p.set('clients', c.clientIds.join(''));
  if (c.bugs.length > 0) p.set('bugs', c.bugs.join(','));
  if (featuresOf(c).length > 0) p.set('features', featuresOf(c).join(','));
  if (c.snapshotEvery !== undefined) p.set('snapshot', String(c.snapshotEvery));
  if (c.readMode !== undefined) p.set('read', c.readMode);
  // Issue 26: absent is the chapter's service, so every link made before says what it said.
  if (c.lock !== undefined) p.set('lock', c.lock);
  if (lockOptionsOf(c).length > 0) p.set('lockopts', lockOptionsOf(c).join(','));
  // Paxos runs only: a Raft link never names its protocol, so every Raft link keeps its bytes.
  if (c.protocol !== undefined) p.set('protocol', c.protocol);
  if (c.backoffMs !== undefined) p.set('backoff', c.backoffMs.join('-'));
  // Issue 28: regions, their round trips and the failure detector, only when set.
  for (const [key, value] of Object.entries(issue28Fields(c))) p.set(key, value);
  const text = formatSchedule(spec.schedule);
  if (text.length > COMPRESS_OVER_CHARS) p.set('z', toBase64Url(deflateSync(strToU8(text), { level: 9 })));
  else if (text.length > 0) p.set('s', text);
  p.set('t', String(spec.atMs));
  if (spec.speed !== undefined) p.set('speed', String(spec.speed));
  if (spec.tour !== undefined) {
    p.set('tour', spec.tour.name);
    p.set('beat', String(spec.tour.beat));
  }
  if (spec.view !== undefined) p.set('view', spec.view);
  for (const flag of MODE_FLAGS) if (spec[flag] === true) p.set(flag, '1');
  return p.toString();
}

/** The latency as a link writes it (null: the default 5-15): `0.2-0.3`, or `lognormal:10:0.5`. */
function latencyText(c: SimConfig): string | null {
  if (c.latencyLognormal !== undefined) return formatLognormal(c.latencyLognormal);
  if (sameRange(c.latencyMs, DEFAULT_CONFIG.latencyMs)) return null;
  return `${formatMs(c.latencyMs[0])}-${formatMs(c.latencyMs[1])}`;
}

/** A link's keys for the detector's fields (the link's own short names). */
const DETECTOR_KEYS: Readonly<Record<keyof DetectorFields, string>> = {
  detector: 'detector',
  phi: 'phi',
  window: 'window',
  fanout: 'fanout',
  round: 'round',
  suspect: 'suspect',
  takeover: 'takeover',
};

/** Issue 28's link fields of a configuration: `regions`, `rtt` and the detector's, only those set. */
function issue28Fields(c: SimConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (c.regions !== undefined) {
    if (c.regions.places.length > 0) out.regions = formatRegions(c.regions.places);
    out.rtt = formatRtt(c.regions.rtt);
  }
  const d = detectorToFields(c.detector);
  for (const [field, value] of Object.entries(d) as [keyof DetectorFields, string][]) out[DETECTOR_KEYS[field]] = value;
  // Figure 16's persist delay before replies, only when set.
  if (c.persistMs !== undefined) out.persist = formatMs(c.persistMs);
  return out;
}

/** Page modes a link can switch on with `=1`: presenter mode, the embed frame, the presenter console. */
export const MODE_FLAGS = ['present', 'embed', 'console'] as const;
type ModeFlag = (typeof MODE_FLAGS)[number];

const KNOWN = new Set([
  'v',
  'seed',
  'nodes',
  'timeout',
  'heartbeat',
  'latency',
  'clients',
  'bugs',
  'features',
  'read',
  'lock',
  'lockopts',
  's',
  'z',
  't',
  'speed',
  'tour',
  'beat',
  'view',
  ...MODE_FLAGS,
  'snapshot',
  'protocol',
  'backoff',
  'regions',
  'rtt',
  'persist',
  ...Object.values(DETECTOR_KEYS),
]);

export interface DecodeOptions {
  /**
   * Refuse actions past the page's cap (MAX_SEEK_MS), as the page does (the default): a link the
   * page opens can always be replayed there. The command line passes false and keeps its own limit.
   */
  readonly pageCap?: boolean;
}

/** Reads a link's query string (with or without `?`, or a whole URL). Never throws. */
export function decodeLink(input: string, options: DecodeOptions = {}): Decoded {
  try {
    return decode(input, options.pageCap ?? true);
  } catch (error) {
    // Anything unforeseen still becomes one sentence rather than a crash.
    return fail(`This link could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
}

function fail(error: string): Decoded {
  return { ok: false, error };
}

function decode(input: string, pageCap: boolean): Decoded {
  if (input.length > MAX_LINK_CHARS) {
    return fail(`This link is ${input.length} characters long; at most ${MAX_LINK_CHARS} are allowed.`);
  }
  const q = input.includes('?') ? input.slice(input.indexOf('?') + 1) : input;
  const query = q.split('#')[0];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return fail('This link is not a Lockstep link: its query string cannot be read.');
  }
  for (const key of params.keys()) {
    if (!KNOWN.has(key)) return fail(`This link has an unknown field "${key.slice(0, 20)}"; a Lockstep link has ${[...KNOWN].join(', ')}.`);
    if (params.getAll(key).length > 1) return fail(`This link gives "${key}" more than once.`);
  }
  const v = params.get('v');
  if (v === null) return fail('This link has no format version (v=1); it is not a Lockstep run link.');
  if (v !== String(LINK_VERSION))
    return fail(`This link is format version "${v.slice(0, 12)}"; this Lockstep reads version ${LINK_VERSION}.`);
  const seed = params.get('seed');
  if (seed === null) return fail('This link has no seed.');
  const field = (name: string) => params.get(name) ?? undefined;
  const fields = {
    seed,
    nodes: field('nodes'),
    timeout: field('timeout'),
    heartbeat: field('heartbeat'),
    latency: field('latency'),
    clients: field('clients'),
    bugs: field('bugs'),
    features: field('features'),
    snapshotEvery: field('snapshot'),
    readMode: field('read'),
    lock: field('lock'),
    lockOptions: field('lockopts'),
    protocol: field('protocol'),
    backoff: field('backoff'),
    regions: field('regions'),
    rtt: field('rtt'),
    persist: field('persist'),
    detector: field('detector'),
    phi: field('phi'),
    window: field('window'),
    fanout: field('fanout'),
    round: field('round'),
    suspect: field('suspect'),
    takeover: field('takeover'),
  };
  const config = configFromFields(DEFAULT_CONFIG, fields);
  if (typeof config === 'string') return fail(`This link's configuration is invalid: ${config}`);
  // Past 9 nodes (gossip at scale, issue 28) a run is for the command line: the page draws at most 9.
  if (pageCap && config.nodeIds.length > MAX_NODES) {
    return fail(
      `This link's run has ${config.nodeIds.length} nodes; the page draws at most ${MAX_NODES}, so replay it in a terminal: npm run sim -- --link "<this link>".`,
    );
  }
  let text = params.get('s') ?? '';
  const z = params.get('z');
  if (z !== null) {
    if (params.has('s')) return fail('This link has both a plain (s) and a compressed (z) schedule; it may have only one.');
    const unpacked = unpack(z);
    if (unpacked === null) return fail('The compressed schedule in this link is damaged or truncated.');
    if (unpacked === 'too-big')
      return fail(`The compressed schedule in this link expands past ${MAX_SCHEDULE_CHARS} characters; that is too large.`);
    text = unpacked;
  }
  let schedule: Action[];
  try {
    schedule = parseSchedule(text);
  } catch (error) {
    if (error instanceof ScheduleError) return fail(`This link's schedule is invalid: ${error.message}`);
    throw error;
  }
  const scheduleProblem = checkSchedule(schedule, config) ?? (pageCap ? scheduleCapProblem(schedule) : null);
  if (scheduleProblem) return fail(`This link's schedule is invalid: ${scheduleProblem}`);
  const t = params.get('t');
  let atMs = 0;
  if (t !== null) {
    if (!/^\d{1,10}$/.test(t) || Number(t) > MAX_SEEK_MS)
      return fail(`This link's time "${t.slice(0, 14)}" must be a whole number of ms from 0 to ${MAX_SEEK_MS}.`);
    atMs = Number(t);
  }
  const tour = tourPlace(params.get('tour'), params.get('beat'));
  if (typeof tour === 'string') return fail(tour);
  const viewText = params.get('view');
  if (viewText !== null && !(LINK_VIEWS as readonly string[]).includes(viewText)) {
    return fail(`This link's view "${viewText.slice(0, 14)}" must be one of ${LINK_VIEWS.join(', ')}.`);
  }
  const modes: { -readonly [K in ModeFlag]?: boolean } = {};
  for (const flag of MODE_FLAGS) {
    const text = params.get(flag);
    if (text === null) continue;
    if (text !== '1') return fail(`This link's ${flag} "${text.slice(0, 14)}" must be 1 (or leave "${flag}" out).`);
    modes[flag] = true;
  }
  if (modes.present && modes.embed)
    return fail('This link asks for both present=1 and embed=1; a page is either a presenter screen or an embedded frame.');
  const extra = { ...(tour !== null ? { tour } : {}), ...(viewText !== null ? { view: viewText as LinkView } : {}), ...modes };
  const speedText = params.get('speed');
  if (speedText !== null) {
    const speed = Number(speedText);
    if (!/^\d{1,3}(\.\d{1,3})?$/.test(speedText) || speed < MIN_SPEED || speed > MAX_SPEED) {
      return fail(
        `This link's speed "${speedText.slice(0, 14)}" must be a number from ${MIN_SPEED} to ${MAX_SPEED} (simulated ms per real ms).`,
      );
    }
    return { ok: true, spec: { config, schedule, atMs, speed, ...extra } };
  }
  return { ok: true, spec: { config, schedule, atMs, ...extra } };
}

/** The link's tour and beat (beat 1 when only the tour is given), or one sentence. */
function tourPlace(name: string | null, beatText: string | null): TourPlace | null | string {
  if (name === null) return beatText === null ? null : `This link has a beat but no tour; write it like "&tour=fencing&beat=3".`;
  const tour = catalogTour(name);
  if (tour === null)
    return `This link's tour "${name.slice(0, 30)}" is not one of the tours: ${TOUR_CATALOG.map((t) => t.name).join(', ')}.`;
  if (beatText === null) return { name, beat: 1 };
  const count = tour.beats;
  if (!/^\d{1,3}$/.test(beatText) || Number(beatText) < 1 || Number(beatText) > count) {
    return `This link's beat "${beatText.slice(0, 14)}" must be a whole number from 1 to ${count} (the tour "${name}" has ${count} beats).`;
  }
  return { name, beat: Number(beatText) };
}

function unpack(z: string): string | null | 'too-big' {
  if (!/^[A-Za-z0-9_-]+$/.test(z)) return null;
  const bytes = fromBase64Url(z);
  if (bytes === null) return null;
  let out: Uint8Array;
  try {
    out = inflateSync(bytes, { out: new Uint8Array(MAX_SCHEDULE_CHARS * 4 + 1) });
  } catch {
    return null;
  }
  if (out.length > MAX_SCHEDULE_CHARS * 4) return 'too-big';
  let text: string;
  try {
    text = strFromU8(out);
  } catch {
    return null;
  }
  if (text.length > MAX_SCHEDULE_CHARS) return 'too-big';
  // A truncated deflate stream can still inflate to a prefix; a schedule always round-trips.
  return text;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i];
    const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (a << 16) | (b << 8) | c;
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    if (i + 1 < bytes.length) out += ALPHABET[(n >> 6) & 63];
    if (i + 2 < bytes.length) out += ALPHABET[n & 63];
  }
  return out;
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** The run as a small JSON file: the same content as the link, spelled out. */
export function runToJson(spec: RunSpec): string {
  const c = spec.config;
  const file = {
    format: 'lockstep-run',
    version: LINK_VERSION,
    seed: String(c.seed),
    nodes: c.nodeIds.length,
    timeout: c.electionTimeoutMs.join('-'),
    heartbeat: c.heartbeatMs,
    // With regions every latency comes from the round-trip matrix (issue 28): the file says nothing of one.
    ...(c.regions === undefined ? { latency: latencyText(c) ?? c.latencyMs.join('-') } : {}),
    clients: c.clientIds.join(''),
    bugs: c.bugs.join(','),
    ...(featuresOf(c).length > 0 ? { features: featuresOf(c).join(',') } : {}),
    ...(c.snapshotEvery !== undefined ? { snapshot: c.snapshotEvery } : {}),
    ...(c.readMode !== undefined ? { readMode: c.readMode } : {}),
    ...(c.lock !== undefined ? { lock: c.lock } : {}),
    ...(lockOptionsOf(c).length > 0 ? { lockOptions: lockOptionsOf(c).join(',') } : {}),
    ...(c.protocol !== undefined ? { protocol: c.protocol } : {}),
    ...(c.backoffMs !== undefined ? { backoff: c.backoffMs.join('-') } : {}),
    ...issue28Fields(c),
    schedule: formatSchedule(spec.schedule)
      .split('; ')
      .filter((a) => a !== ''),
    t: spec.atMs,
    ...(spec.speed !== undefined ? { speed: spec.speed } : {}),
  };
  return JSON.stringify(file, null, 2) + '\n';
}

/** Reads a run file through the same checks as a link. Never throws. */
export function runFromJson(text: string): Decoded {
  if (text.length > MAX_LINK_CHARS * 2)
    return fail(`This file is ${text.length} characters long; a run file is at most ${MAX_LINK_CHARS * 2}.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('This file is not JSON; a run file is what Export ▸ "Run file" saves.');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || (data as { format?: unknown }).format !== 'lockstep-run') {
    return fail('This JSON is not a Lockstep run file (it needs "format": "lockstep-run").');
  }
  const d = data as Record<string, unknown>;
  const p = new URLSearchParams();
  const fields: [string, string][] = [
    ['version', 'v'],
    ['seed', 'seed'],
    ['nodes', 'nodes'],
    ['timeout', 'timeout'],
    ['heartbeat', 'heartbeat'],
    ['latency', 'latency'],
    ['clients', 'clients'],
    ['bugs', 'bugs'],
    ['features', 'features'],
    ['snapshot', 'snapshot'],
    ['readMode', 'read'],
    ['lock', 'lock'],
    ['lockOptions', 'lockopts'],
    ['protocol', 'protocol'],
    ['backoff', 'backoff'],
    ['regions', 'regions'],
    ['rtt', 'rtt'],
    ['persist', 'persist'],
    ...Object.values(DETECTOR_KEYS).map((k) => [k, k] as [string, string]),
    ['t', 't'],
    ['speed', 'speed'],
  ];
  for (const [from, to] of fields) {
    const v = d[from];
    if (v === undefined) continue;
    if (typeof v !== 'string' && typeof v !== 'number') return fail(`The run file's "${from}" must be a string or a number.`);
    p.set(to, String(v));
  }
  const schedule = d.schedule;
  if (schedule !== undefined) {
    if (!Array.isArray(schedule) || schedule.some((a) => typeof a !== 'string'))
      return fail('The run file\'s "schedule" must be a list of actions like "@1168 crash n2".');
    p.set('s', schedule.join('; '));
  }
  const decoded = decodeLink(p.toString());
  // The same checks as a link, but the sentence names what the person opened.
  return decoded.ok
    ? decoded
    : fail(decoded.error.replace(/\b([Tt])his link\b/g, '$1his run file').replace(/\b([Tt])he link's\b/g, "$1he run file's"));
}
