/**
 * A Redis lock (redis.io, "Distributed Locks with Redis", the single-instance algorithm): one
 * primary, r1, and with a second server an asynchronous replica, r2, that takes over when r1 has
 * been silent for FAILOVER_MS (Sentinel's down-after-milliseconds and failover, folded into the
 * replica: one sentinel's decision, no quorum of sentinels). Replication sends every write after
 * the primary answered (asynchronous), with its expiry as an absolute time (PXAT); a replica
 * expires nothing itself until promoted. A restarted instance keeps its keys only with
 * persistence on (AOF, fsync always); a replica that sees its primary restarted, or a demoted
 * primary, resynchronises from scratch (the Redis docs' warning about replicas of a primary with
 * persistence off).
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
import type { Message, ServiceRpc } from '../../model/types';
import type { RedisRpc, RpcBody } from '../../model/lockWire';
import { SERVICE_RETRY_MS, nextServer, recordFree } from '../common/host';
import { RedisInstance } from './instance';

/** How often a primary pings the others (replication's PING and Sentinel's view of it). */
export const PING_MS = 200;
/** A replica takes over when it has heard nothing from its primary for this long (Sentinel's down-after-milliseconds). */
export const FAILOVER_MS = 1500;

const rpc = (body: RpcBody<RedisRpc>): RedisRpc => ({ type: 'ServiceRpc', service: 'redis', ...body }) as RedisRpc;

/** The client in a Redis value ("A-1": client A's first grant). */
const clientOfValue = (value: string): string => value.slice(0, Math.max(0, value.lastIndexOf('-'))) || value;

export class RedisBackend implements LockBackend {
  readonly service = 'redis' as const;
  readonly instances: RedisInstance[];
  readonly persist: boolean;
  /** Bug release-without-compare: a release is a plain DEL. */
  readonly plainDel: boolean;
  /** The history's number for the next grant (bookkeeping). */
  private nextSeq = 1;
  /** Grants a primary holds: their numbers, to see when the service lets one go. */
  private liveSeqs = new Map<number, string>();
  /** Releases and deletes by clients, per instance, in the order they happened (for the checker). */
  readonly deletes: {
    readonly t: number;
    readonly server: string;
    readonly key: string;
    readonly by: string;
    readonly removed: string | null;
    readonly asked: string | null;
  }[] = [];
  private readonly cluster: Cluster;
  private readonly history: History;

  constructor(host: LockHost) {
    this.cluster = host.cluster;
    this.history = host.history;
    this.persist = lockOptionsOf(host.cluster.config).includes('persist');
    this.plainDel = host.cluster.bugSet.has('release-without-compare');
    this.instances = host.cluster.nodes.map((n, i) => new RedisInstance(n.id, i === 0 ? 'primary' : 'replica'));
  }

  driverFor(seat: LockSeat): LockClientDriver {
    return new RedisDriver(seat, this.cluster, this.plainDel);
  }

  private node(i: number): RaftNode {
    return this.cluster.nodes[i];
  }

  private wall(i: number): number {
    return this.cluster.wallNowMs(this.node(i));
  }

  private mono(i: number): number {
    return this.cluster.localNowMs(this.node(i));
  }

  private indexOf(id: string): number {
    return this.cluster.nodeById.get(id)?.index ?? -1;
  }

  // -- servers ------------------------------------------------------------------------------

  onServerMessage(dst: string, src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'redis') return;
    const i = this.indexOf(dst);
    if (i < 0) return;
    const r = this.instances[i];
    const wall = this.wall(i);
    const c = this.cluster;
    switch (msg.op) {
      case 'set': {
        if (r.role === 'replica') {
          c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: false, readonly: true }));
          return;
        }
        const held = r.live(msg.key, wall);
        if (r.setNx(msg.key, msg.value, msg.pxMs, wall, this.nextSeq)) {
          const seq = this.nextSeq++;
          const k = r.keys.get(msg.key);
          c.logEvent(say.redisSet(dst, msg.key, msg.value, msg.pxMs, src), 'service-granted', [dst, src]);
          c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: true, seq }));
          this.replicate(i, msg.key, msg.value, k?.expiresAtMs ?? null, seq);
        } else {
          c.logEvent(say.redisBusy(dst, msg.key, src, held?.value ?? '?'), 'service-busy', [dst, src]);
          c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: false }));
        }
        return;
      }
      case 'cad':
      case 'del': {
        if (r.role === 'replica') {
          c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: false, readonly: true }));
          return;
        }
        const held = r.live(msg.key, wall);
        const asked = msg.op === 'cad' ? msg.value : null;
        const ok = msg.op === 'cad' ? r.compareAndDelete(msg.key, msg.value, wall) : held !== undefined && r.keys.delete(msg.key);
        this.deletes.push({ t: c.nowMs, server: dst, key: msg.key, by: src, removed: ok ? (held?.value ?? null) : null, asked });
        if (ok) {
          c.logEvent(say.redisReleased(dst, msg.key, held?.value ?? '?', src, msg.op === 'del'), 'service-released', [dst, src]);
          this.replicate(i, msg.key, null, null, held?.seq ?? 0);
        } else c.logEvent(say.redisKept(dst, msg.key, held?.value ?? null, src), 'service-release-refused', [dst, src]);
        c.send(dst, src, rpc({ op: 'reply', id: msg.id, ok }));
        return;
      }
      case 'repl': {
        if (msg.epoch < r.epoch) return;
        if (r.role === 'primary') this.demote(i, msg.epoch, src);
        r.lastHeardPrimaryMs = this.mono(i);
        if (msg.value === null) r.keys.delete(msg.key);
        else r.keys.set(msg.key, { value: msg.value, expiresAtMs: msg.expiresAtMs ?? 0, seq: msg.seq });
        return;
      }
      case 'ping': {
        if (msg.epoch < r.epoch) return;
        if (r.role === 'primary' && msg.epoch > r.epoch) this.demote(i, msg.epoch, src);
        else if (r.role === 'primary') return; // two primaries of one epoch cannot happen: only a replica promotes
        r.epoch = msg.epoch;
        r.lastHeardPrimaryMs = this.mono(i);
        if (msg.runId !== r.primaryRunId) c.send(dst, src, rpc({ op: 'sync-request', epoch: r.epoch }));
        return;
      }
      case 'sync-request':
        if (r.role === 'primary') c.send(dst, src, rpc({ op: 'sync', epoch: r.epoch, runId: r.runId, keys: r.liveKeys(wall) }));
        return;
      case 'sync': {
        if (r.role === 'primary' || msg.epoch < r.epoch) return;
        const before = [...r.keys.keys()];
        r.keys.clear();
        for (const k of msg.keys) r.keys.set(k.key, { value: k.value, expiresAtMs: k.expiresAtMs, seq: k.seq });
        r.primaryRunId = msg.runId;
        r.lastHeardPrimaryMs = this.mono(i);
        const lost = before.filter((k) => !r.keys.has(k));
        if (lost.length > 0) c.logEvent(say.redisResynced(dst, src, lost), 'key-lost', [dst, src]);
        return;
      }
      default:
        return;
    }
  }

  /** Asynchronous replication: after the primary answered, every other instance is sent the write. */
  private replicate(i: number, key: string, value: string | null, expiresAtMs: number | null, seq: number): void {
    const r = this.instances[i];
    for (let j = 0; j < this.instances.length; j++) {
      if (j === i) continue;
      this.cluster.send(r.id, this.instances[j].id, rpc({ op: 'repl', epoch: r.epoch, key, value, expiresAtMs, seq }));
    }
  }

  /** A primary learned of a newer one (Sentinel reconfigures it): it becomes a replica and resynchronises. */
  private demote(i: number, epoch: number, primary: string): void {
    const r = this.instances[i];
    r.role = 'replica';
    r.epoch = epoch;
    r.primaryRunId = -1; // whatever the primary is, copy it afresh
    r.lastHeardPrimaryMs = this.mono(i);
    this.cluster.logEvent(say.redisDemoted(r.id, primary, epoch), 'demoted', [r.id, primary]);
    this.cluster.send(r.id, primary, rpc({ op: 'sync-request', epoch }));
  }

  tick(): void {
    const c = this.cluster;
    for (let i = 0; i < this.instances.length; i++) {
      const r = this.instances[i];
      if (!this.node(i).alive) continue;
      const mono = this.mono(i);
      if (r.role === 'primary') {
        // Active expiry, by the instance's own wall clock; the replicas are sent the DEL.
        for (const [key, k] of r.expired(this.wall(i))) {
          r.keys.delete(key);
          c.logEvent(say.redisExpired(r.id, key, k.value, this.wall(i), k.expiresAtMs), 'key-expired', [r.id]);
          this.replicate(i, key, null, null, k.seq);
        }
        if (this.instances.length > 1 && mono >= r.nextPingMs) {
          r.nextPingMs = mono + PING_MS;
          for (const other of this.instances) if (other !== r) c.send(r.id, other.id, rpc({ op: 'ping', epoch: r.epoch, runId: r.runId }));
        }
      } else if (mono - r.lastHeardPrimaryMs >= FAILOVER_MS) {
        r.role = 'primary';
        r.epoch = Math.max(...this.instances.map((x) => x.epoch)) + 1;
        r.nextPingMs = mono;
        c.logEvent(say.redisFailover(r.id, this.instances.find((x) => x !== r)?.id ?? '?', r.epoch, FAILOVER_MS), 'failover', [r.id]);
      }
    }
    this.noteFrees();
  }

  /** The grants the primaries hold; one that is gone was let go by the service (expiry, restart, failover). */
  private noteFrees(): void {
    const now = this.cluster.nowMs;
    const live = new Map<number, string>();
    for (let i = 0; i < this.instances.length; i++) {
      const r = this.instances[i];
      if (r.role !== 'primary') continue;
      const wall = this.wall(i);
      for (const [key, k] of r.keys) if (wall < k.expiresAtMs) live.set(k.seq, key);
    }
    for (const [seq, key] of this.liveSeqs) if (!live.has(seq)) recordFree(this.history, 'redis', key, seq, now);
    this.liveSeqs = live;
  }

  onRestart(node: RaftNode): void {
    const r = this.instances[node.index];
    r.runId++;
    r.lastHeardPrimaryMs = this.mono(node.index);
    r.nextPingMs = 0;
    if (!this.persist && r.keys.size > 0) {
      const lost = [...r.keys.keys()].sort();
      r.keys.clear();
      this.cluster.logEvent(say.redisForgot(r.id, lost), 'key-lost', [r.id]);
    }
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
    return {
      role: r.role,
      holds: holdsText(
        live.map((k) => [k.key, k.value]),
        'no keys',
      ),
      line: `${r.id}: ${this.node(i).alive ? '' : 'down, '}${r.role} (epoch ${r.epoch}), ${keys.length > 0 ? keys.join(', ') : 'no keys'}`,
    };
  }

  stillHolds(client: string, lockKey: string | null, _token: number | null, grant: number | null): boolean {
    if (lockKey === null || grant === null) return false;
    for (let i = 0; i < this.instances.length; i++) {
      const r = this.instances[i];
      if (r.role === 'primary' && r.live(lockKey, this.wall(i))?.seq === grant) return true;
    }
    return false;
  }
}

interface RedisOp {
  readonly kind: 'acquire' | 'release';
  readonly key: string;
  readonly leaseMs: number;
  readonly value: string | null;
  readonly id: number;
  readonly firstSentAt: number;
  target: string;
  retryAt: number;
  rounds: number;
}

/** A Redis client: SET NX PX to the instance it believes is primary, the release script to end it. */
export class RedisDriver implements LockClientDriver {
  private op: RedisOp | null = null;
  private nextId = 1;
  private nextValue = 1;
  /** The value each held key was set with (the release script compares it). */
  private readonly values = new Map<string, string>();
  /** An answer decided at start (a release of a key it never set), given on the next tick. */
  private deferred: 'not-found' | null = null;

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
    private readonly plainDel: boolean,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    const now = this.cluster.nowMs;
    const value = op === 'acquire' ? `${this.seat.id}-${this.nextValue++}` : (this.values.get(key) ?? null);
    this.op = {
      kind: op,
      key,
      leaseMs,
      value,
      id: this.nextId++,
      firstSentAt: now,
      target: this.seat.believedLeader,
      retryAt: 0,
      rounds: 0,
    };
    if (op === 'release' && value === null && !this.plainDel) {
      this.deferred = 'not-found';
      return;
    }
    this.send();
  }

  private send(): void {
    const o = this.op;
    if (o === null) return;
    o.rounds++;
    o.retryAt = this.cluster.nowMs + SERVICE_RETRY_MS;
    this.seat.status = `${o.kind === 'acquire' ? 'acquiring' : 'releasing'} ${o.key} via ${o.target}`;
    const msg: ServiceRpc =
      o.kind === 'acquire'
        ? rpc({ op: 'set', id: o.id, key: o.key, value: o.value ?? '', pxMs: o.leaseMs })
        : this.plainDel
          ? rpc({ op: 'del', id: o.id, key: o.key })
          : rpc({ op: 'cad', id: o.id, key: o.key, value: o.value ?? '' });
    this.cluster.send(this.seat.id, o.target, msg);
  }

  onMessage(src: string, msg: ServiceRpc): void {
    const o = this.op;
    if (o === null || msg.service !== 'redis' || msg.op !== 'reply' || msg.id !== o.id) return;
    if (msg.readonly === true) {
      // A replica: the primary is the other one (Sentinel would say which).
      o.target = nextServer(this.cluster.config.nodeIds, src);
      this.seat.believedLeader = o.target;
      this.send();
      return;
    }
    this.seat.believedLeader = src;
    this.op = null;
    if (o.kind === 'acquire') {
      if (msg.ok) {
        this.values.set(o.key, o.value ?? '');
        this.seat.finish({
          outcome: 'granted',
          token: null,
          deadline: o.firstSentAt + o.leaseMs,
          grant: msg.seq ?? null,
          rounds: o.rounds,
        });
      } else this.seat.finish({ outcome: 'busy', token: null, deadline: null, grant: null, rounds: o.rounds });
      return;
    }
    this.values.delete(o.key);
    this.seat.finish({ outcome: msg.ok ? 'released' : 'not-found', token: null, deadline: null, grant: null, rounds: o.rounds });
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const o = this.op;
    if (o === null) return;
    if (this.deferred !== null) {
      this.deferred = null;
      this.op = null;
      this.seat.finish({ outcome: 'not-found', token: null, deadline: null, grant: null, rounds: 0 });
      return;
    }
    if (now >= o.retryAt) {
      o.target = nextServer(this.cluster.config.nodeIds, o.target);
      this.seat.believedLeader = o.target;
      this.send();
    }
  }

  crashed(): void {
    this.op = null;
    this.deferred = null;
    this.values.clear();
  }
}
