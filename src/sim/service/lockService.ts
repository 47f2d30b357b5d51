/**
 * The replicated lock service of shared/seeds/000 on top of the Raft cluster, with clients and
 * the chapter's two stores. Every lock-state change is a log entry (Grant, Release, Expire)
 * applied by every node in log order after a majority commit; only the leader acts on lease
 * expiry, and only by proposing an Expire, so clock drift can never split the lock table.
 */
import { ClientActor } from './clientActor';
import type { Cluster, ClusterExtension } from '../net/cluster';
import { lockService as say } from '../model/describe';
import type { EventKind } from '../model/events';
import { History, type HistoryOp } from '../model/history';
import { LockStateMachine, type ApplyOptions } from './lockStateMachine';
import type { RaftNode } from '../raft/node';
import type { ClientIntent } from '../model/schedule';
import { KvReads } from './reads';
import { Store, type StoreId } from './stores';
import { HoldTracker } from './holds';
import type { LockBackend, LockBackendFactory } from '../net/lockPlug';
import {
  isKvCommand,
  isLockCommand,
  type ApplyResult,
  type ClientReply,
  type ClientRequest,
  type LockCommand,
  type LogEntry,
  type Message,
  type SnapshotState,
  type StoreWrite,
} from '../model/types';

export { CLIENT_RETRY_MS, ClientActor, type ClientHolding } from './clientActor';

interface Pending {
  readonly client: string;
  readonly requestId: number;
  readonly op: 'acquire' | 'release' | 'ghost-release';
  readonly key: string;
  /** The term of the entry it waits for: an index reused by a later leader is another entry. */
  readonly term: number;
}

/** Sees every answer a client takes (after its lease bookkeeping), for the client-view invariants. */
export type ClientObserver = (client: ClientActor, src: string, reply: ClientReply) => void;

export class LockService implements ClusterExtension {
  readonly cluster: Cluster;
  readonly clients = new Map<string, ClientActor>();
  readonly fenced: Store;
  readonly unfenced: Store;
  /** Every client operation and lease expiry, for the linearizability checker. */
  readonly history = new History();
  /** Token → its expiry in the history, from the first proposal of an Expire for it. */
  private readonly expiryOps = new Map<number, HistoryOp>();
  /** Token → the release of its ghost lock in the history. */
  private readonly ghostOps = new Map<number, HistoryOp>();
  /** Each node's copy of the replicated lock table, by node position. */
  private readonly machines: LockStateMachine[];
  private readonly applyOptions: ApplyOptions;
  private readonly clientObservers: ClientObserver[] = [];
  /** Per node: the newest request id it has seen from each client (volatile). */
  private readonly latestRequest: Map<string, number>[];
  /** Per leader node: log index → the client request waiting for that entry to apply. */
  private readonly pending = new Map<string, Map<number, Pending>>();
  /** Per node: tokens whose expiry this node has already proposed (it proposes each once). */
  private readonly expiryProposed = new Map<string, Set<number>>();
  private readonly followerExpiry: boolean;
  private readonly replyIgnoresTerm: boolean;
  /** Reads (§6.4): the leaders' side of put and get; null without the feature. */
  private readonly reads: KvReads | null;
  /**
   * Another lock service's servers (issue 26: ZooKeeper, etcd, a database, Redis, Redlock,
   * gossip), or null: the chapter's, whose servers are the code of this class.
   */
  readonly backend: LockBackend | null;
  /** When each client believed it held each lock (for the overlaps measure); observation only. */
  readonly holds = new HoldTracker();

  constructor(cluster: Cluster, clientIds: readonly string[], backend: LockBackendFactory | null = null) {
    this.cluster = cluster;
    for (const id of clientIds) this.clients.set(id, new ClientActor(id, cluster, this, this.history));
    this.machines = cluster.nodes.map(() => new LockStateMachine());
    this.latestRequest = cluster.nodes.map(() => new Map());
    this.applyOptions = Object.freeze({ expireAnyToken: cluster.bugSet.has('expire-any-token') });
    this.fenced = new Store('fenced', !cluster.bugSet.has('no-fencing'));
    this.unfenced = new Store('unfenced', false);
    this.followerExpiry = cluster.bugSet.has('follower-expiry');
    this.replyIgnoresTerm = cluster.bugSet.has('reply-ignores-term');
    this.reads = cluster.features.reads ? new KvReads(cluster, this.machines) : null;
    this.backend = backend === null ? null : backend({ cluster, history: this.history, clientIds });
    if (this.backend !== null) for (const c of this.clients.values()) c.driver = this.backend.driverFor(c);
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
    switch (intent.op) {
      case 'crash':
        c.crash();
        break;
      case 'restart':
        c.restart();
        break;
      case 'pause':
        c.pause(intent.ms);
        break;
      default:
        c.request(intent);
    }
    this.holds.observe(this.clients.values(), this.cluster.nowMs);
  }

  addClientObserver(observer: ClientObserver): void {
    this.clientObservers.push(observer);
  }

  /** A client took an answer: the observers hear of it. */
  clientTold(client: ClientActor, src: string, reply: ClientReply): void {
    const observers = this.clientObservers;
    for (let i = 0; i < observers.length; i++) observers[i](client, src, reply);
  }

  /** The lock table as `node` has applied it. */
  machineOf(node: RaftNode): LockStateMachine {
    return this.machines[node.index];
  }

  // -- ClusterExtension ---------------------------------------------------------------------

  knows(id: string): boolean {
    return id === 'fenced' || id === 'unfenced' || this.clients.has(id);
  }

  canReceive(id: string): boolean {
    if (id === 'fenced' || id === 'unfenced') return true;
    return this.clients.get(id)?.alive ?? false;
  }

  onMessage(dst: string, src: string, msg: Message): void {
    const backend = this.backend;
    if (backend !== null) {
      if (msg.type === 'StoreWrite') {
        if (dst === 'fenced' || dst === 'unfenced') this.onStoreWrite(dst, src, msg);
      } else if (msg.type === 'ServiceRpc' && this.clients.has(dst)) this.clients.get(dst)?.receive(src, msg);
      else backend.onServerMessage(dst, src, msg);
      return;
    }
    if (msg.type === 'ClientRequest') {
      const node = this.cluster.nodeById.get(dst);
      if (node) this.onRequest(node, src, msg);
      return;
    }
    if (msg.type === 'StoreWrite') {
      if (dst === 'fenced' || dst === 'unfenced') this.onStoreWrite(dst, src, msg);
      return;
    }
    if (msg.type === 'ClientReply') this.clients.get(dst)?.receive(src, msg);
  }

  tick(): void {
    const now = this.cluster.nowMs;
    for (const c of this.clients.values()) c.tick(now);
    const backend = this.backend;
    if (backend !== null) {
      backend.tick();
      this.holds.observe(this.clients.values(), now);
      return;
    }
    for (const node of this.cluster.nodes) {
      if (!node.alive) continue;
      if (node.role === 'leader') this.leaderExpiry(node);
      else if (this.followerExpiry) this.buggyFollowerExpiry(node);
    }
    if (this.reads !== null) this.reads.tick();
    this.holds.observe(this.clients.values(), now);
  }

  calm(): void {
    for (const c of this.clients.values()) if (!c.alive) c.restart();
    this.backend?.calm?.();
  }

  /** A server added by a membership change starts with an empty lock table, filled as it applies. */
  onNodeAdded(node: RaftNode): void {
    this.machines[node.index] = new LockStateMachine();
    this.latestRequest[node.index] = new Map();
  }

  apply(node: RaftNode, index: number, entry: LogEntry): ApplyResult {
    const backend = this.backend;
    if (backend !== null) return backend.apply !== undefined ? backend.apply(node, index, entry) : NOOP_RESULT;
    return this.machines[node.index].apply(entry.command, this.cluster.localNowMs(node), this.applyOptions);
  }

  /** A restarted node lost its applied lock table and the replies it owed: both are volatile. */
  onRestart(node: RaftNode): void {
    if (this.backend !== null) {
      this.backend.onRestart(node);
      return;
    }
    this.machines[node.index].reset();
    this.pending.delete(node.id);
    this.latestRequest[node.index].clear();
    this.reads?.onRestart(node);
  }

  snapshotStateOf(node: RaftNode): SnapshotState {
    return this.machines[node.index].snapshotState();
  }

  restoreSnapshotState(node: RaftNode, state: SnapshotState | null): void {
    this.machines[node.index].restore(state, this.cluster.localNowMs(node));
  }

  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void {
    if (this.backend !== null) {
      this.backend.onApplied?.(node, index, entry, result);
      return;
    }
    const command = entry.command;
    if (isKvCommand(command)) {
      this.reads?.onApplied(node, index, entry, result);
      return;
    }
    if (!isLockCommand(command)) return; // plain commands and a leader's no-op (§8) touch no lock
    if (command.type === 'expire' && result.type === 'Expired' && result.existed) {
      const expiry = this.expiryOps.get(command.token);
      if (expiry !== undefined) this.history.complete(expiry, this.cluster.nowMs, 'expired');
    } else if (command.type === 'release' && result.type === 'Released' && command.token !== null) {
      const ghost = this.ghostOps.get(command.token);
      if (ghost !== undefined) this.history.complete(ghost, this.cluster.nowMs, 'released');
    }
    const isLeader = node.role === 'leader' && node.alive;
    if (isLeader) this.log(say.applied(node.id, command, result), appliedKind(command, result), this.subjects(node.id, command));
    const waiting = this.pending.get(node.id);
    const request = waiting?.get(index);
    if (!request || !waiting) return;
    waiting.delete(index);
    // The index was reused by another leader's entry: this is not the entry the request waits for
    // (the bug reply-ignores-term answers from it all the same).
    if (request.term !== entry.term && !this.replyIgnoresTerm) return;
    if (!isLeader) return;
    const client = this.clients.get(request.client);
    if (request.op === 'acquire' && result.type === 'Granted') {
      const gone = !client || !client.alive || !this.cluster.reachable(node.id, request.client);
      if (gone) {
        // Ghost lock: the asker cannot hear the answer, so the leader frees the key at once.
        this.log(say.ghost(node.id, request.key, request.client, result.token), 'lock-ghost', [node.id, request.client]);
        if (!this.ghostOps.has(result.token)) {
          this.ghostOps.set(
            result.token,
            this.history.invoke(node.id, 'ghost-release', request.key, this.cluster.nowMs, { token: result.token }),
          );
        }
        this.propose(
          node,
          { type: 'release', key: request.key, owner: request.client, token: result.token },
          { ...request, op: 'ghost-release' },
        );
        return;
      }
      this.reply(node, request, 'granted', result.token, index);
    } else if (request.op === 'acquire') {
      this.reply(node, request, 'busy', null, index);
    } else if (request.op === 'release') {
      const outcome = result.type === 'Released' ? 'released' : result.type === 'NotHolder' ? 'not-holder' : 'not-found';
      this.reply(node, request, outcome, null, index);
    }
  }

  // -- leader side --------------------------------------------------------------------------

  private onRequest(node: RaftNode, src: string, msg: ClientRequest): void {
    // A leader handing over (§3.10) answers not-leader, pointing at the node it hands over to.
    if (node.role !== 'leader' || node.transferTo !== null) {
      const reply: ClientReply = {
        type: 'ClientReply',
        id: msg.id,
        op: msg.op,
        key: msg.key,
        outcome: 'not-leader',
        token: null,
        leaderHint: node.transferTo ?? node.leaderId,
        index: null,
        attempt: msg.attempt,
      };
      this.cluster.send(node.id, src, reply);
      return;
    }
    // A copy of a request the client has already moved on from (a retry or a duplicate that
    // arrived late) is dropped: acting on it would grant or release for nobody (§6.3).
    const seen = this.latestRequest[node.index];
    if ((seen.get(src) ?? 0) > msg.id) return;
    seen.set(src, msg.id);
    if (msg.op === 'put' || msg.op === 'get') {
      this.reads?.onRequest(node, src, msg);
      return;
    }
    const machine = this.machines[node.index];
    const held = machine.locks.get(msg.key);
    const request: Pending = { client: src, requestId: msg.id, op: msg.op, key: msg.key, term: node.term };
    if (msg.op === 'release') {
      this.onRelease(node, src, msg, request, held?.owner);
      return;
    }
    const waiting = this.pendingFor(node);
    for (const [index, p] of waiting) {
      // A retry of the request whose Grant is in flight on this leader: answer it when it applies.
      // Not applied here means not applied anywhere yet (the leader applies first), so the
      // lease still starts after this request was sent. It waits for the same entry, of the term
      // that entry was proposed in: this leader may have lost and won again since, and an answer
      // waiting under its new term would be dropped when the old entry applies.
      if (p.client === src && p.requestId === msg.id && index > node.lastApplied && node.termAt(index) === p.term) {
        waiting.set(index, { ...request, term: p.term });
        return;
      }
    }
    // The leader's log holds every committed entry (Leader Completeness) but its applied state
    // may lag it, e.g. just after a restart; an entry it has not applied yet for this key could
    // change the answer, so it grants nothing for the key until that entry is applied.
    if (this.lastUnappliedFor(node, msg.key) !== 0) {
      this.log(say.busy(node.id, msg.key, src, null), 'lock-busy', [node.id, src]);
      this.reply(node, request, 'busy', null, null);
      return;
    }
    // An acquire by the holder (a retry whose answer was lost, or asking again) is proposed as
    // a Grant too: it renews the lease with a new token, so the lease the client counts from
    // its request is the one the service runs.
    if (held && held.owner !== src) {
      this.log(say.busy(node.id, msg.key, src, held.owner), 'lock-busy', [node.id, src]);
      this.reply(node, request, 'busy', null, null);
      return;
    }
    this.propose(node, { type: 'grant', key: msg.key, leaseMs: msg.leaseMs, owner: src }, request);
  }

  /**
   * A release is answered by applying a Release entry, never with "busy": a copy of it sent
   * earlier may sit in another server's log, unapplied, and commit after any answer this leader
   * gives, so "not released" is something no leader can promise, and a client told it would go on
   * counting a lease its own release ends. So it waits for the client's own Release if one is
   * among this leader's unapplied entries for the key (wherever it sits: an Expire may well have
   * been proposed after it) and names the same token, so it is a copy of this request, not of a
   * release of an earlier hold; and otherwise proposes one: applied after every entry before it, it
   * finds the key as the log leaves it. Only with nothing unapplied for the key does the leader
   * refuse a release of a key someone else holds without proposing it.
   */
  private onRelease(node: RaftNode, src: string, msg: ClientRequest, request: Pending, holder: string | undefined): void {
    const own = this.lastUnappliedReleaseBy(node, msg.key, src, msg.token);
    if (own !== 0) {
      this.pendingFor(node).set(own, { ...request, term: (node.entryAt(own) as LogEntry).term });
      return;
    }
    if (holder !== undefined && holder !== src && this.lastUnappliedFor(node, msg.key) === 0) {
      this.log(say.notHolder(node.id, msg.key, src, holder), 'lock-release-refused', [node.id, src]);
      this.reply(node, request, 'not-holder', null, null);
      return;
    }
    this.propose(node, { type: 'release', key: msg.key, owner: src, token: msg.token }, request);
  }

  /** The index of the last entry this leader has not applied yet that touches `key`, or 0. */
  private lastUnappliedFor(node: RaftNode, key: string): number {
    for (let i = node.lastLogIndex; i > node.lastApplied; i--) {
      const c = (node.entryAt(i) as LogEntry).command;
      if (isLockCommand(c) && c.key === key) return i;
    }
    return 0;
  }

  /** The index of the last unapplied Release of `key` by `client` naming `token` in this leader's log, or 0. */
  private lastUnappliedReleaseBy(node: RaftNode, key: string, client: string, token: number | null): number {
    for (let i = node.lastLogIndex; i > node.lastApplied; i--) {
      const c = (node.entryAt(i) as LogEntry).command;
      if (isLockCommand(c) && c.type === 'release' && c.key === key && c.owner === client && c.token === token) return i;
    }
    return 0;
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

  private reply(node: RaftNode, request: Pending, outcome: ClientReply['outcome'], token: number | null, index: number | null): void {
    if (request.op === 'ghost-release') return;
    const reply: ClientReply = {
      type: 'ClientReply',
      id: request.requestId,
      op: request.op,
      key: request.key,
      outcome,
      token,
      leaderHint: node.id,
      index,
    };
    this.cluster.send(node.id, request.client, reply);
  }

  /** Only the leader acts on expiry, by its own clock, and only by proposing an Expire (once). */
  private leaderExpiry(node: RaftNode): void {
    const locks = this.machines[node.index].locks;
    if (locks.size === 0) return;
    const local = this.cluster.localNowMs(node);
    let proposed = this.expiryProposed.get(node.id);
    for (const [key, holder] of locks) {
      if (local < holder.grantedAtLocalMs + holder.leaseMs) continue;
      if (!proposed) this.expiryProposed.set(node.id, (proposed = new Set()));
      if (proposed.has(holder.token)) continue;
      proposed.add(holder.token);
      if (this.cluster.recordDetails) {
        this.cluster.detail({
          kind: 'lease-expired',
          subjects: [node.id, holder.owner],
          values: {
            node: node.id,
            key,
            owner: holder.owner,
            token: holder.token,
            localMs: local,
            endsAtLocalMs: holder.grantedAtLocalMs + holder.leaseMs,
          },
          lines: ['lease.expire.leader-clock'],
        });
      }
      this.log(say.leaseRanOut(node.id, key, holder.token, holder.owner), 'lease-ran-out', [node.id, holder.owner]);
      if (!this.expiryOps.has(holder.token)) {
        this.expiryOps.set(holder.token, this.history.invoke(node.id, 'expire', key, this.cluster.nowMs, { token: holder.token }));
      }
      this.propose(node, { type: 'expire', key, token: holder.token }, null);
    }
  }

  /** Bug `follower-expiry`: a follower drops a lease by its own clock, outside the log. */
  private buggyFollowerExpiry(node: RaftNode): void {
    const locks = this.machines[node.index].locks;
    if (locks.size === 0) return;
    const local = this.cluster.localNowMs(node);
    for (const [key, holder] of locks) {
      if (local >= holder.grantedAtLocalMs + holder.leaseMs) locks.delete(key);
    }
  }

  // -- stores -------------------------------------------------------------------------------

  private onStoreWrite(storeId: StoreId, src: string, msg: StoreWrite): void {
    const store = storeId === 'fenced' ? this.fenced : this.unfenced;
    const backend = this.backend;
    const leaseEnded =
      backend !== null
        ? !backend.stillHolds(src, msg.lockKey, msg.token, msg.grant ?? null)
        : msg.token === null || !this.tokenStillHolds(msg.lockKey, msg.token);
    const record = store.write(this.cluster.nowMs, src, msg.key, msg.value, msg.token, msg.lockKey, leaseEnded);
    // Without a token, the unfenced store's history names the write's grant (ClientActor.write).
    const named = storeId === 'unfenced' && msg.token === null && msg.grant !== undefined ? msg.grant : msg.token;
    this.history.writeLanded(src, storeId, msg.key, msg.value, named, msg.lockKey, record.accepted, this.cluster.nowMs);
    this.log(say.storeWrite(storeId, record), record.accepted ? 'store-accepted' : 'store-rejected', [src, storeId]);
    if (!record.accepted && this.cluster.recordDetails) {
      this.cluster.detail({
        kind: 'write-fenced',
        subjects: [src, storeId],
        values: {
          store: storeId,
          client: src,
          key: msg.key,
          value: msg.value,
          token: msg.token,
          highest: store.highest.get(msg.key) ?? null,
        },
        lines: ['store.fence.reject'],
      });
    }
  }

  /** Whether `token` still holds `lockKey` in the most advanced applied lock table. */
  tokenStillHolds(lockKey: string | null, token: number): boolean {
    if (lockKey === null) return false;
    let best: RaftNode | null = null;
    for (const node of this.cluster.nodes) if (best === null || node.lastApplied > best.lastApplied) best = node;
    return best !== null && this.machines[best.index].locks.get(lockKey)?.token === token;
  }

  // -- output -------------------------------------------------------------------------------

  private log(text: string, kind: EventKind, subjects: readonly string[]): void {
    this.cluster.logEvent(text, kind, subjects);
  }

  private subjects(nodeId: string, command: LockCommand): string[] {
    return command.type === 'grant' ? [nodeId, command.owner] : [nodeId];
  }
}

const NOOP_RESULT: ApplyResult = Object.freeze({ type: 'Noop' });

/** What applying a lock command on the leader did, as an event kind. */
function appliedKind(command: LockCommand, result: ApplyResult): EventKind {
  switch (command.type) {
    case 'grant':
      return result.type === 'Granted' ? 'lock-granted' : 'lock-grant-rejected';
    case 'release':
      return result.type === 'Released' ? 'lock-released' : result.type === 'NotHolder' ? 'lock-release-refused' : 'lock-release-not-found';
    case 'expire':
      return result.type === 'Expired' && result.existed ? 'lock-expired' : 'lock-expire-stale';
  }
}
