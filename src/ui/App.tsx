/** The page: controls on top, the diagram on the left, panels and the event log on the right (on a phone: diagram first, panels as a sheet below). */
import { memo, useEffect, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { EventLogPanel } from './panels/EventLogPanel';
import { LogsPanel } from './panels/LogsPanel';
import { WhyNoLeaderButton, WhyPanel } from './panels/WhyPanel';
import { BugsMenu, InvariantBadge } from './panels/RunChecks';
import { Scrubber } from './controls/Scrubber';
import { ShareControls } from './controls/ShareControls';
import { ExportMenu } from './controls/ExportMenu';
import { NetworkControls, SelectionNote } from './controls/NetworkControls';
import { PlaybackControls } from './controls/PlaybackControls';
import { PresetBlurb, PresetPicker } from './controls/PresetPicker';
import { TourBar } from './controls/TourBar';
import { ToursMenu } from './controls/ToursMenu';
import { Status } from './controls/Status';
import { ViewSwitch } from './controls/ViewSwitch';
import { Diagram } from './diagram/Diagram';
import { Legend } from './diagram/Legend';
import { useBridge, useLab, useLabStore } from './labContext';
import { SIDE_TABS, type SideTab } from './store/labStore';
import { selectConfig, selectError, selectMainView, selectNodeIds, selectRunsRaft, selectSideTab, selectTour } from './store/selectors';
import { featuresOf } from '../sim/model/config';
import { runFromQuery } from './runs';
import { useKeyboardShortcuts } from './useKeyboardShortcuts';
// Presenter mode and the embed frame (src/ui/present).
import { EmbedView } from './present/EmbedView';
import { PresenterButton } from './present/PresenterButton';
import { DiagramTextContext } from './present/diagramText';
import { usePresenterKeys } from './present/presenterKeys';
// The Experiments view (src/ui/experiments): its button here, the view on demand.
import { ExperimentsButton, useExperimentsOpen } from './experiments/open';
import { OnDemand } from './lazyView';
import { experimentsView, importView, LATER_TABS, preloadLaterTabs, presenterView, spaceTime } from './lazyViews';
// Other tools' files (src/ui/importer): whether one is open and the drop listener here; the screen, its readers and checker on demand.
import { closeImportedFile, useImportedFile } from './importer/importStore';
import { listenForDroppedFiles } from './importer/openFile';

const TAB_TITLES: Record<SideTab, string> = {
  clients: 'Clients',
  stores: 'Stores',
  history: 'History',
  logs: 'Logs',
  locks: 'Locks',
  node: 'Node',
  code: 'Rules',
  invariants: 'Invariants',
  schedule: 'Schedule',
  settings: 'Settings',
};

const ErrorBanner = memo(function ErrorBanner() {
  const error = useLab(selectError);
  const store = useLabStore();
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error">
      <span>{error}</span>
      <button type="button" onClick={() => store.getState().dismissError()}>
        Dismiss
      </button>
    </div>
  );
});

/**
 * A link that could not be opened stays on screen with its text and what was wrong, above the
 * default run (paused), so a student can see the mistake, mend the text and open it again.
 */
const BadLinkBanner = memo(function BadLinkBanner() {
  const bad = useLab((s) => s.badLink);
  const store = useLabStore();
  const [text, setText] = useState(bad?.query ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setText(bad?.query ?? ''), [bad?.query]);
  if (!bad) return null;
  const open = () => {
    const query = text.trim().replace(/^.*?\?/, '');
    const decoded = runFromQuery(query);
    if (typeof decoded === 'string') {
      setProblem(decoded);
      return;
    }
    location.assign(`${location.pathname}?${query}`);
  };
  return (
    <section className="bad-link" role="alert" aria-label="The link could not be opened" data-testid="bad-link">
      <p>
        <strong>This link could not be opened.</strong> <span data-testid="bad-link-error">{problem ?? bad.error}</span> Below is the
        default run, paused.
      </p>
      <div className="bad-link-edit">
        <label>
          <span>The link’s text</span>
          <input type="text" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} data-testid="bad-link-text" />
        </label>
        <button type="button" className="primary" onClick={open}>
          Open this link
        </button>
        <button type="button" onClick={() => store.getState().setBadLink(null)}>
          Dismiss
        </button>
      </div>
    </section>
  );
});

/**
 * The run bar: what runs and how it is drawn on the left, its health (and the bugs planted in it)
 * on the right, the preset's blurb between. While a tour is open its narration (the bar below)
 * is the story, so the blurb gives way and the bar folds to one row: the ring keeps the height.
 */
const RunBar = memo(function RunBar() {
  const touring = useLab((s) => selectTour(s) !== null);
  return (
    <section className={touring ? 'subbar touring' : 'subbar'} aria-label="The run: preset, bugs, status">
      <div className="subbar-left">
        <PresetPicker />
        <div className="view-row">
          <ViewSwitch />
          <ExperimentsButton onPointerEnter={experimentsView.preload} />
        </div>
      </div>
      {!touring && <PresetBlurb />}
      <div className="subbar-right">
        {/* While touring the narration says what the run is doing and the ring shows it: the run bar
            keeps one row, so the ring keeps its height (the status comes back with Exit tour). */}
        {!touring && <Status />}
        <div className="subbar-checks">
          <BugsMenu />
          <InvariantBadge />
        </div>
      </div>
    </section>
  );
});

const SideTabs = memo(function SideTabs() {
  const tab = useLab(selectSideTab);

  const store = useLabStore();
  const later = LATER_TABS[tab];
  const onKeyDown = (e: KeyboardEvent) => {
    const i = SIDE_TABS.indexOf(tab);
    const next =
      e.key === 'ArrowRight'
        ? SIDE_TABS[(i + 1) % SIDE_TABS.length]
        : e.key === 'ArrowLeft'
          ? SIDE_TABS[(i + SIDE_TABS.length - 1) % SIDE_TABS.length]
          : null;
    if (!next) return;
    e.preventDefault();
    store.getState().setSideTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <div className="side-tabs">
      <div
        role="tablist"
        aria-label="Panels"
        className="tablist"
        onKeyDown={onKeyDown}
        onPointerEnter={preloadLaterTabs}
        onFocus={preloadLaterTabs}
      >
        {SIDE_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={t === tab}
            aria-controls={`tabpanel-${t}`}
            tabIndex={t === tab ? 0 : -1}
            onClick={() => store.getState().setSideTab(t)}
          >
            {TAB_TITLES[t]}
          </button>
        ))}
      </div>
      {/* Keyed by tab: each tab opens at its top, not where the last one was scrolled to. */}
      <div key={tab} role="tabpanel" tabIndex={0} id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        {tab === 'logs' && <LogsPanel />}
        {later && (
          <OnDemand what={`the ${TAB_TITLES[tab]} tab`} retry={later.retry}>
            <later.View />
          </OnDemand>
        )}
      </div>
    </div>
  );
});

/** The phone layout's width (the `@media (max-width: 640px)` block in styles.css says the same). */
const PHONE_QUERY = '(max-width: 640px)';

function subscribePhone(onChange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isPhone(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;
}

/**
 * On a phone the ring is at most 390 px wide: presenter sizes keep its glyphs big enough to tap
 * and its words big enough to read; a step larger while the glyphs (five nodes or fewer) have room for it.
 */
const PHONE_TEXT = { scale: 1.15 } as const;
const PHONE_TEXT_CROWDED = { scale: 1 } as const;

/** The ring, the space-time view, or both side by side. */
const DiagramPane = memo(function DiagramPane() {
  const view = useLab(selectMainView);
  // The ring's legend names a protocol feature's messages only in runs with it (snapshots' InstallSnapshot).
  const runConfig = useLab(selectConfig);
  const features = featuresOf(runConfig);
  const protocol = runConfig.protocol;
  // Another lock service's peer traffic (pings, keep-alives, replication, gossip) is named only in its runs.
  const serviceRun = runConfig.lock !== undefined;
  // A service without Raft (Redis, Redlock, the database, gossip) sends no Raft RPC and has no leader.
  const raftRun = useLab(selectRunsRaft);
  const phone = useSyncExternalStore(subscribePhone, isPhone, () => false);
  const crowded = useLab((s) => selectNodeIds(s).length > 5);
  return (
    <section className={`diagram-pane view-${view}`} aria-label="Cluster">
      <div className="views">
        {view !== 'time' && (
          <div className="ring-view">
            <DiagramTextContext.Provider value={phone ? (crowded ? PHONE_TEXT_CROWDED : PHONE_TEXT) : null}>
              <Diagram />
            </DiagramTextContext.Provider>
            <div className="why-corner">
              <WhyNoLeaderButton />
            </div>
            <p id="selection-note" className="diagram-hint">
              <SelectionNote />
            </p>
            <NetworkControls />
            {/* Beside the space-time view (which has its own key) the ring keeps its height. */}
            {view === 'ring' && <Legend features={features} serviceRun={serviceRun} raft={raftRun} protocol={protocol} />}
          </div>
        )}
        {view !== 'ring' && (
          <OnDemand what="the space-time view" retry={spaceTime.retry} className="spacetime-pending">
            <spaceTime.View />
          </OnDemand>
        )}
      </div>
      <WhyPanel place="diagram" />
    </section>
  );
});

/**
 * Playback on top. On a phone the sharing, export and presenter buttons fold behind "More", so
 * the bar is two rows; on a wide screen the toggle is hidden and they sit in the bar as before.
 */
function TopBar() {
  const [more, setMore] = useState(false);
  return (
    <header className={more ? 'topbar more-open' : 'topbar'}>
      <h1 className="brand">Lockstep</h1>
      {/* Every tour one click away, on a phone too (the run bar is below the ring there). */}
      <ToursMenu />
      <PlaybackControls />
      <button type="button" className="more-toggle" aria-expanded={more} aria-controls="topbar-more" onClick={() => setMore(!more)}>
        More <span aria-hidden="true">{more ? '▴' : '▾'}</span>
      </button>
      <div className="topbar-more" id="topbar-more">
        <ShareControls />
        <ExportMenu />
        <PresenterButton />
      </div>
    </header>
  );
}

export function App() {
  const bridge = useBridge();
  const pageMode = useLab((s) => s.pageMode);
  const presenting = useLab((s) => s.presenting);
  const experiments = useExperimentsOpen();
  const touring = useLab((s) => selectTour(s) !== null);
  const imported = useImportedFile() !== null;
  // With the Experiments view (or an imported file) over the run, Space and the arrows belong to it, not the hidden run.
  const runKeys = presenting || (!experiments && !imported);
  useKeyboardShortcuts(bridge, runKeys);
  usePresenterKeys(bridge, runKeys);
  // A file dropped anywhere on the page opens: a run file replays, another tool's file is imported.
  useEffect(() => (pageMode === 'embed' ? undefined : listenForDroppedFiles(bridge)), [bridge, pageMode]);
  // Nor does the hidden run play on, taking a core from the experiment's (or the import's) workers.
  useEffect(() => {
    if ((!experiments && !imported) || presenting) return;
    const stop = () => {
      if (bridge.store.getState().frame.playing) bridge.pause();
    };
    stop();
    return bridge.store.subscribe(stop);
  }, [experiments, imported, presenting, bridge]);
  if (pageMode === 'embed') return <EmbedView />;
  if (presenting) {
    return (
      <OnDemand
        what="presenter mode"
        retry={presenterView.retry}
        className="presenter-pending"
        close={() => bridge.store.getState().setPresent({ presenting: false })}
      >
        <presenterView.View
          panels={
            <aside className="side" aria-label="Panels">
              <SideTabs />
              <EventLogPanel />
            </aside>
          }
        />
      </OnDemand>
    );
  }
  if (imported) {
    return (
      <div className="app app-import">
        <OnDemand what="the importer" retry={importView.retry} className="import-pending" close={closeImportedFile}>
          <importView.View />
        </OnDemand>
      </div>
    );
  }
  if (experiments) {
    return (
      <div className="app app-experiments">
        <OnDemand what="the Experiments view" retry={experimentsView.retry} className="experiments-pending">
          <experimentsView.View />
        </OnDemand>
      </div>
    );
  }
  return (
    <div className={touring ? 'app touring' : 'app'}>
      <TopBar />
      {/* A landmark of its own, so the scenario picker, its blurb and the status are not loose on the page. */}
      <RunBar />
      {/* One row of the page's grid for whatever speaks to the person: an error, a bad link, the tour. */}
      <div className="notices">
        <ErrorBanner />
        <BadLinkBanner />
        <TourBar />
      </div>
      <Scrubber />
      <main className="stage">
        <DiagramPane />
        <aside className="side">
          <SideTabs />
          <EventLogPanel />
          <WhyPanel place="side" />
        </aside>
      </main>
    </div>
  );
}
