/**
 * Paxos's sentences (src/sim/paxos/): its event lines, detail sentences and message labels. Apart
 * from describe.ts only so the page's first load does not carry them: the engine's worker and the
 * Paxos views import them.
 */
import { PAXOS_INVARIANT_TITLES } from './features';
import { ballotText } from './ballot';
import type { Message } from './types';
import { slotsText } from './describe';

const b = ballotText;

// -- Paxos (src/sim/paxos/): its event lines, detail sentences and message labels -------------
// Lamport's words (Paxos Made Simple): prepare, promise, accept, chosen, learn. A ballot reads
// like "7.2": round 7 of proposer n2 (model/ballot.ts).

export const paxosText = {
  prepares: (id: string, ballot: number, value: string | null) =>
    value === null ? `${id} prepares ballot ${b(ballot)}: Prepare to all` : `${id} proposes ${value}: Prepare ballot ${b(ballot)} to all`,
  electionPrepares: (id: string, ballot: number, fromSlot: number, timerFired: boolean) =>
    `${id} ${timerFired ? 'election timeout, ' : ''}prepares ballot ${b(ballot)} for slots from ${fromSlot}`,
  phase2: (id: string, ballot: number, voters: readonly string[], value: string, adopted: boolean) =>
    `${id} has promises for ballot ${b(ballot)} from ${voters.join(', ')}: Accept ${value}${adopted ? ' (an accepted value it must re-propose)' : ' (its own value)'}`,
  leads: (id: string, ballot: number, voters: readonly string[], recovered: readonly number[], gaps: readonly number[]) =>
    `${id} leads with ballot ${b(ballot)} (promises from ${voters.join(', ')})` +
    (recovered.length > 0 ? `: re-proposes ${slotsText(recovered)}` : '') +
    (gaps.length > 0 ? `${recovered.length > 0 ? ',' : ':'} fills ${slotsText(gaps)} with a no-op` : ''),
  chosen: (value: string, ballot: number, acceptors: readonly string[]) =>
    `${value} is chosen (ballot ${b(ballot)}, accepted by ${acceptors.join(', ')})`,
  preempted: (id: string, ballot: number, by: string, promised: number, leading: boolean) =>
    leading
      ? `${id} stops leading: ${by} promised ballot ${b(promised)}, above ${b(ballot)}`
      : `${id} is pre-empted: ${by} promised ballot ${b(promised)}, above ${b(ballot)}`,
  followsLeader: (id: string, ballot: number, leader: string, leaderBallot: number) =>
    `${id} stops leading: ${leader} leads with ballot ${b(leaderBallot)}, above ${b(ballot)}`,
  restarts: (id: string, promised: number) => `${id} restarts, promised ballot ${b(promised)}`,
  proposeRejected: (verb: 'propose' | 'submit', value: string, target: string | null, reason: string) =>
    `${verb} ${value}${target ? ` to ${target}` : ''} rejected: ${reason}`,
};

/** A Paxos message's short label (tooltips, the Why panel, the trace): `Prepare 1.1`, `Nack 1.1: promised 2.2`. */
export function paxosMessageLabel(msg: Message): string {
  switch (msg.type) {
    case 'Prepare':
      return `Prepare ${b(msg.ballot)}${msg.fromSlot > 1 ? ` for slots from ${msg.fromSlot}` : ''}`;
    case 'Promise': {
      const top = msg.accepted.reduce((best, a) => (a.ballot > best.ballot ? a : best), { slot: 0, ballot: 0, value: '' });
      return `Promise ${b(msg.ballot)}${msg.accepted.length === 0 ? ', nothing accepted' : msg.accepted.length === 1 ? `, accepted ${top.value} in ${b(top.ballot)}` : `, ${msg.accepted.length} slots accepted`}`;
    }
    case 'Accept':
      return msg.entries.length === 0
        ? `heartbeat ${b(msg.ballot)}${msg.decided.length > 0 ? `, chosen ${slotsText(msg.decided.map((e) => e.slot))}` : ''}`
        : `Accept ${b(msg.ballot)}: ${msg.entries.map((e) => `${e.slot > 1 || msg.entries.length > 1 ? `slot ${e.slot} ` : ''}${e.value}`).join(', ')}`;
    case 'Accepted':
      return `Accepted ${b(msg.ballot)}: ${msg.entries.map((e) => e.value).join(', ')}`;
    case 'Nack':
      return `Nack ${b(msg.ballot)}: promised ${b(msg.promised)}`;
    default:
      return msg.type;
  }
}

/** The Paxos checker's sentences (check/paxosInvariants.ts); titles from the manifest (features/paxos.ts). */
export const paxosInvariant = {
  titles: PAXOS_INVARIANT_TITLES,
  twoValues: (slot: number, first: string, firstBallot: number, second: string, secondBallot: number, acceptors: readonly string[]) =>
    `Two values are chosen in slot ${slot}: ${first} in ballot ${b(firstBallot)}, then ${second} in ballot ${b(secondBallot)} (accepted by ${acceptors.join(', ')}).`,
  belowPromise: (node: string, slot: number, ballot: number, value: string, promised: number) =>
    `Acceptor ${node} accepted ${value} in slot ${slot} at ballot ${b(ballot)}, below the ballot ${b(promised)} it had promised.`,
  chosenChanged: (slot: number, chosen: string, chosenBallot: number, node: string, value: string, ballot: number) =>
    `${chosen} was chosen in slot ${slot} at ballot ${b(chosenBallot)}, yet acceptor ${node} accepted ${value} there at the higher ballot ${b(ballot)}: every higher ballot must propose the chosen value (P2b).`,
  learnedUnchosen: (node: string, slot: number, value: string, chosen: string | null) =>
    chosen === null
      ? `${node} learned ${value} in slot ${slot}, which no majority of acceptors accepted.`
      : `${node} learned ${value} in slot ${slot}, but the value chosen there is ${chosen}.`,
  engineThrew: (text: string) => `The engine threw: ${text}.`,
};
