/**
 * Failure detectors as a per-run choice (issue 28; the chapter's "Failure detection: heartbeats,
 * gossip, phi-accrual"): what decides that a follower's leader is gone (so it campaigns) and that a
 * lock holder is gone (so the service hands its lock over). The words and their one reader; the
 * detectors themselves are in src/sim/detect/.
 *
 * - `fixed` (the chapter's, and the default): the randomized election timeout, reset by every
 *   heartbeat. With `takeoverMs` the lock service also hands a lock over once it has heard no
 *   keep-alive from the holder for that long (before the TTL runs out when it is shorter).
 * - `phi-accrual` (Hayashibara et al., 2004): suspicion φ from the recent inter-arrival times of
 *   heartbeats; suspected once φ reaches the threshold Φ.
 * - `gossip` (van Renesse, Minsky and Hayden, 1998): each node tells a few random peers its view
 *   (a heartbeat counter per member) every round; a member is suspected once the view says so —
 *   its counter has not grown for `suspectMs`, or a peer's view already suspects it.
 */

export const DETECTORS = ['fixed', 'phi-accrual', 'gossip'] as const;
export type DetectorName = (typeof DETECTORS)[number];

export type DetectorConfig =
  /** Only with a takeover threshold: plain `fixed` is the absent field, so a chapter run keeps its bytes. */
  | { readonly kind: 'fixed'; readonly takeoverMs: number }
  | { readonly kind: 'phi-accrual'; readonly threshold?: number; readonly window?: number }
  | { readonly kind: 'gossip'; readonly fanout?: number; readonly roundMs?: number; readonly suspectMs?: number };

/** Akka's and Cassandra's default conviction threshold. */
export const DEFAULT_PHI = 8;
/** Heartbeat intervals kept: about 5 s at the chapter's 50 ms, so a slow phase is learnt within seconds. */
export const DEFAULT_PHI_WINDOW = 100;
export const MAX_PHI = 30;
export const MAX_PHI_WINDOW = 10_000;
/** HashiCorp memberlist's GossipNodes: each round a node tells three random peers. */
export const DEFAULT_FANOUT = 3;
export const MAX_FANOUT = 20;

export function isDetectorName(text: string): text is DetectorName {
  return (DETECTORS as readonly string[]).includes(text);
}

export function detectorNameOf(d: DetectorConfig | undefined): DetectorName {
  return d === undefined ? 'fixed' : d.kind;
}

/** What the detectors' defaults depend on (a structural view of SimConfig: config.ts imports this file). */
interface TimingFields {
  readonly electionTimeoutMs: readonly [number, number];
  readonly heartbeatMs: number;
}

/** A detector's parameters with every default filled in. */
export interface PhiParams {
  readonly threshold: number;
  readonly window: number;
  /** σ is never taken below this (Akka's min-std-deviation): a tenth of the heartbeat interval. */
  readonly minStdMs: number;
  /** Followers campaign a random 0..stagger ms after φ crosses Φ: the run's timeout spread, so symmetric followers do not split the vote. */
  readonly staggerMs: number;
}

export interface GossipParams {
  readonly fanout: number;
  readonly roundMs: number;
  readonly suspectMs: number;
  readonly staggerMs: number;
}

export function phiParams(d: Extract<DetectorConfig, { kind: 'phi-accrual' }>, c: TimingFields): PhiParams {
  return {
    threshold: d.threshold ?? DEFAULT_PHI,
    window: d.window ?? DEFAULT_PHI_WINDOW,
    minStdMs: c.heartbeatMs / 10,
    staggerMs: c.electionTimeoutMs[1] - c.electionTimeoutMs[0],
  };
}

export function gossipParams(d: Extract<DetectorConfig, { kind: 'gossip' }>, c: TimingFields): GossipParams {
  return {
    fanout: d.fanout ?? DEFAULT_FANOUT,
    roundMs: d.roundMs ?? c.heartbeatMs,
    suspectMs: d.suspectMs ?? c.electionTimeoutMs[0],
    staggerMs: c.electionTimeoutMs[1] - c.electionTimeoutMs[0],
  };
}

/** The detector's text fields, each optional (absent: the default or the base run's). */
export interface DetectorFields {
  readonly detector?: string;
  readonly phi?: string;
  readonly window?: string;
  readonly fanout?: string;
  readonly round?: string;
  readonly suspect?: string;
  readonly takeover?: string;
}

export type DetectorFieldNames = { readonly [K in keyof DetectorFields]-?: string };

export const DETECTOR_FIELD_NAMES: DetectorFieldNames = {
  detector: 'the failure detector',
  phi: 'the phi threshold',
  window: 'the phi window',
  fanout: 'the gossip fanout',
  round: 'the gossip round',
  suspect: 'the gossip suspicion time',
  takeover: 'the takeover threshold',
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function whole(text: string, min: number, max: number): number | null {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t) || Number(t) < min || Number(t) > max) return null;
  return Number(t);
}

/**
 * Reads the detector fields over `base` (the run's detector so far, absent for fixed): the
 * detector (undefined: fixed without a takeover, the chapter's), or one sentence naming the field.
 * A parameter of another detector than the one chosen is refused, so a link never carries a
 * setting that does nothing.
 */
export function detectorFromFields(
  base: DetectorConfig | undefined,
  f: DetectorFields,
  names: DetectorFieldNames = DETECTOR_FIELD_NAMES,
): DetectorConfig | undefined | string {
  let kind: DetectorName = detectorNameOf(base);
  if (f.detector !== undefined) {
    const t = f.detector.trim();
    if (!isDetectorName(t)) return `${capital(names.detector)} must be one of ${DETECTORS.join(', ')}, not "${shown(f.detector)}".`;
    if (t !== kind) base = undefined; // another detector: the old one's parameters go
    kind = t;
  }
  const belongs: Record<Exclude<keyof DetectorFields, 'detector'>, DetectorName> = {
    phi: 'phi-accrual',
    window: 'phi-accrual',
    fanout: 'gossip',
    round: 'gossip',
    suspect: 'gossip',
    takeover: 'fixed',
  };
  for (const [field, owner] of Object.entries(belongs) as [keyof typeof belongs, DetectorName][]) {
    if (f[field] !== undefined && owner !== kind) {
      return `${capital(names[field])} is a setting of the ${owner} detector, and this run's is ${kind}; choose ${owner} too, or leave it out.`;
    }
  }
  if (kind === 'fixed') {
    const prior = base?.kind === 'fixed' ? base.takeoverMs : undefined;
    if (f.takeover === undefined) return prior === undefined ? undefined : { kind, takeoverMs: prior };
    const ms = whole(f.takeover, 1, 10_000_000);
    if (ms === null) return `${capital(names.takeover)} must be a whole number of ms from 1 to 10000000, not "${shown(f.takeover)}".`;
    return { kind, takeoverMs: ms };
  }
  if (kind === 'phi-accrual') {
    const prior = base?.kind === 'phi-accrual' ? base : { kind };
    let threshold = prior.threshold;
    let window = prior.window;
    if (f.phi !== undefined) {
      const t = f.phi.trim();
      if (!/^\d{1,2}(\.\d{1,2})?$/.test(t) || Number(t) <= 0 || Number(t) > MAX_PHI)
        return `${capital(names.phi)} must be a number above 0 and at most ${MAX_PHI} (up to 2 decimals), like 8, not "${shown(f.phi)}".`;
      threshold = Number(t) === DEFAULT_PHI ? undefined : Number(t);
    }
    if (f.window !== undefined) {
      const n = whole(f.window, 2, MAX_PHI_WINDOW);
      if (n === null)
        return `${capital(names.window)} must be a whole number of heartbeats from 2 to ${MAX_PHI_WINDOW}, not "${shown(f.window)}".`;
      window = n === DEFAULT_PHI_WINDOW ? undefined : n;
    }
    return { kind, ...(threshold !== undefined ? { threshold } : {}), ...(window !== undefined ? { window } : {}) };
  }
  const prior = base?.kind === 'gossip' ? base : { kind };
  let { fanout, roundMs, suspectMs } = prior;
  if (f.fanout !== undefined) {
    const n = whole(f.fanout, 1, MAX_FANOUT);
    if (n === null) return `${capital(names.fanout)} must be a whole number of peers from 1 to ${MAX_FANOUT}, not "${shown(f.fanout)}".`;
    fanout = n === DEFAULT_FANOUT ? undefined : n;
  }
  if (f.round !== undefined) {
    const n = whole(f.round, 1, 60_000);
    if (n === null) return `${capital(names.round)} must be a whole number of ms from 1 to 60000, not "${shown(f.round)}".`;
    roundMs = n;
  }
  if (f.suspect !== undefined) {
    const n = whole(f.suspect, 1, 600_000);
    if (n === null) return `${capital(names.suspect)} must be a whole number of ms from 1 to 600000, not "${shown(f.suspect)}".`;
    suspectMs = n;
  }
  return {
    kind,
    ...(fanout !== undefined ? { fanout } : {}),
    ...(roundMs !== undefined ? { roundMs } : {}),
    ...(suspectMs !== undefined ? { suspectMs } : {}),
  };
}

/** The detector as text fields (only what differs from the defaults): the inverse of detectorFromFields. */
export function detectorToFields(d: DetectorConfig | undefined): DetectorFields {
  if (d === undefined) return {};
  switch (d.kind) {
    case 'fixed':
      return { takeover: String(d.takeoverMs) };
    case 'phi-accrual':
      return {
        detector: d.kind,
        ...(d.threshold !== undefined ? { phi: String(d.threshold) } : {}),
        ...(d.window !== undefined ? { window: String(d.window) } : {}),
      };
    case 'gossip':
      return {
        detector: d.kind,
        ...(d.fanout !== undefined ? { fanout: String(d.fanout) } : {}),
        ...(d.roundMs !== undefined ? { round: String(d.roundMs) } : {}),
        ...(d.suspectMs !== undefined ? { suspect: String(d.suspectMs) } : {}),
      };
  }
}

/** A configuration's detector is valid (values in range); one sentence otherwise. */
export function checkDetector(d: DetectorConfig | undefined, c: TimingFields, nodes: number): string | null {
  if (d === undefined) return null;
  const isWhole = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  switch (d.kind) {
    case 'fixed':
      return isWhole(d.takeoverMs, 1, 10_000_000)
        ? null
        : `The takeover threshold must be a whole number of ms from 1 to 10000000, not ${d.takeoverMs}.`;
    case 'phi-accrual':
      if (d.threshold !== undefined && !(typeof d.threshold === 'number' && d.threshold > 0 && d.threshold <= MAX_PHI))
        return `The phi threshold must be above 0 and at most ${MAX_PHI}, not ${d.threshold}.`;
      if (d.window !== undefined && !isWhole(d.window, 2, MAX_PHI_WINDOW))
        return `The phi window must be a whole number of heartbeats from 2 to ${MAX_PHI_WINDOW}, not ${d.window}.`;
      return null;
    case 'gossip': {
      if (d.fanout !== undefined && !isWhole(d.fanout, 1, MAX_FANOUT))
        return `The gossip fanout must be a whole number from 1 to ${MAX_FANOUT}, not ${d.fanout}.`;
      if (d.roundMs !== undefined && !isWhole(d.roundMs, 1, 60_000))
        return `The gossip round must be a whole number of ms from 1 to 60000, not ${d.roundMs}.`;
      if (d.suspectMs !== undefined && !isWhole(d.suspectMs, 1, 600_000))
        return `The gossip suspicion time must be a whole number of ms from 1 to 600000, not ${d.suspectMs}.`;
      const g = gossipParams(d, c);
      if (g.suspectMs <= g.roundMs)
        return `The gossip suspicion time (${g.suspectMs} ms) must be longer than a gossip round (${g.roundMs} ms), or every member is suspected between two rounds.`;
      if (nodes > 1 && g.fanout > nodes - 1) return null; // a node tells every peer: allowed, it is just all of them
      return null;
    }
  }
}

/** The detector in a few words, for headers ("phi-accrual, Φ 8, window 100"). */
export function describeDetector(d: DetectorConfig | undefined, c: TimingFields): string {
  if (d === undefined) return 'fixed';
  switch (d.kind) {
    case 'fixed':
      return `fixed, takeover after ${d.takeoverMs} ms without a keep-alive`;
    case 'phi-accrual': {
      const p = phiParams(d, c);
      return `phi-accrual, Φ ${p.threshold}, window ${p.window}`;
    }
    case 'gossip': {
      const g = gossipParams(d, c);
      return `gossip, fanout ${g.fanout}, round ${g.roundMs} ms, suspect after ${g.suspectMs} ms`;
    }
  }
}

/**
 * What a node asks its failure detector when it hears its leader (NodeHost.leaderWatch; the
 * detectors are in src/sim/detect/). Absent or null: the chapter's randomized timer, reset by every
 * heartbeat. The detector answers when the node's election timer fires now; the node's other
 * timer restarts (granting a vote, campaigning, restarting) stay the chapter's draws.
 */
export interface LeaderWatch {
  /** Node `index` accepted AppendEntries or InstallSnapshot from `leader` at `exactMs` (in the step of `nowMs`). */
  heardLeader(index: number, leader: string, nowMs: number, exactMs: number): number;
}
