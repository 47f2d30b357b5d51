/**
 * Reachability properties (issue 24; Antithesis's `Sometimes`, Stateright's `sometimes`): the
 * situations a slip needs before any invariant can see it. Each is named in a manifest
 * (src/sim/model/features/, `sometimes`) and decided here, from what the run does as it does it —
 * messages sent and delivered, the state after each step, each apply, the clients' history at
 * the end — so the fuzzer, which records no detail events, can count the runs that reach each
 * and name the ones no run reached. Observing only: a run is the same with the tracker on.
 */
import type { Cluster } from '../net/cluster';
import type { SometimesId } from '../model/features';
import type { HistoryOp } from '../model/history';
import type { RaftNode } from '../raft/node';
import { leaseMsOf, LEASE_DRIFT_MARGIN_PCT } from '../service/reads';
import type { LockService } from '../service/lockService';
import { isKvCommand, isLockCommand, type Message } from '../model/types';
import { expectedNext } from './messageInvariants';

export type { SometimesId };

export class Reachability {
  readonly reached = new Set<SometimesId>();
  private readonly cluster: Cluster;
  private readonly clients: ReadonlySet<string>;
  private groupsSeen: readonly (readonly string[])[];
  /** Per node: whether it led at the last step (removed-leader-stepped-down). */
  private readonly led: boolean[] = [];
  /** Per leader: index → the term of the client entry it appended there (reused-index-applied). */
  private readonly proposed = new Map<string, Map<number, number>>();
  private readonly lastSeen = new Map<string, number>();
  private eventCursor: number;
  /** Client → the id and mode of the newest get it sent to a node. */
  private readonly getModes = new Map<string, { readonly id: number; readonly lease: boolean }>();

  constructor(cluster: Cluster, service: LockService | null) {
    this.cluster = cluster;
    this.clients = new Set(service !== null ? service.clients.keys() : []);
    this.groupsSeen = cluster.groups;
    this.eventCursor = cluster.events.length;
  }

  /** Hooks the tracker into its run (a Simulation's cluster): messages, steps and applies. */
  attach(): this {
    const own = this.cluster;
    own.addMessageObserver({
      sent: (cluster, src, dst, msg) => {
        if (cluster === own) this.sent(src, dst, msg);
      },
      delivering: (cluster, src, dst, msg) => {
        if (cluster === own) this.delivering(src, dst, msg);
      },
    });
    own.addObserver((cluster) => {
      if (cluster === own) this.step();
    });
    if (this.clients.size > 0)
      own.addApplyObserver((node, index, entry) => {
        if (own.nodes[node.index] !== node || node.role !== 'leader') return;
        const term = this.proposed.get(node.id)?.get(index);
        if (term !== undefined && term !== entry.term) this.reach('reused-index-applied');
      });
    return this;
  }

  /** At a run's end: what the clients' history shows. */
  finish(history: readonly HistoryOp[]): void {
    const lockKeys = new Set<string>();
    const mapKeys = new Set<string>();
    for (const o of history) {
      if (o.op === 'put' || o.op === 'get') mapKeys.add(o.key);
      else if (o.op !== 'write') lockKeys.add(o.key);
    }
    for (const k of mapKeys) if (lockKeys.has(k)) this.reach('lock-key-is-map-key');
  }

  private reach(id: SometimesId): void {
    this.reached.add(id);
  }

  private node(id: string): RaftNode | undefined {
    return this.cluster.nodeById.get(id);
  }

  private sent(src: string, dst: string, msg: Message): void {
    if (msg.type !== 'ClientReply' || msg.op !== 'get' || msg.outcome !== 'ok' || msg.index !== null) return;
    const get = this.getModes.get(dst);
    if (get === undefined || get.id !== msg.id || !get.lease) return;
    const c = this.cluster;
    if (c.driftPct.some((p) => p !== 0)) this.reach('lease-read-drifting');
    const l = this.node(src);
    if (l === undefined) return;
    const drift = c.driftPct[l.index];
    const leaseMs = leaseMsOf(c.electionTimeoutMinMs);
    if (drift < 0 && drift >= -LEASE_DRIFT_MARGIN_PCT && l.localNowMs() - l.leaseStartLocalMs() >= 0.8 * leaseMs)
      this.reach('lease-read-late');
  }

  private delivering(src: string, dst: string, msg: Message): void {
    switch (msg.type) {
      case 'RequestVote': {
        if (msg.preVote !== true) return;
        const v = this.node(dst);
        if (v === undefined || !v.alive || msg.term <= v.term) return;
        const upToDate = msg.lastLogTerm > v.lastLogTerm || (msg.lastLogTerm === v.lastLogTerm && msg.lastLogIndex >= v.lastLogIndex);
        const hears =
          v.role === 'leader' || (v.leaderId !== null && this.cluster.nowMs - v.leaderHeardMs < this.cluster.electionTimeoutMinMs);
        if (upToDate && hears) this.reach('pre-vote-refused-hearing-leader');
        return;
      }
      case 'VoteReply': {
        const p = this.node(dst);
        if (msg.preVote === true && msg.granted && p !== undefined && p.alive && p.preCandidate && msg.term !== p.term + 1)
          this.reach('pre-vote-late-yes');
        return;
      }
      case 'AppendReply': {
        const l = this.node(dst);
        if (l === undefined || !l.alive || l.role !== 'leader') return;
        if (msg.term < l.term) this.reach('old-term-append-reply');
        if (msg.success || msg.conflictIndex === undefined || msg.term !== l.term || !l.peers.includes(src)) return;
        const from = l.nextIndexOf(src);
        const ct = msg.conflictTerm ?? 0;
        const ci = msg.conflictIndex;
        const right = expectedNext(l, from, ct, ci);
        if (expectedNext(l, from, ct, ci, { noCap: true }) !== right) this.reach('hint-late');
        if (expectedNext(l, from, ct, ci, { anyTerm: true }) !== right) this.reach('hint-term-not-held');
        return;
      }
      case 'InstallSnapshot': {
        const f = this.node(dst);
        const snap = msg.snapshot;
        if (
          f !== undefined &&
          f.alive &&
          msg.term >= f.term &&
          snap.index > f.commitIndex &&
          snap.index > f.snapshotIndex &&
          f.lastLogIndex > snap.index &&
          f.termAt(snap.index) === snap.term
        )
          this.reach('snapshot-onto-longer-log');
        return;
      }
      case 'ClientRequest':
        if (msg.op === 'get') this.getModes.set(src, { id: msg.id, lease: msg.readMode === 'lease' });
        return;
      default:
        return;
    }
  }

  private step(): void {
    const c = this.cluster;
    if (c.groups !== this.groupsSeen) {
      this.groupsSeen = c.groups;
      for (const g of c.groups) for (const id of g) if (this.clients.has(id)) this.reach('partition-names-client');
    }
    const events = c.events;
    while (this.eventCursor < events.length) {
      const e = events[this.eventCursor++];
      // A restart forgets the replies the node owed (lockService.onRestart): nothing waits on its proposals.
      if (e.kind === 'restart') this.proposed.delete(e.subjects[0]);
    }
    const nodes = c.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const leads = n.alive && n.role === 'leader';
      if (leads) this.leaderStep(n);
      else if (this.led[i] === true && n.membership !== null && !n.membership.isVoter(n.id) && n.commitIndex >= n.membership.configIndex)
        this.reach('removed-leader-stepped-down');
      this.led[i] = leads;
    }
  }

  private leaderStep(l: RaftNode): void {
    if (l.transferTerm === l.term) this.reach('transfer-completed');
    if (l.transferTo !== null) {
      const t = this.node(l.transferTo);
      if (t !== undefined && t.termAt(l.lastLogIndex) !== l.lastLogTerm && l.lastLogIndex > t.snapshotIndex)
        this.reach('transfer-target-lagging');
    }
    if (this.clients.size === 0) return;
    // The entry a leader appended for a client (only the newest each step: enough to see the situation).
    const last = l.lastLogIndex;
    if ((this.lastSeen.get(l.id) ?? 0) === last) return;
    this.lastSeen.set(l.id, last);
    const entry = l.entryAt(last);
    if (entry === undefined || entry.term !== l.term || !(isLockCommand(entry.command) || isKvCommand(entry.command))) return;
    let map = this.proposed.get(l.id);
    if (map === undefined) this.proposed.set(l.id, (map = new Map()));
    map.set(last, entry.term);
  }
}
