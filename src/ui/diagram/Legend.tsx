/** What the shapes mean: roles and message kinds, drawn with the diagram's own shapes. */
import { memo } from 'react';
import type { FeatureName } from '../../sim/model/features';
import { MESSAGE_KINDS, MESSAGE_LOOKS, symbolPath, type MessageKind } from '../../paint/messageShapes';
import { roleShapePath } from './NodeGlyph';

/** Message kinds only a protocol feature sends: listed only in runs with it on. */
const FEATURE_KINDS: Partial<Record<MessageKind, FeatureName>> = { snapshot: 'snapshots', 'snapshot-reply': 'snapshots' };

/** Issue 28: the failure detectors' messages, listed only in runs that send them (`detectorKinds`). */
const DETECTOR_KINDS: ReadonlySet<MessageKind> = new Set<MessageKind>(['gossip', 'keep-alive']);

/** Shorter names where the full one would push the legend to a third row at 1280 px; the full name is the item's title. */
const SHORT_NAMES: Partial<Record<MessageKind, string>> = {
  append: 'AppendEntries',
  heartbeat: 'heartbeat',
};

/**
 * A Paxos run's legend (src/sim/paxos/): the same shapes, in Lamport's words — phase 1 drawn as
 * Raft's election (Prepare asks, Promise grants, Nack refuses), phase 2 as its replication.
 */
const PAXOS_ROLES = [
  ['follower', 'acceptor'],
  ['candidate', 'preparing'],
  ['leader', 'proposing / leader'],
  ['down', 'down'],
] as const;
const PAXOS_KINDS: readonly (readonly [MessageKind, string, boolean])[] = [
  ['vote-request', 'Prepare', false],
  ['vote-granted', 'Promise', false],
  ['vote-refused', 'Nack', false],
  ['append', 'Accept', false],
  ['heartbeat', 'heartbeat', true],
  ['append-ok', 'Accepted', false],
];

/** `features`: the run's protocol features, so a feature's message kinds are listed only when it is on (absent: every kind). */
/** Raft's own RPCs: a lock service without Raft sends none (issue 26). */
const RAFT_KINDS: ReadonlySet<MessageKind> = new Set([
  'vote-request',
  'vote-granted',
  'vote-refused',
  'append',
  'heartbeat',
  'append-ok',
  'append-rejected',
  'snapshot',
  'snapshot-reply',
]);

/**
 * `raft` false: a service without Raft, whose servers are plain circles and send none of Raft's
 * messages. `protocol`: a Paxos run, whose legend names Paxos's messages (PaxosLegend).
 */
export const Legend = memo(function Legend({
  features,
  serviceRun = true,
  raft = true,
  detectorKinds = [],
  protocol,
}: {
  features?: readonly FeatureName[];
  serviceRun?: boolean;
  raft?: boolean;
  detectorKinds?: readonly MessageKind[];
  protocol?: 'paxos' | 'multi-paxos';
}) {
  if (protocol !== undefined) return <PaxosLegend multi={protocol === 'multi-paxos'} />;
  const kinds = MESSAGE_KINDS.filter((k) => {
    if (DETECTOR_KINDS.has(k)) return detectorKinds.includes(k);
    // Issue 26: another lock service's peer traffic, named only in a run of one (absent: every kind, as before).
    if (k === 'service-peer' && !serviceRun) return false;
    if (!raft && RAFT_KINDS.has(k)) return false;
    const needs = FEATURE_KINDS[k];
    return needs === undefined || features === undefined || features.includes(needs);
  });
  return (
    <ul className="legend" aria-label="Legend">
      {(raft ? (['follower', 'candidate', 'leader', 'down'] as const) : (['server', 'down'] as const)).map((role) => (
        <li key={role} className={`legend-role node role-${role === 'server' ? 'follower' : role}`}>
          <svg viewBox="-16 -16 32 32" width="1.4em" height="1.4em" aria-hidden="true">
            <path className="node-shape" d={roleShapePath(role === 'down' || role === 'server' ? 'follower' : role, 12)} />
          </svg>
          {role}
        </li>
      ))}
      {kinds.map((k) => (
        <li key={k} title={SHORT_NAMES[k] ? MESSAGE_LOOKS[k].name : undefined}>
          <svg viewBox="-12 -12 24 24" width="1.2em" height="1.2em" aria-hidden="true">
            <path className={`msg msg-${k}`} d={symbolPath(k)} />
          </svg>
          {SHORT_NAMES[k] ?? MESSAGE_LOOKS[k].name}
        </li>
      ))}
      <DroppedItem />
    </ul>
  );
});

const PaxosLegend = memo(function PaxosLegend({ multi }: { multi: boolean }) {
  return (
    <ul className="legend" aria-label="Legend">
      {PAXOS_ROLES.map(([role, word]) => (
        <li key={role} className={`legend-role node role-${role}`}>
          <svg viewBox="-16 -16 32 32" width="1.4em" height="1.4em" aria-hidden="true">
            <path className="node-shape" d={roleShapePath(role === 'down' ? 'follower' : role, 12)} />
          </svg>
          {word}
        </li>
      ))}
      {PAXOS_KINDS.filter(([, , multiOnly]) => multi || !multiOnly).map(([k, name]) => (
        <li key={k}>
          <svg viewBox="-12 -12 24 24" width="1.2em" height="1.2em" aria-hidden="true">
            <path className={`msg msg-${k}`} d={symbolPath(k)} />
          </svg>
          {name}
        </li>
      ))}
      <DroppedItem />
    </ul>
  );
});

/** The legend's last item, in either protocol's legend: a message the network dropped. */
function DroppedItem() {
  return (
    <li>
      <svg viewBox="-12 -12 24 24" width="1.2em" height="1.2em" aria-hidden="true">
        <g className="drop drop-loss">
          <circle r={9} />
          <path d="M-6,-6L6,6M6,-6L-6,6" />
        </g>
      </svg>
      dropped
    </li>
  );
}
