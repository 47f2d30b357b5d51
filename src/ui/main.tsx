/** Boots the page: the store, the simulation worker, the bridge between them, then React. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostEndpoint } from '../worker/protocol';
import { App } from './App';
import { HostBridge } from './bridge/hostBridge';
import { LabProvider } from './labContext';
import { defaultRun, nearestSpeedChoice, runFromQuery, VISITED_KEY } from './runs';
import { createLabStore } from './store/labStore';
import { tabForPreset } from './tabs';
import { startUrlSync } from './urlSync';
import { openTourBeat } from './tour';
import { startViewSync } from './viewSync';
import { registerRunExports } from './export/runActions';
import { lazyView, OnDemand } from './lazyView';
import { openPresentLink } from './present/channel';
import { startPlaybackAssist } from './present/playbackAssist';
import { startProjector } from './present/projector';
import { openExperimentsFromHash } from './experiments/open';
import './styles.css';

const fromLink = runFromQuery(location.search);
// The presenter console is a second window with no run of its own: it follows the projector's.
if (fromLink !== null && typeof fromLink !== 'string' && fromLink.console) bootConsole();
else bootLab();

function bootConsole(): void {
  document.title = 'Lockstep presenter console';
  // A page of its own, with nothing of the lab's: its code loads on demand too.
  const presenterConsole = lazyView(() => import('./present/PresenterConsole').then((m) => m.PresenterConsole));
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <OnDemand what="the presenter console" retry={presenterConsole.retry}>
        <presenterConsole.View />
      </OnDemand>
    </StrictMode>,
  );
}

/** True the first time this browser opens the lab (and remembers it); false where storage is off. */
function firstVisit(): boolean {
  try {
    if (localStorage.getItem(VISITED_KEY) !== null) return false;
    localStorage.setItem(VISITED_KEY, '1');
    return true;
  } catch {
    return false;
  }
}

function bootLab(): void {
  const store = createLabStore();
  const worker = new Worker(new URL('../worker/sim.worker.ts', import.meta.url), { type: 'module' });
  const bridge = new HostBridge(worker as unknown as HostEndpoint, store);
  // A bad link keeps the default run paused under its sentence, so the student can read and fix it.
  const run = fromLink === null ? defaultRun() : typeof fromLink === 'string' ? { ...defaultRun(), playing: false } : fromLink;
  // The speed box offers round values: a link's odd speed (an old tour's 1.072×) becomes the nearest.
  bridge.setSpeed(nearestSpeedChoice(run.speed));
  // A first visit opens on "Start here": the first election, paused at its first beat.
  const startHere = fromLink === null && firstVisit();
  const tour = startHere ? { name: 'first-election', beat: 1 } : run.tour;
  const loadRun = () =>
    bridge.load(run.config, run.schedule, { startAtMs: run.startAtMs, stopAtMs: run.stopAtMs, playing: run.playing, label: run.label });
  // A link to a tour's beat opens that beat's own run, paused at its end, once the tours are
  // fetched (tour.ts); if they cannot be, the link's run opens instead and the banner says why.
  if (tour) {
    void openTourBeat(bridge, tour, 'land').then((opened) => {
      if (!opened) loadRun();
      // Marked once the tour is open: opening a tour clears the mark (labStore's setTour).
      else if (startHere) store.setState({ tourStartHere: true });
    });
  } else {
    loadRun();
  }
  startViewSync(store, bridge, run.view);
  // The trace, event-log and ShiViz exports replay the run in the worker.
  registerRunExports(bridge);
  if (typeof fromLink === 'string') store.getState().setBadLink({ query: location.search.replace(/^\?/, ''), error: fromLink });
  startUrlSync(store, {
    replace: (query) => history.replaceState(history.state, '', `${location.pathname}?${query}${location.hash}`),
    now: () => performance.now(),
  });
  if (!tour) store.getState().setSideTab(tabForPreset(run.label) ?? 'logs');
  // A preset (or a found counterexample) switches the side panel to what it is about; a tour's
  // beats choose their own (what their narration names, tour.ts).
  store.subscribe((s, prev) => {
    const tab =
      s.tour === null && s.frame.runId !== prev.frame.runId && s.frame.label !== prev.frame.label ? tabForPreset(s.frame.label) : null;
    if (tab !== null) s.setSideTab(tab);
  });

  // Presenter mode (from the link or P), the embed frame, the console's channel and the playback aids.
  store.getState().setPresent({ pageMode: run.embed ? 'embed' : 'lab', presenting: run.present === true });
  const presentLink = openPresentLink();
  if (presentLink !== null && !run.embed) startProjector(bridge, presentLink);
  startPlaybackAssist(bridge);
  // `#experiments` opens the Experiments view (loaded on demand, with its pool of workers: App.tsx).
  openExperimentsFromHash(location.hash);

  // Test and benchmark hooks: read-only access to the store.
  (window as unknown as { lockstep: unknown }).lockstep = { store, bridge };

  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <LabProvider store={store} bridge={bridge}>
        <App />
      </LabProvider>
    </StrictMode>,
  );
}
