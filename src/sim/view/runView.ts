/**
 * What the view needs of a run at one instant, as plain structured-clone-able data. The worker
 * posts one of these per animation frame; the UI never reaches into the simulation itself.
 */
import type { LockRow, ServerFacts } from '../net/lockPlug';
import { featuresOf } from '../model/config';
import { lockMeasures } from './lockMeasures';
import { commandText } from '../model/describe';
import { paxosMessageLabel } from '../model/describePaxos';
import type { FeatureName } from '../model/features';
import type { DetailEvent, SimEvent } from '../model/events';
import type { ClientIntent } from '../model/schedule';
import { isPaxosRun, type AnyRun } from '../run/run';
import type { PaxosSimulation } from '../run/paxosSimulation';
import type { Cluster } from '../net/cluster';
import { ballotText } from '../model/ballot';
import type { StoreWriteRecord } from '../model/types';
import type { AppendEntries, Gossip, Message, MessageType, Role } from '../model/types';
import type { Membership } from '../raft/membership';
import { isCoordType, rpcIsAnswer, rpcIsBackground, rpcLabel } from '../model/lockWire';
import type { RaftNode } from '../raft/node';

/** How many trailing log entries a run view carries per node (the UI shows the tail). */
export const VIEW_LOG_TAIL = 60;

export interface LogEntryView {
  readonly index: number;
  readonly term: number;
  readonly text: string;
  /** `noop`: a new leader's no-op entry (leader-noop, §8), drawn apart from commands; `config`: a configuration entry (membership, §4.1). */
  readonly kind: 'plain' | 'grant' | 'release' | 'expire' | 'noop' | 'put' | 'get' | 'config' | 'coord';
}

export interface MembershipView {
  readonly voters: readonly string[];
  readonly configIndex: number;
  /** Leader only: the servers it catches up before they join. */
  readonly learners: readonly string[];
  readonly status: 'voter' | 'learner' | 'removed';
}

export interface LockView {
  readonly key: string;
  readonly owner: string;
  readonly token: number;
  readonly leaseMs: number;
  /** Lease time left by this node's own clock (negative once it ran out). */
  readonly remainingMs: number;
}

export interface NodeView {
  readonly id: string;
  /**
   * A server of a lock service without Raft (Redis, Redlock, the database, gossip: issue 26):
   * what it is and holds in its system's words. Its Raft fields are then an idle follower's and
   * mean nothing; absent in every run on Raft.
   */
  readonly server?: ServerFacts;
  readonly alive: boolean;
  readonly role: Role;
  readonly term: number;
  readonly votedFor: string | null;
  /** Votes received in the current candidacy (meaningful while candidate or just elected). */
  readonly votes: readonly string[];
  readonly leaderId: string | null;
  readonly electionTimerStart: number;
  readonly electionDeadline: number;
  readonly heartbeatDue: number;
  readonly logLength: number;
  /** The last VIEW_LOG_TAIL entries. */
  readonly log: readonly LogEntryView[];
  readonly commitIndex: number;
  readonly lastApplied: number;
  /** Leader only: per peer. */
  readonly nextIndex: Readonly<Record<string, number>>;
  readonly matchIndex: Readonly<Record<string, number>>;
  readonly locks: readonly LockView[];
  readonly nextToken: number;
  readonly driftPct: number;
  readonly localNowMs: number;
  /** Pre-vote (§9.6): asking for pre-votes, and who said yes so far (present only while it asks). */
  readonly preCandidate?: true;
  /** fast-backup, a leader: rejections in a row from each peer (round trips spent backing up). */
  readonly backupRounds?: Readonly<Record<string, number>>;
  /**
   * Membership changes (only in runs with the feature): this node's configuration in force, and
   * where the cluster's leader (else the node itself) puts it — a voter, a learner catching up
   * (§4.2.1), or removed.
   */
  readonly membership?: MembershipView;
  readonly preVotes?: readonly string[];
  /** Snapshots (§5): the compacted prefix, present only once the node holds a snapshot. */
  readonly snapshot?: { readonly index: number; readonly term: number };
  /**
   * Paxos runs only (src/sim/paxos/): the node's three parts. In such a run `term` holds a ballot
   * (model/ballot.ts; `ballot` here is its text), `log` the slots (an entry's `term` the ballot it
   * was accepted in), `commitIndex` the end of the unbroken run of learned slots.
   */
  readonly paxos?: PaxosNodeView;
  /** Issue 28: what the run's failure detector (phi-accrual or gossip) tells this node now; absent with the fixed timeout. */
  readonly watch?: DetectorWatchView;
}

/**
 * Issue 28: a node's failure detector, read for the page and its Why answers. Phi-accrual: its
 * φ of the leader it follows and the window's numbers (null before any heartbeat). Gossip: whom
 * its view suspects and how long since it last had news of its leader.
 */
export type DetectorWatchView =
  | {
      readonly kind: 'phi-accrual';
      readonly threshold: number;
      readonly window: number;
      readonly reading: {
        readonly leader: string;
        readonly phi: number;
        readonly meanMs: number;
        readonly stdMs: number;
        readonly timeoutMs: number;
        /** When the last heartbeat arrived (ms). */
        readonly lastMs: number;
      } | null;
    }
  | {
      readonly kind: 'gossip';
      readonly fanout: number;
      readonly roundMs: number;
      readonly suspectMs: number;
      readonly suspects: readonly string[];
      readonly leaderSilenceMs: number | null;
    };

/** What a Paxos node shows: the proposer's phase and ballot, the acceptor's promise, each slot. */
export interface PaxosNodeView {
  readonly phase: 'idle' | 'preparing' | 'accepting' | 'leading' | 'backoff' | 'done';
  /** The proposer's ballot ("1.2"; "none" before it first prepares). */
  readonly ballot: string;
  readonly promised: string;
  /** Phase 1: the acceptors that promised this ballot so far. */
  readonly promises: readonly string[];
  /** The value a client gave this proposer (single-decree), or the commands waiting for a slot. */
  readonly ownValue: string | null;
  readonly pending: readonly string[];
  /** Slot by slot (the last VIEW_LOG_TAIL): what this acceptor accepted and what this learner learned. */
  readonly slots: readonly PaxosSlotView[];
  /** Multi-Paxos: the state machine's contents, and the leader this node follows. */
  readonly state: string;
  readonly leaderId: string | null;
}

export interface PaxosSlotView {
  readonly slot: number;
  readonly accepted: { readonly ballot: string; readonly value: string } | null;
  readonly learned: string | null;
}

export interface MessageView {
  readonly seq: number;
  readonly type: MessageType;
  readonly src: string;
  readonly dst: string;
  readonly sentAt: number;
  readonly deliverAt: number;
  /** Will be lost in flight (message loss); drawn dying half way. */
  readonly lost: boolean;
  /** Short text for tooltips: "AE term 2 [x=1] commit 1", "vote granted". */
  readonly label: string;
  /** A reply's verdict (vote granted, append succeeded); null for other types. */
  readonly ok: boolean | null;
  /** An AppendEntries that carries no entries: a heartbeat. */
  readonly heartbeat: boolean;
  /** Every field the message carries (entries as text), for the Why panel. */
  readonly fields: MessageFields;
}

/** A message's payload as plain data: AppendEntries carries its entries as index, term and text. */
export type MessageFields =
  | Exclude<Message, AppendEntries>
  | (Omit<AppendEntries, 'entries'> & {
      readonly entries: readonly { readonly index: number; readonly term: number; readonly text: string }[];
    });

export interface DropView extends MessageView {
  readonly droppedAt: number;
  readonly reason: 'down' | 'partition' | 'loss';
}

export interface ClientView {
  readonly id: string;
  readonly alive: boolean;
  readonly paused: boolean;
  readonly pausedUntil: number | null;
  readonly status: string;
  readonly believedLeader: string;
  readonly currentToken: number | null;
  /** `token` is null with a lock service that has none (issue 26). */
  readonly holdings: readonly { readonly key: string; readonly token: number | null; readonly deadline: number }[];
  /** Intents waiting their turn, as the schedule words them: "acquire job:42", "write result=A-1". */
  readonly queue: readonly string[];
  /** Reads: the answer to the client's last put or get (`get x -> 1`); absent before any. */
  readonly lastResult?: string;
}

export interface StoreView {
  readonly id: 'fenced' | 'unfenced';
  readonly checksTokens: boolean;
  readonly values: readonly { readonly key: string; readonly value: string; readonly token: number | null }[];
  readonly accepted: number;
  readonly rejected: number;
  readonly writes: readonly StoreWriteRecord[];
}

/** Issue 26's measures so far, for the page (view/lockMeasures.ts): present only in runs of a service other than the chapter's. */
export interface LockMeasuresView {
  readonly service: string;
  readonly tokens: boolean;
  readonly overlaps: readonly {
    readonly key: string;
    readonly clients: readonly string[];
    readonly fromMs: number;
    readonly toMs: number;
  }[];
  readonly unfencedOutOfOrder: number;
  readonly fencedStaleRefused: number;
  readonly fencedNoTokenRefused: number;
}

export interface RunView {
  readonly now: number;
  /** A Paxos run's protocol (src/sim/paxos/); absent in a Raft run. */
  readonly protocol?: 'paxos' | 'multi-paxos';
  /** Paxos runs: every slot chosen so far, in the order the run first learned them. */
  readonly chosen?: readonly { readonly slot: number; readonly value: string; readonly ballot: string; readonly atMs: number }[];
  readonly lockMeasures?: LockMeasuresView;
  /** Another lock service's table (its own state, in its own terms), for the Locks panel; absent for the chapter's. */
  readonly lockRows?: readonly LockRow[];
  /** The run's protocol features; absent when none is on. */
  readonly features?: readonly FeatureName[];
  readonly nodes: readonly NodeView[];
  readonly leader: string | null;
  readonly messages: readonly MessageView[];
  readonly drops: readonly DropView[];
  /** Partition groups; empty when the network is whole. */
  readonly partitions: readonly (readonly string[])[];
  readonly clients: readonly ClientView[];
  readonly stores: { readonly fenced: StoreView; readonly unfenced: StoreView } | null;
  readonly lossPct: number;
  readonly sent: Readonly<Record<string, number>>;
  readonly dropped: number;
  readonly eventCount: number;
}

/** The fields of a message the view draws from, beyond its type and ends. */
function queuedText(i: ClientIntent): string {
  switch (i.op) {
    case 'write':
      return `write ${i.key}=${i.value}`;
    case 'acquire':
    case 'release':
      return `${i.op} ${i.key}`;
    case 'put':
      return `put ${i.key}=${i.value}`;
    case 'get':
      return `get ${i.key}${i.mode !== null ? ` ${i.mode}` : ''}`;
    default:
      return i.op;
  }
}

function messageFacts(payload: Message): Pick<MessageView, 'label' | 'ok' | 'heartbeat' | 'fields'> {
  return {
    label: messageLabel(payload),
    ok:
      payload.type === 'VoteReply'
        ? payload.granted
        : payload.type === 'AppendReply'
          ? payload.success
          : payload.type === 'ServiceRpc'
            ? rpcOk(payload)
            : paxosOk(payload),
    heartbeat:
      ((payload.type === 'AppendEntries' || payload.type === 'Accept') && payload.entries.length === 0) ||
      (payload.type === 'ServiceRpc' && rpcIsBackground(payload)),
    fields: messageFields(payload),
  };
}

/** Paxos replies' verdicts: a promise and an acceptance say yes, a Nack no; null for the rest. */
function paxosOk(payload: Message): boolean | null {
  const type = payload.type;
  return type === 'Promise' || type === 'Accepted' ? true : type === 'Nack' ? false : null;
}

export function messageFields(payload: Message): MessageFields {
  if (payload.type !== 'AppendEntries') return payload;
  return {
    ...payload,
    entries: payload.entries.map((e, i) => ({ index: payload.prevLogIndex + 1 + i, term: e.term, text: commandText(e.command) })),
  };
}

export function messageLabel(payload: Message): string {
  switch (payload.type) {
    case 'RequestVote':
      return `${payload.preVote ? 'PreVote' : 'RequestVote'} term ${payload.term} (last ${payload.lastLogIndex}/${payload.lastLogTerm})`;
    case 'VoteReply':
      return `${payload.preVote ? 'pre-vote' : 'vote'} ${payload.granted ? 'granted' : 'refused'} (term ${payload.term})`;
    case 'AppendEntries':
      return payload.entries.length === 0
        ? `heartbeat term ${payload.term}, commit ${payload.leaderCommit}`
        : `AppendEntries term ${payload.term} [${payload.entries.map((e) => commandText(e.command)).join(', ')}] after ${payload.prevLogIndex}`;
    case 'AppendReply':
      return `append ${payload.success ? `ok, match ${payload.matchIndex}` : 'rejected'} (term ${payload.term})`;
    case 'TimeoutNow':
      return `TimeoutNow from ${payload.leader} (term ${payload.term})`;
    case 'ClientRequest':
      return `${payload.op} ${payload.key}`;
    case 'ClientReply':
      return `${payload.outcome}${payload.token !== null ? ` token ${payload.token}` : ''} (${payload.key})`;
    case 'StoreWrite':
      return `write ${payload.key}=${payload.value} token ${payload.token ?? 'none'}`;
    case 'InstallSnapshot':
      return `InstallSnapshot term ${payload.term}: snapshot ≤ ${payload.snapshot.index}, term ${payload.snapshot.term}`;
    case 'InstallSnapshotReply':
      return `snapshot installed, match ${payload.matchIndex} (term ${payload.term})`;
    case 'ServiceRpc':
      return rpcLabel(payload);
    // Issue 28: the failure detectors' messages.
    case 'Gossip':
      return `gossip: ${gossipSummary(payload)}`;
    case 'KeepAlive':
      return `keep-alive ${payload.keys.join(', ')}`;
    default:
      return paxosMessageLabel(payload);
  }
}

/** Another lock service's message (issue 26): an answer or watch event is drawn as a reply (ok), a request as a request. */
function rpcOk(payload: Message): boolean | null {
  return payload.type === 'ServiceRpc' && rpcIsAnswer(payload) ? true : null;
}

/** A gossip view in a few words: "7 counters, suspects 1". */
function gossipSummary(g: Gossip): string {
  let known = 0;
  let suspects = 0;
  for (let i = 0; i < g.counts.length; i++) {
    if (g.counts[i] > 0) known++;
    if (g.suspects[i] !== 0) suspects++;
  }
  return `${known} counter${known === 1 ? '' : 's'}${suspects > 0 ? `, suspects ${suspects}` : ''}`;
}

function membershipView(node: RaftNode, leader: RaftNode | null): MembershipView {
  const m = node.membership as Membership;
  const judge = (leader ?? node).membership as Membership;
  const status = judge.isVoter(node.id) ? 'voter' : judge.learners.includes(node.id) ? 'learner' : 'removed';
  return { voters: m.voters, configIndex: m.configIndex, learners: m.learners, status };
}

export function takeRunView(run: AnyRun): RunView {
  if (isPaxosRun(run)) return takePaxosRunView(run);
  const sim = run;
  const cluster = sim.cluster;
  const now = cluster.nowMs;
  const ls = sim.lockService;
  const lead = cluster.features.membership ? cluster.leader() : null;
  const backend = ls?.backend ?? null;
  const serverFacts = backend?.serverFacts?.bind(backend);
  const nodes: NodeView[] = cluster.nodes.map((node) => {
    const from = Math.max(0, node.log.length - VIEW_LOG_TAIL);
    const log: LogEntryView[] = [];
    for (let i = from; i < node.log.length; i++) {
      const entry = node.log[i];
      const c = entry.command;
      log.push({
        index: i + 1 + node.snapshotIndex,
        term: entry.term,
        text: commandText(c),
        kind: typeof c === 'string' ? 'plain' : isCoordType(c.type) ? 'coord' : (c.type as LogEntryView['kind']),
      });
    }
    const local = cluster.localNowMs(node);
    const machine = ls !== null ? ls.machineOf(node) : null;
    const locks: LockView[] = (machine === null ? [] : [...machine.locks]).map(([key, h]) => ({
      key,
      owner: h.owner,
      token: h.token,
      leaseMs: h.leaseMs,
      remainingMs: Math.round(h.grantedAtLocalMs + h.leaseMs - local),
    }));
    const isLeader = node.role === 'leader';
    return {
      id: node.id,
      alive: node.alive,
      role: node.role,
      term: node.term,
      votedFor: node.votedFor,
      votes: node.role === 'follower' ? [] : [...node.votes].sort(),
      leaderId: node.leaderId,
      electionTimerStart: node.electionTimerStart,
      electionDeadline: node.electionDeadline,
      heartbeatDue: node.heartbeatDue,
      logLength: node.lastLogIndex,
      log,
      commitIndex: node.commitIndex,
      lastApplied: node.lastApplied,
      nextIndex: isLeader ? Object.fromEntries(node.peers.map((p) => [p, node.nextIndexOf(p)])) : {},
      matchIndex: isLeader ? Object.fromEntries(node.peers.map((p) => [p, node.matchIndexOf(p)])) : {},
      locks,
      nextToken: machine?.nextToken ?? 1,
      driftPct: cluster.driftPct[node.index],
      localNowMs: Math.round(local),
      ...(node.preCandidate ? { preCandidate: true as const, preVotes: [...node.preVotes].sort() } : {}),
      ...watchOf(cluster, node),
      ...(isLeader && cluster.features.fastBackup
        ? { backupRounds: Object.fromEntries(node.peers.map((p) => [p, node.backupRoundsOf(p)])) }
        : {}),
      ...(node.snapshot !== null ? { snapshot: { index: node.snapshot.index, term: node.snapshot.term } } : {}),
      ...(node.membership !== null ? { membership: membershipView(node, lead) } : {}),
      ...(serverFacts !== undefined ? { server: serverFacts(node.index) } : {}),
    };
  });
  const { messages, drops } = wireViews(cluster);
  const clients: ClientView[] = ls
    ? [...ls.clients.values()].map((c) => ({
        id: c.id,
        alive: c.alive,
        paused: c.paused(now),
        pausedUntil: c.paused(now) ? c.pausedUntil : null,
        status: c.status,
        believedLeader: c.believedLeader,
        currentToken: c.currentToken,
        holdings: [...c.holdings].map(([key, h]) => ({ key, token: h.token, deadline: h.deadline })),
        queue: c.queue.map(queuedText),
        ...(c.lastResult !== null ? { lastResult: c.lastResult } : {}),
      }))
    : [];
  const storeView = (s: import('../service/stores').Store): StoreView => ({
    id: s.id,
    checksTokens: s.checksTokens,
    values: [...s.values].map(([key, v]) => ({ key, value: v.value, token: v.token })),
    accepted: s.accepted,
    rejected: s.rejected,
    writes: s.writes.slice(-50),
  });
  const features = featuresOf(cluster.config);
  const measured = cluster.config.lock !== undefined ? lockMeasures(sim) : null;
  return {
    now,
    ...(measured !== null
      ? {
          lockMeasures: {
            service: measured.service,
            tokens: measured.tokens,
            overlaps: measured.overlaps.map((o) => ({ key: o.key, clients: o.clients, fromMs: o.fromMs, toMs: o.toMs })),
            unfencedOutOfOrder: measured.unfencedOutOfOrder,
            fencedStaleRefused: measured.fencedStaleRefused,
            fencedNoTokenRefused: measured.fencedNoTokenRefused,
          },
        }
      : {}),
    ...(backend !== null ? { lockRows: backend.lockRows() } : {}),
    ...(features.length > 0 ? { features } : {}),
    nodes,
    leader: cluster.leader()?.id ?? null,
    messages,
    drops,
    partitions: cluster.groups.map((g) => [...g]),
    clients,
    stores: ls ? { fenced: storeView(ls.fenced), unfenced: storeView(ls.unfenced) } : null,
    lossPct: cluster.lossPct,
    sent: { ...cluster.sent },
    dropped: cluster.dropped,
    eventCount: cluster.events.length,
  };
}

/** Issue 28: the node's detector reading, only in runs with phi-accrual or gossip. */
function watchOf(cluster: Cluster, node: RaftNode): { watch?: DetectorWatchView } {
  const phi = cluster.phiWatch;
  if (phi !== null) {
    const r = node.alive ? phi.reading(node.index, cluster.nowMs) : null;
    return {
      watch: {
        kind: 'phi-accrual',
        threshold: phi.params.threshold,
        window: phi.params.window,
        reading:
          r === null ? null : { leader: r.leader, phi: r.phi, meanMs: r.meanMs, stdMs: r.stdMs, timeoutMs: r.timeoutMs, lastMs: r.lastMs },
      },
    };
  }
  const g = cluster.gossip;
  if (g === null) return {};
  const leader = node.role === 'follower' ? node.leaderId : null;
  return {
    watch: {
      kind: 'gossip',
      fanout: g.params.fanout,
      roundMs: g.params.roundMs,
      suspectMs: g.params.suspectMs,
      suspects: node.alive ? g.suspectedIn(node.index) : [],
      leaderSilenceMs: node.alive && leader !== null ? g.silenceMs(node.index, leader) : null,
    },
  };
}

/** Events from index `from` on, for streaming new lines with each run view. */
export function eventsSince(sim: AnyRun, from: number): SimEvent[] {
  return sim.cluster.events.slice(from);
}

/** Detail events from the run's index `from` on (empty unless the run records them; trimmed ones are gone). */
export function detailsSince(sim: AnyRun, from: number): DetailEvent[] {
  return sim.cluster.detailLog.since(from);
}

/** How many detail events the run has recorded, trimmed ones included. */
export function detailCount(sim: AnyRun): number {
  return sim.cluster.detailLog.count;
}

/** What the ring's canvas draws of a message: where it goes, when, and its kind. */
export type PaintMessage = Pick<MessageView, 'seq' | 'type' | 'src' | 'dst' | 'sentAt' | 'deliverAt' | 'lost' | 'ok' | 'heartbeat'>;
export type PaintDrop = PaintMessage & Pick<DropView, 'droppedAt' | 'reason'>;
/** What the canvas draws of a node: its election timer. */
export type PaintNode = Pick<NodeView, 'id' | 'alive' | 'role' | 'electionTimerStart' | 'electionDeadline'>;

export interface PaintView {
  readonly messages: readonly PaintMessage[];
  readonly drops: readonly PaintDrop[];
  readonly nodes: readonly PaintNode[];
}

function paintMessage(env: {
  seq: number;
  src: string;
  dst: string;
  sentAt: number;
  deliverAt: number;
  lost: boolean;
  payload: Message;
}): PaintMessage {
  const p = env.payload;
  return {
    seq: env.seq,
    type: p.type,
    src: env.src,
    dst: env.dst,
    sentAt: env.sentAt,
    deliverAt: env.deliverAt,
    lost: env.lost,
    ok: p.type === 'VoteReply' ? p.granted : p.type === 'AppendReply' ? p.success : p.type === 'ServiceRpc' ? rpcOk(p) : paxosOk(p),
    heartbeat:
      ((p.type === 'AppendEntries' || p.type === 'Accept') && p.entries.length === 0) || (p.type === 'ServiceRpc' && rpcIsBackground(p)),
  };
}

/**
 * The few fields of a run view the ring's canvas draws, every frame, for the paint worker: a
 * full run view carries every message's payload and every node's log, far more than a frame of
 * motion needs. The same values as takeRunView's, field for field.
 */
export function paintView(sim: AnyRun): PaintView {
  const cluster = sim.cluster;
  const messages = cluster.inflight.items.map(paintMessage);
  messages.sort((a, b) => a.seq - b.seq);
  return {
    messages,
    drops: cluster.recentDrops.map((d) => ({ ...paintMessage(d.envelope), droppedAt: d.droppedAt, reason: d.reason })),
    nodes: cluster.nodes.map((n) => ({
      id: n.id,
      alive: n.alive,
      role: n.role,
      electionTimerStart: n.electionTimerStart,
      electionDeadline: n.electionDeadline,
    })),
  };
}

/** The messages in flight and the recent drops, as the view draws them (either protocol). */
function wireViews(cluster: AnyRun['cluster']): { messages: MessageView[]; drops: DropView[] } {
  const messages: MessageView[] = cluster.inflight.items.map((env) => ({
    seq: env.seq,
    type: env.payload.type,
    src: env.src,
    dst: env.dst,
    sentAt: env.sentAt,
    deliverAt: env.deliverAt,
    lost: env.lost,
    ...messageFacts(env.payload),
  }));
  messages.sort((a, b) => a.seq - b.seq);
  const drops: DropView[] = cluster.recentDrops.map((d) => ({
    seq: d.envelope.seq,
    type: d.envelope.payload.type,
    src: d.envelope.src,
    dst: d.envelope.dst,
    sentAt: d.envelope.sentAt,
    deliverAt: d.envelope.deliverAt,
    lost: d.envelope.lost,
    ...messageFacts(d.envelope.payload),
    droppedAt: d.droppedAt,
    reason: d.reason,
  }));
  return { messages, drops };
}

/**
 * A Paxos run as the page draws it: every node a NodeView in Raft's words (role from the phase,
 * the ballot where the term goes, the slots where the log goes: paxos/node.ts says why), plus
 * what only Paxos has in `paxos`. The ring, the space-time view and the panels read one shape.
 */
function takePaxosRunView(sim: PaxosSimulation): RunView {
  const cluster = sim.cluster;
  const now = cluster.nowMs;
  const nodes: NodeView[] = cluster.nodes.map((node) => {
    const slotIds = [...new Set([...node.acceptor.accepted.keys(), ...node.learner.chosen.keys()])]
      .sort((a, b) => a - b)
      .slice(-VIEW_LOG_TAIL);
    const slots: PaxosSlotView[] = slotIds.map((slot) => {
      const a = node.acceptor.accepted.get(slot);
      return {
        slot,
        accepted: a === undefined ? null : { ballot: ballotText(a.ballot), value: a.value },
        learned: node.learner.chosen.get(slot) ?? null,
      };
    });
    const log: LogEntryView[] = slotIds.map((slot) => {
      const a = node.acceptor.accepted.get(slot);
      const value = node.learner.chosen.get(slot) ?? a?.value ?? '';
      return { index: slot, term: a?.ballot ?? 0, text: value, kind: value === 'no-op' ? 'noop' : 'plain' };
    });
    const leading = node.phase === 'leading';
    return {
      id: node.id,
      alive: node.alive,
      role: node.role,
      term: node.term,
      votedFor: null,
      votes: node.phase === 'preparing' ? [...node.promises.keys()].sort() : [],
      leaderId: node.leaderId,
      electionTimerStart: node.electionTimerStart,
      electionDeadline: cluster.multi && !leading ? node.electionDeadline : 0,
      heartbeatDue: leading ? node.heartbeatDue : 0,
      logLength: slotIds.length > 0 ? slotIds[slotIds.length - 1] : 0,
      log,
      commitIndex: node.learner.learnedThrough,
      lastApplied: node.machine.applied,
      nextIndex: {},
      matchIndex: leading ? Object.fromEntries(node.peers.map((p) => [p, node.peerLearned.get(p) ?? 0])) : {},
      locks: [],
      nextToken: 1,
      driftPct: 0,
      localNowMs: now,
      paxos: {
        phase: node.phase,
        ballot: ballotText(node.ballot),
        promised: ballotText(node.acceptor.promised),
        promises: [...node.promises.keys()].sort(),
        ownValue: node.ownValue,
        pending: [...node.pending],
        slots,
        state: node.machine.text(),
        leaderId: node.leaderId,
      },
    };
  });
  const leader = cluster.leader();
  return {
    now,
    protocol: cluster.protocol,
    chosen: cluster.chosen.map((c) => ({ slot: c.slot, value: c.value, ballot: ballotText(c.ballot), atMs: c.atMs })),
    nodes,
    leader: leader?.id ?? null,
    ...wireViews(cluster),
    partitions: cluster.groups.map((g) => [...g]),
    clients: [],
    stores: null,
    lossPct: cluster.lossPct,
    sent: { ...cluster.sent },
    dropped: cluster.dropped,
    eventCount: cluster.events.length,
  };
}
