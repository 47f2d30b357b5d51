/**
 * Named questions about a run's state, used by tours to end beats ("until a leader of term 2
 * exists") and to check narration. Each answers true, or false with one sentence saying what the
 * run shows instead. They read only state, never event text (kinds and values only).
 */
import { commandText } from '../../model/describe';
import type { EventKind } from '../../model/events';
import { ballotText } from '../../model/ballot';
import { isPaxosRun, type AnyRun } from '../../run/run';
import type { PaxosSimulation } from '../../run/paxosSimulation';
import type { StoreId } from '../../service/stores';
import { checkHistory, type VerdictName } from '../../check/linearizability/check';
import { reentrantLocks } from '../../model/config';

export type PredicateCall =
  | { readonly p: 'leaderOfTerm'; readonly term: number }
  | { readonly p: 'leaderIs'; readonly node: string; readonly term?: number }
  | { readonly p: 'noLeader' }
  | { readonly p: 'role'; readonly node: string; readonly role: 'follower' | 'candidate' | 'leader' }
  | { readonly p: 'termAtLeast'; readonly term: number; readonly node?: string }
  | { readonly p: 'termIs'; readonly term: number; readonly node?: string }
  | { readonly p: 'committedOnAll'; readonly index: number }
  | { readonly p: 'logIs'; readonly node: string; readonly entries: readonly string[] }
  | { readonly p: 'commitIndexIs'; readonly node: string; readonly index: number }
  | { readonly p: 'logEqualsOnAll' }
  | { readonly p: 'nodeDown'; readonly node: string }
  | { readonly p: 'nodeUp'; readonly node: string }
  | { readonly p: 'fencedRefused'; readonly count?: number }
  | { readonly p: 'storeValue'; readonly store: StoreId; readonly key: string; readonly value: string }
  | { readonly p: 'clientHolds'; readonly client: string; readonly key: string; readonly token?: number }
  | { readonly p: 'lockHeldBy'; readonly key: string; readonly owner: string | null }
  | { readonly p: 'happened'; readonly kind: EventKind; readonly subject?: string; readonly count?: number }
  | { readonly p: 'electionSafe' }
  /** The clients' history so far passes (or fails) one linearizability verdict. */
  | { readonly p: 'linearizable'; readonly verdict: VerdictName; readonly holds: boolean }
  | { readonly p: 'not'; readonly of: PredicateCall }
  /** Snapshots (§5): the node's snapshot ends at this index (null: it holds none). */
  | { readonly p: 'snapshotIs'; readonly node: string; readonly index: number | null }
  /** Either protocol: at least `count` (default 1) messages of this type were sent so far. */
  | { readonly p: 'sentAtLeast'; readonly type: string; readonly count: number }
  // Paxos runs (src/sim/paxos/): what the run first learned was chosen in a slot (default 1) ...
  | { readonly p: 'chosen'; readonly value: string; readonly slot?: number }
  /** ... how many acceptors hold this value as their accepted one in the slot now ... */
  | { readonly p: 'acceptedBy'; readonly value: string; readonly count: number; readonly slot?: number }
  /** ... a node's proposer phase ... */
  | { readonly p: 'phase'; readonly node: string; readonly phase: 'idle' | 'preparing' | 'accepting' | 'leading' | 'backoff' | 'done' }
  /** ... and what a node's learner learned in a slot. */
  | { readonly p: 'learned'; readonly node: string; readonly slot: number; readonly value: string };

/** true, or the sentence saying how the state differs. */
export type Verdict = true | string;

const logText = (entries: readonly string[]) => (entries.length === 0 ? 'nothing' : entries.join(', '));

export function evaluate(call: PredicateCall, run: AnyRun): Verdict {
  if (isPaxosRun(run)) return evaluatePaxos(call, run);
  const sim = run;
  const c = sim.cluster;
  const leader = c.leader();
  const leaderText = leader === null ? 'there is no leader' : `${leader.id} leads term ${leader.term}`;
  const node = (id: string) => c.node(id);
  const entriesOf = (id: string) => node(id).log.map((e) => commandText(e.command));
  switch (call.p) {
    case 'leaderOfTerm':
      return leader !== null && leader.term === call.term ? true : `no leader of term ${call.term}: ${leaderText}`;
    case 'leaderIs':
      return leader !== null && leader.id === call.node && (call.term === undefined || leader.term === call.term)
        ? true
        : `${call.node} is not the leader${call.term !== undefined ? ` of term ${call.term}` : ''}: ${leaderText}`;
    case 'noLeader':
      return leader === null ? true : `there is a leader: ${leaderText}`;
    case 'role': {
      const n = node(call.node);
      return n.alive && n.role === call.role ? true : `${call.node} is ${n.alive ? `a ${n.role}` : 'down'}, not a ${call.role}`;
    }
    case 'termAtLeast':
    case 'termIs': {
      const ids = call.node !== undefined ? [call.node] : c.config.nodeIds;
      for (const id of ids) {
        const t = node(id).term;
        const ok = call.p === 'termIs' ? t === call.term : t >= call.term;
        if (!ok) return `${id} is in term ${t}, not ${call.p === 'termIs' ? '' : 'at least '}${call.term}`;
      }
      return true;
    }
    case 'committedOnAll': {
      for (const n of c.nodes)
        if (n.commitIndex < call.index) return `${n.id} has committed only up to index ${n.commitIndex}, not ${call.index}`;
      return true;
    }
    case 'logIs': {
      const got = entriesOf(call.node);
      return got.join('\u0000') === call.entries.join('\u0000') && got.length === call.entries.length
        ? true
        : `${call.node}'s log is ${logText(got)}, not ${logText(call.entries)}`;
    }
    case 'commitIndexIs': {
      const got = node(call.node).commitIndex;
      return got === call.index ? true : `${call.node}'s commit index is ${got}, not ${call.index}`;
    }
    case 'logEqualsOnAll': {
      const first = entriesOf(c.nodes[0].id).join('\u0000');
      for (const n of c.nodes)
        if (entriesOf(n.id).join('\u0000') !== first) return `${n.id}'s log (${logText(entriesOf(n.id))}) differs from ${c.nodes[0].id}'s`;
      return true;
    }
    case 'nodeDown':
      return node(call.node).alive ? `${call.node} is up` : true;
    case 'nodeUp':
      return node(call.node).alive ? true : `${call.node} is down`;
    case 'fencedRefused': {
      const refused = sim.lockService?.fenced.rejected ?? 0;
      const want = call.count ?? 1;
      return refused >= want ? true : `the fenced store refused ${refused} write(s), not ${want}`;
    }
    case 'storeValue': {
      const store = sim.lockService === null ? null : call.store === 'fenced' ? sim.lockService.fenced : sim.lockService.unfenced;
      const got = store?.values.get(call.key)?.value;
      return got === call.value ? true : `the ${call.store} store has ${call.key}=${got ?? '(nothing)'}, not ${call.value}`;
    }
    case 'clientHolds': {
      const h = sim.lockService?.client(call.client).holdings.get(call.key);
      if (h === undefined) return `${call.client} does not believe it holds ${call.key}`;
      return call.token === undefined || h.token === call.token
        ? true
        : `${call.client} holds ${call.key} with token ${h.token}, not ${call.token}`;
    }
    case 'lockHeldBy': {
      if (leader === null || sim.lockService === null) return 'there is no leader to ask about the lock table';
      const owner = sim.lockService.machineOf(leader).locks.get(call.key)?.owner ?? null;
      return owner === call.owner
        ? true
        : `the leader's lock table gives ${call.key} to ${owner ?? 'nobody'}, not ${call.owner ?? 'nobody'}`;
    }
    case 'happened': {
      let n = 0;
      for (const e of c.events) if (e.kind === call.kind && (call.subject === undefined || e.subjects.includes(call.subject))) n++;
      const want = call.count ?? 1;
      return n >= want ? true : `"${call.kind}"${call.subject ? ` for ${call.subject}` : ''} happened ${n} time(s), not ${want}`;
    }
    case 'electionSafe':
      return c.electionSafetyHolds() ? true : 'two leaders were elected in one term';
    case 'linearizable': {
      if (sim.lockService === null) return 'this run has no clients, so no history';
      const got = checkHistory(sim.lockService.history.ops, { reentrant: reentrantLocks(c.config) })[call.verdict]?.linearizable;
      return got === call.holds ? true : `the ${call.verdict} verdict is ${String(got)}`;
    }
    case 'not': {
      const inner = evaluate(call.of, sim);
      return inner === true ? `it holds that ${describeCall(call.of)}` : true;
    }
    case 'sentAtLeast':
      return sentAtLeast(call, c.sent);
    case 'chosen':
    case 'acceptedBy':
    case 'phase':
    case 'learned':
      return `${describeCall(call)} is a question about a Paxos run, and this run is Raft`;
    case 'snapshotIs': {
      const got = node(call.node).snapshot?.index ?? null;
      return got === call.index
        ? true
        : `${call.node}'s snapshot ${got === null ? 'does not exist' : `ends at index ${got}`}, not ${call.index === null ? 'none' : `at ${call.index}`}`;
    }
  }
}

function sentAtLeast(call: { readonly type: string; readonly count: number }, sent: Readonly<Record<string, number>>): Verdict {
  const n = sent[call.type] ?? 0;
  return n >= call.count ? true : `${n} ${call.type} message(s) were sent, not ${call.count}`;
}

/**
 * The questions a Paxos run answers: its own (chosen, accepted, phase, learned) and those that
 * mean the same in both protocols (a node up or down, an event, a leader in Multi-Paxos).
 */
function evaluatePaxos(call: PredicateCall, sim: PaxosSimulation): Verdict {
  const c = sim.cluster;
  const leader = c.leader();
  const leaderText = leader === null ? 'there is no leader' : `${leader.id} leads with ballot ${ballotText(leader.ballot)}`;
  switch (call.p) {
    case 'chosen': {
      const slot = call.slot ?? 1;
      const got = c.chosen.find((x) => x.slot === slot);
      return got?.value === call.value
        ? true
        : `slot ${slot} has ${got === undefined ? 'nothing chosen' : `${got.value} chosen`}, not ${call.value}`;
    }
    case 'acceptedBy': {
      const slot = call.slot ?? 1;
      const holders = c.nodes.filter((n) => n.acceptor.accepted.get(slot)?.value === call.value).map((n) => n.id);
      return holders.length >= call.count
        ? true
        : `${holders.length} acceptor(s) hold ${call.value} in slot ${slot}${holders.length > 0 ? ` (${holders.join(', ')})` : ''}, not ${call.count}`;
    }
    case 'phase': {
      const n = c.node(call.node);
      return n.alive && n.phase === call.phase ? true : `${call.node} is ${n.alive ? n.phase : 'down'}, not ${call.phase}`;
    }
    case 'learned': {
      const got = c.node(call.node).learner.chosen.get(call.slot);
      return got === call.value ? true : `${call.node} learned ${got ?? 'nothing'} in slot ${call.slot}, not ${call.value}`;
    }
    case 'sentAtLeast':
      return sentAtLeast(call, c.sent);
    case 'leaderIs':
      return leader !== null && leader.id === call.node ? true : `${call.node} is not the leader: ${leaderText}`;
    case 'noLeader':
      return leader === null ? true : `there is a leader: ${leaderText}`;
    case 'nodeDown':
      return c.node(call.node).alive ? `${call.node} is up` : true;
    case 'nodeUp':
      return c.node(call.node).alive ? true : `${call.node} is down`;
    case 'happened': {
      let n = 0;
      for (const e of c.events) if (e.kind === call.kind && (call.subject === undefined || e.subjects.includes(call.subject))) n++;
      const want = call.count ?? 1;
      return n >= want ? true : `"${call.kind}"${call.subject ? ` for ${call.subject}` : ''} happened ${n} time(s), not ${want}`;
    }
    case 'not': {
      const inner = evaluatePaxos(call.of, sim);
      return inner === true ? `it holds that ${describeCall(call.of)}` : true;
    }
    default:
      return `${describeCall(call)} is a question about a Raft run, and this run is ${c.protocol}`;
  }
}

/** The predicate as a short phrase, for sentences. */
export function describeCall(call: PredicateCall): string {
  switch (call.p) {
    case 'leaderOfTerm':
      return `a leader of term ${call.term} exists`;
    case 'leaderIs':
      return `${call.node} leads${call.term !== undefined ? ` term ${call.term}` : ''}`;
    case 'noLeader':
      return 'there is no leader';
    case 'role':
      return `${call.node} is a ${call.role}`;
    case 'termAtLeast':
      return `${call.node ?? 'every node'} is in term ${call.term} or later`;
    case 'termIs':
      return `${call.node ?? 'every node'} is in term ${call.term}`;
    case 'committedOnAll':
      return `every node has committed index ${call.index}`;
    case 'logIs':
      return `${call.node}'s log is ${logText(call.entries)}`;
    case 'commitIndexIs':
      return `${call.node}'s commit index is ${call.index}`;
    case 'logEqualsOnAll':
      return 'every log is the same';
    case 'nodeDown':
      return `${call.node} is down`;
    case 'nodeUp':
      return `${call.node} is up`;
    case 'fencedRefused':
      return 'the fenced store refused a write';
    case 'storeValue':
      return `the ${call.store} store has ${call.key}=${call.value}`;
    case 'clientHolds':
      return `${call.client} holds ${call.key}${call.token !== undefined ? ` with token ${call.token}` : ''}`;
    case 'lockHeldBy':
      return `the lock table gives ${call.key} to ${call.owner ?? 'nobody'}`;
    case 'happened':
      return `"${call.kind}" happened${call.subject ? ` for ${call.subject}` : ''}`;
    case 'electionSafe':
      return 'at most one leader per term';
    case 'linearizable':
      return `the history ${call.holds ? 'passes' : 'fails'} the ${call.verdict} check`;
    case 'not':
      return `not (${describeCall(call.of)})`;
    case 'snapshotIs':
      return call.index === null ? `${call.node} holds no snapshot` : `${call.node}'s snapshot ends at index ${call.index}`;
    case 'sentAtLeast':
      return `at least ${call.count} ${call.type} message(s) were sent`;
    case 'chosen':
      return `${call.value} is chosen in slot ${call.slot ?? 1}`;
    case 'acceptedBy':
      return `${call.count} acceptors hold ${call.value} in slot ${call.slot ?? 1}`;
    case 'phase':
      return `${call.node} is ${call.phase}`;
    case 'learned':
      return `${call.node} learned ${call.value} in slot ${call.slot}`;
  }
}
