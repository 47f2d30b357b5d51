/** Structured event records; `line` is the chapter-format text the CLI prints. */
export type EventKind =
  | 'election'
  | 'leader'
  | 'step-down'
  | 'crash'
  | 'restart'
  | 'partition'
  | 'heal'
  | 'submit'
  | 'lock'
  | 'client'
  | 'store'
  | 'fault';

export const EVENT_KINDS: readonly EventKind[] = [
  'election', 'leader', 'step-down', 'crash', 'restart', 'partition', 'heal', 'submit', 'lock', 'client', 'store', 'fault',
];

export interface SimEvent {
  /** Simulated time in ms. */
  readonly t: number;
  readonly kind: EventKind;
  /** Node and client ids the event is about, for filtering. */
  readonly subjects: readonly string[];
  readonly text: string;
  /** `t=  156 ms n2 election timeout, candidate in term 1`. */
  readonly line: string;
}
