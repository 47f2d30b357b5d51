/**
 * Module-level selectors (stable function identities, so subscriptions stay cheap). Selectors
 * that build an object are used with `useShallow`.
 */
import type { ClientView, NodeView, Snapshot } from '../../sim/snapshot';
import type { LabState } from './labStore';

const EMPTY: readonly never[] = [];

export const selectSnapshot = (s: LabState): Snapshot | null => s.snapshot;
export const selectNow = (s: LabState): number => s.snapshot?.now ?? 0;
export const selectClock = (s: LabState): number => s.clockMs;
export const selectPlaying = (s: LabState): boolean => s.playing;
export const selectSpeed = (s: LabState): number => s.speed;
export const selectError = (s: LabState): string | null => s.error;
export const selectConfig = (s: LabState) => s.config;
export const selectSchedule = (s: LabState): string => s.schedule;
export const selectLabel = (s: LabState): string | null => s.label;
export const selectEvents = (s: LabState) => s.events;
export const selectLeader = (s: LabState): string | null => s.snapshot?.leader ?? null;
export const selectNodes = (s: LabState): readonly NodeView[] => s.snapshot?.nodes ?? EMPTY;
export const selectClients = (s: LabState): readonly ClientView[] => s.snapshot?.clients ?? EMPTY;
export const selectStores = (s: LabState) => s.snapshot?.stores ?? null;
export const selectMessages = (s: LabState) => s.snapshot?.messages ?? EMPTY;
export const selectDrops = (s: LabState) => s.snapshot?.drops ?? EMPTY;
export const selectPartitions = (s: LabState) => s.snapshot?.partitions ?? EMPTY;
export const selectFocusedNode = (s: LabState): string | null => s.focusedNode;
export const selectSelectedNodes = (s: LabState): readonly string[] => s.selectedNodes;
export const selectLossPct = (s: LabState): number => s.snapshot?.lossPct ?? 0;

/** Use with useShallow: the ids change only when the cluster does. */
export const selectNodeIds = (s: LabState): string[] => (s.snapshot?.nodes ?? EMPTY).map((n) => n.id);
export const selectClientIds = (s: LabState): string[] => (s.snapshot?.clients ?? EMPTY).map((c) => c.id);

export function nodeById(s: LabState, id: string): NodeView | undefined {
  const nodes = s.snapshot?.nodes;
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
}

export function glyphFields(s: LabState, id: string): GlyphFields {
  const n = nodeById(s, id);
  const parts = s.snapshot?.partitions ?? EMPTY;
  return {
    found: n !== undefined,
    alive: n?.alive ?? false,
    role: n?.role ?? 'follower',
    term: n?.term ?? 0,
    votedFor: n?.votedFor ?? null,
    votes: n?.votes.length ?? 0,
    clusterSize: s.snapshot?.nodes.length ?? 0,
    commitIndex: n?.commitIndex ?? 0,
    logLength: n?.logLength ?? 0,
    driftPct: n?.driftPct ?? 0,
    focused: s.focusedNode === id,
    selected: s.selectedNodes.includes(id),
    group: parts.findIndex((g) => g.includes(id)),
  };
}

/** Timer fields for the draining arc controller. */
export function timerFields(s: LabState, id: string) {
  const n = nodeById(s, id);
  return n ? { alive: n.alive, role: n.role, start: n.electionTimerStart, deadline: n.electionDeadline } : null;
}

/** Keys whose current value differs between the fenced and unfenced stores. */
export function disagreeingKeys(s: LabState): string[] {
  const stores = s.snapshot?.stores;
  if (!stores) return [];
  const f = new Map(stores.fenced.values.map((v) => [v.key, v.value]));
  const u = new Map(stores.unfenced.values.map((v) => [v.key, v.value]));
  return [...new Set([...f.keys(), ...u.keys()])].filter((k) => f.get(k) !== u.get(k)).sort();
}

export function majorityOf(size: number): number {
  return Math.floor(size / 2) + 1;
}

export function clientById(s: LabState, id: string): ClientView | undefined {
  return s.snapshot?.clients.find((c) => c.id === id);
}

export function clientGlyphFields(s: LabState, id: string) {
  const c = clientById(s, id);
  return { alive: c?.alive ?? false, paused: c?.paused ?? false, token: c?.currentToken ?? null, status: c?.status ?? '' };
}

export function storeGlyphFields(s: LabState, id: 'fenced' | 'unfenced') {
  const store = s.snapshot?.stores?.[id];
  const text = store && store.values.length > 0 ? store.values.map((v) => `${v.key}=${v.value}`).join(', ') : 'empty';
  return { text, disagree: disagreeingKeys(s).length > 0 };
}
