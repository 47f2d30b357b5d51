/**
 * One Zustand store made of typed slices. The worker bridge writes snapshots into it with
 * `setState` from outside React; components read it through the module-level selectors in
 * `selectors.ts`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DEFAULT_CONFIG, type SimConfig } from '../../sim/model/config';
import type { DetailEvent, SimEvent } from '../../sim/model/events';
import { DEFAULT_SPEED } from '../../sim/model/limits';
import type { Action } from '../../sim/model/schedule';
import type { RunView } from '../../sim/view/runView';
import type { TraceView } from '../../sim/view/traceColumns';
import type { WhySubject } from '../../sim/teach/why';
import { presentSlice, type PresentSlice } from '../present/presentSlice';
import type { CheckStatus, ForkView, FuzzDoneMessage, FuzzProgressMessage, LandmarkView } from '../../worker/protocol';

/** The most event lines kept for the event log. */
export const MAX_EVENTS_KEPT = 3_000;
/** The most detail events kept for the event log. */
export const MAX_DETAILS_KEPT = 3_000;

/**
 * The latest snapshot message's view of the run, kept whole: the bridge replaces it (or a field of
 * it, for playing and speed the page changes before the worker answers), never mirrors it.
 */
export interface Frame {
  /** Increments with every load. */
  readonly runId: number;
  /** The label of the loaded run (a preset's name), if any. */
  readonly label: string | null;
  readonly snapshot: RunView | null;
  /** Simulated time with the fraction of the current ms, for smooth message motion. */
  readonly clockMs: number;
  readonly playing: boolean;
  /** The speed playing at now (a tour beat's pace or "slow around events" may set it below the chosen one). */
  readonly speed: number;
  /** The speed the person chose: what links keep and what playback comes back to. */
  readonly chosenSpeed: number;
  /** Playback pauses here (a preset's end); null for none. */
  readonly stopAtMs: number | null;
  readonly config: SimConfig;
  /** The run's schedule including every recorded action (text only at the edges). */
  readonly schedule: readonly Action[];
  /** The furthest time computed for this run's schedule. */
  readonly horizonMs: number;
  /** The run's end (`runEndMs`): the scrubber's extent; Next event looks no further. */
  readonly endMs: number;
  /** The run's fork by an action in its past, if any (the fork notice and the scenario label). */
  readonly fork: ForkView | null;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** The live invariant checker's verdict on this run. */
  readonly check: CheckStatus | null;
}

export const EMPTY_FRAME: Frame = {
  runId: 0,
  label: null,
  snapshot: null,
  clockMs: 0,
  playing: false,
  speed: DEFAULT_SPEED,
  chosenSpeed: DEFAULT_SPEED,
  stopAtMs: null,
  config: DEFAULT_CONFIG,
  schedule: [],
  horizonMs: 0,
  endMs: 0,
  fork: null,
  canUndo: false,
  canRedo: false,
  check: null,
};

export interface RunSlice {
  readonly frame: Frame;
  /** The event lines streamed so far (at most MAX_EVENTS_KEPT). */
  readonly events: readonly SimEvent[];
  /** The run's index of `events[0]` (lines trimmed from the front are counted here). */
  readonly eventsBase: number;
  /** Detail events streamed so far (at most MAX_DETAILS_KEPT); `afterEvent` places each among the lines. */
  readonly details: readonly DetailEvent[];
  readonly landmarks: readonly LandmarkView[];
  /** The last error sentence from the worker or an edge; the run it refers to kept going. */
  readonly error: string | null;
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

/** What the Why panel explains; the answer is computed from the current snapshot, so it follows playback. */
export interface WhySlice {
  readonly whySubject: WhySubject | null;
  askWhy(subject: WhySubject): void;
  closeWhy(): void;
}

export const SIDE_TABS = ['clients', 'stores', 'history', 'logs', 'locks', 'node', 'code', 'invariants', 'schedule', 'settings'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

export interface ViewSlice {
  readonly sideTab: SideTab;
  setSideTab(tab: SideTab): void;
  /** Event-log filters: 'all' or a node/client id, 'all' or an event kind. */
  readonly eventSubject: string;
  readonly eventKind: string;
  /** Show only what one pseudocode line produced (its id), or null for no such filter. */
  readonly eventLine: string | null;
  setEventFilter(filter: { subject?: string; kind?: string; line?: string | null }): void;
  /** The node the Rules tab follows when one is chosen there (null: the tour's, the focused one or the leader). */
  readonly ruleNode: string | null;
  setRuleNode(id: string | null): void;
  /** Whether the event log interleaves detail events with the chapter's lines. */
  readonly showDetails: boolean;
  setShowDetails(show: boolean): void;
  dismissError(): void;
  /** The link the page was opened with, when it could not be read: its text and what was wrong with it. */
  readonly badLink: { readonly query: string; readonly error: string } | null;
  setBadLink(bad: { readonly query: string; readonly error: string } | null): void;
}

/** The guided tour open over the run, if any (`src/sim/teach/tours`). */
export interface TourSlice {
  /** The tour and the beat (1-based) being shown. */
  readonly tour: { readonly name: string; readonly beat: number } | null;
  /** The node or client the beat points at; outlined on the diagram. */
  readonly tourFocus: string | null;
  /** The actor whose name the pointer is over in the narration; outlined instead while set. */
  readonly tourHover: string | null;
  setTour(tour: { readonly name: string; readonly beat: number } | null, focus?: string | null): void;
  setTourHover(id: string | null): void;
  /** The tour was opened for a first visit: its first beat says where to start. */
  readonly tourStartHere: boolean;
  /** Slow motion at each beat's key moment (on unless the person turns it off). */
  readonly tourSlowMotion: boolean;
  setTourSlowMotion(on: boolean): void;
}

/** What the diagram pane shows: the ring, the space-time view, or both side by side. */
export const MAIN_VIEWS = ['ring', 'split', 'time'] as const;
export type MainView = (typeof MAIN_VIEWS)[number];

/** A time window and lanes for the space-time view to open at (a chapter figure); `key` changes with each request. */
export interface SpacetimeFocus {
  readonly fromMs: number;
  readonly toMs: number;
  /** Lane ids in order (`service` folds every node into one lane); null for every actor. */
  readonly lanes: readonly string[] | null;
  readonly heartbeats?: 'show' | 'fold';
  readonly compress?: boolean;
  readonly key: number;
}

export interface SpacetimeSlice {
  readonly mainView: MainView;
  setMainView(view: MainView): void;
  /** The run's trace while the space-time view is open (streamed from the worker), else null. */
  readonly trace: TraceView | null;
  readonly spacetimeFocus: SpacetimeFocus | null;
  focusSpacetime(focus: Omit<SpacetimeFocus, 'key'> | null): void;
}

export type LabState = RunSlice & FuzzSlice & SelectionSlice & ViewSlice & WhySlice & TourSlice & SpacetimeSlice & PresentSlice;
export type LabStore = StoreApi<LabState>;

type Set = StoreApi<LabState>['setState'];

const runSlice = (): RunSlice => ({ frame: EMPTY_FRAME, events: [], eventsBase: 0, details: [], landmarks: [], error: null });

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
  eventLine: null,
  setEventFilter: (f) =>
    set((s) => ({
      eventSubject: f.subject ?? s.eventSubject,
      eventKind: f.kind ?? s.eventKind,
      eventLine: f.line === undefined ? s.eventLine : f.line,
    })),
  ruleNode: null,
  setRuleNode: (id) => set({ ruleNode: id }),
  showDetails: true,
  setShowDetails: (show) => set({ showDetails: show }),
  dismissError: () => set({ error: null }),
  badLink: null,
  setBadLink: (bad) => set({ badLink: bad }),
});

const whySlice = (set: Set): WhySlice => ({
  whySubject: null,
  askWhy: (subject) => set({ whySubject: subject }),
  closeWhy: () => set({ whySubject: null }),
});

const tourSlice = (set: Set): TourSlice => ({
  tour: null,
  tourFocus: null,
  tourHover: null,
  // Moving to another tour (or closing it) ends a first visit's welcome.
  setTour: (tour, focus = null) =>
    set((s) => ({
      tour,
      tourFocus: tour === null ? null : focus,
      tourHover: null,
      tourStartHere: s.tourStartHere && tour !== null && tour.name === s.tour?.name,
    })),
  tourStartHere: false,
  setTourHover: (id) => set({ tourHover: id }),
  tourSlowMotion: true,
  setTourSlowMotion: (on) => set({ tourSlowMotion: on }),
});

const spacetimeSlice = (set: Set): SpacetimeSlice => ({
  mainView: 'ring',
  setMainView: (view) => set({ mainView: view }),
  trace: null,
  spacetimeFocus: null,
  focusSpacetime: (focus) => set((s) => ({ spacetimeFocus: focus === null ? null : { ...focus, key: (s.spacetimeFocus?.key ?? 0) + 1 } })),
});

export function createLabStore(): LabStore {
  return createStore<LabState>()((set) => ({
    ...runSlice(),
    ...fuzzSlice(),
    ...selectionSlice(set),
    ...viewSlice(set),
    ...whySlice(set),
    ...tourSlice(set),
    ...spacetimeSlice(set),
    // Presenter mode and the embed frame (src/ui/present).
    ...presentSlice(set),
  }));
}
