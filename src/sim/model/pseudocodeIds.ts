/**
 * Ids of the pseudocode lines a detail event can cite (`DetailEvent.lines`). The pseudocode panel
 * maps these to its lines; the engine only names them, so the two never drift apart silently.
 * Grouped as the paper's Figure 2 is: RequestVote, AppendEntries, the leader's rules, then what
 * the lab adds (network faults, the chapter's lease and fencing); each manifest lists its own
 * (src/sim/model/features/), and core.ts says where the features' go.
 */
export { PSEUDOCODE_IDS, type PseudocodeId } from './features';
