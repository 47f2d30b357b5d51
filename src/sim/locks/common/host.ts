/**
 * What every service's servers and drivers share: how they log, how the service's own frees of a
 * lock enter the clients' history, and how a client's request is retried and moved on to another
 * server. Nothing here knows a service; each service's folder says what its messages mean.
 */
import type { Cluster } from '../../net/cluster';
import type { EventKind } from '../../model/events';
import type { History } from '../../model/history';
import type { Message } from '../../model/types';
import type { LockOpResult, LockSeat } from '../../net/lockPlug';

/** A client that hears nothing for this long tries the next server (as the chapter's client does). */
export const SERVICE_RETRY_MS = 300;

export function logEvent(cluster: Cluster, text: string, kind: EventKind, subjects: readonly string[]): void {
  cluster.logEvent(text, kind, subjects);
}

/**
 * The service freed a lock on its own (an expiry, a key lost on restart or failover, a session's
 * close): an operation of the service in the history, like the chapter's Expire, naming the
 * grant's token (or its number, for a service without tokens). It took effect at once.
 */
export function recordFree(history: History, server: string, key: string, token: number, nowMs: number): void {
  const op = history.invoke(server, 'expire', key, nowMs, { token });
  history.complete(op, nowMs, 'expired');
}

/** The server after `id` in `ids` (where a client looks next). */
export function nextServer(ids: readonly string[], id: string): string {
  return ids[(ids.indexOf(id) + 1) % ids.length];
}

/** Sends `msg` from `src` to `dst` on the cluster's network (latency, loss, partitions apply). */
export function send(cluster: Cluster, src: string, dst: string, msg: Message): void {
  cluster.send(src, dst, msg);
}

/** Whether any server's clock drifts (a lease timed on it may end early or late: findings, not failures). */
export function anyDrift(cluster: Cluster): boolean {
  return cluster.driftPct.some((p) => p !== 0);
}

/**
 * What a client of a re-entrant recipe (ZooKeeper's, etcd's: Curator's and the concurrency Mutex's)
 * answers at its next tick without asking the service: an acquire of a lock it holds is granted
 * its own token again, a release of a lock it does not hold is "not found". Null: the holding to
 * re-grant is gone since (its session or lease ended), so the client takes the lock anew.
 */
export function deferredAnswer(seat: LockSeat, key: string, deferred: 'granted' | 'not-found'): LockOpResult | null {
  if (deferred === 'not-found') return { outcome: 'not-found', token: null, deadline: null, grant: null, rounds: 0 };
  const h = seat.holdings.get(key);
  return h === undefined ? null : { outcome: 'granted', token: h.token, deadline: h.deadline, grant: null, rounds: 0 };
}
