/**
 * The guided tours. Narration is for a student who has never seen Raft: short sentences, plain
 * words, **emphasis**, and {n2} / {A} for nodes and clients the page highlights on hover. Every
 * claim a beat makes about the run is one of its `expect` predicates, checked by the unit tests.
 * A preset's tour has the preset's name and, on its main line, the preset's configuration and
 * schedule.
 */
import { DEFAULT_CONFIG, type SimConfig } from '../../model/config';
import { CHAPTER_SCHEDULE, findPreset } from '../../run/presets';
import { PAXOS_TOURS } from './paxosTours';
import type { Tour } from './types';

const presetConfig = (name: string): SimConfig => {
  const preset = findPreset(name);
  if (!preset) throw new Error(`There is no preset "${name}".`);
  return preset.config;
};

const chapterActions = CHAPTER_SCHEDULE.split(';').map((a) => a.trim());

export const TOURS: readonly Tour[] = [
  {
    name: 'first-election',
    title: 'The first election',
    intro: 'Five servers start with no leader. Watch how one of them becomes leader, and how a teacher can force a new election.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration:
          'Every node starts as a **follower** in term 0. Each has an **election timer** (the arc around it) set to a random time between 150 and 300 ms. No one has timed out yet, so there is **no leader**.',
        until: { atMs: 150 },
        expect: [{ p: 'noLeader' }, { p: 'termIs', term: 0 }],
      },
      {
        narration:
          "{n2}'s timer ran out first. It becomes a **candidate**: it starts **term 1**, votes for itself and asks every other node for its vote.",
        until: { when: { p: 'role', node: 'n2', role: 'candidate' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'termIs', node: 'n2', term: 1 },
          { p: 'termIs', node: 'n1', term: 0 },
        ],
      },
      {
        narration:
          'Followers that have not voted in term 1 say yes. With votes from {n1}, {n2} and {n5} — **3 of 5, a majority** — {n2} is **leader of term 1**. A node votes once per term, so no one else can win it.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }, { p: 'electionSafe' }],
      },
      {
        narration:
          "Now we **force {n4}'s timer to fire** (the action `timeout n4`). {n4} starts **term 2** and asks for votes; {n2} sees the higher term and **steps down**. {n4} wins: any follower can start an election when it stops hearing a leader.",
        actions: '@400 timeout n4',
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n4' },
        expect: [{ p: 'leaderIs', node: 'n4', term: 2 }, { p: 'role', node: 'n2', role: 'follower' }, { p: 'electionSafe' }],
      },
    ],
  },
  {
    name: 'replication',
    title: 'Heartbeats and log replication',
    intro:
      'A leader keeps its followers quiet with heartbeats and copies each command to their logs. A command is committed once a majority has it.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'Every 50 ms {n2} sends a **heartbeat** (an empty AppendEntries). Each one resets the followers’ election timers, so **no one times out** and the term stays 1.',
        until: { atMs: 399 },
        expect: [
          { p: 'termIs', term: 1 },
          { p: 'leaderIs', node: 'n2', term: 1 },
        ],
      },
      {
        narration:
          'A client submits **x=1**. {n2} appends it to its log and sends it to everyone. As soon as a **majority** holds it, {n2} marks it **committed**.',
        actions: '@400 submit x=1',
        until: { when: { p: 'commitIndexIs', node: 'n2', index: 1 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'logIs', node: 'n2', entries: ['x=1'] },
          { p: 'commitIndexIs', node: 'n1', index: 0 },
        ],
      },
      {
        narration: 'Followers learn the new **commit index** from the next heartbeat, and commit x=1 too.',
        until: { when: { p: 'committedOnAll', index: 1 } },
        expect: [{ p: 'committedOnAll', index: 1 }, { p: 'logEqualsOnAll' }],
      },
      {
        narration: '{n5} **crashes**, then x=2 is submitted. Four of five nodes are up, still a majority, so x=2 **commits without {n5}**.',
        actions: '@800 crash n5; @900 submit x=2',
        until: { when: { p: 'commitIndexIs', node: 'n2', index: 2 } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'nodeDown', node: 'n5' },
          { p: 'logIs', node: 'n5', entries: ['x=1'] },
        ],
      },
      {
        narration:
          '{n5} **restarts**. It kept its log (x=1) but lost its commit index. The next AppendEntries from {n2} gives it x=2 and the commit index: **every log is equal again**.',
        actions: '@1200 restart n5',
        until: { when: { p: 'committedOnAll', index: 2 } },
        highlight: { node: 'n5' },
        expect: [{ p: 'logEqualsOnAll' }, { p: 'logIs', node: 'n5', entries: ['x=1', 'x=2'] }],
      },
    ],
  },
  {
    name: 'failover',
    title: 'Leader crash and failover',
    intro: 'When the leader dies, its heartbeats stop, a follower times out and the cluster elects a new leader in a higher term.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration: '{n2} leads **term 1** and heartbeats every 50 ms.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'The leader {n2} **crashes**. Nobody is told: the followers simply stop hearing heartbeats. For now there is **no leader**.',
        actions: '@1168 crash n2',
        until: { when: { p: 'nodeDown', node: 'n2' } },
        highlight: { node: 'n2' },
        expect: [{ p: 'noLeader' }],
      },
      {
        narration:
          'The first follower whose timer runs out, {n3}, becomes a candidate in **term 2**. Four nodes are up, and three votes are a majority of five, so {n3} wins: a **new leader**.',
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n3' },
        expect: [
          { p: 'leaderIs', node: 'n3', term: 2 },
          { p: 'nodeDown', node: 'n2' },
        ],
      },
      {
        narration:
          '{n2} **restarts** as a follower. It still remembers term 1, but the first message from the new leader carries term 2, so {n2} **catches up to term 2** and follows.',
        actions: '@1500 restart n2',
        until: { atMs: 1600 },
        moment: { when: { p: 'termIs', node: 'n2', term: 2 } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'role', node: 'n2', role: 'follower' },
          { p: 'termIs', node: 'n2', term: 2 },
          { p: 'leaderOfTerm', term: 2 },
        ],
      },
    ],
  },
  {
    name: 'split-vote',
    title: 'Split votes (identical timeouts)',
    intro: 'Raft picks election timeouts at random. Here every node has the same timeout, 200 ms, to show why.',
    config: presetConfig('split-vote'),
    beats: [
      {
        narration:
          'At 200 ms **every** node times out at once. Each becomes a candidate in term 1 and **votes for itself**, so nobody can collect a majority.',
        until: { atMs: 201 },
        moment: { atMs: 200 },
        expect: [{ p: 'noLeader' }, { p: 'termIs', term: 1 }, { p: 'role', node: 'n1', role: 'candidate' }],
      },
      {
        narration:
          'It happens again every 200 ms: a new term, five candidates, five votes for themselves. After 2 seconds there is still **no leader**, in **term 10**.',
        until: { atMs: 2000 },
        expect: [{ p: 'noLeader' }, { p: 'termIs', term: 10 }],
      },
      {
        narration:
          '**What if** the timeouts were random again (150–300 ms)? Rewind to the start: now one node times out first, asks for votes before the others wake, and **wins term 1**. That is the fix Raft uses.',
        branch: { fromBeat: 1, change: { electionTimeoutMs: [150, 300] } },
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
    ],
  },
  {
    name: 'partition',
    title: 'A leader cut off in the minority',
    intro:
      'A network partition splits the cluster. The old leader keeps going on the small side, but without a majority it can never commit.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration: '{n2} leads term 1, and **x=1** is committed on every node.',
        actions: '@600 submit x=1',
        until: { when: { p: 'committedOnAll', index: 1 } },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'The network **splits**: {n2} and {n3} on one side, {n1}, {n4} and {n5} on the other. {n2} does not know; it still **thinks it leads**, takes **x=2** and sends it, but only {n3} hears it. Two of five is **no majority**, so x=2 stays **uncommitted**.',
        actions: '@1000 partition n2,n3; @1050 submit x=2 to n2',
        until: { atMs: 1120 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'role', node: 'n2', role: 'leader' },
          { p: 'logIs', node: 'n3', entries: ['x=1', 'x=2'] },
          { p: 'commitIndexIs', node: 'n2', index: 1 },
        ],
      },
      {
        narration:
          'On the big side the followers stop hearing {n2}. {n4} times out and wins **term 2** with three votes. Now two nodes call themselves leader, but **in different terms** — Raft allows at most one per term.',
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n4' },
        expect: [{ p: 'leaderIs', node: 'n4', term: 2 }, { p: 'role', node: 'n2', role: 'leader' }, { p: 'electionSafe' }],
      },
      {
        narration:
          'A client submits **y=1** to the real leader {n4}. Its side has a majority, so y=1 **commits**. {n2} is still stuck with x=2, uncommitted.',
        actions: '@1200 submit y=1',
        until: { when: { p: 'commitIndexIs', node: 'n4', index: 2 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'logIs', node: 'n4', entries: ['x=1', 'y=1'] },
          { p: 'commitIndexIs', node: 'n2', index: 1 },
        ],
      },
    ],
  },
  {
    name: 'log-repair',
    title: 'Log repair after the heal',
    intro: 'After a partition heals, the old leader steps down and its uncommitted entries are replaced by the new leader’s.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration:
          'The story so far: {n2} led term 1 but got cut off with {n3}; it appended **x=2**, which never committed. {n4} leads **term 2** on the majority side and committed **y=1** at the same index.',
        actions: '@600 submit x=1; @1000 partition n2,n3; @1050 submit x=2 to n2; @1200 submit y=1',
        until: { when: { p: 'commitIndexIs', node: 'n4', index: 2 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'logIs', node: 'n2', entries: ['x=1', 'x=2'] },
          { p: 'logIs', node: 'n4', entries: ['x=1', 'y=1'] },
        ],
      },
      {
        narration:
          'The network **heals**. The first message from {n4} carries **term 2**; {n2} sees a higher term and **steps down** to follower.',
        actions: '@2000 heal',
        until: { when: { p: 'role', node: 'n2', role: 'follower' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n4', term: 2 },
          { p: 'termIs', node: 'n2', term: 2 },
        ],
      },
      {
        narration:
          '{n4} sends y=1 for index 2. {n2} and {n3} hold x=2 there, from an older term, so they **delete x=2 and take y=1**. Nothing promised is lost: x=2 was **never committed**.',
        until: { when: { p: 'committedOnAll', index: 2 } },
        highlight: { panel: 'logs' },
        expect: [{ p: 'logEqualsOnAll' }, { p: 'logIs', node: 'n2', entries: ['x=1', 'y=1'] }],
      },
    ],
  },
  {
    name: 'figure8',
    title: 'Figure 8: why old entries do not commit by counting',
    intro:
      'The Raft paper’s Figure 8. An entry from an old term can sit on a majority and still be overwritten, so a leader commits only entries of its own term by counting.',
    config: DEFAULT_CONFIG,
    beats: [
      {
        narration: '{n2} leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'Cut off with {n1}, {n2} takes **f1** and copies it to {n1} only, then **crashes**. f1 is on 2 of 5 nodes: not committed.',
        actions: '@500 partition n1,n2; @500 submit f1 to n2; @520 crash n2',
        until: { atMs: 600 },
        moment: { when: { p: 'logIs', node: 'n1', entries: ['f1'] } },
        expect: [
          { p: 'logIs', node: 'n1', entries: ['f1'] },
          { p: 'nodeDown', node: 'n2' },
          { p: 'commitIndexIs', node: 'n1', index: 0 },
        ],
      },
      {
        narration: 'On the other side {n5} wins **term 2** with votes from {n3} and {n4}, who never saw f1.',
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n5' },
        expect: [{ p: 'leaderIs', node: 'n5', term: 2 }],
      },
      {
        narration:
          '{n5} takes **f2** at index 1 and crashes before sending it. The network heals, {n2} comes back, and {n1} wins **term 4**. {n1} copies its old **f1** to a **majority** — but f1 is from term 1, so {n1} **does not count it as committed**.',
        actions: '@750 partition n5; @750 submit f2 to n5; @760 crash n5; @770 heal; @780 restart n2',
        until: { atMs: 1400 },
        moment: { when: { p: 'logIs', node: 'n3', entries: ['f1'] } },
        highlight: { node: 'n1' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 4 },
          { p: 'logIs', node: 'n3', entries: ['f1'] },
          { p: 'logIs', node: 'n5', entries: ['f2'] },
          { p: 'commitIndexIs', node: 'n1', index: 0 },
        ],
      },
      {
        narration:
          '{n1} and {n2} crash; {n5} comes back with f2 (term 2). Its log looks newer than {n3}’s and {n4}’s (term 2 beats term 1), so they vote for it: {n5} leads **term 6**.',
        actions: '@1500 crash n1; @1500 crash n2; @1500 restart n5',
        until: { when: { p: 'leaderOfTerm', term: 6 } },
        highlight: { node: 'n5' },
        expect: [{ p: 'leaderIs', node: 'n5', term: 6 }],
      },
      {
        narration:
          '{n5} **overwrites f1 with f2** on {n3} and {n4}. That is safe only because f1 was **never committed**: no client was told it happened.',
        until: { when: { p: 'logIs', node: 'n4', entries: ['f2'] } },
        highlight: { panel: 'logs' },
        expect: [{ p: 'logIs', node: 'n3', entries: ['f2'] }, { p: 'electionSafe' }],
      },
      {
        narration:
          '**What if** {n1} counted replicas of old entries (the **figure8** bug)? Rewind to term 4: {n1} sees f1 on a majority and **commits it**. A client could now be told f1 happened.',
        branch: { fromBeat: 4, change: { bugs: ['figure8'] } },
        until: { atMs: 1400 },
        moment: { when: { p: 'commitIndexIs', node: 'n1', index: 1 } },
        highlight: { node: 'n1' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 4 },
          { p: 'commitIndexIs', node: 'n1', index: 1 },
        ],
      },
      {
        narration:
          'The same crashes follow, {n5} wins term 6 and erases f1 — a **committed entry is lost**. The Invariants tab flags **Leader Completeness**. Without the bug, f1 was never committed, and nothing went wrong.',
        until: { when: { p: 'logIs', node: 'n4', entries: ['f2'] } },
        highlight: { panel: 'invariants' },
        expect: [
          { p: 'leaderIs', node: 'n5', term: 6 },
          { p: 'logIs', node: 'n3', entries: ['f2'] },
        ],
      },
    ],
  },
  {
    name: 'chapter',
    title: "The chapter's demo",
    intro: 'The chapter’s run, seed 42: an election, a crash and failover, a partition that strands the old leader, and the heal.',
    config: presetConfig('chapter'),
    beats: [
      {
        narration: '{n2} times out first (156 ms) and wins **term 1** with votes from {n1}, {n2} and {n5}.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration: 'A second of heartbeats, then the leader {n2} **crashes** at 1168 ms. There is **no leader**.',
        actions: chapterActions[0],
        until: { when: { p: 'nodeDown', node: 'n2' } },
        highlight: { node: 'n2' },
        expect: [{ p: 'noLeader' }],
      },
      {
        narration: '{n3} times out and wins **term 2**, 192 ms after the crash. At the same moment {n2} **restarts** as a follower.',
        actions: chapterActions[1],
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n3' },
        expect: [
          { p: 'leaderIs', node: 'n3', term: 2 },
          { p: 'nodeUp', node: 'n2' },
        ],
      },
      {
        narration: 'Clients submit **x=1** and **x=2**. {n3} replicates them and every node commits both.',
        actions: `${chapterActions[2]}; ${chapterActions[3]}`,
        until: { when: { p: 'committedOnAll', index: 2 } },
        highlight: { panel: 'logs' },
        expect: [{ p: 'logEqualsOnAll' }, { p: 'logIs', node: 'n2', entries: ['x=1', 'x=2'] }],
      },
      {
        narration:
          'A **partition** strands the leader {n3} with {n2}. On the majority side the followers stop hearing {n3}; {n1} times out and becomes a **candidate in term 3**. {n3} still thinks it leads term 2.',
        actions: chapterActions[4],
        until: { when: { p: 'role', node: 'n1', role: 'candidate' } },
        highlight: { node: 'n1' },
        expect: [
          { p: 'termIs', node: 'n1', term: 3 },
          { p: 'role', node: 'n3', role: 'leader' },
        ],
      },
      {
        narration:
          '{n1} wins **term 3** with {n4} and {n5}. **x=3** goes to the stale leader {n3}, which appends it but can never commit it (2 of 5). **y=1** goes to {n1} and commits on the majority side.',
        actions: `${chapterActions[5]}; ${chapterActions[6]}`,
        until: { atMs: 1900 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 3 },
          { p: 'role', node: 'n3', role: 'leader' },
          { p: 'logIs', node: 'n3', entries: ['x=1', 'x=2', 'x=3'] },
          { p: 'commitIndexIs', node: 'n3', index: 2 },
          { p: 'commitIndexIs', node: 'n1', index: 3 },
        ],
      },
      {
        narration:
          'The partition **heals**. {n3} sees term 3 and steps down; **x=3 is erased** and every log ends x=1, x=2, y=1, committed everywhere.',
        actions: chapterActions[7],
        until: { atMs: 2253 },
        moment: { when: { p: 'logIs', node: 'n3', entries: ['x=1', 'x=2', 'y=1'] } },
        highlight: { panel: 'logs' },
        expect: [{ p: 'logEqualsOnAll' }, { p: 'logIs', node: 'n3', entries: ['x=1', 'x=2', 'y=1'] }, { p: 'committedOnAll', index: 3 }],
      },
    ],
  },
  {
    name: 'fencing',
    title: 'Fencing tokens vs a GC pause',
    intro: 'A lock with a lease can expire while its holder is frozen. Fencing tokens let the storage refuse the holder’s late write.',
    config: presetConfig('fencing'),
    beats: [
      {
        narration:
          'Client {A} asks the lock service for **job:42**. The leader {n2} commits a grant and answers **token 1**, with a 10-second lease. {A} writes result=A-first to both stores, stamped with token 1.',
        actions: '@1000 client A acquire job:42 10000; @1000 client A write result=A-first',
        until: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'A-first' } },
        highlight: { client: 'A' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job:42', token: 1 },
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A-first' },
        ],
      },
      {
        narration:
          'Client {B} asks for job:42 and is told **busy**: {A} holds it. Then {A} **freezes** (a long GC pause) for 11 seconds — without knowing it.',
        actions: '@2000 client B acquire job:42 10000; @2500 client A pause 11000',
        until: { when: { p: 'happened', kind: 'client-pauses', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [
          { p: 'happened', kind: 'client-busy', subject: 'B' },
          { p: 'lockHeldBy', key: 'job:42', owner: 'A' },
        ],
      },
      {
        narration:
          "A's lease runs out. {n2} commits an **expire**: the lock is free. {A} is still frozen and **still believes it holds** job:42.",
        until: { when: { p: 'happened', kind: 'lock-expired' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'lockHeldBy', key: 'job:42', owner: null },
          { p: 'clientHolds', client: 'A', key: 'job:42', token: 1 },
        ],
      },
      {
        narration: '{B} asks again and gets job:42 with **token 2**, a higher number. {B} writes result=B-first with token 2.',
        actions: '@13000 client B acquire job:42 10000; @13000 client B write result=B-first; @13000 client A write result=A-second',
        until: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'B-first' } },
        highlight: { client: 'B' },
        expect: [{ p: 'clientHolds', client: 'B', key: 'job:42', token: 2 }],
      },
      {
        narration:
          '{A} wakes and writes result=A-second with its old **token 1**. The **unfenced** store takes it and B’s work is lost. The **fenced store refuses** it: token 1 is older than token 2.',
        until: { when: { p: 'fencedRefused' } },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A-second' },
          { p: 'storeValue', store: 'fenced', key: 'result', value: 'B-first' },
        ],
      },
      {
        narration:
          '**What if** the fenced store did not check tokens (the **no-fencing** bug)? Rewind to B’s write and replay: now **both stores take A’s stale write**, and B’s result is gone from both.',
        branch: { fromBeat: 5, change: { bugs: ['no-fencing'] } },
        until: { atMs: 14000 },
        moment: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'A-second' } },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'storeValue', store: 'fenced', key: 'result', value: 'A-second' },
          { p: 'not', of: { p: 'fencedRefused' } },
        ],
      },
      {
        narration:
          '**What if** {B} writes a second later? Rewind to B’s grant, fencing on: {A} wakes and its token-1 write reaches the fenced store **first**, so the store **accepts it** (no higher token yet). The History view: **strict mutual exclusion fails at both stores**, yet the fenced store keeps **fencing order**: fencing gives order, not exclusivity.',
        branch: {
          fromBeat: 4,
          change: {
            bugs: [],
            actions: '@13000 client B acquire job:42 10000; @13000 client A write result=A-second; @14000 client B write result=B-first',
          },
        },
        until: { atMs: 14500 },
        highlight: { panel: 'stores' },
        moment: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'A-second' } },
        expect: [
          { p: 'not', of: { p: 'fencedRefused' } },
          { p: 'storeValue', store: 'fenced', key: 'result', value: 'B-first' },
          { p: 'linearizable', verdict: 'fenced', holds: false },
          { p: 'linearizable', verdict: 'unfenced', holds: false },
          { p: 'linearizable', verdict: 'fencedOrder', holds: true },
          { p: 'linearizable', verdict: 'locks', holds: true },
        ],
      },
    ],
  },
  {
    name: 'ghost-lock',
    title: 'Ghost lock',
    intro: 'A client asks for a lock and dies before the answer arrives. Who frees the lock?',
    config: presetConfig('ghost-lock'),
    beats: [
      {
        narration: 'Client {A} asks for **job:42**, then **crashes** before any answer comes back.',
        actions: '@1000 client A acquire job:42 10000; @1040 client A crash',
        until: { when: { p: 'happened', kind: 'client-crashes', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [{ p: 'not', of: { p: 'clientHolds', client: 'A', key: 'job:42' } }],
      },
      {
        narration:
          'The grant commits anyway: {n2} gives job:42 to {A} with **token 1** — but {A} is gone. Nobody would ever release it: a **ghost lock**.',
        until: { when: { p: 'happened', kind: 'lock-ghost' } },
        highlight: { node: 'n2' },
        expect: [{ p: 'lockHeldBy', key: 'job:42', owner: 'A' }],
      },
      {
        narration:
          '{n2} sees that {A} cannot hear the answer, so it proposes a **release** right away. Once it commits, the lock is **free**.',
        until: { when: { p: 'lockHeldBy', key: 'job:42', owner: null } },
        highlight: { panel: 'locks' },
        expect: [{ p: 'lockHeldBy', key: 'job:42', owner: null }],
      },
      {
        narration:
          '{B} asks and gets job:42 at once, with **token 2**, and writes its result. Without the release {B} would wait out A’s whole 10-second lease.',
        actions: '@1400 client B acquire job:42 10000; @1400 client B write result=B-first',
        until: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'B-first' } },
        highlight: { client: 'B' },
        expect: [{ p: 'clientHolds', client: 'B', key: 'job:42', token: 2 }],
      },
    ],
  },
  {
    name: 'clock-drift',
    title: 'A leader whose clock runs fast',
    intro: 'Leases trust clocks. Here the leader’s clock runs 50% fast, so it ends a lease early while the client still counts on it.',
    config: presetConfig('clock-drift'),
    beats: [
      {
        narration:
          "{n2}'s clock is set to run **50% fast**. {A} gets **job:42** with token 1 and a 6-second lease; by A's own count it holds the lock until **t=7000 ms**. {A} writes result=A-first.",
        actions: '@400 drift n2 50; @1000 client A acquire job:42 6000; @1000 client A write result=A-first',
        until: { when: { p: 'storeValue', store: 'fenced', key: 'result', value: 'A-first' } },
        highlight: { node: 'n2' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job:42', token: 1 }],
      },
      {
        narration:
          "{n2}'s fast clock says 6 seconds have passed after only about 4. It **expires A's lease early** — while {A} still believes it holds job:42.",
        until: { when: { p: 'happened', kind: 'lock-expired' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'lockHeldBy', key: 'job:42', owner: null },
          { p: 'clientHolds', client: 'A', key: 'job:42', token: 1 },
        ],
      },
      {
        narration: '{B} asks for job:42 and gets it with **token 2**. Now {A} and {B} both think they hold the lock.',
        actions: '@6000 client B acquire job:42 6000; @6000 client B write result=B-first; @6200 client A write result=A-second',
        until: { when: { p: 'clientHolds', client: 'B', key: 'job:42', token: 2 } },
        highlight: { client: 'B' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job:42', token: 1 }],
      },
      {
        narration:
          'Both write. The **unfenced** store ends with A’s stale value; the **fenced store refuses** token 1 and keeps B’s. Only fencing survives a bad clock.',
        until: { when: { p: 'fencedRefused' } },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A-second' },
          { p: 'storeValue', store: 'fenced', key: 'result', value: 'B-first' },
        ],
      },
    ],
  },
  {
    name: 'failover-lease',
    title: 'Leader fails while a lease runs',
    intro: 'The lock table is part of the replicated log, so a new leader knows who holds what — and keeps honouring the lease.',
    config: presetConfig('failover-lease'),
    beats: [
      {
        narration: '{A} gets **job:42** from the leader {n2}, with token 1 and a 3-second lease (to t=4000 ms by its own count).',
        actions: '@1000 client A acquire job:42 3000',
        until: { when: { p: 'clientHolds', client: 'A', key: 'job:42', token: 1 } },
        highlight: { client: 'A' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'The leader {n2} **crashes**. {n1} and {n3} time out together and **split the vote** in term 2; a moment later {n4} wins **term 3**.',
        actions: '@1500 crash n2',
        until: { when: { p: 'leaderOfTerm', term: 3 } },
        highlight: { node: 'n4' },
        expect: [
          { p: 'leaderIs', node: 'n4', term: 3 },
          { p: 'happened', kind: 'election', subject: 'n1' },
        ],
      },
      {
        narration:
          '{B} asks {n4} for job:42 and is told **busy**: {n4} applied A’s grant from the log too, so it knows {A} holds the lock.',
        actions: '@2000 client B acquire job:42 3000',
        until: { when: { p: 'happened', kind: 'client-busy', subject: 'B' } },
        highlight: { client: 'B' },
        expect: [{ p: 'lockHeldBy', key: 'job:42', owner: 'A' }],
      },
      {
        narration:
          '{n4} counts the lease from when **it** applied the grant, so it expires the lock a little **after** A’s own count ended (4000 ms). Safe: never before.',
        until: { when: { p: 'happened', kind: 'lock-expired' } },
        highlight: { node: 'n4' },
        expect: [{ p: 'lockHeldBy', key: 'job:42', owner: null }],
      },
      {
        narration: '{B} asks again and gets job:42 with **token 2**.',
        actions: '@5000 client B acquire job:42 3000',
        until: { when: { p: 'clientHolds', client: 'B', key: 'job:42', token: 2 } },
        highlight: { client: 'B' },
        expect: [{ p: 'leaderIs', node: 'n4', term: 3 }],
      },
    ],
  },
  // Protocol features: each tour shows the problem with the chapter's Raft, then rewinds and
  // switches the feature on.
  {
    name: 'rejoin-disrupts',
    title: 'Pre-vote: a rejoining node deposes a healthy leader',
    intro:
      'A node cut off from the others keeps starting elections nobody hears. What happens when it comes back, and how does pre-vote (§9.6) stop the damage?',
    config: presetConfig('rejoin-disrupts'),
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'A partition cuts {n4} off. It hears no heartbeats, so its timer fires again and again: each time it starts a **new term** and asks for votes nobody receives. By now it is in **term 7**; the others are still happily in term 1.',
        actions: '@500 partition n4',
        until: { atMs: 1990 },
        steady: true,
        highlight: { node: 'n4' },
        expect: [
          { p: 'termIs', node: 'n4', term: 7 },
          { p: 'leaderIs', node: 'n2', term: 1 },
        ],
      },
      {
        narration:
          'The partition heals. {n2}’s next heartbeat reaches {n4}, whose answer carries **term 7**. A higher term makes {n2} **step down** — the cluster loses its leader for nothing, and elects {n2} again in **term 8**.',
        actions: '@2000 heal',
        until: { atMs: 3000 },
        highlight: { node: 'n2' },
        moment: { when: { p: 'happened', kind: 'step-down', subject: 'n2' } },
        expect: [
          { p: 'happened', kind: 'step-down', subject: 'n2' },
          { p: 'leaderIs', node: 'n2', term: 8 },
        ],
      },
      {
        narration:
          '**What if** nodes used **pre-vote**? Rewind to the start with pre-vote on: a node whose timer fires first asks “would you vote for me in the next term?” **without raising its term**. Cut off, {n4} asks and asks, hears nothing, and **stays in term 1**.',
        branch: { fromBeat: 1, change: { features: ['pre-vote'] } },
        until: { atMs: 1990 },
        steady: true,
        highlight: { node: 'n4' },
        expect: [
          { p: 'termIs', node: 'n4', term: 1 },
          { p: 'leaderIs', node: 'n2', term: 1 },
        ],
      },
      {
        narration:
          'The partition heals and {n4} simply follows {n2} again. Even if it asked, the others would say no: they **hear from a leader**, and its log is no newer. **No step-down, no new term.**',
        until: { atMs: 3000 },
        steady: true,
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'not', of: { p: 'happened', kind: 'step-down' } },
          { p: 'termIs', term: 1 },
        ],
      },
    ],
  },
  {
    name: 'isolated-leader',
    title: 'CheckQuorum: a leader cut off in a minority',
    intro:
      'A leader alone on its side of a partition never hears a higher term, so in the chapter’s Raft it leads forever. CheckQuorum (§6.2) makes it notice.',
    config: presetConfig('isolated-leader'),
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'A partition leaves {n2} **alone**. The other four stop hearing it, and {n5} wins **term 2**. {n2} hears nothing at all — not even the higher term — so it **still thinks it leads** term 1.',
        actions: '@500 partition n2',
        until: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n5', term: 2 },
          { p: 'role', node: 'n2', role: 'leader' },
        ],
      },
      {
        narration:
          'A client that still talks to {n2} submits **x=1**. {n2} takes it into its log, but no majority will ever hold it: **x=1 can never commit**, and the client waits forever.',
        actions: '@900 submit x=1 to n2',
        until: { atMs: 2000 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'role', node: 'n2', role: 'leader' },
          { p: 'logIs', node: 'n2', entries: ['x=1'] },
          { p: 'commitIndexIs', node: 'n2', index: 0 },
        ],
      },
      {
        narration:
          '**What if** leaders used **CheckQuorum**? Rewind with it on: every shortest election timeout (150 ms) a leader counts who answered it. Alone, {n2} heard from **1 of the 3** it needs, so it **steps down**.',
        branch: { fromBeat: 2, change: { features: ['check-quorum'] } },
        until: { atMs: 800 },
        moment: { when: { p: 'role', node: 'n2', role: 'follower' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'role', node: 'n2', role: 'follower' },
          { p: 'happened', kind: 'step-down', subject: 'n2' },
          { p: 'leaderIs', node: 'n5', term: 2 },
        ],
      },
      {
        narration:
          'Now the submit to {n2} is **refused at once** (“n2 is not the leader”): the client can go and find {n5} instead of waiting.',
        until: { atMs: 2000 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'happened', kind: 'submit-rejected', subject: 'n2' },
          { p: 'logIs', node: 'n2', entries: [] },
        ],
      },
    ],
  },
  {
    name: 'noop-commit',
    title: 'Leader no-op: why an entry stays uncommitted',
    intro:
      'Every node holds x=1, yet nobody commits it. This is the question RaftScope users ask most; the answer is Figure 8 and a new leader’s no-op (§8).',
    config: presetConfig('noop-commit'),
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          'A client submits **x=1**. Every follower takes it and answers; with a majority {n2} marks it **committed**. The followers learn that only from the **next heartbeat**…',
        actions: '@1000 submit x=1',
        until: { when: { p: 'commitIndexIs', node: 'n2', index: 1 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'commitIndexIs', node: 'n1', index: 0 },
          { p: 'logIs', node: 'n1', entries: ['x=1'] },
        ],
      },
      {
        narration:
          '…but {n2} **crashes** first. {n1} wins **term 3**. x=1 is on every live node, but it is from **term 1**, and a leader may commit an earlier term’s entry only through one of its own (Figure 8). No client writes, so **x=1 stays uncommitted** on every live node.',
        actions: '@1022 crash n2',
        until: { atMs: 3000 },
        moment: { when: { p: 'leaderIs', node: 'n1', term: 3 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 3 },
          { p: 'logIs', node: 'n1', entries: ['x=1'] },
          { p: 'commitIndexIs', node: 'n1', index: 0 },
        ],
      },
      {
        narration:
          '**What if** each new leader appended a **no-op**? Rewind with leader-noop on: {n1} wins term 3 and at once appends an empty entry of **term 3**. Once a majority holds it, it commits — and **x=1 before it** commits too.',
        branch: { fromBeat: 1, change: { features: ['leader-noop'] } },
        until: { atMs: 3000 },
        moment: { when: { p: 'commitIndexIs', node: 'n1', index: 3 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 3 },
          { p: 'logIs', node: 'n1', entries: ['no-op', 'x=1', 'no-op'] },
          { p: 'commitIndexIs', node: 'n1', index: 3 },
        ],
      },
    ],
  },
  {
    name: 'snapshot-catch-up',
    title: 'Snapshots: a follower far behind catches up',
    intro:
      'A log that is never compacted grows for ever, and a node that comes back late has to be sent all of it. Snapshots (§5) keep the state machine instead of the entries that built it.',
    config: presetConfig('snapshot-catch-up'),
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**.',
        until: { when: { p: 'leaderOfTerm', term: 1 } },
        highlight: { node: 'n2' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          '{n5} **crashes**. Clients write **x1..x20**; the four live nodes store and commit every one, and each log keeps all 20 entries.',
        actions: ['@300 crash n5', ...Array.from({ length: 20 }, (_, i) => `@${440 + 40 * i} submit x${i + 1}`)].join('; '),
        until: { atMs: 1399 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'nodeDown', node: 'n5' },
          { p: 'commitIndexIs', node: 'n2', index: 20 },
          { p: 'snapshotIs', node: 'n2', index: null },
        ],
      },
      {
        narration:
          'The leader {n2} crashes too, and {n1} wins **term 2**. When {n5} comes back with an empty log, {n1} starts from its own end and **backs up one entry per round trip**, twenty refusals, before it sends all 20 entries.',
        actions: '@1400 crash n2; @2000 restart n5',
        until: { atMs: 3000 },
        moment: { when: { p: 'commitIndexIs', node: 'n5', index: 20 } },
        highlight: { node: 'n5' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 2 },
          { p: 'commitIndexIs', node: 'n5', index: 20 },
          { p: 'logIs', node: 'n5', entries: Array.from({ length: 20 }, (_, i) => `x${i + 1}`) },
        ],
      },
      {
        narration:
          '**What if** every node compacted its log? Rewind with snapshots on: each node turns every **8 applied entries** into a snapshot of its state. {n1} backs up only to its snapshot, sends {n5} one **InstallSnapshot (≤ 16)**, and then just **x17..x20**.',
        branch: { fromBeat: 1, change: { features: ['snapshots'] } },
        until: { atMs: 3000 },
        moment: { when: { p: 'snapshotIs', node: 'n5', index: 16 } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 2 },
          { p: 'snapshotIs', node: 'n5', index: 16 },
          { p: 'logIs', node: 'n5', entries: ['x17', 'x18', 'x19', 'x20'] },
          { p: 'commitIndexIs', node: 'n5', index: 20 },
        ],
      },
    ],
  },
  {
    name: 'stale-read',
    title: 'Reads: a lease read from a deposed leader (§6.4.1)',
    intro:
      'A leader may answer a read from its own state while it holds a lease, counted by its own clock. The chapter’s lease hazard, now for reads: a clock that runs slow keeps a deposed leader answering.',
    config: presetConfig('stale-read'),
    beats: [
      {
        narration: '{A} puts **x=1** through leader {n2}: the put is a log entry, answered once it is committed and applied.',
        actions: '@500 client A put x=1',
        until: { when: { p: 'happened', kind: 'client-put', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [{ p: 'leaderIs', node: 'n2', term: 1 }],
      },
      {
        narration:
          '{n2}’s clock slows to a tenth of real time, and {n2} is **cut off**. The others elect {n1} in **term 2**, and {B} puts **x=2** there.',
        actions: '@700 drift n2 -90; @800 partition n2; @1200 client B put x=2',
        until: { when: { p: 'happened', kind: 'client-put', subject: 'B' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'leaderIs', node: 'n1', term: 2 },
          { p: 'role', node: 'n2', role: 'leader' },
        ],
      },
      {
        narration:
          '{A} asks {n2} for x with a **lease read**. By its slow clock the lease it counted from its last answered heartbeat has not run out, so it answers **x=1**, after x=2 was acknowledged. The History tab’s **register** verdict fails and names this get: a finding, since a lease relies on bounded clock drift.',
        actions: '@1600 client A get x',
        until: { when: { p: 'happened', kind: 'client-got', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [{ p: 'linearizable', verdict: 'register', holds: false }],
      },
      {
        narration:
          '**What if** that read used **ReadIndex** (§6.4)? Rewind: {n2} records its commit index and sends a heartbeat round, which no majority answers, so it never answers. {A} times out, finds {n1} and reads **x=2**. The register verdict holds.',
        branch: { fromBeat: 3, change: { actions: '@1600 client A get x read-index' } },
        until: { when: { p: 'happened', kind: 'client-got', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [{ p: 'linearizable', verdict: 'register', holds: true }],
      },
    ],
  },
  {
    name: 'stale-read-index',
    title: 'Reads: ReadIndex confirms leadership first (§6.4)',
    intro:
      'The stale-read run with ReadIndex reads: before answering from its state, a leader checks with a heartbeat round that a majority still follows it.',
    config: presetConfig('stale-read-index'),
    beats: [
      {
        narration:
          '{A} puts **x=1** through {n2}; then {n2}’s clock slows and {n2} is cut off. {n1} leads **term 2** and {B} puts **x=2**.',
        actions: '@500 client A put x=1; @700 drift n2 -90; @800 partition n2; @1200 client B put x=2',
        until: { when: { p: 'happened', kind: 'client-put', subject: 'B' } },
        highlight: { client: 'B' },
        expect: [{ p: 'leaderIs', node: 'n1', term: 2 }],
      },
      {
        narration:
          '{A} asks {n2} for x. {n2} records **readIndex** and sends a heartbeat round; nobody it can reach answers, so it never answers. {A} times out after 300 ms, is redirected to {n1} and reads **x=2**: the register verdict holds.',
        actions: '@1600 client A get x',
        until: { when: { p: 'happened', kind: 'client-got', subject: 'A' } },
        highlight: { client: 'A' },
        expect: [
          { p: 'happened', kind: 'client-times-out', subject: 'A' },
          { p: 'linearizable', verdict: 'register', holds: true },
        ],
      },
    ],
  },
  {
    name: 'stale-term-backup',
    title: 'Fast back-up: skipping a stale term in one round trip',
    intro:
      'A follower that holds many entries of an old term makes the chapter’s leader back up one entry per round trip. §5.3 sketches the fix: the follower names the conflicting term, and the leader skips all of it at once.',
    config: presetConfig('stale-term-backup'),
    beats: [
      {
        narration: '{n2} wins the first election and leads **term 1**; x=1 commits on every node.',
        actions: '@1000 submit x=1',
        until: { atMs: 1099 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'committedOnAll', index: 1 },
        ],
      },
      {
        narration:
          'A partition cuts {n2} off. It still believes it leads term 1 and takes **a1..a8**, eight entries nobody else will ever hold: they can never commit.',
        actions:
          '@1100 partition n2; @1150 submit a1 to n2; @1150 submit a2 to n2; @1150 submit a3 to n2; @1150 submit a4 to n2; @1150 submit a5 to n2; @1150 submit a6 to n2; @1150 submit a7 to n2; @1150 submit a8 to n2',
        until: { atMs: 1690 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'logIs', node: 'n2', entries: ['x=1', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] },
          { p: 'commitIndexIs', node: 'n2', index: 1 },
        ],
      },
      {
        narration:
          'The majority elects {n5} (term 2), which commits **b1..b8**, then crashes. {n3} wins **term 3** holding the same log, so its nextIndex for every follower starts at **10**, past its last entry.',
        actions:
          '@1700 submit b1; @1700 submit b2; @1700 submit b3; @1700 submit b4; @1700 submit b5; @1700 submit b6; @1700 submit b7; @1700 submit b8; @1900 crash n5',
        until: { when: { p: 'leaderIs', node: 'n3', term: 3 } },
        highlight: { node: 'n3' },
        expect: [{ p: 'logIs', node: 'n3', entries: ['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] }],
      },
      {
        narration:
          'The partition heals; after one more election {n3} leads term 5. Its AppendEntries say "the entry before is index 9, term 2", but {n2} has a8 of term 1 there, and refuses. {n3} backs up **one entry** and asks again: {n2} rejects **10 times** (one round trip each) before their logs meet at index 1 and b1..b8 replace a1..a8.',
        actions: '@2500 heal',
        until: { when: { p: 'logIs', node: 'n2', entries: ['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n3', term: 5 },
          { p: 'logIs', node: 'n2', entries: ['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] },
        ],
      },
      {
        narration:
          '**What if** the rejection said more? Rewind with fast-backup on: {n2} answers "my entry there is of **term 1**, which I hold from index 1". {n3} has term 1 only at index 1, so it jumps nextIndex from 10 to **2** at once: **1 round trip** instead of 10, and {n2} is repaired about 100 ms sooner.',
        branch: { fromBeat: 4, change: { features: ['fast-backup'] } },
        until: { when: { p: 'logIs', node: 'n2', entries: ['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] } },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'leaderIs', node: 'n3', term: 5 },
          { p: 'logIs', node: 'n2', entries: ['x=1', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] },
        ],
      },
    ],
  },
  {
    name: 'hand-over',
    title: 'Leadership transfer: handing over without an election timeout',
    intro:
      'Taking a leader out of service (an upgrade, a rebalanced cluster) should not leave the cluster without one. §3.10 adds a transfer: the leader hands over to a chosen follower that is up to date.',
    config: presetConfig('hand-over'),
    beats: [
      {
        narration: '{n2} leads **term 1**, and x=1 commits on every node.',
        actions: '@800 submit x=1',
        until: { atMs: 999 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'committedOnAll', index: 1 },
        ],
      },
      {
        narration:
          'To take {n2} out, the chapter’s Raft can only **crash** it. Nobody leads until another node’s timer fires, and split votes follow: x=2, and x=3 300 ms later, are both **refused**: no leader.',
        actions: '@1000 crash n2; @1005 submit x=2; @1300 submit x=3',
        until: { atMs: 1400 },
        highlight: { panel: 'logs' },
        expect: [{ p: 'nodeDown', node: 'n2' }, { p: 'noLeader' }, { p: 'happened', kind: 'submit-rejected', count: 2 }],
      },
      {
        narration:
          '**What if** {n2} handed over instead? Rewind with transfer on and the action transfer n3: {n2} stops taking requests (x=2 is refused while it hands over), sees {n3} holds its whole log and sends **TimeoutNow**. {n3} campaigns at once and leads **term 2** within 30 ms; x=3 is taken and commits.',
        branch: { fromBeat: 2, change: { features: ['transfer'], actions: '@1000 transfer n3; @1005 submit x=2; @1300 submit x=3' } },
        until: { atMs: 1400 },
        moment: { when: { p: 'leaderIs', node: 'n3', term: 2 } },
        highlight: { node: 'n3' },
        expect: [
          { p: 'leaderIs', node: 'n3', term: 2 },
          { p: 'logIs', node: 'n3', entries: ['x=1', 'x=3'] },
          { p: 'committedOnAll', index: 2 },
          { p: 'happened', kind: 'submit-rejected', count: 1 },
        ],
      },
    ],
  },
  {
    name: 'phi-accrual',
    title: 'Phi-accrual: suspicion that learns the network',
    intro:
      'A fixed timeout is a bet both ways: too short and a slow network looks like a dead leader, too long and a dead one goes unnoticed. Phi-accrual keeps the recent gaps between heartbeats and suspects the leader only when the silence is improbable for them, so a slower network raises the timeout with it.',
    config: { ...DEFAULT_CONFIG, detector: { kind: 'phi-accrual' } },
    beats: [
      {
        narration:
          '{n2} leads **term 1** and x=1 commits. Every follower keeps the last 100 gaps between {n2}’s heartbeats (about 50 ms each) and suspects {n2} once φ, the improbability of the silence, reaches **Φ = 8**.',
        actions: '@600 submit x=1',
        until: { atMs: 990 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'committedOnAll', index: 1 },
        ],
      },
      {
        narration:
          'For 3 s every message takes **3 times** as long. Heartbeats arrive later and more unevenly; the windows learn it, the timeout grows with their mean and spread, and nobody campaigns: a slower network raised latency, not suspicion.',
        actions: '@1000 slow 3x for 3000',
        until: { atMs: 4500 },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'not', of: { p: 'termAtLeast', term: 2 } },
        ],
      },
      {
        narration:
          '{n2} **crashes**. The silence soon becomes improbable for a 50 ms rhythm: {n3} campaigns about 130 ms later and leads **term 2**.',
        actions: '@5000 crash n2',
        until: { atMs: 5300 },
        moment: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n3' },
        expect: [
          { p: 'nodeDown', node: 'n2' },
          { p: 'leaderIs', node: 'n3', term: 2 },
        ],
      },
    ],
  },
  {
    name: 'gossip',
    title: 'Gossip: suspicion spreads from view to view',
    intro:
      'Nobody probes everyone. Each round every node raises its own heartbeat counter and tells three random peers its view of everyone’s counters; a member whose counter stops growing is suspected, and the suspicion travels with the views, reaching everyone in a logarithmic number of rounds.',
    config: { ...DEFAULT_CONFIG, detector: { kind: 'gossip' } },
    beats: [
      {
        narration:
          '{n2} leads **term 1** and x=1 commits. The small hollow diamonds are gossip: every 50 ms each node tells three peers the counters it knows. {n2}’s AppendEntries reset nothing: only the views decide.',
        actions: '@600 submit x=1',
        until: { atMs: 990 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'committedOnAll', index: 1 },
        ],
      },
      {
        narration:
          '{n2} **crashes**: its counter stops. After 150 ms without news the first views suspect it, the suspicion rides the next gossip, and {n4} campaigns and leads **term 2**.',
        actions: '@1000 crash n2',
        until: { atMs: 1300 },
        moment: { when: { p: 'leaderOfTerm', term: 2 } },
        highlight: { node: 'n4' },
        expect: [
          { p: 'nodeDown', node: 'n2' },
          { p: 'leaderIs', node: 'n4', term: 2 },
        ],
      },
    ],
  },
  {
    name: 'takeover-ttl',
    title: 'The TTL rule: a takeover threshold must exceed the lease',
    intro:
      'You never detect failure, only unresponsiveness. A lock service that hands a lock over once its holder goes quiet is betting the holder is dead; if it hands over before the holder’s own lease (its TTL) runs out, a holder that was only paused still believes it holds the lock.',
    config: presetConfig('takeover-ttl'),
    beats: [
      {
        narration:
          '{A} takes **job:42** with a **10 s** lease and writes. While it holds the lock it sends the leader {n2} a keep-alive every heartbeat. The service takes a lock over after **3 s** without one.',
        actions: '@1000 client A acquire job:42 10000; @1000 client A write result=A-first',
        until: { atMs: 1900 },
        highlight: { node: 'A' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job:42', token: 1 }],
      },
      {
        narration:
          '{A} **pauses** for 5 s (a GC pause it cannot see). After 3 s of silence {n2} suspects it and **takes job:42 over** with 6 s of A’s lease still to run. {B} asks, gets it with **token 2** and writes.',
        actions: '@2000 client A pause 5000; @6000 client B acquire job:42 10000; @6100 client B write result=B-first',
        until: { atMs: 6500 },
        highlight: { node: 'B' },
        moment: { when: { p: 'happened', kind: 'lock-takeover' } },
        expect: [
          { p: 'happened', kind: 'lock-takeover', count: 1 },
          { p: 'clientHolds', client: 'B', key: 'job:42', token: 2 },
        ],
      },
      {
        narration:
          '{A} wakes with 4 s of its lease left and writes: **two holders** of one lock. Only the fenced store refuses token 1; the unfenced store takes the stale write.',
        actions: '@7000 client A write result=A-second',
        until: { atMs: 7500 },
        highlight: { panel: 'invariants' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job:42', token: 1 },
          { p: 'fencedRefused', count: 1 },
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A-second' },
        ],
      },
      {
        narration:
          '**What if** the threshold exceeded the TTL? Rewind with a **12 s** threshold: {n2} never suspects {A} before its lease runs out, so {B} is told **busy** (and does not write), {A}’s write is the lock holder’s, and only the lease’s end at 11 s frees job:42. No two holders.',
        branch: {
          fromBeat: 2,
          change: {
            detector: { kind: 'fixed', takeoverMs: 12000 },
            actions: '@2000 client A pause 5000; @6000 client B acquire job:42 10000; @7000 client A write result=A-second',
          },
        },
        until: { atMs: 11500 },
        expect: [
          { p: 'not', of: { p: 'happened', kind: 'lock-takeover' } },
          { p: 'fencedRefused', count: 0 },
          { p: 'lockHeldBy', key: 'job:42', owner: null },
        ],
      },
    ],
  },
  {
    name: 'grow-and-remove',
    title: 'Membership changes: grow to five, remove the leader',
    intro:
      'A cluster of three takes two new servers and then lets its leader go, one configuration entry at a time (§4.1), each new server first catching up as a learner (§4.2.1).',
    config: presetConfig('grow-and-remove'),
    beats: [
      {
        narration:
          '{n2} wins the first election and leads **term 1** over the three servers {n1}, {n2}, {n3}. A client submits **x=1**: a new leader commits an entry of its term before it changes the configuration.',
        actions: '@400 submit x=1',
        until: { atMs: 590 },
        highlight: { node: 'n2' },
        expect: [
          { p: 'leaderIs', node: 'n2', term: 1 },
          { p: 'committedOnAll', index: 1 },
        ],
      },
      {
        narration:
          '**add n4**: {n2} first sends **n4** the whole log as a **learner**, which counts in no majority. Once **n4** holds the last entry, {n2} appends the configuration **{n1, n2, n3, n4}** and uses it at once, committed or not.',
        actions: '@600 add n4',
        until: { atMs: 990 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'happened', kind: 'member-change', subject: 'n4' },
          { p: 'logIs', node: 'n4', entries: ['x=1', 'config +n4 {n1, n2, n3, n4}'] },
          { p: 'committedOnAll', index: 2 },
        ],
      },
      {
        narration: '**add n5** the same way: now five voters, and a majority is **three**.',
        actions: '@1000 add n5',
        until: { atMs: 1590 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'logIs', node: 'n5', entries: ['x=1', 'config +n4 {n1, n2, n3, n4}', 'config +n5 {n1, n2, n3, n4, n5}'] },
          { p: 'committedOnAll', index: 3 },
        ],
      },
      {
        narration:
          '**remove n2**, the leader itself. {n2} appends **{n1, n3, n4, n5}** and goes on leading without counting its own vote; once the entry commits it **steps down**. It is out of its configuration, so it never campaigns again, and **n5** wins **term 2**.',
        actions: '@1600 remove n2',
        until: { atMs: 3000 },
        moment: { when: { p: 'happened', kind: 'step-down', subject: 'n2' } },
        highlight: { node: 'n2' },
        expect: [
          { p: 'role', node: 'n2', role: 'follower' },
          { p: 'happened', kind: 'step-down', subject: 'n2' },
          { p: 'leaderIs', node: 'n5', term: 2 },
          { p: 'electionSafe' },
        ],
      },
      {
        narration:
          '**What if** a leader started a second change before the first committed? Rewind with the bug **config-changes-at-once** and ask for both servers at once: {n2} takes both as learners, and two configuration entries are uncommitted together — two majorities that need not overlap.',
        branch: { fromBeat: 2, change: { bugs: ['config-changes-at-once'], actions: '@600 add n4; @600 add n5' } },
        until: { atMs: 990 },
        highlight: { panel: 'logs' },
        expect: [
          { p: 'happened', kind: 'member-change', count: 2 },
          { p: 'not', of: { p: 'happened', kind: 'member-change-refused' } },
        ],
      },
    ],
  },
  {
    // Issue 26: the Redlock debate (redis.io's "Distributed Locks with Redis"; Kleppmann, "How to
    // do distributed locking", 2016; Antirez, "Is Redlock safe?", 2016), on five instances.
    name: 'redlock-debate',
    title: 'The Redlock debate',
    intro:
      'Redlock takes one key on a majority of five independent Redis instances, each expiring it by its own wall clock. Kleppmann: its safety rests on timing — pauses and clocks. Antirez: it is safe under its stated model. Watch both.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['r1', 'r2', 'r3', 'r4', 'r5'], clientIds: ['A', 'B'], lock: 'redlock' },
    beats: [
      {
        narration:
          'Kleppmann’s first story, **a pause**. {A} sets **job** on all five instances with a 2-second TTL: a majority answered in time, so {A} holds the lock. No instance gives a fencing token.',
        actions: '@500 client A acquire job 2000',
        until: { when: { p: 'clientHolds', client: 'A', key: 'job' } },
        highlight: { client: 'A' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job' }],
      },
      {
        narration:
          '{A} is about to write its report when it **pauses** for 4 seconds (a stop-the-world GC). Every instance expires **job** by its own clock, and {B} sets it on a majority: {B} holds the lock and writes report=B. No clock misbehaved.',
        actions: '@700 client A pause 4000; @700 client A write report=A; @3500 client B acquire job 1500; @4000 client B write report=B',
        until: { when: { p: 'storeValue', store: 'unfenced', key: 'report', value: 'B' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'clientHolds', client: 'B', key: 'job' },
          { p: 'happened', kind: 'key-expired' },
        ],
      },
      {
        narration:
          '{A} wakes and sends the write it was about to make, not knowing it slept: the unfenced store takes report=A **over B’s**. Redlock’s check and the write are not one step, so no TTL can close the gap — a fencing token could, and Redlock has none.',
        until: { when: { p: 'storeValue', store: 'unfenced', key: 'report', value: 'A' }, capMs: 6000 },
        highlight: { panel: 'stores' },
        expect: [{ p: 'storeValue', store: 'unfenced', key: 'report', value: 'A' }],
      },
      {
        narration:
          'Both release **job**. Kleppmann’s second story, **a clock jump**. The network is split: {A} reaches {r1}, {r2} and {r3}; {B} reaches {r4} and {r5}. {A} sets **job** on its three instances with a 10-second TTL: **a majority**, so {A} holds the lock again.',
        actions:
          '@6000 client A release job; @6000 client B release job; @6400 partition A,r1,r2,r3 | B,r4,r5; @6500 client A acquire job 10000',
        until: { when: { p: 'happened', kind: 'client-acquired', subject: 'A', count: 2 } },
        highlight: { client: 'A' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job' }],
      },
      {
        narration:
          'The split moves: now {r3} is on {B}’s side. Then {r3}’s **wall clock jumps forward** 20 seconds (an NTP step, an operator). By its own clock A’s key is long past its TTL, so {r3} **forgets it** — while {A} still counts 10 seconds.',
        actions: '@7000 heal; @7000 partition A,r1,r2 | B,r3,r4,r5; @7500 clockjump r3 +20000',
        until: { when: { p: 'happened', kind: 'key-expired', subject: 'r3', count: 3 } },
        highlight: { node: 'r3' },
        expect: [
          { p: 'happened', kind: 'clock-jump', subject: 'r3' },
          { p: 'clientHolds', client: 'A', key: 'job' },
        ],
      },
      {
        narration:
          '{B} asks for **job**: {r3}, {r4} and {r5} say yes — **a majority of its own**. Now **two clients hold the lock at once**, each by Redlock’s rules. This is Kleppmann’s point: the safety rests on clocks.',
        actions: '@8000 client B acquire job 10000',
        until: { when: { p: 'clientHolds', client: 'B', key: 'job' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job' },
          { p: 'clientHolds', client: 'B', key: 'job' },
        ],
      },
      {
        narration:
          '**What if** clocks only **drift**, within the allowance Redlock subtracts from the validity time, and never jump? Rewind: {r3} runs 1% fast instead. It still holds A’s key when {B} asks, so {B} gets only two of five and is told **busy**. One holder: safe, as Antirez says, under that model.',
        branch: {
          fromBeat: 5,
          change: {
            actions: '@7000 heal; @7000 partition A,r1,r2 | B,r3,r4,r5; @7500 drift r3 1; @8000 client B acquire job 10000',
          },
        },
        until: { when: { p: 'happened', kind: 'client-busy', subject: 'B' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job' },
          { p: 'not', of: { p: 'clientHolds', client: 'B', key: 'job' } },
        ],
      },
      {
        narration:
          'And fencing? {A} writes result=A with **no token**: Redlock has none to give. The **fenced store refuses** it — it has nothing to compare — and the unfenced store takes it. A lock without a fencing token is not mutual exclusion, whatever its TTL says.',
        actions: '@8600 client A write result=A',
        until: { atMs: 9000 },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'fencedRefused', count: 3 },
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A' },
        ],
      },
    ],
  },
  {
    // Issue 26: ZooKeeper's lock recipe and its warning (ZooKeeper Recipes, "Locks": "the herd effect").
    name: 'zookeeper-herd',
    title: 'ZooKeeper’s herd effect',
    intro:
      'Each waiter for a ZooKeeper lock watches only the child just before its own, so a release wakes one client. Watch the parent instead and every change wakes every waiter.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['n1', 'n2', 'n3'], clientIds: ['A', 'B', 'C', 'D', 'E'], lock: 'zookeeper' },
    beats: [
      {
        narration:
          '{A} creates the first ephemeral sequential child of /locks/job: **the lowest holds**. {B}, {C}, {D} and {E} create theirs; each sets a watch on **the child just before its own** and waits.',
        actions:
          '@500 client A acquire job 20000; @800 client B acquire job 20000; @800 client C acquire job 20000; @800 client D acquire job 20000; @800 client E acquire job 20000',
        until: { atMs: 1400 },
        highlight: { client: 'A' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job' },
          { p: 'not', of: { p: 'happened', kind: 'watch-fired' } },
        ],
      },
      {
        narration:
          '{A} releases: its child is deleted. **One watch fires** — that of the waiter just after it — and that waiter now holds the lock. The others sleep on: nothing they watch changed.',
        actions: '@1500 client A release job',
        until: { when: { p: 'happened', kind: 'watch-fired' } },
        highlight: { panel: 'locks' },
        expect: [
          { p: 'happened', kind: 'watch-fired', count: 1 },
          { p: 'not', of: { p: 'happened', kind: 'watch-fired', count: 2 } },
        ],
      },
      {
        narration:
          '**What if** every waiter watches the lock node’s children instead (the **herd** switch)? Rewind: every new child already wakes whoever was watching, and the release wakes **all four waiters at once** — four notifications, four reads — to find that only one can win. The chapter’s advice: watch only your predecessor.',
        branch: { fromBeat: 1, change: { lockOptions: ['herd'] } },
        until: { atMs: 1600 },
        highlight: { panel: 'locks' },
        expect: [
          { p: 'happened', kind: 'watch-fired', count: 7 },
          { p: 'not', of: { p: 'happened', kind: 'watch-fired', count: 8 } },
        ],
      },
    ],
  },
  {
    // Issue 26: PostgreSQL advisory locks are not replicated (postgresql.org, "Advisory Locks").
    name: 'advisory-failover',
    title: 'An advisory lock meets a failover',
    intro:
      'A database advisory lock lives as long as its connection, on the primary. The replica does not have it: a failover frees every lock, and an old primary that is merely cut off still serves its clients.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['db1', 'db2'], clientIds: ['A', 'B'], lock: 'advisory' },
    beats: [
      {
        narration:
          '{A} takes the advisory lock on **job** on the primary {db1} and reads row version 1 in the same transaction: that version is its token, and it is replicated to {db2}. The lock itself is not.',
        actions: '@500 client A acquire job 10000',
        until: { when: { p: 'clientHolds', client: 'A', key: 'job' } },
        highlight: { node: 'db1' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job', token: 1 }],
      },
      {
        narration:
          'The network splits {A} and {db1} from {B} and {db2}. {db2} hears no WAL for 1.5 s and **promotes itself**: on the new primary **job is free**. {db1} is not fenced off and keeps {A}’s session.',
        actions: '@1000 partition A,db1 | B,db2',
        until: { when: { p: 'happened', kind: 'failover', subject: 'db2' } },
        highlight: { node: 'db2' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job' }],
      },
      {
        narration:
          '{B} asks {db2} and **gets the lock**, with row version 2. **Two clients hold job at once**, each on a primary that believes it is the only one.',
        actions: '@3000 client B acquire job 10000',
        until: { when: { p: 'clientHolds', client: 'B', key: 'job' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'clientHolds', client: 'A', key: 'job', token: 1 },
          { p: 'clientHolds', client: 'B', key: 'job', token: 2 },
        ],
      },
      {
        narration:
          '{B} writes with version 2, then {A} with version 1. The **fenced store refuses** A’s write: 1 is below 2. The unfenced store takes it and B’s work is lost. The row version fences what the lock alone cannot.',
        actions: '@3600 client B write result=B; @3700 client A write result=A',
        until: { atMs: 4000 },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'fencedRefused' },
          { p: 'storeValue', store: 'fenced', key: 'result', value: 'B' },
          { p: 'storeValue', store: 'unfenced', key: 'result', value: 'A' },
        ],
      },
    ],
  },
  {
    // Issue 26: the chapter's decision after its table: "Start by asking what breaks if two nodes act at once."
    name: 'two-at-once',
    title: 'What breaks if two nodes act at once',
    intro:
      'The chapter’s question before picking a lock: if two workers act at once, do you only waste work, or corrupt data? One Redis key with NX and a TTL answers the first; the second needs a token the resource checks.',
    config: { ...DEFAULT_CONFIG, nodeIds: ['r1'], clientIds: ['A', 'B'], lock: 'redis' },
    beats: [
      {
        narration:
          'Worker {A} takes **job** with SET NX PX 2000 on the one Redis instance {r1}: a key with a 2-second TTL. There is no fencing token.',
        actions: '@500 client A acquire job 2000',
        until: { when: { p: 'clientHolds', client: 'A', key: 'job' } },
        highlight: { client: 'A' },
        expect: [{ p: 'clientHolds', client: 'A', key: 'job' }],
      },
      {
        narration:
          '{A} **pauses** for 4 seconds (a GC pause it cannot see). {r1} expires the key by its clock, and worker {B} takes **job** and writes charge=B.',
        actions: '@700 client A pause 4000; @700 client A write charge=A; @3000 client B acquire job 5000; @3500 client B write charge=B',
        until: { when: { p: 'storeValue', store: 'unfenced', key: 'charge', value: 'B' } },
        highlight: { client: 'B' },
        expect: [
          { p: 'clientHolds', client: 'B', key: 'job' },
          { p: 'happened', kind: 'key-expired', subject: 'r1' },
        ],
      },
      {
        narration:
          '{A} wakes and writes charge=A: **both acted**. If the job is idempotent or only costs a little extra, that is fine — one Redis key is enough. If it **double-charges a customer**, you need a lease from a consistent store and a **fencing token the resource checks**: here the fenced store can only refuse every write, for there is no token to check.',
        until: { atMs: 5000 },
        highlight: { panel: 'stores' },
        expect: [
          { p: 'storeValue', store: 'unfenced', key: 'charge', value: 'A' },
          { p: 'fencedRefused', count: 2 },
        ],
      },
    ],
  },
  // The Paxos family's tours (paxosTours.ts), after every Raft one.
  ...PAXOS_TOURS,
];

export function findTour(name: string): Tour | null {
  return TOURS.find((t) => t.name === name) ?? null;
}
