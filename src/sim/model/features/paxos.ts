/**
 * The manifest of the second protocol family: Paxos (Lamport, "Paxos Made Simple", 2001) —
 * single-decree Paxos (§2) and Multi-Paxos with a stable leader (§3). It is not one of Raft's
 * switchable features (FEATURES): a run is Raft or Paxos (`SimConfig.protocol`), so index.ts
 * keeps its lists apart (PAXOS_BUGS, PAXOS_INVARIANTS, PAXOS_PSEUDOCODE) and every Raft list, the
 * Raft bugs menu and the swarm's draws stay exactly what they were. Data only, like every manifest.
 */
import { line, type BugManifest, type InvariantManifest, type SectionText } from './types';

/** What a protocol family lists: the shape of a feature's manifest without the feature switch. */
export interface ProtocolManifest {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly bugs: readonly (BugManifest & { readonly protocols: readonly string[] })[];
  readonly invariants: readonly InvariantManifest[];
  readonly pseudocode: readonly (SectionText & { readonly protocols: readonly string[] })[];
  readonly cites: readonly string[];
  readonly details: readonly string[];
}

export const paxos = {
  name: 'paxos',
  title: 'Paxos',
  source: 'Lamport, "Paxos Made Simple" (2001)',
  bugs: [
    // §2.2, P2c: a proposer must propose the value of the highest-numbered proposal among the
    // promises it got. Ignoring it lets a second value be chosen.
    {
      name: 'paxos-own-value',
      flag: 'ownValue',
      blurb: 'a proposer proposes its own value even when a promise carries an accepted one',
      faults: ['paxos-duel', 'paxos-crash'],
      // Seen by (test/paxos-fuzz.test.ts finds each within 200 runs of fuzz seed 1):
      caughtBy: ['paxos-chosen-stays', 'paxos-one-value'],
      protocols: ['paxos', 'multi-paxos'],
    },
    // §2.2: an acceptor "can accept a proposal numbered n iff it has not responded to a prepare
    // request having a number greater than n".
    {
      name: 'paxos-accept-below-promise',
      flag: 'acceptBelowPromise',
      blurb: 'an acceptor accepts a ballot below the one it promised',
      faults: ['paxos-duel'],
      // Seen by (test/paxos-fuzz.test.ts finds each within 200 runs of fuzz seed 1):
      caughtBy: ['paxos-promise-kept'],
      protocols: ['paxos', 'multi-paxos'],
    },
    // §2.3 end: "an acceptor must remember this information even if it fails and then restarts".
    {
      name: 'paxos-forget-promise',
      flag: 'forgetPromise',
      blurb: 'a restart loses the acceptor’s promise and accepted values',
      faults: ['paxos-crash'],
      // Seen by (test/paxos-fuzz.test.ts finds each within 200 runs of fuzz seed 1):
      caughtBy: ['paxos-chosen-stays', 'paxos-one-value'],
      protocols: ['paxos', 'multi-paxos'],
    },
    // §3: only a leader that has finished phase 1 for every slot may skip it for new commands.
    {
      name: 'multipaxos-skip-prepare',
      flag: 'skipPrepare',
      blurb: 'a new Multi-Paxos leader skips phase 1 and starts proposing at once',
      faults: ['paxos-crash'],
      // Seen by (test/paxos-fuzz.test.ts finds each within 200 runs of fuzz seed 1):
      caughtBy: ['paxos-chosen-stays', 'paxos-one-value'],
      protocols: ['multi-paxos'],
    },
  ],
  invariants: [
    { id: 'paxos-one-value', title: 'At most one value is chosen per slot' },
    { id: 'paxos-promise-kept', title: 'An acceptor never accepts below its promise' },
    { id: 'paxos-chosen-stays', title: 'A chosen value stays chosen' },
    { id: 'paxos-learned-chosen', title: 'Learners learn only the chosen value' },
    { id: 'paxos-engine-crash', title: 'The engine never throws' },
  ],
  pseudocode: [
    {
      id: 'px.proposer',
      title: 'Proposer',
      source: 'Paxos Made Simple §2.2 (phases 1a and 2a)',
      protocols: ['paxos', 'multi-paxos'],
      lines: [
        line('px.prepare', 0, 'pick a ballot n above any seen (round + 1, my number): send Prepare(n) to all acceptors'),
        line('px.quorum', 0, 'on Promise(n) from a majority of acceptors:'),
        line('px.adopt', 1, 'if a promise carries an accepted value: propose the one with the highest ballot'),
        line('px.own', 1, 'else: propose my own value'),
        line('px.accept', 1, 'send Accept(n, v) to all acceptors'),
        line('px.preempted', 0, 'on Nack(promised m > n): ballot n is beaten'),
        line('px.backoff', 1, 'with back-off: wait a random time, then prepare again; without: prepare again at once'),
        line('px.retry', 0, 'no majority within the retry timeout: prepare again with a higher ballot'),
      ],
    },
    {
      id: 'px.acceptor',
      title: 'Acceptor',
      source: 'Paxos Made Simple §2.2 (phases 1b and 2b), §2.3',
      protocols: ['paxos', 'multi-paxos'],
      lines: [
        line('px.promise', 0, 'on Prepare(n): if n > promised: promised = n; reply Promise(n, what I accepted)'),
        line('px.refuse.prepare', 1, 'else: reply Nack(promised)'),
        line('px.accepts', 0, 'on Accept(n, v): if n ≥ promised: promised = n; accepted = (n, v); tell the learners'),
        line('px.refuse.accept', 1, 'else: reply Nack(promised)'),
        line('px.persist', 0, 'promised and accepted live on stable storage: a restart keeps them'),
      ],
    },
    {
      id: 'px.learner',
      title: 'Learner',
      source: 'Paxos Made Simple §2.3',
      protocols: ['paxos', 'multi-paxos'],
      lines: [line('px.learn', 0, 'on Accepted(n, v) from a majority of acceptors for one ballot n: v is chosen; learn it')],
    },
    {
      id: 'mp',
      title: 'Multi-Paxos leader',
      source: 'Paxos Made Simple §3',
      protocols: ['multi-paxos'],
      lines: [
        line('mp.elect', 0, 'no heartbeat for a random timeout: Prepare(n) for every slot from the first not learned'),
        line('mp.recover', 0, "on promises from a majority: re-propose each slot's highest-ballot accepted value"),
        line('mp.noop', 1, 'a slot no promise carries (a gap): propose a no-op'),
        line('mp.lead', 0, 'a new command takes the next slot: Accept at once, no Prepare (phase 1 covers every slot)'),
        line('mp.heartbeat', 0, 'every heartbeat interval: Accept with no values, naming the slots chosen since'),
        line('mp.stepdown', 0, 'on a higher ballot (Nack or Prepare): stop leading'),
        line('mp.apply', 0, 'apply chosen slots in order, never past a gap, to the state machine'),
      ],
    },
  ],
  cites: [
    'px.prepare',
    'px.quorum',
    'px.adopt',
    'px.own',
    'px.accept',
    'px.preempted',
    'px.backoff',
    'px.retry',
    'px.promise',
    'px.refuse.prepare',
    'px.accepts',
    'px.refuse.accept',
    'px.persist',
    'px.learn',
    'mp.elect',
    'mp.recover',
    'mp.noop',
    'mp.lead',
    'mp.heartbeat',
    'mp.stepdown',
    'mp.apply',
  ],
  details: [
    'paxos-promised',
    'paxos-prepare-refused',
    'paxos-accepted',
    'paxos-accept-refused',
    'paxos-adopted',
    'paxos-proposed',
    'paxos-learned',
    'paxos-preempted',
    'paxos-backoff',
    'paxos-noop-filled',
    'paxos-applied',
  ],
} as const satisfies ProtocolManifest;
