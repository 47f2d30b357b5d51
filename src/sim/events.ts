/**
 * Structured event records; `line` is the chapter-format text the CLI prints. Every event is
 * classified where it is logged: its `kind` says exactly what happened and `subjects` names the
 * nodes, clients and stores it concerns, so nothing downstream (landmarks, filters, the checker)
 * ever reads the text of a line.
 */

/** The event-log filter's groups (one per kind of actor or fault). */
export const EVENT_CATEGORIES = [
  'election', 'leader', 'step-down', 'crash', 'restart', 'partition', 'heal', 'submit', 'lock', 'client', 'store', 'fault',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

/** Every kind of event and the filter group it belongs to. */
const CATEGORY_OF = {
  // Raft (the chapter's lines).
  election: 'election',
  leader: 'leader',
  'step-down': 'step-down',
  crash: 'crash',
  restart: 'restart',
  partition: 'partition',
  heal: 'heal',
  'submit-rejected': 'submit',
  drift: 'fault',
  loss: 'fault',
  delay: 'fault',
  duplicate: 'fault',
  reorder: 'fault',
  calm: 'heal',
  'election-forced': 'election',
  'election-force-refused': 'election',
  // The lock service, on the leader.
  'lock-granted': 'lock',
  'lock-grant-rejected': 'lock',
  'lock-released': 'lock',
  'lock-release-not-found': 'lock',
  'lock-release-refused': 'lock',
  'lock-expired': 'lock',
  'lock-expire-stale': 'lock',
  'lock-busy': 'lock',
  'lock-ghost': 'lock',
  'lease-ran-out': 'lock',
  // Clients.
  'client-asks': 'client',
  'client-times-out': 'client',
  'client-redirected': 'client',
  'client-acquired': 'client',
  'client-busy': 'client',
  'client-release-busy': 'client',
  'client-released': 'client',
  'client-release-not-found': 'client',
  'client-release-refused': 'client',
  'client-pauses': 'client',
  'client-wakes': 'client',
  'client-crashes': 'client',
  'client-restarts': 'client',
  'client-ignores': 'client',
  'client-writes': 'client',
  // Stores.
  'store-accepted': 'store',
  'store-rejected': 'store',
} as const satisfies Record<string, EventCategory>;

export type EventKind = keyof typeof CATEGORY_OF;

export const EVENT_KINDS = Object.keys(CATEGORY_OF) as readonly EventKind[];

export function eventCategory(kind: EventKind): EventCategory {
  return CATEGORY_OF[kind];
}

export interface SimEvent {
  /** Simulated time in ms. */
  readonly t: number;
  readonly kind: EventKind;
  /** Node, client and store ids the event is about, for filtering. */
  readonly subjects: readonly string[];
  readonly text: string;
  /** `t=  156 ms n2 election timeout, candidate in term 1`. */
  readonly line: string;
}
