/**
 * Ids of the pseudocode lines a detail event can cite (`DetailEvent.lines`). The pseudocode panel
 * maps these to its lines; the engine only names them, so the two never drift apart silently.
 * Grouped as the paper's Figure 2 is: RequestVote, AppendEntries, the leader's rules, then what
 * the lab adds (network faults, the chapter's lease and fencing).
 */
export const PSEUDOCODE_IDS = [
  // RequestVote receiver (Figure 2; §5.2, §5.4.1).
  'rv.refuse.stale-term',
  'rv.refuse.already-voted',
  'rv.refuse.log-not-up-to-date',
  // AppendEntries receiver (Figure 2; §5.3).
  'ae.reject.stale-term',
  'ae.reject.prev-missing',
  'ae.reject.prev-term-mismatch',
  'ae.truncate-conflict',
  'ae.append-new',
  'ae.commit.leader-commit',
  // Leader rules (Figure 2; §5.3, §5.4.2).
  'leader.append',
  'commit.majority',
  'commit.earlier-term-by-counting',
  // Pre-vote (§9.6).
  'prevote.start',
  'prevote.win',
  'prevote.refuse.stale-term',
  'prevote.refuse.log',
  'prevote.refuse.hears-leader',
  // CheckQuorum (§6.2).
  'cq.step-down',
  'cq.ignore-vote',
  // Leader no-op (§8).
  'leader.noop',
  // Reads (§6.4, §6.4.1).
  'read.log.answer',
  'read.index.record',
  'read.index.heartbeat',
  'read.index.answer',
  'read.lease.answer',
  // All servers: apply committed entries in log order.
  'apply',
  // The network (the lab's fault model).
  'net.drop.down',
  'net.drop.partition',
  'net.drop.loss',
  // The lock service (the chapter's leases and fencing).
  'lease.expire.leader-clock',
  'store.fence.reject',
  // Snapshots (§5).
  'snap.compact',
  'snap.send',
  'snap.install.keep-suffix',
  'snap.install.discard',
  'snap.restart',
  // fast-backup (§5.3's optimization).
  'fb.hint',
  'fb.to-end',
  'fb.skip-term',
  'fb.to-first',
  // Leadership transfer (§3.10).
  'transfer.start',
  'transfer.timeout-now',
  'transfer.campaign',
  'transfer.abort',
  // Membership changes (§4.1, §4.2.1, §4.2.2).
  'member.learner',
  'member.promote',
  'member.append',
  'member.refuse',
  'member.count',
  'member.removed-leader',
  'member.no-campaign',
] as const;

export type PseudocodeId = (typeof PSEUDOCODE_IDS)[number];
