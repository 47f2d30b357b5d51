/**
 * "Why?" in a Paxos run (src/sim/paxos/): answers from one run view, naming the concrete nodes,
 * ballots and slots and the rule of "Paxos Made Simple" they follow. why.ts hands every subject
 * of a Paxos run here, so a Raft answer never has to know what a ballot is.
 */
import type { SimEvent } from '../model/events';
import { ballotText, roundOf } from '../model/ballot';
import { majorityOf } from '../model/majority';
import type { MessageView, NodeView, PaxosNodeView, RunView } from '../view/runView';
import type { Explanation, WhySubject } from './whyTypes';

export const PAPER = {
  p1a: 'Paxos Made Simple §2.2, P1a: an acceptor accepts a proposal numbered n unless it has responded to a Prepare numbered greater than n',
  promise:
    'Paxos Made Simple §2.2, phase 1b: an acceptor answers Prepare(n) above every ballot it promised with a promise and the highest-numbered proposal it accepted',
  p2c: 'Paxos Made Simple §2.2, P2c: with promises from a majority, propose the value of the highest-numbered proposal among them, or any value if none carries one',
  chosen:
    'Paxos Made Simple §2.1: a value is chosen when a majority of acceptors accepted it (two majorities intersect, so at most one is)',
  learn: 'Paxos Made Simple §2.3: a learner learns a value once it hears a majority of acceptors accepted it',
  multi:
    'Paxos Made Simple §3: a leader that finished phase 1 for every slot sends phase 2 at once for each new command; a new leader fills gaps with no-ops',
  duel: 'Paxos Made Simple §2.4 (progress): two proposers can keep pre-empting each other; a distinguished proposer, or a random back-off, restores progress',
} as const;

const list = (ids: readonly string[]) =>
  ids.length === 0 ? 'nobody' : ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;

function unknown(title: string): Explanation {
  return { title, answer: ['That is not in this run any more.'], rule: PAPER.chosen };
}

function slotFacts(p: PaxosNodeView): (readonly [string, string])[] {
  return p.slots
    .slice(-6)
    .map((s) => [
      `slot ${s.slot}`,
      `${s.accepted !== null ? `accepted ${s.accepted.value} in ${s.accepted.ballot}` : 'nothing accepted'}${s.learned !== null ? `; learned ${s.learned}` : ''}`,
    ]);
}

function whyNode(snap: RunView, n: NodeView, multi: boolean): Explanation {
  const p = n.paxos as PaxosNodeView;
  const maj = majorityOf(snap.nodes.length);
  const facts: (readonly [string, string])[] = [['promised', p.promised], ['own ballot', p.ballot], ...slotFacts(p)];
  if (!n.alive)
    return {
      title: `Why is ${n.id} down?`,
      answer: [
        `${n.id} crashed. Its promise (${p.promised}) and what it accepted are on stable storage and survive a restart; what it proposes and learns does not.`,
      ],
      rule: 'Paxos Made Simple §2.3: an acceptor must remember its promise and its accepted proposal even if it fails and restarts',
      facts,
    };
  switch (p.phase) {
    case 'preparing':
      return {
        title: `Why is ${n.id} preparing?`,
        answer: [
          `${n.id} runs phase 1 with ballot ${p.ballot}: it asked every acceptor to promise to ignore lower ballots. Promises so far: ${list(p.promises)} (${p.promises.length} of the ${maj} it needs).`,
          multi
            ? `It has heard no leader within its election timeout, so it campaigns for every slot it has not learned.`
            : `A client gave it ${p.ownValue ?? 'a value'} to propose.`,
        ],
        rule: PAPER.promise,
        facts,
      };
    case 'accepting':
      return {
        title: `Why is ${n.id} proposing?`,
        answer: [
          `A majority promised ballot ${p.ballot}, so ${n.id} asked the acceptors to accept a value in it. It may not pick freely: if any promise carried an accepted value, it must propose the one with the highest ballot, which is how a value once chosen stays chosen.`,
        ],
        rule: PAPER.p2c,
        facts,
      };
    case 'backoff':
      return {
        title: `Why is ${n.id} waiting?`,
        answer: [
          `Its ballot ${p.ballot} was pre-empted: an acceptor had promised a higher one. Preparing again at once could pre-empt the other proposer in turn, for ever; it waits a random back-off first.`,
        ],
        rule: PAPER.duel,
        facts,
      };
    case 'leading':
      return {
        title: `Why does ${n.id} lead?`,
        answer: [
          `${n.id} finished phase 1 with ballot ${p.ballot} for every slot it had not learned: it re-proposed what the promises carried and filled gaps with no-ops. New commands now go straight to phase 2 (Accept) in the next slot — no Prepare — until a higher ballot pre-empts it.`,
          `State machine: ${p.state}.`,
        ],
        rule: PAPER.multi,
        facts,
      };
    case 'done':
      return {
        title: `Why has ${n.id} stopped proposing?`,
        answer: [
          `${n.id}'s learner has learned the chosen value (${p.slots.find((s) => s.slot === 1)?.learned ?? 'it'}), so its proposal has nothing left to do.`,
        ],
        rule: PAPER.learn,
        facts,
      };
    default:
      return {
        title: `Why is ${n.id} an acceptor?`,
        answer: [
          `${n.id} proposes nothing now; as an acceptor it promised ballot ${p.promised}, so it refuses any Prepare or Accept below it.${multi && p.leaderId !== null ? ` It follows leader ${p.leaderId}. State machine: ${p.state}.` : ''}`,
        ],
        rule: PAPER.p1a,
        facts,
      };
  }
}

function whySlot(snap: RunView, n: NodeView, slot: number): Explanation {
  const p = n.paxos as PaxosNodeView;
  const s = p.slots.find((x) => x.slot === slot);
  const chosen = snap.chosen?.find((c) => c.slot === slot);
  if (s === undefined) return unknown(`Why is slot ${slot} like this on ${n.id}?`);
  const answer: string[] = [];
  answer.push(
    s.accepted !== null
      ? `Acceptor ${n.id} accepted ${s.accepted.value} in slot ${slot} at ballot ${s.accepted.ballot} (the last Accept it took there).`
      : `Acceptor ${n.id} accepted nothing in slot ${slot}.`,
  );
  answer.push(
    chosen !== undefined
      ? `${chosen.value} was chosen in slot ${slot} at ${chosen.atMs} ms (ballot ${chosen.ballot}): a majority accepted it. ${s.learned !== null ? `${n.id} has learned it.` : `${n.id} has not learned it yet.`}`
      : `Nothing is known to be chosen in slot ${slot} yet: no learner has heard a majority accept one value in one ballot.`,
  );
  return { title: `Why is slot ${slot} like this on ${n.id}?`, answer, rule: chosen !== undefined ? PAPER.chosen : PAPER.learn };
}

function whyMessage(snap: RunView, m: MessageView): Explanation {
  const f = m.fields;
  const title = `Why this ${m.type} from ${m.src} to ${m.dst}?`;
  switch (f.type) {
    case 'Prepare':
      return {
        title,
        answer: [
          `${m.src} asks acceptor ${m.dst} to promise ballot ${ballotText(f.ballot)}: phase 1 of a ballot higher than any ${m.src} has seen (round ${roundOf(f.ballot)}, proposer ${m.src}).`,
        ],
        rule: PAPER.promise,
      };
    case 'Promise':
      return {
        title,
        answer: [
          `${m.src} promised ${m.dst}'s ballot: it had promised nothing higher. ${f.accepted.length === 0 ? 'It accepted nothing yet, so the proposer may choose a value.' : `The promise carries what it accepted (${f.accepted.map((a) => `slot ${a.slot}: ${a.value}`).join(', ')}), which the proposer must re-propose if it is the highest-ballot one.`}`,
        ],
        rule: f.accepted.length === 0 ? PAPER.promise : PAPER.p2c,
      };
    case 'Nack':
      return {
        title,
        answer: [
          `acceptor ${m.src} refused: it promised ballot ${ballotText(f.promised)}, above ${m.dst}'s ${ballotText(f.ballot)}. So ${m.dst}'s ${f.phase === 1 ? 'Prepare' : 'Accept'} is turned down: its ballot is beaten and it must prepare a higher one.`,
        ],
        rule: PAPER.p1a,
      };
    case 'Accept':
      return {
        title,
        answer: [
          f.entries.length === 0
            ? `The leader's heartbeat: it keeps ${m.dst} from campaigning${f.decided.length > 0 ? ` and names the slots chosen since (${f.decided.map((d) => d.slot).join(', ')}), so every learner learns them` : ''}.`
            : `${m.src} asks ${m.dst} to accept ${f.entries.map((e) => `${e.value} in slot ${e.slot}`).join(', ')}: a majority promised this ballot, and P2c decided the value.`,
        ],
        rule: f.entries.length === 0 ? PAPER.multi : PAPER.p2c,
      };
    case 'Accepted':
      return {
        title,
        answer: [
          `${m.src} accepted ${f.entries.map((e) => e.value).join(', ') || 'the heartbeat'} and tells ${m.dst}; once a majority did in one ballot, the value is chosen.`,
        ],
        rule: PAPER.learn,
      };
    default:
      return { title, answer: [m.label], rule: PAPER.chosen };
  }
}

function whyNoLeader(snap: RunView, events: readonly SimEvent[]): Explanation {
  const last = [...events].reverse().find((e) => e.kind === 'paxos-preempted' || e.kind === 'crash' || e.kind === 'partition');
  return {
    title: 'Why is there no leader?',
    answer: [
      snap.protocol === 'paxos'
        ? 'Single-decree Paxos has no leader: any node may propose, and safety never needs one. Progress does — two proposers can keep pre-empting each other.'
        : `No node has finished phase 1 with a ballot a majority promised.${last ? ` The last event that explains it: "${last.text}".` : ''}`,
    ],
    rule: PAPER.duel,
  };
}

export function explainPaxos(subject: WhySubject, snap: RunView, events: readonly SimEvent[]): Explanation {
  const multi = snap.protocol === 'multi-paxos';
  const node = (id: string) => snap.nodes.find((n) => n.id === id);
  switch (subject.kind) {
    case 'node': {
      const n = node(subject.id);
      return n?.paxos !== undefined ? whyNode(snap, n, multi) : unknown(`Why is ${subject.id} like this?`);
    }
    case 'vote': {
      const n = node(subject.node);
      return n?.paxos !== undefined ? whyNode(snap, n, multi) : unknown(`Why these promises?`);
    }
    case 'entry': {
      const n = node(subject.node);
      return n?.paxos !== undefined ? whySlot(snap, n, subject.index) : unknown(`Why this slot?`);
    }
    case 'message': {
      const m = snap.messages.find((x) => x.seq === subject.seq) ?? snap.drops.find((x) => x.seq === subject.seq);
      return m !== undefined ? whyMessage(snap, m) : unknown('Why this message?');
    }
    case 'no-leader':
      return whyNoLeader(snap, events);
    default:
      return unknown('Why?');
  }
}
