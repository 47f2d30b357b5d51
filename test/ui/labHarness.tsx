/** Renders UI pieces against a real store filled from a real simulation, with a recording endpoint. */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { DEFAULT_CONFIG, type SimConfig } from '../../src/sim/model/config';
import { parseSchedule } from '../../src/sim/model/schedule';
import { CHECKPOINT_MS, MAX_CHECKPOINTS, Timeline } from '../../src/sim/run/timeline';
import { detailsSince, eventsSince, takeRunView } from '../../src/sim/view/runView';
import { HostBridge } from '../../src/ui/bridge/hostBridge';
import { LabProvider } from '../../src/ui/labContext';
import { createLabStore, EMPTY_FRAME } from '../../src/ui/store/labStore';
import type { HostEndpoint, HostToWorker } from '../../src/worker/protocol';

export function recordingEndpoint() {
  const sent: HostToWorker[] = [];
  const endpoint: HostEndpoint = {
    postMessage: (m) => sent.push(m),
    addEventListener: () => {},
    removeEventListener: () => {},
  };
  return { endpoint, sent };
}

export function renderLab(ui: ReactElement, run: { config?: SimConfig; schedule?: string; untilMs?: number; viewAtMs?: number } = {}) {
  const config = run.config ?? { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] };
  // Recording details, as the page's viewed run does.
  const timeline = new Timeline(config, parseSchedule(run.schedule ?? ''), CHECKPOINT_MS, MAX_CHECKPOINTS, { recordDetails: true });
  timeline.advanceTo(run.untilMs ?? 400);
  if (run.viewAtMs !== undefined) timeline.seek(run.viewAtMs);
  const sim = timeline.current;
  const store = createLabStore();
  store.setState({
    frame: {
      ...EMPTY_FRAME,
      runId: 1,
      snapshot: takeRunView(sim),
      clockMs: sim.nowMs,
      config,
      schedule: timeline.schedule,
      horizonMs: timeline.horizonMs,
      check: { checkedToMs: timeline.horizonMs, violation: null, staleWrites: 0 },
    },
    events: eventsSince(sim, 0),
    eventsBase: 0,
    details: detailsSince(sim, 0),
    landmarks: timeline.landmarks(),
  });
  const { endpoint, sent } = recordingEndpoint();
  const bridge = new HostBridge(endpoint, store, { scheduleFlush: (f) => f() });
  const result = render(
    <LabProvider store={store} bridge={bridge}>
      {ui}
    </LabProvider>,
  );
  return { ...result, store, bridge, sent, sim };
}
