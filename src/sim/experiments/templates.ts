/**
 * Scenario templates: what happens in every run of an experiment. A template turns parameters
 * and a seed into a configuration and a schedule, and drives the run; anything it decides while
 * the run goes (which node leads when the crash comes) it does with `act`, so the action lands in
 * the run's schedule and the run's link replays it exactly.
 */
import { checkConfig, nodeIdsFor, type SimConfig } from '../model/config';
import { CPythonRandom } from '../model/prng';
import { parseRegionsText, type RegionsConfig } from '../model/network';
import { checkSchedule, freezeAction, type Action, type ActionBody } from '../model/schedule';
import type { MeasureId } from './measures';
import type { RunRecorder } from './recorder';

export interface ExperimentParams {
  readonly nodes: number;
  readonly timeoutMs: readonly [number, number];
  readonly heartbeatMs: number;
  readonly latencyMs: readonly [number, number];
  /** Percent of messages lost, from time 0. */
  readonly lossPct: number;
  /** Every node's clock runs this many percent fast (negative: slow), from time 0. */
  readonly driftPct: number;
  /** lease-pause: how long client A's process stops, and the lease it holds. */
  readonly pauseMs: number;
  readonly leaseMs: number;
  /** Issue 28: phi-accrual's threshold Φ for elections; 0 is the chapter's fixed timeout. */
  readonly phi: number;
  /** Issue 28, false-suspicion: every latency times this during the run's slow phases; 1 is none. */
  readonly slowFactor: number;
  /** Issue 28: where five nodes stand in the `us` round-trip matrix (PLACEMENTS); -1 is no regions, the chapter's network. */
  readonly placement: number;
  /** Issue 28: the lock service's takeover threshold (fixed detector); 0 is none, the chapter's. */
  readonly takeoverMs: number;
  /** Issue 28, Figure 16: a server's persist delay before its replies leave (ms); 0 is none, the chapter's. */
  readonly persistMs: number;
}

export const BASE_PARAMS: ExperimentParams = {
  nodes: 5,
  timeoutMs: [150, 300],
  heartbeatMs: 50,
  latencyMs: [5, 15],
  lossPct: 0,
  driftPct: 0,
  pauseMs: 3000,
  leaseMs: 2000,
  phi: 0,
  slowFactor: 1,
  placement: -1,
  takeoverMs: 0,
  persistMs: 0,
};

/**
 * Issue 28: five nodes over the `us` matrix (us-east, us-central, us-west: 30, 40 and 70 ms round
 * trips, 0.5 ms inside one): 0 puts a majority in us-east, 1 spreads them 2-2-1, 2 puts one node
 * in us-east and a majority in the west half (central and west). "Put the majority where the writes are."
 */
export const PLACEMENTS: readonly string[] = [
  'us-east=n1,n2,n3; us-central=n4; us-west=n5',
  'us-east=n1,n2; us-central=n3,n4; us-west=n5',
  'us-east=n1; us-central=n2,n3; us-west=n4,n5',
];

/** PLACEMENTS in a few words, for a plot's axis. */
export const PLACEMENT_NAMES: readonly string[] = ['majority east', '2-2-1 split', 'majority west'];

/** Issue 28, region-clients: a client in each region, writing from there (A east, B central, C west). */
export const REGION_CLIENTS: Readonly<Record<string, string>> = { 'us-east': 'A', 'us-central': 'B', 'us-west': 'C' };

function regionsOf(placement: number, withClients = false): RegionsConfig | null {
  const text = PLACEMENTS[placement];
  if (text === undefined) return null;
  const placed = withClients
    ? text
        .split('; ')
        .map((part) => `${part},${REGION_CLIENTS[part.slice(0, part.indexOf('='))]}`)
        .join('; ')
    : text;
  const places = parseRegionsText(placed, 'the placement');
  if (typeof places === 'string') throw new RangeError(places);
  return { rtt: 'us', places };
}

export const TEMPLATE_IDS = [
  'crash-leader',
  'partition-heal',
  'steady-load',
  'lease-pause',
  'figure-16',
  'false-suspicion',
  'failover-year',
  'takeover-pause',
  'gossip-spread',
  'region-clients',
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export interface Template {
  readonly id: TemplateId;
  readonly title: string;
  readonly blurb: string;
  /** The measures that mean something in this scenario, the first one shown first. */
  readonly measures: readonly MeasureId[];
  readonly clients: readonly string[];
  /** Actions known before the run starts. */
  schedule(params: ExperimentParams): Action[];
  /** Runs the run to its end. */
  drive(run: RunRecorder, params: ExperimentParams): void;
  /** Parameters the scenario ties to others (Figure 16: the heartbeat is half the shortest timeout); absent: as given. */
  adjust?(params: ExperimentParams): ExperimentParams;
  /** Configuration the scenario itself needs (gossip-spread: the gossip detector); absent: none. */
  config?(params: ExperimentParams): Partial<SimConfig>;
  /** Runs per batch the page's pool hands a worker, when a run takes seconds (absent: the pool's BATCH_RUNS). */
  readonly runsPerBatch?: number;
}

/**
 * Figure 16 (Raft paper §9.3): how long after the leader's crash until the cluster knows no leader
 * is a bet the scenario runs 15 s past; a run without a new leader by then counts as none.
 */
const FIGURE_16_CAP_MS = 15_000;

/** When the fault comes: the chapter's crash at 1168 ms, or later when timeouts are long enough that the first leader may not be settled by then. */
export function faultAtMs(params: ExperimentParams): number {
  return Math.max(1168, 3 * params.timeoutMs[1]);
}

/** Long enough after a fault for ten election timeouts and twenty message hops. */
function settleMs(params: ExperimentParams): number {
  return 10 * params.timeoutMs[1] + 20 * params.latencyMs[1];
}

const SUBMITS = 30;
const SUBMIT_EVERY_MS = 100;

/** Loss and drift from time 0, for every template. */
function faultActions(params: ExperimentParams): Action[] {
  const out: ActionBody[] = [];
  if (params.lossPct > 0) out.push({ verb: 'loss', pct: params.lossPct });
  if (params.driftPct !== 0) for (const node of nodeIdsFor(params.nodes)) out.push({ verb: 'drift', node, pct: params.driftPct });
  return out.map((body) => freezeAction({ at: 0, ...body } as Action));
}

const at = (t: number, body: ActionBody): Action => freezeAction({ at: t, ...body } as Action);
const client = (c: string, intent: Extract<ActionBody, { verb: 'client' }>['intent']): ActionBody => ({
  verb: 'client',
  client: c,
  intent,
});

/** region-clients: acquire-and-release rounds per client. */
const REGION_ROUNDS = 10;

/**
 * gossip-spread's detector and timing: the bench's (gossipScale.ts) — a round every 50 ms (the
 * chapter's heartbeat), three peers a round, suspicion after 600 ms of silence, a follower crashed
 * at 1 s once the first leader is settled.
 */
export const GOSSIP_SPREAD = { fanout: 3, roundMs: 50, suspectMs: 600, crashAtMs: 1000, capRounds: 40 } as const;

export const TEMPLATES: Readonly<Record<TemplateId, Template>> = {
  'crash-leader': {
    id: 'crash-leader',
    title: 'Leader crash',
    blurb: "At 1168 ms (the chapter's moment; later for long timeouts) the leader crashes and stays down; the others elect a new one.",
    measures: ['failover', 'elections', 'terms', 'split-votes', 'availability'],
    clients: [],
    schedule: faultActions,
    drive(run, params) {
      const crashAt = faultAtMs(params);
      run.advanceTo(crashAt);
      const leader = run.sim.cluster.leader();
      if (leader !== null) run.act({ verb: 'crash', node: leader.id });
      run.advanceTo(crashAt + settleMs(params));
    },
  },
  'partition-heal': {
    id: 'partition-heal',
    title: 'Partition and heal',
    blurb:
      'The leader is cut off alone at 1168 ms (or later) and the network heals a while after: the majority elects a new leader, the old one steps down on healing.',
    measures: ['failover', 'availability', 'elections', 'terms', 'split-votes'],
    clients: [],
    schedule: faultActions,
    drive(run, params) {
      const cutAt = faultAtMs(params);
      run.advanceTo(cutAt);
      const leader = run.sim.cluster.leader();
      if (leader !== null) run.act({ verb: 'partition', groups: [[leader.id]] });
      const healAt = cutAt + Math.max(1000, 6 * params.timeoutMs[1]);
      run.advanceTo(healAt);
      run.act({ verb: 'heal' });
      run.advanceTo(healAt + settleMs(params));
    },
  },
  'steady-load': {
    id: 'steady-load',
    title: 'Steady load',
    blurb: `Once a leader is settled, a command is submitted every ${SUBMIT_EVERY_MS} ms, ${SUBMITS} in all; each commits once a majority holds it.`,
    measures: ['commit-p50', 'commit-p95', 'messages-per-commit', 'availability', 'split-votes'],
    clients: [],
    schedule(params) {
      const start = faultAtMs(params);
      const submits = Array.from({ length: SUBMITS }, (_, i) =>
        at(start + i * SUBMIT_EVERY_MS, { verb: 'submit', command: `x=${i + 1}`, target: null }),
      );
      return [...faultActions(params), ...submits];
    },
    drive(run, params) {
      run.advanceTo(faultAtMs(params) + SUBMITS * SUBMIT_EVERY_MS + 2 * params.timeoutMs[1] + 20 * params.latencyMs[1]);
    },
  },
  'lease-pause': {
    id: 'lease-pause',
    title: 'Fencing: a client pause vs its lease',
    blurb:
      "A takes job:42 at 1000 ms with a lease, writes, and at 1100 ms pauses (a GC pause it cannot see); it writes again when it wakes. B asks for the lock 100 ms after A's lease would end and writes with its token. Both writes go to the fenced and the unfenced store.",
    measures: ['stale-unfenced', 'stale-fenced', 'fenced-rejections'],
    clients: ['A', 'B'],
    schedule(params) {
      const lease = params.leaseMs;
      return [
        ...faultActions(params),
        at(1000, client('A', { op: 'acquire', key: 'job:42', leaseMs: lease })),
        at(1000, client('A', { op: 'write', key: 'result', value: 'A-first' })),
        at(1100, client('A', { op: 'pause', ms: params.pauseMs })),
        at(1100, client('A', { op: 'write', key: 'result', value: 'A-late' })),
        at(1100 + lease, client('B', { op: 'acquire', key: 'job:42', leaseMs: lease })),
        at(1100 + lease, client('B', { op: 'write', key: 'result', value: 'B-first' })),
      ];
    },
    drive(run, params) {
      run.advanceTo(1100 + Math.max(params.pauseMs, params.leaseMs) + 1500 + 20 * params.latencyMs[1]);
    },
  },
  'false-suspicion': {
    id: 'false-suspicion',
    title: 'False suspicion against detection time',
    blurb:
      'A healthy leader for 60 s under a network whose latency varies (every 10 s, 4 s at the slow factor times the usual latency); every election in that time is a false one. Then the leader crashes and the run measures how long the others take to elect a new one: the trade-off of a detection threshold.',
    measures: ['false-elections', 'failover', 'elections'],
    clients: [],
    schedule(params) {
      const out = faultActions(params);
      if (params.slowFactor !== 1)
        for (let t = 2000; t + SLOW_FOR_MS <= SUSPICION_HEALTHY_MS; t += SLOW_EVERY_MS)
          out.push(at(t, { verb: 'slow', factor: params.slowFactor, forMs: SLOW_FOR_MS }));
      return out;
    },
    drive(run, params) {
      run.advanceTo(SUSPICION_HEALTHY_MS);
      const leader = run.sim.cluster.leader();
      if (leader !== null) run.act({ verb: 'crash', node: leader.id });
      run.advanceTo(SUSPICION_HEALTHY_MS + settleMs(params));
    },
  },
  'takeover-pause': {
    id: 'takeover-pause',
    title: 'The TTL rule: takeover threshold against the lease',
    blurb:
      "The takeover-threshold experiment's story (and the takeover-ttl run preset's): A takes job:42 at 1000 ms with the lease and writes; at 2000 ms it pauses; B asks for the lock 1000 ms before A wakes and, 100 ms later, writes if it holds it; A writes when it wakes. The lock service hands a lock over once its holder has sent no keep-alive for the takeover threshold.",
    measures: ['stale-unfenced', 'stale-fenced', 'fenced-rejections'],
    clients: ['A', 'B'],
    schedule(params) {
      const p = params.pauseMs;
      return [
        ...faultActions(params),
        at(1000, client('A', { op: 'acquire', key: 'job:42', leaseMs: params.leaseMs })),
        at(1000, client('A', { op: 'write', key: 'result', value: 'A-first' })),
        at(2000, client('A', { op: 'pause', ms: p })),
        at(1000 + p, client('B', { op: 'acquire', key: 'job:42', leaseMs: params.leaseMs })),
        at(2000 + p, client('A', { op: 'write', key: 'result', value: 'A-second' })),
      ];
    },
    drive(run, params) {
      // B writes only if it was given the lock (a write without one would be stale by itself).
      run.advanceTo(1100 + params.pauseMs);
      if (run.sim.lockService?.clients.get('B')?.holdings.has('job:42') === true)
        run.act({ verb: 'client', client: 'B', intent: { op: 'write', key: 'result', value: 'B-first' } });
      run.advanceTo(2000 + Math.max(params.pauseMs, params.leaseMs) + 1500 + 20 * params.latencyMs[1]);
    },
  },
  'failover-year': {
    id: 'failover-year',
    title: 'Ten failovers: availability a year',
    blurb:
      "Once a leader is settled, it is crashed; a cycle later the crashed node restarts and the new leader is crashed in turn: ten failovers in all. The time without a committing leader per failover, at the chapter's ten failovers a day, gives the minutes a year against the 52.6 that 99.99% allows.",
    measures: ['downtime-year', 'availability', 'failover'],
    clients: [],
    schedule: faultActions,
    drive(run, params) {
      const cycle = Math.max(2000, 6 * params.timeoutMs[1]);
      let t = faultAtMs(params);
      for (let i = 0; i < 10; i++) {
        run.advanceTo(t);
        const leader = run.sim.cluster.leader();
        if (leader !== null) run.act({ verb: 'crash', node: leader.id });
        run.advanceTo(t + cycle / 2);
        if (leader !== null) run.act({ verb: 'restart', node: leader.id });
        t += cycle;
      }
      run.advanceTo(t);
    },
  },
  'gossip-spread': {
    id: 'gossip-spread',
    title: 'Gossip: rounds for a suspicion to reach every node, against cluster size',
    blurb: `N nodes with the gossip detector (fanout ${GOSSIP_SPREAD.fanout}, a round every ${GOSSIP_SPREAD.roundMs} ms, suspicion after ${GOSSIP_SPREAD.suspectMs} ms of silence). At ${GOSSIP_SPREAD.crashAtMs} ms a follower crashes; the run goes on, a round at a time, until every live node's view suspects it (or ${GOSSIP_SPREAD.capRounds} rounds pass). Past 9 nodes the runs are for the plots and the CSV only: the diagram draws at most 9.`,
    measures: ['gossip-spread', 'gossip-rounds'],
    clients: [],
    runsPerBatch: 1,
    schedule: faultActions,
    config: () => ({
      detector: { kind: 'gossip', fanout: GOSSIP_SPREAD.fanout, roundMs: GOSSIP_SPREAD.roundMs, suspectMs: GOSSIP_SPREAD.suspectMs },
    }),
    drive(run) {
      const { crashAtMs, roundMs, suspectMs, capRounds } = GOSSIP_SPREAD;
      run.advanceTo(crashAtMs);
      const cluster = run.sim.cluster;
      const gossip = cluster.gossip;
      const leader = cluster.leader()?.id ?? null;
      const victim = cluster.config.nodeIds.find((id) => id !== leader && cluster.node(id).alive);
      if (gossip === null || victim === undefined) return;
      run.act({ verb: 'crash', node: victim });
      const cap = crashAtMs + suspectMs + capRounds * roundMs;
      for (let t = crashAtMs + roundMs; t <= cap; t += roundMs) {
        run.advanceTo(t);
        const s = gossip.suspectedBy(victim);
        if (s.by === s.of) break;
      }
    },
  },
  'region-clients': {
    id: 'region-clients',
    title: 'Commit latency for a client in each region',
    blurb: `Five nodes over us-east, us-central and us-west as the placement puts them, and a client in each region: A in us-east, B in us-central, C in us-west. Once a leader is settled each client takes and releases its own lock ${REGION_ROUNDS} times, one request after the other; an acquire's latency is from the client's request to the reply that grants it: the trip to the leader, the leader's round to a majority, the trip back.`,
    measures: ['client-us-east', 'client-us-central', 'client-us-west'],
    clients: ['A', 'B', 'C'],
    schedule(params) {
      const start = faultAtMs(params);
      const out = faultActions(params);
      for (const c of ['A', 'B', 'C'])
        for (let i = 0; i < REGION_ROUNDS; i++) {
          out.push(at(start, client(c, { op: 'acquire', key: `lock:${c}`, leaseMs: 60_000 })));
          out.push(at(start, client(c, { op: 'release', key: `lock:${c}` })));
        }
      return out;
    },
    config: (params) => {
      const regions = regionsOf(Math.max(0, params.placement), true);
      return regions === null ? {} : { regions };
    },
    drive(run, params) {
      run.advanceTo(faultAtMs(params) + 2 * REGION_ROUNDS * 400 + 2 * params.timeoutMs[1]);
    },
  },
  'figure-16': {
    id: 'figure-16',
    title: "Raft's Figure 16: a leader crashed at a random point of its heartbeat interval",
    blurb:
      "Ongaro and Ousterhout's §9.3 set-up: five servers, a broadcast (a round trip to everyone) of about 15 ms, heartbeats every half of the shortest election timeout. Once a leader has been in office for three longest timeouts it is crashed at a uniformly random millisecond of one heartbeat interval, and the run goes on until a new leader is elected (or 15 s pass).",
    measures: ['failover', 'elections', 'split-votes'],
    clients: [],
    schedule: faultActions,
    adjust: (params) => ({ ...params, heartbeatMs: Math.max(1, Math.floor(params.timeoutMs[0] / 2)) }),
    drive(run, given) {
      const params = { ...given, heartbeatMs: Math.max(1, Math.floor(given.timeoutMs[0] / 2)) };
      // The crash's phase is the scenario's own draw, from random.Random(2**64 + seed) (the run's own
      // stream is the engine's); it lands in the schedule as a crash at that time, so a link replays it.
      const phase = new CPythonRandom((1n << 64n) + BigInt(run.sim.cluster.config.seed)).randbelow(params.heartbeatMs);
      const crashAt = faultAtMs(params) + phase;
      run.advanceTo(crashAt);
      const leader = run.sim.cluster.leader();
      if (leader === null) return;
      run.act({ verb: 'crash', node: leader.id });
      // Until someone else leads (a millisecond at a time near the crash, then in 50 ms strides).
      const end = crashAt + FIGURE_16_CAP_MS;
      for (let t = crashAt + 1; t <= end; t += t - crashAt < 2000 ? 1 : 50) {
        run.advanceTo(t);
        const now = run.sim.cluster.leader();
        if (now !== null && now.id !== leader.id) break;
      }
    },
  },
};

export function configFor(template: Template, given: ExperimentParams, seed: number): SimConfig {
  const params = template.adjust?.(given) ?? given;
  return {
    seed,
    nodeIds: nodeIdsFor(params.nodes),
    electionTimeoutMs: params.timeoutMs,
    heartbeatMs: params.heartbeatMs,
    latencyMs: params.latencyMs,
    clientIds: template.clients,
    bugs: [],
    // Issue 28: only when swept, so every other experiment's runs (and links) are what they were.
    ...(params.phi > 0 ? { detector: { kind: 'phi-accrual' as const, threshold: params.phi } } : {}),
    ...(params.phi === 0 && params.takeoverMs > 0 ? { detector: { kind: 'fixed' as const, takeoverMs: params.takeoverMs } } : {}),
    ...(params.placement >= 0 && regionsOf(params.placement) !== null ? { regions: regionsOf(params.placement) as RegionsConfig } : {}),
    ...(params.persistMs > 0 ? { persistMs: params.persistMs } : {}),
    ...template.config?.(params),
  };
}

/** false-suspicion: the leader is healthy this long; then it crashes and the detection time is measured. */
export const SUSPICION_HEALTHY_MS = 60_000;
/** Slow phases: every 10 s, 4 s of slower latency (a congested link, a GC-heavy switch). */
const SLOW_EVERY_MS = 10_000;
const SLOW_FOR_MS = 4_000;

/** One sentence when these parameters make no valid run of the template, else null. */
export function paramsProblem(template: Template, params: ExperimentParams): string | null {
  const config = configFor(template, params, 1);
  return checkConfig(config) ?? checkSchedule(template.schedule(template.adjust?.(params) ?? params), config);
}

export function isTemplateId(text: string): text is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(text);
}
