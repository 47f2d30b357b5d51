/**
 * The space-time view wired to the page: the worker's trace, the scrubber's time as the cursor,
 * a click to seek, an arrow to its Why panel, a brushed window to play; a chapter figure's window
 * and lanes when a preset asks (`spacetimeFocus`); the clients' checked history beside their lanes.
 */
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { EventCategory } from '../../sim/model/events';
import type { MessageType } from '../../sim/model/types';
import type { MessageFilter } from './scene';
import { registerSpacetimeExports } from '../export/spacetimeActions';
import { useBridge, useLab, useLabStore } from '../labContext';
import { selectConfig, selectNow, selectSpacetimeFocus, selectTrace } from '../store/selectors';
import { useHistory } from '../panels/useHistory';
import { shownSubset } from '../panels/historyLanes';
import type { SceneHistory } from './historyBars';
import { SpaceTimeView, type SpaceTimeViewState } from './SpaceTimeView';

/** The messages behind each event-log category (categories about no message type keep every message). */
const TYPES_OF: Partial<Record<EventCategory, readonly MessageType[]>> = {
  // Paxos runs (src/sim/paxos/): phase 1 is the election, phase 2 the replication.
  election: ['RequestVote', 'VoteReply', 'Prepare', 'Promise', 'Nack'],
  // InstallSnapshot (snapshots, §5) replicates as AppendEntries does; no run without the feature sends one.
  leader: [
    'RequestVote',
    'VoteReply',
    'AppendEntries',
    'AppendReply',
    'InstallSnapshot',
    'InstallSnapshotReply',
    'Prepare',
    'Promise',
    'Accept',
    'Accepted',
    'Nack',
  ],
  'step-down': [
    'RequestVote',
    'VoteReply',
    'AppendEntries',
    'AppendReply',
    'InstallSnapshot',
    'InstallSnapshotReply',
    'Nack',
    'Prepare',
    'Accept',
  ],
  submit: ['AppendEntries', 'AppendReply', 'InstallSnapshot', 'InstallSnapshotReply', 'Accept', 'Accepted'],
  lock: ['ClientRequest', 'ClientReply', 'AppendEntries', 'AppendReply'],
  client: ['ClientRequest', 'ClientReply', 'StoreWrite'],
  store: ['StoreWrite'],
};

/** The event log's "who" and "kind" as a filter on the arrows; null when both say all. */
export function messageFilterOf(subject: string, kind: string): MessageFilter | null {
  const actor = subject === 'all' ? null : subject;
  const types = kind === 'all' ? undefined : TYPES_OF[kind as EventCategory];
  if (actor === null && types === undefined) return null;
  return { actor, types: types ? new Set(types) : null };
}

export const ConnectedSpaceTime = memo(function ConnectedSpaceTime() {
  const bridge = useBridge();
  const store = useLabStore();
  const trace = useLab(selectTrace);
  const now = useLab(selectNow);
  const focus = useLab(selectSpacetimeFocus);
  const subject = useLab((s) => s.eventSubject);
  const kind = useLab((s) => s.eventKind);
  const filter = useMemo(() => messageFilterOf(subject, kind), [subject, kind]);
  // The clients' operations beside their lanes, checked as the History tab checks them.
  const hasClients = useLab((s) => selectConfig(s).clientIds.length > 0);
  // A Paxos run's lanes name ballots where a Raft run's name terms.
  const paxos = useLab((s) => selectConfig(s).protocol !== undefined);
  const checked = useHistory(hasClients);
  const history = useMemo<SceneHistory | null>(
    () =>
      checked && checked.ops.length > 0 ? { ops: checked.ops, subset: new Set(shownSubset(checked.verdicts)), atMs: checked.atMs } : null,
    [checked],
  );
  const onSeek = useCallback(
    (t: number) => {
      if (store.getState().frame.playing) bridge.pause();
      bridge.seek(Math.max(0, Math.round(t)));
    },
    [bridge, store],
  );
  const onMessage = useCallback(
    (id: number, sentAt: number) => {
      // A message is in flight from the millisecond it is sent: there its Why panel can answer.
      if (store.getState().frame.playing) bridge.pause();
      bridge.seek(sentAt);
      store.getState().askWhy({ kind: 'message', seq: id });
    },
    [bridge, store],
  );
  const onPlayWindow = useCallback((t0: number, t1: number) => bridge.playWindow(t0, t1), [bridge]);
  // The SVG and PNG exports draw what the view shows now.
  const shown = useRef<SpaceTimeViewState | null>(null);
  const onViewChange = useCallback((view: SpaceTimeViewState) => {
    shown.current = view;
  }, []);
  useEffect(() => registerSpacetimeExports(store, () => shown.current), [store]);
  return (
    <SpaceTimeView
      // A new figure (or a new run's figure) opens the view afresh on its window and lanes.
      key={focus?.key ?? 0}
      trace={trace}
      nowMs={now}
      {...(focus ? { window: [focus.fromMs, focus.toMs] as const, ...(focus.lanes ? { lanes: focus.lanes } : {}) } : {})}
      {...(focus?.heartbeats ? { heartbeats: focus.heartbeats } : {})}
      {...(focus?.compress ? { compress: true } : {})}
      onSeek={onSeek}
      onMessage={onMessage}
      onPlayWindow={onPlayWindow}
      onViewChange={onViewChange}
      {...(filter ? { filter } : {})}
      history={history}
      ballots={paxos}
    />
  );
});
