/**
 * The presenter console's protocol: the projector window and the console window (same machine,
 * same origin) talk over one BroadcastChannel. The projector broadcasts what it shows on every
 * change; the console sends commands and, when it opens, asks for the current state.
 */

export const PRESENT_CHANNEL = 'lockstep-present';

/** What the projector shows now: enough for the console to show the notes and the clock. */
export interface ProjectorState {
  readonly type: 'state';
  readonly nowMs: number;
  readonly playing: boolean;
  readonly blank: boolean;
  /** The open tour and beat (1-based), if any. */
  readonly tour: { readonly name: string; readonly beat: number } | null;
  /** The run's label (a preset's name), for the console's heading. */
  readonly label: string | null;
  /** Landmarks before and after now, for Next/Previous without a tour. */
  readonly landmarksBefore: number;
  readonly landmarksAfter: number;
}

export const PRESENT_COMMANDS = ['toggle-play', 'next', 'prev', 'blank'] as const;
export type PresentCommand = (typeof PRESENT_COMMANDS)[number];

export type PresentMessage = ProjectorState | { readonly type: 'command'; readonly command: PresentCommand } | { readonly type: 'hello' };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Checks a message from the channel (another tab or an older page may send anything). */
export function isPresentMessage(x: unknown): x is PresentMessage {
  if (!isObject(x)) return false;
  switch (x.type) {
    case 'hello':
      return true;
    case 'command':
      return typeof x.command === 'string' && (PRESENT_COMMANDS as readonly string[]).includes(x.command);
    case 'state': {
      const tour = x.tour;
      const tourOk = tour === null || (isObject(tour) && typeof tour.name === 'string' && typeof tour.beat === 'number');
      return (
        typeof x.nowMs === 'number' &&
        typeof x.playing === 'boolean' &&
        typeof x.blank === 'boolean' &&
        tourOk &&
        (x.label === null || typeof x.label === 'string') &&
        typeof x.landmarksBefore === 'number' &&
        typeof x.landmarksAfter === 'number'
      );
    }
    default:
      return false;
  }
}

export function sameProjectorState(a: ProjectorState | null, b: ProjectorState): boolean {
  return (
    a !== null &&
    a.nowMs === b.nowMs &&
    a.playing === b.playing &&
    a.blank === b.blank &&
    a.label === b.label &&
    a.landmarksBefore === b.landmarksBefore &&
    a.landmarksAfter === b.landmarksAfter &&
    (a.tour === b.tour || (a.tour !== null && b.tour !== null && a.tour.name === b.tour.name && a.tour.beat === b.tour.beat))
  );
}

/** The part of BroadcastChannel used here, so tests can pass their own. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface PresentLink {
  send(message: PresentMessage): void;
  /** Calls `listener` with every well-formed message; returns the unsubscribe. */
  listen(listener: (message: PresentMessage) => void): () => void;
  close(): void;
}

/** A typed end of the channel; null where BroadcastChannel does not exist. */
export function openPresentLink(channel?: ChannelLike): PresentLink | null {
  const ch = channel ?? (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(PRESENT_CHANNEL));
  if (ch === null) return null;
  return {
    send: (message) => ch.postMessage(message),
    listen: (listener) => {
      const onMessage = (event: MessageEvent) => {
        if (isPresentMessage(event.data)) listener(event.data);
      };
      ch.addEventListener('message', onMessage);
      return () => ch.removeEventListener('message', onMessage);
    },
    close: () => ch.close(),
  };
}
