/** Shared shapes of the simulation core: roles, log entries and the messages on the wire. */
import { isCoordType, type CoordCommand, type CoordResult, type ServiceRpc } from './lockWire';

export type { CoordCommand, CoordResult, ServiceRpc } from './lockWire';

export type Role = 'follower' | 'candidate' | 'leader';

/** Lock-service commands (shared/seeds/000): the token is assigned at apply time, never carried. */
export type LockCommand =
  | { readonly type: 'grant'; readonly key: string; readonly leaseMs: number; readonly owner: string }
  /** Names its owner and token, and is refused unless they hold the key (as Expire checks its token). */
  | { readonly type: 'release'; readonly key: string; readonly owner: string; readonly token: number | null }
  | { readonly type: 'expire'; readonly key: string; readonly token: number };

/**
 * What applying a committed command to the lock table gives (shared/seeds/000); plain string
 * commands apply as Noop.
 */
export type ApplyResult =
  | { readonly type: 'Granted'; readonly token: number }
  | { readonly type: 'GrantRejected' }
  | { readonly type: 'Released' }
  | { readonly type: 'NotFound' }
  /** A release by a client that does not hold the key (or names another token): nothing removed. */
  | { readonly type: 'NotHolder'; readonly holder: string; readonly token: number }
  | { readonly type: 'Expired'; readonly existed: boolean }
  | { readonly type: 'Noop' }
  /** Reads (§6.4): a put stored its value (or was a copy of one already applied, §6.3). */
  | { readonly type: 'Put' }
  /** A get through the log: the key's value when the entry applied (null: never put). */
  | { readonly type: 'Got'; readonly value: string | null }
  /** ZooKeeper's and etcd's entries (lockWire.ts). */
  | CoordResult;

/**
 * The no-op a new leader appends with the leader-noop feature (§8): it carries nothing, applies
 * as Noop, and no client or lock-service rule ever looks at it.
 */
export interface NoopCommand {
  readonly type: 'noop';
}

export const NOOP_COMMAND: NoopCommand = Object.freeze({ type: 'noop' });

/**
 * Reads (§6.4): the replicated key-value map's commands. A put names its client and request id,
 * so the map applies a retried copy once (§6.3's client sessions); a get in `log` mode is an entry
 * too, answered with the value when it applies.
 */
export type KvCommand =
  | { readonly type: 'put'; readonly key: string; readonly value: string; readonly client: string; readonly requestId: number }
  | { readonly type: 'get'; readonly key: string; readonly client: string; readonly requestId: number };

/**
 * A configuration entry of the membership feature (§4.1): the voters of the new configuration,
 * and the one server it adds or removes. It applies as Noop; it takes effect on a server as soon
 * as the server appends it (membership.ts), not when it commits.
 */
export interface ConfigCommand {
  readonly type: 'config';
  readonly voters: readonly string[];
  readonly op: 'add' | 'remove';
  readonly node: string;
}

/**
 * A log command is a plain string (applies as Noop), a lock command, a leader's no-op, a put/get,
 * a configuration, or one of ZooKeeper's or etcd's when the run's lock service is one of them.
 */
export type Command = string | LockCommand | NoopCommand | KvCommand | ConfigCommand | CoordCommand;

/** Whether a command is one of the chapter's lock service's (not a plain string, a no-op, a put/get, a configuration or another service's). */
export function isLockCommand(command: Command): command is LockCommand {
  if (typeof command === 'string') return false;
  const type = command.type;
  return type !== 'noop' && type !== 'put' && type !== 'get' && type !== 'config' && !isCoordType(type);
}

/** Whether a command is one of ZooKeeper's or etcd's (issue 26). */
export function isCoordCommand(command: Command): command is CoordCommand {
  return typeof command !== 'string' && isCoordType(command.type);
}

/** Whether a command is one of the key-value map's (reads feature). */
export function isKvCommand(command: Command): command is KvCommand {
  return typeof command !== 'string' && (command.type === 'put' || command.type === 'get');
}

export interface LogEntry {
  readonly term: number;
  readonly command: Command;
}

export interface RequestVote {
  readonly type: 'RequestVote';
  readonly term: number;
  readonly candidate: string;
  readonly lastLogIndex: number;
  readonly lastLogTerm: number;
  /**
   * Pre-vote (§9.6): only asking whether the receiver would vote in `term`; nobody changes term or
   * vote for it. Absent (never false) without the feature, so the chapter's messages are unchanged.
   */
  readonly preVote?: true;
  /** Leadership transfer (§3.10): sent on TimeoutNow, so voters that hear a leader do not ignore it. Absent without the feature. */
  readonly transfer?: true;
}

export interface VoteReply {
  readonly type: 'VoteReply';
  readonly term: number;
  readonly granted: boolean;
  /** The answer to a pre-vote request; a yes carries the proposed term. */
  readonly preVote?: true;
}

export interface AppendEntries {
  readonly type: 'AppendEntries';
  readonly term: number;
  readonly leader: string;
  readonly prevLogIndex: number;
  readonly prevLogTerm: number;
  readonly entries: readonly LogEntry[];
  readonly leaderCommit: number;
  /**
   * Reads (§6.4): the leader's heartbeat round, echoed by the reply, so ReadIndex and the lease
   * know which round a majority answered. Absent without the feature.
   */
  readonly round?: number;
}

export interface AppendReply {
  readonly type: 'AppendReply';
  readonly term: number;
  readonly success: boolean;
  readonly matchIndex: number;
  /** Reads: the round of the AppendEntries this answers (absent without the feature). */
  readonly round?: number;
  /**
   * fast-backup (§5.3): a rejection for a failed consistency check names the term of the
   * follower's entry at prevLogIndex (0 when its log is too short) and the first index it holds
   * of that term (just past its last entry when too short). Absent without the feature.
   */
  readonly conflictTerm?: number;
  readonly conflictIndex?: number;
}

/**
 * The state a snapshot keeps (§5.1): the lock service's replicated table and token counter. A
 * Raft-only run has no state machine, so its snapshots keep none (null).
 */
export interface SnapshotState {
  /** The replicated lock table at the snapshot's last included index: key → holder and token. */
  readonly locks: readonly { readonly key: string; readonly owner: string; readonly token: number; readonly leaseMs: number }[];
  /** The token the next Grant receives. */
  readonly nextToken: number;
  /** The reads feature's key-value map (key order); absent when it holds nothing. */
  readonly kv?: readonly { readonly key: string; readonly value: string }[];
  /**
   * Per client, the newest put applied (§6.3 sessions, client order): kept with the map, or a put
   * retried after the snapshot would apply a second time on a node that installed it.
   */
  readonly lastPut?: readonly { readonly client: string; readonly requestId: number }[];
}

/** A node's snapshot (snapshots feature, §5.1): everything up to `index` in one piece. */
export interface RaftSnapshot {
  /** The last included index and its term. */
  readonly index: number;
  readonly term: number;
  readonly state: SnapshotState | null;
  /** Membership changes (only with the feature): the configuration in force at the last included index. */
  readonly config?: SnapshotConfig;
}

/**
 * The configuration a snapshot carries (membership with snapshots, §5.1 and §4.1): the latest
 * configuration entry at or below its last included index (index 0 and no entry: the initial
 * servers), and the voters before it.
 */
export interface SnapshotConfig {
  readonly index: number;
  readonly entry: ConfigCommand | null;
  readonly voters: readonly string[];
  readonly previous: readonly string[];
}

/** Leader → follower whose next entry the leader has compacted (§5.1): the whole snapshot at once. */
export interface InstallSnapshot {
  readonly type: 'InstallSnapshot';
  readonly term: number;
  readonly leader: string;
  readonly snapshot: RaftSnapshot;
}

export interface InstallSnapshotReply {
  readonly type: 'InstallSnapshotReply';
  readonly term: number;
  /** The snapshot's last included index, which the follower now holds (the leader's matchIndex). */
  readonly matchIndex: number;
}

/** Leadership transfer (§3.10): the leader tells an up-to-date follower to start an election now. */
export interface TimeoutNow {
  readonly type: 'TimeoutNow';
  readonly term: number;
  readonly leader: string;
}

export type RaftMessage = RequestVote | VoteReply | AppendEntries | AppendReply | InstallSnapshot | InstallSnapshotReply | TimeoutNow;

/** Client → node: ask the lock service for something. `id` lets the client match the reply. */
export interface ClientRequest {
  readonly type: 'ClientRequest';
  readonly id: number;
  /** put and get exist only with the reads feature. */
  readonly op: 'acquire' | 'release' | 'put' | 'get';
  readonly key: string;
  readonly leaseMs: number;
  /** A release names the token the client holds the key with (null if it believes it holds none). */
  readonly token: number | null;
  /** A put's value (put only). */
  readonly value?: string;
  /** How a get is to be answered (get only). */
  readonly readMode?: 'log' | 'read-index' | 'lease';
  /**
   * Which send of request `id` this is (1, 2, ...): every retry and redirect sends again. A node
   * that is not the leader echoes it, so the client follows only the redirect that answers its
   * latest send, never a duplicate or a late copy answering an earlier one.
   */
  readonly attempt: number;
}

/** Node → client: the answer, or a redirect to the node this one believes leads. */
export interface ClientReply {
  readonly type: 'ClientReply';
  readonly id: number;
  readonly op: 'acquire' | 'release' | 'put' | 'get';
  readonly key: string;
  /** `ok`: a put stored, or a get answered (its value in `value`). */
  readonly outcome: 'granted' | 'busy' | 'released' | 'not-found' | 'not-holder' | 'not-leader' | 'ok';
  readonly token: number | null;
  readonly leaderHint: string | null;
  /** The log index whose applied entry this answers; null for answers that need no entry. */
  readonly index: number | null;
  /** A get's answer: the key's value (null: never put). Absent on every other reply. */
  readonly value?: string | null;
  /** A not-leader answer: the request's `attempt` it answers (absent on every other answer). */
  readonly attempt?: number;
}

/** Client → store: a write stamped with the client's fencing token (null if it has none). */
export interface StoreWrite {
  readonly type: 'StoreWrite';
  readonly key: string;
  readonly value: string;
  readonly token: number | null;
  /** The lock key the client believes it holds while writing (for findings), if any. */
  readonly lockKey: string | null;
  /**
   * A service with no fencing token (Redis, Redlock, gossip): the writer's grant by its number in
   * the clients' history, the lab's bookkeeping for the unfenced store's order. The stores never
   * read it; absent with every service that has a token.
   */
  readonly grant?: number;
}

/**
 * Issue 28, the gossip detector (src/sim/detect/gossip.ts): the sender's view — each member's
 * heartbeat counter (members: the run's nodes, then its clients) and whom it suspects (1).
 */
export interface Gossip {
  readonly type: 'Gossip';
  readonly counts: Int32Array;
  readonly suspects: Uint8Array;
}

/** Issue 28: a lock holder tells the leader it is alive, for the lock service's failure detector (takeover). */
export interface KeepAlive {
  readonly type: 'KeepAlive';
  /** The keys the client believes it holds. */
  readonly keys: readonly string[];
}

// -- Paxos (Lamport, "Paxos Made Simple"; src/sim/paxos/) -------------------------------------
// Ballots are numbers (model/ballot.ts: round * 10 + proposer). Slots number a Multi-Paxos log
// from 1; single-decree Paxos uses slot 1 only.

/** One slot's value as a proposer asks acceptors to accept it. `noop` fills a gap (Multi-Paxos). */
export interface PaxosSlotValue {
  readonly slot: number;
  readonly value: string;
}

/** What an acceptor reports it accepted in a slot: the ballot and the value. */
export interface PaxosAcceptedValue {
  readonly slot: number;
  readonly ballot: number;
  readonly value: string;
}

/** Phase 1a: promise to ignore ballots below `ballot` for every slot from `fromSlot` on. */
export interface Prepare {
  readonly type: 'Prepare';
  readonly ballot: number;
  readonly fromSlot: number;
}

/** Phase 1b: the promise, with what the acceptor accepted in slots from `fromSlot` on. */
export interface PaxosPromise {
  readonly type: 'Promise';
  readonly ballot: number;
  readonly accepted: readonly PaxosAcceptedValue[];
}

/**
 * Phase 2a: accept these values in `ballot`. Multi-Paxos's leader also says which slots are
 * chosen (`decided`, so every learner learns what the distinguished learner learned); with no
 * entries it is the leader's heartbeat.
 */
export interface Accept {
  readonly type: 'Accept';
  readonly ballot: number;
  readonly entries: readonly PaxosSlotValue[];
  readonly decided: readonly PaxosSlotValue[];
}

/**
 * Phase 2b: the acceptor accepted these slots in `ballot`. Sent to every learner in single-decree
 * Paxos (the paper's first option), to the leader only in Multi-Paxos, with `learnedThrough`, the
 * end of the acceptor's unbroken run of learned slots.
 */
export interface Accepted {
  readonly type: 'Accepted';
  readonly ballot: number;
  readonly entries: readonly PaxosSlotValue[];
  readonly learnedThrough: number;
}

/**
 * A refusal (the optimization "Paxos Made Simple" §2.2 suggests: the acceptor tells the proposer
 * it promised a higher ballot, so it can give up at once). `phase` 1 answers a Prepare, 2 an Accept.
 */
export interface Nack {
  readonly type: 'Nack';
  readonly ballot: number;
  readonly promised: number;
  readonly phase: 1 | 2;
}

export type PaxosMessage = Prepare | PaxosPromise | Accept | Accepted | Nack;

export const PAXOS_MESSAGE_TYPES = ['Prepare', 'Promise', 'Accept', 'Accepted', 'Nack'] as const;

export type Message = RaftMessage | ClientRequest | ClientReply | StoreWrite | ServiceRpc | PaxosMessage | Gossip | KeepAlive;
export type MessageType = Message['type'];

export const RAFT_MESSAGE_TYPES = ['RequestVote', 'VoteReply', 'AppendEntries', 'AppendReply'] as const;

/**
 * Every message type, in one fixed order: the trace's type column indexes it, and `--json`'s
 * `sent` lists the types in it. A new message type is a line here.
 */
export const MESSAGE_TYPES: readonly MessageType[] = [
  'RequestVote',
  'VoteReply',
  'AppendEntries',
  'AppendReply',
  'ClientRequest',
  'ClientReply',
  'StoreWrite',
  'InstallSnapshot',
  'InstallSnapshotReply',
  'TimeoutNow',
  // Issue 26: another lock service's protocol (sessions, leases, SET NX, gossip); last, so every code before it stays.
  'ServiceRpc',
  // Paxos (src/sim/paxos/): after those, so their codes stay what they were.
  ...PAXOS_MESSAGE_TYPES,
  // Issue 28: the failure detectors' messages, after the others so older codes keep their meaning.
  'Gossip',
  'KeepAlive',
];

/** One message on the simulated network; ordered by (deliverAt, seq) like the chapter's Envelope. */
export interface Envelope {
  readonly deliverAt: number;
  readonly seq: number;
  readonly sentAt: number;
  readonly src: string;
  readonly dst: string;
  readonly payload: Message;
  /** Set when loss decided at send time that this message will never arrive. */
  readonly lost: boolean;
}

/** One write a store was sent (the chapter's fencing section): what it carried and what the store did. */
export interface StoreWriteRecord {
  readonly t: number;
  readonly client: string;
  readonly key: string;
  readonly value: string;
  readonly token: number | null;
  /** The lock the writer believed it held (whose token it sent), if any. */
  readonly lockKey: string | null;
  readonly accepted: boolean;
  /** The writer's lease had already ended when the write landed (a finding, not a failure). */
  readonly leaseEnded: boolean;
  /** Why a write was rejected, in one sentence; null when accepted. */
  readonly reason: string | null;
}
