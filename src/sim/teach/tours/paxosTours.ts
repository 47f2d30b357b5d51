/**
 * The Paxos tours (issue 29): Lamport's "Paxos Made Simple" told on the same core as the Raft
 * tours, for a student who has never seen Paxos. A ballot reads "1.5": round 1 of proposer n5
 * (model/ballot.ts), so two proposers never pick the same one and the higher round wins. Every
 * claim is an `expect` predicate the unit tests check (test/tours.test.ts).
 */
import { makeConfig } from '../../model/config';
import type { Tour } from './types';

// The same commands and the same leader crash for the side-by-side tour's two runs.
const SIDE_BY_SIDE = '@400 submit x=1; @500 submit x=2; @600 submit x=3; @700 crash n2; @1100 submit x=4';

export const PAXOS_TOURS: readonly Tour[] = [
  {
    name: 'paxos-re-propose',
    title: 'Paxos: why a proposer must re-propose an accepted value',
    intro:
      'Single-decree Paxos chooses one value. Any node may propose; a value is **chosen** once a majority of acceptors accepted it. Watch why a second proposer may not simply propose its own value.',
    config: makeConfig({ seed: 42, protocol: 'paxos' }),
    beats: [
      {
        narration:
          'The network is cut: {n4} and {n5} hear nothing. A client gives **A** to {n1}. {n1} picks **ballot 1.1** (round 1, proposer n1) and sends **Prepare**; {n1}, {n2} and {n3} **promise** to ignore lower ballots — 3 of 5, a majority. {n1} sends **Accept(1.1, A)**, they accept, and **A is chosen**.',
        actions: '@5 partition n1,n2,n3 | n4,n5; @10 propose A to n1',
        until: { when: { p: 'chosen', value: 'A' } },
        highlight: { node: 'n1' },
        expect: [
          { p: 'chosen', value: 'A' },
          { p: 'acceptedBy', value: 'A', count: 3 },
          { p: 'not', of: { p: 'acceptedBy', value: 'A', count: 4 } },
        ],
      },
      {
        narration:
          'The network heals. A client gives **B** to {n5}, which never heard of A. It sends Prepare with **ballot 1.5**, higher than 1.1. Any majority that promises must include one of {n1}, {n2}, {n3} — **two majorities always overlap** — and that promise carries what it accepted: **A in ballot 1.1**.',
        actions: '@150 heal; @200 propose B to n5',
        until: { when: { p: 'phase', node: 'n5', phase: 'accepting' } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'phase', node: 'n5', phase: 'accepting' },
          { p: 'happened', kind: 'paxos-prepare', subject: 'n5' },
        ],
      },
      {
        narration:
          'So {n5} sends **Accept(1.5, A)**, not B: a proposer must re-propose the value of the **highest-ballot** accepted proposal among its promises (rule P2c). Every acceptor now holds A: **a chosen value stays chosen**. B is lost — its client must try again — but the cluster never disagrees.',
        until: { atMs: 300 },
        moment: { when: { p: 'acceptedBy', value: 'A', count: 5 } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'acceptedBy', value: 'A', count: 5 },
          { p: 'chosen', value: 'A' },
          { p: 'learned', node: 'n4', slot: 1, value: 'A' },
        ],
      },
      {
        narration:
          '**What if** {n5} ignored the promise and proposed its own value? Rewind with the bug **paxos-own-value**: {n5} sends Accept(1.5, B), a majority accepts it, and **B is chosen too** — two values chosen for one decision. The Invariants tab turns red.',
        branch: { fromBeat: 2, change: { bugs: ['paxos-own-value'] } },
        until: { atMs: 300 },
        highlight: { panel: 'invariants' },
        expect: [
          { p: 'acceptedBy', value: 'B', count: 3 },
          { p: 'chosen', value: 'A' },
        ],
      },
    ],
  },
  {
    name: 'paxos-duel',
    title: 'Paxos: dueling proposers',
    intro:
      'Paxos is always safe, but progress is not guaranteed: two proposers can keep beating each other’s ballots. This is the liveness gap the FLP result says no protocol can close for every run.',
    config: makeConfig({ seed: 17, protocol: 'paxos' }),
    beats: [
      {
        narration:
          'Two clients give **v=1** to {n1} and **v=2** to {n5} at the same moment. Each sends Prepare. {n5}’s ballot 1.5 beats {n1}’s 1.1, so acceptors answer {n1} with **Nack**: {n1} is **pre-empted** and prepares again at once with **ballot 2.1**, which in turn pre-empts {n5}.',
        actions: '@10 propose v=1 to n1; @10 propose v=2 to n5',
        until: { when: { p: 'happened', kind: 'paxos-preempted', count: 2 } },
        highlight: { node: 'n1' },
        expect: [
          { p: 'happened', kind: 'paxos-preempted', subject: 'n1' },
          { p: 'happened', kind: 'paxos-preempted', subject: 'n5' },
          { p: 'not', of: { p: 'chosen', value: 'v=2' } },
        ],
      },
      {
        narration:
          'They keep at it: each new Prepare makes the acceptors promise a higher ballot, so the other’s Accept is refused. Here it takes **nine pre-emptions**: only {n5}’s **ballot 9.5** reaches a majority, and **v=2 is chosen at 187 ms**. Nothing in the rules stops it going on for ever.',
        until: { when: { p: 'chosen', value: 'v=2' } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'happened', kind: 'paxos-preempted', count: 9 },
          { p: 'not', of: { p: 'happened', kind: 'paxos-preempted', count: 10 } },
          { p: 'chosen', value: 'v=2' },
        ],
      },
      {
        narration:
          '**What if** a pre-empted proposer waited a **random back-off** (20–100 ms) before preparing again? Rewind and switch it on: {n1} backs off after its first defeat, {n5} finishes undisturbed, and **v=2 is chosen at 43 ms**, in its first ballot. Raft’s randomized election timeouts are the same idea.',
        branch: { fromBeat: 1, change: { backoffMs: [20, 100], actions: '@10 propose v=1 to n1; @10 propose v=2 to n5' } },
        until: { when: { p: 'chosen', value: 'v=2' } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'chosen', value: 'v=2' },
          { p: 'not', of: { p: 'happened', kind: 'paxos-preempted', count: 2 } },
        ],
      },
    ],
  },
  {
    name: 'multi-paxos-leader-change',
    title: 'Multi-Paxos after a leader change',
    intro:
      'Multi-Paxos runs one Paxos instance per **slot** of a log. A stable leader runs phase 1 (Prepare) once for all slots, then only phase 2 (Accept) per command. Watch what a new leader must do with the slots it finds.',
    config: makeConfig({ seed: 42, protocol: 'multi-paxos' }),
    beats: [
      {
        narration:
          '{n2}’s election timer fires first. It sends **Prepare(1.2) for every slot from 1**; with promises from a majority it **leads**. From now on it skips phase 1.',
        until: { when: { p: 'leaderIs', node: 'n2' } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2' }],
      },
      {
        narration:
          'A client submits **x=1**. The leader sends **Accept(1.2, slot 1, x=1)** straight away — no Prepare. A majority accepts, so x=1 is chosen in slot 1 and every state machine applies it. Heartbeats are empty Accepts that also say which slots were chosen.',
        actions: '@400 submit x=1',
        until: { atMs: 450 },
        moment: { when: { p: 'chosen', value: 'x=1', slot: 1 } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'chosen', value: 'x=1', slot: 1 },
          { p: 'not', of: { p: 'happened', kind: 'paxos-prepare', count: 2 } },
        ],
      },
      {
        narration:
          '{n2} is cut off and accepts **x=2 in slot 2** alone. After the heal, **x=3 in slot 3** reaches a majority and is chosen. Then {n2} **crashes** before it resends slot 2: only the dead node holds x=2.',
        actions: '@600 partition n2 | n1,n3,n4,n5; @610 submit x=2; @640 heal; @641 submit x=3; @665 crash n2',
        until: { atMs: 700 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'chosen', value: 'x=3', slot: 3 },
          { p: 'acceptedBy', value: 'x=2', count: 1, slot: 2 },
          { p: 'nodeDown', node: 'n2' },
        ],
      },
      {
        narration:
          '{n4} times out and prepares **ballot 2.4 for every slot from 2**. The promises carry x=3 for slot 3 but nothing for slot 2. So {n4} **re-proposes x=3** and fills the **gap in slot 2 with a no-op**: the log must have no holes before the state machines can go on.',
        until: { atMs: 910 },
        moment: { when: { p: 'leaderIs', node: 'n4' } },
        highlight: { node: 'n4' },
        expect: [
          { p: 'leaderIs', node: 'n4' },
          { p: 'learned', node: 'n4', slot: 2, value: 'no-op' },
          { p: 'learned', node: 'n1', slot: 3, value: 'x=3' },
        ],
      },
    ],
  },
  {
    name: 'raft-vs-paxos',
    title: 'Raft beside Multi-Paxos: where the messages go',
    intro:
      'The same four commands and the same leader crash, first on Raft, then on Multi-Paxos. Each beat counts the messages by kind; the space-time view draws every one.',
    config: makeConfig({ seed: 42 }),
    beats: [
      {
        narration:
          '**Raft.** {n2} wins term 1 with **RequestVote**; each command and each heartbeat is an **AppendEntries** to every follower with a reply. After {n2} crashes, {n1} wins term 2. To 1400 ms: **15 election messages** (8 RequestVote, 7 replies) and **186 for replication** (100 AppendEntries, 86 replies).',
        actions: SIDE_BY_SIDE,
        until: { atMs: 1400 },
        moment: { when: { p: 'leaderOfTerm', term: 2 } },
        expect: [
          { p: 'sentAtLeast', type: 'RequestVote', count: 8 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'RequestVote', count: 9 } },
          { p: 'sentAtLeast', type: 'AppendEntries', count: 100 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'AppendEntries', count: 101 } },
          { p: 'sentAtLeast', type: 'AppendReply', count: 86 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'AppendReply', count: 87 } },
        ],
      },
      {
        narration:
          '**Multi-Paxos**, same story. Phase 1 (**Prepare/Promise**) is the election: 15 messages again. Phase 2 (**Accept/Accepted**) is the replication: 195, about the same. A stable leader makes Paxos send what Raft sends. The difference is in the failover: {n1} prepares every slot from 4, the first it has not learned, and the promises would carry any value accepted there for it to re-propose (here, none); Raft instead elects only a node whose log is already up to date.',
        branch: { fromBeat: 1, change: { protocol: 'multi-paxos' } },
        until: { atMs: 1400 },
        moment: { when: { p: 'leaderIs', node: 'n1' } },
        expect: [
          { p: 'leaderIs', node: 'n1' },
          { p: 'sentAtLeast', type: 'Prepare', count: 8 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'Prepare', count: 9 } },
          { p: 'sentAtLeast', type: 'Accept', count: 104 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'Accept', count: 105 } },
          { p: 'sentAtLeast', type: 'Accepted', count: 91 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'Accepted', count: 92 } },
          { p: 'sentAtLeast', type: 'Promise', count: 7 },
          { p: 'not', of: { p: 'sentAtLeast', type: 'Promise', count: 8 } },
        ],
      },
    ],
  },
];
