/**
 * One Zustand store made of typed slices. The worker bridge writes snapshots into it with
 * `setState` from outside React; components read it through the module-level selectors in
 * `selectors.ts`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DEFAULT_CONFIG, type SimConfig } from '../../sim/config';
import type { SimEvent } from '../../sim/events';
import type { Snapshot } from '../../sim/snapshot';
import { DEFAULT_SPEED, type CheckStatus, type FuzzDoneMessage, type FuzzProgressMessage, type LandmarkView } from '../../worker/protocol';

/** The most event lines kept for the event log. */
export const MAX_EVENTS_KEPT = 3_000;

export interface PlaybackSlice {
  readonly playing: boolean;
  readonly speed: number;
  /** Simulated time with the fraction of the current ms, for smooth message motion. */
  readonly clockMs: number;
  /** Playback pauses here (a preset's end); null for none. */
  readonly stopAtMs: number | null;
}

export interface SimSlice {
  readonly runId: number;
  readonly snapshot: Snapshot | null;
  readonly events: readonly SimEvent[];
  readonly config: SimConfig;
  /** The run's schedule including every recorded action. */
  readonly schedule: string;
  /** The label of the loaded run (a preset's name), if any. */
  readonly label: string | null;
  /** The last error sentence from the worker; the run it refers to kept going. */
  readonly error: string | null;
  /** The furthest time computed for this run's schedule. */
  readonly horizonMs: number;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly landmarks: readonly LandmarkView[];
  /** The live invariant checker's verdict on this run. */
  readonly check: CheckStatus | null;
}

/** The counterexample search in the worker. */
export interface FuzzSlice {
  readonly fuzzRunning: boolean;
  readonly fuzzProgress: FuzzProgressMessage | null;
  /** How the last search ended. */
  readonly fuzzDone: FuzzDoneMessage | null;
}

export interface SelectionSlice {
  /** The node the context panel shows. */
  readonly focusedNode: string | null;
  /** Nodes picked for "isolate selected". */
  readonly selectedNodes: readonly string[];
  focusNode(id: string | null): void;
  toggleSelected(id: string): void;
  clearSelection(): void;
}

export const SIDE_TABS = ['clients', 'stores', 'logs', 'locks', 'node', 'invariants', 'schedule', 'settings'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

export interface ViewSlice {
  readonly sideTab: SideTab;
  setSideTab(tab: SideTab): void;
  /** Event-log filters: 'all' or a node/client id, 'all' or an event kind. */
  readonly eventSubject: string;
  readonly eventKind: string;
  setEventFilter(filter: { subject?: string; kind?: string }): void;
  dismissError(): void;
}

export type LabState = PlaybackSlice & SimSlice & FuzzSlice & SelectionSlice & ViewSlice;
export type LabStore = StoreApi<LabState>;

type Set = StoreApi<LabState>['setState'];

const playbackSlice = (): PlaybackSlice => ({ playing: false, speed: DEFAULT_SPEED, clockMs: 0, stopAtMs: null });

const simSlice = (): SimSlice => ({
  runId: 0,
  snapshot: null,
  events: [],
  config: DEFAULT_CONFIG,
  schedule: '',
  label: null,
  error: null,
  horizonMs: 0,
  canUndo: false,
  canRedo: false,
  landmarks: [],
  check: null,
});

const fuzzSlice = (): FuzzSlice => ({ fuzzRunning: false, fuzzProgress: null, fuzzDone: null });

const selectionSlice = (set: Set): SelectionSlice => ({
  focusedNode: null,
  selectedNodes: [],
  focusNode: (id) => set({ focusedNode: id }),
  toggleSelected: (id) =>
    set((s) => ({
      selectedNodes: s.selectedNodes.includes(id) ? s.selectedNodes.filter((n) => n !== id) : [...s.selectedNodes, id],
    })),
  clearSelection: () => set({ selectedNodes: [] }),
});

const viewSlice = (set: Set): ViewSlice => ({
  sideTab: 'logs',
  setSideTab: (tab) => set({ sideTab: tab }),
  eventSubject: 'all',
  eventKind: 'all',
  setEventFilter: (f) => set((s) => ({ eventSubject: f.subject ?? s.eventSubject, eventKind: f.kind ?? s.eventKind })),
  dismissError: () => set({ error: null }),
});

export function createLabStore(): LabStore {
  return createStore<LabState>()((set) => ({
    ...playbackSlice(),
    ...simSlice(),
    ...fuzzSlice(),
    ...selectionSlice(set),
    ...viewSlice(set),
  }));
}
