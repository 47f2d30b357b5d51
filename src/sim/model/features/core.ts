/**
 * The manifest of what is not switchable: the chapter's Raft (the paper's Figure 2, §5), its
 * lock service with leases and fencing tokens, and the lab's fault model. Its lists say where
 * the features' rows go (`{ slot }`, types.ts), so the panel shows a feature's rules next to the
 * ones they change.
 */
import { line, type CoreManifest } from './types';

export const core = {
  bugs: [
    // Commit earlier-term entries by counting replicas (violates Figure 8).
    {
      name: 'figure8',
      flag: 'figure8',
      blurb: 'leaders commit entries of earlier terms by counting replicas (the paper’s Figure 8)',
      faults: ['figure8-story', 'leader-churn'],
      caughtBy: ['leader-completeness', 'state-machine-safety'],
    },
    // A restart forgets term and vote (cluster.ts restarts the node so); Figure 2 keeps both on stable storage.
    { name: 'forget-vote', blurb: 'a restart loses the node’s term and vote', faults: ['vote-flap'], caughtBy: ['election-safety'] },
    // Vote without the up-to-date check (violates the election restriction, §5.4.1).
    {
      name: 'no-log-check',
      flag: 'noLogCheck',
      blurb: 'nodes vote without checking the candidate’s log is up to date',
      faults: ['crash', 'submits', 'leader-churn'],
      caughtBy: ['leader-completeness', 'state-machine-safety'],
    },
    // The lock service's bugs (lockService.ts reads them from cluster.bugSet).
    {
      name: 'expire-any-token',
      blurb: 'Expire removes a lock whatever its token',
      faults: ['stale-leader'],
      caughtBy: ['linearizable-locks', 'expire-token'],
    },
    {
      name: 'follower-expiry',
      blurb: 'followers drop leases by their own clock',
      faults: ['drift-failover', 'locks'],
      caughtBy: ['one-holder'],
    },
    {
      name: 'no-fencing',
      blurb: 'the fenced store stops checking tokens',
      faults: ['lease-steal', 'client-pause', 'locks'],
      caughtBy: ['fencing'],
    },
    // A leader takes an AppendReply of an older term, so a stale answer moves matchIndex (Figure 2: same term only).
    {
      name: 'stale-append-reply',
      flag: 'staleAppendReply',
      blurb: 'a leader takes an AppendReply from an older term, moving matchIndex on a stale answer',
      faults: ['stale-append-reply'],
      caughtBy: ['match-index-held'],
    },
    // lockService.ts and reads.ts read it from cluster.bugSet: an answer for an index another leader's entry took.
    {
      name: 'reply-ignores-term',
      blurb: 'a leader answers a client for a log index without checking that the entry there is still the request’s',
      faults: ['reelected-reuse'],
      caughtBy: ['client-reply'],
    },
  ],
  invariants: [
    { id: 'election-safety', title: 'Election Safety' },
    { id: 'log-matching', title: 'Log Matching' },
    { id: 'leader-completeness', title: 'Leader Completeness' },
    { id: 'state-machine-safety', title: 'State Machine Safety' },
    { id: 'leader-append-only', title: 'Leader Append-Only' },
    { id: 'applied-monotonic', title: 'Applied index never moves back' },
    { id: 'one-holder', title: 'At most one holder per key' },
    { id: 'tokens', title: 'Tokens increase and agree' },
    { id: 'expire-token', title: 'Expire needs a matching token' },
    { id: 'fencing', title: 'Fenced store never goes back' },
    { id: 'commit-monotonic', title: 'Commit index never moves back' },
    { id: 'release-owner', title: 'Only the holder releases' },
    { id: 'client-reply', title: 'Answers match the applied entry' },
    { id: 'client-token', title: 'Clients hold only their own tokens' },
    { id: 'client-token-unique', title: 'One client per token' },
    { id: 'client-lease', title: "A client's lease ends no later than the service's" },
    { id: 'client-lease-honoured', title: 'The service honours a running lease' },
    { id: 'fenced-store-exact', title: 'Fenced store accepts the current token' },
    { id: 'match-index-held', title: "A leader's matchIndex is on its peer" },
    { id: 'log-kept', title: 'Entries go only for a conflict' },
    // Protocol features' own (featureInvariants.ts), checked only with the feature on.
    { slot: '*' },
    { id: 'liveness', title: 'Live again once faults stop' },
    { id: 'bounded', title: 'The network stays bounded' },
    { id: 'engine-crash', title: 'The engine never throws' },
  ],
  historyChecks: [
    { id: 'linearizable-locks', title: "The lock service's history is linearizable" },
    { id: 'linearizable-fenced-order', title: 'The fenced store keeps fencing order' },
    { id: 'linearizable-register', title: 'Log and ReadIndex reads are linearizable (§6.4)' },
  ],
  pseudocode: [
    {
      id: 'timer',
      title: 'Election timeout',
      source: 'Raft §5.2, Figure 2 (Followers, Candidates)',
      lines: [
        line(null, 0, 'every ms, on a follower or candidate:'),
        line('timer.fire', 1, 'if no leader was heard for a random 150–300 ms:'),
        line('timer.campaign', 2, 'term += 1; vote for self; send RequestVote to all'),
        line('rv.win', 2, 'on votes from a majority: become leader, send heartbeats'),
      ],
    },
    {
      id: 'rv',
      title: 'RequestVote, receiver',
      source: 'Raft §5.2, §5.4.1, Figure 2',
      lines: [
        line('all.higher-term', 0, 'any RPC with a higher term: adopt it, become follower'),
        line('rv.refuse.stale-term', 0, 'if term < currentTerm: refuse'),
        line('rv.refuse.already-voted', 0, 'if already voted for another candidate this term: refuse'),
        line('rv.refuse.log-not-up-to-date', 0, "if the candidate's log is behind (last term, then last index): refuse"),
        line('rv.grant', 0, 'else: vote for it and reset the election timer'),
      ],
    },
    {
      id: 'ae',
      title: 'AppendEntries, receiver',
      source: 'Raft §5.3, Figure 2',
      lines: [
        line('ae.reject.stale-term', 0, 'if term < currentTerm: reject'),
        line('ae.heard-leader', 0, 'follow this leader; reset the election timer'),
        line('ae.reject.prev-missing', 0, 'if there is no entry at prevLogIndex: reject'),
        line('ae.reject.prev-term-mismatch', 0, "if that entry's term ≠ prevLogTerm: reject"),
        line('ae.truncate-conflict', 0, 'an entry that conflicts with a new one: delete it and all after it'),
        line('ae.append-new', 0, 'append the new entries not already in the log'),
        line('ae.commit.leader-commit', 0, 'commitIndex = min(leaderCommit, index of last new entry)'),
      ],
    },
    {
      id: 'leader',
      title: 'Leader',
      source: 'Raft §5.3, §5.4.2, Figure 2 (Leaders)',
      lines: [
        line('leader.heartbeat', 0, 'every heartbeat interval: AppendEntries to each follower (empty if it is up to date)'),
        line('leader.append', 0, 'on a client command: append it to the own log, then replicate'),
        line('leader.backup', 0, 'on a rejection: nextIndex -= 1 and retry'),
        line('commit.majority', 0, 'an entry of the current term on a majority: commit it and all before it'),
        line('commit.earlier-term-by-counting', 1, 'never by counting replicas of an earlier term (Figure 8)'),
      ],
    },
    // The features that change elections, commits and the state machine, next to those rules.
    { slot: 'pre-vote' },
    { slot: 'check-quorum' },
    { slot: 'leader-noop' },
    { slot: 'snapshots' },
    { slot: 'reads' },
    { slot: 'membership' },
    {
      id: 'apply',
      title: 'All servers',
      source: 'Raft Figure 2 (All Servers), §5.2 restart',
      lines: [
        line('apply', 0, 'while lastApplied < commitIndex: apply log[++lastApplied] to the state machine'),
        line('restart', 0, 'on restart: keep term, vote and log; commitIndex = lastApplied = 0'),
        line('step-down', 0, 'a candidate or leader that sees a higher term becomes a follower'),
      ],
    },
    {
      id: 'net',
      title: 'The network',
      source: 'the lab’s fault model',
      lines: [
        line('net.drop.down', 0, 'a message to a node that is down is lost'),
        line('net.drop.partition', 0, 'a message across a partition is lost'),
        line('net.drop.loss', 0, 'with loss on, a message is lost at random'),
      ],
    },
    {
      id: 'lock',
      title: 'Lock service and stores',
      source: 'the chapter: leases, fencing tokens; seed 000: Grant, Release, Expire',
      lines: [
        line('lock.acquire', 0, 'acquire on the leader: if free (or held by the asker) propose Grant; else busy'),
        line('lock.release', 0, 'release: propose Release naming owner and token; only the holder frees it'),
        line('lease.expire.leader-clock', 0, 'only the leader, by its own clock: when a lease runs out, propose Expire(token)'),
        line('lock.client-lease', 0, 'a client counts its lease from when it asked, and writes with its token'),
        line('store.fence.reject', 0, 'fenced store: refuse a write with no token or a token below the highest seen'),
      ],
    },
    // Every other feature's rules after the chapter's (fast-backup, transfer).
    { slot: '*' },
  ],
  // Grouped as the paper's Figure 2 is: RequestVote, AppendEntries, the leader's rules, then what
  // the lab adds (network faults, the chapter's lease and fencing).
  cites: [
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
    { slot: 'pre-vote' },
    { slot: 'check-quorum' },
    { slot: 'leader-noop' },
    { slot: 'reads' },
    // All servers: apply committed entries in log order.
    'apply',
    // The network (the lab's fault model).
    'net.drop.down',
    'net.drop.partition',
    'net.drop.loss',
    // The lock service (the chapter's leases and fencing).
    'lease.expire.leader-clock',
    'store.fence.reject',
    { slot: '*' },
  ],
  details: [
    'leader-append',
    'append-accepted',
    'append-rejected',
    'truncated',
    'commit-advanced',
    'applied',
    'vote-refused',
    'dropped',
    'lease-expired',
    'write-fenced',
  ],
  sometimes: [
    { id: 'partition-names-client', title: 'a partition named a client' },
    { id: 'old-term-append-reply', title: 'an AppendReply from an older term reached a leader' },
    { id: 'reused-index-applied', title: 'a leader applied, where it had proposed a client’s entry, another leader’s entry' },
  ],
} as const satisfies CoreManifest;
