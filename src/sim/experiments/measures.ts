/**
 * The experiments' measures, each defined once, here, as a function of a run's record
 * (observations.ts). A measure returns null when the run has nothing to measure (no leader was
 * lost, no entry committed): such runs are counted, never plotted as zero.
 */
import { majorityOf } from '../raft/quorum';
import type { Observation, RunRecord } from './observations';
import { quantile } from './stats';

/** Who is up, who leads in which term, and the network's groups, replayed from observations. */
export class ClusterView {
  readonly alive: Set<string>;
  /** Nodes that act as leader now, with their term (a stale leader may linger in a minority). */
  readonly leading = new Map<string, number>();
  private groupOf: Map<string, number> | null = null;

  constructor(readonly nodeIds: readonly string[]) {
    this.alive = new Set(nodeIds);
  }

  apply(o: Observation): void {
    switch (o.kind) {
      case 'crash':
        this.alive.delete(o.node);
        this.leading.delete(o.node);
        break;
      case 'restart':
        // Back as a follower (the chapter's restart keeps term, vote and log, not the role).
        this.alive.add(o.node);
        this.leading.delete(o.node);
        break;
      case 'step-down':
      case 'election':
        this.leading.delete(o.node);
        break;
      case 'leader':
        this.leading.set(o.node, o.term);
        break;
      case 'partition':
        this.groupOf = new Map();
        o.groups.forEach((g, i) => g.forEach((id) => this.groupOf?.set(id, i)));
        break;
      case 'heal':
        this.groupOf = null;
        break;
      default:
        break;
    }
  }

  /** The live leader of highest term (as `Cluster.leader()`), with its term, or null. */
  leader(): { readonly node: string; readonly term: number } | null {
    let best: { node: string; term: number } | null = null;
    for (const [node, term] of this.leading) if (best === null || term > best.term) best = { node, term };
    return best;
  }

  /** Whether `node` leads and reaches a majority of the cluster's nodes that are up (itself included). */
  canCommit(node: string): boolean {
    if (!this.leading.has(node) || !this.alive.has(node)) return false;
    const group = this.groupOf?.get(node);
    let reach = 0;
    for (const id of this.alive) if (this.groupOf === null || this.groupOf.get(id) === group) reach++;
    return reach >= majorityOf(this.nodeIds.length);
  }

  /** Some leader can commit now. */
  committing(): boolean {
    for (const node of this.leading.keys()) if (this.canCommit(node)) return true;
    return false;
  }
}

/** The first moment the cluster lost its committing leader to a fault: the leader crashed, or a partition cut it off from a majority. */
export interface LeaderLoss {
  readonly t: number;
  readonly index: number;
  readonly node: string;
  readonly term: number;
}

export function firstLeaderLoss(record: RunRecord): LeaderLoss | null {
  const view = new ClusterView(record.nodeIds);
  const obs = record.observations;
  for (let i = 0; i < obs.length; i++) {
    const o = obs[i];
    const before = view.leader();
    const wasCommitting = before !== null && view.canCommit(before.node);
    view.apply(o);
    if (!wasCommitting || before === null) continue;
    if ((o.kind === 'crash' && o.node === before.node) || (o.kind === 'partition' && !view.canCommit(before.node))) {
      return { t: o.t, index: i, node: before.node, term: before.term };
    }
  }
  return null;
}

/** Failover time (ms): from losing the leader (crash, or cut off by a partition) to the first leader elected in a later term. */
export function failoverMs(record: RunRecord): number | null {
  const loss = firstLeaderLoss(record);
  if (loss === null) return null;
  const obs = record.observations;
  for (let i = loss.index + 1; i < obs.length; i++) {
    const o = obs[i];
    if (o.kind === 'leader' && o.term > loss.term) return o.t - loss.t;
  }
  return null;
}

/**
 * The stable leader after the loss: the first leader elected after it that still leads when
 * the run ends (nobody displaced it, it did not crash or step down). Null if there is none.
 */
function stableLeaderAfterLoss(record: RunRecord): { loss: LeaderLoss; index: number; term: number } | null {
  const loss = firstLeaderLoss(record);
  if (loss === null) return null;
  const obs = record.observations;
  let candidate: { index: number; node: string; term: number } | null = null;
  for (let i = loss.index + 1; i < obs.length; i++) {
    const o = obs[i];
    if (o.kind === 'leader' && o.term > loss.term && (candidate === null || o.term > candidate.term))
      candidate = { index: i, node: o.node, term: o.term };
    else if (
      candidate !== null &&
      (o.kind === 'crash' || o.kind === 'step-down' || o.kind === 'election' || o.kind === 'restart') &&
      o.node === candidate.node
    )
      candidate = null;
  }
  return candidate === null ? null : { loss, index: candidate.index, term: candidate.term };
}

/** Elections (candidacies: a node timed out and asked for votes) from losing the leader until the stable leader won. */
export function electionsToStableLeader(record: RunRecord): number | null {
  const stable = stableLeaderAfterLoss(record);
  if (stable === null) return null;
  let n = 0;
  for (let i = stable.loss.index + 1; i <= stable.index; i++) if (record.observations[i].kind === 'election') n++;
  return n;
}

/** Terms from the lost leader's to the stable leader's (1: the first new term elected it). */
export function termsToStableLeader(record: RunRecord): number | null {
  const stable = stableLeaderAfterLoss(record);
  return stable === null ? null : stable.term - stable.loss.term;
}

/**
 * Split-vote rate: of the terms in which someone campaigned, the fraction that elected nobody.
 * The last campaigned term is left out when it has no leader yet: the run ended mid-vote.
 */
export function splitVoteRate(record: RunRecord): number | null {
  const campaigned = new Set<number>();
  const elected = new Set<number>();
  for (const o of record.observations) {
    if (o.kind === 'election') campaigned.add(o.term);
    else if (o.kind === 'leader') elected.add(o.term);
  }
  if (campaigned.size === 0) return null;
  const last = Math.max(...campaigned);
  if (!elected.has(last)) campaigned.delete(last);
  if (campaigned.size === 0) return null;
  let split = 0;
  for (const term of campaigned) if (!elected.has(term)) split++;
  return split / campaigned.size;
}

/**
 * Commit latency of every submitted entry (ms): from entering the leader's log to that same
 * leader, in the same term, counting a majority holding it. Entries a later leader committed,
 * or nobody did, have none.
 */
export function commitLatencies(record: RunRecord): number[] {
  const open: { node: string; term: number; index: number; t: number }[] = [];
  const out: number[] = [];
  for (const o of record.observations) {
    if (o.kind === 'append') open.push({ node: o.node, term: o.term, index: o.index, t: o.t });
    else if (o.kind === 'commit') {
      for (let i = open.length - 1; i >= 0; i--) {
        const e = open[i];
        if (e.node === o.node && e.term === o.term && e.index <= o.index) {
          out.push(o.t - e.t);
          open.splice(i, 1);
        }
      }
    }
  }
  return out;
}

export function commitLatencyPercentile(record: RunRecord, p: number): number | null {
  const latencies = commitLatencies(record);
  return latencies.length === 0 ? null : quantile(latencies, p);
}

/** Entries committed: the highest index a leader counted on a majority. */
export function committedEntries(record: RunRecord): number {
  let top = 0;
  for (const o of record.observations) if (o.kind === 'commit' && o.index > top) top = o.index;
  return top;
}

/** Raft messages sent in the run per entry committed (heartbeats and elections included). */
export function messagesPerCommittedEntry(record: RunRecord): number | null {
  const entries = committedEntries(record);
  return entries === 0 ? null : record.messages / entries;
}

/**
 * Availability: the fraction of time with a leader that can commit (it leads and reaches a
 * majority of the nodes that are up), from the first fault that took the leader away (or, in a
 * run without one, from the first leader) to the end of the run.
 */
export function availability(record: RunRecord): number | null {
  const loss = firstLeaderLoss(record);
  const obs = record.observations;
  const firstLeader = obs.find((o) => o.kind === 'leader');
  const from = loss !== null ? loss.t : firstLeader !== undefined ? firstLeader.t : null;
  if (from === null || from >= record.endMs) return null;
  const view = new ClusterView(record.nodeIds);
  let up = 0;
  let last = from;
  let committing = false;
  for (const o of obs) {
    if (o.t > from) {
      const t = Math.min(o.t, record.endMs);
      if (committing && t > last) up += t - last;
      last = Math.max(last, t);
    }
    view.apply(o);
    committing = view.committing();
  }
  if (committing && record.endMs > last) up += record.endMs - last;
  return up / (record.endMs - from);
}

/**
 * Stale writes a store accepted: writes carrying a token older than one the same store had
 * already been sent for that key, i.e. the writer's lock had passed to a newer holder who had
 * written; accepting it overwrites the newer holder's data (the chapter's lost update).
 */
export function staleWritesAccepted(record: RunRecord, store: 'fenced' | 'unfenced'): number {
  const newest = new Map<string, number>();
  let stale = 0;
  for (const o of record.observations) {
    if (o.kind !== 'store-write' || o.store !== store) continue;
    const top = newest.get(o.key);
    if (o.accepted && top !== undefined && (o.token === null || o.token < top)) stale++;
    if (o.token !== null && (top === undefined || o.token > top)) newest.set(o.key, o.token);
  }
  return stale;
}

/** Writes the fenced store refused (an older token than it had seen, or none). */
/**
 * Issue 28: elections per hour while the first leader still led and nothing had failed — from its
 * election to the first fault that took it (or the run's end): each is a false suspicion.
 */
export function falseElectionsPerHour(record: RunRecord): number | null {
  const obs = record.observations;
  const first = obs.findIndex((o) => o.kind === 'leader');
  if (first < 0) return null;
  const loss = firstLeaderLoss(record);
  const end = loss === null ? record.endMs : loss.t;
  const from = obs[first].t;
  if (end <= from) return null;
  let n = 0;
  for (let i = first + 1; i < obs.length && obs[i].t < end; i++) if (obs[i].kind === 'election') n++;
  return (n * 3_600_000) / (end - from);
}

/** The chapter's "ten failovers a day": the rate the downtime-per-year measure scales by. */
export const FAILOVERS_PER_DAY = 10;

/**
 * Issue 28: minutes a year without a committing leader at ten failovers a day, from the runs: the
 * time without one from the first fault to the run's end (availability's measure), divided by the
 * leader crashes in that time, times 10 a day, times 365. The chapter's arithmetic (0.2 s each is
 * 12 minutes a year, against the 52.6 that 99.99% allows) with the 0.2 s measured.
 */
export function downtimeMinutesPerYear(record: RunRecord): number | null {
  const a = availability(record);
  const loss = firstLeaderLoss(record);
  if (a === null || loss === null) return null;
  const crashes = record.observations.filter((o) => o.kind === 'crash' && o.t >= loss.t).length;
  if (crashes === 0) return null;
  const downMs = (1 - a) * (record.endMs - loss.t);
  return ((downMs / crashes) * FAILOVERS_PER_DAY * 365) / 60_000;
}

/**
 * Issue 28, gossip: the crashed node's suspicion across the live views — the first crash of the
 * run, and for every node alive at the end the first time its view suspected the crashed one after
 * the crash. Null when some live view never did, or the run has no crash or no gossip.
 */
function gossipSuspicionTimes(record: RunRecord): { crashAt: number; first: number; last: number; roundMs: number } | null {
  const roundMs = record.gossipRoundMs;
  const crash = record.observations.find((o) => o.kind === 'crash');
  if (roundMs === undefined || crash === undefined || crash.kind !== 'crash') return null;
  const view = new ClusterView(record.nodeIds);
  const when = new Map<string, number>();
  for (const o of record.observations) {
    view.apply(o);
    if (o.kind === 'suspect' && o.node === crash.node && o.t >= crash.t && !when.has(o.by)) when.set(o.by, o.t);
  }
  const live = [...view.alive].filter((id) => id !== crash.node);
  if (live.length === 0 || live.some((id) => !when.has(id))) return null;
  const times = live.map((id) => when.get(id) as number);
  return { crashAt: crash.t, first: Math.min(...times), last: Math.max(...times), roundMs };
}

/** Rounds from the crash until the last live view suspected the crashed node (the silence it waits out, then the spread). */
export function gossipRoundsToAll(record: RunRecord): number | null {
  const s = gossipSuspicionTimes(record);
  return s === null ? null : (s.last - s.crashAt) / s.roundMs;
}

/** Rounds from the first live view's suspicion to the last: how long the news took to spread (van Renesse et al.: O(log N)). */
export function gossipSpreadRounds(record: RunRecord): number | null {
  const s = gossipSuspicionTimes(record);
  return s === null ? null : (s.last - s.first) / s.roundMs;
}

/**
 * Issue 28: each granted acquire's latency (ms) for the clients placed in `region`: from the
 * client's first request to the reply granting it — the trip to the leader (a redirect first, if
 * it asked a follower), the leader's round to a majority, the trip back. Null without such clients.
 */
export function regionAcquireLatencies(record: RunRecord, region: string): number[] {
  const where = record.clientRegions;
  if (where === undefined) return [];
  const out: number[] = [];
  for (const o of record.observations) if (o.kind === 'client-acquire' && o.granted && where[o.client] === region) out.push(o.t - o.sentAt);
  return out;
}

export function regionCommitMedian(record: RunRecord, region: string): number | null {
  const l = regionAcquireLatencies(record, region);
  return l.length === 0 ? null : quantile(l, 0.5);
}

export function fencedRejections(record: RunRecord): number {
  let n = 0;
  for (const o of record.observations) if (o.kind === 'store-write' && o.store === 'fenced' && !o.accepted) n++;
  return n;
}

export const MEASURE_IDS = [
  'failover',
  'elections',
  'terms',
  'split-votes',
  'commit-p50',
  'commit-p95',
  'messages-per-commit',
  'availability',
  'stale-unfenced',
  'stale-fenced',
  'fenced-rejections',
  'false-elections',
  'downtime-year',
  'gossip-spread',
  'gossip-rounds',
  'client-us-east',
  'client-us-central',
  'client-us-west',
] as const;
export type MeasureId = (typeof MEASURE_IDS)[number];

export interface MeasureDef {
  readonly id: MeasureId;
  readonly label: string;
  /** A few words for a plot's axis. */
  readonly short: string;
  /** For axis labels: "ms", "%", "count". */
  readonly unit: string;
  /** Values are whole numbers (a histogram bins them one per integer when few). */
  readonly integer: boolean;
  readonly compute: (record: RunRecord) => number | null;
}

export const MEASURES: Readonly<Record<MeasureId, MeasureDef>> = {
  failover: { id: 'failover', label: 'Failover time', short: 'Failover time', unit: 'ms', integer: true, compute: failoverMs },
  elections: {
    id: 'elections',
    label: 'Elections until a stable leader',
    short: 'Elections',
    unit: 'count',
    integer: true,
    compute: electionsToStableLeader,
  },
  terms: { id: 'terms', label: 'Terms until a stable leader', short: 'Terms', unit: 'count', integer: true, compute: termsToStableLeader },
  'split-votes': {
    id: 'split-votes',
    label: 'Split-vote rate',
    short: 'Split votes',
    unit: '% of terms',
    integer: false,
    compute: (r) => pct(splitVoteRate(r)),
  },
  'commit-p50': {
    id: 'commit-p50',
    label: 'Commit latency, median',
    short: 'Commit latency p50',
    unit: 'ms',
    integer: false,
    compute: (r) => commitLatencyPercentile(r, 0.5),
  },
  'commit-p95': {
    id: 'commit-p95',
    label: 'Commit latency, p95',
    short: 'Commit latency p95',
    unit: 'ms',
    integer: false,
    compute: (r) => commitLatencyPercentile(r, 0.95),
  },
  'messages-per-commit': {
    id: 'messages-per-commit',
    label: 'Messages per committed entry',
    short: 'Messages per entry',
    unit: 'messages',
    integer: false,
    compute: messagesPerCommittedEntry,
  },
  availability: {
    id: 'availability',
    label: 'Availability',
    short: 'Availability',
    unit: '% of time',
    integer: false,
    compute: (r) => pct(availability(r)),
  },
  'stale-unfenced': {
    id: 'stale-unfenced',
    label: 'Stale writes accepted, unfenced store',
    short: 'Stale writes, unfenced',
    unit: 'writes',
    integer: true,
    compute: (r) => staleWritesAccepted(r, 'unfenced'),
  },
  'stale-fenced': {
    id: 'stale-fenced',
    label: 'Stale writes accepted, fenced store',
    short: 'Stale writes, fenced',
    unit: 'writes',
    integer: true,
    compute: (r) => staleWritesAccepted(r, 'fenced'),
  },
  'fenced-rejections': {
    id: 'fenced-rejections',
    label: 'Writes the fenced store rejected',
    short: 'Fenced rejections',
    unit: 'writes',
    integer: true,
    compute: fencedRejections,
  },
  'false-elections': {
    id: 'false-elections',
    label: 'False elections per hour (a healthy leader suspected)',
    short: 'False elections',
    unit: 'per hour',
    integer: false,
    compute: falseElectionsPerHour,
  },
  'downtime-year': {
    id: 'downtime-year',
    label: 'Minutes a year without a leader at ten failovers a day',
    short: 'Downtime a year',
    unit: 'min',
    integer: false,
    compute: downtimeMinutesPerYear,
  },
  'gossip-spread': {
    id: 'gossip-spread',
    label: 'Gossip rounds from the first suspicion of a crashed node to the last live view',
    short: 'Spread (rounds)',
    unit: 'rounds',
    integer: false,
    compute: gossipSpreadRounds,
  },
  'gossip-rounds': {
    id: 'gossip-rounds',
    label: 'Gossip rounds from a crash until every live view suspects it',
    short: 'Rounds to all',
    unit: 'rounds',
    integer: false,
    compute: gossipRoundsToAll,
  },
  'client-us-east': regionMeasure('client-us-east', 'us-east', 'A'),
  'client-us-central': regionMeasure('client-us-central', 'us-central', 'B'),
  'client-us-west': regionMeasure('client-us-west', 'us-west', 'C'),
};

/** Issue 28, region-clients: one measure per region, its client's median commit latency. */
function regionMeasure(id: MeasureId, region: string, who: string): MeasureDef {
  return {
    id,
    label: `Commit latency for a client in ${region} (${who}), median`,
    short: `${region} client`,
    unit: 'ms',
    integer: false,
    compute: (r: RunRecord) => regionCommitMedian(r, region),
  };
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 100_000) / 1000);

export function computeMeasures(record: RunRecord, ids: readonly MeasureId[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const id of ids) out[id] = MEASURES[id].compute(record);
  return out;
}
