/** The page: controls on top, the diagram on the left, panels and the event log on the right. */
import { memo, type KeyboardEvent } from 'react';
import { ClientsPanel } from './panels/ClientsPanel';
import { EventLogPanel } from './panels/EventLogPanel';
import { LockTablePanel } from './panels/LockTablePanel';
import { LogsPanel } from './panels/LogsPanel';
import { NodeContextPanel } from './panels/NodeContextPanel';
import { StoresPanel } from './panels/StoresPanel';
import { WhyNoLeaderButton, WhyPanel } from './panels/WhyPanel';
import { BugsMenu, InvariantBadge, InvariantsPanel } from './panels/InvariantsPanel';
import { PseudocodePanel } from './panels/PseudocodePanel';
import { ScheduleEditor } from './controls/ScheduleEditor';
import { Scrubber } from './controls/Scrubber';
import { ShareControls } from './controls/ShareControls';
import { ExportMenu } from './controls/ExportMenu';
import { NetworkControls } from './controls/NetworkControls';
import { PlaybackControls } from './controls/PlaybackControls';
import { PresetBlurb, PresetPicker } from './controls/PresetPicker';
import { RunSettings } from './controls/RunSettings';
import { TourBar } from './controls/TourBar';
import { ViewSwitch } from './controls/ViewSwitch';
import { ConnectedSpaceTime } from './spacetime/ConnectedSpaceTime';
import { Diagram } from './diagram/Diagram';
import { Legend } from './diagram/Legend';
import { useBridge, useLab, useLabPanel, useLabStore } from './labContext';
import { SIDE_TABS, type SideTab } from './store/labStore';
import { selectError, selectMainView, selectSideTab, selectStatus } from './store/selectors';
import { useKeyboardShortcuts } from './useKeyboardShortcuts';
// Presenter mode and the embed frame (src/ui/present).
import { EmbedView } from './present/EmbedView';
import { PresenterButton, PresenterView } from './present/PresenterView';
import { usePresenterKeys } from './present/presenterKeys';

const TAB_TITLES: Record<SideTab, string> = {
  clients: 'Clients',
  stores: 'Stores',
  logs: 'Logs',
  locks: 'Lock table',
  node: 'Node',
  code: 'Rules',
  invariants: 'Invariants',
  schedule: 'Schedule',
  settings: 'Run settings',
};

const Status = memo(function Status() {
  const text = useLabPanel(selectStatus);
  return (
    <p className="status" data-testid="status">
      {text}
    </p>
  );
});

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

const SideTabs = memo(function SideTabs() {
  const tab = useLab(selectSideTab);
  const store = useLabStore();
  const onKeyDown = (e: KeyboardEvent) => {
    const i = SIDE_TABS.indexOf(tab);
    const next = e.key === 'ArrowRight' ? SIDE_TABS[(i + 1) % SIDE_TABS.length] : e.key === 'ArrowLeft' ? SIDE_TABS[(i + SIDE_TABS.length - 1) % SIDE_TABS.length] : null;
    if (!next) return;
    e.preventDefault();
    store.getState().setSideTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <div className="side-tabs">
      <div role="tablist" aria-label="Panels" className="tablist" onKeyDown={onKeyDown}>
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
        {tab === 'clients' && <ClientsPanel />}
        {tab === 'stores' && <StoresPanel />}
        {tab === 'logs' && <LogsPanel />}
        {tab === 'locks' && <LockTablePanel />}
        {tab === 'node' && <NodeContextPanel />}
        {tab === 'code' && <PseudocodePanel />}
        {tab === 'invariants' && <InvariantsPanel />}
        {tab === 'schedule' && <ScheduleEditor />}
        {tab === 'settings' && <RunSettings />}
      </div>
    </div>
  );
});

/** The ring, the space-time view, or both side by side. */
const DiagramPane = memo(function DiagramPane() {
  const view = useLab(selectMainView);
  return (
    <section className={`diagram-pane view-${view}`} aria-label="Cluster">
      <div className="view-bar">
        <ViewSwitch />
      </div>
      <div className="views">
        {view !== 'time' && (
          <div className="ring-view">
            <Diagram />
            <div className="why-corner">
              <WhyNoLeaderButton />
            </div>
            <NetworkControls />
            {/* Beside the space-time view (which has its own key) the ring keeps its height. */}
            {view === 'ring' && <Legend />}
          </div>
        )}
        {view !== 'ring' && <ConnectedSpaceTime />}
      </div>
      <WhyPanel />
    </section>
  );
});

export function App() {
  const bridge = useBridge();
  useKeyboardShortcuts(bridge);
  usePresenterKeys(bridge);
  const pageMode = useLab((s) => s.pageMode);
  const presenting = useLab((s) => s.presenting);
  if (pageMode === 'embed') return <EmbedView />;
  if (presenting) {
    return (
      <PresenterView
        panels={
          <aside className="side" aria-label="Panels">
            <SideTabs />
            <EventLogPanel />
          </aside>
        }
      />
    );
  }
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">Lockstep</h1>
        <PlaybackControls />
        <ShareControls />
        <ExportMenu />
        <PresenterButton />
      </header>
      {/* A landmark of its own, so the scenario picker, its blurb and the status are not loose on the page. */}
      <section className="subbar" aria-label="The run: preset, bugs, status">
        <div className="subbar-left">
          <PresetPicker />
          <BugsMenu />
        </div>
        <PresetBlurb />
        <div className="subbar-right">
          <Status />
          <InvariantBadge />
        </div>
      </section>
      <ErrorBanner />
      <TourBar />
      <Scrubber />
      <main className="stage">
        <DiagramPane />
        <aside className="side">
          <SideTabs />
          <EventLogPanel />
        </aside>
      </main>
    </div>
  );
}
