/**
 * What a presenter's remote (and the console) does: Next and Previous move between a tour's
 * beats, or between the run's landmarks when no tour is open; B blanks the projector.
 */
import type { HostBridge } from '../bridge/hostBridge';
import { tourNext, tourPrev } from '../tour';
import type { PresentCommand } from './channel';

export function presentNext(bridge: HostBridge): boolean {
  return bridge.store.getState().tour !== null ? tourNext(bridge) : bridge.jumpToLandmark(1);
}

export function presentPrev(bridge: HostBridge): boolean {
  return bridge.store.getState().tour !== null ? tourPrev(bridge) : bridge.jumpToLandmark(-1);
}

export function toggleBlank(bridge: HostBridge): void {
  const s = bridge.store.getState();
  s.setPresent({ blank: !s.blank });
}

export function runPresentCommand(bridge: HostBridge, command: PresentCommand): void {
  switch (command) {
    case 'toggle-play':
      bridge.togglePlay();
      return;
    case 'next':
      presentNext(bridge);
      return;
    case 'prev':
      presentPrev(bridge);
      return;
    case 'blank':
      toggleBlank(bridge);
      return;
  }
}
