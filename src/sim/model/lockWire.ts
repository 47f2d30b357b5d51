/**
 * The other lock services' words (issue 26): the messages their clients and servers exchange
 * (one message type, `ServiceRpc`, told apart by `service` and `op`), and the commands the two
 * services on the Raft engine put in its log. Each follows the real system's request it is named
 * after; docs/semantics.md says what each leaves out.
 */

interface Rpc<S extends string, O extends string> {
  readonly type: 'ServiceRpc';
  readonly service: S;
  readonly op: O;
}

/**
 * Redis, one instance with an optional replica, and each of Redlock's independent instances.
 * `id` matches a reply to its request; `seq` on a successful SET is the lab's bookkeeping (the
 * grant's number in the clients' history), never read by the client.
 */
export type RedisRpc =
  /** SET key value NX PX pxMs. */
  | (Rpc<'redis', 'set'> & { readonly id: number; readonly key: string; readonly value: string; readonly pxMs: number })
  /** The release script: if GET key == value then DEL key (the page's compare-and-delete). */
  | (Rpc<'redis', 'cad'> & { readonly id: number; readonly key: string; readonly value: string })
  /** A plain DEL key (bug release-without-compare). */
  | (Rpc<'redis', 'del'> & { readonly id: number; readonly key: string })
  /** `ok`: OK / 1; not ok: nil / 0; `readonly`: a replica's "-READONLY You can't write against a read only replica". */
  | (Rpc<'redis', 'reply'> & { readonly id: number; readonly ok: boolean; readonly readonly?: true; readonly seq?: number })
  /** Primary → replica, the replication stream: a SET with its absolute expiry (PXAT, by the primary's clock) or a DEL (value null). */
  | (Rpc<'redis', 'repl'> & {
      readonly epoch: number;
      readonly key: string;
      readonly value: string | null;
      readonly expiresAtMs: number | null;
      /** Bookkeeping: the grant's number in the history (see `seq` above). */
      readonly seq: number;
    })
  /** A primary's heartbeat to the others (replication PING, and Sentinel's view of who is primary). */
  | (Rpc<'redis', 'ping'> & { readonly epoch: number; readonly runId: number })
  /** A replica asks the primary for a full resynchronisation (its primary restarted, or it was demoted). */
  | (Rpc<'redis', 'sync-request'> & { readonly epoch: number })
  /** The primary's whole dataset (the RDB transfer of a full sync). */
  | (Rpc<'redis', 'sync'> & {
      readonly epoch: number;
      readonly runId: number;
      readonly keys: readonly { readonly key: string; readonly value: string; readonly expiresAtMs: number; readonly seq: number }[];
    });

/** ZooKeeper: the client's requests to the server it is connected to, and the server's answers and watch events. */
export type ZkRpc =
  | (Rpc<'zk', 'connect'> & { readonly id: number; readonly timeoutMs: number })
  | (Rpc<'zk', 'ping'> & { readonly id: number; readonly session: number })
  /** Create an ephemeral sequential child of `parent` (`parent/lock-0000000003`). */
  | (Rpc<'zk', 'create'> & { readonly id: number; readonly session: number; readonly parent: string })
  /** getChildren(parent, watch). */
  | (Rpc<'zk', 'children'> & { readonly id: number; readonly session: number; readonly parent: string; readonly watch: boolean })
  /** exists(path, watch=true). */
  | (Rpc<'zk', 'exists'> & { readonly id: number; readonly session: number; readonly path: string })
  | (Rpc<'zk', 'delete'> & { readonly id: number; readonly session: number; readonly path: string })
  /**
   * The answer to request `id`: `ok` false with `expired` for a session the ensemble closed, with
   * `hint` for a server that does not lead; otherwise the request's result (session, path and
   * zxid, children with their creation zxids, whether a path exists).
   */
  | (Rpc<'zk', 'reply'> & {
      readonly id: number;
      readonly ok: boolean;
      readonly expired?: true;
      readonly notLeader?: true;
      readonly hint?: string | null;
      readonly session?: number;
      readonly path?: string;
      readonly zxid?: number;
      readonly children?: readonly { readonly path: string; readonly zxid: number }[];
      readonly exists?: boolean;
    })
  /** A one-shot watch fired: `path` was deleted (an exists watch) or `path`'s children changed (a getChildren watch). */
  | (Rpc<'zk', 'event'> & { readonly path: string; readonly event: 'deleted' | 'children' });

/** etcd v3: leases, the lock's create-if-absent transaction, range, delete and watch. */
export type EtcdRpc =
  | (Rpc<'etcd', 'lease-grant'> & { readonly id: number; readonly ttlMs: number })
  | (Rpc<'etcd', 'keepalive'> & { readonly id: number; readonly lease: number })
  /** Txn: if create_revision(key) == 0 then put(key, lease) else get(key); then the lowest create revision under the prefix. */
  | (Rpc<'etcd', 'txn-lock'> & { readonly id: number; readonly prefix: string; readonly key: string; readonly lease: number })
  /** Range over the prefix for the key created just before `below` (the waiter's predecessor). */
  | (Rpc<'etcd', 'range-before'> & { readonly id: number; readonly prefix: string; readonly below: number })
  | (Rpc<'etcd', 'delete'> & { readonly id: number; readonly key: string })
  /** Watch `key` for its deletion from `fromRevision` on (a watch resumes from a revision). */
  | (Rpc<'etcd', 'watch-delete'> & { readonly id: number; readonly key: string; readonly fromRevision: number })
  | (Rpc<'etcd', 'reply'> & {
      readonly id: number;
      readonly ok: boolean;
      readonly notLeader?: true;
      readonly hint?: string | null;
      /** The lease is gone (expired and revoked): keep-alive answered with TTL 0. */
      readonly leaseGone?: true;
      readonly lease?: number;
      readonly ttlMs?: number;
      /** The revision of the key space when the request applied. */
      readonly revision?: number;
      /** The caller's key's create revision (the lock's token). */
      readonly createRevision?: number;
      /** The key created just before the caller's under the prefix, or null: the caller owns the lock. */
      readonly before?: { readonly key: string; readonly createRevision: number } | null;
    })
  | (Rpc<'etcd', 'event'> & { readonly key: string; readonly revision: number });

/** A PostgreSQL-style database: a session (connection), advisory locks, keep-alive probes, a replica's WAL stream. */
export type PgRpc =
  /** Open a session; `timeoutMs` is its connection's keep-alive timeout (idle plus probes). */
  | (Rpc<'pg', 'connect'> & { readonly id: number; readonly timeoutMs: number })
  /** The client's kernel closes the connection (its process died): the server ends the session at once. */
  | (Rpc<'pg', 'close'> & { readonly session: number })
  /** pg_try_advisory_lock(key) and, in the same transaction, UPDATE lock_versions SET v = v + 1 RETURNING v. */
  | (Rpc<'pg', 'try-lock'> & { readonly id: number; readonly session: number; readonly key: string })
  | (Rpc<'pg', 'unlock'> & { readonly id: number; readonly session: number; readonly key: string })
  | (Rpc<'pg', 'reply'> & {
      readonly id: number;
      readonly ok: boolean;
      /** The session is gone (the connection was closed). */
      readonly noSession?: true;
      /** A replica in recovery refuses writes. */
      readonly readOnly?: true;
      readonly session?: number;
      readonly version?: number;
    })
  /** The server's TCP keep-alive probe on a session's connection; the client's kernel acknowledges it. */
  | (Rpc<'pg', 'probe'> & { readonly session: number })
  | (Rpc<'pg', 'probe-ack'> & { readonly session: number })
  /** Primary → replica: the WAL stream (a row version), and its heartbeat. */
  | (Rpc<'pg', 'wal'> & { readonly timeline: number; readonly key: string | null; readonly version: number });

/** Gossip: a member's table of heartbeat counters and what each member contends for. */
export type GossipRpc = Rpc<'gossip', 'digest'> & {
  readonly members: readonly { readonly id: string; readonly heartbeat: number; readonly contends: readonly string[] }[];
};

export type ServiceRpc = RedisRpc | ZkRpc | EtcdRpc | PgRpc | GossipRpc;

/** ZooKeeper's writes, as entries of the Raft log (the ensemble's atomic broadcast; Zab's own protocol is left out). */
export type ZkCommand =
  | { readonly type: 'zk-open'; readonly client: string; readonly timeoutMs: number; readonly requestId: number }
  | { readonly type: 'zk-close'; readonly session: number; readonly reason: 'expired' | 'closed' }
  | { readonly type: 'zk-create'; readonly session: number; readonly parent: string; readonly client: string; readonly requestId: number }
  | { readonly type: 'zk-delete'; readonly session: number; readonly path: string; readonly client: string; readonly requestId: number };

/** etcd's writes as entries of the Raft log; the revision counts them. */
export type EtcdCommand =
  | { readonly type: 'etcd-grant'; readonly client: string; readonly ttlMs: number; readonly requestId: number }
  | { readonly type: 'etcd-revoke'; readonly lease: number; readonly reason: 'expired' }
  | {
      readonly type: 'etcd-txn';
      readonly prefix: string;
      readonly key: string;
      readonly lease: number;
      readonly client: string;
      readonly requestId: number;
    }
  | { readonly type: 'etcd-delete'; readonly key: string; readonly client: string; readonly requestId: number }
  /** A linearizable range, through the log like a write (as etcd's default reads confirm leadership first). */
  | { readonly type: 'etcd-range'; readonly prefix: string; readonly below: number; readonly client: string; readonly requestId: number };

export type CoordCommand = ZkCommand | EtcdCommand;

/** What applying a ZooKeeper or etcd entry gave, for the leader's answer and the checkers. */
export interface CoordResult {
  readonly type: 'Coord';
  readonly ok: boolean;
  /** A session or lease id (open, grant), a path or key (create, txn), a zxid or create revision. */
  readonly session?: number;
  readonly lease?: number;
  readonly path?: string;
  readonly zxid?: number;
  readonly revision?: number;
  readonly createRevision?: number;
  readonly before?: { readonly key: string; readonly createRevision: number } | null;
  /** What a close or revoke removed. */
  readonly removed?: readonly string[];
}

const COORD_TYPES: ReadonlySet<string> = new Set([
  'zk-open',
  'zk-close',
  'zk-create',
  'zk-delete',
  'etcd-grant',
  'etcd-revoke',
  'etcd-txn',
  'etcd-delete',
  'etcd-range',
]);

/** Whether a log command is one of ZooKeeper's or etcd's. */
export function isCoordType(type: string): boolean {
  return COORD_TYPES.has(type);
}

/** A message of another lock service in a few words, for tooltips, traces and the Why panel. */
export function rpcLabel(m: ServiceRpc): string {
  switch (m.service) {
    case 'redis':
      switch (m.op) {
        case 'set':
          return `SET ${m.key} ${m.value} NX PX ${m.pxMs}`;
        case 'cad':
          return `release script ${m.key} (delete if ${m.value})`;
        case 'del':
          return `DEL ${m.key}`;
        case 'reply':
          return m.readonly === true ? '-READONLY (a replica)' : m.ok ? 'OK' : 'nil';
        case 'repl':
          return m.value === null ? `replicate DEL ${m.key}` : `replicate SET ${m.key} ${m.value} PXAT ${m.expiresAtMs ?? '-'}`;
        case 'ping':
          return `PING (epoch ${m.epoch})`;
        case 'sync-request':
          return 'PSYNC (full resync)';
        case 'sync':
          return `full sync: ${m.keys.length} key${m.keys.length === 1 ? '' : 's'}`;
      }
      break;
    case 'zk':
      switch (m.op) {
        case 'connect':
          return `connect (session timeout ${m.timeoutMs} ms)`;
        case 'ping':
          return `ping session ${m.session}`;
        case 'create':
          return `create ${m.parent}/lock- ephemeral sequential`;
        case 'children':
          return `getChildren ${m.parent}${m.watch ? ' watch' : ''}`;
        case 'exists':
          return `exists ${m.path} watch`;
        case 'delete':
          return `delete ${m.path}`;
        case 'reply':
          return m.expired === true
            ? 'session expired'
            : m.notLeader === true
              ? `not the leader${m.hint ? ` (try ${m.hint})` : ''}`
              : m.path !== undefined
                ? `created ${m.path} (zxid ${m.zxid ?? '?'})`
                : m.children !== undefined
                  ? `children: ${m.children.map((c) => c.path.slice(c.path.lastIndexOf('/') + 1)).join(', ') || 'none'}`
                  : m.exists !== undefined
                    ? m.exists
                      ? 'exists'
                      : 'does not exist'
                    : m.session !== undefined
                      ? `session ${m.session}`
                      : m.ok
                        ? 'ok'
                        : 'refused';
        case 'event':
          return m.event === 'deleted' ? `watch: ${m.path} deleted` : `watch: children of ${m.path} changed`;
      }
      break;
    case 'etcd':
      switch (m.op) {
        case 'lease-grant':
          return `LeaseGrant ttl ${m.ttlMs} ms`;
        case 'keepalive':
          return `LeaseKeepAlive ${m.lease}`;
        case 'txn-lock':
          return `Txn if create_revision(${m.key}) = 0 then put (lease ${m.lease})`;
        case 'range-before':
          return `Range ${m.prefix} created before ${m.below}`;
        case 'delete':
          return `DeleteRange ${m.key}`;
        case 'watch-delete':
          return `Watch ${m.key} from revision ${m.fromRevision}`;
        case 'reply':
          return m.notLeader === true
            ? `not the leader${m.hint ? ` (try ${m.hint})` : ''}`
            : m.leaseGone === true
              ? 'lease not found (TTL 0)'
              : m.createRevision !== undefined
                ? `create revision ${m.createRevision}${m.before === null ? ', owner' : m.before !== undefined ? `, waits for ${m.before.key}` : ''}`
                : m.lease !== undefined
                  ? `lease ${m.lease}, ttl ${m.ttlMs ?? '?'} ms`
                  : m.ok
                    ? 'ok'
                    : 'refused';
        case 'event':
          return `watch: ${m.key} deleted at revision ${m.revision}`;
      }
      break;
    case 'pg':
      switch (m.op) {
        case 'connect':
          return `connect (keep-alive timeout ${m.timeoutMs} ms)`;
        case 'close':
          return `FIN: session ${m.session}'s connection closes`;
        case 'try-lock':
          return `SELECT pg_try_advisory_lock(${m.key})`;
        case 'unlock':
          return `SELECT pg_advisory_unlock(${m.key})`;
        case 'reply':
          return m.noSession === true
            ? 'connection closed'
            : m.readOnly === true
              ? 'read-only (a replica in recovery)'
              : m.version !== undefined
                ? `${m.ok ? 't' : 'f'}, row version ${m.version}`
                : m.session !== undefined
                  ? `connected, session ${m.session}`
                  : m.ok
                    ? 't'
                    : 'f';
        case 'probe':
          return `TCP keep-alive probe (session ${m.session})`;
        case 'probe-ack':
          return `keep-alive ACK (session ${m.session})`;
        case 'wal':
          return m.key === null ? `WAL heartbeat (timeline ${m.timeline})` : `WAL: version of ${m.key} = ${m.version}`;
      }
      break;
    case 'gossip':
      return `gossip: ${m.members.map((x) => `${x.id}:${x.heartbeat}`).join(' ')}`;
  }
}

/** A background message (a ping, a keep-alive, a probe, replication, gossip): drawn like a heartbeat. */
export function rpcIsBackground(m: ServiceRpc): boolean {
  switch (m.op) {
    case 'ping':
    case 'keepalive':
    case 'probe':
    case 'probe-ack':
    case 'wal':
    case 'repl':
    case 'sync':
    case 'sync-request':
    case 'digest':
      return true;
    default:
      return false;
  }
}

/** An answer or a watch event to a client (drawn as a reply). */
export function rpcIsAnswer(m: ServiceRpc): boolean {
  return m.op === 'reply' || m.op === 'event';
}

/** A message's own fields, without `type` and `service` (each service's `rpc` helper adds them). */
export type RpcBody<R> = R extends ServiceRpc ? Omit<R, 'type' | 'service'> : never;
