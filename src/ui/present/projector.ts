/**
 * The projector's end of the presenter console: once a console has said hello, broadcasts what
 * it shows whenever that changes (with no console, nothing is posted each frame), and carries
 * out the console's commands. It announces itself once on start, so a console opened first
 * hears it and says hello.
 */
import type { HostBridge } from '../bridge/hostBridge';
import type { LabState } from '../store/labStore';
import { runPresentCommand } from './actions';
import { sameProjectorState, type PresentLink, type ProjectorState } from './channel';

export function projectorState(s: LabState): ProjectorState {
  const now = s.frame.snapshot?.now ?? 0;
  let before = 0;
  let after = 0;
  for (const m of s.landmarks) {
    if (m.t < now) before++;
    else if (m.t > now) after++;
  }
  return {
    type: 'state',
    nowMs: now,
    playing: s.frame.playing,
    blank: s.blank,
    tour: s.tour === null ? null : { name: s.tour.name, beat: s.tour.beat },
    label: s.frame.label,
    landmarksBefore: before,
    landmarksAfter: after,
  };
}

export function startProjector(bridge: HostBridge, link: PresentLink): () => void {
  const store = bridge.store;
  let sent: ProjectorState | null = null;
  let consoleOpen = false;
  const broadcast = (force: boolean) => {
    const state = projectorState(store.getState());
    if (!force && sameProjectorState(sent, state)) return;
    sent = state;
    link.send(state);
  };
  const stopListening = link.listen((message) => {
    if (message.type === 'hello') {
      consoleOpen = true;
      broadcast(true);
    } else if (message.type === 'command') runPresentCommand(bridge, message.command);
  });
  const unsubscribe = store.subscribe(() => {
    if (consoleOpen) broadcast(false);
  });
  broadcast(true);
  return () => {
    stopListening();
    unsubscribe();
  };
}
