/**
 * Raft's rules and the lock service's, as short pseudocode written from the paper's Figure 2 and
 * the two seeds. Every line has an id; detail events name the ids of the lines that produced
 * them, and chapter events map to the line that logs them (`lineOfEventKind`), so the panel can
 * light up what just ran and filter the event log by line.
 */
import type { EventKind } from './events';
import type { FeatureName } from './features';

export interface PseudocodeLine {
  /** Stable id; detail events cite it. Lines that only carry structure have none. */
  readonly id: string | null;
  readonly text: string;
  /** Nesting depth, for indentation. */
  readonly depth: number;
}

export interface PseudocodeSection {
  readonly id: string;
  readonly title: string;
  /** Where the rule comes from: the paper's section or Figure 2, or the chapter. */
  readonly source: string;
  readonly lines: readonly PseudocodeLine[];
  /** A protocol feature's rules: shown only in runs with that feature on. */
  readonly feature?: FeatureName;
}

const line = (id: string | null, depth: number, text: string): PseudocodeLine => ({ id, depth, text });

export const PSEUDOCODE: readonly PseudocodeSection[] = [
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
  {
    id: 'prevote',
    title: 'Pre-vote',
    source: 'Ongaro 2014 §9.6 (feature pre-vote)',
    feature: 'pre-vote',
    lines: [
      line('prevote.start', 0, 'when the election timer fires: ask all for a pre-vote for term + 1; keep term and vote'),
      line(null, 0, 'on a pre-vote request (nothing is recorded, no timer reset):'),
      line('prevote.refuse.stale-term', 1, 'if the proposed term is not newer than currentTerm: no'),
      line('prevote.refuse.log', 1, "if the candidate's log is behind (last term, then last index): no"),
      line('prevote.refuse.hears-leader', 1, 'if a leader was heard within the shortest election timeout (or I lead): no'),
      line(null, 1, 'else: yes'),
      line('prevote.win', 0, 'on yeses from a majority: term += 1, vote for self, send RequestVote to all'),
    ],
  },
  {
    id: 'cq',
    title: 'CheckQuorum',
    source: 'Ongaro 2014 §6.2 (feature check-quorum)',
    feature: 'check-quorum',
    lines: [
      line('cq.step-down', 0, 'leader, every shortest election timeout: if fewer than a majority answered since the last check, step down'),
      line('cq.ignore-vote', 0, 'on RequestVote of a higher term within the shortest timeout of hearing a leader: ignore it, keep the term'),
    ],
  },
  {
    id: 'noop',
    title: 'Leader no-op',
    source: 'Ongaro 2014 §8 (feature leader-noop)',
    feature: 'leader-noop',
    lines: [line('leader.noop', 0, 'on becoming leader: append a no-op of the new term, so earlier entries commit through it')],
  },
  {
    id: 'snapshots',
    title: 'Snapshots',
    source: 'Ongaro 2014 §5.1 (feature snapshots)',
    feature: 'snapshots',
    lines: [
      line('snap.compact', 0, 'after applying: once snapshotEvery entries were applied since the last snapshot, keep (lastApplied, its term, the state machine) and drop the log up to lastApplied'),
      line('snap.send', 0, 'leader: if nextIndex[peer] <= the snapshot\'s last index, send InstallSnapshot instead of AppendEntries'),
      line(null, 0, 'on InstallSnapshot of the current term, if its last index is past commitIndex:'),
      line('snap.install.keep-suffix', 1, 'if the log holds that index with that term: keep the entries after it'),
      line('snap.install.discard', 1, 'else: discard the whole log'),
      line(null, 1, 'state machine = the snapshot\'s; commitIndex = lastApplied = its last index; reply'),
      line('snap.restart', 0, 'on restart: state machine = the snapshot\'s; commitIndex = lastApplied = its last index'),
    ],
  },
  {
    id: 'reads',
    title: 'Reads',
    source: 'Ongaro 2014 §6.4, §6.4.1 (feature reads)',
    feature: 'reads',
    lines: [
      line('read.log.answer', 0, 'log read: append the get like a write; answer with the value when it applies'),
      line(null, 0, 'ReadIndex read (leader): wait until an entry of currentTerm is committed'),
      line('read.index.record', 1, 'readIndex = commitIndex'),
      line('read.index.heartbeat', 1, 'send a heartbeat round; wait until a majority answers it (still leader)'),
      line('read.index.answer', 1, 'wait until lastApplied >= readIndex; answer from the state machine'),
      line('read.lease.answer', 0, 'lease read: if a majority answered a round sent less than election timeout - drift margin ago (own clock): answer at once'),
    ],
  },
  {
    id: 'member',
    title: 'Membership changes',
    source: 'Ongaro 2014 §4.1, §4.2.1, §4.2.2 (feature membership)',
    feature: 'membership',
    lines: [
      line('member.learner', 0, 'leader, on add s: replicate to s as a non-voting learner; it does not count in any majority'),
      line('member.promote', 0, 'once the learner holds the leader\'s last entry: append the configuration C ∪ {s}'),
      line('member.refuse', 0, 'while a configuration entry is uncommitted (or a learner catches up): refuse a second change'),
      line('member.append', 0, 'any server, on appending a configuration entry: use it at once, committed or not'),
      line('member.count', 0, 'elections and commits count only the voters of the latest configuration in the log'),
      line('member.removed-leader', 0, 'a leader not in its configuration steps down once that entry is committed'),
      line('member.no-campaign', 0, 'a server not in its own latest configuration does not campaign'),
    ],
  },
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
      line('lease.expire.leader-clock', 0, "only the leader, by its own clock: when a lease runs out, propose Expire(token)"),
      line('lock.client-lease', 0, 'a client counts its lease from when it asked, and writes with its token'),
      line('store.fence.reject', 0, 'fenced store: refuse a write with no token or a token below the highest seen'),
    ],
  },
  {
    id: 'fb',
    title: 'Fast back-up',
    source: 'Raft §5.3, the optimization it sketches (feature fast-backup)',
    feature: 'fast-backup',
    lines: [
      line('fb.hint', 0, 'follower, on a failed consistency check: reply with the term at prevLogIndex and the first index holding it (or: my log ends before prevLogIndex)'),
      line(null, 0, 'leader, on such a rejection:'),
      line('fb.to-end', 1, "if the follower's log is too short: nextIndex = its last index + 1"),
      line('fb.skip-term', 1, 'if the leader holds entries of that term: nextIndex = just past its own last one'),
      line('fb.to-first', 1, "else: nextIndex = the follower's first index of that term"),
      line(null, 1, 'retry at once (never forward: at most nextIndex − 1)'),
    ],
  },
  {
    id: 'transfer',
    title: 'Leadership transfer',
    source: 'Ongaro 2014 §3.10 (feature transfer)',
    feature: 'transfer',
    lines: [
      line('transfer.start', 0, 'leader, on transfer to T: stop taking client requests; send T what it is missing'),
      line('transfer.timeout-now', 0, 'once matchIndex[T] = last log index: send TimeoutNow to T'),
      line('transfer.campaign', 0, 'T, on TimeoutNow: start an election at once (no pre-vote; its RequestVote says "transfer", so no voter ignores it)'),
      line('transfer.abort', 0, 'leader: no new leader within an election timeout: give up, take requests again'),
    ],
  },
];

/** Every line id, in panel order. */
export const PSEUDOCODE_LINE_IDS: readonly string[] = PSEUDOCODE.flatMap((s) => s.lines.map((l) => l.id).filter((id): id is string => id !== null));

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
    case 'lease-ran-out':
    case 'lock-expired':
      return 'lease.expire.leader-clock';
    case 'client-acquired':
    case 'client-writes':
      return 'lock.client-lease';
    case 'store-rejected':
      return 'store.fence.reject';
    default:
      return null;
  }
}
