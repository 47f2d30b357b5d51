/**
 * Simulation configuration. Faults are data and units come last in names (TigerBeetle's style).
 * `validateConfig` checks what the chapter's RaftCluster checks, plus the ranges the lab allows,
 * and answers with one sentence naming what is wrong and what is allowed. `configFromFields` is
 * the one reader of configuration text, for every edge: share links, the CLI and the settings form.
 */
import {
  BUG_FEATURE,
  BUG_NAMES,
  FEATURE_NAMES,
  PAXOS_BUG_NAMES,
  PROTOCOL_NAMES,
  canonicalFeatures,
  isFeatureName,
  isProtocolName,
  paxosBugsOf,
  type BugName,
  type FeatureName,
  type PaxosBugName,
  type ProtocolName,
} from './features';
import { parseSeed, seedFromText } from './prng';
import {
  BUG_LOCK_SERVICE,
  DEFAULT_LOCK_SERVICE,
  LOCK_SERVICE_NAMES,
  isLockServiceName,
  lockServiceManifest,
  optionsOf,
  serverIdsFor,
  type LockBugName,
  type LockOptionName,
  type LockServiceName,
} from './lockServices';

export { LOCK_SERVICE_NAMES, serverIdsFor, type LockOptionName, type LockServiceName };
// Issue 28: the network's models and the failure detectors, each in its own file of the model.
import {
  checkRegions,
  isPreciseNetwork,
  isWholeUs,
  parseLatencyText,
  parseRegionsText,
  parseRttText,
  presetFor,
  rttMatrix,
  MAX_LATENCY_MS,
  MAX_PERSIST_MS,
  parsePersistText,
  RTT_PRESETS,
  type LognormalLatency,
  type RegionsConfig,
  type RttSpec,
} from './network';
import {
  checkDetector,
  detectorFromFields,
  DETECTOR_FIELD_NAMES,
  type DetectorConfig,
  type DetectorFieldNames,
  type DetectorFields,
} from './detector';

export const MIN_NODES = 1;
export const MAX_NODES = 9;
/**
 * Past the page's 9 nodes only with the gossip detector, which is what scales (issue 28: gossip at
 * 100-1,000 nodes in the CLI and the experiments' workers; the page draws no such run).
 */
export const MAX_SCALE_NODES = 1000;
export const MAX_CLIENTS = 6;
export const MAX_MS = 100_000_000;

/** Switchable bugs and the feature each of a feature's bugs needs: from the manifests (src/sim/model/features/). */
export { BUG_FEATURE, BUG_NAMES, type BugName };
export { PAXOS_BUG_NAMES, PROTOCOL_NAMES, type PaxosBugName, type ProtocolName };

/** A run's protocol family: `raft` when the field is absent, so every configuration before Paxos means the same. */
export function protocolOf(config: SimConfig): ProtocolName {
  return config.protocol ?? 'raft';
}

/** Whether a run is one of the Paxos family's (single-decree or Multi-Paxos). */
export function isPaxosConfig(config: SimConfig): boolean {
  return config.protocol !== undefined;
}

/** The longest randomized back-off a Paxos proposer may draw, in ms. */
export const MAX_BACKOFF_MS = 60_000;

/** How a get is answered with the reads feature (§6.4): through the log, ReadIndex, or the leader's lease. */
export const READ_MODES = ['log', 'read-index', 'lease'] as const;
export type ReadMode = (typeof READ_MODES)[number];

export function isReadMode(text: string): text is ReadMode {
  return (READ_MODES as readonly string[]).includes(text);
}

/** A configuration's read mode: `log` when the field is absent. */
export function readModeOf(config: SimConfig): ReadMode {
  return config.readMode ?? 'log';
}

export interface SimConfig {
  /** A number while it is a safe integer, else a bigint (see `seedFromText`). */
  readonly seed: number | bigint;
  readonly nodeIds: readonly string[];
  readonly electionTimeoutMs: readonly [number, number];
  readonly heartbeatMs: number;
  readonly latencyMs: readonly [number, number];
  /** Client ids (A, B, …). Clients exist only when named; a Raft-only run has none. */
  readonly clientIds: readonly string[];
  /** Raft runs name Raft's bugs; Paxos runs name the Paxos family's (checkConfig says so). */
  readonly bugs: readonly (BugName | PaxosBugName)[];
  /**
   * Protocol features switched on (src/sim/model/features/); absent or empty is the chapter's Raft.
   * Optional so that every configuration written before features existed still means the same.
   */
  readonly features?: readonly FeatureName[];
  /**
   * Snapshots feature (§5): a node compacts its log once this many entries have been applied
   * since its last snapshot. Absent is DEFAULT_SNAPSHOT_EVERY; it means nothing without the feature.
   */
  readonly snapshotEvery?: number;
  /** The reads feature's mode for a get that names none (absent: `log`); only with `reads` on. */
  readonly readMode?: ReadMode;
  /**
   * The protocol family (src/sim/paxos/): absent is Raft, the chapter's. `paxos` is single-decree
   * Paxos, `multi-paxos` a log of slots with a stable leader. Raft configurations never carry it.
   */
  readonly protocol?: Exclude<ProtocolName, 'raft'>;
  /**
   * Paxos only: a pre-empted proposer waits a random time in this range (ms) before it prepares
   * again (one draw per back-off). Absent: it prepares again at once (dueling proposers).
   */
  readonly backoffMs?: readonly [number, number];
  /**
   * The lock service (issue 26, src/sim/model/lockServices/); absent is `raft`, the chapter's, so
   * every configuration written before there was a choice still means the same.
   */
  readonly lock?: LockServiceName;
  /** The lock service's switches (`persist`, `herd`), in the manifest's order; absent is none. */
  readonly lockOptions?: readonly LockOptionName[];
  /**
   * Issue 28, network: latency drawn from a lognormal instead of `latencyMs`'s uniform range
   * (model/network.ts, net/latency.ts). Absent: uniform, the chapter's.
   */
  readonly latencyLognormal?: LognormalLatency;
  /** Issue 28, network: regions and their round trips; each message takes half its link's round trip, ±10%. Absent: none. */
  readonly regions?: RegionsConfig;
  /** Issue 28: the failure detector (model/detector.ts, src/sim/detect/). Absent: the chapter's fixed randomized timeout. */
  readonly detector?: DetectorConfig;
  /**
   * Issue 28, Figure 16: a server's persist delay (ms, whole or to the µs) before its replies
   * (VoteReply, AppendReply, InstallSnapshotReply) leave. Raft's Figure 2 has a server write
   * currentTerm, votedFor and its log to stable storage "before responding to RPCs"; its state
   * changes at receipt, only the reply is later. Absent: replies leave at receipt, the chapter's.
   */
  readonly persistMs?: number;
}

/** How many applied entries a node gathers before it compacts them into a snapshot, by default. */
export const DEFAULT_SNAPSHOT_EVERY = 8;
export const MAX_SNAPSHOT_EVERY = 1000;

/** A configuration's snapshot threshold (the default when the field is absent). */
export function snapshotEveryOf(config: SimConfig): number {
  return config.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
}

/** A configuration's lock service (`raft` when the field is absent). */
export function lockOf(config: SimConfig): LockServiceName {
  return config.lock ?? DEFAULT_LOCK_SERVICE;
}

/** A configuration's lock-service switches (none when the field is absent). */
export function lockOptionsOf(config: SimConfig): readonly LockOptionName[] {
  return config.lockOptions ?? NO_LOCK_OPTIONS;
}

const NO_LOCK_OPTIONS: readonly LockOptionName[] = Object.freeze([]);

/** Whether the run's lock service runs on the Raft engine (raft, zookeeper, etcd); the others run no Raft at all. */
export function runsRaft(config: SimConfig): boolean {
  return lockServiceManifest(lockOf(config)).raft;
}

/**
 * Whether two clients holding one lock within their own leases is a violation (the consistent
 * services) rather than a finding: ZooKeeper, etcd, the chapter's service, and the database on one
 * server (with a replica, a failover frees every lock: the chapter's "connection loss").
 */
export function consistentRun(config: SimConfig): boolean {
  const lock = lockOf(config);
  return lockServiceManifest(lock).consistent && !(lock === 'advisory' && config.nodeIds.length > 1);
}

/** Whether the run's lock recipe is re-entrant (ZooKeeper's and etcd's): the holder's acquire gets its own token back. */
export function reentrantLocks(config: SimConfig): boolean {
  const lock = lockOf(config);
  return lock === 'zookeeper' || lock === 'etcd';
}

/** Whether the run's lock service issues fencing tokens. */
export function hasTokens(config: SimConfig): boolean {
  return lockServiceManifest(lockOf(config)).token !== null;
}

/** Features a lock service on the Raft engine cannot have: they change the state machine, which is the service's own. */
const STATE_FEATURES: readonly FeatureName[] = ['snapshots', 'reads', 'membership'];

/** The chapter's own lock service's bugs (lockService.ts): they mean nothing with another service. */
const RAFT_LOCK_BUGS: readonly string[] = ['expire-any-token', 'follower-expiry'];
/** Bugs of the Raft engine: they need a service that runs Raft. */
const RAFT_ENGINE_BUGS: readonly string[] = ['figure8', 'forget-vote', 'no-log-check'];

/** A configuration's features (none when the field is absent). */
export function featuresOf(config: SimConfig): readonly FeatureName[] {
  return config.features ?? NO_FEATURE_LIST;
}

const NO_FEATURE_LIST: readonly FeatureName[] = Object.freeze([]);

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
  const maxNodes = config.detector?.kind === 'gossip' ? MAX_SCALE_NODES : MAX_NODES;
  if (ids.length < MIN_NODES || ids.length > maxNodes) {
    return `A cluster has ${MIN_NODES} to ${maxNodes} nodes${maxNodes === MAX_NODES ? '' : ' with the gossip detector'}, not ${ids.length}.`;
  }
  if (new Set(ids).size !== ids.length) return 'Node ids must be distinct.';
  for (const id of ids) {
    if (!/^[a-z][a-z0-9]{0,7}$/.test(id))
      return `Node id "${id}" must be a lowercase letter followed by up to 7 letters or digits, like n1.`;
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
  // Whole ms is the chapter's; fractions down to a microsecond make the run's network precise (issue 28).
  const isLatency = (v: unknown) => typeof v === 'number' && isWholeUs(v);
  if (!isLatency(lMin) || !isLatency(lMax) || !(0 <= lMin && lMin <= lMax) || lMax > 60_000) {
    return `Latency range must be non-negative and ordered (min <= max, at most 60000 ms), not ${lMin}-${lMax}.`;
  }
  if (config.clientIds.length > MAX_CLIENTS) return `At most ${MAX_CLIENTS} clients are allowed, not ${config.clientIds.length}.`;
  if (new Set(config.clientIds).size !== config.clientIds.length) return 'Client ids must be distinct.';
  for (const id of config.clientIds) {
    if (!/^[A-Z]$/.test(id)) return `Client id "${id}" must be one capital letter, like A.`;
  }
  const protocol = config.protocol;
  if (protocol !== undefined) {
    // A Paxos run: its own bugs, none of Raft's features, services or settings (paxos/ says why).
    if (!isProtocolName(protocol) || (protocol as string) === 'raft')
      return `Unknown protocol "${shown(String(protocol))}"; the protocols are ${PROTOCOL_NAMES.join(', ')}.`;
    const allowed = paxosBugsOf(protocol);
    for (const bug of config.bugs) {
      if (!(allowed as readonly string[]).includes(bug))
        return `Bug "${shown(String(bug))}" is not a bug of ${protocol}; its bugs are ${allowed.join(', ')}.`;
    }
    if (featuresOf(config).length > 0)
      return `Protocol features (${featuresOf(config).join(', ')}) are Raft's; a ${protocol} run has none.`;
    if (config.clientIds.length > 0)
      return `The lock service's clients run on Raft only; a ${protocol} run has none (its commands are proposed with propose or submit).`;
    if (config.lock !== undefined || config.lockOptions !== undefined)
      return `A lock service (lock=, lockopts=) is not part of a ${protocol} run; choose the protocol raft to pick one.`;
    if (config.readMode !== undefined || config.snapshotEvery !== undefined)
      return `The read mode and the snapshot threshold are Raft's settings; a ${protocol} run has neither.`;
    // Issue 28's network models and detectors are built on Raft's cluster; Paxos keeps the chapter's whole-ms uniform network.
    if (config.detector !== undefined)
      return `The failure detector (${config.detector.kind}) decides Raft's elections; a ${protocol} run keeps its own timeouts, so leave the detector out.`;
    if (config.persistMs !== undefined)
      return `The persist delay before replies is Raft's (Figure 2: stable storage before responding); a ${protocol} run answers at once, so leave persist out.`;
    if (config.regions !== undefined || config.latencyLognormal !== undefined || isPreciseNetwork(config))
      return `Regions, a lognormal latency and latencies in fractions of a ms are Raft's network models; a ${protocol} run takes a whole-ms range like 5-15.`;
    const backoff = config.backoffMs;
    if (backoff !== undefined) {
      const [bMin, bMax] = backoff;
      if (!isInt(bMin) || !isInt(bMax) || !(0 <= bMin && bMin <= bMax) || bMax > MAX_BACKOFF_MS)
        return `The back-off range must be non-negative and ordered (min <= max, at most ${MAX_BACKOFF_MS} ms), not ${bMin}-${bMax}.`;
    }
    return null;
  }
  if (config.backoffMs !== undefined) return 'A back-off range is a Paxos setting; switch on the protocol paxos or multi-paxos too.';
  for (const bug of config.bugs) {
    if ((PAXOS_BUG_NAMES as readonly string[]).includes(bug))
      return `Bug "${bug}" is a bug of Paxos; switch on the protocol paxos or multi-paxos too.`;
    if (!(BUG_NAMES as readonly string[]).includes(bug)) {
      return `Unknown bug "${bug}"; the bugs are ${bugsOfService(lockOf(config)).join(', ')}.`;
    }
  }
  const features = featuresOf(config);
  for (const feature of features) {
    if (!isFeatureName(feature)) return `Unknown feature "${shown(String(feature))}"; the features are ${FEATURE_NAMES.join(', ')}.`;
  }
  if (new Set(features).size !== features.length) return 'Each feature may be named only once.';
  const every = config.snapshotEvery;
  if (every !== undefined && (!isInt(every) || every < 1 || every > MAX_SNAPSHOT_EVERY)) {
    return `The snapshot threshold must be a whole number of entries from 1 to ${MAX_SNAPSHOT_EVERY}, not ${shown(String(every))}.`;
  }
  for (const bug of config.bugs as readonly BugName[]) {
    const needs = BUG_FEATURE[bug];
    if (needs !== undefined && !features.includes(needs)) return `Bug "${bug}" is a bug of the feature ${needs}; switch on ${needs} too.`;
  }
  if (config.readMode !== undefined) {
    if (!isReadMode(config.readMode))
      return `Unknown read mode "${shown(String(config.readMode))}"; the read modes are ${READ_MODES.join(', ')}.`;
    if (!features.includes('reads')) return 'A read mode needs the feature reads; switch on reads too.';
  }
  return checkLock(config, features) ?? checkNetworkAndDetector(config);
}

/** Issue 28's fields: a lognormal's numbers, the regions against the run's nodes and clients, the detector. */
function checkNetworkAndDetector(config: SimConfig): string | null {
  const persist = config.persistMs;
  if (persist !== undefined) {
    if (!(typeof persist === 'number' && persist > 0 && persist <= MAX_PERSIST_MS && isWholeUs(persist)))
      return `The persist delay must be above 0 and at most ${MAX_PERSIST_MS} ms, in whole µs (up to 3 decimals), not ${shown(String(persist))}; leave it out for none.`;
    if (!runsRaft(config))
      return `The persist delay holds back Raft's replies; the lock service ${lockOf(config)} runs no Raft, so leave persist out.`;
  }
  const ln = config.latencyLognormal;
  if (ln !== undefined) {
    if (!(typeof ln.medianMs === 'number' && ln.medianMs > 0 && ln.medianMs <= MAX_LATENCY_MS && isWholeUs(ln.medianMs)))
      return `A lognormal latency's median must be above 0 and at most ${MAX_LATENCY_MS} ms, not ${ln.medianMs}.`;
    if (!(typeof ln.spread === 'number' && ln.spread > 0 && ln.spread <= 3))
      return `A lognormal latency's spread must be above 0 and at most 3, not ${ln.spread}.`;
  }
  if (config.regions !== undefined) {
    if (ln !== undefined)
      return 'With regions every latency comes from the round-trip matrix; a run has regions or a lognormal latency, not both.';
    const problem = checkRegions(config.regions, config.nodeIds, config.clientIds);
    if (problem !== null) return problem;
  }
  return checkDetector(config.detector, config, config.nodeIds.length);
}

/** The lock service's part of checkConfig: its name, switches, servers, and the bugs and features it allows. */
function checkLock(config: SimConfig, features: readonly FeatureName[]): string | null {
  const name = config.lock;
  if (name !== undefined && !isLockServiceName(name))
    return `Unknown lock service "${shown(String(name))}"; the lock services are ${LOCK_SERVICE_NAMES.join(', ')}.`;
  const lock = lockOf(config);
  const m = lockServiceManifest(lock);
  const options = lockOptionsOf(config);
  const allowed = optionsOf(lock);
  for (const o of options) {
    if (!(allowed as readonly string[]).includes(o))
      return allowed.length === 0
        ? `The lock service ${lock} has no options, so "${shown(String(o))}" is not one.`
        : `Unknown option "${shown(String(o))}" of the lock service ${lock}; its options are ${allowed.join(', ')}.`;
  }
  if (new Set(options).size !== options.length) return 'Each lock-service option may be named only once.';
  const n = config.nodeIds.length;
  // Issue 28: the chapter's Raft scales past the page's 9 nodes with the gossip detector (checkConfig's count check).
  const scales = lock === 'raft' && config.detector?.kind === 'gossip';
  if (n < m.minServers || (n > m.maxServers && !scales)) {
    return m.minServers === m.maxServers
      ? `The lock service ${lock} runs on ${m.minServers} server${m.minServers === 1 ? '' : 's'}, not ${n}.`
      : `The lock service ${lock} runs on ${m.minServers} to ${m.maxServers} servers${lock === 'redis' || lock === 'advisory' ? ' (the second is an asynchronous replica)' : ''}, not ${n}.`;
  }
  // Issue 28: the failure detectors decide Raft's elections and the chapter's service's handover.
  if (lock !== 'raft' && config.detector !== undefined)
    return `The failure detector (${config.detector.kind}) belongs to the chapter's Raft lock service; the lock service ${lock} keeps its own failure detection, so leave the detector out or pick raft.`;
  if (lock !== 'raft') {
    const ids = serverIdsFor(lock, n);
    if (ids.some((id, i) => config.nodeIds[i] !== id))
      return `The servers of the lock service ${lock} are ${ids.join(', ')}, not ${config.nodeIds.join(', ')}.`;
  }
  for (const bug of config.bugs) {
    const needs = (BUG_LOCK_SERVICE as Readonly<Record<string, LockServiceName>>)[bug];
    if (needs !== undefined && needs !== lock) return `Bug "${bug}" is a bug of the lock service ${needs}; pick ${needs} too.`;
    if (RAFT_LOCK_BUGS.includes(bug) && lock !== 'raft')
      return `Bug "${bug}" is a bug of the chapter's Raft lock service; it means nothing with the lock service ${lock}.`;
    if (RAFT_ENGINE_BUGS.includes(bug) && !m.raft) return `Bug "${bug}" is a bug of Raft, which the lock service ${lock} does not run.`;
  }
  if (features.length > 0 && !m.raft)
    return `Protocol features change Raft, which the lock service ${lock} does not run; switch them off or pick raft, zookeeper or etcd.`;
  if (lock !== 'raft') {
    const bad = features.find((f) => STATE_FEATURES.includes(f));
    if (bad !== undefined)
      return `The feature ${bad} changes the chapter's state machine, which the lock service ${lock} replaces with its own; switch it off or pick raft.`;
  }
  return null;
}

/**
 * The bugs a run of this lock service can have, in the registry's order: the chapter's with its
 * own service; otherwise the service's own, Raft's if it runs Raft, and the fenced store's.
 */
export function bugsOfService(lock: LockServiceName): BugName[] {
  const m = lockServiceManifest(lock);
  return BUG_NAMES.filter((b) => {
    const service = (BUG_LOCK_SERVICE as Readonly<Record<string, LockServiceName>>)[b];
    if (service !== undefined) return service === lock;
    if (RAFT_LOCK_BUGS.includes(b)) return lock === 'raft';
    if (RAFT_ENGINE_BUGS.includes(b)) return m.raft;
    // A feature's bug needs its feature, which only the chapter's service has all of.
    if (BUG_FEATURE[b] !== undefined) return lock === 'raft' || (m.raft && !STATE_FEATURES.includes(BUG_FEATURE[b] as FeatureName));
    return true;
  });
}

/** A lock bug's name, typed (for the fuzzer: a bug forces its service). */
export function lockServiceOfBug(bug: BugName): LockServiceName | null {
  return (BUG_LOCK_SERVICE as Readonly<Record<string, LockServiceName>>)[bug as LockBugName] ?? null;
}

export function validateConfig(config: SimConfig): SimConfig {
  const problem = checkConfig(config);
  if (problem) throw new ConfigError(problem);
  return config;
}

export type ConfigField =
  | 'seed'
  | 'nodes'
  | 'timeout'
  | 'heartbeat'
  | 'latency'
  | 'clients'
  | 'bugs'
  | 'features'
  | 'snapshotEvery'
  | 'readMode'
  // Paxos (src/sim/paxos/): read before bugs, so a Paxos bug is checked against its protocol.
  | 'protocol'
  | 'backoff'
  | 'lock'
  | 'lockOptions'
  | NetworkField
  | keyof DetectorFields;
/** Issue 28: regions (`us-east=n1,n2; us-west=n3`), their round trips (`datacenter|us|world`), and the failure detector's fields. */
type NetworkField = 'regions' | 'rtt' | 'persist';
type CoreField = Exclude<ConfigField, NetworkField | keyof DetectorFields>;

/** A configuration as text, one optional string per field; a field left out keeps the base's value. */
export type ConfigFields = { readonly [K in ConfigField]?: string };

/**
 * How an edge names each field in its sentences. The sentences are the same everywhere; only the
 * name changes, so a person reads the name they typed (`--nodes` on the command line). Issue 28's
 * fields may be left out (FIELD_NAMES' words are used).
 */
export type FieldNames = { readonly [K in CoreField]: string } & { readonly [K in NetworkField | keyof DetectorFields]?: string };

export const FIELD_NAMES: Readonly<Record<ConfigField, string>> = {
  seed: 'the seed',
  nodes: 'the number of nodes',
  timeout: 'the election timeout',
  heartbeat: 'the heartbeat interval',
  latency: 'the latency',
  clients: 'the clients',
  bugs: 'the list of bugs',
  features: 'the list of features',
  snapshotEvery: 'the snapshot threshold',
  readMode: 'the read mode',
  protocol: 'the protocol',
  backoff: 'the back-off range',
  lock: 'the lock service',
  lockOptions: 'the lock-service options',
  regions: 'the regions',
  rtt: 'the round trips',
  persist: 'the persist delay',
  ...DETECTOR_FIELD_NAMES,
};

const RANGE_EXAMPLE: Record<'timeout' | 'latency' | 'backoff', string> = { timeout: '150-300', latency: '5-15', backoff: '20-80' };
const MAX_RANGE_MS = 60_000;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** What a person typed, quoted back but kept short (a link can carry anything). */
const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Builds a configuration from text fields over `base` and checks it: the configuration, or one
 * sentence naming the field that is wrong and what is allowed.
 */
export function configFromFields(base: SimConfig, fields: ConfigFields, names: FieldNames = FIELD_NAMES): SimConfig | string {
  let config: SimConfig = base;
  if (fields.seed !== undefined) {
    const seed = seedFromText(fields.seed);
    if (seed === null) return `${capital(names.seed)} must be a non-negative integer, not "${shown(fields.seed)}".`;
    config = { ...config, seed };
  }
  // Issue 28: the detector first, since the gossip detector is what lets a cluster pass 9 nodes.
  const detector = detectorFromFields(config.detector, fields, detectorNames(names));
  if (typeof detector === 'string') return detector;
  if (detector !== config.detector) config = withDetector(config, detector);
  if (fields.nodes !== undefined) {
    const max = config.detector?.kind === 'gossip' ? MAX_SCALE_NODES : MAX_NODES;
    const count = wholeNumberIn(fields.nodes, MIN_NODES, max);
    if (count === null)
      return `${capital(names.nodes)} must be a whole number from ${MIN_NODES} to ${max}${max === MAX_NODES ? '' : ' with the gossip detector'}, not "${shown(fields.nodes)}".`;
    config = { ...config, nodeIds: nodeIdsFor(count) };
  }
  if (fields.timeout !== undefined) {
    const range = parseRange(fields.timeout, capital(names.timeout), RANGE_EXAMPLE.timeout);
    if (typeof range === 'string') return range;
    config = { ...config, electionTimeoutMs: range };
  }
  if (fields.latency !== undefined) {
    // Issue 28: fractions of a ms (`0.2-0.3`) and `lognormal:MEDIAN:SPREAD` besides the chapter's `5-15`.
    const latency = parseLatencyText(fields.latency, capital(names.latency));
    if (typeof latency === 'string') return latency;
    const { latencyLognormal: _uniform, ...rest } = config;
    config = 'latencyMs' in latency ? { ...rest, latencyMs: latency.latencyMs } : { ...rest, latencyLognormal: latency.lognormal };
  }
  if (fields.heartbeat !== undefined) {
    const heartbeatMs = wholeNumberIn(fields.heartbeat, 1, MAX_RANGE_MS);
    if (heartbeatMs === null)
      return `${capital(names.heartbeat)} must be a whole number of ms from 1 to ${MAX_RANGE_MS}, not "${shown(fields.heartbeat)}".`;
    config = { ...config, heartbeatMs };
  }
  if (fields.clients !== undefined) {
    const text = fields.clients.trim();
    // "A,B" (a flag) and "AB" (a link) both name clients A and B.
    const ids = text === '' ? [] : text.includes(',') ? text.split(',').map((c) => c.trim()) : text.split('');
    if (ids.some((id) => !/^[A-Z]$/.test(id)))
      return `${capital(names.clients)} must be capital letters, one per client, like A,B, not "${shown(fields.clients)}".`;
    config = { ...config, clientIds: ids };
  }
  if (fields.protocol !== undefined) {
    const name = fields.protocol.trim();
    if (!isProtocolName(name))
      return `${capital(names.protocol)} must be one of ${PROTOCOL_NAMES.join(', ')}, not "${shown(fields.protocol)}".`;
    // Raft is written by leaving the field out, so a Raft run's link and run file keep their bytes.
    const { protocol: _dropped, ...rest } = config;
    config = name === 'raft' ? rest : { ...rest, protocol: name };
  }
  if (fields.backoff !== undefined) {
    const text = fields.backoff.trim();
    const { backoffMs: _dropped, ...rest } = config;
    if (text === '' || text === 'none') config = rest;
    else {
      const range = parseRange(text, capital(names.backoff), RANGE_EXAMPLE.backoff);
      if (typeof range === 'string') return range;
      config = { ...rest, backoffMs: range };
    }
  }
  if (fields.bugs !== undefined) {
    const bugs = fields.bugs
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b !== '');
    const paxosRun = config.protocol !== undefined;
    const known: readonly string[] = paxosRun ? paxosBugsOf(config.protocol as ProtocolName) : BUG_NAMES;
    const unknown = bugs.find((b) => !known.includes(b));
    if (unknown !== undefined) {
      if (!paxosRun && (PAXOS_BUG_NAMES as readonly string[]).includes(unknown))
        return `Bug "${shown(unknown)}" in ${names.bugs} is a bug of Paxos; name the protocol paxos or multi-paxos too.`;
      if (paxosRun) return `Unknown bug "${shown(unknown)}" in ${names.bugs}; the bugs of ${config.protocol} are ${known.join(', ')}.`;
      const lock = fields.lock !== undefined && isLockServiceName(fields.lock.trim()) ? fields.lock.trim() : lockOf(config);
      return `Unknown bug "${shown(unknown)}" in ${names.bugs}; the bugs are ${bugsOfService(lock as LockServiceName).join(', ')}.`;
    }
    config = { ...config, bugs: bugs as BugName[] };
  }
  if (fields.features !== undefined) {
    const named = fields.features
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    const unknown = named.find((f) => !isFeatureName(f));
    if (unknown !== undefined)
      return `Unknown feature "${shown(unknown)}" in ${names.features}; the features are ${FEATURE_NAMES.join(', ')}.`;
    config = { ...config, features: canonicalFeatures(named as FeatureName[]) };
  }
  if (fields.snapshotEvery !== undefined) {
    const every = wholeNumberIn(fields.snapshotEvery, 1, MAX_SNAPSHOT_EVERY);
    if (every === null)
      return `${capital(names.snapshotEvery)} must be a whole number of entries from 1 to ${MAX_SNAPSHOT_EVERY}, not "${shown(fields.snapshotEvery)}".`;
    config = every === DEFAULT_SNAPSHOT_EVERY ? withoutSnapshotEvery(config) : { ...config, snapshotEvery: every };
  }
  if (fields.readMode !== undefined) {
    const mode = fields.readMode.trim();
    if (!isReadMode(mode)) return `${capital(names.readMode)} must be one of ${READ_MODES.join(', ')}, not "${shown(fields.readMode)}".`;
    if (!featuresOf(config).includes('reads')) return `${capital(names.readMode)} needs the feature reads; switch on reads too.`;
    const { readMode: _dropped, ...rest } = config;
    // `log` is the default: left out, so a link or run file says nothing it need not.
    config = mode === 'log' ? rest : { ...rest, readMode: mode };
  }
  if (fields.regions !== undefined || fields.rtt !== undefined) {
    const regions = regionsFromFields(config, fields, names);
    if (typeof regions === 'string') return regions;
    const { regions: _old, ...rest } = config;
    config = regions === null ? rest : { ...rest, regions };
    if (regions !== null && fields.latency !== undefined)
      return `With ${names.regions ?? FIELD_NAMES.regions}, every latency comes from the round-trip matrix (half a round trip, ±10%); leave ${names.latency} out.`;
  }
  if (fields.persist !== undefined) {
    // Issue 28, Figure 16: 0 (or nothing) is none, left out so a link or run file says nothing it need not.
    const text = fields.persist.trim();
    const persist = text === '' || text === 'none' ? 0 : parsePersistText(text, capital(names.persist ?? FIELD_NAMES.persist));
    if (typeof persist === 'string') return persist;
    const { persistMs: _old, ...rest } = config;
    config = persist === 0 ? rest : { ...rest, persistMs: persist };
  }
  const locked = lockFromFields(config, fields, names);
  if (typeof locked === 'string') return locked;
  return checkConfig(locked) ?? locked;
}

/**
 * The lock service and its switches from text. Its servers follow it: r1.. for Redis, db1.. for
 * the database, n1.. otherwise; switching to a service without naming a server count gives it its
 * own default (one Redis instance, one database, five otherwise).
 */
function lockFromFields(base: SimConfig, fields: ConfigFields, names: FieldNames): SimConfig | string {
  let config = base;
  if (fields.lock !== undefined) {
    const name = fields.lock.trim();
    if (!isLockServiceName(name))
      return `${capital(names.lock)} must be one of ${LOCK_SERVICE_NAMES.join(', ')}, not "${shown(fields.lock)}".`;
    const { lock: _dropped, lockOptions: _options, ...rest } = config;
    // `raft` is the default: left out, so a link or run file says nothing it need not.
    config = name === DEFAULT_LOCK_SERVICE ? rest : { ...rest, lock: name };
    // A service's switches go with it unless given again.
    if (fields.lockOptions === undefined && lockOf(base) === name && base.lockOptions !== undefined)
      config = { ...config, lockOptions: base.lockOptions };
  }
  if (fields.lockOptions !== undefined) {
    const lock = lockOf(config);
    const named = fields.lockOptions
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    const allowed = optionsOf(lock) as readonly string[];
    const unknown = named.find((o) => !allowed.includes(o));
    if (unknown !== undefined)
      return allowed.length === 0
        ? `${capital(names.lockOptions)}: the lock service ${lock} has no options, so "${shown(unknown)}" is not one.`
        : `Unknown option "${shown(unknown)}" in ${names.lockOptions}; the options of ${lock} are ${allowed.join(', ')}.`;
    const { lockOptions: _dropped, ...rest } = config;
    const canonical = allowed.filter((o) => named.includes(o)) as LockOptionName[];
    config = canonical.length === 0 ? rest : { ...rest, lockOptions: canonical };
  }
  if (fields.lock === undefined && fields.nodes === undefined) return config;
  const lock = lockOf(config);
  const m = lockServiceManifest(lock);
  // Switching service without naming a count: the new service's own (one Redis instance, five for Redlock).
  const count = fields.nodes === undefined && lockOf(base) !== lock ? m.defaultServers : config.nodeIds.length;
  return { ...config, nodeIds: serverIdsFor(lock, count) };
}

function detectorNames(names: FieldNames): DetectorFieldNames {
  const out: Record<string, string> = { ...DETECTOR_FIELD_NAMES };
  for (const key of Object.keys(DETECTOR_FIELD_NAMES) as (keyof DetectorFieldNames)[]) {
    const given = names[key];
    if (given !== undefined) out[key] = given;
  }
  return out as DetectorFieldNames;
}

function withDetector(config: SimConfig, detector: DetectorConfig | undefined): SimConfig {
  const { detector: _old, ...rest } = config;
  return detector === undefined ? rest : { ...rest, detector };
}

/**
 * Regions from their two fields over the run's: the places (`us-east=n1,n2; us-west=n3`; empty
 * text removes the regions) and the round trips (a preset name or `a/b=70, …`; when left out, the
 * smallest preset that has every region named). Null: no regions.
 */
function regionsFromFields(config: SimConfig, fields: ConfigFields, names: FieldNames): RegionsConfig | null | string {
  const regionsText = fields.regions?.trim();
  const rttText = fields.rtt?.trim();
  // Both empty (or one empty and the other left out): no regions.
  if ((regionsText ?? '') === '' && (rttText ?? '') === '' && (regionsText === '' || rttText === '')) return null;
  let places = config.regions?.places ?? [];
  if (regionsText !== undefined) {
    if (regionsText === '') places = [];
    else {
      const parsed = parseRegionsText(regionsText, capital(names.regions ?? FIELD_NAMES.regions));
      if (typeof parsed === 'string') return parsed;
      places = parsed;
    }
  }
  let rtt = config.regions?.rtt;
  if (rttText !== undefined && rttText !== '') {
    const parsed = parseRttText(rttText, capital(names.rtt ?? FIELD_NAMES.rtt));
    if (typeof parsed === 'string') return parsed;
    rtt = parsed.rtt;
  } else {
    const named = places.map((p) => p.region);
    // The run's matrix is kept while it has every region named (us-east alone fits us and world alike).
    if (rtt === undefined || !named.every((r) => rttMatrix(rtt as RttSpec).regions.includes(r))) {
      const preset = presetFor(named);
      if (preset === null) {
        return `The regions ${named.join(', ')} are not all in one preset round-trip matrix (${RTT_PRESETS.join(', ')}); give ${names.rtt ?? 'the round trips'} too, like ${named[0]}/${named[1] ?? named[0]}=75.`;
      }
      rtt = preset;
    }
  }
  return { rtt, places };
}

/** The default threshold is written by leaving the field out, so a default run keeps its bytes. */
function withoutSnapshotEvery(config: SimConfig): SimConfig {
  if (config.snapshotEvery === undefined) return config;
  const { snapshotEvery: _dropped, ...rest } = config;
  return rest;
}

function wholeNumberIn(text: string, min: number, max: number): number | null {
  const t = text.trim();
  if (!/^\d{1,12}$/.test(t) || Number(t) < min || Number(t) > max) return null;
  return Number(t);
}

/** Parses "A-B" into an ordered pair of whole numbers, or returns an error sentence. */
export function parseRange(text: string, what: string, example = '150-300'): readonly [number, number] | string {
  const m = /^\s*(\d{1,9})\s*-\s*(\d{1,9})\s*$/.exec(text);
  if (!m) return `${what} must be written A-B with whole numbers of ms, like ${example}, not "${shown(text)}".`;
  return [Number(m[1]), Number(m[2])];
}
