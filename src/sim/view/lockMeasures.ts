/**
 * What every run with clients measures of its lock service (issue 26), the same in `--json`, the
 * page and experiments: when two clients each believed they held one lock (from their own view,
 * service/holds.ts), the writes the unfenced store took out of order, the stale writes the fenced
 * store refused, the time from a holder's crash or pause to the next grant, and the messages and
 * round trips an acquire cost. Pure: it reads the run and changes nothing.
 */
import { hasTokens, lockOf, type LockServiceName } from '../model/config';
import type { HistoryOp } from '../model/history';
import type { Simulation } from '../run/simulation';
import { overlapsOf, type HoldRecord, type Overlap } from '../service/holds';
import { ZooKeeperBackend } from '../locks/zookeeper/backend';
import type { ClusterTracer } from '../net/cluster';
import type { Message } from '../model/types';
import { rpcIsBackground } from '../model/lockWire';

/**
 * Counts the messages operations cause (a cluster's tracer: it only observes): client requests
 * and answers, AppendEntries that carry entries and the replies they cause, another service's
 * requests, answers, watch events and replication of a write. Background traffic — heartbeats and
 * their replies, elections, pings, keep-alives, probes, gossip — is left out, and so are the
 * stores' writes: what is left is what an acquire or a release costs on the wire.
 */
export class MessageTally implements ClusterTracer {
  foreground = 0;
  private readonly causedBy = new Set<number>();
  private cause: number | null = null;

  sent(id: number, _sentAt: number, _dueAt: number, _src: string, _dst: string, msg: Message): void {
    if (this.foregroundMessage(msg)) {
      this.foreground++;
      this.causedBy.add(id);
    }
  }

  private foregroundMessage(msg: Message): boolean {
    switch (msg.type) {
      case 'ClientRequest':
      case 'ClientReply':
        return true;
      case 'AppendEntries':
        return msg.entries.length > 0;
      case 'AppendReply':
        return this.cause !== null && this.causedBy.has(this.cause);
      case 'ServiceRpc':
        return !rpcIsBackground(msg) || ((msg.op === 'repl' || msg.op === 'wal') && 'key' in msg && msg.key !== null);
      default:
        return false;
    }
  }

  delivering(id: number): void {
    this.cause = id;
  }

  dropped(id: number): void {
    this.causedBy.delete(id);
  }

  deliveriesDone(): void {
    if (this.cause !== null) this.causedBy.delete(this.cause);
    this.cause = null;
  }

  afterStep(): void {}
}

export type { Overlap };

/** A holder crashed or paused; how long until another client was granted the lock (null: never, in the run). */
export interface FailoverMeasure {
  readonly client: string;
  readonly key: string;
  readonly cause: 'crash' | 'pause';
  readonly atMs: number;
  readonly nextGrantMs: number | null;
}

export interface LockMeasures {
  readonly service: LockServiceName;
  /** Whether the service issues fencing tokens. */
  readonly tokens: boolean;
  readonly overlaps: readonly Overlap[];
  /** Writes the unfenced store took although a later holder's write for that key had already been taken. */
  readonly unfencedOutOfOrder: number;
  /** Writes the fenced store took out of order (a token below one it had taken): none, while tokens only increase. */
  readonly fencedStaleAccepted: number;
  /** Writes the fenced store refused for a token below the highest it had accepted (stale). */
  readonly fencedStaleRefused: number;
  /** Writes the fenced store refused for carrying no token at all (a service without tokens: every write). */
  readonly fencedNoTokenRefused: number;
  readonly failovers: readonly FailoverMeasure[];
  readonly acquires: number;
  readonly granted: number;
  /**
   * Messages operations caused (MessageTally: no heartbeats, pings or keep-alives, no store writes)
   * over granted acquires; null when the run was not tallied or granted nothing.
   */
  readonly messagesPerAcquire: number | null;
  /** Mean round trips a granted acquire waited through. */
  readonly roundTripsPerAcquire: number | null;
  /** ZooKeeper: watch notifications per release of a lock's holder (the herd effect: N against 1). */
  readonly notificationsPerRelease?: number | null;
}

/** The run's lock measures, or null in a run without clients. */
export function lockMeasures(sim: Simulation, tally: MessageTally | null = null): LockMeasures | null {
  const service = sim.lockService;
  if (service === null) return null;
  const cluster = sim.cluster;
  const now = cluster.nowMs;
  const holds = service.holds.holds;
  const config = cluster.config;
  const acquires = [...service.clients.values()].flatMap((c) => c.acquires);
  const granted = acquires.filter((a) => a.granted);
  const messages = tally?.foreground ?? null;
  const out: LockMeasures = {
    service: lockOf(config),
    tokens: hasTokens(config),
    overlaps: overlapsOf(holds, now),
    unfencedOutOfOrder: outOfOrder(service.history.ops, 'unfenced'),
    fencedStaleAccepted: outOfOrder(service.history.ops, 'fenced'),
    fencedStaleRefused: service.fenced.writes.filter((w) => !w.accepted && w.token !== null).length,
    fencedNoTokenRefused: service.fenced.writes.filter((w) => !w.accepted && w.token === null).length,
    failovers: failoversOf(sim, holds),
    acquires: acquires.length,
    granted: granted.length,
    messagesPerAcquire: granted.length > 0 && messages !== null ? round(messages / granted.length) : null,
    roundTripsPerAcquire: granted.length > 0 ? round(granted.reduce((s, a) => s + a.rounds, 0) / granted.length) : null,
  };
  const b = service.backend;
  if (b instanceof ZooKeeperBackend)
    return { ...out, notificationsPerRelease: b.holderReleases > 0 ? round(b.notifications / b.holderReleases) : null };
  return out;
}

const round = (v: number) => Math.round(v * 100) / 100;

/**
 * Writes a store took out of order: per store key, in the order it took them, each
 * write whose grant (its token, or its number for a service without one) is below one it already
 * took — the newer holder's write is lost under it.
 */
function outOfOrder(ops: readonly HistoryOp[], store: 'fenced' | 'unfenced'): number {
  const taken = ops
    .filter((o) => o.op === 'write' && o.store === store && o.result === 'accepted' && o.token !== null)
    .sort((a, b) => (a.completeOrder ?? 0) - (b.completeOrder ?? 0));
  const highest = new Map<string, number>();
  let n = 0;
  for (const o of taken) {
    const h = highest.get(o.key);
    const t = o.token as number;
    if (h !== undefined && t < h) n++;
    else highest.set(o.key, t);
  }
  return n;
}

/** Each time a holder crashed or paused: how long until the next grant of that lock to someone else. */
function failoversOf(sim: Simulation, holds: readonly HoldRecord[]): FailoverMeasure[] {
  const out: FailoverMeasure[] = [];
  for (const e of sim.cluster.events) {
    if (e.kind !== 'client-crashes' && e.kind !== 'client-pauses') continue;
    const client = e.subjects[0];
    const t = e.t;
    for (const h of holds) {
      if (h.client !== client || h.from > t || (h.to !== null && h.to < t)) continue;
      if (out.some((f) => f.client === client && f.key === h.key && f.atMs === t)) continue;
      const next = holds.find((o) => o.key === h.key && o.client !== client && o.from >= t);
      out.push({
        client,
        key: h.key,
        cause: e.kind === 'client-crashes' ? 'crash' : 'pause',
        atMs: t,
        nextGrantMs: next === undefined ? null : next.from - t,
      });
    }
  }
  return out;
}

/** The measures in a few lines, for the CLI's text output. */
export function lockMeasureLines(m: LockMeasures): string[] {
  const lines: string[] = [];
  lines.push(
    m.overlaps.length === 0
      ? 'overlaps: none (no two clients believed they held one lock at once)'
      : `overlaps: ${m.overlaps
          .map(
            (o) =>
              `${o.clients.join(' and ')} on ${o.key} ${o.fromMs}-${o.toMs} ms (${o.toMs - o.fromMs} ms${o.inLease ? ', within their leases' : ', past a paused lease'})`,
          )
          .join('; ')}`,
  );
  lines.push(
    `stores: the unfenced store took ${m.unfencedOutOfOrder} write(s) out of order; the fenced store refused ${m.fencedStaleRefused} stale write(s)${m.fencedNoTokenRefused > 0 ? ` and ${m.fencedNoTokenRefused} with no token${m.tokens ? '' : ' (this service has none to give)'}` : ''}`,
  );
  for (const f of m.failovers)
    lines.push(
      `failover: ${f.client} ${f.cause === 'crash' ? 'crashed' : 'paused'} holding ${f.key} at ${f.atMs} ms; ${f.nextGrantMs === null ? 'nobody else was granted it in the run' : `the next grant came ${f.nextGrantMs} ms later`}`,
    );
  lines.push(
    `cost: ${m.granted} of ${m.acquires} acquire(s) granted; ${m.messagesPerAcquire ?? '-'} messages per granted acquire (what operations caused; heartbeats, pings and keep-alives left out), ${m.roundTripsPerAcquire ?? '-'} round trips${m.notificationsPerRelease !== undefined ? `; ${m.notificationsPerRelease ?? '-'} watch notifications per release` : ''}`,
  );
  return lines;
}
