/**
 * Module-level selectors (stable function identities, so subscriptions stay cheap). Selectors
 * that build an object are used with `useShallow`.
 */
import type { SimConfig } from '../../sim/model/config';
import type { Action } from '../../sim/model/schedule';
import type { ClientView, NodeView, RunView } from '../../sim/view/runView';
import type { CheckStatus, ForkView, LandmarkView, ViolationView } from '../../worker/protocol';
import type { MessageFrame } from '../../paint/messageCanvas';
import type { Frame, LabState } from './labStore';

const EMPTY: readonly never[] = [];

export const selectFrame = (s: LabState): Frame => s.frame;
export const selectRunView = (s: LabState): RunView | null => s.frame.snapshot;
export const selectNow = (s: LabState): number => s.frame.snapshot?.now ?? 0;
export const selectClock = (s: LabState): number => s.frame.clockMs;
export const selectPlaying = (s: LabState): boolean => s.frame.playing;
export const selectSpeed = (s: LabState): number => s.frame.speed;
export const selectStopAt = (s: LabState): number | null => s.frame.stopAtMs;
export const selectRunId = (s: LabState): number => s.frame.runId;
export const selectConfig = (s: LabState): SimConfig => s.frame.config;
export const selectSchedule = (s: LabState): readonly Action[] => s.frame.schedule;
export const selectLabel = (s: LabState): string | null => s.frame.label;
export const selectHorizon = (s: LabState): number => s.frame.horizonMs;
export const selectEnd = (s: LabState): number => s.frame.endMs;
export const selectFork = (s: LabState): ForkView | null => s.frame.fork;
export const selectCanUndo = (s: LabState): boolean => s.frame.canUndo;
export const selectCanRedo = (s: LabState): boolean => s.frame.canRedo;
export const selectCheck = (s: LabState): CheckStatus | null => s.frame.check;
export const selectViolation = (s: LabState): ViolationView | null => s.frame.check?.violation ?? null;
export const selectError = (s: LabState): string | null => s.error;
export const selectEvents = (s: LabState) => s.events;
export const selectEventsBase = (s: LabState) => s.eventsBase;
export const selectDetails = (s: LabState) => s.details;
export const selectShowDetails = (s: LabState) => s.showDetails;
export const selectLandmarks = (s: LabState): readonly LandmarkView[] => s.landmarks;
export const selectFuzzRunning = (s: LabState): boolean => s.fuzzRunning;
export const selectFuzzProgress = (s: LabState) => s.fuzzProgress;
export const selectFuzzDone = (s: LabState) => s.fuzzDone;
export const selectSideTab = (s: LabState) => s.sideTab;
/** Use with useShallow. */
export const selectEventFilter = (s: LabState) => ({ subject: s.eventSubject, kind: s.eventKind, line: s.eventLine });
export const selectLeader = (s: LabState): string | null => s.frame.snapshot?.leader ?? null;
export const selectNodes = (s: LabState): readonly NodeView[] => s.frame.snapshot?.nodes ?? EMPTY;
export const selectClients = (s: LabState): readonly ClientView[] => s.frame.snapshot?.clients ?? EMPTY;
export const selectStores = (s: LabState) => s.frame.snapshot?.stores ?? null;
export const selectLockMeasures = (s: LabState) => s.frame.snapshot?.lockMeasures ?? null;
export const selectHasStores = (s: LabState): boolean => s.frame.snapshot?.stores != null;
export const selectMessages = (s: LabState) => s.frame.snapshot?.messages ?? EMPTY;
export const selectDrops = (s: LabState) => s.frame.snapshot?.drops ?? EMPTY;
let lastPartitions: readonly (readonly string[])[] = EMPTY;
/**
 * The partition groups, the same array while they stay the same: every snapshot brings a fresh
 * copy, and what draws them should not redraw for a copy of what it shows.
 */
export const selectPartitions = (s: LabState): readonly (readonly string[])[] => {
  const groups = s.frame.snapshot?.partitions ?? EMPTY;
  const same =
    groups.length === lastPartitions.length &&
    groups.every((g, i) => g.length === lastPartitions[i].length && g.every((id, j) => id === lastPartitions[i][j]));
  if (!same) lastPartitions = groups;
  return lastPartitions;
};
export const selectFocusedNode = (s: LabState): string | null => s.focusedNode;
export const selectSelectedNodes = (s: LabState): readonly string[] => s.selectedNodes;
export const selectWhySubject = (s: LabState) => s.whySubject;
export const selectLossPct = (s: LabState): number => s.frame.snapshot?.lossPct ?? 0;

/** Whether the run's servers run Raft: false for a lock service without it (Redis, Redlock, the database, gossip). */
export const selectRunsRaft = (s: LabState): boolean => s.frame.snapshot?.nodes[0]?.server === undefined;

/** A service without Raft: its servers by part, "1 primary, 1 replica" or "5 instances". */
function serverParts(nodes: readonly NodeView[]): string {
  const counts = new Map<string, number>();
  for (const n of nodes) if (n.server) counts.set(n.server.role, (counts.get(n.server.role) ?? 0) + 1);
  return [...counts].map(([role, k]) => `${k} ${role}${k === 1 ? '' : 's'}`).join(', ');
}

/** The status line under the controls: leader, messages in flight, partition, loss. */
export const selectStatus = (s: LabState): string => {
  const snap = s.frame.snapshot;
  if (!snap) return 'starting…';
  const leader = snap.nodes.find((n) => n.id === snap.leader);
  const parts = [
    snap.nodes[0]?.server !== undefined
      ? `no Raft: ${serverParts(snap.nodes)}`
      : leader
        ? `leader ${leader.id} (${leader.paxos !== undefined ? `ballot ${leader.paxos.ballot}` : `term ${leader.term}`})`
        : 'no leader',
  ];
  parts.push(`${snap.messages.length} message${snap.messages.length === 1 ? '' : 's'} in flight`);
  if (snap.partitions.length > 0) parts.push('partitioned');
  if (snap.lossPct > 0) parts.push(`${snap.lossPct}% loss`);
  return parts.join(' · ');
};

/** Use with useShallow: the ids change only when the cluster does. */
export const selectNodeIds = (s: LabState): string[] => (s.frame.snapshot?.nodes ?? EMPTY).map((n) => n.id);
export const selectClientIds = (s: LabState): string[] => (s.frame.snapshot?.clients ?? EMPTY).map((c) => c.id);

export function nodeById(s: LabState, id: string): NodeView | undefined {
  const nodes = s.frame.snapshot?.nodes;
  if (!nodes) return undefined;
  for (let i = 0; i < nodes.length; i++) if (nodes[i].id === id) return nodes[i];
  return undefined;
}

/** What one node glyph draws, as primitives, so `useShallow` re-renders it only when they change. */
export interface GlyphFields {
  readonly found: boolean;
  readonly alive: boolean;
  readonly role: string;
  readonly term: number;
  readonly votedFor: string | null;
  readonly votes: number;
  readonly clusterSize: number;
  readonly commitIndex: number;
  readonly logLength: number;
  readonly driftPct: number;
  readonly focused: boolean;
  readonly selected: boolean;
  readonly group: number;
  /** A tour's narration points at this node (its beat, or a name under the pointer). */
  readonly tourHighlight: boolean;
  /** Membership runs only: a voter, a learner catching up, or a removed server (null without the feature). */
  readonly member: 'voter' | 'learner' | 'removed' | null;
  /** A server of a service without Raft: its part and what it holds (null on Raft). */
  readonly serverRole: string | null;
  readonly serverHolds: string | null;
  /** The words under the role: `term 2`, or in a Paxos run the ballot (`ballot 2.5`, `promised 1.1`). */
  readonly termText: string;
  /** Paxos runs: the node's part in Lamport's words (`acceptor`, `proposing`, `leader`); null in a Raft run. */
  readonly paxosWord: string | null;
}

/** A Paxos node's part in Lamport's words, for the ring and the panels. */
export function paxosWord(phase: string): string {
  switch (phase) {
    case 'preparing':
      return 'preparing';
    case 'accepting':
      return 'proposing';
    case 'leading':
      return 'leader';
    case 'backoff':
      return 'backing off';
    case 'done':
      // Single-decree: its proposal is over (its learner learned the chosen value, whichever it was).
      return 'finished';
    default:
      return 'acceptor';
  }
}

/** A Paxos node's ballot line: its own ballot while it proposes, else the ballot it promised. */
export function paxosBallotText(p: { readonly phase: string; readonly ballot: string; readonly promised: string }): string {
  return p.phase === 'idle' || p.phase === 'done' ? `promised ${p.promised}` : `ballot ${p.ballot}`;
}

export function glyphFields(s: LabState, id: string): GlyphFields {
  const n = nodeById(s, id);
  const parts = s.frame.snapshot?.partitions ?? EMPTY;
  return {
    found: n !== undefined,
    alive: n?.alive ?? false,
    role: n?.role ?? 'follower',
    term: n?.term ?? 0,
    votedFor: n?.votedFor ?? null,
    votes: n?.votes.length ?? 0,
    clusterSize: s.frame.snapshot?.nodes.length ?? 0,
    commitIndex: n?.commitIndex ?? 0,
    logLength: n?.logLength ?? 0,
    driftPct: n?.driftPct ?? 0,
    focused: s.focusedNode === id,
    selected: s.selectedNodes.includes(id),
    group: parts.findIndex((g) => g.includes(id)),
    tourHighlight: (s.tourHover ?? s.tourFocus) === id,
    member: n?.membership?.status ?? null,
    serverRole: n?.server?.role ?? null,
    serverHolds: n?.server?.holds ?? null,
    termText: n?.paxos !== undefined ? paxosBallotText(n.paxos) : `term ${n?.term ?? 0}`,
    paxosWord: n?.paxos !== undefined ? paxosWord(n.paxos.phase) : null,
  };
}

/** Whether the run has membership changes (the page then offers to add and remove servers). */
export const selectHasMembership = (s: LabState): boolean => s.frame.snapshot?.features?.includes('membership') ?? false;

/** The first server id (n1..n9) the run has not used, or null once it has 9. */
export function nextServerId(nodeIds: readonly string[]): string | null {
  for (let i = 1; i <= 9; i++) if (!nodeIds.includes(`n${i}`)) return nodeIds.length < 9 ? `n${i}` : null;
  return null;
}

/** Timer fields for the draining arc controller. */

/** Keys whose current value differs between the fenced and unfenced stores. */
export function disagreeingKeys(s: LabState): string[] {
  const stores = s.frame.snapshot?.stores;
  if (!stores) return [];
  const f = new Map(stores.fenced.values.map((v) => [v.key, v.value]));
  const u = new Map(stores.unfenced.values.map((v) => [v.key, v.value]));
  return [...new Set([...f.keys(), ...u.keys()])].filter((k) => f.get(k) !== u.get(k)).sort();
}

export { majorityOf } from '../../sim/raft/quorum';

/** The node the context panel shows, if it still exists. */
export const selectFocusedNodeView = (s: LabState): NodeView | undefined =>
  s.focusedNode === null ? undefined : nodeById(s, s.focusedNode);

/** What the message canvas paints (messages, drops and the nodes' timers); a new object each call, so read it outside React (no subscription). */
export const selectMessageFrame = (s: LabState): MessageFrame => ({
  messages: selectMessages(s),
  drops: selectDrops(s),
  nodes: selectNodes(s),
  clockMs: selectClock(s),
});

export function clientById(s: LabState, id: string): ClientView | undefined {
  return s.frame.snapshot?.clients.find((c) => c.id === id);
}

export function clientGlyphFields(s: LabState, id: string) {
  const c = clientById(s, id);
  return { alive: c?.alive ?? false, paused: c?.paused ?? false, token: c?.currentToken ?? null, status: c?.status ?? '' };
}

export function storeGlyphFields(s: LabState, id: 'fenced' | 'unfenced') {
  const store = s.frame.snapshot?.stores?.[id];
  const text = store && store.values.length > 0 ? store.values.map((v) => `${v.key}=${v.value}`).join(', ') : 'empty';
  // One key (the fencing story's result): its value alone fits where "result=B-first" is cut.
  const value = store && store.values.length === 1 ? store.values[0].value : null;
  return { text, value, disagree: disagreeingKeys(s).length > 0 };
}

export const selectTour = (s: LabState) => s.tour;
export const selectTourHighlight = (s: LabState) => s.tourHover ?? s.tourFocus;

export const selectMainView = (s: LabState) => s.mainView;
export const selectTrace = (s: LabState) => s.trace;
export const selectSpacetimeFocus = (s: LabState) => s.spacetimeFocus;
