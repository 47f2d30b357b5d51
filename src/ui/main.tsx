/** Boots the page: the store, the simulation worker, the bridge between them, then React. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostEndpoint } from '../worker/protocol';
import { App } from './App';
import { HostBridge } from './bridge/hostBridge';
import { LabProvider } from './labContext';
import { defaultRun, runFromQuery } from './runs';
import { createLabStore } from './store/labStore';
import { tabForPreset } from './tabs';
import { startUrlSync } from './urlSync';
import { openTourBeat } from './tour';
import { startViewSync } from './viewSync';
import { registerRunExports } from './export/runActions';
import { PresenterConsole } from './present/PresenterConsole';
import { openPresentLink } from './present/channel';
import { startPlaybackAssist } from './present/playbackAssist';
import { startProjector } from './present/projector';
import { bootExperiments } from './experiments/bootExperiments';
import './styles.css';

const fromLink = runFromQuery(location.search);
// The presenter console is a second window with no run of its own: it follows the projector's.
if (fromLink !== null && typeof fromLink !== 'string' && fromLink.console) bootConsole();
else bootLab();

function bootConsole(): void {
  document.title = 'Lockstep presenter console';
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <PresenterConsole />
    </StrictMode>,
  );
}

function bootLab(): void {
  const store = createLabStore();
  const worker = new Worker(new URL('../worker/sim.worker.ts', import.meta.url), { type: 'module' });
  const bridge = new HostBridge(worker as unknown as HostEndpoint, store);
  const run = fromLink === null || typeof fromLink === 'string' ? defaultRun() : fromLink;
  bridge.setSpeed(run.speed);
  // A link to a tour's beat opens that beat's own run, paused at its end.
  if (!(run.tour && openTourBeat(bridge, run.tour, 'land'))) {
    bridge.load(run.config, run.schedule, { startAtMs: run.startAtMs, stopAtMs: run.stopAtMs, playing: run.playing, label: run.label });
  }
  startViewSync(store, bridge, run.view);
  // The trace, event-log and ShiViz exports replay the run in the worker.
  registerRunExports(bridge);
  if (typeof fromLink === 'string') store.setState({ error: `${fromLink} Opening the default run instead.` });
  startUrlSync(store, {
    replace: (query) => history.replaceState(history.state, '', `${location.pathname}?${query}${location.hash}`),
    now: () => performance.now(),
  });
  if (!run.tour) store.getState().setSideTab(tabForPreset(run.label) ?? 'logs');
  // A preset (or a found counterexample) switches the side panel to what it is about.
  store.subscribe((s, prev) => {
    const tab = s.frame.runId !== prev.frame.runId && s.frame.label !== prev.frame.label ? tabForPreset(s.frame.label) : null;
    if (tab !== null) s.setSideTab(tab);
  });

  // Presenter mode (from the link or P), the embed frame, the console's channel and the playback aids.
  store.getState().setPresent({ pageMode: run.embed ? 'embed' : 'lab', presenting: run.present === true });
  const presentLink = openPresentLink();
  if (presentLink !== null && !run.embed) startProjector(bridge, presentLink);
  startPlaybackAssist(bridge);
  // The Experiments view's pool of workers (src/ui/experiments).
  bootExperiments();

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
