/**
 * etcd's lock (etcd.io: the v3 API's leases, transactions and watches; the concurrency package's
 * Mutex) on a key space replicated through the Raft log: every write raises the one global
 * revision, and a key keeps the revision that created it. A client grants itself a lease and
 * keeps it alive; to lock it runs one transaction — if the create revision of
 * `/lock/<key>/<lease>` is 0 (absent), put it attached to the lease — and learns which key under
 * the prefix was created just before its own. None: it owns the lock, and its create revision is
 * the token. Otherwise it watches that key's deletion, from the transaction's revision (a watch
 * resumes from a revision, so it is never missed), then looks again. Only the leader keeps
 * leases' time (by its monotonic clock); a new leader renews every lease, as etcd's lessor does
 * when promoted, and revokes an expired one through the log, which deletes its keys.
 *
 * Left out (docs/semantics.md): compaction and the watch history it bounds, the lease's
 * minimum TTL (etcd refuses TTLs under its election timeout), serializable reads, the gRPC
 * proxy, and learners.
 */
import type { Cluster } from '../../net/cluster';
import type { LockBackend, LockClientDriver, LockHost, LockRow, LockSeat } from '../../net/lockPlug';
import type { History } from '../../model/history';
import { lockServices as say } from '../../model/describeLocks';
import type { RaftNode } from '../../raft/node';
import { isCoordCommand, type ApplyResult, type CoordResult, type LogEntry, type Message, type ServiceRpc } from '../../model/types';
import type { EtcdCommand, EtcdRpc, RpcBody } from '../../model/lockWire';
import { SERVICE_RETRY_MS, deferredAnswer, nextServer, recordFree } from '../common/host';
import { RaftService } from '../common/raftService';

const rpc = (body: RpcBody<EtcdRpc>): EtcdRpc => ({ type: 'ServiceRpc', service: 'etcd', ...body }) as EtcdRpc;

/** The Mutex's prefix of a lock key. */
export const lockPrefix = (key: string) => `/lock/${key}`;

export interface EtcdKey {
  readonly key: string;
  readonly prefix: string;
  readonly createRevision: number;
  readonly lease: number;
  readonly client: string;
}

/** One node's copy of the key space: keys, leases and the revision. */
export class EtcdStore {
  revision = 1;
  readonly keys = new Map<string, EtcdKey>();
  readonly leases = new Map<number, { readonly client: string; readonly ttlMs: number }>();
  nextLease = 1;

  under(prefix: string): EtcdKey[] {
    return [...this.keys.values()].filter((k) => k.prefix === prefix).sort((a, b) => a.createRevision - b.createRevision);
  }

  /** The key under `prefix` created last before revision `below`, or null. */
  before(prefix: string, below: number): { key: string; createRevision: number } | null {
    let best: EtcdKey | null = null;
    for (const k of this.keys.values())
      if (k.prefix === prefix && k.createRevision < below && (best === null || k.createRevision > best.createRevision)) best = k;
    return best === null ? null : { key: best.key, createRevision: best.createRevision };
  }

  apply(c: EtcdCommand, keepKeys: boolean): CoordResult {
    switch (c.type) {
      case 'etcd-grant': {
        const lease = this.nextLease++;
        this.leases.set(lease, { client: c.client, ttlMs: c.ttlMs });
        return { type: 'Coord', ok: true, lease };
      }
      case 'etcd-revoke': {
        if (!this.leases.delete(c.lease)) return { type: 'Coord', ok: false };
        const removed: string[] = [];
        if (!keepKeys)
          for (const k of [...this.keys.values()])
            if (k.lease === c.lease) {
              this.keys.delete(k.key);
              removed.push(k.key);
            }
        if (removed.length > 0) this.revision++;
        return { type: 'Coord', ok: true, removed: removed.sort(), revision: this.revision };
      }
      case 'etcd-txn': {
        if (!this.leases.has(c.lease)) return { type: 'Coord', ok: false, revision: this.revision };
        let mine = this.keys.get(c.key);
        if (mine === undefined) {
          this.revision++;
          mine = { key: c.key, prefix: c.prefix, createRevision: this.revision, lease: c.lease, client: c.client };
          this.keys.set(c.key, mine);
        }
        return {
          type: 'Coord',
          ok: true,
          revision: this.revision,
          createRevision: mine.createRevision,
          before: this.before(c.prefix, mine.createRevision),
        };
      }
      case 'etcd-delete': {
        if (!this.keys.delete(c.key)) return { type: 'Coord', ok: false, revision: this.revision };
        this.revision++;
        return { type: 'Coord', ok: true, removed: [c.key], revision: this.revision };
      }
      case 'etcd-range':
        return { type: 'Coord', ok: true, revision: this.revision, before: this.before(c.prefix, c.below) };
    }
  }
}

interface LeaderState {
  /** Leases' last keep-alive, by this leader's monotonic clock. */
  readonly heard: Map<number, number>;
  readonly revoking: Set<number>;
  /** Watches for a key's deletion: key → clients. */
  readonly watches: Map<string, Set<string>>;
}

const emptyLeader = (): LeaderState => ({ heard: new Map(), revoking: new Set(), watches: new Map() });

export class EtcdBackend extends RaftService<EtcdStore> implements LockBackend {
  readonly service = 'etcd' as const;
  /** Bug revoke-keeps-keys. */
  readonly keepKeys: boolean;
  private leaders: LeaderState[];
  private readonly history: History;
  /** For the history: the keys a revoke will remove that are their prefix's lowest (their lock's holder). */
  private readonly holderKeys = new Map<string, number>();

  constructor(host: LockHost) {
    super(host.cluster, () => new EtcdStore());
    this.history = host.history;
    this.keepKeys = host.cluster.bugSet.has('revoke-keeps-keys');
    this.leaders = host.cluster.nodes.map(emptyLeader);
  }

  driverFor(seat: LockSeat): LockClientDriver {
    return new EtcdDriver(seat, this.cluster);
  }

  apply(node: RaftNode, _index: number, entry: LogEntry): ApplyResult {
    const c = entry.command;
    if (!isCoordCommand(c) || !c.type.startsWith('etcd-')) return NOOP;
    return this.machineOf(node).apply(c as EtcdCommand, this.keepKeys);
  }

  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void {
    const c = entry.command;
    if (!isCoordCommand(c) || result.type !== 'Coord') return;
    const cmd = c as EtcdCommand;
    if (this.firstApply(index) && cmd.type === 'etcd-revoke')
      for (const key of result.removed ?? []) {
        const rev = this.holderKeys.get(key);
        if (rev !== undefined) recordFree(this.history, 'etcd', key.slice('/lock/'.length, key.lastIndexOf('/')), rev, this.cluster.nowMs);
      }
    if (node.role !== 'leader' || !node.alive) return;
    const l = this.leaders[node.index];
    if (cmd.type === 'etcd-grant' && result.lease !== undefined) l.heard.set(result.lease, this.cluster.localNowMs(node));
    if (cmd.type === 'etcd-revoke') {
      l.heard.delete(cmd.lease);
      if (result.ok) this.cluster.logEvent(say.etcdRevoked(node.id, cmd.lease, result.removed ?? []), 'lease-revoked', [node.id]);
    }
    if (cmd.type === 'etcd-txn' && result.ok && result.createRevision === result.revision)
      this.cluster.logEvent(say.etcdPut(node.id, cmd.key, cmd.client, result.createRevision ?? 0), 'service-granted', [
        node.id,
        cmd.client,
      ]);
    if (cmd.type === 'etcd-delete' && result.ok)
      this.cluster.logEvent(say.etcdDeleted(node.id, cmd.key, cmd.client), 'service-released', [node.id, cmd.client]);
    for (const key of result.removed ?? []) this.fire(node, key, result.revision ?? 0);
    const answer = this.answerApplied(node, index, entry, result) as { client: string; msg: EtcdRpc } | null;
    if (answer !== null) this.cluster.send(node.id, answer.client, answer.msg);
  }

  private fire(node: RaftNode, key: string, revision: number): void {
    const l = this.leaders[node.index];
    const watchers = l.watches.get(key);
    if (watchers === undefined) return;
    l.watches.delete(key);
    for (const client of watchers) {
      this.cluster.logEvent(say.etcdWatchFired(node.id, client, key, revision), 'watch-fired', [node.id, client]);
      this.cluster.send(node.id, client, rpc({ op: 'event', key, revision }));
    }
  }

  onServerMessage(dst: string, src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'etcd') return;
    const node = this.cluster.nodeById.get(dst);
    if (node === undefined || msg.op === 'reply' || msg.op === 'event') return;
    if (!this.serves(node)) {
      this.cluster.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: false, notLeader: true, hint: this.hint(node) }));
      return;
    }
    const store = this.machineOf(node);
    const l = this.leaders[node.index];
    const reply = (body: Omit<Extract<EtcdRpc, { op: 'reply' }>, 'type' | 'service' | 'op' | 'id'>) =>
      rpc({ op: 'reply', id: msg.id, ...body });
    const waiting = (build: (r: CoordResult) => EtcdRpc | null) => ({
      client: src,
      term: node.term,
      reply: (_n: RaftNode, r: ApplyResult) => {
        const m = r.type === 'Coord' ? build(r) : null;
        return m === null ? null : { client: src, msg: m };
      },
    });
    switch (msg.op) {
      case 'lease-grant':
        this.propose(
          node,
          { type: 'etcd-grant', client: src, ttlMs: msg.ttlMs, requestId: msg.id },
          waiting((r) => reply({ ok: true, lease: r.lease, ttlMs: msg.ttlMs })),
        );
        return;
      case 'keepalive': {
        const lease = store.leases.get(msg.lease);
        if (lease === undefined || l.revoking.has(msg.lease)) return this.cluster.send(dst, src, reply({ ok: false, leaseGone: true }));
        l.heard.set(msg.lease, this.cluster.localNowMs(node));
        this.cluster.send(dst, src, reply({ ok: true, lease: msg.lease, ttlMs: lease.ttlMs }));
        return;
      }
      case 'txn-lock':
        this.propose(
          node,
          { type: 'etcd-txn', prefix: msg.prefix, key: msg.key, lease: msg.lease, client: src, requestId: msg.id },
          waiting((r) =>
            r.ok
              ? reply({ ok: true, revision: r.revision, createRevision: r.createRevision, before: r.before ?? null })
              : reply({ ok: false, leaseGone: true }),
          ),
        );
        return;
      case 'range-before':
        this.propose(
          node,
          { type: 'etcd-range', prefix: msg.prefix, below: msg.below, client: src, requestId: msg.id },
          waiting((r) => reply({ ok: true, revision: r.revision, before: r.before ?? null })),
        );
        return;
      case 'delete':
        this.propose(
          node,
          { type: 'etcd-delete', key: msg.key, client: src, requestId: msg.id },
          waiting((r) => reply({ ok: r.ok })),
        );
        return;
      case 'watch-delete': {
        // A watch from a revision: a deletion since then (the key is gone) is told at once.
        if (!store.keys.has(msg.key)) {
          this.cluster.send(dst, src, rpc({ op: 'event', key: msg.key, revision: store.revision }));
          return;
        }
        let set = l.watches.get(msg.key);
        if (set === undefined) l.watches.set(msg.key, (set = new Set()));
        set.add(src);
        return;
      }
    }
  }

  tick(): void {
    for (const node of this.newLeaders()) {
      const l = (this.leaders[node.index] = emptyLeader());
      const now = this.cluster.localNowMs(node);
      for (const id of this.machineOf(node).leases.keys()) l.heard.set(id, now);
    }
    for (const node of this.cluster.nodes) {
      if (!this.serves(node)) continue;
      const store = this.machineOf(node);
      const l = this.leaders[node.index];
      const now = this.cluster.localNowMs(node);
      for (const [id, lease] of store.leases) {
        if (l.revoking.has(id)) continue;
        if (now - (l.heard.get(id) ?? now) < lease.ttlMs) continue;
        l.revoking.add(id);
        const applied = this.machineOf(this.mostApplied());
        for (const k of applied.keys.values())
          if (k.lease === id && applied.under(k.prefix)[0]?.key === k.key) this.holderKeys.set(k.key, k.createRevision);
        this.cluster.logEvent(say.etcdExpiring(node.id, lease.client, id, lease.ttlMs), 'lease-revoked', [node.id, lease.client]);
        this.propose(node, { type: 'etcd-revoke', lease: id, reason: 'expired' }, null);
      }
    }
  }

  onRestart(node: RaftNode): void {
    this.restartMachine(node);
    this.leaders[node.index] = emptyLeader();
  }

  /** The leader's key space (else the copy that applied most): each lock's keys by create revision. */
  lockRows(): LockRow[] {
    const store = this.machineOf(this.cluster.leader() ?? this.mostApplied());
    const prefixes = [...new Set([...store.keys.values()].map((k) => k.prefix))].sort();
    return prefixes.flatMap((prefix) =>
      store.under(prefix).map((k, i, all): LockRow => ({
        key: prefix.replace(/^\/lock\//, '').replace(/\/$/, ''),
        server: null,
        client: k.client,
        state: i === 0 ? 'holds' : 'waits',
        token: `revision ${k.createRevision}`,
        note: i === 0 ? `${k.key}, lease ${k.lease}, the lowest create revision` : `${k.key}, lease ${k.lease}, watches ${all[i - 1].key}`,
      })),
    );
  }

  summaryLines(): string[] {
    const store = this.machineOf(this.mostApplied());
    const keys = [...store.keys.values()].map((k) => `${k.key} (${k.client}, create revision ${k.createRevision}, lease ${k.lease})`);
    return [
      `revision ${store.revision}; keys: ${keys.length > 0 ? keys.join(', ') : 'none'}; leases: ${[...store.leases].map(([id, l]) => `${id} (${l.client})`).join(', ') || 'none'}`,
    ];
  }

  stillHolds(client: string, lockKey: string | null, token: number | null): boolean {
    if (lockKey === null || token === null) return false;
    const owner = this.machineOf(this.mostApplied()).under(lockPrefix(lockKey))[0];
    return owner !== undefined && owner.createRevision === token && owner.client === client;
  }
}

const NOOP: ApplyResult = Object.freeze({ type: 'Noop' });

type Phase = 'grant' | 'txn' | 'watch' | 'range' | 'delete';

interface EtcdOp {
  readonly kind: 'acquire' | 'release';
  readonly key: string;
  readonly leaseMs: number;
  readonly firstSentAt: number;
  phase: Phase;
  id: number;
  retryAt: number;
  rounds: number;
  /** While watching: the key waited for and the revision the watch starts from. */
  watching: { readonly key: string; readonly from: number } | null;
  /** Its own key's create revision, once the transaction answered. */
  mine: number;
  /** When the request now outstanding was sent. */
  sentAt: number;
}

/** An etcd client: one lease kept alive, the Mutex on top. */
export class EtcdDriver implements LockClientDriver {
  private op: EtcdOp | null = null;
  private nextId = 1;
  private lease: { readonly id: number; readonly ttlMs: number } | null = null;
  private aliveSince = 0;
  private nextKeepAliveMs = 0;
  private readonly keepAlives = new Map<number, number>();
  /** Its key under each lock's prefix (held or waiting). */
  private readonly keys = new Map<string, { readonly key: string; readonly createRevision: number }>();
  private deferred: 'granted' | 'not-found' | null = null;

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    this.op = {
      kind: op,
      key,
      leaseMs,
      firstSentAt: this.cluster.nowMs,
      phase: 'grant',
      id: 0,
      retryAt: Infinity,
      rounds: 0,
      watching: null,
      mine: 0,
      sentAt: this.cluster.nowMs,
    };
    this.deferred = null;
    if (op === 'acquire' && this.seat.holdings.has(key)) this.deferred = 'granted';
    else if (op === 'release' && !this.keys.has(key)) this.deferred = 'not-found';
    else this.next();
  }

  private myKey(key: string): string {
    return `${lockPrefix(key)}/${this.lease?.id ?? 0}`;
  }

  private next(): void {
    const o = this.op;
    if (o === null) return;
    if (o.kind === 'release') {
      const mine = this.keys.get(o.key);
      if (mine === undefined) return this.done('not-found');
      return this.request('delete', rpc({ op: 'delete', id: 0, key: mine.key }));
    }
    if (this.lease === null) return this.request('grant', rpc({ op: 'lease-grant', id: 0, ttlMs: o.leaseMs > 0 ? o.leaseMs : 10_000 }));
    if (o.watching !== null)
      return this.request('watch', rpc({ op: 'watch-delete', id: 0, key: o.watching.key, fromRevision: o.watching.from }));
    if (o.mine > 0) return this.request('range', rpc({ op: 'range-before', id: 0, prefix: lockPrefix(o.key), below: o.mine }));
    this.request('txn', rpc({ op: 'txn-lock', id: 0, prefix: lockPrefix(o.key), key: this.myKey(o.key), lease: this.lease.id }));
  }

  private request(phase: Phase, msg: EtcdRpc): void {
    const o = this.op;
    if (o === null) return;
    o.phase = phase;
    o.id = this.nextId++;
    o.sentAt = this.cluster.nowMs;
    // A watch has no answer but its event: it is waited for without a retry.
    o.retryAt = phase === 'watch' ? Infinity : this.cluster.nowMs + SERVICE_RETRY_MS;
    o.rounds++;
    this.seat.status =
      phase === 'watch' ? `waits for ${o.watching?.key ?? '?'} to go` : `${phase} ${o.key} via ${this.seat.believedLeader}`;
    this.cluster.send(this.seat.id, this.seat.believedLeader, { ...msg, id: o.id } as EtcdRpc);
  }

  onMessage(src: string, msg: ServiceRpc): void {
    if (msg.service !== 'etcd') return;
    const o = this.op;
    if (msg.op === 'event') {
      if (o === null || o.phase !== 'watch' || o.watching?.key !== msg.key) return;
      o.watching = null;
      return this.next();
    }
    if (msg.op !== 'reply') return;
    const keptAt = this.keepAlives.get(msg.id);
    if (keptAt !== undefined) {
      this.keepAlives.delete(msg.id);
      if (msg.leaseGone === true) return this.leaseLost();
      if (msg.notLeader === true) return this.moveTo(msg.hint ?? nextServer(this.cluster.config.nodeIds, src));
      if (msg.ok) this.renewed(keptAt);
      return;
    }
    if (o === null || msg.id !== o.id) return;
    if (msg.notLeader === true) {
      this.seat.believedLeader = msg.hint ?? nextServer(this.cluster.config.nodeIds, src);
      return this.next();
    }
    if (msg.leaseGone === true) return this.leaseLost();
    this.seat.believedLeader = src;
    switch (o.phase) {
      case 'grant':
        this.lease = { id: msg.lease ?? 0, ttlMs: msg.ttlMs ?? o.leaseMs };
        // The client counts the lease from when it asked for it: this grant's request, not the
        // acquire's start (after a lost lease, an acquire that started a TTL ago would count its
        // new lease as spent at once, and ask again, and again).
        this.aliveSince = o.sentAt;
        this.nextKeepAliveMs = this.cluster.nowMs + this.lease.ttlMs / 3;
        return this.next();
      case 'txn':
        o.mine = msg.createRevision ?? 0;
        this.keys.set(o.key, { key: this.myKey(o.key), createRevision: o.mine });
        return this.decide(msg.before ?? null, msg.revision ?? 0);
      case 'range':
        return this.decide(msg.before ?? null, msg.revision ?? 0);
      case 'delete':
        this.keys.delete(o.key);
        return this.done(msg.ok ? 'released' : 'not-found');
      default:
        return;
    }
  }

  /** None created before its own: it owns the lock. Else it watches the one just before. */
  private decide(before: { readonly key: string; readonly createRevision: number } | null, revision: number): void {
    const o = this.op;
    if (o === null) return;
    if (before === null) {
      this.op = null;
      const deadline = this.aliveSince + (this.lease?.ttlMs ?? o.leaseMs);
      this.seat.finish({ outcome: 'granted', token: o.mine, deadline, grant: null, rounds: o.rounds });
      return;
    }
    o.watching = { key: before.key, from: revision };
    this.next();
  }

  private done(outcome: 'released' | 'not-found' | 'busy'): void {
    const o = this.op;
    this.op = null;
    this.seat.finish({ outcome, token: null, deadline: null, grant: null, rounds: o?.rounds ?? 0 });
  }

  private renewed(sentAt: number): void {
    const l = this.lease;
    if (l === null || sentAt <= this.aliveSince) return;
    this.aliveSince = sentAt;
    for (const key of this.keys.keys()) this.seat.extend(key, sentAt + l.ttlMs);
  }

  private leaseLost(): void {
    this.lease = null;
    this.keepAlives.clear();
    for (const key of [...this.seat.holdings.keys()]) this.seat.lose(key, 'lease-gone');
    this.keys.clear();
    // A re-entrant grant not yet delivered is void: the lock went with the lease.
    this.deferred = null;
    const o = this.op;
    if (o === null) return;
    if (o.kind === 'release') return this.done('not-found');
    o.watching = null;
    o.mine = 0;
    this.next();
  }

  /** Another server: a waiter's watch lived on the old one, so it is set again here (from the same revision). */
  private moveTo(server: string): void {
    this.seat.believedLeader = server;
    this.keepAlives.clear();
    const o = this.op;
    if (o !== null && o.phase === 'watch') this.next();
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const l = this.lease;
    if (l !== null) {
      if (now >= this.aliveSince + l.ttlMs) return this.leaseLost();
      for (const sent of this.keepAlives.values())
        if (now - sent >= SERVICE_RETRY_MS) return this.moveTo(nextServer(this.cluster.config.nodeIds, this.seat.believedLeader));
      if (now >= this.nextKeepAliveMs) {
        this.nextKeepAliveMs = now + l.ttlMs / 3;
        const id = this.nextId++;
        this.keepAlives.set(id, now);
        this.cluster.send(this.seat.id, this.seat.believedLeader, rpc({ op: 'keepalive', id, lease: l.id }));
      }
    }
    const o = this.op;
    if (o === null) return;
    if (this.deferred !== null) {
      const answer = deferredAnswer(this.seat, o.key, this.deferred);
      this.deferred = null;
      if (answer === null) return this.next();
      this.op = null;
      return this.seat.finish(answer);
    }
    if (now >= o.retryAt) {
      this.seat.believedLeader = nextServer(this.cluster.config.nodeIds, this.seat.believedLeader);
      this.next();
    }
  }

  crashed(): void {
    this.lease = null;
    this.op = null;
    this.keepAlives.clear();
    this.keys.clear();
    this.deferred = null;
  }
}
