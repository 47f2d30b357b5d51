// What the page shows of a Paxos run, from one run view: the nodes in Lamport's words, the Why
// answers citing "Paxos Made Simple" with the concrete ballots, and the Rules tab's sections and
// the lines its events light. The drawing itself is tested in Chromium (test/browser/paxos.test.ts).
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../src/sim/model/config';
import { parseSchedule } from '../src/sim/model/schedule';
import { PaxosSimulation } from '../src/sim/run/paxosSimulation';
import { takeRunView } from '../src/sim/view/runView';
import { explain } from '../src/sim/teach/why';
import { PAPER } from '../src/sim/teach/paxosWhy';
import { lineOfEventKind } from '../src/sim/teach/pseudocode';
import { pseudocodeFor } from '../src/sim/teach/pseudocodeSections';

function viewAt(protocol: 'paxos' | 'multi-paxos', schedule: string, atMs: number, seed = 42) {
  const sim = new PaxosSimulation(makeConfig({ seed, protocol }), parseSchedule(schedule), { recordDetails: true });
  sim.advanceTo(atMs);
  return { snap: takeRunView(sim), events: sim.cluster.events };
}

describe('a Paxos run view', () => {
  it('carries each node as proposer, acceptor and learner: its phase, its ballot and promise, its slot', () => {
    const { snap } = viewAt('paxos', '@10 propose A to n1', 60);
    expect(snap.protocol).toBe('paxos');
    expect(snap.chosen?.map((c) => [c.slot, c.value, c.ballot])).toEqual([[1, 'A', '1.1']]);
    const n1 = snap.nodes.find((n) => n.id === 'n1')!;
    expect(n1.paxos?.phase).toBe('done');
    expect(n1.paxos?.slots[0]).toEqual({ slot: 1, accepted: { ballot: '1.1', value: 'A' }, learned: 'A' });
  });
});

describe('Why, in a Paxos run', () => {
  it('P1a (§2.2): a Nack names the acceptor, the ballot it promised and the one it refused', () => {
    // Two proposers at once (the duel tour's seed): find a Nack in flight and ask about it.
    const schedule = '@10 propose v=1 to n1; @10 propose v=2 to n5';
    let found: ReturnType<typeof explain> | null = null;
    for (let t = 15; t < 200 && found === null; t++) {
      const { snap } = viewAt('paxos', schedule, t, 17);
      const nack = snap.messages.find((m) => m.type === 'Nack');
      if (nack && nack.fields.type === 'Nack') {
        found = explain({ kind: 'message', seq: nack.seq }, snap);
        expect(found.answer[0]).toMatch(
          new RegExp(`^acceptor ${nack.src} refused: it promised ballot \\d+\\.\\d, above ${nack.dst}'s \\d+\\.\\d\\. `),
        );
      }
    }
    expect(found?.rule).toBe(PAPER.p1a);
  });

  it('P2c (§2.2): a proposer in phase 2 is told it may not pick its value freely', () => {
    const { snap } = viewAt('paxos', '@5 partition n1,n2,n3 | n4,n5; @10 propose A to n1; @150 heal; @200 propose B to n5', 225);
    const answer = explain({ kind: 'node', id: 'n5' }, snap);
    expect(answer.title).toBe('Why is n5 proposing?');
    expect(answer.answer[0]).toContain('it must propose the one with the highest ballot');
    expect(answer.rule).toBe(PAPER.p2c);
  });

  it('§2.1: a slot says what was chosen, in which ballot, and whether this node learned it', () => {
    const { snap } = viewAt('paxos', '@10 propose A to n1', 100);
    const answer = explain({ kind: 'entry', node: 'n3', index: 1 }, snap);
    expect(answer.answer).toEqual([
      'Acceptor n3 accepted A in slot 1 at ballot 1.1 (the last Accept it took there).',
      expect.stringMatching(/^A was chosen in slot 1 at \d+ ms \(ballot 1\.1\): a majority accepted it\. n3 has learned it\.$/),
    ]);
    expect(answer.rule).toBe(PAPER.chosen);
  });

  it('§3: the Multi-Paxos leader says it skips Prepare for new commands', () => {
    const { snap } = viewAt('multi-paxos', '@400 submit x=1', 450);
    expect(snap.leader).toBe('n2');
    const answer = explain({ kind: 'node', id: 'n2' }, snap);
    expect(answer.answer[0]).toContain('New commands now go straight to phase 2 (Accept)');
    expect(answer.rule).toBe(PAPER.multi);
  });
});

describe('the Rules tab of a Paxos run', () => {
  it("shows the paper's proposer, acceptor and learner rules (and Multi-Paxos's leader), no Raft section", () => {
    const ids = (protocol: 'paxos' | 'multi-paxos') => pseudocodeFor(makeConfig({ protocol })).map((s) => s.id);
    expect(ids('paxos')).toEqual(['px.proposer', 'px.acceptor', 'px.learner']);
    expect(ids('multi-paxos')).toEqual(['px.proposer', 'px.acceptor', 'px.learner', 'mp']);
    expect(pseudocodeFor(makeConfig({})).some((s) => s.id.startsWith('px'))).toBe(false);
  });

  it("lights the proposer's lines from its events: Prepare, a won ballot, a pre-emption, a value chosen", () => {
    expect(['paxos-prepare', 'paxos-leader', 'paxos-preempted', 'paxos-chosen'].map((k) => lineOfEventKind(k as never))).toEqual([
      'px.prepare',
      'px.quorum',
      'px.preempted',
      'px.learn',
    ]);
  });
});
