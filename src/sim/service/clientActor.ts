/**
 * A lock-service client: a process on the network that asks the leader for locks, follows
 * redirects, retries when it hears nothing, counts its own lease, can be paused (a GC pause it
 * cannot see) and writes to the chapter's two stores with the newest token it was granted.
 */
import { lockService as say } from '../model/describe';
import type { EventKind } from '../model/events';
import type { History, HistoryOp } from '../model/history';
import type { ReadMode } from '../model/config';
import type { ClientIntent } from '../model/schedule';
import type { ClientReply, ClientRequest, ServiceRpc, StoreWrite } from '../model/types';
import type { LockClientDriver, LockOpResult, LockSeat, LossReason } from '../net/lockPlug';

/** A client that hears nothing for this long tries the next node. */
export const CLIENT_RETRY_MS = 300;

/**
 * What a client needs of the world: the clock, the nodes it may ask, the network and the event
 * log. The Cluster is one (a plain object reference, so a checkpoint's deep copy follows it).
 */
export interface ClientHost {
  readonly nowMs: number;
  readonly config: { readonly nodeIds: readonly string[]; readonly readMode?: ReadMode };
  send(src: string, dst: string, msg: ClientRequest | StoreWrite | ServiceRpc): void;
  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void;
}

/** Told of every answer the client takes (the lock service passes it to invariant checkers). */
export interface ClientListener {
  clientTold(client: ClientActor, src: string, reply: ClientReply): void;
}

type Operation = Extract<ClientIntent, { op: 'acquire' | 'release' | 'put' | 'get' }>;

interface Outstanding {
  readonly intent: Operation;
  readonly requestId: number;
  /** When the client first sent this request: its lease is counted from here (conservative). */
  readonly firstSentAt: number;
  target: string;
  retryAt: number;
  /** How many times the request has been sent (see ClientRequest.attempt). */
  attempt: number;
  /** This operation in the clients' history. */
  readonly record: HistoryOp;
}

export interface ClientHolding {
  /** The fencing token; null with a lock service that has none (Redis, Redlock, gossip). */
  readonly token: number | null;
  /** The client's own view of when its lease ends, counted from when it asked. */
  readonly deadline: number;
}

/** One acquire the client finished: how long it took and how many round trips (the Compare view's measure). */
export interface AcquireRecord {
  readonly key: string;
  readonly invokeMs: number;
  readonly completeMs: number;
  readonly rounds: number;
  readonly granted: boolean;
}

/** The store ids a client writes to: every write goes to both at once. */
const STORES = ['fenced', 'unfenced'] as const;

export class ClientActor implements LockSeat {
  readonly id: string;
  private readonly host: ClientHost;
  private readonly listener: ClientListener | null;
  private readonly history: History;
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
  readonly inbox: { src: string; msg: ClientReply | ServiceRpc }[] = [];
  /**
   * Another lock service's client-side protocol (issue 26: sessions, keep-alives, watches, a
   * majority of instances); null for the chapter's service, whose protocol is the code below.
   */
  driver: LockClientDriver | null = null;
  /** A service without fencing tokens: the current grant's number in the history (bookkeeping). */
  currentGrant: number | null = null;
  /** Every acquire answered, in order (pure record: nothing reads it back). */
  readonly acquires: AcquireRecord[] = [];
  nextRequestId = 1;
  /** One line of what the client is doing, for the UI. */
  status = 'idle';
  /** Reads: the answer to the client's last put or get (`get x -> 1`), for the UI; null before any. */
  lastResult: string | null = null;

  constructor(id: string, host: ClientHost, listener: ClientListener | null, history: History) {
    this.id = id;
    this.host = host;
    this.listener = listener;
    this.history = history;
    this.believedLeader = host.config.nodeIds[0];
  }

  paused(now: number): boolean {
    return now < this.pausedUntil;
  }

  // -- schedule verbs -------------------------------------------------------------------------

  /** The process dies: its queue, request, unread replies and every lock it believed it held go. */
  crash(): void {
    this.alive = false;
    this.queue.length = 0;
    this.outstanding = null;
    this.inbox.length = 0;
    this.holdings.clear();
    this.currentToken = null;
    this.currentLockKey = null;
    this.currentGrant = null;
    this.pausedUntil = -1;
    this.status = 'crashed';
    this.driver?.crashed();
    this.log(say.clientCrashes(this.id), 'client-crashes', [this.id]);
  }

  restart(): void {
    this.alive = true;
    this.status = 'idle';
    this.log(say.clientRestarts(this.id), 'client-restarts', [this.id]);
  }

  /** A pause the process cannot see (a GC pause): nothing it does runs until it wakes. */
  pause(ms: number): void {
    if (!this.alive) return;
    const now = this.host.nowMs;
    if (!this.paused(now)) this.pausedAt = now;
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.status = `paused until t=${this.pausedUntil} ms`;
    this.log(say.clientPauses(this.id, ms), 'client-pauses', [this.id]);
  }

  /** Acquire, release or write: queued, and started as soon as the client is free. */
  request(intent: ClientIntent): void {
    if (!this.alive) {
      this.log(say.clientIgnores(this.id, intent), 'client-ignores', [this.id]);
      return;
    }
    this.queue.push(intent);
    this.drive();
  }

  // -- the network and the clock --------------------------------------------------------------

  /** A reply arrives; a paused process does not run, so it waits in the inbox (its kernel still answers keep-alives). */
  receive(src: string, msg: ClientReply | ServiceRpc): void {
    if (!this.alive) return;
    if (msg.type === 'ServiceRpc' && this.driver?.kernel?.(src, msg) === true) return;
    if (this.paused(this.host.nowMs)) {
      this.inbox.push({ src, msg });
      return;
    }
    this.dispatch(src, msg);
  }

  private dispatch(src: string, msg: ClientReply | ServiceRpc): void {
    if (msg.type === 'ClientReply') this.onReply(src, msg);
    else this.driver?.onMessage(src, msg);
  }

  /** Once per simulated millisecond: wake from a pause, or retry a request that went unanswered. */
  tick(now: number): void {
    if (!this.alive) return;
    if (this.pausedUntil >= 0 && now >= this.pausedUntil) this.wake();
    if (this.driver !== null) this.driver.tick(now, this.paused(now));
    if (this.paused(now)) return;
    if (this.outstanding && now >= this.outstanding.retryAt) this.retry();
  }

  // -- behaviour ------------------------------------------------------------------------------

  /** Starts the next queued intent if the client is idle, awake and alive. */
  private drive(): void {
    const now = this.host.nowMs;
    while (this.alive && !this.paused(now) && this.outstanding === null && this.queue.length > 0) {
      const intent = this.queue.shift() as ClientIntent;
      if (intent.op === 'write') {
        this.write(intent.key, intent.value);
        continue;
      }
      if (intent.op === 'put' || intent.op === 'get') {
        const requestId = this.nextRequestId++;
        const record =
          intent.op === 'put'
            ? this.history.invoke(this.id, 'put', intent.key, now, { value: intent.value })
            : this.history.invoke(this.id, 'get', intent.key, now, { readMode: this.readModeOf(intent) });
        this.outstanding = {
          intent,
          requestId,
          firstSentAt: now,
          target: this.believedLeader,
          retryAt: now + CLIENT_RETRY_MS,
          attempt: 0,
          record,
        };
        this.sendRequest();
      } else if (intent.op === 'acquire' || intent.op === 'release') {
        const requestId = this.nextRequestId++;
        const held = intent.op === 'release' ? this.holdings.get(intent.key) : undefined;
        // A service without tokens names the hold by its grant's number (the history's bookkeeping).
        const token = held === undefined ? null : (held.token ?? (this.currentLockKey === intent.key ? this.currentGrant : null));
        const record = this.history.invoke(this.id, intent.op, intent.key, now, { token });
        if (this.driver !== null) {
          this.outstanding = { intent, requestId, firstSentAt: now, target: '', retryAt: Infinity, attempt: 0, record };
          this.status = `${intent.op === 'acquire' ? 'acquiring' : 'releasing'} ${intent.key}`;
          this.driver.start(intent.op, intent.key, intent.op === 'acquire' ? intent.leaseMs : 0);
          continue;
        }
        this.outstanding = {
          intent,
          requestId,
          firstSentAt: now,
          target: this.believedLeader,
          retryAt: now + CLIENT_RETRY_MS,
          attempt: 0,
          record,
        };
        this.sendRequest();
      }
    }
    if (this.alive && !this.paused(now) && this.outstanding === null) {
      this.status = this.holdings.size > 0 ? `holds ${[...this.holdings.keys()].join(', ')}` : 'idle';
    }
  }

  /** The mode a get is answered in: its own, else the run's (§6.4). */
  private readModeOf(intent: Extract<ClientIntent, { op: 'get' }>): ReadMode {
    return intent.mode ?? this.host.config.readMode ?? 'log';
  }

  private sendRequest(): void {
    const o = this.outstanding;
    if (!o) return;
    const intent = o.intent;
    if (intent.op === 'put' || intent.op === 'get') {
      const attempt = ++o.attempt;
      const request: ClientRequest =
        intent.op === 'put'
          ? { type: 'ClientRequest', id: o.requestId, op: 'put', key: intent.key, leaseMs: 0, token: null, attempt, value: intent.value }
          : {
              type: 'ClientRequest',
              id: o.requestId,
              op: 'get',
              key: intent.key,
              leaseMs: 0,
              token: null,
              attempt,
              readMode: this.readModeOf(intent),
            };
      this.status = `${intent.op === 'put' ? 'putting' : 'getting'} ${intent.key} via ${o.target}`;
      this.log(
        say.clientAsks(this.id, o.target, intent.op === 'get' ? { ...intent, mode: this.readModeOf(intent) } : intent),
        'client-asks',
        [this.id, o.target],
      );
      this.host.send(this.id, o.target, request);
      return;
    }
    const leaseMs = o.intent.op === 'acquire' ? o.intent.leaseMs : 0;
    const token = o.intent.op === 'release' ? (this.holdings.get(o.intent.key)?.token ?? null) : null;
    const request: ClientRequest = {
      type: 'ClientRequest',
      id: o.requestId,
      op: o.intent.op,
      key: o.intent.key,
      leaseMs,
      token,
      attempt: ++o.attempt,
    };
    this.status = `${o.intent.op === 'acquire' ? 'acquiring' : 'releasing'} ${o.intent.key} via ${o.target}`;
    this.log(say.clientAsks(this.id, o.target, o.intent), 'client-asks', [this.id, o.target]);
    this.host.send(this.id, o.target, request);
  }

  /** The node after `id` in the cluster's order: where a client looks next for the leader. */
  private nextNode(id: string): string {
    const ids = this.host.config.nodeIds;
    return ids[(ids.indexOf(id) + 1) % ids.length];
  }

  private retry(): void {
    const o = this.outstanding;
    if (!o) return;
    const next = this.nextNode(o.target);
    this.log(say.clientTimesOut(this.id, o.target, CLIENT_RETRY_MS, next), 'client-times-out', [this.id]);
    o.target = next;
    this.believedLeader = next;
    o.retryAt = this.host.nowMs + CLIENT_RETRY_MS;
    this.sendRequest();
  }

  private onReply(src: string, msg: ClientReply): void {
    const o = this.outstanding;
    if (!o || o.requestId !== msg.id) return; // an answer to a request the client gave up on
    const now = this.host.nowMs;
    if (msg.outcome === 'not-leader') {
      // Only the answer to the latest send can send it on: a late or duplicated redirect (from a
      // node already left behind, or from the same node, as in a one-node cluster) would fork the
      // request into copies that multiply with every duplicated message.
      if (src !== o.target || msg.attempt !== o.attempt) return;
      const hint = msg.leaderHint;
      const next = hint !== null && hint !== src ? hint : this.nextNode(src);
      this.log(say.redirected(this.id, src, next, hint !== null), 'client-redirected', [this.id, src]);
      o.target = next;
      this.believedLeader = next;
      o.retryAt = now + CLIENT_RETRY_MS;
      this.sendRequest();
      return;
    }
    this.believedLeader = src;
    this.outstanding = null;
    const key = o.intent.key;
    if (o.intent.op === 'put' || o.intent.op === 'get') {
      const intent = o.intent;
      if (intent.op === 'put') {
        this.history.complete(o.record, now, 'ok');
        this.lastResult = `put ${key}=${intent.value}`;
        this.log(say.clientPut(this.id, key, intent.value, src), 'client-put', [this.id, src]);
      } else {
        const value = msg.value ?? null;
        this.history.complete(o.record, now, 'ok', null, value);
        this.lastResult = `get ${key} -> ${value ?? 'nothing'}`;
        this.log(say.clientGot(this.id, key, value, this.readModeOf(intent), src), 'client-got', [this.id, src]);
      }
      this.listener?.clientTold(this, src, msg);
      this.drive();
      return;
    }
    this.history.complete(o.record, now, msg.outcome, msg.outcome === 'granted' ? msg.token : o.record.token);
    if (o.intent.op === 'acquire')
      this.acquires.push({ key, invokeMs: o.firstSentAt, completeMs: now, rounds: o.attempt, granted: msg.outcome === 'granted' });
    if (msg.outcome === 'granted' && msg.token !== null) {
      // Counted from the request's first send, which came before any node applied the grant.
      const deadline = o.firstSentAt + (o.intent.op === 'acquire' ? o.intent.leaseMs : 0);
      this.holdings.set(key, { token: msg.token, deadline });
      this.currentToken = msg.token;
      this.currentLockKey = key;
      this.log(say.clientAcquired(this.id, key, msg.token, deadline), 'client-acquired', [this.id]);
    } else if (msg.outcome === 'busy') {
      if (o.intent.op === 'acquire') this.log(say.clientBusy(this.id, key), 'client-busy', [this.id]);
      else this.log(say.clientReleaseBusy(this.id, key), 'client-release-busy', [this.id]);
    } else if (msg.outcome === 'released' || msg.outcome === 'not-found' || msg.outcome === 'not-holder') {
      this.holdings.delete(key);
      if (this.currentLockKey === key) {
        this.currentToken = null;
        this.currentLockKey = null;
      }
      if (msg.outcome === 'not-holder') this.log(say.clientNotHolder(this.id, key), 'client-release-refused', [this.id]);
      else {
        const released = msg.outcome === 'released';
        this.log(say.clientReleased(this.id, key, released), released ? 'client-released' : 'client-release-not-found', [this.id]);
      }
    }
    this.listener?.clientTold(this, src, msg);
    this.drive();
  }

  private wake(): void {
    const now = this.host.nowMs;
    const slept = now - this.pausedAt;
    this.pausedUntil = -1;
    const holding = this.currentLockKey ? this.holdings.get(this.currentLockKey) : undefined;
    this.log(say.clientWakes(this.id, slept, this.currentLockKey, holding ? holding.deadline - now : null), 'client-wakes', [this.id]);
    // Unaware of the time that passed: replies that waited are handled, the queue carries on.
    if (this.outstanding) this.outstanding.retryAt = Math.max(this.outstanding.retryAt, now + 1);
    const inbox = this.inbox.splice(0);
    for (const { src, msg } of inbox) this.dispatch(src, msg);
    this.drive();
  }

  // -- another lock service's driver answers (LockSeat) ----------------------------------------

  /** The driver's acquire or release is over: the client takes the answer as it takes a reply. */
  finish(result: LockOpResult): void {
    const o = this.outstanding;
    if (o === null || (o.intent.op !== 'acquire' && o.intent.op !== 'release')) return;
    const now = this.host.nowMs;
    this.outstanding = null;
    const key = o.intent.key;
    const outcome = result.outcome;
    // The history names a grant by its token, or by its number when the service has no token.
    const named = outcome === 'granted' ? (result.token ?? result.grant) : o.record.token;
    this.history.complete(o.record, now, outcome, named);
    if (o.intent.op === 'acquire') {
      this.acquires.push({ key, invokeMs: o.firstSentAt, completeMs: now, rounds: result.rounds, granted: outcome === 'granted' });
      if (outcome === 'granted') {
        const deadline = result.deadline ?? o.firstSentAt + o.intent.leaseMs;
        this.holdings.set(key, { token: result.token, deadline });
        this.currentToken = result.token;
        this.currentLockKey = key;
        this.currentGrant = result.grant;
        this.log(say.clientAcquiredLock(this.id, key, result.token, deadline), 'client-acquired', [this.id]);
      } else {
        this.log(say.clientBusy(this.id, key), 'client-busy', [this.id]);
      }
    } else {
      this.dropHolding(key);
      if (outcome === 'not-holder') this.log(say.clientNotHolder(this.id, key), 'client-release-refused', [this.id]);
      else {
        const released = outcome === 'released';
        this.log(say.clientReleased(this.id, key, released), released ? 'client-released' : 'client-release-not-found', [this.id]);
      }
    }
    this.drive();
  }

  /** The driver learned the client's hold on `key` is gone (its session expired, its connection died). */
  lose(key: string, why: LossReason): void {
    if (!this.holdings.has(key)) return;
    this.dropHolding(key);
    this.log(say.clientLost(this.id, key, why), 'client-lost-lock', [this.id]);
    if (this.outstanding === null) this.status = this.holdings.size > 0 ? `holds ${[...this.holdings.keys()].join(', ')}` : 'idle';
  }

  /** A renewal (a ping, a keep-alive) was answered: the client's own lease runs to `deadline`. */
  extend(key: string, deadline: number): void {
    const h = this.holdings.get(key);
    if (h !== undefined && deadline > h.deadline) this.holdings.set(key, { token: h.token, deadline });
  }

  private dropHolding(key: string): void {
    this.holdings.delete(key);
    if (this.currentLockKey === key) {
      this.currentToken = null;
      this.currentLockKey = null;
      this.currentGrant = null;
    }
  }

  /** Every write goes to both stores at once, stamped with the client's current token. */
  private write(key: string, value: string): void {
    const token = this.currentToken;
    this.log(say.clientWrites(this.id, key, value, token), 'client-writes', [this.id]);
    const grant = this.currentGrant;
    const msg: StoreWrite =
      grant === null
        ? { type: 'StoreWrite', key, value, token, lockKey: this.currentLockKey }
        : { type: 'StoreWrite', key, value, token, lockKey: this.currentLockKey, grant };
    const now = this.host.nowMs;
    for (const store of STORES) {
      // Without a token the unfenced store's history names the write's grant (its order is the measure).
      const named = store === 'unfenced' && token === null ? grant : token;
      this.history.writeSent(this.id, store, key, value, named, this.currentLockKey, now);
      this.host.send(this.id, store, msg);
    }
  }

  private log(text: string, kind: EventKind, subjects: readonly string[]): void {
    this.host.logEvent(text, kind, subjects);
  }
}
