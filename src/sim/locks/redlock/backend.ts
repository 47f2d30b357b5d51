/**
 * Redlock (redis.io, "Distributed Locks with Redis"): N independent Redis instances, r1..rN, that
 * never talk to each other. A client sets the key with one random value on every instance (in
 * parallel, as most clients do; the page sends to them one after another) and waits at most
 * INSTANCE_TIMEOUT_MS for each; it holds the lock if a majority said OK and time is left: the
 * validity is the TTL minus the time the attempt took minus a drift allowance of 1% of the TTL
 * plus 2 ms (the reference implementation's). Otherwise it unlocks every instance at once. Each
 * instance expires the key by its own wall clock, so a clock that jumps forward lets a key go
 * early (Kleppmann's objection); without persistence a restarted instance forgets every key.
 */
import type { Cluster } from '../../net/cluster';
import {
  holdsText,
  type LockBackend,
  type LockClientDriver,
  type LockHost,
  type LockRow,
  type LockSeat,
  type ServerFacts,
} from '../../net/lockPlug';
import type { History } from '../../model/history';
import { lockOptionsOf } from '../../model/config';
import { lockServices as say } from '../../model/describeLocks';
import type { RaftNode } from '../../raft/node';
import { majorityOf } from '../../raft/quorum';
import type { Message, ServiceRpc } from '../../model/types';
import type { RedisRpc, RpcBody } from '../../model/lockWire';
import { recordFree } from '../common/host';
import { RedisInstance } from '../redis/instance';

/** How long a client waits for one instance's answer (the page: small against the TTL, 5-50 ms for 10 s). */
export const INSTANCE_TIMEOUT_MS = 50;

/** The reference implementation's drift allowance: 1% of the TTL plus 2 ms for the clocks' resolution. */
export function driftAllowanceMs(ttlMs: number): number {
  return Math.floor(ttlMs * 0.01) + 2;
}

const rpc = (body: RpcBody<RedisRpc>): RedisRpc => ({ type: 'ServiceRpc', service: 'redis', ...body }) as RedisRpc;

/** One Redlock a client took: what the instances held at that moment (for the validity check). */
export interface RedlockGrant {
  readonly t: number;
  readonly client: string;
  readonly key: string;
  readonly value: string;
  readonly grant: number;
  /** The client's own end of it: when it started asking, plus the TTL, minus the drift allowance. */
  readonly deadline: number;
  /** Instances whose key with this value was live when the client took it. */
  readonly liveOn: number;
  /** Of those, the ones whose key lasts (by true time, as their clocks run) at least to the deadline. */
  readonly validOn: number;
  /** Every live one's clock is exact (no drift, never jumped): the deadline must then hold on a majority. */
  readonly exactClocks: boolean;
}

/** The client in a Redis value ("A-1": client A's first grant). */
const clientOfValue = (value: string): string => value.slice(0, Math.max(0, value.lastIndexOf('-'))) || value;

export class RedlockBackend implements LockBackend {
  readonly service = 'redlock' as const;
  readonly instances: RedisInstance[];
  readonly persist: boolean;
  readonly quorum: number;
  readonly grants: RedlockGrant[] = [];
  private nextGrant = 1;
  /** Locks clients hold, by value: still held by the service while a majority keeps the value. */
  private readonly held = new Map<string, { readonly key: string; readonly grant: number }>();
  private readonly cluster: Cluster;
  private readonly history: History;
  /** Bug validity-from-last-reply. */
  readonly fromLastReply: boolean;

  constructor(host: LockHost) {
    this.cluster = host.cluster;
    this.history = host.history;
    this.persist = lockOptionsOf(host.cluster.config).includes('persist');
    this.instances = host.cluster.nodes.map((n) => new RedisInstance(n.id, 'primary'));
    this.quorum = majorityOf(this.instances.length);
    this.fromLastReply = host.cluster.bugSet.has('validity-from-last-reply');
  }

  driverFor(seat: LockSeat): LockClientDriver {
    return new RedlockDriver(seat, this.cluster, this);
  }

  private wall(i: number): number {
    return this.cluster.wallNowMs(this.cluster.nodes[i]);
  }

  onServerMessage(dst: string, src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'redis') return;
    const i = this.cluster.nodeById.get(dst)?.index ?? -1;
    if (i < 0) return;
    const r = this.instances[i];
    const wall = this.wall(i);
    const c = this.cluster;
    if (msg.op === 'set') {
      const held = r.live(msg.key, wall);
      const ok = r.setNx(msg.key, msg.value, msg.pxMs, wall, 0);
      if (ok) c.logEvent(say.redisSet(dst, msg.key, msg.value, msg.pxMs, src), 'service-granted', [dst, src]);
      else c.logEvent(say.redisBusy(dst, msg.key, src, held?.value ?? '?'), 'service-busy', [dst, src]);
      c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok }));
    } else if (msg.op === 'cad') {
      const held = r.live(msg.key, wall);
      const ok = r.compareAndDelete(msg.key, msg.value, wall);
      if (ok) c.logEvent(say.redisReleased(dst, msg.key, held?.value ?? '?', src, false), 'service-released', [dst, src]);
      c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok }));
    }
  }

  tick(): void {
    const c = this.cluster;
    for (let i = 0; i < this.instances.length; i++) {
      if (!c.nodes[i].alive) continue;
      const r = this.instances[i];
      for (const [key, k] of r.expired(this.wall(i))) {
        r.keys.delete(key);
        c.logEvent(say.redisExpired(r.id, key, k.value, this.wall(i), k.expiresAtMs), 'key-expired', [r.id]);
      }
    }
    // A lock the service lets go: fewer than a majority still hold its value (expired, forgotten).
    for (const [value, h] of this.held) {
      if (this.holders(h.key, value) >= this.quorum) continue;
      this.held.delete(value);
      recordFree(this.history, 'redlock', h.key, h.grant, c.nowMs);
    }
  }

  /** How many instances hold `key` with `value` now, each by its own clock (a crashed one keeps its keys). */
  holders(key: string, value: string): number {
    let n = 0;
    for (let i = 0; i < this.instances.length; i++) if (this.instances[i].live(key, this.wall(i))?.value === value) n++;
    return n;
  }

  onRestart(node: RaftNode): void {
    const r = this.instances[node.index];
    r.runId++;
    if (!this.persist && r.keys.size > 0) {
      const lost = [...r.keys.keys()].sort();
      r.keys.clear();
      this.cluster.logEvent(say.redisForgot(r.id, lost), 'key-lost', [r.id]);
    }
  }

  /** A client took the lock: its number in the history, and what the instances hold of it now. */
  granted(client: string, key: string, value: string, deadline: number): number {
    const grant = this.nextGrant++;
    const c = this.cluster;
    let liveOn = 0;
    let validOn = 0;
    let exactClocks = true;
    for (let i = 0; i < this.instances.length; i++) {
      const wall = this.wall(i);
      const k = this.instances[i].live(key, wall);
      if (k === undefined || k.value !== value) continue;
      liveOn++;
      const drift = c.driftPct[i];
      if (drift !== 0 || c.clockJumpMs[i] !== 0) exactClocks = false;
      // When its clock reaches the key's expiry, in true time (exact clocks: the same distance).
      const trueExpiry = c.nowMs + ((k.expiresAtMs - wall) * 100) / (100 + drift);
      if (trueExpiry >= deadline) validOn++;
    }
    this.grants.push({ t: c.nowMs, client, key, value, grant, deadline, liveOn, validOn, exactClocks });
    this.held.set(value, { key, grant });
    return grant;
  }

  released(value: string): void {
    this.held.delete(value);
  }

  summaryLines(): string[] {
    return this.instances.map((_, i) => this.serverFacts(i).line);
  }

  /** Each instance's live keys, as it counts them by its own wall clock. */
  lockRows(): LockRow[] {
    return this.instances.flatMap((r, i) =>
      r.liveKeys(this.wall(i)).map((k): LockRow => ({
        key: k.key,
        server: r.id,
        client: clientOfValue(k.value),
        state: 'holds',
        token: 'none',
        note: `value ${k.value}, expires in ${Math.round(k.expiresAtMs - this.wall(i))} ms by ${r.id}'s clock`,
      })),
    );
  }

  serverFacts(i: number): ServerFacts {
    const r = this.instances[i];
    const live = r.liveKeys(this.wall(i));
    const keys = live.map((k) => `${k.key}=${k.value} until ${Math.round(k.expiresAtMs)}`);
    const c = this.cluster;
    const clock =
      c.driftPct[i] !== 0 || c.clockJumpMs[i] !== 0
        ? ` (clock ${c.clockJumpMs[i] >= 0 ? '+' : ''}${c.clockJumpMs[i]} ms, drift ${c.driftPct[i]}%)`
        : '';
    return {
      role: 'instance',
      holds: holdsText(
        live.map((k) => [k.key, k.value]),
        'no keys',
      ),
      line: `${r.id}: ${c.nodes[i].alive ? '' : 'down, '}${keys.length > 0 ? keys.join(', ') : 'no keys'}${clock}`,
    };
  }

  stillHolds(_client: string, lockKey: string | null, _token: number | null, grant: number | null): boolean {
    if (lockKey === null || grant === null) return false;
    for (const [value, h] of this.held) if (h.grant === grant) return this.holders(lockKey, value) >= this.quorum;
    return false;
  }
}

interface RedlockOp {
  readonly kind: 'acquire' | 'release';
  readonly key: string;
  readonly ttlMs: number;
  readonly value: string;
  readonly id: number;
  readonly startedAt: number;
  readonly answers: Map<string, boolean>;
}

/** A Redlock client: the same SET NX PX on every instance, a majority within the validity time, else unlock all. */
export class RedlockDriver implements LockClientDriver {
  private op: RedlockOp | null = null;
  private nextId = 1;
  private nextValue = 1;
  private readonly values = new Map<string, string>();
  private deferredNotFound = false;

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
    private readonly backend: RedlockBackend,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    const value = op === 'acquire' ? `${this.seat.id}-${this.nextValue++}` : (this.values.get(key) ?? '');
    this.op = { kind: op, key, ttlMs: leaseMs, value, id: this.nextId++, startedAt: this.cluster.nowMs, answers: new Map() };
    if (op === 'release' && value === '') {
      this.deferredNotFound = true;
      return;
    }
    this.seat.status = `${op === 'acquire' ? 'acquiring' : 'releasing'} ${key} on ${this.cluster.config.nodeIds.length} instances`;
    for (const id of this.cluster.config.nodeIds) {
      const msg: ServiceRpc =
        op === 'acquire' ? rpc({ op: 'set', id: this.op.id, key, value, pxMs: leaseMs }) : rpc({ op: 'cad', id: this.op.id, key, value });
      this.cluster.send(this.seat.id, id, msg);
    }
  }

  onMessage(src: string, msg: ServiceRpc): void {
    const o = this.op;
    if (o === null || msg.service !== 'redis' || msg.op !== 'reply' || msg.id !== o.id) return;
    o.answers.set(src, msg.ok);
    if (o.answers.size === this.cluster.config.nodeIds.length) this.decide();
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const o = this.op;
    if (o === null) return;
    if (this.deferredNotFound) {
      this.deferredNotFound = false;
      this.op = null;
      this.seat.finish({ outcome: 'not-found', token: null, deadline: null, grant: null, rounds: 0 });
      return;
    }
    // An instance that has not answered within its timeout counts as a no.
    if (now - o.startedAt >= INSTANCE_TIMEOUT_MS) this.decide();
  }

  private decide(): void {
    const o = this.op;
    if (o === null) return;
    this.op = null;
    const now = this.cluster.nowMs;
    const oks = [...o.answers.values()].filter((ok) => ok).length;
    if (o.kind === 'release') {
      this.values.delete(o.key);
      this.backend.released(o.value);
      this.seat.finish({ outcome: oks > 0 ? 'released' : 'not-found', token: null, deadline: null, grant: null, rounds: 1 });
      return;
    }
    const drift = driftAllowanceMs(o.ttlMs);
    const validity = o.ttlMs - (now - o.startedAt) - drift;
    if (oks >= this.backend.quorum && validity > 0) {
      // Counted from when it asked; bug validity-from-last-reply counts the whole TTL from now.
      const deadline = this.backend.fromLastReply ? now + o.ttlMs : o.startedAt + o.ttlMs - drift;
      this.values.set(o.key, o.value);
      const grant = this.backend.granted(this.seat.id, o.key, o.value, deadline);
      this.seat.finish({ outcome: 'granted', token: null, deadline, grant, rounds: 1 });
      return;
    }
    if (validity <= 0 && oks >= this.backend.quorum)
      this.cluster.logEvent(say.validityRanOut(this.seat.id, o.key, oks, now - o.startedAt, drift, o.ttlMs), 'validity-ran-out', [
        this.seat.id,
      ]);
    // Failed: unlock every instance, even those that did not answer (the page's rule).
    for (const id of this.cluster.config.nodeIds)
      this.cluster.send(this.seat.id, id, rpc({ op: 'cad', id: 0, key: o.key, value: o.value }));
    this.seat.finish({ outcome: 'busy', token: null, deadline: null, grant: null, rounds: 1 });
  }

  crashed(): void {
    this.op = null;
    this.deferredNotFound = false;
    this.values.clear();
  }
}
