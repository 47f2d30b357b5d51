/**
 * The one formatter for event text: event lines, test expectations and error sentences all come
 * from here, so the chapter's wording lives in one place.
 */
import type { DetailEvent } from './events';
import { INVARIANT_TITLES } from './features';
import type { ClientIntent } from './schedule';
import { ballotText } from './ballot';
import type { ApplyResult, Command, ConfigCommand, CoordCommand, LockCommand, StoreWriteRecord } from './types';
import { isCoordType } from './lockWire';

/** `t=  156 ms n2 election timeout, ...`: `t=` then the time right-aligned to 5 characters. */
export function eventLine(nowMs: number, text: string): string {
  if (Number.isInteger(nowMs)) return `t=${String(nowMs).padStart(5, ' ')} ms ${text}`;
  // A precise network's microsecond (issue 28): the whole ms aligned as the chapter's, then the fraction.
  const [whole, fraction] = String(nowMs).split('.');
  return `t=${whole.padStart(5, ' ')}.${fraction} ms ${text}`;
}

/** Python's `sorted()` on ids: plain code-unit order, so the chapter's vote lists match. */
export function sortedIds(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const describe = {
  electionTimeout: (id: string, term: number) => `${id} election timeout, candidate in term ${term}`,
  wins: (id: string, term: number, voters: readonly string[]) => `${id} wins term ${term} with votes from ${voters.join(', ')}`,
  stepsDown: (id: string, term: number) => `${id} steps down, follower in term ${term}`,
  crashes: (id: string) => `${id} crashes`,
  restarts: (id: string, term: number) => `${id} restarts as follower in term ${term}`,
  partition: (groups: readonly (readonly string[])[]) => `partition ${groups.map((g) => '{' + sortedIds(g).join(', ') + '}').join(' | ')}`,
  healed: () => 'partition healed',
  submitRejected: (command: string, target: string | null, reason: string) =>
    `submit ${command}${target ? ` to ${target}` : ''} rejected: ${reason}`,
  drift: (id: string, pct: number) => `${id} clock drift set to ${pct > 0 ? '+' : ''}${pct}%`,
  clockJump: (id: string, ms: number) => `${id}'s wall clock jumps ${ms > 0 ? 'forward' : 'back'} ${Math.abs(ms)} ms`,
  loss: (pct: number) => `message loss set to ${pct}%`,
  delay: (target: string | null, ms: number) =>
    ms === 0
      ? `extra delay${target ? ` for ${target}` : ''} removed`
      : `messages${target ? ` from and to ${target}` : ''} take ${ms} ms longer`,
  duplicates: (pct: number) => `message duplication set to ${pct}%`,
  reorder: (pct: number) => `message reordering set to ${pct}%`,
  // Issue 28: the network's slow phases (`slow 3x for 20000`).
  slow: (factor: number, forMs: number | null) =>
    factor === 1
      ? 'the network is back to its usual speed'
      : `every message takes ${factor}x as long${forMs !== null ? ` for ${forMs} ms` : ''}`,
  slowEnds: () => 'the slow phase ends: messages take their usual time again',
  electionForced: (id: string) => `${id}'s election timer is forced to fire`,
  transferRefused: (id: string, reason: string) => `transfer ${id} refused: ${reason}`,
  electionForceRefused: (id: string, reason: string) => `timeout ${id} refused: ${reason}`,
  calm: () => 'faults stop: the network is whole and reliable, every node and client is up',
  memberAdding: (leader: string, id: string) => `add ${id}: ${leader} catches ${id} up as a learner before it joins (§4.2.1)`,
  memberRemoving: (leader: string, id: string) => `remove ${id}: ${leader} appends a configuration without ${id} (§4.1)`,
  memberChangeRefused: (verb: 'add' | 'remove', id: string, reason: string) => `${verb} ${id} refused: ${reason}`,
  absentServer: (action: string, id: string) =>
    `${action} refused: ${id} has not joined this run (its add was refused or has not happened)`,
};

/**
 * A detail event as a sentence. The only place a detail's text is made: everything else reads
 * its kind and values.
 */
export function describeDetail(d: DetailEvent): string {
  switch (d.kind) {
    case 'leader-append': {
      const v = d.values;
      return `${v.node} appends ${commandText(v.command)} at index ${v.index} (term ${v.term})`;
    }
    case 'append-accepted': {
      const v = d.values;
      const range = v.from === v.to ? `entry ${v.from}` : `entries ${v.from}..${v.to}`;
      return `${v.node} accepts ${range} from ${v.leader} (term ${v.term}), ${v.added === 0 ? 'all already held' : `${v.added} new`}`;
    }
    case 'append-rejected': {
      const v = d.values;
      const why =
        v.reason === 'stale-term'
          ? `stale term ${v.leaderTerm} < ${v.term}`
          : v.reason === 'prev-missing'
            ? `no entry at prevLogIndex ${v.prevLogIndex} (its log ends at ${v.lastLogIndex})`
            : `entry ${v.prevLogIndex} has term ${v.termAtPrev ?? 0}, not prevLogTerm ${v.prevLogTerm}`;
      const hint =
        v.conflictIndex === undefined
          ? ''
          : v.conflictTerm === 0 || v.conflictTerm === undefined
            ? `; hints: my log ends at ${v.conflictIndex - 1} (fast back-up, §5.3)`
            : `; hints: term ${v.conflictTerm} from index ${v.conflictIndex} (fast back-up, §5.3)`;
      return `${v.node} rejects AppendEntries from ${v.leader}: ${why}${hint}`;
    }
    case 'truncated': {
      const v = d.values;
      return `${v.node} truncates its log from index ${v.from} (${v.removed} entr${v.removed === 1 ? 'y' : 'ies'}): term ${v.localTerm} there conflicts with ${v.leader}'s term ${v.leaderEntryTerm}`;
    }
    case 'commit-advanced': {
      const v = d.values;
      const how =
        v.rule === 'leader-commit'
          ? `leaderCommit ${v.leaderCommit ?? 0} from ${v.leader ?? '?'}${v.to < (v.leaderCommit ?? 0) ? ', capped at its last new entry' : ''}`
          : v.rule === 'majority'
            ? `${v.replicas ?? 0} of ${v.majority ?? 0} needed hold it, an entry of term ${v.term}`
            : `${v.replicas ?? 0} of ${v.majority ?? 0} needed hold it, counting an earlier term's entry (Figure 8)`;
      return `${v.node} commit index ${v.from} -> ${v.to}: ${how}`;
    }
    case 'applied': {
      const v = d.values;
      return `${v.node} applies index ${v.index} (term ${v.term}) ${commandText(v.command)}${v.result !== null ? ` -> ${applyResultText(v.result)}` : ''}`;
    }
    case 'vote-refused': {
      const v = d.values;
      const why =
        v.reason === 'stale-term'
          ? `stale term ${v.candidateTerm} < ${v.term}`
          : v.reason === 'already-voted'
            ? `already voted for ${v.votedFor ?? 'nobody'} in term ${v.term}`
            : `log not up to date (candidate last term ${v.candidateLastLogTerm} index ${v.candidateLastLogIndex}, own last term ${v.lastLogTerm} index ${v.lastLogIndex})`;
      return `${v.node} refuses vote for ${v.candidate}: ${why}`;
    }
    case 'dropped': {
      const v = d.values;
      const why = v.reason === 'down' ? `${v.to} is down` : v.reason === 'partition' ? 'partitioned' : 'lost in flight';
      return `${v.message} ${v.from} -> ${v.to} (sent t=${v.sentAt} ms) dropped: ${why}`;
    }
    case 'lease-expired': {
      const v = d.values;
      return `${v.node} sees the lease on ${v.key} (token ${v.token}, ${v.owner}) end by its clock: local ${fmtMs(v.localMs)} ms >= ${fmtMs(v.endsAtLocalMs)} ms`;
    }
    case 'write-fenced': {
      const v = d.values;
      return `${v.store} store fences ${v.key}=${v.value} from ${v.client}: ${tokenText(v.token)} vs highest ${v.highest ?? 'none'}`;
    }
    case 'pre-vote-started': {
      const v = d.values;
      return `${v.node} asks for pre-votes for term ${v.preVoteTerm}, staying in term ${v.term} (§9.6)`;
    }
    case 'pre-vote-won': {
      const v = d.values;
      return `${v.node} has pre-votes from ${v.voters.join(', ')} (${v.voters.length} of ${v.majority} needed): it starts the election for term ${v.term}`;
    }
    case 'pre-vote-refused': {
      const v = d.values;
      const why =
        v.reason === 'stale-term'
          ? `term ${v.preVoteTerm} is not newer than its own ${v.term}`
          : v.reason === 'log-not-up-to-date'
            ? `log not up to date (candidate last term ${v.candidateLastLogTerm} index ${v.candidateLastLogIndex}, own last term ${v.lastLogTerm} index ${v.lastLogIndex})`
            : v.leader === v.node
              ? 'it is the leader'
              : `it hears from leader ${v.leader ?? '?'}`;
      return `${v.node} refuses a pre-vote for ${v.candidate} (term ${v.preVoteTerm}): ${why}`;
    }
    case 'vote-ignored': {
      const v = d.values;
      const leader = v.leader === v.node ? 'it is the leader' : `it heard from leader ${v.leader ?? '?'} ${v.heardAgoMs} ms ago`;
      return `${v.node} ignores RequestVote from ${v.candidate} for term ${v.candidateTerm} and keeps term ${v.term}: ${leader} (${v.disruption === true ? 'so a removed server cannot disrupt the cluster, §4.2.3' : 'CheckQuorum, §6.2'})`;
    }
    case 'backed-up': {
      const v = d.values;
      const how =
        v.rule === 'to-follower-end'
          ? `${v.peer}'s log ends at ${v.conflictIndex - 1}`
          : v.rule === 'past-own-term'
            ? `past its own last entry of term ${v.conflictTerm}`
            : `it has no entry of term ${v.conflictTerm}: to ${v.peer}'s first index of it`;
      return `${v.node} backs up nextIndex[${v.peer}] ${v.from} -> ${v.to} (${how}); round trip ${v.rounds} of backing up (fast back-up, §5.3)`;
    }
    case 'transfer-started': {
      const v = d.values;
      return `${v.node} starts handing leadership to ${v.target} (term ${v.term}): it takes no requests meanwhile, and gives up at t=${v.deadlineMs} ms (§3.10)`;
    }
    case 'timeout-now-sent': {
      const v = d.values;
      return `${v.node} sends TimeoutNow to ${v.target}, which holds its whole log (match ${v.matchIndex}) (§3.10)`;
    }
    case 'timeout-now-received': {
      const v = d.values;
      return `${v.node} gets TimeoutNow from ${v.leader} and starts an election at once, marked as a transfer (§3.10)`;
    }
    case 'transfer-aborted': {
      const v = d.values;
      return `${v.node} gives up handing leadership to ${v.target} after ${v.afterMs} ms and takes requests again (§3.10)`;
    }
    case 'quorum-lost': {
      const v = d.values;
      return `${v.node} heard from ${v.heard} of the ${v.majority} servers it needs since t=${v.sinceMs} ms: it steps down (CheckQuorum, §6.2)`;
    }
    case 'snapshot-taken': {
      const v = d.values;
      return `${v.node} compacts its log: snapshot ≤ ${v.index} (term ${v.term}), ${v.removed} ${v.removed === 1 ? 'entry' : 'entries'} dropped (applied ${v.lastApplied}, committed ${v.commitIndex}; snapshots, §5)`;
    }
    case 'snapshot-installed': {
      const v = d.values;
      const rest =
        v.kept > 0
          ? `keeps the ${v.kept} matching ${v.kept === 1 ? 'entry' : 'entries'} after it`
          : v.discarded > 0
            ? `discards its ${v.discarded} ${v.discarded === 1 ? 'entry' : 'entries'}`
            : 'had no entries after it';
      return `${v.node} installs ${v.leader}'s snapshot ≤ ${v.index} (term ${v.term}) and ${rest} (§5.1)`;
    }
    case 'read-index-recorded': {
      const v = d.values;
      const round =
        v.round === 0 ? 'and answers without a heartbeat round' : `and sends heartbeat round ${v.round} to confirm it still leads`;
      return `${v.node} records readIndex ${v.readIndex} for ${v.client}'s get ${v.key} ${round} (ReadIndex, §6.4)`;
    }
    case 'read-served': {
      const v = d.values;
      const value = v.value === null ? 'nothing' : `${v.key}=${v.value}`;
      const how =
        v.mode === 'log'
          ? 'the get applied from the log'
          : v.mode === 'read-index'
            ? v.round === 0
              ? `at readIndex ${v.readIndex ?? 0}, leadership never confirmed`
              : `at readIndex ${v.readIndex ?? 0}, round ${v.round ?? 0} answered by a majority (§6.4)`
            : `from its lease, ${fmtMs(v.leaseLeftMs ?? 0)} ms left by its clock (local ${fmtMs(v.localMs)} ms, §6.4.1)`;
      return `${v.node} answers ${v.client}'s get ${v.key} with ${value}: ${how}`;
    }
    case 'learner-added': {
      const v = d.values;
      return `${v.node} starts catching ${v.learner} up as a non-voting learner; the voters stay {${v.voters.join(', ')}} (§4.2.1)`;
    }
    case 'learner-promoted': {
      const v = d.values;
      return `${v.learner} holds ${v.node}'s last entry (index ${v.lastLogIndex}), caught up since t=${v.sinceMs} ms: ${v.node} adds it to the configuration (§4.2.1)`;
    }
    case 'config-appended': {
      const v = d.values;
      return `${v.node} appends the configuration {${v.voters.join(', ')}} (${v.op === 'add' ? 'adds' : 'removes'} ${v.server}) at index ${v.index} and uses it at once, committed or not (§4.1)`;
    }
    case 'removed-leader-steps-down': {
      const v = d.values;
      return `${v.node} committed its own removal (index ${v.index}; the voters are {${v.voters.join(', ')}}): it steps down (§4.2.2)`;
    }
    case 'not-campaigning': {
      const v = d.values;
      return `${v.node}'s timer fires, but it is not in its configuration {${v.voters.join(', ')}}, which is committed: it does not campaign (§4.2.2)`;
    }
    case 'timeout-now-ignored': {
      const v = d.values;
      return `${v.node} gets TimeoutNow from ${v.leader}, but it is not in its configuration {${v.voters.join(', ')}}: it does not campaign (§4.2.2)`;
    }
    default:
      return describePaxosDetail(d);
  }
}

/** `t=  156 ms  · n3 refuses vote ...`: the event-line format, marked as a detail. */
export function detailLine(d: DetailEvent): string {
  return `t=${String(d.t).padStart(5, ' ')} ms  · ${describeDetail(d)}`;
}

function fmtMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}

function applyResultText(result: ApplyResult): string {
  switch (result.type) {
    case 'Granted':
      return `Granted token ${result.token}`;
    case 'NotHolder':
      return `NotHolder (${result.holder} holds it, token ${result.token})`;
    case 'Expired':
      return result.existed ? 'Expired' : 'Expired (nothing removed)';
    default:
      return result.type;
  }
}

/** A log command as people read it: `x=1`, `grant job:42 to A (10000 ms)`, `expire job:42 #1`. */
export function commandText(command: Command): string {
  if (typeof command === 'string') return command;
  if (command.type === 'noop') return 'no-op';
  if (command.type === 'put') return `put ${command.key}=${command.value} by ${command.client}`;
  if (command.type === 'get') return `get ${command.key} by ${command.client}`;
  if (command.type === 'config') return configCommandText(command);
  if (isCoordType(command.type)) return coordCommandText(command as CoordCommand);
  return lockCommandText(command as LockCommand);
}

/** ZooKeeper's and etcd's log entries (issue 26): `zk create /locks/job:42/lock- (session 1)`. */
export function coordCommandText(command: CoordCommand): string {
  switch (command.type) {
    case 'zk-open':
      return `zk open session for ${command.client} (${command.timeoutMs} ms)`;
    case 'zk-close':
      return `zk close session ${command.session} (${command.reason})`;
    case 'zk-create':
      return `zk create ${command.parent}/lock- by ${command.client} (session ${command.session})`;
    case 'zk-delete':
      return `zk delete ${command.path} by ${command.client}`;
    case 'etcd-grant':
      return `etcd lease grant for ${command.client} (ttl ${command.ttlMs} ms)`;
    case 'etcd-revoke':
      return `etcd lease revoke ${command.lease} (${command.reason})`;
    case 'etcd-txn':
      return `etcd txn put ${command.key} if absent (lease ${command.lease})`;
    case 'etcd-delete':
      return `etcd delete ${command.key} by ${command.client}`;
    case 'etcd-range':
      return `etcd range ${command.prefix} below ${command.below} for ${command.client}`;
  }
}

/** `config +n4 {n1, n2, n3, n4}`: the server added or removed, then the new voters. */
export function configCommandText(command: ConfigCommand): string {
  return `config ${command.op === 'add' ? '+' : '−'}${command.node} {${command.voters.join(', ')}}`;
}

export function lockCommandText(command: LockCommand): string {
  switch (command.type) {
    case 'grant':
      return `grant ${command.key} to ${command.owner} (${command.leaseMs} ms)`;
    case 'release':
      return `release ${command.key} by ${command.owner}`;
    case 'expire':
      return `expire ${command.key} token ${command.token}`;
  }
}

/** Python's repr of a list of strings, for the chapter-style summary lines. */
export function pyList(items: readonly (string | number)[]): string {
  return '[' + items.map((s) => (typeof s === 'number' ? String(s) : `'${s}'`)).join(', ') + ']';
}

const tokenText = (token: number | null) => (token === null ? 'no token' : `token ${token}`);

/** Lock-service lines, in the chapter's fencing-demo wording where it has one. */
export const lockService = {
  applied: (node: string, command: LockCommand, result: ApplyResult): string => {
    switch (command.type) {
      case 'grant':
        return result.type === 'Granted'
          ? `${node} grants ${command.key} to ${command.owner} -> token ${result.token}, lease ${command.leaseMs} ms`
          : `${node} applies grant ${command.key} to ${command.owner}: GrantRejected, the key is held`;
      case 'release':
        return result.type === 'Released'
          ? `${node} releases ${command.key}`
          : result.type === 'NotHolder'
            ? `${node} applies release ${command.key} by ${command.owner}: refused, ${result.holder} holds it with token ${result.token}`
            : `${node} applies release ${command.key}: NotFound`;
      case 'expire':
        return result.type === 'Expired' && result.existed
          ? `${node} expires ${command.key} (token ${command.token})`
          : `${node} applies expire ${command.key} token ${command.token}: nothing removed, token no longer current`;
    }
  },
  busy: (node: string, key: string, client: string, owner: string | null) =>
    `${node} refuses ${key} to ${client}: busy${owner ? ` (held by ${owner})` : ' (a change is pending)'}`,
  ghost: (node: string, key: string, client: string, token: number) =>
    `${node} granted ${key} to ${client} with token ${token}, but ${client} is gone: releasing the ghost lock`,
  leaseRanOut: (node: string, key: string, token: number, owner: string) =>
    `${node} lease on ${key} (token ${token}, ${owner}) ran out by its clock; proposes expire`,
  // Issue 28: the service's failure detector hands a lock over before its lease runs out.
  takeover: (
    node: string,
    key: string,
    token: number,
    owner: string,
    detector: string,
    silentMs: number,
    phi: number | null,
    leftMs: number,
  ) =>
    `${node} suspects ${owner} (${detector}: silent ${silentMs} ms${phi !== null ? `, φ ${phi === Infinity ? '∞' : phi.toFixed(1)}` : ''}) and takes ${key} (token ${token}) over ${leftMs} ms before its lease ends; proposes expire`,
  clientAsks: (client: string, node: string, intent: ClientIntent) =>
    intent.op === 'acquire'
      ? `${client} asks ${node} for ${intent.key} (lease ${intent.leaseMs} ms)`
      : intent.op === 'put'
        ? `${client} asks ${node} to put ${intent.key}=${intent.value}`
        : intent.op === 'get'
          ? `${client} asks ${node} to get ${intent.key} (${intent.mode ?? 'run'} read)`
          : `${client} asks ${node} to release ${'key' in intent ? intent.key : ''}`,
  clientPut: (client: string, key: string, value: string, node: string) => `${client} put ${key}=${value} (via ${node})`,
  clientGot: (client: string, key: string, value: string | null, mode: string, node: string) =>
    `${client} get ${key} -> ${value === null ? 'nothing' : value} (${mode} read via ${node})`,
  clientTimesOut: (client: string, node: string, ms: number, next: string) =>
    `${client} hears nothing from ${node} in ${ms} ms; tries ${next}`,
  redirected: (client: string, node: string, next: string, hinted: boolean) =>
    `${client} is told ${node} is not the leader; tries ${next}${hinted ? '' : ' (no leader known)'}`,
  clientAcquired: (client: string, key: string, token: number, deadline: number) =>
    `${client} acquires ${key} -> token ${token}, its lease ends by t=${deadline} ms`,
  clientBusy: (client: string, key: string) => `${client} tries ${key} -> busy`,
  clientReleaseBusy: (client: string, key: string) => `${client} release ${key} -> busy, a change to it is pending; not released`,
  clientReleased: (client: string, key: string, existed: boolean) =>
    existed ? `${client} released ${key}` : `${client} release ${key} -> not found`,
  clientNotHolder: (client: string, key: string) => `${client} release ${key} -> refused, ${client} does not hold it`,
  notHolder: (node: string, key: string, client: string, holder: string) =>
    `${node} refuses to release ${key} for ${client}: ${holder} holds it`,
  clientPauses: (client: string, ms: number) => `${client} pauses for ${ms} ms (a pause it cannot see)`,
  clientAcquiredLock: (client: string, key: string, token: number | null, deadline: number) =>
    `${client} acquires ${key} -> ${token === null ? 'no token' : `token ${token}`}, its lease ends by t=${deadline} ms`,
  clientLost: (client: string, key: string, why: string) =>
    `${client} learns it no longer holds ${key}: ${
      why === 'session-expired'
        ? 'its session expired'
        : why === 'lease-gone'
          ? 'its lease is gone'
          : why === 'connection-lost'
            ? 'its connection died'
            : why === 'lease-ran-out'
              ? 'its own count of the lease ran out'
              : 'a lower contender is alive'
    }`,
  clientWakes: (client: string, slept: number, key: string | null, remaining: number | null) =>
    `${client} wakes up after ${slept} ms${key !== null && remaining !== null ? `, lease on ${key} remaining ${remaining} ms` : ''}`,
  clientCrashes: (client: string) => `${client} crashes`,
  clientRestarts: (client: string) => `${client} restarts with no locks`,
  clientIgnores: (client: string, intent: ClientIntent) => `${client} is down: ${intent.op} ignored`,
  clientWrites: (client: string, key: string, value: string, token: number | null) =>
    `${client} writes ${key}=${value} with ${tokenText(token)}`,
  storeWrite: (store: string, w: StoreWriteRecord) =>
    w.accepted
      ? `${store} store accepts ${w.key}=${w.value} from ${w.client} (${tokenText(w.token)})${w.leaseEnded ? ', though that lease had ended' : ''}`
      : `${store} store rejects ${w.key}=${w.value} from ${w.client}: ${w.reason}`,
};

/** Invariant-violation sentences: one plain sentence each, naming the nodes and what went wrong. */
/** The protocol features' invariants (featureInvariants.ts): their sentences. */
export const featureInvariant = {
  termRose: (node: string, term: number, cap: number, group: readonly string[], needed: number) =>
    `${node} reached term ${term} while cut off in {${group.join(', ')}} (${group.length} of the ${needed} a pre-vote majority needs), above term ${cap}, the highest its side could reach once the partition began (its terms then, plus one for a pre-vote round already open).`,
  stillLeads: (node: string, term: number, forMs: number, reach: number, needed: number, boundMs: number) =>
    `${node} still leads term ${term} ${forMs} ms after it was cut off from a majority (it reaches ${reach} of the ${needed} it needs); CheckQuorum must step it down within ${boundMs} ms.`,
  twoChanges: (node: string, term: number, first: number, second: number) =>
    `${node} leads term ${term} with two configuration entries not yet committed (indexes ${first} and ${second}); §4.1 allows one change at a time.`,
  electedByMinority: (node: string, term: number, votes: readonly string[], voters: readonly string[]) =>
    `${node} won term ${term} with votes from {${votes.join(', ')}}, which are not a majority of its configuration {${voters.join(', ')}}.`,
  committedByMinority: (node: string, term: number, index: number, holders: readonly string[], voters: readonly string[]) =>
    `${node} (term ${term}) committed index ${index} held by {${holders.join(', ')}}, which are not a majority of its configuration {${voters.join(', ')}}.`,
  leadsWithout: (node: string, term: number, voters: readonly string[], index: number, commitIndex: number) =>
    `${node} leads term ${term} though its configuration {${voters.join(', ')}} (index ${index}, committed: its commit index is ${commitIndex}) does not include it; a server removed steps down once its removal commits and never campaigns (§4.2.2).`,
  noopNotFirst: (node: string, term: number, index: number, text: string) =>
    `${node} leads term ${term}, but its first entry of that term (index ${index}) is ${text}, not its no-op.`,
} as const;

/** What nodes say, judged as they say it (messageInvariants.ts). */
export const messageInvariant = {
  preVoteWhileHearing: (voter: string, candidate: string, leader: string | null, heardAgoMs: number, tMinMs: number) =>
    `${voter} said yes to ${candidate}'s pre-vote while ${leader === null ? 'it led' : `it heard leader ${leader} ${heardAgoMs} ms before, within the shortest election timeout (${tMinMs} ms)`}; §9.6: a node that hears a leader says no.`,
  campaignWithoutMajority: (node: string, term: number, yes: readonly string[], majority: number, roundTerm: number | null) =>
    `${node} started its campaign for term ${term} with ${yes.length === 0 ? 'no yes' : `yeses from {${yes.join(', ')}}`} ${roundTerm === term ? 'to its pre-vote round for it' : roundTerm === null ? 'and no pre-vote round' : `(its latest pre-vote round asked for term ${roundTerm})`}: with its own, fewer than the ${majority} a majority needs; a yes from an earlier round does not count.`,
  backupOffRule: (leader: string, peer: string, conflictTerm: number, conflictIndex: number, from: number, got: number, expected: number) =>
    `${leader} moved ${peer}'s next index from ${from} to ${got} on a rejection naming ${conflictTerm === 0 ? `a log that ends at ${conflictIndex - 1}` : `term ${conflictTerm} from index ${conflictIndex}`}; the rule gives ${expected} (past its own last entry of that term if it holds one, else the follower's first index of it, never forward).`,
  timeoutNowTooEarly: (leader: string, target: string, index: number, term: number, targetLast: number) =>
    `${leader} sent TimeoutNow to ${target}, which does not hold its last entry (index ${index}, term ${term}; ${target}'s log ends at ${targetLast}); §3.10: only once the target is up to date.`,
  leaseOverrun: (
    leader: string,
    client: string,
    key: string,
    round: number,
    sentAt: number | null,
    now: number,
    tMinMs: number,
    driftPct: number,
    marginPct: number,
  ) =>
    `${leader} answered ${client}'s lease read of ${key} at t=${now} ms, ${sentAt === null ? 'with no heartbeat round answered by a majority' : `${now - sentAt} ms after sending round ${round}, the newest a majority answered`}; with its clock at ${driftPct >= 0 ? '+' : ''}${driftPct}% (within the ${marginPct}% margin) the lease must end within the shortest election timeout (${tMinMs} ms), before another leader can be elected (§6.4.1).`,
} as const;

/** The snapshots feature's invariants (snapshotInvariants.ts). */
export const snapshotInvariant = {
  uncommitted: (node: string, index: number, commitIndex: number) =>
    `${node} holds a snapshot up to index ${index}, but only entries up to ${commitIndex} are committed on it (or index ${index} was never committed anywhere).`,
  termDiffers: (node: string, index: number, term: number, committedTerm: number) =>
    `${node}'s snapshot ends at index ${index} with term ${term}, but the entry committed at ${index} has term ${committedTerm}.`,
  stateDiffers: (node: string, index: number, problem: string) =>
    `${node}'s snapshot up to index ${index} is not the lock table the committed entries up to ${index} give: ${problem}.`,
} as const;

export const invariant = {
  /** Each invariant's name, from its manifest (src/sim/model/features/). */
  titles: INVARIANT_TITLES,
  twoLeaders: (term: number, a: string, b: string) => `${a} and ${b} were both elected leader of term ${term}.`,
  logEntryDiffers: (a: string, b: string, index: number, term: number, textA: string, textB: string) =>
    `${a} and ${b} both hold an entry of term ${term} at index ${index}, but ${a} has ${textA} and ${b} has ${textB}.`,
  logPrefixDiffers: (a: string, b: string, index: number, term: number, prevA: number, prevB: number) =>
    `${a} and ${b} both hold an entry of term ${term} at index ${index}, but the entries before it differ (term ${prevA} on ${a}, term ${prevB} on ${b}).`,
  leaderMissesCommitted: (
    leader: string,
    term: number,
    index: number,
    text: string,
    entryTerm: number,
    commitTerm: number,
    has: string | null,
  ) =>
    `${leader} leads term ${term} without ${text} (term ${entryTerm}), committed at index ${index} in term ${commitTerm}; its log has ${has ?? 'nothing'} there.`,
  appliedDiffers: (node: string, index: number, text: string, first: string, firstText: string) =>
    `${node} applied ${text} at index ${index}, but ${first} had applied ${firstText} there.`,
  leaderRewrote: (node: string, term: number, from: number, before: number, after: number) =>
    `${node}, leader of term ${term}, removed or overwrote its own entries from index ${from} (log of ${before} entries became ${after}).`,
  appliedBack: (node: string, from: number, to: number) => `${node}'s applied index moved back from ${from} to ${to} without a restart.`,
  appliedTwice: (node: string, index: number, last: number) =>
    `${node} applied index ${index} again after index ${last}, without a restart.`,
  twoHolders: (node: string, key: string, owner: string, token: number, holder: string, heldToken: number) =>
    `${node} granted ${key} to ${owner} (token ${token}) while its applied log still gives ${key} to ${holder} (token ${heldToken}).`,
  tokenNotIncreasing: (node: string, token: number, last: number) =>
    `${node} issued token ${token} after token ${last}; tokens must increase in apply order.`,
  tokenDiffers: (node: string, index: number, got: number | null, first: string, expected: number | null) =>
    `${node} applied the grant at index ${index} as ${got === null ? 'rejected' : `token ${got}`}, but ${first} applied it as ${expected === null ? 'rejected' : `token ${expected}`}.`,
  expireWrongToken: (node: string, key: string, token: number, holder: string, heldToken: number) =>
    `${node} applied expire ${key} token ${token}, which removed ${holder}'s lock with token ${heldToken}.`,
  fencedWentBack: (client: string, key: string, token: number | null, highest: number) =>
    `the fenced store accepted ${token === null ? 'a write with no token' : `token ${token}`} for ${key} from ${client} after accepting token ${highest}.`,
  commitBack: (node: string, from: number, to: number) => `${node}'s commit index moved back from ${from} to ${to} without a restart.`,
  releaseByOther: (node: string, key: string, by: string, holder: string, token: number) =>
    `${node} applied a release of ${key} by ${by}, which removed ${holder}'s lock with token ${token}.`,
  replyMismatch: (
    client: string,
    node: string,
    op: string,
    key: string,
    outcome: string,
    token: number | null,
    index: number,
    applied: string,
  ) =>
    `${client} was told by ${node} that its ${op} of ${key} is ${outcome}${token !== null ? ` with token ${token}` : ''} at index ${index}, but index ${index} applied ${applied}.`,
  toldForeignToken: (client: string, key: string, token: number, grant: string | null) =>
    `${client} was told it holds ${key} with token ${token}, but ${grant === null ? 'no committed entry granted that token' : `the committed log granted token ${token} for ${grant}`}.`,
  wroteForeignToken: (client: string, key: string, token: number, grant: string | null) =>
    `${client} wrote ${key} with token ${token}, but ${grant === null ? 'no committed entry granted that token' : `the committed log granted token ${token} for ${grant}`}.`,
  tokenToldTwice: (key: string, token: number, first: string, second: string) =>
    `${first} and ${second} were both told they hold ${key} with token ${token}.`,
  leaseOutlasts: (client: string, key: string, token: number, deadline: number, serviceEnd: number) =>
    `${client} counts its lease on ${key} (token ${token}) to t=${deadline} ms, but the service granted it only to t=${serviceEnd} ms.`,
  leaseNotHonoured: (client: string, key: string, deadline: number, what: string) =>
    `${client}'s lease on ${key} runs to t=${deadline} ms, but ${what} with no clock drift configured.`,
  fencedRefusedCurrent: (client: string, key: string, token: number, highest: number | undefined) =>
    `the fenced store refused ${key} from ${client} with token ${token}, though ${highest === undefined ? 'it had accepted no token for it' : `the highest it accepted is ${highest}`}.`,
  notLive: (afterMs: number, stall: string) => `${afterMs} ms after the faults stopped, ${stall}.`,
  overrun: (count: number, fromMs: number, inflight: number, bound: number) =>
    `${count.toLocaleString('en-US')} messages were sent in the simulated second from t=${fromMs} ms (${inflight.toLocaleString('en-US')} in flight), above the run's bound of ${bound.toLocaleString('en-US')}: messages multiply without end.`,
  matchNotHeld: (leader: string, term: number, peer: string, match: number, mine: number | null, theirs: number | null, peerLast: number) =>
    `${leader} (term ${term}) counts ${peer}'s match index as ${match}, but ${peer} ${theirs === null ? `holds no entry there (its log ends at ${peerLast})` : `holds an entry of term ${theirs} there, not ${mine}`}; matchIndex must be what the peer holds.`,
  entriesDropped: (node: string, from: number, to: number, base: number) =>
    `${node} dropped entries ${from}..${to} of its log with no conflicting entry replacing them${base > 0 ? ` (its snapshot ends at ${base})` : ''}; an entry goes only when it conflicts with the leader's (Figure 2), and an installed snapshot keeps the entries after it that the log holds (§5.1).`,
  engineThrew: (error: string) => `the simulation threw ${error}.`,
  /** What an exception the engine threw says, as `engineThrew` names it. */
  thrown: (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  /** `t= 1234 ms VIOLATION Election Safety: ...`, in the event-line format. */
  line: (t: number, title: string, sentence: string) => eventLine(t, `VIOLATION ${title}: ${sentence}`),
};

/** Sentences about the clients' history and its linearizability verdicts. */
export const history = {
  /** `#5 B acquire job:42 → granted 2 (13000-13045 ms)`. */
  opText: (o: {
    readonly id: number;
    readonly client: string;
    readonly op: string;
    readonly key: string;
    readonly value: string | null;
    readonly token: number | null;
    readonly store: string | null;
    readonly invokeMs: number;
    readonly completeMs: number | null;
    readonly result: string | null;
    readonly readMode?: string;
  }): string => {
    const when = o.completeMs === null ? `from ${o.invokeMs} ms, never completed` : `${o.invokeMs}-${o.completeMs} ms`;
    if (o.op === 'expire') return `#${o.id} ${o.client} expires ${o.key} token ${o.token} (from ${o.invokeMs} ms)`;
    if (o.op === 'ghost-release') return `#${o.id} ${o.client} releases ghost lock ${o.key} token ${o.token} (from ${o.invokeMs} ms)`;
    if (o.op === 'write') {
      const token = o.token === null ? 'no token' : `token ${o.token}`;
      return `#${o.id} ${o.client} writes ${o.key}=${o.value} with ${token} to ${o.store} → ${o.result ?? '?'} (${when})`;
    }
    if (o.op === 'put') return `#${o.id} ${o.client} put ${o.key}=${o.value} → ${o.result ?? '?'} (${when})`;
    if (o.op === 'get')
      return `#${o.id} ${o.client} get ${o.key}${o.readMode !== undefined ? ` (${o.readMode})` : ''} → ${o.result === null ? '?' : (o.value ?? 'nothing')} (${when})`;
    const result = o.result === null ? '?' : o.result === 'granted' ? `granted ${o.token}` : o.result;
    return `#${o.id} ${o.client} ${o.op} ${o.key} → ${result} (${when})`;
  },
  /** What a failed verdict means, for a model and the ops of its minimal subset. */
  notLinearizable: (model: string, key: string, ops: readonly string[]) =>
    `no order of these operations on ${key} satisfies the ${model}: ${ops.join('; ')}.`,
  /** `linearizable: locks yes, fenced yes, unfenced NO (#0 #4 #5 #9 on job:42), ... register n/a`. */
  verdictLine: (
    report: Readonly<
      Record<
        string,
        | {
            readonly linearizable: boolean | 'unknown' | 'n/a';
            readonly subset?: readonly number[];
            readonly key?: string;
            readonly staleRead?: number;
            readonly leaseRead?: true;
          }
        | undefined
      >
    >,
  ): string =>
    'linearizable: ' +
    Object.entries(report)
      .map(([name, v]) => {
        if (v === undefined) return `${name} ?`;
        if (v.linearizable === true) return `${name} yes`;
        if (v.linearizable === false) {
          const stale =
            v.staleRead !== undefined ? `; stale read #${v.staleRead}${v.leaseRead === true ? ', a lease read: a finding' : ''}` : '';
          return `${name} NO (${(v.subset ?? []).map((id) => `#${id}`).join(' ')} on ${v.key}${stale})`;
        }
        return `${name} ${v.linearizable}`;
      })
      .join(', '),
  modelNames: {
    locks: 'lock-service model',
    fenced: 'strict mutual exclusion model (fenced store)',
    unfenced: 'strict mutual exclusion model (unfenced store)',
    fencedOrder: 'fencing-order model (fenced store)',
    unfencedOrder: 'fencing-order model (unfenced store)',
    register: 'register model',
  } as Readonly<Record<string, string>>,
};

// -- Paxos detail sentences (the page's event log formats them; the rest is describePaxos.ts) --
const b = ballotText;
export const slotsText = (slots: readonly number[]): string => {
  if (slots.length === 0) return 'no slot';
  const sorted = [...slots].sort((x, y) => x - y);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  return sorted.length === last - first + 1 && sorted.length > 2
    ? `slots ${first}-${last}`
    : `slot${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`;
};

function describePaxosDetail(d: DetailEvent): string {
  switch (d.kind) {
    case 'paxos-promised': {
      const v = d.values;
      return `acceptor ${v.node} promises ballot ${b(v.ballot)} to ${v.proposer} (it had promised ${b(v.previous)}; ${v.accepted === 0 ? 'it accepted nothing yet' : `it accepted a value in ballot ${b(v.accepted)}, which the promise carries`})`;
    }
    case 'paxos-prepare-refused': {
      const v = d.values;
      return `acceptor ${v.node} refused Prepare ${b(v.ballot)} from ${v.proposer}: it promised ballot ${b(v.promised)}`;
    }
    case 'paxos-accepted': {
      const v = d.values;
      return `acceptor ${v.node} accepts ${v.value} in slot ${v.slot} at ballot ${b(v.ballot)} from ${v.proposer}`;
    }
    case 'paxos-accept-refused': {
      const v = d.values;
      return `acceptor ${v.node} refused Accept ${b(v.ballot)} of ${v.value} from ${v.proposer}: it promised ballot ${b(v.promised)}`;
    }
    case 'paxos-adopted': {
      const v = d.values;
      if (v.ignored === true)
        return `${v.node} ignores ${v.value}, accepted in ballot ${b(v.from)} as ${v.acceptor}'s promise says, and proposes its own ${v.own ?? 'value'} (the bug paxos-own-value)`;
      return `${v.node} must re-propose ${v.value} in slot ${v.slot}: ${v.acceptor}'s promise carries it, accepted in ballot ${b(v.from)}${v.own !== null && v.own !== v.value ? ` (its own ${v.own} waits)` : ''}`;
    }
    case 'paxos-proposed': {
      const v = d.values;
      return `${v.node} proposes ${v.value} in slot ${v.slot} at ballot ${b(v.ballot)}${v.promises.length > 0 ? ` (promises from ${v.promises.join(', ')})` : ''}`;
    }
    case 'paxos-learned': {
      const v = d.values;
      return v.from !== null
        ? `${v.node} learns slot ${v.slot} = ${v.value} from leader ${v.from}`
        : `${v.node} learns slot ${v.slot} = ${v.value} (accepted in ballot ${b(v.ballot)} by ${v.acceptors.join(', ')})`;
    }
    case 'paxos-preempted': {
      const v = d.values;
      return `${v.node}'s ballot ${b(v.ballot)} is beaten in phase ${v.phase}: ${v.by} promised ballot ${b(v.promised)}`;
    }
    case 'paxos-backoff': {
      const v = d.values;
      return `${v.node} backs off for ${v.waitMs} ms (random in ${v.range[0]}-${v.range[1]} ms) before preparing again`;
    }
    case 'paxos-noop-filled': {
      const v = d.values;
      return `${v.node} fills slot ${v.slot} with a no-op: no promise carries a value for it`;
    }
    case 'paxos-applied': {
      const v = d.values;
      return `${v.node} applies slot ${v.slot}: ${v.value} (state ${v.state})`;
    }
    default:
      return d.kind;
  }
}

/** The other lock services' invariant sentences (check/lockServiceInvariants.ts). */
export const lockServiceInvariant = {
  twoHolders: (key: string, a: string, aEnds: number, b: string, bEnds: number) =>
    `${a} (its lease runs to t=${aEnds} ms) and ${b} (to t=${bEnds} ms) both hold ${key}, and neither was paused past its lease nor did any clock drift.`,
  tokenBack: (key: string, first: string, firstToken: number, next: string, nextToken: number) =>
    `${next} holds ${key} with token ${nextToken} after ${first} held it with token ${firstToken}; tokens must increase from holder to holder.`,
  deletedOthers: (server: string, key: string, by: string, value: string) =>
    `${server} deleted ${key} for ${by}, but the key held ${value}, another client's value.`,
  redlockOutlives: (client: string, key: string, deadline: number, validOn: number, quorum: number) =>
    `${client} counts its Redlock on ${key} to t=${deadline} ms, but only ${validOn} instance${validOn === 1 ? '' : 's'} (of the ${quorum} it needs) keep the key that long, with every clock exact.`,
  unlockedOthers: (server: string, key: string, session: number, holder: number) =>
    `${server} let session ${session} unlock ${key}, which session ${holder} held.`,
  ephemeralOutlives: (node: string, path: string, session: number, client: string) =>
    `${node} still has ${client}'s ephemeral ${path}, but its session ${session} is closed.`,
  holderNotLowest: (client: string, key: string, mine: string, lowest: string) =>
    `${client} was told it holds ${key} with ${mine}, but ${lowest} is lower and still there.`,
  revisionBack: (node: string, from: number, to: number) => `${node}'s revision went back from ${from} to ${to} without a restart.`,
  keyOutlivesLease: (node: string, key: string, lease: number) =>
    `${node} still has ${key}, but the lease ${lease} it was attached to is revoked.`,
  heartbeatBack: (member: string, other: string, from: number, to: number) =>
    `${member}'s view of ${other}'s heartbeat went back from ${from} to ${to}; counters only grow.`,
  lockWithoutSession: (server: string, key: string, session: number) =>
    `${server} still holds the advisory lock on ${key} for session ${session}, which has ended.`,
};
