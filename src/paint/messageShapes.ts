/**
 * How each kind of message looks: a d3 symbol shape and a colour class, so types differ by
 * shape as well as colour. The legend is drawn from the same table.
 */
import {
  symbol,
  symbolCircle,
  symbolCross,
  symbolDiamond,
  symbolSquare,
  symbolStar,
  symbolTimes,
  symbolTriangle,
  symbolWye,
  type SymbolType,
} from 'd3';
import type { MessageView } from '../sim/view/runView';

export type MessageKind =
  | 'vote-request'
  | 'vote-granted'
  | 'vote-refused'
  | 'append'
  | 'heartbeat'
  | 'append-ok'
  | 'append-rejected'
  | 'client-request'
  | 'client-reply'
  | 'store-write'
  | 'snapshot'
  | 'snapshot-reply'
  | 'service-peer'
  // Issue 28: the failure detectors' messages.
  | 'gossip'
  | 'keep-alive';

interface Look {
  readonly shape: SymbolType;
  readonly size: number;
  readonly name: string;
  /** Stroke-only shapes (no fill). */
  readonly hollow?: boolean;
}

export const MESSAGE_LOOKS: Readonly<Record<MessageKind, Look>> = {
  'vote-request': { shape: symbolDiamond, size: 300, name: 'RequestVote' },
  'vote-granted': { shape: symbolCircle, size: 220, name: 'vote granted' },
  'vote-refused': { shape: symbolTimes, size: 220, name: 'vote refused', hollow: true },
  append: { shape: symbolSquare, size: 300, name: 'AppendEntries (with entries)' },
  heartbeat: { shape: symbolCircle, size: 170, name: 'heartbeat (empty AppendEntries)', hollow: true },
  'append-ok': { shape: symbolTriangle, size: 200, name: 'AppendReply ok' },
  'append-rejected': { shape: symbolTimes, size: 200, name: 'AppendReply rejected', hollow: true },
  'client-request': { shape: symbolWye, size: 300, name: 'client request' },
  'client-reply': { shape: symbolStar, size: 300, name: 'client reply' },
  'store-write': { shape: symbolCross, size: 300, name: 'store write' },
  snapshot: { shape: symbolSquare, size: 420, name: 'InstallSnapshot (snapshots, §5)' },
  'snapshot-reply': { shape: symbolTriangle, size: 260, name: 'InstallSnapshot reply', hollow: true },
  // The other lock services (issue 26): pings, keep-alives, probes, replication and gossip; as small as a
  // heartbeat and no smaller, so the smallest symbol on screen stays the 12 px the projector test asks.
  'service-peer': { shape: symbolCircle, size: 170, name: 'ping, keep-alive, replication or gossip', hollow: true },
  gossip: { shape: symbolDiamond, size: 200, name: 'gossip (a view of who is alive)', hollow: true },
  'keep-alive': { shape: symbolWye, size: 200, name: 'keep-alive (a lock holder is alive)', hollow: true },
};

export const MESSAGE_KINDS = Object.keys(MESSAGE_LOOKS) as MessageKind[];

const paths = new Map<string, string>();

/** The path of a kind's symbol, centred on 0,0 (cached: there are only a few). */
export function symbolPath(kind: MessageKind, scale = 1): string {
  const key = `${kind}:${scale}`;
  let d = paths.get(key);
  if (d === undefined) {
    const look = MESSAGE_LOOKS[kind];
    d = symbol(look.shape, look.size * scale * scale)() ?? '';
    paths.set(key, d);
  }
  return d;
}

export function messageKind(m: Pick<MessageView, 'type' | 'ok' | 'heartbeat'>): MessageKind {
  switch (m.type) {
    case 'RequestVote':
    case 'TimeoutNow': // leadership transfer (§3.10): the start of an election, drawn as one
      return 'vote-request';
    case 'VoteReply':
      return m.ok ? 'vote-granted' : 'vote-refused';
    case 'AppendEntries':
      return m.heartbeat ? 'heartbeat' : 'append';
    case 'AppendReply':
      return m.ok ? 'append-ok' : 'append-rejected';
    case 'ClientRequest':
      return 'client-request';
    case 'ClientReply':
      return 'client-reply';
    case 'StoreWrite':
      return 'store-write';
    case 'InstallSnapshot':
      return 'snapshot';
    case 'InstallSnapshotReply':
      return 'snapshot-reply';
    // Paxos (src/sim/paxos/) takes the shapes of the Raft messages that play the same part:
    // phase 1 is an election (Prepare asks, Promise grants, a phase-1 Nack refuses), phase 2 is
    // replication (Accept carries values or is the leader's heartbeat, Accepted acknowledges).
    case 'Prepare':
      return 'vote-request';
    case 'Promise':
      return 'vote-granted';
    case 'Nack':
      return 'vote-refused';
    case 'Accept':
      return m.heartbeat ? 'heartbeat' : 'append';
    case 'Accepted':
      return 'append-ok';
    case 'ServiceRpc':
      // Another lock service's message: a background one (heartbeat), an answer (ok) or a request.
      return m.heartbeat ? 'service-peer' : m.ok === true ? 'client-reply' : 'client-request';
    case 'Gossip':
      return 'gossip';
    case 'KeepAlive':
      return 'keep-alive';
  }
}

/** Where on its path a dropped message dies: mid-way for loss and partitions, at the door for a down node. */
export function dropPosition(reason: 'down' | 'partition' | 'loss'): number {
  return reason === 'down' ? 0.88 : 0.5;
}

/** Colour variables per kind, the same ones the legend's CSS classes use (the ring's canvas and the space-time view read them). */
export const KIND_VARS: Readonly<Record<MessageKind, string>> = {
  'vote-request': '--msg-vote',
  'vote-granted': '--msg-granted',
  'vote-refused': '--msg-refused',
  append: '--msg-append',
  heartbeat: '--msg-append',
  'append-ok': '--msg-reply',
  'append-rejected': '--msg-refused',
  'client-request': '--msg-client',
  'client-reply': '--msg-client-reply',
  'store-write': '--msg-store',
  snapshot: '--msg-snapshot',
  'snapshot-reply': '--msg-snapshot',
  'service-peer': '--msg-append',
  gossip: '--msg-gossip',
  'keep-alive': '--msg-client',
};
