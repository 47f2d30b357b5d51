/**
 * Drives a Simulation and keeps its observations (observations.ts). It advances from one moment
 * that can act to the next (as `Simulation.advanceTo` does internally, so the run is the same run)
 * and, after each, reads what the engine recorded since: chapter events by kind (the term read
 * off the node, never off the text), the leader-append and leader-commit detail events, and the
 * stores' write records.
 */
import type { SimConfig } from '../model/config';
import type { ActionBody } from '../model/schedule';
import type { Simulation } from '../run/simulation';
import type { Observation, RunRecord } from './observations';

/** Detail events are read as they come; the engine may drop older ones past this many. */
const DETAIL_WINDOW = 256;

/** The clients' regions as the configuration places them; nothing without regions or placed clients. */
function clientRegionsOf(config: SimConfig): { clientRegions?: Record<string, string> } {
  const places = config.regions?.places;
  if (places === undefined) return {};
  const out: Record<string, string> = {};
  for (const p of places) for (const id of p.ids) if (config.clientIds.includes(id)) out[id] = p.region;
  return Object.keys(out).length === 0 ? {} : { clientRegions: out };
}

export class RunRecorder {
  readonly observations: Observation[] = [];
  private eventsSeen = 0;
  private detailsSeen = 0;
  private readonly writesSeen = { fenced: 0, unfenced: 0 };
  private suspicionsSeen = 0;
  private readonly acquiresSeen = new Map<string, number>();

  constructor(readonly sim: Simulation) {
    sim.cluster.recordDetails = true;
    sim.cluster.detailLimit = DETAIL_WINDOW;
    this.collect();
  }

  get nowMs(): number {
    return this.sim.nowMs;
  }

  advanceTo(t: number): void {
    const sim = this.sim;
    const cluster = sim.cluster;
    while (cluster.nowMs < t) {
      let next = cluster.nextEventMs();
      const action = sim.nextActionAt();
      if (action < next) next = action;
      if (t < next) next = t;
      sim.advanceTo(next);
      this.collect();
    }
  }

  /** A template's action now (it goes into the run's schedule, so the run's link replays it). */
  act(body: ActionBody): void {
    const result = this.sim.act(body);
    if (typeof result === 'string') throw new RangeError(result);
    this.collect();
  }

  record(): RunRecord {
    const sent = this.sim.cluster.sent;
    const gossip = this.sim.cluster.gossip;
    return {
      nodeIds: this.sim.cluster.config.nodeIds,
      endMs: this.sim.nowMs,
      messages: sent.RequestVote + sent.VoteReply + sent.AppendEntries + sent.AppendReply,
      observations: this.observations,
      ...(gossip === null ? {} : { gossipRoundMs: gossip.params.roundMs }),
      ...clientRegionsOf(this.sim.cluster.config),
    };
  }

  private collect(): void {
    const cluster = this.sim.cluster;
    const out = this.observations;
    const events = cluster.events;
    for (; this.eventsSeen < events.length; this.eventsSeen++) {
      const e = events[this.eventsSeen];
      switch (e.kind) {
        case 'crash':
        case 'restart':
        case 'step-down':
          out.push({ t: e.t, kind: e.kind, node: e.subjects[0] });
          break;
        // A forced timeout ('election-forced') logs its own 'election' as the node campaigns.
        case 'election':
          out.push({ t: e.t, kind: 'election', node: e.subjects[0], term: cluster.node(e.subjects[0]).term });
          break;
        case 'leader':
          out.push({ t: e.t, kind: 'leader', node: e.subjects[0], term: cluster.node(e.subjects[0]).term });
          break;
        case 'partition':
          out.push({ t: e.t, kind: 'partition', groups: cluster.groups.map((g) => [...g]) });
          break;
        case 'heal':
          out.push({ t: e.t, kind: 'heal' });
          break;
        case 'submit-rejected':
          out.push({ t: e.t, kind: 'submit-rejected' });
          break;
        default:
          break;
      }
    }
    const details = cluster.detailLog;
    const count = details.count;
    for (let i = Math.max(this.detailsSeen, details.base); i < count; i++) {
      const d = details.at(i - details.base);
      if (d.kind === 'leader-append') out.push({ t: d.t, kind: 'append', node: d.values.node, term: d.values.term, index: d.values.index });
      else if (d.kind === 'commit-advanced' && (d.values.rule === 'majority' || d.values.rule === 'earlier-term-by-counting')) {
        out.push({ t: d.t, kind: 'commit', node: d.values.node, term: d.values.term, index: d.values.to });
      }
    }
    this.detailsSeen = count;
    const gossip = cluster.gossip;
    if (gossip !== null) {
      const all = gossip.suspicions;
      for (; this.suspicionsSeen < all.length; this.suspicionsSeen++) {
        const g = all[this.suspicionsSeen];
        out.push({ t: g.t, kind: 'suspect', node: g.member, by: g.by });
      }
    }
    const service = this.sim.lockService;
    if (service !== null) {
      for (const [id, c] of service.clients) {
        const seen = this.acquiresSeen.get(id) ?? 0;
        for (let i = seen; i < c.acquires.length; i++) {
          const a = c.acquires[i];
          out.push({ t: a.completeMs, kind: 'client-acquire', client: id, sentAt: a.invokeMs, granted: a.granted });
        }
        this.acquiresSeen.set(id, c.acquires.length);
      }
      for (const store of [service.fenced, service.unfenced]) {
        const writes = store.writes;
        for (let i = this.writesSeen[store.id]; i < writes.length; i++) {
          const w = writes[i];
          out.push({ t: w.t, kind: 'store-write', store: store.id, client: w.client, key: w.key, token: w.token, accepted: w.accepted });
        }
        this.writesSeen[store.id] = writes.length;
      }
    }
  }
}
