/** Shared shapes of the simulation core: roles, log entries and the messages on the wire. */

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
  | { readonly type: 'Noop' };

/**
 * The no-op a new leader appends with the leader-noop feature (§8): it carries nothing, applies
 * as Noop, and no client or lock-service rule ever looks at it.
 */
export interface NoopCommand {
  readonly type: 'noop';
}

export const NOOP_COMMAND: NoopCommand = Object.freeze({ type: 'noop' });

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

/** A log command is a plain string (applies as Noop), a lock command, a leader's no-op or a configuration. */
export type Command = string | LockCommand | NoopCommand | ConfigCommand;

/** Whether a command is one of the lock service's (not a plain string, not a no-op, not a configuration). */
export function isLockCommand(command: Command): command is LockCommand {
  return typeof command !== 'string' && command.type !== 'noop' && command.type !== 'config';
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
}

export interface AppendReply {
  readonly type: 'AppendReply';
  readonly term: number;
  readonly success: boolean;
  readonly matchIndex: number;
}

export type RaftMessage = RequestVote | VoteReply | AppendEntries | AppendReply;

/** Client → node: ask the lock service for something. `id` lets the client match the reply. */
export interface ClientRequest {
  readonly type: 'ClientRequest';
  readonly id: number;
  readonly op: 'acquire' | 'release';
  readonly key: string;
  readonly leaseMs: number;
  /** A release names the token the client holds the key with (null if it believes it holds none). */
  readonly token: number | null;
}

/** Node → client: the answer, or a redirect to the node this one believes leads. */
export interface ClientReply {
  readonly type: 'ClientReply';
  readonly id: number;
  readonly op: 'acquire' | 'release';
  readonly key: string;
  readonly outcome: 'granted' | 'busy' | 'released' | 'not-found' | 'not-holder' | 'not-leader';
  readonly token: number | null;
  readonly leaderHint: string | null;
  /** The log index whose applied entry this answers; null for answers that need no entry. */
  readonly index: number | null;
}

/** Client → store: a write stamped with the client's fencing token (null if it has none). */
export interface StoreWrite {
  readonly type: 'StoreWrite';
  readonly key: string;
  readonly value: string;
  readonly token: number | null;
  /** The lock key the client believes it holds while writing (for findings), if any. */
  readonly lockKey: string | null;
}

export type Message = RaftMessage | ClientRequest | ClientReply | StoreWrite;
export type MessageType = Message['type'];

export const RAFT_MESSAGE_TYPES = ['RequestVote', 'VoteReply', 'AppendEntries', 'AppendReply'] as const;

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
