/** The Why answers on hand-built snapshots: each question, with its concrete values and its rule. */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../src/sim/model/events';
import type { ClientView, LogEntryView, MessageView, NodeView, RunView, StoreView } from '../src/sim/view/runView';
import type { StoreWriteRecord } from '../src/sim/model/types';
import { explain, refusalText, type Explanation } from '../src/sim/teach/why';
import { findPreset } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { detailsSince, takeRunView } from '../src/sim/view/runView';

// -- a small builder ----------------------------------------------------------------------

/** `log('x=1@1', 'x=2@1', 'x=3@2')`: entries 1.. with text@term. */
function log(...specs: string[]): LogEntryView[] {
  return specs.map((s, i) => {
    const [text, term] = s.split('@');
    return {
      index: i + 1,
      term: Number(term),
      text,
      kind: text.startsWith('grant') ? 'grant' : text.startsWith('expire') ? 'expire' : 'plain',
    };
  });
}

function node(id: string, over: Partial<NodeView> = {}): NodeView {
  const entries = over.log ?? [];
  return {
    id,
    alive: true,
    role: 'follower',
    term: 1,
    votedFor: null,
    votes: [],
    leaderId: null,
    electionTimerStart: 0,
    electionDeadline: 1200,
    heartbeatDue: 0,
    logLength: entries.length,
    log: entries,
    commitIndex: 0,
    lastApplied: 0,
    nextIndex: {},
    matchIndex: {},
    locks: [],
    nextToken: 1,
    driftPct: 0,
    localNowMs: 1000,
    ...over,
  };
}

function snap(nodes: NodeView[], over: Partial<RunView> = {}): RunView {
  const leader = nodes.filter((n) => n.alive && n.role === 'leader').sort((a, b) => b.term - a.term)[0];
  return {
    now: 1000,
    nodes,
    leader: leader?.id ?? null,
    messages: [],
    drops: [],
    partitions: [],
    clients: [],
    stores: null,
    lossPct: 0,
    sent: {},
    dropped: 0,
    eventCount: 0,
    ...over,
  };
}

function client(id: string, over: Partial<ClientView> = {}): ClientView {
  return {
    id,
    alive: true,
    paused: false,
    pausedUntil: null,
    status: 'idle',
    believedLeader: 'n1',
    currentToken: null,
    holdings: [],
    queue: [],
    ...over,
  };
}

function write(over: Partial<StoreWriteRecord>): StoreWriteRecord {
  return {
    t: 100,
    client: 'A',
    key: 'result',
    value: 'A-first',
    token: 1,
    lockKey: 'job:42',
    accepted: true,
    leaseEnded: false,
    reason: null,
    ...over,
  };
}

function store(id: 'fenced' | 'unfenced', writes: StoreWriteRecord[]): StoreView {
  return {
    id,
    checksTokens: id === 'fenced',
    values: [],
    accepted: writes.filter((w) => w.accepted).length,
    rejected: writes.filter((w) => !w.accepted).length,
    writes,
  };
}

const text = (e: Explanation) => [e.title, ...e.answer].join('\n');

// -- the chapter's stranded minority leader, by hand ----------------------------------------

const common = log('x=1@2', 'x=2@2');
const strandedSnap = snap(
  [
    node('n1', {
      role: 'leader',
      term: 3,
      votedFor: 'n1',
      votes: ['n1', 'n4', 'n5'],
      log: log('x=1@2', 'x=2@2', 'y=1@3'),
      commitIndex: 2,
      lastApplied: 2,
      matchIndex: { n2: 0, n3: 0, n4: 2, n5: 2 },
    }),
    node('n2', { term: 2, leaderId: 'n3', log: common, commitIndex: 2 }),
    node('n3', {
      role: 'leader',
      term: 2,
      votedFor: 'n3',
      votes: ['n1', 'n3', 'n5'],
      log: log('x=1@2', 'x=2@2', 'x=3@2'),
      commitIndex: 2,
      lastApplied: 2,
      matchIndex: { n1: 2, n2: 2, n4: 2, n5: 2 },
    }),
    node('n4', { term: 3, votedFor: 'n1', log: common, commitIndex: 2 }),
    node('n5', { term: 3, votedFor: 'n1', log: common, commitIndex: 2 }),
  ],
  {
    now: 1753,
    leader: 'n1',
    partitions: [
      ['n2', 'n3'],
      ['n1', 'n4', 'n5'],
    ],
  },
);

describe('why is this entry not committed', () => {
  it('a minority leader counts 1 of 5 and can reach at most 2 of 5 (§5.3)', () => {
    const e = explain({ kind: 'entry', node: 'n3', index: 3 }, strandedSnap);
    const t = text(e);
    expect(e.title).toBe('Why is x=3 at index 3 not committed on n3?');
    expect(t).toContain('not committed yet on n3: its commit index is 2');
    expect(t).toContain('3 of 5 nodes');
    expect(t).toContain('1 of 5 hold it — n3');
    expect(t).toContain('n3 can reach only n2 and n3');
    expect(t).toContain('2 of 5 is not a majority');
    expect(t).toContain('n1 leads term 3 and has y=1 (term 3) at index 3');
    expect(e.rule).toContain('§5.3');
    expect(e.rule).toContain('Figure 2, Rules for Servers, Leaders');
    expect(e.facts).toContainEqual(['holders', '1 of 5: n3']);
  });

  it('a majority of an old-term entry does not commit it (Figure 8)', () => {
    const s = snap([
      node('n1', { role: 'leader', term: 4, log: log('a@1', 'b@2'), commitIndex: 1, matchIndex: { n2: 2, n3: 2, n4: 0, n5: 0 } }),
      node('n2', { term: 4, log: log('a@1', 'b@2'), commitIndex: 1 }),
      node('n3', { term: 4, log: log('a@1', 'b@2'), commitIndex: 1 }),
      node('n4', { term: 4, log: log('a@1'), commitIndex: 1 }),
      node('n5', { term: 4, log: log('a@1'), commitIndex: 1 }),
    ]);
    const e = explain({ kind: 'entry', node: 'n1', index: 2 }, s);
    const t = text(e);
    expect(t).toContain('3 of 5 hold it — n1, n2 and n3');
    expect(t).toContain('it is from term 2 and n1 leads term 4');
    expect(t).toContain('Figure 8');
    expect(e.facts).toContainEqual(['term rule', 'entry term 2 ≠ leader term 4 (Figure 8)']);
  });

  it('a follower counts holders from every log and waits for leaderCommit', () => {
    const s = snap([
      node('n1', { role: 'leader', term: 2, log: log('a@2'), commitIndex: 0, matchIndex: { n2: 1, n3: 0 } }),
      node('n2', { term: 2, leaderId: 'n1', log: log('a@2') }),
      node('n3', { term: 2, leaderId: 'n1', log: log('a@2') }),
    ]);
    const t = text(explain({ kind: 'entry', node: 'n3', index: 1 }, s));
    expect(t).toContain('3 of 3 nodes have this entry (index 1, term 2) in their logs: n1, n2 and n3');
    expect(t).toContain("leader's leaderCommit");
  });

  it('a committed entry says why it is safe', () => {
    const e = explain({ kind: 'entry', node: 'n1', index: 2 }, strandedSnap);
    expect(e.title).toBe('Why is x=2 at index 2 committed on n1?');
    expect(text(e)).toContain("n1's commit index is 2");
    expect(e.rule).toContain('Leader Completeness');
  });
});

describe('why is this node what it is', () => {
  const events: SimEvent[] = [
    { t: 1360, kind: 'leader', subjects: ['n3'], text: 'n3 wins term 2 with votes from n1, n3, n5', line: '' },
    { t: 1168, kind: 'crash', subjects: ['n2'], text: 'n2 crashes', line: '' },
  ];
  it('a stale leader is told it is stale, and why it cannot commit', () => {
    const e = explain({ kind: 'node', id: 'n3' }, strandedSnap, events);
    const t = text(e);
    expect(t).toContain('n3 is leader of term 2');
    expect(t).toContain('at t=1360 ms');
    expect(t).toContain('stale leader');
    expect(t).toContain('n1 leads term 3');
    expect(t).toContain('{n2, n3} | {n1, n4, n5}');
    expect(e.rule).toContain('All Servers');
  });

  it('a down node keeps its term, vote and log', () => {
    const s = snap([node('n1', { role: 'leader', term: 2 }), node('n2', { alive: false, term: 2, votedFor: 'n1', log: common })]);
    const t = text(explain({ kind: 'node', id: 'n2' }, s, events));
    expect(t).toContain('n2 is down (it crashed at t=1168 ms)');
    expect(t).toContain('keeps its term (2), its vote (n1) and its log of 2 entries');
  });

  it('a follower names its timer and the next term', () => {
    const s = snap([node('n1', { term: 5, leaderId: 'n2', electionDeadline: 1150 }), node('n2', { role: 'leader', term: 5 })]);
    const e = explain({ kind: 'node', id: 'n1' }, s);
    expect(text(e)).toContain('150 ms left');
    expect(text(e)).toContain('candidate in term 6');
    expect(e.rule).toContain('Followers');
  });
});

describe('why did this node (not) vote', () => {
  it('voted: one vote per term, written to disk, refusing the other candidate', () => {
    const s = snap([
      node('n1', { role: 'candidate', term: 3, votedFor: 'n1', votes: ['n1'], log: common }),
      node('n2', { role: 'candidate', term: 3, votedFor: 'n2', votes: ['n2', 'n3'], log: common }),
      node('n3', { term: 3, votedFor: 'n2', log: common }),
    ]);
    const t = text(explain({ kind: 'vote', node: 'n3' }, s));
    expect(t).toContain('n3 voted for n2 in term 3');
    expect(t).toContain('n3 refuses n1 in term 3: its one vote is spent');
  });

  it('did not vote: the candidate’s log is behind (§5.4.1)', () => {
    const s = snap([
      node('n1', { role: 'candidate', term: 4, votedFor: 'n1', votes: ['n1'], log: log('a@1') }),
      node('n2', { term: 4, log: log('a@1', 'b@3') }),
      node('n3', { term: 3, alive: false }),
    ]);
    const e = explain({ kind: 'vote', node: 'n2' }, s);
    const t = text(e);
    expect(t).toContain('n2 has not voted in term 4');
    expect(t).toContain('n2 refuses n1: n2 has a log ending at index 2, term 3, n1 only a log ending at index 1, term 1');
    expect(e.rule).toContain('§5.4.1');
    expect(e.rule).toContain('RequestVote receiver rule 2');
  });

  it('a candidate’s vote marks: who gave, who cannot and why', () => {
    const s = snap(
      [
        node('n1', { role: 'candidate', term: 5, votedFor: 'n1', votes: ['n1', 'n2'], log: common }),
        node('n2', { term: 5, votedFor: 'n1', log: common }),
        node('n3', { term: 5, votedFor: 'n4', log: common }),
        node('n4', { role: 'candidate', term: 5, votedFor: 'n4', votes: ['n3', 'n4'], log: common }),
        node('n5', { term: 5, log: common }),
      ],
      { partitions: [['n1', 'n2', 'n3', 'n4'], ['n5']] },
    );
    const t = text(explain({ kind: 'vote', node: 'n1' }, s));
    expect(t).toContain('has 2 votes: n1 and n2 (a majority is 3 of 5)');
    expect(t).toContain('n3 already voted for n4 in term 5');
    expect(t).toContain('n5 cannot hear n1');
    expect(text(explain({ kind: 'vote', node: 'n4' }, s))).toContain('n1 is campaigning in term 5 too and voted for itself');
  });
});

describe('why is there no leader', () => {
  it('split votes, a crashed node and a partition, all named', () => {
    const s = snap(
      [
        node('n1', { role: 'candidate', term: 7, votedFor: 'n1', votes: ['n1', 'n2'] }),
        node('n2', { term: 7, votedFor: 'n1' }),
        node('n3', { role: 'candidate', term: 7, votedFor: 'n3', votes: ['n3', 'n4'] }),
        node('n4', { term: 7, votedFor: 'n3' }),
        node('n5', { alive: false, term: 6 }),
      ],
      { partitions: [['n1', 'n2', 'n3', 'n4'], ['n5']] },
    );
    const e = explain({ kind: 'no-leader' }, s, [{ t: 800, kind: 'crash', subjects: ['n5'], text: 'n5 crashes', line: '' }]);
    const t = text(e);
    expect(e.title).toBe('Why is there no leader?');
    expect(t).toContain('3 of 5 nodes');
    expect(t).toContain('n5 is down (the last crash at t=800 ms); 4 of 5 nodes are up');
    expect(t).toContain('Split vote in term 7: n1 and n3 campaign at once');
    expect(t).toContain('n1 has 2 votes, n3 has 2 votes');
    expect(t).toContain('term 8');
    expect(t).toContain('{n1, n2, n3, n4} with 4 up | {n5} with 0 up');
    expect(e.rule).toContain('§5.2');
  });

  it('no side of the partition has a majority', () => {
    const s = snap([node('n1', { term: 2 }), node('n2', { term: 2 }), node('n3', { term: 2 }), node('n4', { term: 2 })], {
      partitions: [
        ['n1', 'n2'],
        ['n3', 'n4'],
      ],
    });
    const t = text(explain({ kind: 'no-leader' }, s));
    expect(t).toContain('No side has 3 live nodes');
    expect(t).toContain('The first to run out is n1');
  });

  it('says so when there is a leader', () => {
    expect(text(explain({ kind: 'no-leader' }, strandedSnap))).toContain('Yes: n1 leads term 3');
  });
});

describe('why does this message say what it says', () => {
  const ae: MessageView = {
    seq: 9,
    type: 'AppendEntries',
    src: 'n3',
    dst: 'n2',
    sentAt: 1753,
    deliverAt: 1762,
    lost: false,
    label: '',
    ok: null,
    heartbeat: false,
    fields: {
      type: 'AppendEntries',
      term: 2,
      leader: 'n3',
      prevLogIndex: 2,
      prevLogTerm: 2,
      entries: [{ index: 3, term: 2, text: 'x=3' }],
      leaderCommit: 2,
    },
  };
  it('an AppendEntries shows its fields and predicts the follower’s answer', () => {
    const e = explain({ kind: 'message', seq: 9 }, { ...strandedSnap, messages: [ae] });
    expect(e.facts).toEqual(
      expect.arrayContaining([
        ['term', '2'],
        ['prevLogIndex', '2'],
        ['prevLogTerm', '2'],
        ['entries', '3: x=3 (term 2)'],
        ['leaderCommit', '2'],
      ]),
    );
    expect(text(e)).toContain('n2 has index 2 with term 2');
    expect(text(e)).toContain('it will accept');
    expect(e.rule).toContain('AppendEntries receiver rule 2');
  });

  it('a mismatched prevLogTerm is refused, and a message across the cut is dropped', () => {
    const bad = { ...ae, seq: 10, src: 'n1', dst: 'n2', fields: { ...ae.fields, leader: 'n1', prevLogTerm: 1 } } as MessageView;
    const t = text(explain({ kind: 'message', seq: 10 }, { ...strandedSnap, messages: [bad] }));
    expect(t).toContain('n2 has term 2 at index 2, not 1: it will refuse');
    expect(t).toContain('different sides of the partition');
  });

  it('a RequestVote names lastLogIndex/Term and predicts a refusal by a voter ahead', () => {
    const rv: MessageView = {
      ...ae,
      seq: 11,
      type: 'RequestVote',
      src: 'n2',
      dst: 'n4',
      fields: { type: 'RequestVote', term: 4, candidate: 'n2', lastLogIndex: 1, lastLogTerm: 2 },
    };
    const e = explain({ kind: 'message', seq: 11 }, { ...strandedSnap, partitions: [], messages: [rv] });
    expect(e.facts).toEqual(
      expect.arrayContaining([
        ['lastLogIndex', '1'],
        ['lastLogTerm', '2'],
      ]),
    );
    expect(text(e)).toContain('n4 has a log ending at index 2, term 2');
    expect(text(e)).toContain('it will refuse');
  });

  it('a store write shows its token against the highest accepted', () => {
    const sw: MessageView = {
      ...ae,
      seq: 12,
      type: 'StoreWrite',
      src: 'A',
      dst: 'fenced',
      fields: { type: 'StoreWrite', key: 'result', value: 'A-second', token: 1, lockKey: 'job:42' },
    };
    const s = {
      ...strandedSnap,
      messages: [sw],
      stores: { fenced: store('fenced', [write({}), write({ client: 'B', value: 'B-first', token: 2 })]), unfenced: store('unfenced', []) },
    };
    const e = explain({ kind: 'message', seq: 12 }, s);
    expect(e.facts).toContainEqual(['token', '1']);
    expect(text(e)).toContain('(now 2)');
    expect(e.rule).toContain('Leases, fencing tokens and the Redlock debate');
  });
});

describe('why does this client still think it holds the lock', () => {
  const withLock = (owner: string, token: number) =>
    snap(
      [
        node('n1', {
          role: 'leader',
          term: 1,
          lastApplied: 3,
          locks: [{ key: 'job:42', owner, token, leaseMs: 10000, remainingMs: 5000 }],
        }),
      ],
      { now: 13000 },
    );
  it('its lease ended and the committed table gives the key to B', () => {
    const s = {
      ...withLock('B', 2),
      clients: [
        client('A', { paused: true, pausedUntil: 13500, currentToken: 1, holdings: [{ key: 'job:42', token: 1, deadline: 10000 }] }),
      ],
    };
    const e = explain({ kind: 'client', id: 'A' }, s);
    const t = text(e);
    expect(e.title).toBe('Why does A still think it holds the lock?');
    expect(t).toContain('A still thinks it holds job:42 with token 1');
    expect(t).toContain('its lease ended at t=10000 ms, 3000 ms ago');
    expect(t).toContain('gives job:42 to B with token 2');
    expect(t).toContain('paused until t=13500 ms');
    expect(t).toContain('fenced store refuses any token below the highest');
    expect(e.rule).toContain('Leases, fencing tokens and the Redlock debate');
  });

  it('a client inside its lease, agreeing with the table, just holds it', () => {
    const s = {
      ...withLock('A', 1),
      clients: [client('A', { currentToken: 1, holdings: [{ key: 'job:42', token: 1, deadline: 20000 }] })],
    };
    const e = explain({ kind: 'client', id: 'A' }, s);
    expect(e.title).toBe('What does client A hold?');
    expect(text(e)).toContain('7000 ms from now');
  });
});

describe('why does this node give the lock to this client', () => {
  it('holder, token, lease by its clock, and expiry only by the leader’s Expire', () => {
    const s = snap([
      node('n1', { role: 'leader', term: 2, nextToken: 3 }),
      node('n2', {
        term: 2,
        driftPct: 50,
        nextToken: 3,
        locks: [{ key: 'job:42', owner: 'A', token: 2, leaseMs: 10000, remainingMs: -400 }],
      }),
    ]);
    const e = explain({ kind: 'lock', node: 'n2', key: 'job:42' }, s);
    const t = text(e);
    expect(t).toContain('held by A with fencing token 2');
    expect(t).toContain('ran out 400 ms ago');
    expect(t).toContain('+50% off true time');
    expect(t).toContain('Only the leader');
    expect(t).toContain('waits for n1');
    expect(e.rule).toContain('Leases, fencing tokens');
  });

  it('the leader names its pending Expire', () => {
    const s = snap([
      node('n1', {
        role: 'leader',
        term: 2,
        log: log('grant job:42 to A (10000 ms)@2', 'expire job:42 token 1@2'),
        commitIndex: 1,
        lastApplied: 1,
        locks: [{ key: 'job:42', owner: 'A', token: 1, leaseMs: 10000, remainingMs: -5 }],
      }),
    ]);
    expect(text(explain({ kind: 'lock', node: 'n1', key: 'job:42' }, s))).toContain(
      "expire job:42 token 1 is already in n1's log at index 2",
    );
  });
});

describe('why was this write refused (or accepted)', () => {
  const writes = [
    write({}),
    write({ t: 12000, client: 'B', value: 'B-first', token: 2 }),
    write({ t: 13000, value: 'A-second', token: 1, accepted: false, reason: 'token 1 is older than token 2' }),
  ];
  const unfencedWrites = [
    write({}),
    write({ t: 12000, client: 'B', value: 'B-first', token: 2 }),
    write({ t: 13000, value: 'A-second', token: 1, leaseEnded: true }),
  ];
  const s = snap([node('n1')], { stores: { fenced: store('fenced', writes), unfenced: store('unfenced', unfencedWrites) } });
  it('the fenced store refuses token 1 after token 2', () => {
    const e = explain({ kind: 'store-write', store: 'fenced', index: 2 }, s);
    expect(e.title).toBe("Why was A's write refused?");
    expect(text(e)).toContain('token 1 is lower than token 2, the highest it had accepted for result');
    expect(e.facts).toContainEqual(['highest accepted before', '2']);
    expect(e.rule).toContain('rejects any token below the highest');
  });
  it('the fenced store accepts a higher token', () => {
    expect(text(explain({ kind: 'store-write', store: 'fenced', index: 1 }, s))).toContain('2 is not below 1');
  });
  it('the unfenced store accepts anything, even the stale write', () => {
    const t = text(explain({ kind: 'store-write', store: 'unfenced', index: 2 }, s));
    expect(t).toContain('it never looks at tokens');
    expect(t).toContain('stale write overwrote newer data');
  });
});

it('a subject that is gone says so instead of throwing', () => {
  expect(explain({ kind: 'entry', node: 'n9', index: 1 }, strandedSnap).answer[0]).toContain('not in this moment');
  expect(explain({ kind: 'message', seq: 999 }, strandedSnap).answer[0]).toContain('not in this moment');
});

describe('Why a vote was refused: the one reason the engine recorded, not a list of possible ones', () => {
  // Split votes (identical 200 ms timeouts): at 200 ms every node is a candidate and has voted
  // for itself, so every RequestVote is refused with "already voted".
  const run = (until: number) => {
    const preset = findPreset('split-vote')!;
    const sim = new Simulation(preset.config, parseSchedule(preset.schedule), { recordDetails: true });
    sim.advanceTo(until);
    return { snap: takeRunView(sim), details: detailsSince(sim, 0) };
  };

  it('names the refusing reply’s reason and time: already voted for itself in term 1', () => {
    for (let t = 201; t <= 230; t++) {
      const { snap, details } = run(t);
      const reply = snap.messages.find((m) => m.type === 'VoteReply' && m.ok === false);
      if (!reply) continue;
      const why = explain({ kind: 'message', seq: reply.seq }, snap, [], details);
      const text = why.answer.join(' ');
      expect(text).toContain(`${reply.src} refused ${reply.dst} at t=${reply.sentAt} ms: it had already voted for ${reply.src} in term 1`);
      expect(text).not.toMatch(/ or /);
      return;
    }
    throw new Error('no refused vote reply in flight between 201 and 230 ms');
  });

  it('a candidate’s missing votes say why each voter refused it', () => {
    const { snap, details } = run(215);
    const why = explain({ kind: 'vote', node: 'n1' }, snap, [], details);
    const refused = why.answer.filter((p) => p.includes('refused n1 at t='));
    expect(refused.length).toBeGreaterThan(0);
    for (const p of refused) expect(p).toMatch(/it had already voted for (n\d) in term 1 — one vote per term/);
  });

  it('a stale-term refusal names both terms', () => {
    const text = refusalText({
      t: 900,
      kind: 'vote-refused',
      subjects: ['n3', 'n1'],
      lines: [],
      afterEvent: 0,
      values: {
        node: 'n3',
        candidate: 'n1',
        reason: 'stale-term',
        term: 4,
        candidateTerm: 3,
        votedFor: 'n5',
        lastLogTerm: 2,
        lastLogIndex: 3,
        candidateLastLogTerm: 2,
        candidateLastLogIndex: 3,
      },
    } as never);
    expect(text).toBe(
      'n3 refused n1 at t=900 ms: the request was for term 3, older than n3’s term 4 (Figure 2, RequestVote rule 1).'.replace('’', "'"),
    );
  });
});
