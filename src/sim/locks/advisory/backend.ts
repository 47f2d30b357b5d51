/**
 * A PostgreSQL-style session advisory lock (postgresql.org/docs, "Explicit Locking", Advisory
 * Locks; pg_try_advisory_lock): db1 is the primary; a client opens a session (a connection) and
 * takes a lock that lives as long as the session does, or until it unlocks. In the same
 * transaction it bumps a row version, `UPDATE lock_versions SET v = v + 1 RETURNING v`, which is
 * its token: replicated data, unlike the lock. The server's TCP keep-alive probes the connection
 * and ends the session (freeing its locks) when probes go unanswered for the connection's
 * timeout; the client's kernel answers probes even while the process is paused, so a paused
 * holder keeps its lock. A dying client's kernel closes the connection at once (FIN).
 *
 * With two servers, db2 is an asynchronous streaming replica (the WAL carries the row versions,
 * not the locks) that promotes itself when db1 has been silent for FAILOVER_MS (a failover
 * manager's decision, folded into db2): the new primary holds no advisory lock at all. A primary
 * that learns of a newer timeline becomes a replica and drops its sessions (pg_rewind). The old
 * primary is not fenced off: cut off but alive, it keeps serving its clients (split brain).
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
import { lockServices as say } from '../../model/describeLocks';
import type { RaftNode } from '../../raft/node';
import type { Message, ServiceRpc } from '../../model/types';
import type { PgRpc, RpcBody } from '../../model/lockWire';
import { SERVICE_RETRY_MS, nextServer, recordFree } from '../common/host';

/** How often a primary streams a WAL heartbeat to its replica. */
export const WAL_PING_MS = 200;
/** The replica promotes itself after this long without WAL from the primary. */
export const FAILOVER_MS = 1500;
/** Probes per keep-alive timeout (tcp_keepalives_interval = timeout / PROBES). */
const PROBES = 4;

const rpc = (body: RpcBody<PgRpc>): PgRpc => ({ type: 'ServiceRpc', service: 'pg', ...body }) as PgRpc;

interface PgSession {
  readonly id: number;
  readonly client: string;
  readonly timeoutMs: number;
  /** By the server's monotonic clock: the last probe answered (or the connect), and the next probe. */
  lastAckMs: number;
  nextProbeMs: number;
}

export class PgServer {
  role: 'primary' | 'replica';
  timeline = 1;
  readonly sessions = new Map<number, PgSession>();
  /** Advisory lock key → the session holding it. */
  readonly locks = new Map<string, number>();
  /** The replicated table lock_versions: key → v. */
  readonly versions = new Map<string, number>();
  /** Key → the version its holder took (its token). */
  readonly tokens = new Map<string, number>();
  lastHeardPrimaryMs = 0;
  nextWalMs = 0;

  constructor(
    readonly id: string,
    role: 'primary' | 'replica',
  ) {
    this.role = role;
  }
}

export class AdvisoryBackend implements LockBackend {
  readonly service = 'advisory' as const;
  readonly servers: PgServer[];
  private nextSession = 1;
  /** Unlocks, in order, and whom they freed (for the holder check). */
  readonly unlocks: {
    readonly t: number;
    readonly server: string;
    readonly key: string;
    readonly session: number;
    readonly holder: number | null;
  }[] = [];
  /** Bug unlock-any-session. */
  readonly unlockAny: boolean;
  private readonly cluster: Cluster;
  private readonly history: History;

  constructor(host: LockHost) {
    this.cluster = host.cluster;
    this.history = host.history;
    this.unlockAny = host.cluster.bugSet.has('unlock-any-session');
    this.servers = host.cluster.nodes.map((n, i) => new PgServer(n.id, i === 0 ? 'primary' : 'replica'));
  }

  driverFor(seat: LockSeat): LockClientDriver {
    return new AdvisoryDriver(seat, this.cluster);
  }

  private mono(i: number): number {
    return this.cluster.localNowMs(this.cluster.nodes[i]);
  }

  onServerMessage(dst: string, src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'pg') return;
    const i = this.cluster.nodeById.get(dst)?.index ?? -1;
    if (i < 0) return;
    const s = this.servers[i];
    const c = this.cluster;
    const reply = (body: Omit<Extract<PgRpc, { op: 'reply' }>, 'type' | 'service' | 'op'>) =>
      c.send(dst, src, rpc({ op: 'reply', ...body }));
    switch (msg.op) {
      case 'connect': {
        if (s.role === 'replica') return reply({ id: msg.id, ok: false, readOnly: true });
        const id = this.nextSession++;
        const now = this.mono(i);
        s.sessions.set(id, { id, client: src, timeoutMs: msg.timeoutMs, lastAckMs: now, nextProbeMs: now + msg.timeoutMs / PROBES });
        return reply({ id: msg.id, ok: true, session: id });
      }
      case 'try-lock': {
        const session = s.sessions.get(msg.session);
        if (session === undefined) return reply({ id: msg.id, ok: false, noSession: true });
        const holder = s.locks.get(msg.key);
        if (holder !== undefined && holder !== msg.session) {
          c.logEvent(say.pgBusy(dst, msg.key, src, s.sessions.get(holder)?.client ?? '?'), 'service-busy', [dst, src]);
          return reply({ id: msg.id, ok: false });
        }
        // pg_try_advisory_lock, then the row version in the same transaction (re-entrant for its holder).
        const version = (s.versions.get(msg.key) ?? 0) + 1;
        s.versions.set(msg.key, version);
        s.locks.set(msg.key, msg.session);
        s.tokens.set(msg.key, version);
        c.logEvent(say.pgLocked(dst, msg.key, src, msg.session, version), 'service-granted', [dst, src]);
        this.stream(i, msg.key, version);
        return reply({ id: msg.id, ok: true, version });
      }
      case 'unlock': {
        const session = s.sessions.get(msg.session);
        if (session === undefined) return reply({ id: msg.id, ok: false, noSession: true });
        const holder = s.locks.get(msg.key) ?? null;
        const frees = holder !== null && (holder === msg.session || this.unlockAny);
        this.unlocks.push({ t: c.nowMs, server: dst, key: msg.key, session: msg.session, holder: frees ? holder : null });
        if (frees) {
          s.locks.delete(msg.key);
          s.tokens.delete(msg.key);
          c.logEvent(say.pgUnlocked(dst, msg.key, src), 'service-released', [dst, src]);
        } else c.logEvent(say.pgNotHeld(dst, msg.key, src), 'service-release-refused', [dst, src]);
        return reply({ id: msg.id, ok: frees });
      }
      case 'probe-ack': {
        const session = s.sessions.get(msg.session);
        if (session !== undefined) session.lastAckMs = this.mono(i);
        return;
      }
      case 'close':
        this.endSession(i, msg.session, 'closed');
        return;
      case 'wal': {
        if (msg.timeline < s.timeline) return;
        if (s.role === 'primary') {
          if (msg.timeline === s.timeline) return;
          this.demote(i, msg.timeline, src);
        }
        s.timeline = msg.timeline;
        s.lastHeardPrimaryMs = this.mono(i);
        if (msg.key !== null) s.versions.set(msg.key, msg.version);
        return;
      }
      default:
        return;
    }
  }

  /** Streaming replication: the row version goes to the replica after the transaction committed (asynchronous). */
  private stream(i: number, key: string | null, version: number): void {
    const s = this.servers[i];
    for (const other of this.servers)
      if (other !== s) this.cluster.send(s.id, other.id, rpc({ op: 'wal', timeline: s.timeline, key, version }));
  }

  private endSession(i: number, id: number, why: 'closed' | 'timed-out' | 'crashed'): void {
    const s = this.servers[i];
    const session = s.sessions.get(id);
    if (session === undefined) return;
    s.sessions.delete(id);
    const freed: string[] = [];
    for (const [key, holder] of s.locks) {
      if (holder !== id) continue;
      freed.push(key);
      recordFree(this.history, s.id, key, s.tokens.get(key) ?? 0, this.cluster.nowMs);
      s.locks.delete(key);
      s.tokens.delete(key);
    }
    if (why !== 'crashed')
      this.cluster.logEvent(say.pgSessionEnded(s.id, session.client, id, why, freed, session.timeoutMs), 'connection-lost', [
        s.id,
        session.client,
      ]);
  }

  private demote(i: number, timeline: number, primary: string): void {
    const s = this.servers[i];
    for (const id of [...s.sessions.keys()]) this.endSession(i, id, 'closed');
    s.role = 'replica';
    s.timeline = timeline;
    this.cluster.logEvent(say.pgDemoted(s.id, primary, timeline), 'demoted', [s.id, primary]);
  }

  tick(): void {
    const c = this.cluster;
    for (let i = 0; i < this.servers.length; i++) {
      const s = this.servers[i];
      if (!c.nodes[i].alive) continue;
      const mono = this.mono(i);
      if (s.role === 'primary') {
        for (const session of [...s.sessions.values()]) {
          if (mono - session.lastAckMs >= session.timeoutMs) {
            this.endSession(i, session.id, 'timed-out');
            continue;
          }
          if (mono >= session.nextProbeMs) {
            session.nextProbeMs = mono + session.timeoutMs / PROBES;
            c.send(s.id, session.client, rpc({ op: 'probe', session: session.id }));
          }
        }
        if (this.servers.length > 1 && mono >= s.nextWalMs) {
          s.nextWalMs = mono + WAL_PING_MS;
          this.stream(i, null, 0);
        }
      } else if (mono - s.lastHeardPrimaryMs >= FAILOVER_MS) {
        s.role = 'primary';
        s.timeline = Math.max(...this.servers.map((x) => x.timeline)) + 1;
        s.nextWalMs = mono;
        // Advisory locks are not replicated: whatever the old primary held, the new one does not.
        const old = this.servers.find((x) => x !== s);
        const freed = old === undefined ? [] : [...old.locks.keys()].sort();
        if (old !== undefined) for (const [key] of old.locks) recordFree(this.history, s.id, key, old.tokens.get(key) ?? 0, c.nowMs);
        c.logEvent(say.pgFailover(s.id, old?.id ?? '?', s.timeline, FAILOVER_MS, freed), 'failover', [s.id]);
      }
    }
  }

  /** A restarted server lost every connection, so every session and advisory lock (the versions are durable). */
  onRestart(node: RaftNode): void {
    const s = this.servers[node.index];
    const freed = [...s.locks.keys()].sort();
    const sessions = s.sessions.size;
    for (const id of [...s.sessions.keys()]) this.endSession(node.index, id, 'crashed');
    if (sessions > 0) this.cluster.logEvent(say.pgRestarted(s.id, sessions, freed), 'key-lost', [s.id]);
    s.lastHeardPrimaryMs = this.mono(node.index);
    s.nextWalMs = 0;
    for (const session of s.sessions.values()) session.nextProbeMs = 0;
  }

  summaryLines(): string[] {
    return this.servers.map((_, i) => this.serverFacts(i).line);
  }

  /** Each server's advisory locks: held by a session, for as long as its connection lives. */
  lockRows(): LockRow[] {
    return this.servers.flatMap((s) =>
      [...s.locks].map(([key, session]): LockRow => ({
        key,
        server: s.id,
        client: s.sessions.get(session)?.client ?? '?',
        state: 'holds',
        token: `version ${s.tokens.get(key) ?? '?'}`,
        note: `session ${session} on the ${s.role}`,
      })),
    );
  }

  serverFacts(i: number): ServerFacts {
    const s = this.servers[i];
    const held = [...s.locks].map(([key, session]) => [key, s.sessions.get(session)?.client ?? '?'] as const);
    const locks = held.map(([key, client]) => `${key} by ${client} (version ${s.tokens.get(key) ?? '?'})`);
    return {
      role: s.role,
      holds: holdsText(held, 'no locks'),
      line: `${s.id}: ${this.cluster.nodes[i].alive ? '' : 'down, '}${s.role} (timeline ${s.timeline}), ${s.sessions.size} session(s), ${locks.length > 0 ? `locks ${locks.join(', ')}` : 'no advisory lock'}`,
    };
  }

  stillHolds(client: string, lockKey: string | null, token: number | null): boolean {
    if (lockKey === null || token === null) return false;
    return this.servers.some(
      (s) => s.role === 'primary' && s.tokens.get(lockKey) === token && s.sessions.get(s.locks.get(lockKey) ?? -1)?.client === client,
    );
  }
}

interface PgOp {
  readonly kind: 'acquire' | 'release';
  readonly key: string;
  readonly leaseMs: number;
  /** The id of the request last sent (a fresh one per attempt). */
  id: number;
  readonly firstSentAt: number;
  /** When the request now outstanding was sent. */
  sentAt: number;
  /** Waiting for: the connection, then the lock call. */
  phase: 'connect' | 'call';
  retryAt: number;
  rounds: number;
}

/** A database client: one connection (a session), pg_try_advisory_lock on it, its kernel answering keep-alives. */
export class AdvisoryDriver implements LockClientDriver {
  private op: PgOp | null = null;
  private nextId = 1;
  private session: { readonly id: number; readonly server: string; readonly timeoutMs: number; lastProbeMs: number } | null = null;
  private deferredNotFound = false;

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    this.op = {
      kind: op,
      key,
      leaseMs,
      id: this.nextId++,
      firstSentAt: this.cluster.nowMs,
      sentAt: this.cluster.nowMs,
      phase: 'call',
      retryAt: 0,
      rounds: 0,
    };
    if (op === 'release' && this.session === null) {
      this.deferredNotFound = true;
      return;
    }
    this.step();
  }

  /** Connect first if there is no session, then make the call. */
  private step(): void {
    const o = this.op;
    if (o === null) return;
    o.rounds++;
    o.retryAt = this.cluster.nowMs + SERVICE_RETRY_MS;
    // Each request its own id: a late answer to an earlier attempt (a connect answered after the
    // retry's) must not be taken for the answer to this one, as a reply on a fresh connection never is.
    o.id = this.nextId++;
    o.sentAt = this.cluster.nowMs;
    const server = this.session?.server ?? this.seat.believedLeader;
    if (this.session === null) {
      o.phase = 'connect';
      this.seat.status = `connecting to ${server}`;
      this.cluster.send(this.seat.id, server, rpc({ op: 'connect', id: o.id, timeoutMs: o.leaseMs > 0 ? o.leaseMs : 10_000 }));
      return;
    }
    o.phase = 'call';
    this.seat.status = `${o.kind === 'acquire' ? 'locking' : 'unlocking'} ${o.key} on ${server}`;
    const body = { id: o.id, session: this.session.id, key: o.key };
    this.cluster.send(this.seat.id, server, o.kind === 'acquire' ? rpc({ op: 'try-lock', ...body }) : rpc({ op: 'unlock', ...body }));
  }

  kernel(src: string, msg: ServiceRpc): boolean {
    if (msg.service !== 'pg' || msg.op !== 'probe') return false;
    const s = this.session;
    if (s !== null && s.id === msg.session && s.server === src) {
      const now = this.cluster.nowMs;
      s.lastProbeMs = now;
      this.cluster.send(this.seat.id, src, rpc({ op: 'probe-ack', session: msg.session }));
      // The connection lives: every lock on it does, by the client's own count, for another timeout.
      for (const key of this.seat.holdings.keys()) this.seat.extend(key, now + s.timeoutMs);
    }
    return true;
  }

  onMessage(src: string, msg: ServiceRpc): void {
    const o = this.op;
    if (o === null || msg.service !== 'pg' || msg.op !== 'reply' || msg.id !== o.id) return;
    if (msg.readOnly === true) {
      this.seat.believedLeader = nextServer(this.cluster.config.nodeIds, src);
      this.dropSession();
      this.step();
      return;
    }
    if (msg.noSession === true) {
      this.dropSession();
      if (o.kind === 'release') return this.done({ outcome: 'not-found', token: null, deadline: null, grant: null, rounds: o.rounds });
      this.step();
      return;
    }
    if (o.phase === 'connect') {
      this.session = { id: msg.session ?? 0, server: src, timeoutMs: o.leaseMs > 0 ? o.leaseMs : 10_000, lastProbeMs: o.sentAt };
      this.seat.believedLeader = src;
      this.step();
      return;
    }
    if (o.kind === 'acquire') {
      if (msg.ok) {
        // The lock lasts while the connection does: by the client's count, a timeout past the last sign of it.
        const s = this.session;
        const deadline = (s === null ? o.firstSentAt : Math.max(o.firstSentAt, s.lastProbeMs)) + (s?.timeoutMs ?? o.leaseMs);
        return this.done({ outcome: 'granted', token: msg.version ?? null, deadline, grant: null, rounds: o.rounds });
      }
      return this.done({ outcome: 'busy', token: null, deadline: null, grant: null, rounds: o.rounds });
    }
    this.done({ outcome: msg.ok ? 'released' : 'not-holder', token: null, deadline: null, grant: null, rounds: o.rounds });
  }

  private done(result: Parameters<LockSeat['finish']>[0]): void {
    this.op = null;
    this.seat.finish(result);
  }

  private dropSession(): void {
    this.session = null;
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const s = this.session;
    // The kernel has heard nothing on the connection for its timeout: it is dead, and every lock on it.
    if (s !== null && now - s.lastProbeMs >= s.timeoutMs) {
      this.session = null;
      for (const key of [...this.seat.holdings.keys()]) this.seat.lose(key, 'connection-lost');
    }
    const o = this.op;
    if (o === null) return;
    if (this.deferredNotFound) {
      this.deferredNotFound = false;
      return this.done({ outcome: 'not-found', token: null, deadline: null, grant: null, rounds: 0 });
    }
    if (now >= o.retryAt) {
      // No answer: the connection is taken for broken; look for the primary again.
      const from = this.session?.server ?? this.seat.believedLeader;
      this.seat.believedLeader = nextServer(this.cluster.config.nodeIds, from);
      this.session = null;
      for (const key of [...this.seat.holdings.keys()]) this.seat.lose(key, 'connection-lost');
      if (o.kind === 'release') return this.done({ outcome: 'not-found', token: null, deadline: null, grant: null, rounds: o.rounds });
      this.step();
    }
  }

  crashed(): void {
    // The kernel closes the dead process's connection: a FIN reaches the server.
    if (this.session !== null) this.cluster.send(this.seat.id, this.session.server, rpc({ op: 'close', session: this.session.id }));
    this.session = null;
    this.op = null;
    this.deferredNotFound = false;
  }
}
