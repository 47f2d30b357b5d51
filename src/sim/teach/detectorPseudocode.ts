/**
 * Issue 28: the failure detectors' rules for the pseudocode panel, shown only in runs that use
 * them (after the chapter's election timer, which they replace). Written from the detectors'
 * papers and src/sim/detect/. Their lines light where the chapter's line they stand in for fires
 * (DETECTOR_LINE_SOURCES: a campaign), where the takeover event is logged, when the node's last
 * heartbeat joined its window (phi-accrual), or while its view suspects someone (gossip).
 */
import type { DetectorConfig } from '../model/detector';
import type { PseudocodeSection } from '../model/features';
import { line } from '../model/features/types';

const PHI: PseudocodeSection = {
  id: 'detect-phi',
  title: 'Phi-accrual failure detector',
  source: 'Hayashibara, Défago, Yared and Katayama, "The φ Accrual Failure Detector" (SRDS 2004)',
  lines: [
    line('detect-phi.heard', 0, 'on AppendEntries from the leader at time t:'),
    line('detect-phi.window', 1, 'window.add(t − last); last = t   (the last N inter-arrival times)'),
    line(null, 0, 'φ(now) = −log10 P(a heartbeat later than now − last), normal(mean, σ) of the window'),
    line('detect-phi.cross', 0, 'when φ ≥ Φ, i.e. at last + mean + y(Φ)·σ, plus a random stagger:'),
    line('detect-phi.campaign', 1, 'campaign (as the election timer would)'),
  ],
};

const GOSSIP: PseudocodeSection = {
  id: 'detect-gossip',
  title: 'Gossip membership',
  source: 'van Renesse, Minsky and Hayden, "A Gossip-Style Failure Detection Service" (1998); SWIM (Das et al. 2002)',
  lines: [
    line(null, 0, 'every round: own counter += 1; tell `fanout` random unsuspected peers my view'),
    line(null, 0, 'on a view: take every higher counter (that member is alive: unsuspect it)'),
    line(null, 1, "take the sender's suspicions of members I have no newer news of"),
    line('detect-gossip.suspect', 0, 'a member whose counter has not grown for the suspicion time: suspect it'),
    line('detect-gossip.campaign', 0, 'my leader suspected (or its news that old): campaign after a random stagger'),
  ],
};

const TAKEOVER: PseudocodeSection = {
  id: 'detect-takeover',
  title: 'Lock takeover (the service’s failure detector)',
  source: 'the chapter, "Failure detection": the takeover threshold must exceed the TTL',
  lines: [
    line(null, 0, 'a holder sends the leader a keep-alive every heartbeat while it counts a lease'),
    line(null, 0, 'leader, each ms, for every held lock whose lease has not ended:'),
    line(null, 1, 'if its holder is suspected (silent past the threshold, φ ≥ Φ, or gossip):'),
    line('detect-takeover.expire', 2, 'propose expire: the lock goes to the next asker — before the holder’s lease ends'),
  ],
};

/** The sections a run's detector adds, in panel order; none for the chapter's fixed timer. */
export function detectorPseudocode(d: DetectorConfig | undefined): readonly PseudocodeSection[] {
  if (d === undefined) return [];
  if (d.kind === 'phi-accrual') return [PHI, TAKEOVER];
  if (d.kind === 'gossip') return [GOSSIP, TAKEOVER];
  return [TAKEOVER];
}
