/**
 * Reads (§6.4): the leader's side of `put` and `get` on the replicated key-value map that sits
 * next to the lock table. A put is a log entry, answered when it applies. A get is answered in
 * one of three ways, chosen per run or per read:
 *
 * - `log`: the get is a log entry too, answered with the value when it applies.
 * - `read-index` (§6.4): once an entry of its term is committed, the leader records its commit
 *   index, starts a heartbeat round, and answers once a majority answered that round (it was
 *   still leader when they did) and it has applied up to the recorded index.
 * - `lease` (§6.4.1): the leader answers from its own state while it holds a lease: a majority
 *   answered a round it sent less than an election timeout minus a drift margin ago, by its own
 *   clock. Clock drift breaks the bound the lease relies on: a deposed leader can read stale.
 */
import type { Cluster } from '../net/cluster';
import type { ReadMode } from '../model/config';
import type { LockStateMachine } from './lockStateMachine';
import type { RaftNode } from '../raft/node';
import { NOOP_COMMAND, type ApplyResult, type ClientReply, type ClientRequest, type KvCommand, type LogEntry } from '../model/types';

/** The lease lasts the shortest election timeout less this share of it, for clock drift (§6.4.1). */
export const LEASE_DRIFT_MARGIN_PCT = 10;

interface KvRequest {
  readonly client: string;
  readonly requestId: number;
  readonly op: 'put' | 'get';
  readonly key: string;
  readonly mode: ReadMode;
  /** The leader's term when it took the request: a later term's leader owes it nothing. */
  readonly term: number;
  /** ReadIndex: the commit index recorded (0 until an entry of the term is committed). */
  readIndex: number;
  /** ReadIndex: the heartbeat round that must be answered by a majority (0: none asked). */
  round: number;
}

/** The lease a leader's reads count on, in ms of its own clock. */
export function leaseMsOf(electionTimeoutMinMs: number): number {
  return Math.floor((electionTimeoutMinMs * (100 - LEASE_DRIFT_MARGIN_PCT)) / 100);
}

/** Whether the leader has committed an entry of its own term (§6.4 step 1: only then is its commit index current). */
export function committedInTerm(node: RaftNode): boolean {
  const c = node.commitIndex;
  // termAt: with snapshots the entry may be compacted (its snapshot's term at the last included index).
  return c > 0 && node.termAt(c) === node.term;
}

/** How long the leader's lease still runs by its own clock (negative: it has run out). */
export function leaseLeftMs(node: RaftNode, leaseMs: number): number {
  const start = node.leaseStartLocalMs();
  return start === -Infinity ? -Infinity : start + leaseMs - node.localNowMs();
}

export class KvReads {
  private readonly cluster: Cluster;
  /** Each node's state machine by node position (the lock service's array: a checkpoint's copy follows it, a closure would not). */
  private readonly machines: readonly LockStateMachine[];
  private readonly leaseMs: number;
  private readonly skipHeartbeat: boolean;
  /** The bug reply-ignores-term: an answer for an index whatever entry another leader put there. */
  private readonly replyIgnoresTerm: boolean;
  /** Per leader node: log index → the put or log-mode get waiting for that entry to apply. */
  private readonly byIndex = new Map<string, Map<number, KvRequest>>();
  /** Per leader node: ReadIndex and lease reads not answered yet, oldest first. */
  private readonly waiting = new Map<string, KvRequest[]>();

  constructor(cluster: Cluster, machines: readonly LockStateMachine[]) {
    this.cluster = cluster;
    this.machines = machines;
    // The bug lease-no-margin: the lease runs the whole shortest election timeout (§6.4.1 leaves a margin for drift).
    this.leaseMs = cluster.bugSet.has('lease-no-margin') ? cluster.electionTimeoutMinMs : leaseMsOf(cluster.electionTimeoutMinMs);
    this.replyIgnoresTerm = cluster.bugSet.has('reply-ignores-term');
    this.skipHeartbeat = cluster.bugSet.has('read-index-skips-heartbeat');
  }

  /** A put or get reached `node`, which leads (redirects and stale copies are handled before). */
  onRequest(node: RaftNode, src: string, msg: ClientRequest): void {
    const op = msg.op === 'put' ? 'put' : 'get';
    const mode: ReadMode = msg.readMode ?? 'log';
    const request: KvRequest = { client: src, requestId: msg.id, op, key: msg.key, mode, term: node.term, readIndex: 0, round: 0 };
    if (op === 'put' || mode === 'log') {
      const waiting = this.indexMapOf(node);
      // A retry of a request whose entry this leader holds and has not applied: answer it then.
      for (const [index, p] of waiting) {
        if (p.client === src && p.requestId === msg.id && index > node.lastApplied) return;
      }
      const command: KvCommand =
        op === 'put'
          ? { type: 'put', key: msg.key, value: msg.value ?? '', client: src, requestId: msg.id }
          : { type: 'get', key: msg.key, client: src, requestId: msg.id };
      waiting.set(node.submit(command), request);
      return;
    }
    const list = this.waiting.get(node.id);
    if (list !== undefined && list.some((p) => p.client === src && p.requestId === msg.id)) return;
    // §6.4 step 1: a new leader's commit index may lag until an entry of its term commits;
    // if it has none yet, it appends a no-op (the leader-noop idea, §8) rather than wait for one.
    if (node.lastLogTerm !== node.term) node.submit(NOOP_COMMAND);
    if (list === undefined) this.waiting.set(node.id, [request]);
    else list.push(request);
    this.advance(node);
  }

  /** A put or a log-mode get applied on `node`: answer it if this leader took it. */
  onApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): void {
    const waiting = this.byIndex.get(node.id);
    const request = waiting?.get(index);
    if (request === undefined || waiting === undefined) return;
    waiting.delete(index);
    if ((request.term !== entry.term && !this.replyIgnoresTerm) || node.role !== 'leader' || !node.alive) return;
    const value = result.type === 'Got' ? result.value : null;
    this.answer(node, request, request.op === 'get' ? value : undefined, index);
  }

  /** Once per millisecond: leaders move their waiting reads on. */
  tick(): void {
    if (this.waiting.size === 0) return;
    for (const id of [...this.waiting.keys()]) this.advance(this.cluster.node(id));
  }

  /** A restarted node lost the replies it owed (volatile). */
  onRestart(node: RaftNode): void {
    this.byIndex.delete(node.id);
    this.waiting.delete(node.id);
  }

  /** Answers every waiting read of `node` that can be answered now, in order. */
  private advance(node: RaftNode): void {
    const list = this.waiting.get(node.id);
    if (list === undefined) return;
    const cluster = this.cluster;
    let i = 0;
    while (i < list.length) {
      const p = list[i];
      if (!node.alive || node.role !== 'leader' || node.term !== p.term) {
        // Deposed: the read is not answered here; the client times out and asks elsewhere.
        list.splice(i, 1);
        continue;
      }
      if (!committedInTerm(node)) break; // reads wait in order for the term's first commit
      if (p.mode === 'read-index') {
        if (p.readIndex === 0) {
          p.readIndex = node.commitIndex;
          if (!this.skipHeartbeat) {
            node.broadcastAppend(); // §6.4 step 3: a heartbeat round confirms leadership
            p.round = node.readRound;
          }
          if (cluster.recordDetails) {
            cluster.detail({
              kind: 'read-index-recorded',
              subjects: [node.id, p.client],
              values: { node: node.id, term: node.term, client: p.client, key: p.key, readIndex: p.readIndex, round: p.round },
              lines: p.round === 0 ? ['read.index.record'] : ['read.index.record', 'read.index.heartbeat'],
            });
          }
        }
        if (p.round !== 0 && node.confirmedRound() < p.round) {
          i++;
          continue;
        }
        if (node.lastApplied < p.readIndex) {
          i++;
          continue;
        }
      } else {
        const left = leaseLeftMs(node, this.leaseMs);
        if (!(left > 0)) {
          i++;
          continue;
        }
      }
      list.splice(i, 1);
      this.answer(node, p, this.machines[node.index].kv.get(p.key) ?? null, null);
    }
    if (list.length === 0) this.waiting.delete(node.id);
  }

  private answer(node: RaftNode, p: KvRequest, value: string | null | undefined, index: number | null): void {
    const cluster = this.cluster;
    if (cluster.recordDetails && p.op === 'get') {
      const lease = p.mode === 'lease' ? leaseLeftMs(node, this.leaseMs) : null;
      cluster.detail({
        kind: 'read-served',
        subjects: [node.id, p.client],
        values: {
          node: node.id,
          term: node.term,
          client: p.client,
          key: p.key,
          mode: p.mode,
          value: value ?? null,
          readIndex: p.mode === 'read-index' ? p.readIndex : null,
          round: p.mode === 'read-index' ? p.round : null,
          leaseLeftMs: lease,
          localMs: node.localNowMs(),
        },
        lines: [p.mode === 'log' ? 'read.log.answer' : p.mode === 'lease' ? 'read.lease.answer' : 'read.index.answer'],
      });
    }
    const reply: ClientReply = {
      type: 'ClientReply',
      id: p.requestId,
      op: p.op,
      key: p.key,
      outcome: 'ok',
      token: null,
      leaderHint: node.id,
      index,
      ...(value !== undefined ? { value } : {}),
    };
    cluster.send(node.id, p.client, reply);
  }

  private indexMapOf(node: RaftNode): Map<number, KvRequest> {
    let map = this.byIndex.get(node.id);
    if (!map) this.byIndex.set(node.id, (map = new Map()));
    return map;
  }
}
