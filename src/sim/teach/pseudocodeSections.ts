/**
 * The sections a run's Rules tab shows, apart from pseudocode.ts (which the event log needs in the
 * page's first load) so the detectors' and Paxos's rules load with the Rules tab.
 */
import { PSEUDOCODE, paxosPseudocodeOf, type PseudocodeSection } from '../model/features';
import type { SimConfig } from '../model/config';
import { featuresOf } from '../model/config';
import { detectorPseudocode } from './detectorPseudocode';

/**
 * The sections a run's Rules tab shows: Raft's and the lock service's (and each switched-on
 * feature's), or in a Paxos run the paper's rules for its protocol (features/paxos.ts).
 */
export function pseudocodeFor(config: SimConfig): readonly PseudocodeSection[] {
  if (config.protocol !== undefined) return paxosPseudocodeOf(config.protocol);
  const shown = PSEUDOCODE.filter((s) => s.feature === undefined || featuresOf(config).includes(s.feature));
  // A failure detector's rules (issue 28) come after the chapter's election timer, which they replace.
  const extra = detectorPseudocode(config.detector);
  const at = shown.findIndex((s) => s.id === 'timer') + 1;
  return extra.length === 0 ? shown : [...shown.slice(0, at), ...extra, ...shown.slice(at)];
}
