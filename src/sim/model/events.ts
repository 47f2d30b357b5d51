/**
 * Structured event records; `line` is the chapter-format text the CLI prints. Every event is
 * classified where it is logged: its `kind` says exactly what happened and `subjects` names the
 * nodes, clients and stores it concerns, so nothing downstream (landmarks, filters, the checker)
 * ever reads the text of a line.
 */
import { DETAIL_KINDS as MANIFEST_DETAIL_KINDS, PAXOS_DETAIL_KINDS, type DetailKindName } from './features';
import type { PseudocodeId } from './pseudocodeIds';
import type { ApplyResult, Command, MessageType } from './types';

/** The event-log filter's groups (one per kind of actor or fault). */
export const EVENT_CATEGORIES = [
  'election',
  'leader',
  'step-down',
  'crash',
  'restart',
  'partition',
  'heal',
  'submit',
  'lock',
  'client',
  'store',
  'fault',
  'membership',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

/** Every kind of event and the filter group it belongs to. */
const CATEGORY_OF = {
  // Raft (the chapter's lines).
  election: 'election',
  leader: 'leader',
  'step-down': 'step-down',
  crash: 'crash',
  restart: 'restart',
  partition: 'partition',
  heal: 'heal',
  'submit-rejected': 'submit',
  drift: 'fault',
  'clock-jump': 'fault',
  loss: 'fault',
  delay: 'fault',
  duplicate: 'fault',
  reorder: 'fault',
  // Issue 28: a slow phase of the network starts or ends.
  slow: 'fault',
  calm: 'heal',
  'election-forced': 'election',
  'election-force-refused': 'election',
  'transfer-refused': 'election',
  // Membership changes (§4.1): the add and remove verbs, taken or refused.
  'member-change': 'membership',
  'member-change-refused': 'membership',
  // The lock service, on the leader.
  'lock-granted': 'lock',
  'lock-grant-rejected': 'lock',
  'lock-released': 'lock',
  'lock-release-not-found': 'lock',
  'lock-release-refused': 'lock',
  'lock-expired': 'lock',
  'lock-expire-stale': 'lock',
  'lock-busy': 'lock',
  'lock-ghost': 'lock',
  'lease-ran-out': 'lock',
  // Issue 28: the service's failure detector suspects a holder and hands its lock over before the lease ends.
  'lock-takeover': 'lock',
  // Clients.
  'client-asks': 'client',
  'client-times-out': 'client',
  'client-redirected': 'client',
  'client-acquired': 'client',
  'client-busy': 'client',
  'client-release-busy': 'client',
  'client-released': 'client',
  'client-release-not-found': 'client',
  'client-release-refused': 'client',
  'client-pauses': 'client',
  'client-wakes': 'client',
  'client-crashes': 'client',
  'client-restarts': 'client',
  'client-ignores': 'client',
  'client-writes': 'client',
  // Reads (§6.4): only in runs with the feature.
  'client-put': 'client',
  'client-got': 'client',
  // Stores.
  'store-accepted': 'store',
  'store-rejected': 'store',
  // Paxos runs (src/sim/paxos/): phase 1 is the election of a ballot, phase 2 its replication.
  'paxos-prepare': 'election',
  'paxos-leader': 'leader',
  'paxos-preempted': 'step-down',
  'paxos-chosen': 'submit',
  'paxos-propose-rejected': 'submit',
  // The other lock services (issue 26), on their servers.
  'service-granted': 'lock',
  'service-busy': 'lock',
  'service-released': 'lock',
  'service-release-refused': 'lock',
  'key-expired': 'lock',
  'key-lost': 'lock',
  'session-opened': 'lock',
  'session-expired': 'lock',
  'lease-revoked': 'lock',
  'watch-fired': 'lock',
  'connection-lost': 'lock',
  failover: 'leader',
  demoted: 'leader',
  'gossip-suspects': 'membership',
  'gossip-revives': 'membership',
  // ... and on their clients.
  'client-lost-lock': 'client',
  'validity-ran-out': 'client',
  'client-leads': 'client',
} as const satisfies Record<string, EventCategory>;

export type EventKind = keyof typeof CATEGORY_OF;

export const EVENT_KINDS = Object.keys(CATEGORY_OF) as readonly EventKind[];

export function eventCategory(kind: EventKind): EventCategory {
  return CATEGORY_OF[kind];
}

export interface SimEvent {
  /** Simulated time in ms. */
  readonly t: number;
  readonly kind: EventKind;
  /** Node, client and store ids the event is about, for filtering. */
  readonly subjects: readonly string[];
  readonly text: string;
  /** `t=  156 ms n2 election timeout, candidate in term 1`. */
  readonly line: string;
}

/**
 * Detail events: the second stream (DESIGN.md, "Events: two streams"). Structured records of
 * what the protocol did between the chapter's lines — appends, accepted and rejected
 * AppendEntries, truncations, commits, applies, refused votes, drops, lease expiries, fenced
 * writes. They carry values, never text: `describeDetail` (describe.ts) makes the sentence.
 * Recorded only when `cluster.recordDetails` is on, so the chapter's lines and every draw stay
 * exactly as they are either way.
 */
interface DetailOf<K extends string, V> {
  readonly kind: K;
  readonly values: Readonly<V>;
  /** Node, client and store ids the detail is about, for filtering. */
  readonly subjects: readonly string[];
  /** The pseudocode lines that produced it. */
  readonly lines: readonly PseudocodeId[];
}

export type DetailBody =
  | DetailOf<'leader-append', { node: string; term: number; index: number; command: Command }>
  | DetailOf<'append-accepted', { node: string; leader: string; term: number; from: number; to: number; added: number }>
  | DetailOf<
      'append-rejected',
      {
        node: string;
        leader: string;
        reason: 'stale-term' | 'prev-missing' | 'prev-term-mismatch';
        term: number;
        leaderTerm: number;
        prevLogIndex: number;
        prevLogTerm: number;
        lastLogIndex: number;
        /** This node's term at prevLogIndex (null when it has no entry there). */
        termAtPrev: number | null;
        /** fast-backup only: the hint sent back (the conflicting term, 0 when the log is too short, and its first index). */
        conflictTerm?: number;
        conflictIndex?: number;
      }
    >
  | DetailOf<'truncated', { node: string; leader: string; from: number; removed: number; localTerm: number; leaderEntryTerm: number }>
  | DetailOf<
      'commit-advanced',
      {
        node: string;
        from: number;
        to: number;
        term: number;
        rule: 'majority' | 'earlier-term-by-counting' | 'leader-commit';
        /** Leader rules: how many servers hold `to`, and how many make a majority. */
        replicas: number | null;
        majority: number | null;
        /** Follower rule: the leader it heard, and that leader's commit index. */
        leader: string | null;
        leaderCommit: number | null;
      }
    >
  | DetailOf<'applied', { node: string; index: number; term: number; command: Command; result: ApplyResult | null }>
  | DetailOf<
      'vote-refused',
      {
        node: string;
        candidate: string;
        reason: 'stale-term' | 'already-voted' | 'log-not-up-to-date';
        term: number;
        candidateTerm: number;
        votedFor: string | null;
        lastLogTerm: number;
        lastLogIndex: number;
        candidateLastLogTerm: number;
        candidateLastLogIndex: number;
      }
    >
  // Protocol features (src/sim/model/features/); recorded only in runs that switch them on.
  | DetailOf<'pre-vote-started', { node: string; term: number; preVoteTerm: number; lastLogIndex: number; lastLogTerm: number }>
  | DetailOf<'pre-vote-won', { node: string; term: number; voters: readonly string[]; majority: number }>
  | DetailOf<
      'pre-vote-refused',
      {
        node: string;
        candidate: string;
        reason: 'stale-term' | 'log-not-up-to-date' | 'hears-leader';
        term: number;
        preVoteTerm: number;
        leader: string | null;
        lastLogTerm: number;
        lastLogIndex: number;
        candidateLastLogTerm: number;
        candidateLastLogIndex: number;
      }
    >
  | DetailOf<
      'vote-ignored',
      {
        node: string;
        candidate: string;
        term: number;
        candidateTerm: number;
        leader: string | null;
        heardAgoMs: number;
        /** Membership without CheckQuorum: §4.2.3's rule. */ disruption?: true;
      }
    >
  | DetailOf<'quorum-lost', { node: string; term: number; heard: number; majority: number; sinceMs: number }>
  | DetailOf<'snapshot-taken', { node: string; index: number; term: number; removed: number; lastApplied: number; commitIndex: number }>
  | DetailOf<'snapshot-installed', { node: string; leader: string; index: number; term: number; kept: number; discarded: number }>
  | DetailOf<
      'backed-up',
      {
        node: string;
        peer: string;
        term: number;
        /** nextIndex before and after this rejection. */
        from: number;
        to: number;
        rule: 'to-follower-end' | 'past-own-term' | 'to-follower-first';
        conflictTerm: number;
        conflictIndex: number;
        /** Rejections in a row from this peer: the round trips spent backing up so far. */
        rounds: number;
      }
    >
  | DetailOf<
      'transfer-started',
      { node: string; target: string; term: number; matchIndex: number; lastLogIndex: number; deadlineMs: number }
    >
  | DetailOf<'timeout-now-sent', { node: string; target: string; term: number; matchIndex: number }>
  | DetailOf<'timeout-now-received', { node: string; leader: string; term: number }>
  | DetailOf<'transfer-aborted', { node: string; target: string; term: number; afterMs: number }>
  | DetailOf<'learner-added', { node: string; term: number; learner: string; voters: readonly string[] }>
  | DetailOf<'learner-promoted', { node: string; term: number; learner: string; matchIndex: number; lastLogIndex: number; sinceMs: number }>
  | DetailOf<
      'config-appended',
      {
        node: string;
        term: number;
        index: number;
        op: 'add' | 'remove';
        server: string;
        voters: readonly string[];
        previous: readonly string[];
        leader: string | null;
        committed: boolean;
      }
    >
  | DetailOf<'removed-leader-steps-down', { node: string; term: number; index: number; voters: readonly string[] }>
  | DetailOf<'not-campaigning', { node: string; term: number; voters: readonly string[] }>
  | DetailOf<'timeout-now-ignored', { node: string; leader: string; term: number; voters: readonly string[] }>
  | DetailOf<'dropped', { from: string; to: string; message: MessageType; reason: 'down' | 'partition' | 'loss'; sentAt: number }>
  // Paxos runs (src/sim/paxos/, the manifest features/paxos.ts). Ballots are numbers (model/ballot.ts).
  | DetailOf<'paxos-promised', { node: string; proposer: string; ballot: number; previous: number; accepted: number }>
  | DetailOf<'paxos-prepare-refused', { node: string; proposer: string; ballot: number; promised: number }>
  | DetailOf<'paxos-accepted', { node: string; proposer: string; ballot: number; slot: number; value: string; promised: number }>
  | DetailOf<'paxos-accept-refused', { node: string; proposer: string; ballot: number; slot: number; value: string; promised: number }>
  | DetailOf<
      'paxos-adopted',
      {
        node: string;
        ballot: number;
        slot: number;
        value: string;
        /** The ballot the value was accepted in, and the acceptor whose promise carried it. */
        from: number;
        acceptor: string;
        /** The proposer's own value it gives up (null: it had none, a Multi-Paxos recovery). */
        own: string | null;
        /** The bug paxos-own-value: the accepted value was there and the proposer ignored it. */
        ignored?: true;
      }
    >
  | DetailOf<'paxos-proposed', { node: string; ballot: number; slot: number; value: string; promises: readonly string[] }>
  | DetailOf<
      'paxos-learned',
      { node: string; ballot: number; slot: number; value: string; acceptors: readonly string[]; from: string | null }
    >
  | DetailOf<'paxos-preempted', { node: string; ballot: number; promised: number; by: string; phase: 1 | 2 }>
  | DetailOf<'paxos-backoff', { node: string; ballot: number; waitMs: number; range: readonly [number, number] }>
  | DetailOf<'paxos-noop-filled', { node: string; ballot: number; slot: number }>
  | DetailOf<'paxos-applied', { node: string; slot: number; value: string; state: string }>
  | DetailOf<'lease-expired', { node: string; key: string; owner: string; token: number; localMs: number; endsAtLocalMs: number }>
  | DetailOf<'write-fenced', { store: string; client: string; key: string; value: string; token: number | null; highest: number | null }>
  | DetailOf<'read-index-recorded', { node: string; term: number; client: string; key: string; readIndex: number; round: number }>
  | DetailOf<
      'read-served',
      {
        node: string;
        term: number;
        client: string;
        key: string;
        mode: 'log' | 'read-index' | 'lease';
        value: string | null;
        readIndex: number | null;
        /** ReadIndex: the round a majority answered (0: answered without one, the bug). */
        round: number | null;
        /** Lease reads: how long the lease still ran by the leader's clock. */
        leaseLeftMs: number | null;
        localMs: number;
      }
    >;

export type DetailKind = DetailBody['kind'];

/**
 * Every detail kind, from the manifests (src/sim/model/features/), which name each feature's; the bodies
 * stay typed here, in one union, so describeDetail's switch narrows each kind to its values.
 * The type says every listed kind has a body, and the check below that every body is listed.
 */
export const DETAIL_KINDS: readonly DetailKind[] = [...MANIFEST_DETAIL_KINDS, ...PAXOS_DETAIL_KINDS];

type Unlisted = Exclude<DetailKind, DetailKindName>;
const _everyBodyListed: [Unlisted] extends [never] ? true : Unlisted = true;

export type DetailEvent = DetailBody & {
  /** Simulated time in ms. */
  readonly t: number;
  /** How many chapter events were logged before it: the two streams merge in the order things happened. */
  readonly afterEvent: number;
};
