import type { WhySubject } from '../../sim/teach/why';

/**
 * Where the Why panel goes for a subject, so it never hides what it explains: a question about
 * something on the ring (a node, a message, a vote, "no leader") is answered over the side panels,
 * one about something in a side panel (a log entry, a lock, a store write, a client) over the
 * diagram. On a phone the first kind is a sheet at the bottom of the screen, under the ring.
 */
export function whyPlace(subject: WhySubject): 'side' | 'diagram' {
  switch (subject.kind) {
    case 'node':
    case 'message':
    case 'vote':
    case 'no-leader':
      return 'side';
    default:
      return 'diagram';
  }
}
