/**
 * Gossip membership as a leader election (the chapter's last row: "Not a lock"), in the style of
 * Cassandra's and Dynamo's gossip: every member — each node, and each client — keeps a table of
 * heartbeat counters. Every GOSSIP_MS it raises its own and sends its whole table to FANOUT
 * random other members; a receiver takes every counter higher than its own. A member whose
 * counter has not grown for FAIL_MS is taken for dead. A client that wants a lock contends for it
 * (the table says so), and believes it leads — holds the lock — while it is the lowest id it
 * believes alive among those contending. There is no service to ask and no token: while views
 * disagree, two clients act at once, for as long as a counter takes to spread (seconds).
 *
 * The nodes are relays: they gossip but never contend. Random peers come from the run's one
 * PRNG stream (one randbelow per pick).
 */
import type { Cluster } from '../../net/cluster';
import type { LockBackend, LockClientDriver, LockHost, LockRow, LockSeat, ServerFacts } from '../../net/lockPlug';
import { lockServices as say } from '../../model/describeLocks';
import type { RaftNode } from '../../raft/node';
import type { Message, ServiceRpc } from '../../model/types';
import type { GossipRpc } from '../../model/lockWire';

/** A gossip round (Cassandra gossips once a second; a fifth of that keeps the lab's runs short). */
export const GOSSIP_MS = 200;
/** Peers per round. */
export const FANOUT = 2;
/** A counter that has not grown for this long marks its member dead (Cassandra's phi threshold, made fixed). */
export const FAIL_MS = 2000;

interface Entry {
  heartbeat: number;
  contends: readonly string[];
  /** By the viewer's clock, when the counter last grew. */
  seenAtMs: number;
}

/** One member's view of everyone. */
export class GossipMember {
  readonly table = new Map<string, Entry>();
  /** Members this one took for dead, so a change either way is logged once. */
  readonly dead = new Set<string>();
  nextRoundMs = 0;

  constructor(
    readonly id: string,
    members: readonly string[],
  ) {
    for (const m of members) this.table.set(m, { heartbeat: 0, contends: [], seenAtMs: 0 });
  }

  /** Alive in this member's view at `nowMs` (by its own clock): itself, or a counter that grew within FAIL_MS. */
  alive(member: string, nowMs: number): boolean {
    if (member === this.id) return true;
    const e = this.table.get(member);
    return e !== undefined && nowMs - e.seenAtMs < FAIL_MS;
  }

  /** The lowest id this member believes alive among those contending for `key`, or null. */
  leaderOf(key: string, nowMs: number): string | null {
    let best: string | null = null;
    for (const [id, e] of this.table) {
      if (!e.contends.includes(key) || !this.alive(id, nowMs)) continue;
      if (best === null || id < best) best = id;
    }
    return best;
  }

  digest(): GossipRpc {
    const members = [...this.table].map(([id, e]) => ({ id, heartbeat: e.heartbeat, contends: e.contends }));
    return { type: 'ServiceRpc', service: 'gossip', op: 'digest', members };
  }

  /** Takes every newer counter (bug gossip-accepts-older: every different one). */
  merge(msg: GossipRpc, nowMs: number, acceptOlder: boolean): void {
    for (const m of msg.members) {
      if (m.id === this.id) continue;
      const e = this.table.get(m.id);
      if (e === undefined) this.table.set(m.id, { heartbeat: m.heartbeat, contends: m.contends, seenAtMs: nowMs });
      else if (m.heartbeat > e.heartbeat || (acceptOlder && m.heartbeat !== e.heartbeat)) {
        e.heartbeat = m.heartbeat;
        e.contends = m.contends;
        e.seenAtMs = nowMs;
      }
    }
  }

  /** A round: raise its own counter. */
  beat(nowMs: number): void {
    const own = this.table.get(this.id);
    if (own !== undefined) {
      own.heartbeat++;
      own.seenAtMs = nowMs;
    }
  }

  setContends(keys: readonly string[]): void {
    const own = this.table.get(this.id);
    if (own !== undefined) own.contends = [...keys].sort();
  }
}

export class GossipBackend implements LockBackend {
  readonly service = 'gossip' as const;
  readonly members: readonly string[];
  /** The nodes' members, by node position. */
  readonly relays: GossipMember[];
  /** The clients' members (their drivers register them). */
  readonly agents = new Map<string, GossipMember>();
  readonly acceptOlder: boolean;
  private nextGrant = 1;
  private readonly cluster: Cluster;

  constructor(host: LockHost) {
    this.cluster = host.cluster;
    this.members = [...host.cluster.config.nodeIds, ...host.clientIds];
    this.relays = host.cluster.nodes.map((n) => new GossipMember(n.id, this.members));
    this.acceptOlder = host.cluster.bugSet.has('gossip-accepts-older');
  }

  driverFor(seat: LockSeat): LockClientDriver {
    const member = new GossipMember(seat.id, this.members);
    this.agents.set(seat.id, member);
    return new GossipDriver(seat, this.cluster, this, member);
  }

  newGrant(): number {
    return this.nextGrant++;
  }

  /** Sends `member`'s table to FANOUT random others (one draw per pick). */
  gossipFrom(member: GossipMember, nowMs: number): void {
    member.beat(nowMs);
    const others = this.members.filter((m) => m !== member.id);
    if (others.length === 0) return;
    const picked = new Set<string>();
    const want = Math.min(FANOUT, others.length);
    while (picked.size < want) picked.add(others[this.cluster.rng.randbelow(others.length)]);
    const digest = member.digest();
    for (const peer of picked) this.cluster.send(member.id, peer, digest);
  }

  /** Logs the members `member` now takes for dead, or alive again. */
  noteViews(member: GossipMember, nowMs: number): void {
    for (const id of this.members) {
      if (id === member.id) continue;
      const alive = member.alive(id, nowMs);
      if (!alive && !member.dead.has(id)) {
        member.dead.add(id);
        this.cluster.logEvent(say.gossipSuspects(member.id, id, FAIL_MS), 'gossip-suspects', [member.id, id]);
      } else if (alive && member.dead.has(id)) {
        member.dead.delete(id);
        this.cluster.logEvent(say.gossipRevives(member.id, id), 'gossip-revives', [member.id, id]);
      }
    }
  }

  onServerMessage(dst: string, _src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'gossip') return;
    const node = this.cluster.nodeById.get(dst);
    if (node === undefined) return;
    this.relays[node.index].merge(msg, this.cluster.localNowMs(node), this.acceptOlder);
  }

  tick(): void {
    const c = this.cluster;
    for (let i = 0; i < this.relays.length; i++) {
      const node = c.nodes[i];
      if (!node.alive) continue;
      const m = this.relays[i];
      const now = c.localNowMs(node);
      if (now >= m.nextRoundMs) {
        m.nextRoundMs = now + GOSSIP_MS;
        this.gossipFrom(m, now);
      }
    }
  }

  /** A relay restarted: it knows the members, not their counters (it starts over, as after a crash). */
  onRestart(node: RaftNode): void {
    const own = this.relays[node.index].table.get(node.id);
    const beat = own?.heartbeat ?? 0;
    const fresh = new GossipMember(node.id, this.members);
    const now = this.cluster.localNowMs(node);
    for (const e of fresh.table.values()) e.seenAtMs = now;
    // Its own counter goes on from where it was (a generation number, as Cassandra keeps), so peers take it.
    const mine = fresh.table.get(node.id);
    if (mine !== undefined) mine.heartbeat = beat;
    this.relays[node.index] = fresh;
  }

  summaryLines(): string[] {
    const now = this.cluster.nowMs;
    return [...this.agents].map(([id, m]) => {
      const alive = this.members.filter((x) => m.alive(x, now));
      const keys = [...new Set([...m.table.values()].flatMap((e) => e.contends))].sort();
      const leads = keys.map((k) => `${k}: ${m.leaderOf(k, now) ?? 'nobody'}`);
      return `${id} believes alive ${alive.join(', ')}${leads.length > 0 ? `; leader of ${leads.join(', ')}` : ''}`;
    });
  }

  /** Each client's view: whom it takes for the leader of each key it contends for (views may disagree). */
  lockRows(): LockRow[] {
    const now = this.cluster.nowMs;
    return [...this.agents].flatMap(([id, m]) =>
      [...new Set([...m.table.values()].flatMap((e) => e.contends))].sort().map((key): LockRow => ({
        key,
        server: id,
        client: m.leaderOf(key, now) ?? 'nobody',
        state: 'leads',
        token: 'none',
        note: `in ${id}'s view: the lowest contender it believes alive`,
      })),
    );
  }

  /** A node relays the gossip; what it holds is how many members it believes alive. */
  serverFacts(i: number): ServerFacts {
    const m = this.relays[i];
    const now = this.cluster.localNowMs(this.cluster.nodes[i]);
    const alive = this.members.filter((x) => m.alive(x, now));
    return {
      role: 'member',
      holds: `${alive.length}/${this.members.length} alive`,
      line: `${m.id} (a relay) believes alive ${alive.join(', ')}`,
    };
  }

  stillHolds(client: string, lockKey: string | null): boolean {
    if (lockKey === null) return false;
    const m = this.agents.get(client);
    return m !== undefined && m.leaderOf(lockKey, this.cluster.nowMs) === client;
  }
}

/** A client's gossip agent: it contends for the keys it asked for, and leads while it is the lowest it believes alive. */
export class GossipDriver implements LockClientDriver {
  private op: { readonly kind: 'acquire' | 'release'; readonly key: string; readonly leaseMs: number; readonly askedAt: number } | null =
    null;
  private readonly wants = new Map<string, number>();

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
    private readonly backend: GossipBackend,
    private member: GossipMember,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    this.op = { kind: op, key, leaseMs, askedAt: this.cluster.nowMs };
    if (op === 'acquire') this.wants.set(key, leaseMs);
    else this.wants.delete(key);
    this.member.setContends([...this.wants.keys()]);
    this.seat.status = op === 'acquire' ? `contending for ${key}` : `leaving ${key}`;
  }

  onMessage(_src: string, msg: ServiceRpc): void {
    if (msg.service === 'gossip') this.member.merge(msg, this.cluster.nowMs, this.backend.acceptOlder);
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const m = this.member;
    if (now >= m.nextRoundMs) {
      m.nextRoundMs = now + GOSSIP_MS;
      this.backend.gossipFrom(m, now);
    }
    this.backend.noteViews(m, now);
    // Held locks: kept while it leads in its own view (each round renews its count), given up when a lower contender is alive.
    for (const key of [...this.seat.holdings.keys()]) {
      if (m.leaderOf(key, now) === this.seat.id) this.seat.extend(key, now + (this.wants.get(key) ?? 0));
      else this.seat.lose(key, 'not-leader-any-more');
    }
    const o = this.op;
    if (o === null) return;
    if (o.kind === 'release') {
      this.op = null;
      const held = this.seat.holdings.has(o.key);
      this.seat.finish({ outcome: held ? 'released' : 'not-found', token: null, deadline: null, grant: null, rounds: 0 });
      return;
    }
    if (m.leaderOf(o.key, now) !== this.seat.id) return;
    this.op = null;
    this.cluster.logEvent(say.gossipLeads(this.seat.id, o.key), 'client-leads', [this.seat.id]);
    const grant = this.backend.newGrant();
    this.seat.finish({ outcome: 'granted', token: null, deadline: o.askedAt + o.leaseMs, grant, rounds: 0 });
  }

  /** The process died: it knows nothing when it comes back, and contends for nothing. */
  crashed(): void {
    this.op = null;
    this.wants.clear();
    const beat = this.member.table.get(this.seat.id)?.heartbeat ?? 0;
    const fresh = new GossipMember(this.seat.id, this.backend.members);
    const now = this.cluster.nowMs;
    for (const e of fresh.table.values()) e.seenAtMs = now;
    const mine = fresh.table.get(this.seat.id);
    if (mine !== undefined) mine.heartbeat = beat;
    this.member = fresh;
    this.backend.agents.set(this.seat.id, fresh);
  }
}
