/**
 * ZooKeeper's lock recipe (zookeeper.apache.org, "ZooKeeper Recipes and Solutions", Locks;
 * "ZooKeeper Programmer's Guide", sessions, ephemeral and sequential nodes, watches) on a znode
 * tree replicated through the Raft log: session opens and closes, creates and deletes are log
 * entries; the zxid of a create is its log index. Only the leader tracks sessions (by its
 * monotonic clock; a new leader gives every session a fresh timeout, as ZooKeeper's does) and it
 * closes a silent one through the log, which deletes the session's ephemeral znodes. Watches are
 * one-shot and kept by the server the client talks to (here the leader), so they are lost with
 * it: the client sets them again on the next server by reading again.
 *
 * The recipe: create `/locks/<key>/lock-` ephemeral and sequential; getChildren; the lowest
 * sequence holds; any other calls exists(watch) on the child just below its own and waits for
 * its deletion, then looks again. With the `herd` option every waiter instead watches the
 * children of the lock node, and every change wakes them all (the recipe's herd effect). A
 * create retried after a lost answer finds the session's child already there (Curator's
 * "protected" mode), so a retry never leaves an orphan child below its own.
 *
 * Left out (docs/semantics.md): Zab's own protocol (epochs, the discovery and synchronisation
 * phases), clients connecting to any server, local reads at followers, and sync().
 */
import type { Cluster } from '../../net/cluster';
import type { LockBackend, LockClientDriver, LockHost, LockRow, LockSeat } from '../../net/lockPlug';
import type { History } from '../../model/history';
import { lockOptionsOf } from '../../model/config';
import { lockServices as say } from '../../model/describeLocks';
import type { RaftNode } from '../../raft/node';
import { isCoordCommand, type ApplyResult, type CoordResult, type LogEntry, type Message, type ServiceRpc } from '../../model/types';
import type { RpcBody, ZkCommand, ZkRpc } from '../../model/lockWire';
import { SERVICE_RETRY_MS, deferredAnswer, nextServer, recordFree } from '../common/host';
import { RaftService } from '../common/raftService';

const rpc = (body: RpcBody<ZkRpc>): ZkRpc => ({ type: 'ServiceRpc', service: 'zk', ...body }) as ZkRpc;

/** The lock node of a key. */
export const lockNode = (key: string) => `/locks/${key}`;

export interface Znode {
  readonly path: string;
  readonly parent: string;
  readonly session: number;
  readonly client: string;
  /** The zxid of its create: the log index. */
  readonly zxid: number;
}

/** One node's copy of the tree: sessions and the lock nodes' ephemeral sequential children. */
export class ZkTree {
  readonly sessions = new Map<number, { readonly client: string; readonly timeoutMs: number }>();
  nextSession = 1;
  readonly znodes = new Map<string, Znode>();
  /** Each parent's child version: the next sequence number. */
  readonly cversion = new Map<string, number>();

  /** The children of `parent`, lowest sequence first. */
  children(parent: string): Znode[] {
    return [...this.znodes.values()].filter((z) => z.parent === parent).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  apply(c: ZkCommand, index: number, keepEphemerals: boolean): CoordResult {
    switch (c.type) {
      case 'zk-open': {
        const session = this.nextSession++;
        this.sessions.set(session, { client: c.client, timeoutMs: c.timeoutMs });
        return { type: 'Coord', ok: true, session };
      }
      case 'zk-close': {
        if (!this.sessions.delete(c.session)) return { type: 'Coord', ok: false };
        const removed: string[] = [];
        if (!keepEphemerals)
          for (const z of [...this.znodes.values()])
            if (z.session === c.session) {
              this.znodes.delete(z.path);
              removed.push(z.path);
            }
        return { type: 'Coord', ok: true, removed: removed.sort() };
      }
      case 'zk-create': {
        if (!this.sessions.has(c.session)) return { type: 'Coord', ok: false };
        // Protected mode: the session's child under this parent already exists (a retried create).
        const mine = this.children(c.parent).find((z) => z.session === c.session);
        if (mine !== undefined) return { type: 'Coord', ok: true, path: mine.path, zxid: mine.zxid };
        const seq = this.cversion.get(c.parent) ?? 0;
        this.cversion.set(c.parent, seq + 1);
        const path = `${c.parent}/lock-${String(seq).padStart(10, '0')}`;
        this.znodes.set(path, { path, parent: c.parent, session: c.session, client: c.client, zxid: index });
        return { type: 'Coord', ok: true, path, zxid: index };
      }
      case 'zk-delete': {
        const z = this.znodes.get(c.path);
        if (z === undefined) return { type: 'Coord', ok: false };
        this.znodes.delete(c.path);
        return { type: 'Coord', ok: true, removed: [c.path] };
      }
    }
  }
}

interface NodeWatches {
  /** exists watches: path → clients. */
  readonly exists: Map<string, Set<string>>;
  /** getChildren watches: parent → clients. */
  readonly children: Map<string, Set<string>>;
  /** Sessions' last ping, by this leader's monotonic clock. */
  readonly heard: Map<number, number>;
  /** Sessions whose close this leader proposed. */
  readonly closing: Set<number>;
}

const emptyWatches = (): NodeWatches => ({ exists: new Map(), children: new Map(), heard: new Map(), closing: new Set() });

export class ZooKeeperBackend extends RaftService<ZkTree> implements LockBackend {
  readonly service = 'zookeeper' as const;
  readonly herd: boolean;
  /** Bug ephemeral-outlives-session. */
  readonly keepEphemerals: boolean;
  private watches: NodeWatches[];
  /** Watch notifications sent, and deletions of a lock's holder (the herd measure: notifications per release). */
  notifications = 0;
  holderReleases = 0;
  private readonly history: History;

  constructor(host: LockHost) {
    super(host.cluster, () => new ZkTree());
    this.history = host.history;
    this.herd = lockOptionsOf(host.cluster.config).includes('herd');
    this.keepEphemerals = host.cluster.bugSet.has('ephemeral-outlives-session');
    this.watches = host.cluster.nodes.map(emptyWatches);
  }

  driverFor(seat: LockSeat): LockClientDriver {
    return new ZooKeeperDriver(seat, this.cluster, this.herd);
  }

  apply(node: RaftNode, index: number, entry: LogEntry): ApplyResult {
    const c = entry.command;
    if (!isCoordCommand(c) || !c.type.startsWith('zk-')) return NOOP;
    return this.machineOf(node).apply(c as ZkCommand, index, this.keepEphemerals);
  }

  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void {
    const c = entry.command;
    if (!isCoordCommand(c) || result.type !== 'Coord') return;
    const cmd = c as ZkCommand;
    const tree = this.machineOf(node);
    const first = this.firstApply(index);
    if (first && cmd.type === 'zk-close' && result.ok) this.noteFrees(result.removed ?? []);
    const leads = node.role === 'leader' && node.alive;
    if (!leads) return;
    const w = this.watches[node.index];
    if (cmd.type === 'zk-open' && result.session !== undefined) w.heard.set(result.session, this.cluster.localNowMs(node));
    if (cmd.type === 'zk-close') {
      w.heard.delete(cmd.session);
      if (result.ok)
        this.cluster.logEvent(
          say.zkClosed(
            node.id,
            cmd.session,
            cmd.reason,
            tree.sessions.get(cmd.session)?.client ?? this.clientOf(cmd.session),
            result.removed ?? [],
          ),
          'session-expired',
          [node.id],
        );
    }
    if (cmd.type === 'zk-create' && result.ok)
      this.cluster.logEvent(say.zkCreated(node.id, result.path ?? '?', cmd.client, index), 'service-granted', [node.id, cmd.client]);
    if (cmd.type === 'zk-delete' && result.ok)
      this.cluster.logEvent(say.zkDeleted(node.id, cmd.path, cmd.client), 'service-released', [node.id, cmd.client]);
    // Watches fire on the server that holds them.
    for (const path of result.removed ?? []) this.fire(node, path);
    if (cmd.type === 'zk-create' && result.ok && result.path !== undefined) this.fireChildren(node, cmd.parent);
    const answer = this.answerApplied(node, index, entry, result) as { client: string; msg: ZkRpc } | null;
    if (answer !== null) this.cluster.send(node.id, answer.client, answer.msg);
  }

  /** Clients of closed sessions, remembered for the close's line. */
  private readonly sessionClients = new Map<number, string>();

  private clientOf(session: number): string {
    return this.sessionClients.get(session) ?? '?';
  }

  private noteFrees(removed: readonly string[]): void {
    for (const path of removed) {
      const parent = path.slice(0, path.lastIndexOf('/'));
      const key = parent.slice('/locks/'.length);
      const zxid = this.removedZxid.get(path);
      if (zxid !== undefined && this.wasLowest.get(path) === true) recordFree(this.history, 'zookeeper', key, zxid, this.cluster.nowMs);
    }
  }

  /** For the history: each child's zxid, and whether it was its lock's lowest when its session closed. */
  private readonly removedZxid = new Map<string, number>();
  private readonly wasLowest = new Map<string, boolean>();

  /** Before a close applies anywhere for the first time: which of its children held their lock. */
  private remember(tree: ZkTree, session: number): void {
    for (const z of tree.znodes.values()) {
      if (z.session !== session) continue;
      this.removedZxid.set(z.path, z.zxid);
      const lowest = tree.children(z.parent)[0]?.path === z.path;
      this.wasLowest.set(z.path, lowest);
      if (lowest) this.holderReleases++;
    }
  }

  private fire(node: RaftNode, path: string): void {
    const w = this.watches[node.index];
    const parent = path.slice(0, path.lastIndexOf('/'));
    const watchers = w.exists.get(path);
    if (watchers !== undefined) {
      w.exists.delete(path);
      for (const client of watchers) this.notify(node, client, rpc({ op: 'event', path, event: 'deleted' }));
    }
    this.fireChildren(node, parent);
  }

  private fireChildren(node: RaftNode, parent: string): void {
    const w = this.watches[node.index];
    const watchers = w.children.get(parent);
    if (watchers === undefined) return;
    w.children.delete(parent);
    for (const client of watchers) this.notify(node, client, rpc({ op: 'event', path: parent, event: 'children' }));
  }

  private notify(node: RaftNode, client: string, msg: ZkRpc): void {
    this.notifications++;
    this.cluster.logEvent(
      say.zkWatchFired(node.id, client, msg.op === 'event' ? msg.path : '', msg.op === 'event' ? msg.event : 'deleted'),
      'watch-fired',
      [node.id, client],
    );
    this.cluster.send(node.id, client, msg);
  }

  onServerMessage(dst: string, src: string, msg: Message): void {
    if (msg.type !== 'ServiceRpc' || msg.service !== 'zk') return;
    const node = this.cluster.nodeById.get(dst);
    if (node === undefined || msg.op === 'reply' || msg.op === 'event') return;
    if (!this.serves(node)) {
      this.cluster.send(dst, src, rpc({ op: 'reply', id: msg.id, ok: false, notLeader: true, hint: this.hint(node) }));
      return;
    }
    const tree = this.machineOf(node);
    const w = this.watches[node.index];
    const reply = (body: Omit<Extract<ZkRpc, { op: 'reply' }>, 'type' | 'service' | 'op' | 'id'>) =>
      rpc({ op: 'reply', id: msg.id, ...body });
    const expired = () => this.cluster.send(dst, src, reply({ ok: false, expired: true }));
    switch (msg.op) {
      case 'connect':
        this.propose(
          node,
          { type: 'zk-open', client: src, timeoutMs: msg.timeoutMs, requestId: msg.id },
          {
            client: src,
            term: node.term,
            reply: (_n, r) =>
              r.type === 'Coord' && r.session !== undefined ? { client: src, msg: reply({ ok: true, session: r.session }) } : null,
          },
        );
        return;
      case 'ping':
        if (!tree.sessions.has(msg.session) || w.closing.has(msg.session)) return expired();
        w.heard.set(msg.session, this.cluster.localNowMs(node));
        this.cluster.send(dst, src, reply({ ok: true }));
        return;
      case 'create':
        if (!tree.sessions.has(msg.session)) return expired();
        this.propose(
          node,
          { type: 'zk-create', session: msg.session, parent: msg.parent, client: src, requestId: msg.id },
          {
            client: src,
            term: node.term,
            reply: (_n, r) =>
              r.type !== 'Coord'
                ? null
                : { client: src, msg: r.ok ? reply({ ok: true, path: r.path, zxid: r.zxid }) : reply({ ok: false, expired: true }) },
          },
        );
        return;
      case 'children': {
        if (!tree.sessions.has(msg.session)) return expired();
        if (msg.watch) {
          let set = w.children.get(msg.parent);
          if (set === undefined) w.children.set(msg.parent, (set = new Set()));
          set.add(src);
        }
        const children = tree.children(msg.parent).map((z) => ({ path: z.path, zxid: z.zxid }));
        this.cluster.send(dst, src, reply({ ok: true, children }));
        return;
      }
      case 'exists': {
        if (!tree.sessions.has(msg.session)) return expired();
        const exists = tree.znodes.has(msg.path);
        if (exists) {
          let set = w.exists.get(msg.path);
          if (set === undefined) w.exists.set(msg.path, (set = new Set()));
          set.add(src);
        }
        this.cluster.send(dst, src, reply({ ok: true, exists }));
        return;
      }
      case 'delete': {
        const z = tree.znodes.get(msg.path);
        if (z !== undefined && tree.children(z.parent)[0]?.path === z.path) this.holderReleases++;
        this.propose(
          node,
          { type: 'zk-delete', session: msg.session, path: msg.path, client: src, requestId: msg.id },
          {
            client: src,
            term: node.term,
            reply: (_n, r) => (r.type === 'Coord' ? { client: src, msg: reply({ ok: r.ok }) } : null),
          },
        );
        return;
      }
    }
  }

  tick(): void {
    // A new leader gives every session a fresh timeout (it cannot know when others heard them).
    for (const node of this.newLeaders()) {
      const w = (this.watches[node.index] = emptyWatches());
      const now = this.cluster.localNowMs(node);
      for (const id of this.machineOf(node).sessions.keys()) w.heard.set(id, now);
    }
    for (const node of this.cluster.nodes) {
      if (!this.serves(node)) continue;
      const tree = this.machineOf(node);
      const w = this.watches[node.index];
      const now = this.cluster.localNowMs(node);
      for (const [id, s] of tree.sessions) {
        if (w.closing.has(id)) continue;
        const heard = w.heard.get(id) ?? now;
        if (now - heard < s.timeoutMs) continue;
        w.closing.add(id);
        this.sessionClients.set(id, s.client);
        // Which of its children hold their lock, before the close removes them (the history's frees).
        this.remember(this.machineOf(this.mostApplied()), id);
        this.cluster.logEvent(say.zkExpiring(node.id, s.client, id, s.timeoutMs), 'session-expired', [node.id, s.client]);
        this.propose(node, { type: 'zk-close', session: id, reason: 'expired' }, null);
      }
    }
  }

  onRestart(node: RaftNode): void {
    this.restartMachine(node);
    this.watches[node.index] = emptyWatches();
  }

  stillHolds(client: string, lockKey: string | null, token: number | null): boolean {
    if (lockKey === null || token === null) return false;
    const lowest = this.machineOf(this.mostApplied()).children(lockNode(lockKey))[0];
    return lowest !== undefined && lowest.zxid === token && lowest.client === client;
  }

  /** The leader's tree (else the copy that applied most): each lock node's children, lowest first. */
  lockRows(): LockRow[] {
    const node = this.cluster.leader() ?? this.mostApplied();
    const tree = this.machineOf(node);
    const parents = [...new Set([...tree.znodes.values()].map((z) => z.parent))].sort();
    return parents.flatMap((parent) =>
      tree.children(parent).map((z, i, all): LockRow => {
        const name = z.path.slice(parent.length + 1);
        const watching = this.herd ? `watches ${parent}` : `watches ${all[i - 1]?.path.slice(parent.length + 1)}`;
        return {
          key: parent.replace(/^\/locks\//, ''),
          server: null,
          client: z.client,
          state: i === 0 ? 'holds' : 'waits',
          token: `zxid ${z.zxid}`,
          note: i === 0 ? `${name}, the lowest child` : `${name}, ${watching}`,
        };
      }),
    );
  }

  summaryLines(): string[] {
    const tree = this.machineOf(this.mostApplied());
    const znodes = [...tree.znodes.values()].map((z) => `${z.path} (${z.client}, zxid ${z.zxid})`);
    return [
      `znodes: ${znodes.length > 0 ? znodes.join(', ') : 'none'}; open sessions: ${[...tree.sessions].map(([id, s]) => `${id} (${s.client})`).join(', ') || 'none'}`,
    ];
  }
}

const NOOP: ApplyResult = Object.freeze({ type: 'Noop' });

type Phase = 'connect' | 'create' | 'children' | 'exists' | 'wait' | 'delete';

interface ZkOp {
  readonly kind: 'acquire' | 'release';
  readonly key: string;
  readonly leaseMs: number;
  readonly firstSentAt: number;
  phase: Phase;
  /** The request in flight (its id), when it was sent, when to give up on it. */
  id: number;
  sentAt: number;
  retryAt: number;
  rounds: number;
  /** Waiting on: the predecessor's path (exists watch), or the lock node (getChildren watch, herd). */
  watching: string | null;
}

/** A ZooKeeper client: a session kept alive by pings, the lock recipe on top. */
export class ZooKeeperDriver implements LockClientDriver {
  private op: ZkOp | null = null;
  private nextId = 1;
  private session: { readonly id: number; readonly timeoutMs: number } | null = null;
  /** The send time of the newest ping answered (or the connect): the session lasts a timeout from it, by the client's count. */
  private aliveSince = 0;
  private nextPingMs = 0;
  private readonly pings = new Map<number, number>();
  /** Its child under each lock node: path and zxid. */
  private readonly mine = new Map<string, { readonly path: string; readonly zxid: number }>();
  private deferred: 'granted' | 'not-found' | null = null;
  /**
   * Watch events that arrived before the reply that set the watch. ZooKeeper's session is one TCP
   * stream, so a client always reads the reply first and then the event (ZooKeeper Programmer's
   * Guide, "ZooKeeper Watches": a client sees a watch event before the new data, and in order); here
   * each message has its own latency, so the event can overtake the reply. Remembered, it wakes the
   * waiter as soon as it starts to wait on that path, instead of being lost.
   */
  private readonly early = new Set<string>();

  constructor(
    private readonly seat: LockSeat,
    private readonly cluster: Cluster,
    private readonly herd: boolean,
  ) {}

  start(op: 'acquire' | 'release', key: string, leaseMs: number): void {
    const now = this.cluster.nowMs;
    this.early.clear();
    this.deferred = null;
    this.op = {
      kind: op,
      key,
      leaseMs,
      firstSentAt: now,
      phase: 'connect',
      id: 0,
      sentAt: now,
      retryAt: Infinity,
      rounds: 0,
      watching: null,
    };
    if (op === 'acquire' && this.seat.holdings.has(key))
      this.deferred = 'granted'; // re-entrant, as Curator's mutex
    else if (op === 'release' && !this.mine.has(key)) this.deferred = 'not-found';
    else this.next();
  }

  /** The recipe's next request. */
  private next(): void {
    const o = this.op;
    if (o === null) return;
    if (this.session === null)
      return this.request('connect', rpc({ op: 'connect', id: this.nextId, timeoutMs: o.leaseMs > 0 ? o.leaseMs : 10_000 }));
    const session = this.session.id;
    const parent = lockNode(o.key);
    const mine = this.mine.get(o.key);
    if (o.kind === 'release') {
      if (mine === undefined) return this.done('not-found');
      return this.request('delete', rpc({ op: 'delete', id: this.nextId, session, path: mine.path }));
    }
    if (mine === undefined) return this.request('create', rpc({ op: 'create', id: this.nextId, session, parent }));
    if (o.phase === 'exists' && o.watching !== null)
      return this.request('exists', rpc({ op: 'exists', id: this.nextId, session, path: o.watching }));
    this.request('children', rpc({ op: 'children', id: this.nextId, session, parent, watch: this.herd }));
  }

  private request(phase: Phase, msg: ZkRpc): void {
    const o = this.op;
    if (o === null) return;
    o.phase = phase;
    o.id = this.nextId++;
    o.sentAt = this.cluster.nowMs;
    o.retryAt = o.sentAt + SERVICE_RETRY_MS;
    o.rounds++;
    this.seat.status = `${phase} ${o.key} via ${this.seat.believedLeader}`;
    this.cluster.send(this.seat.id, this.seat.believedLeader, { ...msg, id: o.id } as ZkRpc);
  }

  onMessage(src: string, msg: ServiceRpc): void {
    if (msg.service !== 'zk') return;
    if (msg.op === 'event') return this.onEvent(msg.path);
    if (msg.op !== 'reply') return;
    const pingSent = this.pings.get(msg.id);
    if (pingSent !== undefined) {
      this.pings.delete(msg.id);
      if (msg.expired === true) return this.sessionLost();
      if (msg.notLeader === true) return this.moveTo(msg.hint ?? nextServer(this.cluster.config.nodeIds, src));
      if (msg.ok) this.renewed(pingSent);
      return;
    }
    const o = this.op;
    if (o === null || msg.id !== o.id) return;
    if (msg.notLeader === true) {
      this.seat.believedLeader = msg.hint ?? nextServer(this.cluster.config.nodeIds, src);
      return this.next();
    }
    if (msg.expired === true) return this.sessionLost();
    this.seat.believedLeader = src;
    switch (o.phase) {
      case 'connect':
        this.session = { id: msg.session ?? 0, timeoutMs: o.leaseMs > 0 ? o.leaseMs : 10_000 };
        this.aliveSince = o.sentAt;
        this.nextPingMs = this.cluster.nowMs + this.session.timeoutMs / 3;
        return this.next();
      case 'create':
        this.mine.set(o.key, { path: msg.path ?? '', zxid: msg.zxid ?? 0 });
        return this.next();
      case 'children': {
        const mine = this.mine.get(o.key);
        const children = msg.children ?? [];
        const at = children.findIndex((c) => c.path === mine?.path);
        if (mine === undefined || at < 0) {
          // Its child is gone (its session closed and it did not learn yet): start over.
          this.mine.delete(o.key);
          return this.next();
        }
        if (at === 0) return this.granted(mine.zxid);
        if (this.herd) {
          o.phase = 'wait';
          o.watching = lockNode(o.key);
          o.retryAt = Infinity;
          this.seat.status = `waits for any change under ${lockNode(o.key)}`;
          return this.wokenEarly();
        }
        o.watching = children[at - 1].path;
        return this.request('exists', rpc({ op: 'exists', id: 0, session: this.session?.id ?? 0, path: o.watching }));
      }
      case 'exists':
        if (msg.exists === false) {
          o.watching = null;
          return this.request(
            'children',
            rpc({ op: 'children', id: 0, session: this.session?.id ?? 0, parent: lockNode(o.key), watch: this.herd }),
          );
        }
        o.phase = 'wait';
        o.retryAt = Infinity;
        this.seat.status = `waits for ${o.watching ?? '?'} to go`;
        return this.wokenEarly();
      case 'delete':
        this.mine.delete(o.key);
        return this.done(msg.ok ? 'released' : 'not-found');
      default:
        return;
    }
  }

  /** A watch fired: look at the children again (the recipe's step 2). */
  private onEvent(path: string): void {
    const o = this.op;
    if (o === null) return;
    if (o.phase !== 'wait') {
      this.early.add(path);
      return;
    }
    if (o.watching !== path) return;
    o.watching = null;
    this.request('children', rpc({ op: 'children', id: 0, session: this.session?.id ?? 0, parent: lockNode(o.key), watch: this.herd }));
  }

  /** The waiter starts to wait: if the event it waits for already came, it reads again now. */
  private wokenEarly(): void {
    const o = this.op;
    if (o === null || o.watching === null || !this.early.has(o.watching)) return;
    this.early.clear();
    this.onEvent(o.watching);
  }

  private granted(zxid: number): void {
    const o = this.op;
    if (o === null) return;
    this.op = null;
    const s = this.session;
    const deadline = (s === null ? o.firstSentAt : this.aliveSince) + (s?.timeoutMs ?? o.leaseMs);
    this.seat.finish({ outcome: 'granted', token: zxid, deadline, grant: null, rounds: o.rounds });
  }

  private done(outcome: 'released' | 'not-found' | 'busy'): void {
    const o = this.op;
    this.op = null;
    this.seat.finish({ outcome, token: null, deadline: null, grant: null, rounds: o?.rounds ?? 0 });
  }

  /** A ping was answered: by the client's count the session lasts a timeout from when it sent it. */
  private renewed(sentAt: number): void {
    const s = this.session;
    if (s === null || sentAt <= this.aliveSince) return;
    this.aliveSince = sentAt;
    for (const key of this.mine.keys()) this.seat.extend(key, sentAt + s.timeoutMs);
  }

  /** The session is gone (the ensemble closed it, or the client's own count ran out): so is every lock on it. */
  private sessionLost(): void {
    this.session = null;
    this.pings.clear();
    for (const key of [...this.seat.holdings.keys()]) this.seat.lose(key, 'session-expired');
    this.mine.clear();
    // A re-entrant grant not yet delivered is void: the lock went with the session.
    this.deferred = null;
    const o = this.op;
    if (o !== null) {
      if (o.kind === 'release') return this.done('not-found');
      // A waiter starts over with a new session (the recipe's caller would retry).
      o.watching = null;
      this.next();
    }
  }

  /**
   * The client connects to another server (the one it was pointed at, or the next): a watch lives
   * on the server that set it, so a waiter reads again there, which sets it again.
   */
  private moveTo(server: string): void {
    this.seat.believedLeader = server;
    this.pings.clear();
    const o = this.op;
    if (o !== null && o.phase === 'wait') {
      o.watching = o.watching !== null && this.herd ? null : o.watching;
      o.phase = o.watching !== null ? 'exists' : 'children';
      this.next();
    }
  }

  tick(now: number, paused: boolean): void {
    if (paused) return;
    const s = this.session;
    if (s !== null) {
      if (now >= this.aliveSince + s.timeoutMs) return this.sessionLost();
      // A ping unanswered for a retry interval: the connection is taken for lost; try the next server.
      for (const sent of this.pings.values())
        if (now - sent >= SERVICE_RETRY_MS) return this.moveTo(nextServer(this.cluster.config.nodeIds, this.seat.believedLeader));
      if (now >= this.nextPingMs) {
        this.nextPingMs = now + s.timeoutMs / 3;
        const id = this.nextId++;
        this.pings.set(id, now);
        this.cluster.send(this.seat.id, this.seat.believedLeader, rpc({ op: 'ping', id, session: s.id }));
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
      // No answer: try the next server, and ask again there.
      this.seat.believedLeader = nextServer(this.cluster.config.nodeIds, this.seat.believedLeader);
      this.next();
    }
  }

  crashed(): void {
    // The session lives on in the ensemble until it times out: nobody closes it.
    this.session = null;
    this.op = null;
    this.pings.clear();
    this.mine.clear();
    this.deferred = null;
  }
}
