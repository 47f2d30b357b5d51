/**
 * "Why?" for everything on screen: plain-word answers built from one snapshot (and the events so
 * far), naming the concrete nodes, terms and indexes and the rule they follow — a line of the Raft
 * paper's Figure 2, its section, or the chapter's section for leases and fencing. Like describe.ts
 * for event lines, this is the one place those sentences live. Pure: no DOM, no clock.
 */
import type { DetailEvent, SimEvent } from '../model/events';
import type { FeatureName } from '../model/features';
import type { ClientView, DetectorWatchView, LogEntryView, MessageView, NodeView, RunView, StoreView } from '../view/runView';
import { majorityOf } from '../raft/quorum';
import { explainPaxos } from './paxosWhy';
import type { Explanation, WhySubject } from './whyTypes';

// The subjects and the answer's shape live in whyTypes.ts, shared with paxosWhy.ts.
export type { Explanation, WhySubject } from './whyTypes';

/** The chapter's section titles, cited for leases and fencing (shared/seeds/002). */
export const CHAPTER = {
  fencing: 'the chapter, "Leases, fencing tokens and the Redlock debate"',
  raft: 'the chapter, "Paxos in one paragraph, Raft in the rest"',
  mistakes: 'the chapter, "Common mistakes"',
} as const;

/** Figure 2 of the Raft paper, the lines the answers cite. */
export const FIGURE2 = {
  voteReceiver1: 'Figure 2, RequestVote receiver rule 1: reply false if term < currentTerm',
  voteReceiver2:
    'Figure 2, RequestVote receiver rule 2: grant only if votedFor is null or the candidate, and its log is at least as up-to-date',
  appendReceiver1: 'Figure 2, AppendEntries receiver rule 1: reply false if term < currentTerm',
  appendReceiver2:
    'Figure 2, AppendEntries receiver rule 2: reply false if the log has no entry at prevLogIndex whose term matches prevLogTerm',
  appendReceiver3: 'Figure 2, AppendEntries receiver rule 3: a conflicting entry and all that follow it are deleted',
  appendReceiver5: 'Figure 2, AppendEntries receiver rule 5: commitIndex = min(leaderCommit, index of last new entry)',
  leaderCommit: 'Figure 2, Rules for Servers, Leaders: commit N when a majority of matchIndex ≥ N and log[N].term == currentTerm',
  allServers: 'Figure 2, Rules for Servers, All Servers: a higher term T makes a node set currentTerm = T and become a follower',
  followers: 'Figure 2, Rules for Servers, Followers: an election timeout with no AppendEntries from the leader makes a node a candidate',
  candidates: 'Figure 2, Rules for Servers, Candidates: increment currentTerm, vote for self, ask everyone; a majority makes a leader',
} as const;

/** Ongaro's dissertation (2014), cited for the protocol features. */
export const DISSERTATION = {
  preVote: 'Ongaro 2014 §9.6, "Preventing disruptions when a server rejoins the cluster" (pre-vote)',
  checkQuorum: 'Ongaro 2014 §6.2, "Routing requests to the leader" (a leader steps down without a majority; CheckQuorum)',
  noop: 'Ongaro 2014 §8, "Client interaction": a new leader commits a blank no-op entry at the start of its term',
  snapshots: 'Ongaro 2014 §5.1, "Snapshotting memory-based state machines" (log compaction; InstallSnapshot)',
  reads: 'Ongaro 2014 §6.4, "Processing read-only queries more efficiently" (ReadIndex), and §6.4.1 (leases and bounded clock drift)',
  transfer: 'Ongaro 2014 §3.10, "Leadership transfer extension": the leader brings the target up to date, then sends TimeoutNow',
  fastBackup:
    'Raft paper §5.3 (and Ongaro 2014 §3.5): a rejection names the conflicting term and its first index, so the leader skips a term per round trip (fast back-up)',
  membership: 'Ongaro 2014 §4.1, "Safety": one server at a time, each configuration used as soon as it is appended',
  learner: 'Ongaro 2014 §4.2.1, "Catching up new servers" (non-voting learners)',
  removedLeader: 'Ongaro 2014 §4.2.2, "Removing the current leader"',
} as const;

const hasFeature = (snap: RunView, name: FeatureName) => snap.features?.includes(name) ?? false;

const list = (ids: readonly string[]) =>
  ids.length === 0 ? 'nobody' : ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ms = (n: number) => `${Math.round(n)} ms`;

function nodeOf(snap: RunView, id: string): NodeView | undefined {
  return snap.nodes.find((n) => n.id === id);
}

function entryOf(node: NodeView, index: number): LogEntryView | undefined {
  return node.log.find((e) => e.index === index);
}

/** The index and term of a node's last entry (0/0 for an empty log). */
export function lastOf(node: NodeView): { index: number; term: number } {
  const last = node.log[node.log.length - 1];
  return { index: node.logLength, term: last?.term ?? node.snapshot?.term ?? 0 };
}

const lastText = (node: NodeView) => {
  const l = lastOf(node);
  return l.index === 0 ? 'an empty log' : `a log ending at index ${l.index}, term ${l.term}`;
};

/** §5.4.1: the log with the later last term is more up to date; with equal terms, the longer one. */
export function atLeastAsUpToDate(a: { index: number; term: number }, b: { index: number; term: number }): boolean {
  return a.term !== b.term ? a.term > b.term : a.index >= b.index;
}

/** The nodes `id` can exchange messages with right now (itself included), by partition group. */
export function groupOf(snap: RunView, id: string): string[] {
  if (snap.partitions.length === 0) return snap.nodes.map((n) => n.id);
  const g = snap.partitions.find((p) => p.includes(id));
  return g ? [...g] : [id];
}

function reaches(snap: RunView, a: string, b: string): boolean {
  if (snap.partitions.length === 0) return true;
  const ga = snap.partitions.findIndex((p) => p.includes(a));
  const gb = snap.partitions.findIndex((p) => p.includes(b));
  // Actors named in no group (clients, stores) reach everyone.
  return ga === -1 || gb === -1 || ga === gb;
}

const liveIds = (snap: RunView, ids: readonly string[]) => ids.filter((id) => nodeOf(snap, id)?.alive);

function partitionText(snap: RunView): string {
  return snap.partitions.map((g) => `{${g.join(', ')}}`).join(' | ');
}

/** The leader that really leads: the live leader of the highest term. */
function currentLeader(snap: RunView): NodeView | undefined {
  return snap.leader === null ? undefined : nodeOf(snap, snap.leader);
}

function lastEvent(events: readonly SimEvent[], kind: SimEvent['kind'], subject: string): SimEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === kind && events[i].subjects.includes(subject)) return events[i];
  return undefined;
}

const unknown = (title: string, what: string): Explanation => ({
  title,
  answer: [`${what} is not in this moment of the run any more, so there is nothing to explain. Pick it again on screen.`],
  rule: '—',
});

export function explain(
  subject: WhySubject,
  snap: RunView,
  events: readonly SimEvent[] = [],
  details: readonly DetailEvent[] = [],
): Explanation {
  // A Paxos run's answers live in paxosWhy.ts, in the paper's words (ballots, promises, slots).
  if (snap.protocol !== undefined) return explainPaxos(subject, snap, events);
  switch (subject.kind) {
    case 'node':
      return whyNode(snap, subject.id, events);
    case 'entry':
      return whyEntry(snap, subject.node, subject.index);
    case 'message':
      return whyMessage(snap, subject.seq, details);
    case 'vote':
      return whyVote(snap, subject.node, details);
    case 'no-leader':
      return whyNoLeader(snap, events);
    case 'client':
      return withServiceEvent(whyClient(snap, subject.id), subject.id, events);
    case 'lock':
      return whyLock(snap, subject.node, subject.key);
    case 'store-write':
      return whyStoreWrite(snap, subject.store, subject.index);
  }
}

// -- the other lock services' events (issue 26) -----------------------------------------------

/** The documents each service's answers cite. */
export const SERVICE_DOCS = {
  zookeeper: 'ZooKeeper Programmer’s Guide, "ZooKeeper Sessions" and "Ephemeral Nodes"; ZooKeeper Recipes, "Locks"',
  etcd: 'etcd API, "Lease": a revoked or expired lease deletes every key attached to it; concurrency.Mutex',
  redlock: 'redis.io, "Distributed Locks with Redis", the Redlock algorithm, steps 3 and 4 (validity time)',
  redis: 'redis.io, "Distributed Locks with Redis", "Safety arguments" and persistence; "Replication", on a primary with persistence off',
  advisory: 'PostgreSQL docs, "Advisory Locks": a session-level lock is held until released or the session ends',
} as const;

/** The event kinds another lock service logs that a Why answers. */
export const SERVICE_WHY_KINDS = [
  'session-expired',
  'lease-revoked',
  'validity-ran-out',
  'key-lost',
  'key-expired',
  'connection-lost',
] as const;

/** Why one of another lock service's events happened, in plain words with its rule; null for other kinds. */
export function whyServiceEvent(e: SimEvent): Explanation | null {
  const at = `At t=${e.t} ms: ${e.text}`;
  switch (e.kind) {
    case 'session-expired':
      return {
        title: 'Why did the session expire?',
        answer: [
          at,
          'A ZooKeeper client keeps its session alive by pinging; the leader heard nothing from this session within its timeout, so it closed the session through the log. Closing a session deletes every ephemeral znode it created — the lock’s child among them — and the next waiter’s watch fires.',
          'The client learns this only when it hears from the ensemble again: a paused client still believes it holds the lock, which is why the znode’s zxid must travel with its writes as a fencing token.',
        ],
        rule: SERVICE_DOCS.zookeeper,
      };
    case 'lease-revoked':
      return {
        title: 'Why was the lease revoked?',
        answer: [
          at,
          'An etcd client keeps its lease alive with keep-alives; none arrived within the lease’s TTL, so the leader revoked it through the log. Revoking a lease deletes every key attached to it, the lock key too, and the waiter watching that key is told.',
          'A client that was paused or cut off still counts its own TTL and may believe it holds the lock; the key’s create revision, sent with its writes, lets the store refuse it.',
        ],
        rule: SERVICE_DOCS.etcd,
      };
    case 'validity-ran-out':
      return {
        title: 'Why did the Redlock attempt give up?',
        answer: [
          at,
          'A Redlock holds only if a majority of instances said OK and time is left: the validity is the TTL minus the time the attempt took minus a drift allowance. Fewer than a majority, or no time left, and the client must unlock every instance and try again later.',
          'The validity is counted from when the client asked, by its own clock; nothing tells it that an instance’s clock jumped, so the instances may expire the key earlier than it thinks.',
        ],
        rule: SERVICE_DOCS.redlock,
      };
    case 'key-lost':
      return {
        title: 'Why was the key lost?',
        answer: [
          at,
          'Redis keeps keys in memory: with persistence off, a restarted instance comes back empty, and a replica that resynchronises from an empty primary drops its copies too. A database restart ends every session, and a session’s advisory locks with it.',
          'The holder is not told: it still counts its lease, so another client can be granted the same lock while it believes it holds it.',
        ],
        rule: `${SERVICE_DOCS.redis}; ${SERVICE_DOCS.advisory}`,
      };
    case 'key-expired':
      return {
        title: 'Why did the key expire?',
        answer: [
          at,
          'The instance expires a key by its own wall clock, PX milliseconds after the SET as that clock counts. A clock that jumps forward (an NTP step, an operator) ends it early, while the holder still counts its TTL by its own clock: Kleppmann’s objection to Redlock.',
        ],
        rule: SERVICE_DOCS.redlock,
      };
    case 'connection-lost':
      return {
        title: 'Why did the connection die?',
        answer: [
          at,
          'A session advisory lock lives as long as the connection. The server’s TCP keep-alive probes found it dead (or the client’s kernel closed it when the process died), so the session ended and freed its locks. A merely paused process keeps its lock: its kernel still answers the probes.',
        ],
        rule: SERVICE_DOCS.advisory,
      };
    default:
      return null;
  }
}

/** A client's answer with, at its end, why the last of its service's events about it happened. */
function withServiceEvent(base: Explanation, client: string, events: readonly SimEvent[]): Explanation {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e.subjects.includes(client) || !(SERVICE_WHY_KINDS as readonly string[]).includes(e.kind)) continue;
    const why = whyServiceEvent(e);
    if (why === null) break;
    return { ...base, answer: [...base.answer, ...why.answer], rule: `${base.rule}; ${why.rule}` };
  }
  return base;
}

// -- nodes ----------------------------------------------------------------------------------

/** What each part of a service without Raft does, in its system's terms (issue 26). */
const SERVER_PARTS: Readonly<Record<string, { readonly text: string; readonly doc?: keyof typeof SERVICE_DOCS }>> = {
  'redis primary': {
    text: 'It is the Redis primary: it alone answers SET NX PX and the compare-and-delete of a release, and it expires each key by its own wall clock. With persistence off, a restart forgets every key.',
    doc: 'redis',
  },
  'redis replica': {
    text: 'It is a replica: it copies the primary’s writes asynchronously, after the primary has already answered. If it hears nothing from the primary for a while it promotes itself, with only what had been copied — a lock granted just before may be missing.',
    doc: 'redis',
  },
  'redlock instance': {
    text: 'It is one of Redlock’s independent Redis instances: they never talk to each other. A client holds a Redlock when a majority of them said OK within the validity time; each instance expires its keys by its own clock.',
    doc: 'redlock',
  },
  'advisory primary': {
    text: 'It is the database primary: it holds session-scoped advisory locks in memory, tied to each client’s connection. They are not written to the WAL, so no replica ever has them; the row versions the clients read as tokens are.',
    doc: 'advisory',
  },
  'advisory replica': {
    text: 'It is a replica: it replays the primary’s WAL (rows, with their versions; never advisory locks). If the WAL stops it promotes itself, and on the new primary every lock is free.',
    doc: 'advisory',
  },
  'gossip member': {
    text: 'It relays membership gossip: each round it tells a few random members its table of heartbeat counters, and takes a member it has not heard of for a while for dead. There is no lock: a key’s leader is whoever is lowest among those a member believes alive, so two members’ views can name two leaders.',
  },
};

/** A server of a service without Raft: what it is and holds, with its system's rule. */
function whyServer(snap: RunView, n: RunView['nodes'][number], events: readonly SimEvent[]): Explanation {
  const server = n.server!;
  const service = snap.lockMeasures?.service ?? 'redis';
  const part = SERVER_PARTS[`${service} ${server.role}`];
  const facts: [string, string][] = [
    ['part', n.alive ? server.role : `down (was ${server.role})`],
    ['holds', server.holds],
  ];
  if (n.driftPct !== 0) facts.push(['clock drift', `${n.driftPct > 0 ? '+' : ''}${n.driftPct}%`]);
  const answer: string[] = [];
  if (!n.alive) {
    const crash = lastEvent(events, 'crash', n.id);
    answer.push(`${n.id} is down${crash ? ` (it crashed at t=${crash.t} ms)` : ''}: it answers nothing, and messages to it are dropped.`);
  }
  answer.push(
    `${server.line}.`,
    part?.text ?? 'It is one of the service’s servers.',
    'This service does not run Raft, so it has no terms, votes or log.',
  );
  return {
    title: `What is ${n.id}?`,
    answer,
    rule: part?.doc !== undefined ? SERVICE_DOCS[part.doc] : 'Van Renesse et al., "A Gossip-Style Failure Detection Service" (1998)',
    facts,
  };
}

function whyNode(snap: RunView, id: string, events: readonly SimEvent[]): Explanation {
  const n = nodeOf(snap, id);
  if (!n) return unknown(`Why is ${id} like this?`, `Node ${id}`);
  if (n.server !== undefined) return whyServer(snap, n, events);
  const size = snap.nodes.length;
  const maj = majorityOf(size);
  const facts: [string, string][] = [
    ['role', n.alive ? n.role : `down (was ${n.role})`],
    ['term', String(n.term)],
    ['voted for', `${n.votedFor ?? 'nobody'} in term ${n.term}`],
    ['believes leader', n.leaderId ?? 'unknown'],
    ['log', `${plural(n.logLength, 'entry', 'entries')}, last ${lastOf(n).index}/term ${lastOf(n).term}`],
    ['commit index', String(n.commitIndex)],
  ];
  if (n.driftPct !== 0) facts.push(['clock drift', `${n.driftPct > 0 ? '+' : ''}${n.driftPct}%`]);
  const answer: string[] = [];
  let rule: string;
  const leader = currentLeader(snap);
  if (!n.alive) {
    const crash = lastEvent(events, 'crash', id);
    answer.push(
      `${id} is down${crash ? ` (it crashed at t=${crash.t} ms)` : ''}. It sends and receives nothing; messages to it are dropped.`,
      `It keeps its term (${n.term}), its vote (${n.votedFor ?? 'none'}) and its log of ${plural(n.logLength, 'entry', 'entries')}: that is Raft's persistent state, written to disk before answering. ` +
        `It forgets its commit index, so when it restarts it comes back as a follower with commit index 0 and learns what is committed from the leader.`,
    );
    rule = 'Raft paper §5.1 and Figure 2, "Persistent state on all servers"';
  } else if (n.role === 'leader') {
    const won = lastEvent(events, 'leader', id);
    const higher = snap.nodes.filter((m) => m.alive && m.term > n.term).map((m) => m.id);
    answer.push(
      `${id} is leader of term ${n.term}: it collected votes from a majority (${maj} of ${size})${n.votes.length > 0 ? ` — ${list(n.votes)}` : ''}${won ? ` at t=${won.t} ms` : ''}. ` +
        `A term has at most one leader, because every node votes once per term and two majorities always share a node.`,
    );
    if (higher.length > 0) {
      const newer = snap.nodes.find((m) => m.alive && m.role === 'leader' && m.term > n.term);
      answer.push(
        `But ${id} is a stale leader: ${list(higher)} ${higher.length === 1 ? 'is' : 'are'} already in a higher term` +
          `${newer ? ` (${newer.id} leads term ${newer.term})` : ''}. ${id} cannot hear that yet${snap.partitions.length > 0 ? ` — the network is split ${partitionText(snap)}` : ''}; ` +
          `the first message with a higher term it receives turns it into a follower. Meanwhile it can reach only ${list(liveIds(snap, groupOf(snap, id)))}, so nothing it appends can reach a majority of ${maj}.`,
      );
      answer.push(
        hasFeature(snap, 'check-quorum')
          ? `With CheckQuorum on, ${id} counts who answers it every shortest election timeout; hearing from fewer than ${maj} it steps down on its own, without waiting for a higher term.`
          : `Nothing makes it stop on its own: the chapter's Raft has no such check. CheckQuorum (Settings ▸ Protocol) makes a leader that hears from no majority for an election timeout step down.`,
      );
      rule = `Raft paper §5.1; ${FIGURE2.allServers}; ${DISSERTATION.checkQuorum}`;
    } else {
      answer.push(
        `It sends AppendEntries to every follower — empty ones as heartbeats — which resets their election timers so nobody else campaigns. It commits an entry of its own term once a majority stores it.`,
      );
      rule = `Raft paper §5.2; ${FIGURE2.candidates}`;
    }
  } else if (n.role === 'candidate') {
    const reach = liveIds(snap, groupOf(snap, id));
    answer.push(
      `${id} is a candidate in term ${n.term}: its election timer ran out without hearing from a leader, so it moved to term ${n.term}, voted for itself and asked every other node for its vote.`,
      `It has ${plural(n.votes.length, 'vote')} (${list(n.votes)}); it needs ${maj} of ${size}. ` +
        (reach.length < maj
          ? `It can reach only ${list(reach)} (${reach.length} live), so it cannot win until the network heals or more nodes come up; it will time out and try again in term ${n.term + 1}.`
          : `If it does not win before its timer runs out again (${ms(Math.max(0, n.electionDeadline - snap.now))} left), it starts over in term ${n.term + 1}.`),
    );
    rule = `Raft paper §5.2; ${FIGURE2.candidates}`;
  } else if (n.preCandidate) {
    const yes = n.preVotes ?? [n.id];
    const reach = liveIds(snap, groupOf(snap, id));
    answer.push(
      `${id} is asking for pre-votes: its election timer ran out, but with pre-vote on it first asks every node whether it would vote for it in term ${n.term + 1}, and stays in term ${n.term} meanwhile. It has ${plural(yes.length, 'yes', 'yeses')} (${list(yes)}); it needs ${maj} of ${size} before it starts a real election.`,
      `A node says yes only if it has not heard from a leader within the shortest election timeout and ${id}'s log is at least as up to date as its own. ` +
        (reach.length < maj
          ? `${id} can reach only ${list(reach)}, so it cannot get a majority: it will ask again when its timer runs out, still in term ${n.term}, and cannot disrupt the leader when it comes back.`
          : `If it does not get them before its timer runs out (${ms(Math.max(0, n.electionDeadline - snap.now))} left), it asks again.`),
    );
    rule = DISSERTATION.preVote;
  } else {
    const left = n.electionDeadline - snap.now;
    answer.push(
      n.leaderId
        ? `${id} is a follower in term ${n.term}; it last heard from ${n.leaderId} as leader. It appends what the leader sends and answers votes; it never acts on its own.`
        : `${id} is a follower in term ${n.term} and knows no leader yet.`,
      (n.watch !== undefined
        ? watchSentence(n, n.watch, left)
        : `Its election timer has ${ms(Math.max(0, left))} left. Each AppendEntries from the leader (or a vote it grants) restarts the timer; if it runs out, ${id} becomes a candidate in term ${n.term + 1}. ` +
          `The timeout is random per node so that usually one node campaigns first.`) +
        (hasFeature(snap, 'pre-vote') ? ` With pre-vote on it first asks for pre-votes, staying in term ${n.term}.` : ''),
    );
    if (n.watch !== undefined) facts.push(...watchFacts(n.watch));
    if (leader && leader.term > n.term) {
      answer.push(
        `The cluster has moved on: ${leader.id} leads term ${leader.term}, but no message from it has reached ${id} yet${reaches(snap, id, leader.id) ? '' : ` (the network is split ${partitionText(snap)})`}.`,
      );
    }
    rule = `Raft paper §5.2; ${FIGURE2.followers}${n.watch !== undefined ? `; ${WATCH_SOURCE[n.watch.kind]}` : ''}`;
  }
  const inflight = snap.messages.filter((m) => m.src === id || m.dst === id).length;
  if (inflight > 0) facts.push(['messages in flight', `${inflight} to or from ${id}`]);
  const member = n.membership;
  if (member !== undefined) {
    facts.push([
      'configuration',
      `{${member.voters.join(', ')}}${member.configIndex > 0 ? ` (entry ${member.configIndex})` : ' (the initial one)'}`,
    ]);
    const said = membershipNote(id, member, leader);
    if (said !== null) {
      answer.push(said.text);
      rule = `${rule}; ${said.rule}`;
    }
  }
  return { title: `Why is ${id} ${n.alive ? `a ${n.role}` : 'down'}?`, answer, rule, facts };
}

const WATCH_SOURCE: Readonly<Record<DetectorWatchView['kind'], string>> = {
  'phi-accrual': 'Hayashibara et al., "The φ Accrual Failure Detector" (SRDS 2004)',
  gossip: 'van Renesse, Minsky and Hayden, "A Gossip-Style Failure Detection Service" (1998)',
};

/** Issue 28: what decides when a follower campaigns, when the run's detector is not the chapter's timer. */
function watchSentence(n: NodeView, w: DetectorWatchView, left: number): string {
  const next = `if it runs out, ${n.id} becomes a candidate in term ${n.term + 1}`;
  if (w.kind === 'phi-accrual') {
    const r = w.reading;
    if (r === null)
      return `This run's failure detector is phi-accrual (Φ ${w.threshold}), not a fixed timer: ${n.id} has not heard a heartbeat from a leader since it started, so it waits out the chapter's randomized timeout (${ms(Math.max(0, left))} left); ${next}.`;
    return (
      `This run's failure detector is phi-accrual, not a fixed timer: ${n.id} keeps the gaps between ${r.leader}'s last ${w.window} heartbeats (mean ${fmt(r.meanMs)} ms, σ ${fmt(r.stdMs)} ms) and turns the silence since the last one into a suspicion φ, now ${fmt(r.phi)}. ` +
      `It campaigns once φ reaches Φ = ${w.threshold}, about ${fmt(r.timeoutMs)} ms after a heartbeat, plus a random stagger: ${ms(Math.max(0, left))} left; ${next}. ` +
      `A slower but steady network raises the mean, so it raises the wait with it instead of raising suspicion.`
    );
  }
  const suspects = w.suspects.length > 0 ? `Its view suspects ${list([...w.suspects])}.` : 'Its view suspects nobody.';
  return (
    `This run's failure detector is gossip membership, not a fixed timer: every ${w.roundMs} ms each node tells ${w.fanout} random peers the heartbeat counters it knows. ` +
    `${n.leaderId !== null && w.leaderSilenceMs !== null ? `${n.id} last had news of ${n.leaderId} ${ms(Math.max(0, w.leaderSilenceMs))} ago; ` : ''}a member with no news for ${w.suspectMs} ms is suspected, and suspicion spreads with the views. ${suspects} ` +
    `Once its view suspects its leader, ${n.id} campaigns after a random stagger (${ms(Math.max(0, left))} left); ${next}.`
  );
}

function watchFacts(w: DetectorWatchView): [string, string][] {
  if (w.kind === 'gossip')
    return [
      ['failure detector', `gossip (fanout ${w.fanout}, round ${w.roundMs} ms, suspect after ${w.suspectMs} ms)`],
      ['suspects', w.suspects.length > 0 ? w.suspects.join(', ') : 'nobody'],
    ];
  const r = w.reading;
  return [
    ['failure detector', `phi-accrual (Φ ${w.threshold}, window ${w.window})`],
    ['φ of its leader', r === null ? 'no heartbeat yet' : `${fmt(r.phi)} (mean ${fmt(r.meanMs)} ms, σ ${fmt(r.stdMs)} ms)`],
  ];
}

/** A number for a sentence: at most one decimal, a whole number without one. */
function fmt(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'very large' : String(x);
  return String(Math.round(x * 10) / 10);
}

/** A learner, a removed server or a leader removing itself, in one paragraph (membership runs only). */
function membershipNote(
  id: string,
  member: NonNullable<NodeView['membership']>,
  leader: NodeView | undefined,
): { text: string; rule: string } | null {
  if (member.status === 'learner') {
    return {
      text: `${id} is a learner: ${leader?.id ?? 'the leader'} sends it every entry, but it counts in no majority and does not campaign. Once it holds the leader's last entry, the leader appends a configuration with ${id} in it, and ${id} votes from then on.`,
      rule: DISSERTATION.learner,
    };
  }
  if (member.status === 'removed') {
    return {
      text: `${id} was removed: the configuration in force, {${(leader?.membership ?? member).voters.join(', ')}}, does not include it, so it counts in no majority. A leader that removes itself keeps leading until the removal commits, then steps down; a server that knows its removal is committed does not campaign again.`,
      rule: DISSERTATION.removedLeader,
    };
  }
  if (!member.voters.includes(id)) {
    return {
      text: `${id} is removing itself: its configuration {${member.voters.join(', ')}} lacks it, so it counts neither its own vote nor its own copy; it steps down once that entry commits.`,
      rule: DISSERTATION.removedLeader,
    };
  }
  return null;
}

// -- log entries ----------------------------------------------------------------------------

/** Who holds entry `index` with term `term`: the leader's matchIndex if `viewer` leads, else every node's log. */
function holdersOf(snap: RunView, viewer: NodeView, index: number, term: number): { ids: string[]; by: 'matchIndex' | 'logs' } {
  if (viewer.alive && viewer.role === 'leader') {
    const ids = [
      viewer.id,
      ...Object.entries(viewer.matchIndex)
        .filter(([, m]) => m >= index)
        .map(([p]) => p),
    ];
    return { ids: ids.sort(), by: 'matchIndex' };
  }
  return { ids: snap.nodes.filter((n) => entryOf(n, index)?.term === term).map((n) => n.id), by: 'logs' };
}

function whyEntry(snap: RunView, nodeId: string, index: number): Explanation {
  const n = nodeOf(snap, nodeId);
  const e = n ? entryOf(n, index) : undefined;
  if (n && !e && n.snapshot !== undefined && index <= n.snapshot.index) return whyCompacted(n, index, n.snapshot);
  if (!n || !e) return unknown(`Why is entry ${index} on ${nodeId} like this?`, `Entry ${index} on ${nodeId}`);
  // With membership changes a majority is of the node's configuration, not of every server drawn.
  const size = n.membership !== undefined ? n.membership.voters.length : snap.nodes.length;
  const maj = majorityOf(size);
  const committed = index <= n.commitIndex;
  const facts: [string, string][] = [
    ['entry', `index ${index}, term ${e.term}: ${e.text}`],
    [`${nodeId}'s commit index`, String(n.commitIndex)],
    ['majority', `${maj} of ${size}`],
  ];
  const name = `${e.text} (index ${index}, term ${e.term})`;
  const noopNote =
    e.kind === 'noop'
      ? `This is the no-op a new leader of term ${e.term} appended as soon as it won (leader-noop): it carries no command and the state machine ignores it. It exists so that entries of earlier terms commit at once: a leader may commit by counting only an entry of its own term, and this is one.`
      : e.kind === 'config'
        ? `This is a configuration entry: ${nodeId} uses it from the moment it appended it, committed or not, so its elections and commits count the voters it names. A leader starts no other change until it commits; a server it adds was first caught up as a learner.`
        : null;
  if (committed) {
    const applied = index <= n.lastApplied;
    return {
      title: `Why is ${e.text} at index ${index} committed on ${nodeId}?`,
      answer: [
        `${name} is committed: ${nodeId}'s commit index is ${n.commitIndex}, at or past ${index}. A leader of term ${e.term} or later stored it on a majority (${maj} of ${size}) and counted it, and told ${nodeId} through leaderCommit.`,
        `Committed means safe for good: any future leader needs votes from a majority, that majority shares a node with the one that stores this entry, and that node refuses a candidate whose log lacks it. ${applied ? `${nodeId} has applied it to its state machine.` : `${nodeId} has not applied it yet (applied up to ${n.lastApplied}).`}`,
        ...(noopNote !== null ? [noopNote] : []),
      ],
      rule: `Raft paper §5.3 and §5.4 (Leader Completeness); ${FIGURE2.leaderCommit}${noopNote !== null ? `; ${e.kind === 'config' ? DISSERTATION.membership : DISSERTATION.noop}` : ''}`,
      facts,
    };
  }
  const answer: string[] = [];
  const holders = holdersOf(snap, n, index, e.term);
  facts.push(['holders', `${holders.ids.length} of ${size}: ${list(holders.ids)}`]);
  const leader = currentLeader(snap);
  const isLeader = n.alive && n.role === 'leader';
  answer.push(
    `${name} is not committed yet on ${nodeId}: its commit index is ${n.commitIndex}. An entry commits when the leader that created it knows a majority stores it — ${maj} of ${size} nodes here.`,
  );
  if (isLeader) {
    answer.push(
      `${nodeId} ${leader && leader.term > n.term ? 'still believes it leads' : 'leads'} term ${n.term} and counts replicas from what followers confirmed (matchIndex): ${holders.ids.length} of ${size} hold it — ${list(holders.ids)}.` +
        (holders.ids.length < maj ? ` That is not a majority; it needs ${maj - holders.ids.length} more.` : ''),
    );
    const notYet = snap.nodes.filter((m) => !holders.ids.includes(m.id) && entryOf(m, index)?.term === e.term).map((m) => m.id);
    if (notYet.length > 0)
      answer.push(
        `${list(notYet)} already ${notYet.length === 1 ? 'has' : 'have'} it in ${notYet.length === 1 ? 'its' : 'their'} log, but ${nodeId} has not heard back yet, so it does not count ${notYet.length === 1 ? 'it' : 'them'}.`,
      );
    const reach = liveIds(snap, groupOf(snap, nodeId));
    if (reach.length < maj) {
      answer.push(
        `${nodeId} can reach only ${list(reach)}${snap.partitions.length > 0 ? ` (the network is split ${partitionText(snap)})` : ''}: even if all of them store it, ${reach.length} of ${size} is not a majority. This entry cannot commit from here.`,
      );
    }
    if (holders.ids.length >= maj && e.term !== n.term) {
      answer.push(
        `A majority does store it, but it is from term ${e.term} and ${nodeId} leads term ${n.term}. A leader commits by counting only entries of its own term — Figure 8 of the paper shows an old-term entry on a majority being overwritten later. It becomes committed indirectly, once an entry of term ${n.term} after it commits.`,
      );
      answer.push(
        hasFeature(snap, 'leader-noop')
          ? `With leader-noop on, ${nodeId}'s no-op of term ${n.term} is that entry: once a majority holds it, this one commits with it.`
          : `Until a client sends one, it waits. That is what a new leader's no-op is for (leader-noop in Settings ▸ Protocol): an entry of the leader's own term, appended at once, that commits everything before it.`,
      );
    }
  } else {
    answer.push(
      `${holders.ids.length} of ${size} nodes have this entry (index ${index}, term ${e.term}) in their logs: ${list(holders.ids)}.` +
        (holders.ids.length < maj ? ` That is not a majority of ${maj}.` : ''),
    );
    if (holders.ids.length >= maj && n.alive) {
      answer.push(
        `${nodeId} is a ${n.role} and does not count replicas itself: it learns what is committed from the leader's leaderCommit in the next AppendEntries. If the leader has counted it, ${nodeId} will mark it committed on the next message.`,
      );
    }
  }
  if (leader && leader.id !== nodeId) {
    const there = entryOf(leader, index);
    if (there && there.term !== e.term) {
      answer.push(
        `${leader.id} leads term ${leader.term} and has ${there.text} (term ${there.term}) at index ${index}. When ${nodeId} hears from it, the conflicting entry ${e.text} is deleted and replaced — it was never committed, so no one was promised it.`,
      );
    } else if (leader.term > n.term) {
      answer.push(`${nodeId} is behind: ${leader.id} already leads term ${leader.term}.`);
    }
  }
  if (!n.alive) answer.push(`${nodeId} is down; its commit index says only what it knew when it crashed (a restart resets it to 0).`);
  if (isLeader && e.term !== n.term) facts.push(['term rule', `entry term ${e.term} ≠ leader term ${n.term} (Figure 8)`]);
  if (noopNote !== null) answer.push(noopNote);
  return {
    title: `Why is ${e.text} at index ${index} not committed on ${nodeId}?`,
    answer,
    rule: `Raft paper §5.3–§5.4.2; ${FIGURE2.leaderCommit}; Figure 8${e.kind === 'config' ? `; ${DISSERTATION.membership}` : ''}`,
    facts,
  };
}

// -- messages -------------------------------------------------------------------------------

/** Snapshots (§5): an entry compacted into the node's snapshot. */
function whyCompacted(n: NodeView, index: number, snapshot: { readonly index: number; readonly term: number }): Explanation {
  return {
    title: `Why is entry ${index} on ${n.id} in a snapshot?`,
    answer: [
      `${n.id} compacted its log (snapshots): entries 1 to ${snapshot.index} are no longer stored one by one but kept as a snapshot of the state machine as it was after applying them — the lock table and the token counter — with the last included index ${snapshot.index} and its term ${snapshot.term}.`,
      `A node compacts only what it has applied, and so only committed entries: they can never change, so nothing is lost. Indexes stay as they were; entry ${snapshot.index + 1} still follows index ${snapshot.index}, and AppendEntries for it names index ${snapshot.index}, term ${snapshot.term} as its predecessor.`,
      `A follower that needs an entry the leader has compacted gets the leader's snapshot instead (InstallSnapshot), and a node that restarts starts from its own snapshot, with its commit index at ${snapshot.index}.`,
    ],
    rule: DISSERTATION.snapshots,
    facts: [
      ['snapshot', `≤ ${snapshot.index}, term ${snapshot.term}`],
      [`${n.id}'s commit index`, String(n.commitIndex)],
    ],
  };
}

function whyMessage(snap: RunView, seq: number, details: readonly DetailEvent[]): Explanation {
  const m: MessageView | undefined = snap.messages.find((x) => x.seq === seq) ?? snap.drops.find((x) => x.seq === seq);
  if (!m) return unknown(`Message #${seq}`, `Message #${seq}`);
  const f = m.fields;
  const to = nodeOf(snap, m.dst);
  const facts: [string, string][] = [
    ['from → to', `${m.src} → ${m.dst}`],
    ['sent / arrives', `t=${m.sentAt} ms / t=${m.deliverAt} ms`],
  ];
  const answer: string[] = [];
  let rule = '';
  let title = '';
  switch (f.type) {
    case 'AppendEntries': {
      facts.push(
        ['term', String(f.term)],
        ['prevLogIndex', String(f.prevLogIndex)],
        ['prevLogTerm', String(f.prevLogTerm)],
        [
          'entries',
          f.entries.length === 0 ? 'none (heartbeat)' : f.entries.map((e) => `${e.index}: ${e.text} (term ${e.term})`).join(', '),
        ],
        ['leaderCommit', String(f.leaderCommit)],
      );
      title = f.entries.length === 0 ? `Heartbeat ${m.src} → ${m.dst}` : `AppendEntries ${m.src} → ${m.dst}`;
      answer.push(
        f.entries.length === 0
          ? `${f.leader}, leader of term ${f.term}, tells ${m.dst} it is still the leader. An empty AppendEntries is a heartbeat: it restarts ${m.dst}'s election timer.`
          : `${f.leader}, leader of term ${f.term}, sends ${m.dst} ${f.entries.length === 1 ? 'one entry' : plural(f.entries.length, 'entry', 'entries')}: ${f.entries.map((e) => `${e.text} at index ${e.index} (term ${e.term})`).join(', ')}.`,
        `It says "the entry before these is index ${f.prevLogIndex}, term ${f.prevLogTerm}". ${m.dst} accepts only if its own log has that entry; if not, it refuses and the leader retries one entry further back, until the logs agree. leaderCommit ${f.leaderCommit} tells ${m.dst} which entries are committed.`,
      );
      if (to) answer.push(predictAppend(to, f.term, f.prevLogIndex, f.prevLogTerm));
      if (hasFeature(snap, 'fast-backup')) {
        answer.push(
          `With fast back-up, a refusal also names the term of ${m.dst}'s entry at index ${f.prevLogIndex} and the first index it holds of that term, so ${f.leader} skips that whole term in one round trip instead of one entry per round trip.`,
        );
      }
      rule = `Raft paper §5.3; ${FIGURE2.appendReceiver2}; ${FIGURE2.appendReceiver5}`;
      break;
    }
    case 'InstallSnapshot': {
      const s = f.snapshot;
      facts.push(
        ['term', String(f.term)],
        ['last included', `index ${s.index}, term ${s.term}`],
        ['locks', s.state === null ? 'none (no lock service)' : String(s.state.locks.length)],
      );
      title = `InstallSnapshot ${m.src} → ${m.dst}`;
      answer.push(
        `${f.leader}, leader of term ${f.term}, needs to send ${m.dst} an entry it has already compacted into its snapshot, so it sends the snapshot itself: the state machine after index ${s.index} (term ${s.term}).`,
        `${m.dst} installs it unless it already has that much committed: if its log holds index ${s.index} with term ${s.term} it keeps the entries after it, otherwise it discards its whole log. Then the leader goes on with AppendEntries from index ${s.index + 1}.`,
      );
      rule = DISSERTATION.snapshots;
      break;
    }
    case 'InstallSnapshotReply':
      facts.push(['term', String(f.term)], ['matchIndex', String(f.matchIndex)]);
      title = `InstallSnapshot reply ${m.src} → ${m.dst}`;
      answer.push(
        `${m.src} tells ${m.dst} it holds everything up to index ${f.matchIndex} now. The leader records matchIndex[${m.src}] = ${f.matchIndex} and sends AppendEntries from ${f.matchIndex + 1}.`,
      );
      rule = DISSERTATION.snapshots;
      break;
    case 'AppendReply':
      facts.push(['term', String(f.term)], ['success', String(f.success)], ['matchIndex', String(f.matchIndex)]);
      title = `AppendEntries reply ${m.src} → ${m.dst}`;
      answer.push(
        f.success
          ? `${m.src} tells ${m.dst} it accepted: its log now matches up to index ${f.matchIndex}. The leader records matchIndex[${m.src}] = ${f.matchIndex} and counts it toward a majority for committing.`
          : `${m.src} tells ${m.dst} it refused (its term is ${f.term}). Either the leader's term was old, or ${m.src}'s log did not have the entry named by prevLogIndex/prevLogTerm; the leader backs up one entry and tries again.`,
      );
      rule = `Raft paper §5.3; ${FIGURE2.leaderCommit}`;
      if (!f.success && f.conflictIndex !== undefined) {
        const leader = nodeOf(snap, m.dst);
        const rounds = leader?.backupRounds?.[m.src];
        facts.push(['conflictTerm', String(f.conflictTerm ?? 0)], ['conflictIndex', String(f.conflictIndex)]);
        answer.length = 0;
        answer.push(
          f.conflictTerm === undefined || f.conflictTerm === 0
            ? `${m.src} refused: its log ends at index ${f.conflictIndex - 1}, before the entry ${m.dst} named. With fast back-up it says so, and ${m.dst} moves nextIndex[${m.src}] straight to ${f.conflictIndex} instead of one entry back.`
            : `${m.src} refused: its entry there is of term ${f.conflictTerm}, and it holds term ${f.conflictTerm} from index ${f.conflictIndex}. With fast back-up ${m.dst} skips that whole term at once: just past its own last entry of term ${f.conflictTerm} if it has one, else to index ${f.conflictIndex}.`,
          rounds !== undefined && rounds > 0
            ? `So far ${m.dst} has spent ${plural(rounds, 'round trip')} backing up for ${m.src}; the chapter's one-entry back-up spends one per conflicting entry.`
            : `The chapter's one-entry back-up would spend one round trip per conflicting entry; this spends one per conflicting term.`,
        );
        rule = DISSERTATION.fastBackup;
      }
      break;
    case 'TimeoutNow':
      facts.push(['term', String(f.term)], ['leader', f.leader]);
      title = `TimeoutNow ${m.src} → ${m.dst}`;
      answer.push(
        `${f.leader}, leader of term ${f.term}, is handing leadership to ${m.dst}. It has stopped taking client requests and made sure ${m.dst} holds its whole log; this tells ${m.dst} to start an election now, without waiting for its timer and without a pre-vote.`,
        `${m.dst}'s RequestVote will say it comes from a transfer, so voters that still hear from ${f.leader} answer it instead of ignoring it (CheckQuorum's rule, §6.2). If no new leader appears within an election timeout, ${f.leader} gives up and takes requests again.`,
      );
      rule = DISSERTATION.transfer;
      break;
    case 'RequestVote':
      facts.push(
        ['term', String(f.term)],
        ['candidate', f.candidate],
        ['lastLogIndex', String(f.lastLogIndex)],
        ['lastLogTerm', String(f.lastLogTerm)],
      );
      if (f.preVote) {
        title = `PreVote ${m.src} → ${m.dst}`;
        answer.push(
          `${f.candidate} asks ${m.dst} whether it would vote for it in term ${f.term}, without starting that term: ${f.candidate} stays in term ${f.term - 1} and ${m.dst} records nothing. ` +
            `${m.dst} says yes only if term ${f.term} is newer than its own, it has not heard from a leader within the shortest election timeout, and ${f.candidate}'s log (ending at index ${f.lastLogIndex}, term ${f.lastLogTerm}) is at least as up to date as its own.`,
        );
        rule = DISSERTATION.preVote;
        break;
      }
      title = `RequestVote ${m.src} → ${m.dst}`;
      answer.push(
        `${f.candidate} asks ${m.dst} for its vote in term ${f.term}. Its log ends at index ${f.lastLogIndex}, term ${f.lastLogTerm}; ${m.dst} grants the vote only if it has not voted for someone else in term ${f.term} and that log is at least as up to date as its own.`,
      );
      if (to) answer.push(predictVote(to, f.candidate, f.term, { index: f.lastLogIndex, term: f.lastLogTerm }));
      rule = `Raft paper §5.2, §5.4.1; ${FIGURE2.voteReceiver2}`;
      break;
    case 'VoteReply':
      facts.push(['term', String(f.term)], ['granted', String(f.granted)]);
      if (f.preVote) {
        title = `Pre-vote reply ${m.src} → ${m.dst}`;
        answer.push(
          f.granted
            ? `${m.src} would vote for ${m.dst} in term ${f.term}. It promised nothing and changed nothing; with yeses from a majority ${m.dst} starts the real election.`
            : `${refusalText(refusalOf(details, m.src, m.dst, m.sentAt)) ?? `${m.src} would not vote for ${m.dst} (its term is ${f.term}).`} ${m.dst} stays where it is.`,
        );
        rule = DISSERTATION.preVote;
        break;
      }
      title = `Vote reply ${m.src} → ${m.dst}`;
      answer.push(
        f.granted
          ? `${m.src} gives ${m.dst} its vote for term ${f.term}. It cannot vote for anyone else in term ${f.term}.`
          : (refusalText(refusalOf(details, m.src, m.dst, m.sentAt)) ?? `${m.src} refuses ${m.dst} in term ${f.term}.`),
      );
      rule = `Raft paper §5.2, §5.4.1; ${FIGURE2.voteReceiver2}`;
      break;
    case 'ClientRequest':
      facts.push(['op', f.op], ['key', f.key], ['lease', ms(f.leaseMs)], ['token', f.token === null ? 'none' : String(f.token)]);
      title = `Client request ${m.src} → ${m.dst}`;
      answer.push(
        f.op === 'acquire'
          ? `${m.src} asks ${m.dst} for the lock ${f.key} with a lease of ${ms(f.leaseMs)}. Only the leader can answer: it proposes a Grant entry, and the lock is ${m.src}'s once that entry commits; any other node redirects ${m.src} to the leader it knows.`
          : `${m.src} asks ${m.dst} to release ${f.key}${f.token !== null ? `, naming token ${f.token}` : ''}. The leader proposes a Release that removes the lock only if ${m.src} still holds it with that token.`,
      );
      rule = `Raft paper §8 (client interaction); ${CHAPTER.fencing}`;
      break;
    case 'ClientReply':
      facts.push(
        ['op', f.op],
        ['key', f.key],
        ['outcome', f.outcome],
        ['token', f.token === null ? 'none' : String(f.token)],
        ['log index', f.index === null ? 'none' : String(f.index)],
      );
      title = `Answer ${m.src} → ${m.dst}`;
      answer.push(
        f.outcome === 'granted'
          ? `${m.src} tells ${m.dst} it holds ${f.key} with fencing token ${f.token} (the Grant at index ${f.index} committed). ${m.dst} must send that token with every write, so a store can refuse it once a newer token exists.`
          : f.outcome === 'not-leader'
            ? `${m.src} is not the leader, so it sends ${m.dst} on${f.leaderHint ? ` to ${f.leaderHint}` : ' (it knows no leader)'}.`
            : `${m.src} answers ${m.dst}'s ${f.op} of ${f.key}: ${f.outcome}${f.index !== null ? ` (entry ${f.index})` : ''}.`,
      );
      rule = CHAPTER.fencing;
      break;
    case 'StoreWrite': {
      facts.push(['key', f.key], ['value', f.value], ['token', f.token === null ? 'none' : String(f.token)]);
      title = `Write ${m.src} → ${m.dst} store`;
      const fenced = snap.stores?.fenced;
      const highest = fenced ? highestAccepted(fenced, f.key, fenced.writes.length) : undefined;
      answer.push(
        `${m.src} writes ${f.key}=${f.value} with ${f.token === null ? 'no token' : `token ${f.token}`}. The fenced store will accept it only if the token is at least the highest it has accepted for ${f.key}${highest !== undefined ? ` (now ${highest})` : ' (none yet)'}; the unfenced store takes it whatever the token.`,
      );
      rule = `${CHAPTER.fencing}: the resource rejects any token below the highest it has accepted`;
      break;
    }
    // Issue 28: the failure detectors' messages.
    case 'Gossip': {
      let known = 0;
      let suspects = 0;
      for (let i = 0; i < f.counts.length; i++) {
        if (f.counts[i] > 0) known++;
        if (f.suspects[i] !== 0) suspects++;
      }
      facts.push(['counters', String(known)], ['suspects', String(suspects)]);
      title = `Gossip ${m.src} → ${m.dst}`;
      answer.push(
        `${m.src} tells ${m.dst} its view: the highest heartbeat counter it has heard of for ${plural(known, 'member')}${suspects > 0 ? `, and that it suspects ${plural(suspects, 'member')}` : ''}. ${m.dst} takes every counter higher than its own as news that the member is alive (ending any suspicion of it), and the suspicions of members it has no newer news of.`,
        `Each round every node tells a few random peers, so news and suspicion reach everyone in a logarithmic number of rounds; a member whose counter has not grown for the suspicion time is suspected.`,
      );
      rule =
        'van Renesse, Minsky and Hayden, "A Gossip-Style Failure Detection Service" (1998), with SWIM\'s spreading of suspicion (Das et al. 2002)';
      break;
    }
    case 'KeepAlive': {
      facts.push(['keys', f.keys.join(', ')]);
      title = `Keep-alive ${m.src} → ${m.dst}`;
      answer.push(
        `${m.src} believes it holds ${f.keys.join(', ')} and tells ${m.dst}, the node it believes leads, that it is alive. The lock service's failure detector hands a lock over once the leader has not heard from its holder for the takeover threshold (or φ of these keep-alives passes Φ), even before the lease ends.`,
        'If that threshold is shorter than the lease (the TTL), a holder that is only paused wakes up still believing it holds a lock someone else now has: two holders.',
      );
      rule = 'the chapter, "Failure detection": the takeover threshold must exceed the TTL, or two nodes hold the same resource';
      break;
    }
  }
  if (m.lost) answer.push('This copy will be lost on the way (message loss is on): it never arrives.');
  else if (!reaches(snap, m.src, m.dst))
    answer.push(
      `${m.src} and ${m.dst} are on different sides of the partition ${partitionText(snap)}, so it is dropped if they are still split when it arrives.`,
    );
  else if (to && !to.alive) answer.push(`${m.dst} is down, so it is dropped if ${m.dst} is still down when it arrives.`);
  return { title, answer, rule, facts };
}

function predictAppend(to: NodeView, term: number, prevIndex: number, prevTerm: number): string {
  if (term < to.term)
    return `${to.id} is in term ${to.term}, higher than ${term}: it will refuse, and the reply teaches the sender it is out of date.`;
  if (prevIndex === 0) return `prevLogIndex is 0, so any log matches: ${to.id} will accept.`;
  if (to.snapshot !== undefined && prevIndex <= to.snapshot.index)
    return `${to.id}'s snapshot covers index ${prevIndex} (it holds everything up to ${to.snapshot.index}, all committed): it will accept.`;
  const has = entryOf(to, prevIndex);
  if (prevIndex > to.logLength)
    return `${to.id}'s log has only ${plural(to.logLength, 'entry', 'entries')}, no index ${prevIndex}: it will refuse, and the leader will back up.`;
  if (has && has.term !== prevTerm)
    return `${to.id} has term ${has.term} at index ${prevIndex}, not ${prevTerm}: it will refuse, and the leader will back up.`;
  return `${to.id} has index ${prevIndex} with term ${prevTerm}: the logs agree up to there, so it will accept${term > to.term ? ` (and move up to term ${term})` : ''}.`;
}

function predictVote(to: NodeView, candidate: string, term: number, last: { index: number; term: number }): string {
  if (term < to.term) return `${to.id} is already in term ${to.term}, higher than ${term}: it will refuse.`;
  if (term === to.term && to.votedFor !== null && to.votedFor !== candidate)
    return `${to.id} already voted for ${to.votedFor} in term ${term}: it will refuse — one vote per term.`;
  const mine = lastOf(to);
  if (!atLeastAsUpToDate(last, mine))
    return `${to.id} has ${lastText(to)}, which is more up to date than the candidate's (index ${last.index}, term ${last.term}): it will refuse, so a node missing committed entries cannot become leader.`;
  return `${to.id} has ${lastText(to)} — not ahead of the candidate's — and has not voted for anyone else in term ${term}: it will grant the vote.`;
}

// -- votes ----------------------------------------------------------------------------------

function whyVote(snap: RunView, nodeId: string, details: readonly DetailEvent[]): Explanation {
  const n = nodeOf(snap, nodeId);
  if (!n) return unknown(`Why did ${nodeId} vote this way?`, `Node ${nodeId}`);
  const size = snap.nodes.length;
  const maj = majorityOf(size);
  const answer: string[] = [];
  const facts: [string, string][] = [
    ['term', String(n.term)],
    ['voted for', n.votedFor ?? 'nobody'],
    ['its log', lastText(n)],
  ];
  const rule = `Raft paper §5.2, §5.4.1; ${FIGURE2.voteReceiver2}`;
  if (n.alive && n.role !== 'follower') {
    answer.push(
      `${nodeId} ${n.role === 'leader' ? 'won' : 'is asking for votes in'} term ${n.term} and has ${plural(n.votes.length, 'vote')}: ${list(n.votes)} (a majority is ${maj} of ${size}). It voted for itself when it became a candidate.`,
    );
    for (const o of snap.nodes) {
      if (o.id === nodeId || n.votes.includes(o.id)) continue;
      answer.push(whyNoVoteFrom(snap, o, n, details));
    }
    return { title: `Why does ${nodeId} have ${plural(n.votes.length, 'vote')}?`, answer, rule, facts };
  }
  if (n.votedFor === nodeId) {
    answer.push(
      `${nodeId} voted for itself in term ${n.term}: a node that becomes a candidate votes for itself first. It has since become a ${n.alive ? n.role : 'down node'}, but the vote stays for the rest of term ${n.term}.`,
    );
    return { title: `Why did ${nodeId} vote for itself?`, answer, rule, facts };
  }
  if (n.votedFor !== null) {
    const c = nodeOf(snap, n.votedFor);
    answer.push(
      `${nodeId} voted for ${n.votedFor} in term ${n.term}. Each node gives one vote per term, to the first candidate that asks whose log is at least as up to date as its own (later last term wins; with equal terms, the longer log).`,
    );
    if (c)
      answer.push(
        `When ${n.votedFor} asked, its log was at least as up to date as ${nodeId}'s. Now ${n.votedFor}'s log ends at index ${lastOf(c).index}, term ${lastOf(c).term}, and ${nodeId} has ${lastText(n)}. The vote is written to disk, so even a restart cannot make ${nodeId} vote twice in term ${n.term}.`,
      );
    const others = snap.nodes.filter((o) => o.alive && o.role === 'candidate' && o.term === n.term && o.id !== n.votedFor).map((o) => o.id);
    if (others.length > 0) answer.push(`So ${nodeId} refuses ${list(others)} in term ${n.term}: its one vote is spent.`);
    return { title: `Why did ${nodeId} vote for ${n.votedFor}?`, answer, rule, facts };
  }
  answer.push(`${nodeId} has not voted in term ${n.term}.`);
  const candidates = snap.nodes.filter((o) => o.alive && o.role === 'candidate' && o.id !== nodeId);
  if (candidates.length === 0)
    answer.push(
      `No candidate is asking right now${currentLeader(snap) ? ` — ${currentLeader(snap)!.id} leads term ${currentLeader(snap)!.term}` : ''}. A node votes only when a RequestVote reaches it.`,
    );
  for (const c of candidates) answer.push(whyNoVoteFrom(snap, n, c, details));
  if (!n.alive) answer.push(`${nodeId} is down: it answers nothing.`);
  return { title: `Why has ${nodeId} not voted?`, answer, rule, facts };
}

/**
 * The refusal a voter recorded when it answered (or ignored) a candidate: the engine logs the one
 * reason that applied (detail kinds vote-refused, pre-vote-refused, vote-ignored). At `atMs` (a
 * refusing reply's send time) exactly; else the newest of this candidacy's term.
 */
export function refusalOf(
  details: readonly DetailEvent[],
  voter: string,
  candidate: string,
  atMs?: number,
  term?: number,
): RefusalDetail | null {
  for (let i = details.length - 1; i >= 0; i--) {
    const d = details[i];
    if (d.kind !== 'vote-refused' && d.kind !== 'pre-vote-refused' && d.kind !== 'vote-ignored') continue;
    if (d.values.node !== voter || d.values.candidate !== candidate) continue;
    if (atMs !== undefined && d.t !== atMs) continue;
    const asked = d.kind === 'pre-vote-refused' ? d.values.preVoteTerm : d.values.candidateTerm;
    if (term !== undefined && asked !== term) continue;
    return d as RefusalDetail;
  }
  return null;
}

type RefusalDetail = Extract<DetailEvent, { kind: 'vote-refused' | 'pre-vote-refused' | 'vote-ignored' }>;

/** The one reason a refusal had, in the run's own values (Figure 2, RequestVote receiver rules; §9.6; §6.2). */
export function refusalText(d: RefusalDetail | null): string | null {
  if (d === null) return null;
  const at = `at t=${d.t} ms`;
  if (d.kind === 'vote-ignored') {
    const v = d.values;
    return `${v.node} ignored ${v.candidate}'s request for term ${v.candidateTerm} ${at}: it had heard from leader ${v.leader ?? 'its leader'} ${v.heardAgoMs} ms before, within the shortest election timeout, so it keeps following it (${v.disruption ? '§4.2.3' : 'CheckQuorum, §6.2'}).`;
  }
  if (d.kind === 'pre-vote-refused') {
    const v = d.values;
    if (v.reason === 'hears-leader')
      return `${v.node} said it would not vote for ${v.candidate} ${at}: it hears from leader ${v.leader ?? 'a leader'}, so no election is needed (§9.6).`;
    if (v.reason === 'stale-term') return `${v.node} said no ${at}: term ${v.preVoteTerm} is not newer than its own term ${v.term} (§9.6).`;
    return `${v.node} said no ${at}: its log, ending at index ${v.lastLogIndex}, term ${v.lastLogTerm}, is more up to date than ${v.candidate}'s (index ${v.candidateLastLogIndex}, term ${v.candidateLastLogTerm}) (§5.4.1).`;
  }
  const v = d.values;
  if (v.reason === 'stale-term')
    return `${v.node} refused ${v.candidate} ${at}: the request was for term ${v.candidateTerm}, older than ${v.node}'s term ${v.term} (Figure 2, RequestVote rule 1).`;
  if (v.reason === 'already-voted')
    return `${v.node} refused ${v.candidate} ${at}: it had already voted for ${v.votedFor ?? 'another candidate'} in term ${v.term} — one vote per term (Figure 2, RequestVote rule 2).`;
  return `${v.node} refused ${v.candidate} ${at}: its own log ends at index ${v.lastLogIndex}, term ${v.lastLogTerm}, more up to date than ${v.candidate}'s (index ${v.candidateLastLogIndex}, term ${v.candidateLastLogTerm}), so ${v.candidate} could be missing committed entries (§5.4.1).`;
}

/** Why `voter` has not given its vote to `candidate` (yet): the refusal it recorded, if it answered. */
function whyNoVoteFrom(snap: RunView, voter: NodeView, candidate: NodeView, details: readonly DetailEvent[] = []): string {
  const v = voter.id;
  const c = candidate.id;
  const recorded = refusalText(refusalOf(details, v, c, undefined, candidate.term));
  if (recorded !== null) return recorded;
  if (!voter.alive) return `${v} is down, so it cannot vote for ${c}.`;
  if (!reaches(snap, v, c)) return `${v} cannot hear ${c}: the network is split ${partitionText(snap)}.`;
  if (voter.term > candidate.term)
    return `${v} is in term ${voter.term}, past ${c}'s term ${candidate.term}: it refuses any request of an older term.`;
  if (voter.term === candidate.term && voter.votedFor === v)
    return `${v} is campaigning in term ${voter.term} too and voted for itself: one vote per term.`;
  if (voter.term === candidate.term && voter.votedFor !== null && voter.votedFor !== c)
    return `${v} already voted for ${voter.votedFor} in term ${voter.term}: one vote per term.`;
  if (!atLeastAsUpToDate(lastOf(candidate), lastOf(voter)))
    return `${v} refuses ${c}: ${v} has ${lastText(voter)}, ${c} only ${lastText(candidate)} — a voter never elects a candidate whose log is behind its own (§5.4.1).`;
  return `${v} has not answered ${c} yet (the request or its reply is still on the way, or ${v} has not reached term ${candidate.term}).`;
}

// -- no leader ------------------------------------------------------------------------------

function whyNoLeader(snap: RunView, events: readonly SimEvent[]): Explanation {
  const size = snap.nodes.length;
  const maj = majorityOf(size);
  const leader = currentLeader(snap);
  const rule = `Raft paper §5.2 (leader election); ${FIGURE2.candidates}`;
  if (leader) {
    return {
      title: 'Is there a leader?',
      answer: [
        `Yes: ${leader.id} leads term ${leader.term}. It won votes from a majority (${maj} of ${size}) and keeps its followers' timers from running out with heartbeats.`,
      ],
      rule,
    };
  }
  const answer: string[] = [];
  const facts: [string, string][] = [['majority', `${maj} of ${size}`]];
  const down = snap.nodes.filter((n) => !n.alive).map((n) => n.id);
  const live = snap.nodes.filter((n) => n.alive);
  const candidates = live.filter((n) => n.role === 'candidate');
  answer.push(`No node leads right now. A leader needs votes from a majority: ${maj} of ${size} nodes.`);
  if (down.length > 0) {
    const lastCrash = down
      .map((id) => lastEvent(events, 'crash', id))
      .filter((e): e is SimEvent => e !== undefined)
      .sort((a, b) => b.t - a.t)[0];
    answer.push(
      `${list(down)} ${down.length === 1 ? 'is' : 'are'} down${lastCrash ? ` (the last crash at t=${lastCrash.t} ms)` : ''}; ${live.length} of ${size} nodes are up.` +
        (live.length < maj ? ` That is fewer than ${maj}: no one can win until more nodes restart.` : ''),
    );
    facts.push(['down', list(down)]);
  }
  if (snap.partitions.length > 0) {
    const groups = snap.partitions.map((g) => `{${g.join(', ')}} with ${liveIds(snap, g).length} up`);
    const winnable = snap.partitions.filter((g) => liveIds(snap, g).length >= maj);
    answer.push(
      `The network is split: ${groups.join(' | ')}. ` +
        (winnable.length === 0
          ? `No side has ${maj} live nodes, so no side can elect a leader until the network heals.`
          : `Only {${winnable[0].join(', ')}} has a majority; a leader can come only from there.`),
    );
    facts.push(['partition', partitionText(snap)]);
  }
  if (candidates.length > 0) {
    const byTerm = new Map<number, NodeView[]>();
    for (const c of candidates) byTerm.set(c.term, [...(byTerm.get(c.term) ?? []), c]);
    for (const [term, cs] of [...byTerm].sort((a, b) => b[0] - a[0])) {
      const votes = cs.map((c) => `${c.id} has ${plural(c.votes.length, 'vote')}`).join(', ');
      if (cs.length > 1) {
        answer.push(
          `Split vote in term ${term}: ${list(cs.map((c) => c.id))} campaign at once and each voted for itself, so the votes divide (${votes}); none can reach ${maj}. ` +
            `Each will time out at a different random moment and try again in term ${term + 1} — the random timeouts are what makes this end.`,
        );
      } else {
        answer.push(`${cs[0].id} is campaigning in term ${term} and ${votes.replace(`${cs[0].id} has `, 'has ')} of the ${maj} it needs.`);
      }
    }
    facts.push(['candidates', candidates.map((c) => `${c.id} (term ${c.term})`).join(', ')]);
  } else if (live.length > 0) {
    const next = [...live].sort((a, b) => a.electionDeadline - b.electionDeadline)[0];
    answer.push(
      `Nobody is campaigning: every live node is a follower waiting for its election timer. The first to run out is ${next.id}, in ${ms(Math.max(0, next.electionDeadline - snap.now))}; it will become a candidate in term ${next.term + 1}.`,
    );
  }
  const stale = live.filter((n) => n.role === 'leader').map((n) => `${n.id} (term ${n.term})`);
  if (stale.length > 0) answer.push(`${list(stale)} still believes it leads, but a higher term exists, so it is not the leader.`);
  return { title: 'Why is there no leader?', answer, rule, facts };
}

// -- clients, locks, stores -----------------------------------------------------------------

/** The lock table as committed: the live leader's, else the live node that applied the most. */
function committedTable(snap: RunView): NodeView | undefined {
  const leader = currentLeader(snap);
  if (leader) return leader;
  return [...snap.nodes].filter((n) => n.alive).sort((a, b) => b.lastApplied - a.lastApplied)[0];
}

function whyClient(snap: RunView, id: string): Explanation {
  const c: ClientView | undefined = snap.clients.find((x) => x.id === id);
  if (!c) return unknown(`Why does client ${id} think this?`, `Client ${id}`);
  const table = committedTable(snap);
  const answer: string[] = [];
  const facts: [string, string][] = [
    ['doing', c.status],
    ['token', c.currentToken === null ? 'none' : String(c.currentToken)],
    ['now', `t=${snap.now} ms`],
  ];
  const rule = `${CHAPTER.fencing}; ${CHAPTER.mistakes} ("Believing a TTL is mutual exclusion")${c.lastResult !== undefined && hasFeature(snap, 'reads') ? `; ${DISSERTATION.reads}` : ''}`;
  if (!c.alive) answer.push(`Client ${id} is down. When it restarts it holds no locks.`);
  if (c.paused)
    answer.push(
      `${id} is paused until t=${c.pausedUntil} ms — like a garbage-collection stop or a VM migration, a pause it cannot see: when it wakes, no time seems to have passed.`,
    );
  if (c.holdings.length === 0) {
    answer.push(
      `${id} believes it holds no lock${c.currentToken !== null ? ` (it still has token ${c.currentToken} to stamp writes with)` : ''}.`,
    );
  }
  let stillThinks = false;
  for (const h of c.holdings) {
    const left = h.deadline - snap.now;
    const row = table?.locks.find((l) => l.key === h.key);
    facts.push([`lease on ${h.key}`, `token ${h.token}, ends t=${h.deadline} ms`]);
    const tableText = table
      ? row
        ? `The committed lock table (as ${table.id} applied it) gives ${h.key} to ${row.owner} with token ${row.token}.`
        : `The committed lock table (as ${table.id} applied it) has no lock on ${h.key}.`
      : 'No node is up to ask.';
    const otherOwner = row !== undefined && (row.owner !== id || row.token !== h.token);
    if (left > 0 && !otherOwner) {
      answer.push(
        `${id} holds ${h.key} with fencing token ${h.token}; its lease ends at t=${h.deadline} ms, ${ms(left)} from now by its own clock. ${tableText}`,
      );
    } else {
      stillThinks = true;
      answer.push(
        `${id} still thinks it holds ${h.key} with token ${h.token}, ` +
          (left <= 0 ? `but its lease ended at t=${h.deadline} ms, ${ms(-left)} ago. ` : `and its lease runs to t=${h.deadline} ms, but `) +
          `${tableText} ` +
          `A lease is only a promise about time; a client that was paused or slow cannot tell it ran out.`,
      );
    }
  }
  if (c.lastResult !== undefined && hasFeature(snap, 'reads')) {
    facts.push(['last read', c.lastResult]);
    answer.push(
      `${id}'s last put or get: ${c.lastResult}. A get through the log or by ReadIndex is linearizable: the first is ordered with the writes, the second is answered only after a majority answered a heartbeat round the leader sent after the read arrived, so the leader was still the leader. A lease read is answered at once from the leader's own state, and is safe only while clocks drift less than the lease's margin: a leader whose clock runs slow can answer after a new leader has accepted a write (the History tab's register verdict names such a stale read).`,
    );
  }
  if (stillThinks || c.holdings.length > 0) {
    answer.push(
      `What keeps the data safe is the fencing token: ${id} sends token ${c.holdings[0]?.token ?? c.currentToken} with every write, and the fenced store refuses any token below the highest it has accepted. The unfenced store cannot tell, and takes the stale write.`,
    );
  }
  return { title: stillThinks ? `Why does ${id} still think it holds the lock?` : `What does client ${id} hold?`, answer, rule, facts };
}

function whyLock(snap: RunView, nodeId: string, key: string): Explanation {
  const n = nodeOf(snap, nodeId);
  if (!n) return unknown(`Why is ${key} held on ${nodeId}?`, `Node ${nodeId}`);
  const l = n.locks.find((x) => x.key === key);
  const rule = `${CHAPTER.fencing}; Raft paper §5.3 (every node applies committed entries in log order)`;
  if (!l) {
    return {
      title: `Why is ${key} free on ${nodeId}?`,
      answer: [
        `${nodeId}'s lock table has no lock on ${key}: a Release or Expire for it has been applied, or no Grant for it has committed there yet. ${nodeId} has applied entries up to ${n.lastApplied}.`,
      ],
      rule,
    };
  }
  const leader = currentLeader(snap);
  const isLeader = leader?.id === nodeId;
  const clock = n.driftPct === 0 ? 'its clock' : `its clock, which runs ${n.driftPct > 0 ? '+' : ''}${n.driftPct}% off true time`;
  const answer = [
    `On ${nodeId}, ${key} is held by ${l.owner} with fencing token ${l.token} and a lease of ${ms(l.leaseMs)}. ${nodeId} got there by applying the committed Grant in log order, as every node does, so every node that applied the same entries agrees.`,
    `Tokens come from a counter that only goes up (next token on ${nodeId}: ${n.nextToken}), so each new holder gets a larger one.`,
    l.remainingMs > 0
      ? `By ${clock}, ${ms(l.remainingMs)} of the lease is left.`
      : `By ${clock}, the lease ran out ${ms(-l.remainingMs)} ago — yet the lock is still in the table.`,
    `A lease running out removes nothing by itself. Only the leader, when the lease runs out by its own clock, proposes "expire ${key} token ${l.token}"; the lock goes when that entry commits and each node applies it. ` +
      (isLeader
        ? `${nodeId} is that leader.`
        : leader
          ? `${nodeId} is not the leader; it waits for ${leader.id}'s Expire.`
          : 'Right now there is no leader to propose it.'),
  ];
  const pending = n.log.find((e) => e.index > n.commitIndex && e.kind === 'expire' && e.text.startsWith(`expire ${key} `));
  if (pending) answer.push(`${pending.text} is already in ${nodeId}'s log at index ${pending.index}, waiting to commit.`);
  if (n.driftPct !== 0)
    answer.push(
      `${nodeId}'s clock drift matters here: a node whose clock runs fast sees the lease end early and can expire it while the holder still believes it holds the lock — the chapter's warning about trusting clocks.`,
    );
  return {
    title: `Why does ${nodeId} give ${key} to ${l.owner}?`,
    answer,
    rule,
    facts: [
      ['holder', l.owner],
      ['token', String(l.token)],
      ['lease', ms(l.leaseMs)],
      ['left by its clock', ms(l.remainingMs)],
      [`${nodeId}'s clock`, `${n.localNowMs} ms`],
    ],
  };
}

/** The highest token the store accepted for `key` among its writes before position `before`. */
function highestAccepted(store: StoreView, key: string, before: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < before && i < store.writes.length; i++) {
    const w = store.writes[i];
    if (w.accepted && w.key === key && w.token !== null && (best === undefined || w.token > best)) best = w.token;
  }
  return best;
}

function whyStoreWrite(snap: RunView, storeId: 'fenced' | 'unfenced', index: number): Explanation {
  const store = snap.stores?.[storeId];
  const w = store?.writes[index];
  if (!store || !w) return unknown('Why this write?', 'That write');
  const highest = highestAccepted(store, w.key, index);
  const token = w.token === null ? 'no token' : `token ${w.token}`;
  const facts: [string, string][] = [
    ['write', `${w.key}=${w.value} at t=${w.t} ms`],
    ['from', w.client],
    ['token', w.token === null ? 'none' : String(w.token)],
    ['highest accepted before', highest === undefined ? 'none' : String(highest)],
  ];
  const rule = `${CHAPTER.fencing}: the holder sends its token with every write, and the resource rejects any token below the highest it has accepted`;
  const answer: string[] = [];
  if (!store.checksTokens) {
    answer.push(
      `The unfenced store accepted ${w.client}'s write ${w.key}=${w.value} (${token}) because it takes every write: it never looks at tokens.`,
      w.leaseEnded || (highest !== undefined && w.token !== null && w.token < highest)
        ? `That is the danger: ${w.client}'s lease had ${w.leaseEnded ? 'already ended' : 'been superseded'}${highest !== undefined ? ` and a newer holder had written with token ${highest}` : ''}, so this stale write overwrote newer data. The fenced store refuses the same write.`
        : `Here nothing newer had been written, so no harm — but it would take a stale write just the same.`,
    );
    return { title: `Why did the unfenced store accept ${w.key}=${w.value}?`, answer, rule, facts };
  }
  if (w.accepted) {
    answer.push(
      `The fenced store accepted ${w.client}'s write ${w.key}=${w.value} with ${token}: ` +
        (highest === undefined
          ? `it had accepted no token for ${w.key} before, so any token passes.`
          : `${w.token} is not below ${highest}, the highest token it had accepted for ${w.key}.`),
    );
    if (w.leaseEnded)
      answer.push(
        `${w.client}'s lease had already ended, but no newer holder had written yet, so the token was still the highest — fencing protects against newer writers, not against time.`,
      );
    return { title: `Why did the fenced store accept ${w.key}=${w.value}?`, answer, rule, facts };
  }
  answer.push(
    `The fenced store refused ${w.client}'s write ${w.key}=${w.value} with ${token}` +
      (w.token === null
        ? ': a write with no token cannot prove it holds the lock.'
        : highest !== undefined
          ? `: token ${w.token} is lower than token ${highest}, the highest it had accepted for ${w.key}.`
          : '.') +
      (w.reason ? ` (${w.reason})` : ''),
    `A higher token means the lock service granted the lock to someone after ${w.client}: ${w.client}'s lease ran out (perhaps while it was paused) and it does not know. The store's check is what stops the stale writer; the lease alone cannot.`,
  );
  return { title: `Why was ${w.client}'s write refused?`, answer, rule, facts };
}
