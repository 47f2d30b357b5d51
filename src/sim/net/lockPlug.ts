/**
 * How a lock service other than the chapter's plugs in (issue 26). The clients, the two stores
 * and the clients' history stay the lock service's (src/sim/service/lockService.ts), the same for
 * every service; a backend (src/sim/locks/) brings the servers and, for each client, a driver:
 * the client-side half of the service's protocol (sessions and pings, keep-alives, watches, a
 * majority of instances). These are the words both sides speak; they live below both wings.
 */
import type { Cluster } from './cluster';
import type { History } from '../model/history';
import type { LockServiceName } from '../model/lockServices';
import type { RaftNode } from '../raft/node';
import type { ApplyResult, LogEntry, Message, ServiceRpc } from '../model/types';

/** What an acquire or release a driver ran came to, as its client is told. */
export interface LockOpResult {
  readonly outcome: 'granted' | 'busy' | 'released' | 'not-found' | 'not-holder';
  /** The fencing token granted, or null: none (a service without one, or not granted). */
  readonly token: number | null;
  /** Granted: when the client's own lease ends, counted from when it asked. */
  readonly deadline: number | null;
  /**
   * A service without a token: the grant's number in the clients' history (bookkeeping, so the
   * history checker can order grants and the unfenced store's writes); null otherwise.
   */
  readonly grant: number | null;
  /** Round trips the client waited through (requests sent in parallel count once). */
  readonly rounds: number;
}

/** What a driver sees of its client (ClientActor): who it is, its lease view, and how to answer. */
export interface LockSeat {
  readonly id: string;
  readonly alive: boolean;
  paused(now: number): boolean;
  /** One line of what the client is doing, for the page. */
  status: string;
  /** The server the client talks to (the one it believes leads, or its primary). */
  believedLeader: string;
  readonly holdings: ReadonlyMap<string, { readonly token: number | null; readonly deadline: number }>;
  /** The acquire or release the driver was started on is over. */
  finish(result: LockOpResult): void;
  /** The client learned that it no longer holds `key` (its session expired, its connection died). */
  lose(key: string, why: LossReason): void;
  /** A renewal was answered: the client's own lease on `key` now ends at `deadline`. */
  extend(key: string, deadline: number): void;
}

export type LossReason = 'session-expired' | 'lease-gone' | 'connection-lost' | 'lease-ran-out' | 'not-leader-any-more';

/** The client-side half of a lock service's protocol, one per client. */
export interface LockClientDriver {
  /** The client starts an acquire or a release; the driver answers with `seat.finish`, never from inside this call. */
  start(op: 'acquire' | 'release', key: string, leaseMs: number): void;
  /** A message for the client's process (held in its inbox while it is paused). */
  onMessage(src: string, msg: ServiceRpc): void;
  /** Handled below the process, by its kernel, even while it is paused (TCP keep-alive); true when taken. */
  kernel?(src: string, msg: ServiceRpc): boolean;
  /** Every simulated ms while the client is up; `paused`: the process is stopped, so only kernel work may run. */
  tick(now: number, paused: boolean): void;
  /** The process died: its connections, sessions and pending requests are gone. */
  crashed(): void;
}

/** What a backend works with: the cluster (network, clock, events), the clients' history. */
export interface LockHost {
  readonly cluster: Cluster;
  readonly history: History;
  readonly clientIds: readonly string[];
}

/** A lock service's servers (for a service on the Raft engine, the Raft hooks too). */
/**
 * One row of a service's lock table as the Locks panel shows it (issue 26): who holds or waits
 * for which key, where, with what token, in the system's own terms.
 */
export interface LockRow {
  readonly key: string;
  /** The server whose copy this is (Redis instances, database servers, gossip members), or null for a replicated tree. */
  readonly server: string | null;
  /** The client, or "nobody". */
  readonly client: string;
  /** "holds", "waits", "leads" (gossip's view), or "—" when the copy says nothing of it. */
  readonly state: 'holds' | 'waits' | 'leads';
  /** The token as the system names it ("zxid 7", "revision 3", "version 2"), or "none". */
  readonly token: string;
  /** The rest, short: "lock-0000000001, watches lock-0000000000", "expires in 812 ms by its clock". */
  readonly note: string;
}

/** One server of a service without Raft, as the page draws it. */
export interface ServerFacts {
  /** Its part, in its system's word: "primary", "replica", "instance", "member". */
  readonly role: string;
  /** What it holds, in a few characters for inside its glyph: "job: A-1", "3 keys", "no keys". */
  readonly holds: string;
  /** The same at length, as the CLI's closing line says it (for the node's Why and the servers' panel). */
  readonly line: string;
}

/** A few characters for what a server holds: the one key and whose it is, or how many. */
export function holdsText(entries: readonly (readonly [key: string, value: string])[], none: string): string {
  if (entries.length === 0) return none;
  if (entries.length === 1) return `${entries[0][0]}: ${entries[0][1]}`;
  return `${entries.length} keys`;
}

export interface LockBackend {
  readonly service: LockServiceName;
  driverFor(seat: LockSeat): LockClientDriver;
  /** A message to one of the servers (a node id) that is not a Raft RPC. */
  onServerMessage(dst: string, src: string, msg: Message): void;
  /** Once per simulated ms, after the clients ticked. */
  tick(): void;
  /** A server restarted (with or without what it persisted). */
  onRestart(node: RaftNode): void;
  /** Faults stop (`calm`): what the service itself must do, if anything. */
  calm?(): void;
  /** Services on the Raft engine: apply a committed entry to `node`'s copy, and act on it. */
  apply?(node: RaftNode, index: number, entry: LogEntry): ApplyResult;
  onApplied?(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void;
  /** The closing lines of a run: what each server holds (the CLI prints them instead of Raft's for a service without Raft). */
  summaryLines(): string[];
  /**
   * A service without Raft: what server `index` is and holds, for the diagram, which would
   * otherwise draw it as a Raft follower in term 0 (services on the Raft engine leave it out).
   */
  serverFacts?(index: number): ServerFacts;
  /** What the service holds now, per key, for the Locks panel (the chapter's service has its own table). */
  lockRows(): LockRow[];
  /** Whether `client`'s write (with its token, or its grant when the service has none) still holds `lockKey` by the service's state. */
  stillHolds(client: string, lockKey: string | null, token: number | null, grant: number | null): boolean;
}

/** Makes a backend for a run: src/sim/run/ picks it by the run's lock service. */
export type LockBackendFactory = (host: LockHost) => LockBackend;
