/**
 * Raft's rules and the lock service's, as short pseudocode written from the paper's Figure 2 and
 * the two seeds. Every line has an id; detail events name the ids of the lines that produced
 * them, and chapter events map to the line that logs them (`lineOfEventKind`), so the panel can
 * light up what just ran and filter the event log by line.
 */
import type { EventKind } from '../model/events';
import { PSEUDOCODE } from '../model/features';

export type { PseudocodeLine, PseudocodeSection } from '../model/features';

/** The chapter's sections and each feature's, from their manifests (src/sim/model/features/), in panel order. */
export { PSEUDOCODE };

/** Every line id, in panel order. */
export const PSEUDOCODE_LINE_IDS: readonly string[] = PSEUDOCODE.flatMap((s) =>
  s.lines.map((l) => l.id).filter((id): id is string => id !== null),
);

/** The line a chapter or lock-service event comes from, if one does. */
export function lineOfEventKind(kind: EventKind): string | null {
  switch (kind) {
    case 'election':
      return 'timer.campaign';
    case 'leader':
      return 'rv.win';
    case 'step-down':
      return 'step-down';
    case 'restart':
      return 'restart';
    case 'lock-granted':
    case 'lock-busy':
      return 'lock.acquire';
    case 'lock-released':
    case 'lock-release-refused':
      return 'lock.release';
    case 'lock-takeover':
      return 'detect-takeover.expire';
    case 'lease-ran-out':
    case 'lock-expired':
      return 'lease.expire.leader-clock';
    case 'client-acquired':
    case 'client-writes':
      return 'lock.client-lease';
    case 'store-rejected':
      return 'store.fence.reject';
    // Paxos runs: the proposer's lines its events come from.
    case 'paxos-prepare':
      return 'px.prepare';
    case 'paxos-leader':
      return 'px.quorum';
    case 'paxos-preempted':
      return 'px.preempted';
    case 'paxos-chosen':
      return 'px.learn';
    default:
      return null;
  }
}
