/**
 * Safety invariants, checked after every simulated millisecond from outside the node code
 * (TigerBeetle's VOPR): the Raft paper's Figure 3 properties plus the lock service's own.
 *
 * Every check is incremental, so a fuzz run can afford all of them every millisecond: the
 * checker keeps a shadow of what it has already seen (each node's log as entry references, the
 * commit and applied positions, the applied lock table) and looks only at what changed — new or
 * replaced log entries, newly committed indices, applies as they happen (through the cluster's
 * apply observer), new leaders, new store writes. Restarts are read from the event list, since a
 * restart legitimately rewinds the applied index and re-applies the log from the start.
 */
import { deliveryBoundsMs } from '../model/network';
import { ClientViewChecker, type LeaseDriftFinding } from './clientInvariants';
import { LockServiceChecker } from './lockServiceInvariants';
import type { Cluster } from '../net/cluster';
import { livenessBound } from './liveness';
import { consistentRun, featuresOf, hasTokens, lockOf, reentrantLocks, type SimConfig } from '../model/config';
import { FeatureInvariants } from './featureInvariants';
import { MessageInvariants } from './messageInvariants';
import { HISTORY_CHECK_IDS, INVARIANT_IDS, type HistoryCheckId, type InvariantId, type PaxosInvariantId } from '../model/features';
import { commandText, history as sayHistory, invariant as say } from '../model/describe';
import { checkHistory, violatedVerdicts, type CheckOptions, type LinearizabilityReport } from './linearizability/check';
import type { LockService } from '../service/lockService';
import type { Message } from '../model/types';
import type { RaftNode } from '../raft/node';
import { formatSchedule, type Action } from '../model/schedule';
import { isLockCommand, type ApplyResult, type Command, type LogEntry, type SnapshotState } from '../model/types';

/** Every invariant's id, in the panel's order: from the manifests (src/sim/model/features/), as is the feature each needs. */
export { INVARIANT_IDS, type InvariantId };

/** The invariants a run with this configuration checks (in ids.ts, which the page's run bar reads without the checkers). */
export { invariantsFor } from './ids';

/**
 * Checked once, on the clients' whole history, not after every millisecond: a run that never
 * ends could still be linearized by what comes later. The fuzzer checks them at a run's end.
 */
export { HISTORY_CHECK_IDS, type HistoryCheckId };

export interface Violation {
  /** A Raft run's invariants and history checks, or a Paxos run's (paxosInvariants.ts). */
  readonly invariant: InvariantId | HistoryCheckId | PaxosInvariantId;
  /** The invariant's name as people read it (`Election Safety`). */
  readonly title: string;
  /** Simulated ms at which the checker saw it. */
  readonly t: number;
  /** Node ids (and, for store checks, client and store ids) involved. */
  readonly nodes: readonly string[];
  /** One plain sentence of what went wrong. */
  readonly sentence: string;
  /** `t= 1234 ms VIOLATION <title>: <sentence>`. */
  readonly line: string;
  /** Configuration and schedule that reproduce it when run until `untilMs`. */
  readonly config: SimConfig;
  readonly schedule: string;
  readonly untilMs: number;
}

/**
 * The run's bound (issue 24): at most this many messages sent in one simulated second. A slip that
 * makes messages multiply (a leader that never backs up, under duplicates) otherwise runs until the
 * machine gives out; with the bound it is a counterexample like any other. Far above any clean run:
 * the busiest second of 12,000 swarm runs (seeds 1-4, features drawn and all on) sent 2,254
 * messages, so a slip that is caught here is sending over twenty times that.
 */
export const MESSAGES_PER_SECOND_BOUND = 50_000;

/** A write the unfenced store took from a client whose lease had ended: a finding, not a failure. */
export interface StaleWriteFinding {
  readonly t: number;
  readonly client: string;
  readonly key: string;
  readonly value: string;
  readonly token: number | null;
}

/** What the checker needs of a run: a Simulation satisfies it. */
export interface CheckedRun {
  readonly cluster: Cluster;
  readonly lockService: LockService | null;
  readonly schedule: readonly Action[];
  /** How many schedule actions have been applied (the reproducing prefix); all if absent. */
  readonly appliedCount?: number;
}

export interface CheckerOptions {
  /** Stop recording after this many violations (the first is what matters). Default 20. */
  readonly maxViolations?: number;
  /** Called once per recorded violation, as it is found. */
  readonly onViolation?: (violation: Violation) => void;
  /** Invariants not reported (default none). */
  readonly skip?: readonly InvariantId[];
}

interface LogRecord {
  readonly term: number;
  readonly entry: LogEntry;
  readonly prevTerm: number;
  readonly node: string;
  /** Another record at the same index with a different term. */
  other: LogRecord | null;
}

interface CommitRecord {
  readonly term: number;
  readonly entry: LogEntry;
  /** The lowest term of a node that first saw it committed: the term it was committed in. */
  commitTerm: number;
  readonly t: number;
}

interface ApplyRecord {
  readonly entry: LogEntry;
  readonly node: string;
  /** What the first apply of this index gave (null in a run without the lock service). */
  readonly result: ApplyResult | null;
  /** For a grant: the token it produced, or null if rejected; undefined for other commands. */
  grant: number | null | undefined;
}

interface ShadowLock {
  readonly owner: string;
  readonly token: number;
}

/** Everything the checker tracks about one node, reset by a restart where the node resets. */
interface NodeTrack {
  /** The node's log as the checker last saw it (entry references), after its snapshot. */
  readonly log: LogEntry[];
  /** The node's snapshot index when the checker last saw its log (snapshots; 0 without). */
  base: number;
  commitIndex: number;
  lastApplied: number;
  /** Index of the last entry seen applied through the apply observer. */
  appliedIndex: number;
  /** The term this node led at the last check, or -1. */
  leaderTerm: number;
  /** The lock table the applied commands imply (the reference semantics). */
  readonly locks: Map<string, ShadowLock>;
  lastToken: number;
}

const sameCommand = (a: Command, b: Command) => a === b || (isNoop(a) === isNoop(b) && commandText(a) === commandText(b));
function newTrack(node: RaftNode): NodeTrack {
  return {
    log: node.log.slice(),
    base: node.snapshotIndex,
    commitIndex: node.commitIndex,
    lastApplied: node.lastApplied,
    appliedIndex: node.lastApplied,
    leaderTerm: node.role === 'leader' ? node.term : -1,
    locks: new Map(),
    lastToken: 0,
  };
}

const isNoop = (c: Command) => typeof c !== 'string' && c.type === 'noop';

export class InvariantChecker {
  readonly violations: Violation[] = [];
  readonly findings: StaleWriteFinding[] = [];
  /** What the clients are told, checked against the log (null in a run without clients). */
  private readonly clientView: ClientViewChecker | null;
  /** Another lock service's invariants (issue 26); null with the chapter's service or no clients. */
  private readonly lockChecks: LockServiceChecker | null;
  /** After `calm`: the cluster must converge by this time (null when not waiting for it). */
  private livenessDeadline: number | null = null;
  private livenessSince = 0;
  /** When the cluster last converged (leader, term) while the check waits for it to stay so. */
  private converged: { readonly at: number; readonly leader: string; readonly term: number } | null = null;
  /** The liveness check's state, for people: what it waits for, or why it does not apply. */
  liveness: { readonly state: 'idle' | 'waiting' | 'held' | 'skipped' | 'interrupted'; readonly note: string } = {
    state: 'idle',
    note: '',
  };
  private readonly run: CheckedRun;
  private readonly cluster: Cluster;
  private readonly maxViolations: number;
  private readonly onViolation: ((v: Violation) => void) | null;
  private readonly skip: ReadonlySet<InvariantId | HistoryCheckId> | null;
  private readonly tracks: NodeTrack[];
  private eventCursor = 0;
  private leaderEventsSeen = 0;
  private leaderEventsChecked = 0;
  private readonly leaderOfTerm = new Map<number, string>();
  private readonly reportedTerms = new Set<number>();
  /** Log Matching table: index → the first entry seen there for each term. */
  private readonly logTable: (LogRecord | undefined)[] = [];
  private readonly committed: (CommitRecord | undefined)[] = [];
  private maxCommitted = 0;
  private readonly applied: (ApplyRecord | undefined)[] = [];
  private fencedCursor = 0;
  private unfencedCursor = 0;
  /** The protocol features' invariants; null in a run without features. */
  private readonly featureChecks: FeatureInvariants | null;
  /** The features' checks on what nodes say (messageInvariants.ts); null when none applies. */
  private readonly messageChecks: MessageInvariants | null;
  /** The simulated second being counted, and the messages sent in it (the run's bound). */
  private sendSecond = 0;
  private sendCount = 0;
  /** The most messages sent in any one simulated second so far. */
  busiestSecond = 0;
  /** match-index-held: the (leader, peer, term) already reported, so a lasting one is told once. */
  private readonly matchReported = new Set<string>();

  constructor(run: CheckedRun, options: CheckerOptions = {}) {
    this.run = run;
    this.cluster = run.cluster;
    this.maxViolations = options.maxViolations ?? 20;
    this.onViolation = options.onViolation ?? null;
    this.skip = options.skip !== undefined && options.skip.length > 0 ? new Set(options.skip) : null;
    this.tracks = run.cluster.nodes.map(newTrack);
    this.eventCursor = run.cluster.events.length;
    const service = run.lockService;
    this.lockChecks =
      service !== null && service.backend !== null
        ? new LockServiceChecker(service, run.cluster, (id, who, sentence) => this.violate(id, who, sentence))
        : null;
    this.clientView =
      service !== null && service.backend === null
        ? new ClientViewChecker(
            service,
            (id, who, sentence) => this.violate(id, who, sentence),
            (index) => this.applied[index],
          )
        : null;
    this.featureChecks =
      featuresOf(run.cluster.config).length > 0
        ? new FeatureInvariants(run.cluster, (id, who, sentence) => this.violate(id, who, sentence), {
            committedTerm: (index) => this.committed[index]?.term,
            appliedEntry: (index) => this.applied[index]?.entry,
          })
        : null;
    if (this.clientView !== null) this.clientView.drift = run.cluster.driftPct.some((p) => p !== 0);
    const messages = new MessageInvariants(run.cluster, (id, who, sentence) => this.violate(id, who, sentence));
    this.messageChecks = messages.active ? messages : null;
  }

  /** Leases the service ended early while clock drift was set (the chapter's hazard): findings, not failures. */
  get leaseFindings(): readonly LeaseDriftFinding[] {
    return this.clientView?.findings ?? [];
  }

  /** The first violation, or null while every invariant holds. */
  get first(): Violation | null {
    return this.violations.length > 0 ? this.violations[0] : null;
  }

  get ok(): boolean {
    return this.violations.length === 0;
  }

  /** Hooks the checker into the cluster: `check` after every step, `onApply` on every apply. */
  attach(): this {
    // Simulation.clone() shares these closures with the copy; a checker watches only its own run.
    const own = this.cluster;
    own.addObserver((cluster) => {
      if (cluster === own) this.check();
    });
    own.addApplyObserver((node, index, entry, result) => {
      if (own.nodes[node.index] === node) this.onApply(node, index, entry, result);
    });
    const messages = this.messageChecks;
    own.addMessageObserver({
      sent: (cluster, src, dst, msg) => {
        if (cluster !== own) return;
        this.countSend();
        if (messages !== null) messages.sent(src, dst, msg);
      },
      delivering: (cluster, src, dst, msg: Message) => {
        if (cluster === own && messages !== null) messages.delivering(src, dst, msg);
      },
    });
    const service = this.run.lockService;
    service?.addClientObserver((client, src, reply) => {
      if (service.clients.get(client.id) === client) this.clientView?.onTold(client, src, reply, own.nowMs);
    });
    return this;
  }

  // -- after every step ---------------------------------------------------------------------

  check(): void {
    const nodes = this.cluster.nodes;
    if (this.tracks.length < nodes.length) this.trackNewNodes();
    this.catchUpEvents();
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const track = this.tracks[i];
      const log = node.log;
      const len = log.length;
      const seen = track.log;
      if (len !== seen.length || (len > 0 && log[len - 1] !== seen[len - 1]) || node.snapshotIndex !== track.base)
        this.onLogChange(node, track);
      if (node.commitIndex !== track.commitIndex) {
        if (node.commitIndex > track.commitIndex) this.onCommit(node, track.commitIndex, node.commitIndex);
        else this.violate('commit-monotonic', [node.id], say.commitBack(node.id, track.commitIndex, node.commitIndex));
        track.commitIndex = node.commitIndex;
      }
      if (node.role === 'leader') {
        if (track.leaderTerm !== node.term) this.onNewLeader(node);
        track.leaderTerm = node.term;
        if (node.alive) this.checkMatchIndexes(node);
      } else {
        track.leaderTerm = -1;
      }
      if (node.lastApplied < track.lastApplied) {
        this.violate('applied-monotonic', [node.id], say.appliedBack(node.id, track.lastApplied, node.lastApplied));
      }
      track.lastApplied = node.lastApplied;
    }
    if (this.leaderEventsSeen !== this.leaderEventsChecked) this.scanLeadersByTerm();
    const locks = this.run.lockService;
    if (locks !== null) this.checkStores(locks);
    if (this.lockChecks !== null) this.lockChecks.check();
    if (this.featureChecks !== null) this.featureChecks.check();
    if (this.messageChecks !== null) this.messageChecks.step();
    if (this.livenessDeadline !== null) this.checkLiveness(this.livenessDeadline);
  }

  /** The run's bound: messages sent per simulated second. */
  private countSend(): void {
    const second = Math.floor(this.cluster.nowMs / 1000);
    if (second !== this.sendSecond) {
      this.sendSecond = second;
      this.sendCount = 0;
    }
    const count = ++this.sendCount;
    if (count > this.busiestSecond) this.busiestSecond = count;
    if (count === MESSAGES_PER_SECOND_BOUND + 1)
      this.violate('bounded', [], say.overrun(count, second * 1000, this.cluster.inflight.size, MESSAGES_PER_SECOND_BOUND));
  }

  /**
   * Figure 2's matchIndex is the highest entry known to be replicated on the peer: for a peer still
   * in the leader's term (whose log only this leader changes), the entry at matchIndex is on the
   * peer with the leader's term. A stale answer counted (an AppendReply of an older term) breaks it.
   */
  private checkMatchIndexes(leader: RaftNode): void {
    const peers = leader.peers;
    for (let i = 0; i < peers.length; i++) {
      const id = peers[i];
      const match = leader.matchIndexOf(id);
      if (match === 0) continue;
      const peer = this.cluster.nodeById.get(id);
      if (peer === undefined || peer.term !== leader.term || match <= peer.snapshotIndex) continue;
      const mine = leader.termAt(match);
      const theirs = peer.termAt(match);
      if (theirs !== null && (mine === null || theirs === mine)) continue;
      const key = `${leader.id} ${id} ${leader.term}`;
      if (this.matchReported.has(key)) continue;
      this.matchReported.add(key);
      this.violate(
        'match-index-held',
        [leader.id, id],
        say.matchNotHeld(leader.id, leader.term, id, match, mine, theirs, peer.lastLogIndex),
      );
    }
  }

  /** Membership changes add servers as the run goes: each gets a track when first seen. */
  private trackNewNodes(): void {
    const nodes = this.cluster.nodes;
    // It started empty (it may have taken entries already in this step; those are checked as new).
    while (this.tracks.length < nodes.length)
      this.tracks.push({
        log: [],
        base: 0,
        commitIndex: 0,
        lastApplied: 0,
        appliedIndex: 0,
        leaderTerm: -1,
        locks: new Map(),
        lastToken: 0,
      });
  }

  // -- liveness after calm ------------------------------------------------------------------

  private armLiveness(t: number): void {
    const maxLog = Math.max(0, ...this.cluster.nodes.map((n) => n.lastLogIndex));
    const bound = livenessBound(this.cluster.config, maxLog);
    if (typeof bound === 'string') {
      this.livenessDeadline = null;
      this.liveness = { state: 'skipped', note: bound };
      return;
    }
    this.livenessSince = t;
    this.livenessDeadline = t + bound;
    this.converged = null;
    this.liveness = { state: 'waiting', note: `a leader must emerge and commit a probe entry on every node by t=${t + bound} ms` };
  }

  /**
   * Converged: every node is up and in the leader's term, and holds exactly the leader's log,
   * committed to its end, ending in an entry of that term (the probe). A fault after calm
   * (the schedule may have one) ends the promise.
   */
  private checkLiveness(deadline: number): void {
    const c = this.cluster;
    const nodes = c.nodes;
    if (c.groups.length > 0 || c.lossPct > 0 || c.delayAllMs > 0 || c.delayByActor.size > 0 || c.duplicatePct > 0 || c.reorderPct > 0) {
      this.endLiveness('interrupted', 'a fault came after calm, so liveness is no longer promised');
      return;
    }
    const leader = c.leader();
    let converged = leader !== null && leader.lastLogTerm === leader.term;
    for (let i = 0; converged && i < nodes.length; i++) {
      const n = nodes[i];
      if (!n.alive) {
        this.endLiveness('interrupted', `${n.id} crashed after calm, so liveness is no longer promised`);
        return;
      }
      const l = leader as RaftNode;
      // Membership changes: a server outside the leader's configuration is no longer replicated to.
      if (l.membership !== null && !l.membership.isVoter(n.id)) continue;
      converged = n.term === l.term && n.lastLogIndex === l.lastLogIndex && n.commitIndex === l.lastLogIndex;
    }
    if (converged) {
      const l = leader as RaftNode;
      const seen = this.converged;
      if (seen === null || seen.leader !== l.id || seen.term !== l.term) this.converged = { at: c.nowMs, leader: l.id, term: l.term };
      // Converged for a moment is not enough: the leader must keep its term for two election
      // timeouts, or followers are still timing out under it.
      const settle = stableWindowMs(c);
      const since = (this.converged as { at: number }).at;
      if (c.nowMs - since >= settle) {
        this.endLiveness(
          'held',
          `${l.id} led term ${l.term} and every node committed its probe ${since - this.livenessSince} ms after calm, and it still led ${settle} ms later`,
        );
        return;
      }
    } else if (this.converged !== null && (leader === null || leader.id !== this.converged.leader || leader.term !== this.converged.term)) {
      this.converged = null;
    }
    if (c.nowMs >= deadline && this.converged === null) {
      this.endLiveness('interrupted', 'no convergence');
      this.violate('liveness', leader ? [leader.id] : [], say.notLive(c.nowMs - this.livenessSince, describeStall(c)));
    }
  }

  private endLiveness(state: 'held' | 'interrupted', note: string): void {
    this.livenessDeadline = null;
    this.liveness = { state, note };
  }

  /** The engine threw while running: that is a counterexample too, replayable like any other. */
  recordCrash(error: unknown): void {
    this.violate('engine-crash', [], say.engineThrew(say.thrown(error)));
  }

  /** Restarts (which legitimately rewind commit and applied state) and elections, from the event list. */
  private catchUpEvents(): void {
    const events = this.cluster.events;
    while (this.eventCursor < events.length) {
      const e = events[this.eventCursor++];
      if (e.kind === 'restart') {
        const node = this.cluster.nodeById.get(e.subjects[0]);
        if (node) {
          const track = this.tracks[node.index];
          track.commitIndex = 0;
          track.lastApplied = 0;
          track.appliedIndex = 0;
          track.leaderTerm = -1;
          track.locks.clear();
          track.lastToken = 0;
        }
      } else if (e.kind === 'leader') {
        this.leaderEventsSeen++;
      } else if (e.kind === 'drift' && this.clientView !== null) {
        this.clientView.drift = true;
      } else if (e.kind === 'calm') {
        this.armLiveness(e.t);
      }
    }
  }

  /**
   * Finds where the node's log departs from the checker's copy (appends touch nothing before the
   * old end, a conflict replaces a suffix), checks each new entry, and updates the copy.
   */
  private onLogChange(node: RaftNode, track: NodeTrack): void {
    const log = node.log;
    const seen = track.log;
    const base = node.snapshotIndex;
    // A snapshot installed over a log that does not hold its last included entry (with its term) takes the whole log (§5.1).
    let discarded = false;
    if (base !== track.base) {
      // Snapshots (§5): the prefix up to the new snapshot went; the copy drops it too.
      const dropped = base - track.base;
      if (dropped > 0 && dropped <= seen.length) {
        discarded = seen[dropped - 1].term !== node.snapshotTerm;
        seen.splice(0, dropped);
      } else seen.length = 0;
      track.base = base;
    }
    let p = log.length < seen.length ? log.length : seen.length;
    while (p > 0 && log[p - 1] !== seen[p - 1]) p--;
    // Leader Append-Only: a leader of the same term as at the last check only appends.
    if (p < seen.length && node.role === 'leader' && track.leaderTerm === node.term) {
      this.violate(
        'leader-append-only',
        [node.id],
        say.leaderRewrote(node.id, node.term, p + 1 + base, seen.length + base, log.length + base),
      );
    } else if (p < seen.length && p === log.length && !discarded) {
      // Entries go only when a conflicting entry replaces them (Figure 2), or under a snapshot that
      // does not match (§5.1); a log that became a shorter copy of itself lost entries for nothing.
      this.violate('log-kept', [node.id], say.entriesDropped(node.id, p + 1 + base, seen.length + base, base));
    }
    seen.length = p;
    for (let pos = p; pos < log.length; pos++) {
      const entry = log[pos];
      seen.push(entry);
      // Across a snapshot boundary the predecessor is the snapshot's last included entry.
      this.checkLogMatching(node, pos + 1 + base, entry, pos > 0 ? log[pos - 1].term : node.snapshotTerm);
    }
  }

  /**
   * Log Matching, checked one entry at a time: every (index, term) must name one command and one
   * predecessor term. By induction on the index, two logs sharing an (index, term) then agree on
   * every entry up to it — the paper's property — without ever comparing whole logs.
   */
  private checkLogMatching(node: RaftNode, index: number, entry: LogEntry, prevTerm: number): void {
    let rec = this.logTable[index];
    while (rec !== undefined && rec !== null && rec.term !== entry.term) rec = rec.other ?? undefined;
    if (rec === undefined || rec === null) {
      const fresh: LogRecord = { term: entry.term, entry, prevTerm, node: node.id, other: this.logTable[index] ?? null };
      this.logTable[index] = fresh;
      return;
    }
    if (rec.entry !== entry && !sameCommand(rec.entry.command, entry.command)) {
      this.violate(
        'log-matching',
        [rec.node, node.id],
        say.logEntryDiffers(rec.node, node.id, index, entry.term, commandText(rec.entry.command), commandText(entry.command)),
      );
    } else if (rec.prevTerm !== prevTerm) {
      this.violate('log-matching', [rec.node, node.id], say.logPrefixDiffers(rec.node, node.id, index, entry.term, rec.prevTerm, prevTerm));
    }
  }

  private onCommit(node: RaftNode, from: number, to: number): void {
    const now = this.cluster.nowMs;
    // Re-learning commits after a restart re-walks known indices; only new ones are recorded.
    for (let index = from + 1; index <= to; index++) {
      const known = this.committed[index];
      if (known !== undefined) {
        if (known.t === now && node.term < known.commitTerm) known.commitTerm = node.term;
        continue;
      }
      // Snapshots (§5): an entry compacted in the same step is known from its apply.
      const entry = node.entryAt(index) ?? (index <= node.snapshotIndex ? this.applied[index]?.entry : undefined);
      if (entry === undefined) break;
      this.committed[index] = { term: entry.term, entry, commitTerm: node.term, t: now };
      if (index > this.maxCommitted) this.maxCommitted = index;
    }
    // A leader of a later term must already hold what was just committed.
    for (const other of this.cluster.nodes) {
      if (other.role === 'leader' && other.term > node.term) this.checkLeaderHolds(other, from + 1, to);
    }
  }

  private onNewLeader(node: RaftNode): void {
    const previous = this.leaderOfTerm.get(node.term);
    if (previous === undefined) this.leaderOfTerm.set(node.term, node.id);
    else if (previous !== node.id) this.reportTwoLeaders(node.term, previous, node.id);
    this.checkLeaderHolds(node, 1, this.maxCommitted);
  }

  /** Leader Completeness: every entry committed in an earlier term is in this leader's log. */
  private checkLeaderHolds(leader: RaftNode, from: number, to: number): void {
    for (let index = from; index <= to; index++) {
      const rec = this.committed[index];
      if (rec === undefined || rec.commitTerm >= leader.term) continue;
      // Snapshots (§5): a compacted entry is held in the snapshot (snapshotInvariants.ts checks it).
      if (index <= leader.snapshotIndex) continue;
      const has = leader.entryAt(index);
      if (has !== undefined && has.term === rec.term) continue;
      this.violate(
        'leader-completeness',
        [leader.id],
        say.leaderMissesCommitted(
          leader.id,
          leader.term,
          index,
          commandText(rec.entry.command),
          rec.term,
          rec.commitTerm,
          has === undefined ? null : `${commandText(has.command)} (term ${has.term})`,
        ),
      );
      return;
    }
  }

  /** Election Safety from the cluster's own record, which also sees leaders that lasted under 1 ms. */
  private scanLeadersByTerm(): void {
    this.leaderEventsChecked = this.leaderEventsSeen;
    for (const [term, ids] of this.cluster.leadersByTerm) {
      if (ids.length < 2 || this.reportedTerms.has(term)) continue;
      for (let i = 1; i < ids.length; i++) {
        if (ids[i] !== ids[0]) {
          this.reportTwoLeaders(term, ids[0], ids[i]);
          break;
        }
      }
    }
  }

  private reportTwoLeaders(term: number, a: string, b: string): void {
    if (this.reportedTerms.has(term)) return;
    this.reportedTerms.add(term);
    this.violate('election-safety', [a, b], say.twoLeaders(term, a, b));
  }

  private checkStores(locks: LockService): void {
    const fenced = locks.fenced.writes;
    const view = this.clientView;
    while (this.fencedCursor < fenced.length) {
      const w = fenced[this.fencedCursor++];
      view?.onFencedWrite(w, locks.fenced.checksTokens);
    }
    const unfenced = locks.unfenced.writes;
    while (this.unfencedCursor < unfenced.length) {
      const w = unfenced[this.unfencedCursor++];
      if (w.accepted && w.leaseEnded) this.findings.push({ t: w.t, client: w.client, key: w.key, value: w.value, token: w.token });
    }
  }

  // -- on every apply -----------------------------------------------------------------------

  onApply(node: RaftNode, index: number, entry: LogEntry, result: ApplyResult | null): void {
    this.catchUpEvents();
    if (node.index >= this.tracks.length) this.trackNewNodes();
    const track = this.tracks[node.index];
    if (index <= track.appliedIndex) {
      this.violate('applied-monotonic', [node.id], say.appliedTwice(node.id, index, track.appliedIndex));
    }
    // Snapshots (§5): the node installed or restored a snapshot since its last apply; its table is
    // the snapshot's from here on.
    if (index > track.appliedIndex + 1 && node.snapshot !== null && node.snapshot.index === index - 1)
      this.reseedLocks(track, node.snapshot.state);
    track.appliedIndex = index;
    let rec = this.applied[index];
    const first = rec === undefined;
    if (rec === undefined) {
      this.applied[index] = rec = { entry, node: node.id, result, grant: undefined };
    } else if (rec.entry !== entry && !sameCommand(rec.entry.command, entry.command)) {
      this.violate(
        'state-machine-safety',
        [rec.node, node.id],
        say.appliedDiffers(node.id, index, commandText(entry.command), rec.node, commandText(rec.entry.command)),
      );
    }
    this.checkLockApply(node, track, rec, index, entry, result);
    // The committed lock table moves on the first apply of each index (after this node's own checks).
    if (first) this.clientView?.onFirstApply(index, entry, result, this.cluster.nowMs);
  }

  private reseedLocks(track: NodeTrack, state: SnapshotState | null): void {
    track.locks.clear();
    if (state === null) return;
    for (const l of state.locks) track.locks.set(l.key, { owner: l.owner, token: l.token });
    track.lastToken = state.nextToken - 1;
  }

  /** The lock table this node's applies imply, against what its state machine answered. */
  private checkLockApply(
    node: RaftNode,
    track: NodeTrack,
    rec: ApplyRecord,
    index: number,
    entry: LogEntry,
    result: ApplyResult | null,
  ): void {
    const command = entry.command;
    // Lock commands come only from the lock service, which gives every apply a result.
    if (!isLockCommand(command) || result === null) return;
    const shadow = track.locks;
    switch (command.type) {
      case 'grant': {
        const token = result.type === 'Granted' ? result.token : null;
        if (token !== null) {
          const held = shadow.get(command.key);
          // A Grant to the holder renews its lease; to anyone else while held, two hold the key.
          if (held !== undefined && held.owner !== command.owner) {
            this.violate('one-holder', [node.id], say.twoHolders(node.id, command.key, command.owner, token, held.owner, held.token));
          } else {
            shadow.set(command.key, { owner: command.owner, token });
          }
          if (token <= track.lastToken) this.violate('tokens', [node.id], say.tokenNotIncreasing(node.id, token, track.lastToken));
          track.lastToken = token;
        }
        if (rec.grant === undefined) rec.grant = token;
        else if (rec.grant !== token && rec.node !== node.id) {
          this.violate('tokens', [rec.node, node.id], say.tokenDiffers(node.id, index, token, rec.node, rec.grant));
        }
        return;
      }
      case 'release': {
        const held = shadow.get(command.key);
        const removed = result.type === 'Released';
        if (removed && held !== undefined && (held.owner !== command.owner || (command.token !== null && held.token !== command.token))) {
          this.violate('release-owner', [node.id], say.releaseByOther(node.id, command.key, command.owner, held.owner, held.token));
        }
        if (removed) shadow.delete(command.key);
        return;
      }
      case 'expire': {
        const held = shadow.get(command.key);
        const removed = result.type === 'Expired' && result.existed;
        if (removed && held !== undefined && held.token !== command.token) {
          this.violate('expire-token', [node.id], say.expireWrongToken(node.id, command.key, command.token, held.owner, held.token));
        }
        if (held !== undefined && held.token === command.token) shadow.delete(command.key);
        return;
      }
    }
  }

  /**
   * The clients' history so far against the models whose failure is a bug (the lock service, and
   * fencing order at the fenced store); the other verdicts are findings, counted. Returns them.
   */
  checkHistory(options: CheckOptions = {}): LinearizabilityReport | null {
    const service = this.run.lockService;
    if (service === null) return null;
    const ops = service.history.ops;
    const report = checkHistory(ops, { reentrant: reentrantLocks(this.cluster.config), ...options });
    for (const name of violatedVerdicts(report)) {
      if (!verdictIsViolation(this.cluster.config, name)) continue;
      const v = report[name];
      if (v === undefined || v.linearizable !== false) continue;
      const subset = v.subset.map((id) => ops[id]);
      const sentence = sayHistory.notLinearizable(sayHistory.modelNames[name], v.key, subset.map(sayHistory.opText));
      this.violate(
        name === 'locks' ? 'linearizable-locks' : name === 'register' ? 'linearizable-register' : 'linearizable-fenced-order',
        subset.map((o) => o.client),
        sentence,
      );
    }
    return report;
  }

  // -- recording ----------------------------------------------------------------------------

  private violate(id: InvariantId | HistoryCheckId, nodes: readonly string[], sentence: string): void {
    if (this.violations.length >= this.maxViolations || (this.skip !== null && this.skip.has(id))) return;
    const t = this.cluster.nowMs;
    const title = say.titles[id];
    const actions = this.run.schedule.slice(0, this.run.appliedCount ?? this.run.schedule.length);
    const violation: Violation = {
      invariant: id,
      title,
      t,
      nodes: [...new Set(nodes)],
      sentence,
      line: say.line(t, title, sentence),
      config: this.cluster.config,
      schedule: formatSchedule(actions),
      untilMs: t,
    };
    this.violations.push(violation);
    this.onViolation?.(violation);
  }
}

/**
 * Whether a failed verdict is a violation for this run's lock service. The chapter's service must
 * always be linearizable; another service's history is held to it only when it promises as much
 * (ZooKeeper, etcd, the database on one server) — Redis, Redlock and gossip make no such promise
 * under faults, so their failures are findings, counted like strict exclusion's.
 */
export function verdictIsViolation(config: SimConfig, name: string): boolean {
  if (lockOf(config) === 'raft') return true;
  if (name === 'locks') return consistentRun(config);
  if (name === 'fencedOrder') return consistentRun(config) && hasTokens(config);
  return true;
}

/** Attaches every invariant to a run (a Simulation): checked after every step from now on. */
export function attachInvariants(run: CheckedRun, options: CheckerOptions = {}): InvariantChecker {
  return new InvariantChecker(run, options).attach();
}

/** How long a converged cluster must keep its leader and term to count as live. */
function stableWindowMs(c: Cluster): number {
  return 2 * c.config.electionTimeoutMs[1] + 2 * deliveryBoundsMs(c.config)[1];
}

/** What keeps a cluster from converging, in a few words (for the liveness sentence). */
function describeStall(c: Cluster): string {
  const leader = c.leader();
  const terms = [...new Set(c.nodes.map((n) => n.term))].sort((a, b) => a - b);
  if (leader === null) return `there is no leader (terms ${terms.join(', ')})`;
  const behind = c.nodes.filter((n) => n.commitIndex !== leader.lastLogIndex || n.lastLogIndex !== leader.lastLogIndex).map((n) => n.id);
  if (leader.lastLogTerm !== leader.term) return `${leader.id} leads term ${leader.term} but holds no entry of it yet`;
  if (terms.length > 1) return `${leader.id} leads term ${leader.term} while nodes are in terms ${terms.join(', ')}`;
  return `${leader.id} leads term ${leader.term} but ${behind.join(', ')} ${behind.length === 1 ? 'has' : 'have'} not committed its log`;
}
