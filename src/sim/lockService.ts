/**
 * The replicated lock service of shared/seeds/000 on top of the Raft cluster, with clients and
 * the chapter's two stores. Every lock-state change is a log entry (Grant, Release, Expire)
 * applied by every node in log order after a majority commit; only the leader acts on lease
 * expiry, and only by proposing an Expire, so clock drift can never split the lock table.
 */
import type { Cluster, ClusterExtension } from './cluster';
import type { RaftNode } from './node';
import type { ApplyResult } from './lockStateMachine';
import type { ClientIntent } from './schedule';
import { Store, type StoreId } from './stores';
import type { ClientReply, ClientRequest, LockCommand, LogEntry, Message, StoreWrite } from './types';
import { lockService as say } from './describe';

/** A client that hears nothing for this long tries the next node. */
export const CLIENT_RETRY_MS = 300;

type Operation = Extract<ClientIntent, { op: 'acquire' | 'release' }>;

interface Outstanding {
  readonly intent: Operation;
  readonly requestId: number;
  /** When the client first sent this request: its lease is counted from here (conservative). */
  readonly firstSentAt: number;
  target: string;
  retryAt: number;
}

export interface ClientHolding {
  readonly token: number;
  /** The client's own view of when its lease ends, counted from when it asked. */
  readonly deadline: number;
}

export class ClientActor {
  readonly id: string;
  alive = true;
  pausedUntil = -1;
  pausedAt = -1;
  believedLeader: string;
  readonly queue: ClientIntent[] = [];
  outstanding: Outstanding | null = null;
  readonly holdings = new Map<string, ClientHolding>();
  /** The token of the most recent grant the client heard: what it stamps its writes with. */
  currentToken: number | null = null;
  currentLockKey: string | null = null;
  readonly inbox: { src: string; msg: Message }[] = [];
  nextRequestId = 1;
  /** One line of what the client is doing, for the UI. */
  status = 'idle';

  constructor(id: string, firstNode: string) {
    this.id = id;
    this.believedLeader = firstNode;
  }

  paused(now: number): boolean {
    return now < this.pausedUntil;
  }
}

interface Pending {
  readonly client: string;
  readonly requestId: number;
  readonly op: 'acquire' | 'release' | 'ghost-release';
  readonly key: string;
  /** The term of the entry it waits for: an index reused by a later leader is another entry. */
  readonly term: number;
}

export class LockService implements ClusterExtension {
  readonly cluster: Cluster;
  readonly clients = new Map<string, ClientActor>();
  readonly fenced: Store;
  readonly unfenced: Store;
  /** Per leader node: log index → the client request waiting for that entry to apply. */
  private readonly pending = new Map<string, Map<number, Pending>>();
  /** Per node: tokens whose expiry this node has already proposed (it proposes each once). */
  private readonly expiryProposed = new Map<string, Set<number>>();
  private readonly followerExpiry: boolean;

  constructor(cluster: Cluster, clientIds: readonly string[]) {
    this.cluster = cluster;
    for (const id of clientIds) this.clients.set(id, new ClientActor(id, cluster.nodes[0].id));
    this.fenced = new Store('fenced', !cluster.bugSet.has('no-fencing'));
    this.unfenced = new Store('unfenced', false);
    this.followerExpiry = cluster.bugSet.has('follower-expiry');
    cluster.extension = this;
  }

  // -- schedule verbs -----------------------------------------------------------------------

  client(id: string): ClientActor {
    const client = this.clients.get(id);
    if (!client) throw new RangeError(`There is no client ${id}; the clients are ${[...this.clients.keys()].join(', ')}.`);
    return client;
  }

  /** A client intent from the schedule. Crash, restart and pause act at once; the rest queue. */
  clientIntent(id: string, intent: ClientIntent): void {
    const c = this.client(id);
    const now = this.cluster.nowMs;
    switch (intent.op) {
      case 'crash':
        c.alive = false;
        c.queue.length = 0;
        c.outstanding = null;
        c.inbox.length = 0;
        c.holdings.clear();
        c.currentToken = null;
        c.currentLockKey = null;
        c.pausedUntil = -1;
        c.status = 'crashed';
        this.log(say.clientCrashes(id), 'client', [id]);
        return;
      case 'restart':
        c.alive = true;
        c.status = 'idle';
        this.log(say.clientRestarts(id), 'client', [id]);
        return;
      case 'pause':
        if (!c.alive) return;
        if (!c.paused(now)) c.pausedAt = now;
        c.pausedUntil = Math.max(c.pausedUntil, now + intent.ms);
        c.status = `paused until t=${c.pausedUntil} ms`;
        this.log(say.clientPauses(id, intent.ms), 'client', [id]);
        return;
      default:
        if (!c.alive) {
          this.log(say.clientIgnores(id, intent), 'client', [id]);
          return;
        }
        c.queue.push(intent);
        this.drive(c);
    }
  }

  // -- ClusterExtension ---------------------------------------------------------------------

  isActor(id: string): boolean {
    return this.clients.has(id) || id === 'fenced' || id === 'unfenced';
  }

  canReceive(id: string): boolean {
    if (id === 'fenced' || id === 'unfenced') return true;
    return this.clients.get(id)?.alive ?? false;
  }

  onMessage(dst: string, src: string, msg: Message): void {
    if (msg.type === 'ClientRequest') {
      const node = this.cluster.nodeById.get(dst);
      if (node) this.onRequest(node, src, msg);
      return;
    }
    if (msg.type === 'StoreWrite') {
      if (dst === 'fenced' || dst === 'unfenced') this.onStoreWrite(dst, src, msg);
      return;
    }
    if (msg.type === 'ClientReply') {
      const client = this.clients.get(dst);
      if (!client || !client.alive) return;
      if (client.paused(this.cluster.nowMs)) {
        client.inbox.push({ src, msg }); // a paused process does not run: the reply waits
        return;
      }
      this.onReply(client, src, msg);
    }
  }

  tick(): void {
    const now = this.cluster.nowMs;
    for (const c of this.clients.values()) {
      if (!c.alive) continue;
      if (c.pausedUntil >= 0 && now >= c.pausedUntil) this.wake(c);
      if (c.paused(now)) continue;
      if (c.outstanding && now >= c.outstanding.retryAt) this.retry(c);
    }
    for (const node of this.cluster.nodes) {
      if (!node.alive) continue;
      if (node.role === 'leader') this.leaderExpiry(node);
      else if (this.followerExpiry) this.buggyFollowerExpiry(node);
    }
  }

  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void {
    const command = entry.command;
    if (typeof command === 'string') return;
    const isLeader = node.role === 'leader' && node.alive;
    if (isLeader) this.log(say.applied(node.id, command, result), 'lock', this.subjects(node.id, command));
    const waiting = this.pending.get(node.id);
    const request = waiting?.get(index);
    if (!request || !waiting) return;
    waiting.delete(index);
    if (request.term !== entry.term) return;
    if (!isLeader) return;
    const client = this.clients.get(request.client);
    if (request.op === 'acquire' && result.type === 'Granted') {
      const gone = !client || !client.alive || !this.cluster.reachable(node.id, request.client);
      if (gone) {
        // Ghost lock: the asker cannot hear the answer, so the leader frees the key at once.
        this.log(say.ghost(node.id, request.key, request.client, result.token), 'lock', [node.id, request.client]);
        this.propose(node, { type: 'release', key: request.key }, { ...request, op: 'ghost-release' });
        return;
      }
      this.reply(node, request, 'granted', result.token);
    } else if (request.op === 'acquire') {
      this.reply(node, request, 'busy', null);
    } else if (request.op === 'release') {
      this.reply(node, request, result.type === 'Released' ? 'released' : 'not-found', null);
    }
  }

  // -- leader side --------------------------------------------------------------------------

  private onRequest(node: RaftNode, src: string, msg: ClientRequest): void {
    if (node.role !== 'leader') {
      const reply: ClientReply = {
        type: 'ClientReply', id: msg.id, op: msg.op, key: msg.key, outcome: 'not-leader', token: null, leaderHint: node.leaderId,
      };
      this.cluster.send(node.id, src, reply);
      return;
    }
    const held = node.stateMachine.locks.get(msg.key);
    const request: Pending = { client: src, requestId: msg.id, op: msg.op, key: msg.key, term: node.term };
    if (msg.op === 'acquire') {
      const waiting = this.pendingFor(node);
      for (const [index, p] of waiting) {
        if (p.key === msg.key && p.client === src && p.op === 'acquire' && index > node.lastApplied) {
          waiting.set(index, request); // a retry while the Grant is in flight: answer this one instead
          return;
        }
      }
    }
    // The leader's log holds every committed entry (Leader Completeness) but its applied state
    // may lag it, e.g. just after a restart; an entry it has not applied yet for this key could
    // change the answer, so it decides nothing about the key until that entry is applied.
    if (this.uncommittedTouches(node, msg.key)) {
      this.log(say.busy(node.id, msg.key, src, null), 'lock', [node.id, src]);
      this.reply(node, request, 'busy', null);
      return;
    }
    if (msg.op === 'acquire') {
      if (held && held.owner === src) {
        this.reply(node, request, 'granted', held.token); // a retry of a grant whose answer was lost
        return;
      }
      if (held) {
        this.log(say.busy(node.id, msg.key, src, held.owner), 'lock', [node.id, src]);
        this.reply(node, request, 'busy', null);
        return;
      }
      this.propose(node, { type: 'grant', key: msg.key, leaseMs: msg.leaseMs, owner: src }, request);
    } else {
      if (held && held.owner !== src) {
        this.reply(node, request, 'not-found', null);
        return;
      }
      this.propose(node, { type: 'release', key: msg.key }, request);
    }
  }

  /** Whether an entry not yet applied on this leader grants, releases or expires `key`. */
  private uncommittedTouches(node: RaftNode, key: string): boolean {
    for (let i = node.lastApplied; i < node.log.length; i++) {
      const c = node.log[i].command;
      if (typeof c !== 'string' && c.key === key) return true;
    }
    return false;
  }

  private pendingFor(node: RaftNode): Map<number, Pending> {
    let map = this.pending.get(node.id);
    if (!map) this.pending.set(node.id, (map = new Map()));
    return map;
  }

  private propose(node: RaftNode, command: LockCommand, request: Pending | null): void {
    const index = node.submit(command);
    if (request) this.pendingFor(node).set(index, request);
  }

  private reply(node: RaftNode, request: Pending, outcome: ClientReply['outcome'], token: number | null): void {
    if (request.op === 'ghost-release') return;
    const reply: ClientReply = {
      type: 'ClientReply', id: request.requestId, op: request.op, key: request.key, outcome, token, leaderHint: node.id,
    };
    this.cluster.send(node.id, request.client, reply);
  }

  /** Only the leader acts on expiry, by its own clock, and only by proposing an Expire (once). */
  private leaderExpiry(node: RaftNode): void {
    const locks = node.stateMachine.locks;
    if (locks.size === 0) return;
    const local = this.cluster.localNowMs(node);
    let proposed = this.expiryProposed.get(node.id);
    for (const [key, holder] of locks) {
      if (local < holder.grantedAtLocalMs + holder.leaseMs) continue;
      if (!proposed) this.expiryProposed.set(node.id, (proposed = new Set()));
      if (proposed.has(holder.token)) continue;
      proposed.add(holder.token);
      this.log(say.leaseRanOut(node.id, key, holder.token, holder.owner), 'lock', [node.id, holder.owner]);
      this.propose(node, { type: 'expire', key, token: holder.token }, null);
    }
  }

  /** Bug `follower-expiry`: a follower drops a lease by its own clock, outside the log. */
  private buggyFollowerExpiry(node: RaftNode): void {
    const locks = node.stateMachine.locks;
    if (locks.size === 0) return;
    const local = this.cluster.localNowMs(node);
    for (const [key, holder] of locks) {
      if (local >= holder.grantedAtLocalMs + holder.leaseMs) locks.delete(key);
    }
  }

  // -- clients ------------------------------------------------------------------------------

  /** Starts the client's next queued intent if it is idle, awake and alive. */
  private drive(c: ClientActor): void {
    const now = this.cluster.nowMs;
    while (c.alive && !c.paused(now) && c.outstanding === null && c.queue.length > 0) {
      const intent = c.queue.shift() as ClientIntent;
      if (intent.op === 'write') {
        this.write(c, intent.key, intent.value);
        continue;
      }
      if (intent.op === 'acquire' || intent.op === 'release') {
        const requestId = c.nextRequestId++;
        c.outstanding = { intent, requestId, firstSentAt: now, target: c.believedLeader, retryAt: now + CLIENT_RETRY_MS };
        this.sendRequest(c);
      }
    }
    if (c.alive && !c.paused(now) && c.outstanding === null) c.status = c.holdings.size > 0 ? `holds ${[...c.holdings.keys()].join(', ')}` : 'idle';
  }

  private sendRequest(c: ClientActor): void {
    const o = c.outstanding;
    if (!o) return;
    const leaseMs = o.intent.op === 'acquire' ? o.intent.leaseMs : 0;
    const request: ClientRequest = { type: 'ClientRequest', id: o.requestId, op: o.intent.op, key: o.intent.key, leaseMs };
    c.status = `${o.intent.op === 'acquire' ? 'acquiring' : 'releasing'} ${o.intent.key} via ${o.target}`;
    this.log(say.clientAsks(c.id, o.target, o.intent), 'client', [c.id, o.target]);
    this.cluster.send(c.id, o.target, request);
  }

  private retry(c: ClientActor): void {
    const o = c.outstanding;
    if (!o) return;
    const ids = this.cluster.config.nodeIds;
    const next = ids[(ids.indexOf(o.target) + 1) % ids.length];
    this.log(say.clientTimesOut(c.id, o.target, CLIENT_RETRY_MS, next), 'client', [c.id]);
    o.target = next;
    c.believedLeader = next;
    o.retryAt = this.cluster.nowMs + CLIENT_RETRY_MS;
    this.sendRequest(c);
  }

  private onReply(c: ClientActor, src: string, msg: ClientReply): void {
    const o = c.outstanding;
    if (!o || o.requestId !== msg.id) return; // an answer to a request the client gave up on
    const now = this.cluster.nowMs;
    if (msg.outcome === 'not-leader') {
      const hint = msg.leaderHint;
      const ids = this.cluster.config.nodeIds;
      const next = hint !== null && hint !== src ? hint : ids[(ids.indexOf(src) + 1) % ids.length];
      this.log(say.redirected(c.id, src, next, hint !== null), 'client', [c.id, src]);
      o.target = next;
      c.believedLeader = next;
      o.retryAt = now + CLIENT_RETRY_MS;
      this.sendRequest(c);
      return;
    }
    c.believedLeader = src;
    c.outstanding = null;
    const key = o.intent.key;
    if (msg.outcome === 'granted' && msg.token !== null) {
      const deadline = o.firstSentAt + (o.intent.op === 'acquire' ? o.intent.leaseMs : 0);
      c.holdings.set(key, { token: msg.token, deadline });
      c.currentToken = msg.token;
      c.currentLockKey = key;
      this.log(say.clientAcquired(c.id, key, msg.token, deadline), 'client', [c.id]);
    } else if (msg.outcome === 'busy') {
      this.log(o.intent.op === 'acquire' ? say.clientBusy(c.id, key) : say.clientReleaseBusy(c.id, key), 'client', [c.id]);
    } else if (msg.outcome === 'released' || msg.outcome === 'not-found') {
      c.holdings.delete(key);
      if (c.currentLockKey === key) {
        c.currentToken = null;
        c.currentLockKey = null;
      }
      this.log(say.clientReleased(c.id, key, msg.outcome === 'released'), 'client', [c.id]);
    }
    this.drive(c);
  }

  private wake(c: ClientActor): void {
    const now = this.cluster.nowMs;
    const slept = now - c.pausedAt;
    c.pausedUntil = -1;
    const holding = c.currentLockKey ? c.holdings.get(c.currentLockKey) : undefined;
    this.log(say.clientWakes(c.id, slept, c.currentLockKey, holding ? holding.deadline - now : null), 'client', [c.id]);
    // Unaware of the time that passed: replies that waited are handled, the queue carries on.
    if (c.outstanding) c.outstanding.retryAt = Math.max(c.outstanding.retryAt, now + 1);
    const inbox = c.inbox.splice(0);
    for (const { src, msg } of inbox) if (msg.type === 'ClientReply') this.onReply(c, src, msg);
    this.drive(c);
  }

  /** Every write goes to both stores at once, stamped with the client's current token. */
  private write(c: ClientActor, key: string, value: string): void {
    const token = c.currentToken;
    this.log(say.clientWrites(c.id, key, value, token), 'client', [c.id]);
    const msg: StoreWrite = { type: 'StoreWrite', key, value, token, lockKey: c.currentLockKey };
    this.cluster.send(c.id, 'fenced', msg);
    this.cluster.send(c.id, 'unfenced', msg);
  }

  private onStoreWrite(storeId: StoreId, src: string, msg: StoreWrite): void {
    const store = storeId === 'fenced' ? this.fenced : this.unfenced;
    const leaseEnded = msg.token === null || !this.tokenStillHolds(msg.lockKey, msg.token);
    const record = store.write(this.cluster.nowMs, src, msg.key, msg.value, msg.token, leaseEnded);
    this.log(say.storeWrite(storeId, record), 'store', [src]);
  }

  /** Whether `token` still holds `lockKey` in the most advanced applied lock table. */
  tokenStillHolds(lockKey: string | null, token: number): boolean {
    if (lockKey === null) return false;
    let best: RaftNode | null = null;
    for (const node of this.cluster.nodes) if (best === null || node.lastApplied > best.lastApplied) best = node;
    return best?.stateMachine.locks.get(lockKey)?.token === token;
  }

  // -- output -------------------------------------------------------------------------------

  private log(text: string, kind: 'lock' | 'client' | 'store', subjects: readonly string[]): void {
    this.cluster.logEvent(text, kind, subjects);
  }

  private subjects(nodeId: string, command: LockCommand): string[] {
    return command.type === 'grant' ? [nodeId, command.owner] : [nodeId];
  }

  report() {
    const clients: Record<string, { alive: boolean; paused: boolean; tokens: Record<string, number> }> = {};
    for (const c of this.clients.values()) {
      const tokens: Record<string, number> = {};
      for (const [key, h] of c.holdings) tokens[key] = h.token;
      clients[c.id] = { alive: c.alive, paused: c.paused(this.cluster.nowMs), tokens };
    }
    return { clients, stores: { fenced: this.fenced.report(), unfenced: this.unfenced.report() } };
  }

  summaryLines(): string[] {
    const lines: string[] = [];
    for (const store of [this.fenced, this.unfenced]) {
      const values = [...store.values].map(([k, v]) => `${k}=${v.value} (token ${v.token ?? 'none'})`).join(', ') || 'empty';
      lines.push(`[${store.id}] store: ${values}; ${store.accepted} accepted, ${store.rejected} rejected`);
    }
    const disagree = [...new Set([...this.fenced.values.keys(), ...this.unfenced.values.keys()])].filter(
      (k) => this.fenced.values.get(k)?.value !== this.unfenced.values.get(k)?.value,
    );
    if (disagree.length > 0) lines.push(`the stores disagree on ${disagree.join(', ')}: only the fenced one refused the stale write`);
    return lines;
  }
}
