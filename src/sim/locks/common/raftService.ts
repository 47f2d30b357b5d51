/**
 * What ZooKeeper and etcd share on the Raft engine: each node keeps its copy of the service's
 * state machine, fed by committed entries in log order; only the leader answers clients, and
 * only while a majority answered it within the shortest election timeout (a ZooKeeper leader
 * abandons leadership when a quorum of followers stops answering within syncLimit; etcd's leader
 * checks its quorum too), so a leader stranded in a minority never tells a client its session or
 * lease is alive. A write is answered when its entry applies on the leader.
 */
import type { Cluster } from '../../net/cluster';
import type { RaftNode } from '../../raft/node';
import type { ApplyResult, Command, LogEntry } from '../../model/types';

export interface Waiting<R> {
  readonly client: string;
  readonly term: number;
  /** What to answer once the entry applied, from the result. */
  readonly reply: (node: RaftNode, result: ApplyResult) => R | null;
}

export abstract class RaftService<M> {
  readonly machines: M[];
  /** Per leader node: log index → who waits for that entry. */
  private readonly pending = new Map<string, Map<number, Waiting<unknown>>>();
  /** Indexes some node has applied: the first apply of each is the committed state's step. */
  private firstApplied = 0;
  /** Per node: the term in which it last led (to notice a new leadership). */
  private readonly ledTerm: number[];

  constructor(
    protected readonly cluster: Cluster,
    fresh: () => M,
  ) {
    this.machines = cluster.nodes.map(() => fresh());
    this.ledTerm = cluster.nodes.map(() => -1);
    this.fresh = fresh;
  }

  private readonly fresh: () => M;

  /** The node serves clients: it leads and heard from a majority within the shortest election timeout. */
  serves(node: RaftNode): boolean {
    return node.alive && node.role === 'leader' && node.quorumHeardSinceMs() > this.cluster.nowMs - this.cluster.electionTimeoutMinMs;
  }

  /** Who a client should try instead (the leader this node knows of). */
  hint(node: RaftNode): string | null {
    return node.role === 'leader' ? null : node.leaderId;
  }

  /** Appends `command` on the leader; `reply` answers the client when it applies there. */
  propose<R>(node: RaftNode, command: Command, waiting: Waiting<R> | null): number {
    const index = node.submit(command);
    if (waiting !== null) {
      let map = this.pending.get(node.id);
      if (map === undefined) this.pending.set(node.id, (map = new Map()));
      map.set(index, waiting as Waiting<unknown>);
    }
    return index;
  }

  /** The node with the most entries applied: the committed state as far as anyone has it. */
  mostApplied(): RaftNode {
    let best = this.cluster.nodes[0];
    for (const n of this.cluster.nodes) if (n.lastApplied > best.lastApplied) best = n;
    return best;
  }

  machineOf(node: RaftNode): M {
    return this.machines[node.index];
  }

  /** The leader's answer to whoever waited for `index`, once it applied there. */
  protected answerApplied(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult): unknown {
    const map = this.pending.get(node.id);
    const w = map?.get(index);
    if (w === undefined || map === undefined) return null;
    map.delete(index);
    // The index was reused by another leader's entry: not the one the client waits for.
    if (w.term !== entry.term || node.role !== 'leader' || !node.alive) return null;
    return w.reply(node, result);
  }

  /** Whether this apply is the first of `index` anywhere (the committed state moved). */
  protected firstApply(index: number): boolean {
    if (index <= this.firstApplied) return false;
    this.firstApplied = index;
    return true;
  }

  /** Nodes that became leader since the last tick: the subclass gives each a fresh start (sessions, leases). */
  protected newLeaders(): RaftNode[] {
    const out: RaftNode[] = [];
    for (const n of this.cluster.nodes) {
      if (n.alive && n.role === 'leader' && this.ledTerm[n.index] !== n.term) {
        this.ledTerm[n.index] = n.term;
        out.push(n);
      } else if (n.role !== 'leader') this.ledTerm[n.index] = -1;
    }
    return out;
  }

  /** A restarted node's state machine and the answers it owed are volatile: it replays the log. */
  protected restartMachine(node: RaftNode): void {
    this.machines[node.index] = this.fresh();
    this.pending.delete(node.id);
    this.ledTerm[node.index] = -1;
  }
}
