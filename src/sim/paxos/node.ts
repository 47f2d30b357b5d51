/**
 * One Paxos server playing all three parts (Paxos Made Simple §2.1: "a single process may act as
 * more than one agent"): an acceptor, a learner, and a proposer — in Multi-Paxos the proposer
 * that leads (§3). Like the Raft node it is a state machine: messages and ticks in, messages
 * and events out through its host (the cluster), and it never reads a clock or draws a random
 * number itself.
 *
 * Single-decree (`paxos`): a client's `propose v to n1` makes n1 a proposer: Prepare(n) to all,
 * then Accept(n, v) with the value P2c allows, and every acceptor tells every learner
 * (Accepted to all). A beaten proposer (a Nack) prepares again with a higher ballot — at once, or
 * after a random back-off when the run has one (dueling proposers, the chapter's FLP story).
 *
 * Multi-Paxos (`multi-paxos`): a node that hears no leader for a random election timeout runs
 * phase 1 for every slot from the first it has not learned, re-proposes what the promises carry,
 * fills gaps with no-ops, and then leads: a new command goes straight to phase 2 in the next
 * slot. Accepted goes to the leader only (the distinguished learner), whose Accepts name the
 * chosen slots; an Accept with no values is its heartbeat.
 */
import { ballotOf, roundOf, type Ballot } from '../model/ballot';
import type { PaxosNodeBugs, PaxosPseudocodeId } from '../model/features';
import type { DetailBody, EventKind } from '../model/events';
import { paxosText } from '../model/describePaxos';
import type { Accept, Accepted, Nack, PaxosMessage, PaxosPromise, PaxosSlotValue, Prepare, Role } from '../model/types';
import { Acceptor } from './acceptor';
import { Learner } from './learner';
import { NOOP_VALUE, valuesToPropose } from './proposer';
import { SlotMachine } from './stateMachine';

/** What a node needs from the run (PaxosCluster is one). */
export interface PaxosHost {
  readonly nowMs: number;
  readonly multi: boolean;
  readonly bugs: PaxosNodeBugs;
  readonly recordDetails: boolean;
  readonly heartbeatMs: number;
  /** How long a proposer waits for a majority before it tries a higher ballot. */
  readonly retryMs: number;
  /** Every node, in node order (the acceptors and learners). */
  readonly nodeIds: readonly string[];
  readonly majority: number;
  send(src: string, dst: string, msg: PaxosMessage): void;
  randomElectionTimeout(): number;
  /** A back-off draw, or null when the run has no back-off (prepare again at once). */
  randomBackoff(): number | null;
  readonly backoffRange: readonly [number, number] | null;
  detail(body: DetailBody): void;
  logEvent(text: string, kind: EventKind, subjects: readonly string[]): void;
  /** An acceptor accepted (checkers see every acceptance with the promise it held before). */
  accepted(node: PaxosNode, slot: number, ballot: Ballot, value: string, promisedBefore: Ballot): void;
  /** A learner learned `value` in `slot` (the first learner of a slot makes the "chosen" line). */
  learned(node: PaxosNode, slot: number, value: string, ballot: Ballot, acceptors: readonly string[]): void;
}

/**
 * The proposer's phase: `idle` (acceptor and learner only), `preparing` (phase 1), `accepting`
 * (single-decree phase 2), `leading` (Multi-Paxos, phase 1 done for every slot), `backoff`
 * (beaten, waiting before it prepares again), `done` (single-decree: its learner learned).
 */
export type PaxosPhase = 'idle' | 'preparing' | 'accepting' | 'leading' | 'backoff' | 'done';

/** At most this many values ride on one heartbeat (a catching-up acceptor gets the rest on the next). */
const MAX_RESEND = 16;
const MAX_DECIDED = 64;

export class PaxosNode {
  readonly id: string;
  readonly index: number;
  /** The proposer's number in its ballots (1-based node order): ballot "7.2" is n2's. */
  readonly number: number;
  readonly peers: readonly string[];
  alive = true;
  readonly acceptor = new Acceptor();
  readonly learner = new Learner();
  readonly machine = new SlotMachine();
  phase: PaxosPhase = 'idle';
  /** The proposer's ballot (0 until it first prepares). */
  ballot: Ballot = 0;
  /** The highest round seen in any ballot (its next ballot goes above it). */
  maxRound = 0;
  /** Phase 1: promises for `ballot`, by acceptor, with what each had accepted. */
  readonly promises = new Map<string, PaxosPromise['accepted']>();
  /** The first slot phase 1 is for (Multi-Paxos; 1 in single-decree). */
  prepareFrom = 1;
  /** Single-decree: the value a client gave this proposer; Multi-Paxos: commands waiting for a slot. */
  ownValue: string | null = null;
  readonly pending: string[] = [];
  /** Phase 2: the values proposed in `ballot`, by slot (single-decree: slot 1). */
  readonly proposals = new Map<number, string>();
  /** Multi-Paxos leader: who accepted each proposed slot in `ballot` (itself included). */
  readonly acceptedBy = new Map<number, Set<string>>();
  /** Multi-Paxos leader: each peer's last reported learnedThrough. */
  readonly peerLearned = new Map<string, number>();
  nextSlot = 1;
  /** When the proposer gives up waiting (retry timeout) or its back-off ends. */
  retryAt = Infinity;
  /** Multi-Paxos: the leader this node last heard (null: none), and its election timer. */
  leaderId: string | null = null;
  electionTimerStart = 0;
  electionDeadline = Infinity;
  heartbeatDue = Infinity;
  /** Multi-Paxos: the `propose` verb asked it to campaign (it retries like a single-decree proposer). */
  private campaignAsked = false;
  private readonly host: PaxosHost;

  constructor(id: string, index: number, peers: readonly string[], host: PaxosHost) {
    this.id = id;
    this.index = index;
    this.number = index + 1;
    this.peers = peers;
    this.host = host;
    // Multi-Paxos draws one election timeout per node at construction, in node order (as Raft).
    if (host.multi) this.resetElectionTimer();
  }

  /** The next millisecond at which tick() may act (the cluster skips quiet time up to it). */
  nextTickDue(): number {
    if (!this.alive) return Infinity;
    let due = this.retryAt;
    if (this.host.multi) {
      const timer = this.phase === 'leading' ? this.heartbeatDue : this.electionDeadline;
      if (timer < due) due = timer;
    }
    return due;
  }

  get leading(): boolean {
    return this.phase === 'leading';
  }

  /**
   * The node's part in Raft's words, so the ring, the space-time view's lanes and the trace draw
   * a Paxos run with the same colours: a proposer in phase 2 or leading is a `leader`, one in
   * phase 1 or backing off a `candidate`, an acceptor only a `follower`.
   */
  get role(): Role {
    const phase = this.phase;
    return phase === 'leading' || phase === 'accepting'
      ? 'leader'
      : phase === 'preparing' || phase === 'backoff'
        ? 'candidate'
        : 'follower';
  }

  /** What stands where Raft's term does: the proposer's ballot while it proposes, else the ballot it promised. */
  get term(): Ballot {
    const phase = this.phase;
    return phase === 'idle' || phase === 'done' ? this.acceptor.promised : this.ballot;
  }

  // -- the proposer ---------------------------------------------------------------------

  /**
   * A client hands `value` to this proposer (the `propose` verb). Single-decree: it runs Paxos
   * for it (a proposer already running refuses: the reason). Multi-Paxos: a leader gives it the
   * next slot; any other node queues it and campaigns.
   */
  propose(value: string): string | null {
    if (!this.alive) return `${this.id} is down`;
    const host = this.host;
    if (!host.multi) {
      if (this.phase === 'preparing' || this.phase === 'accepting' || this.phase === 'backoff')
        return `${this.id} is already proposing ${this.ownValue ?? 'a value'}`;
      this.ownValue = value;
      this.startPrepare();
      return null;
    }
    if (this.phase === 'leading') {
      this.proposeInSlot(value);
      return null;
    }
    this.pending.push(value);
    this.campaignAsked = true;
    if (this.phase !== 'preparing') this.startPrepare();
    return null;
  }

  /** Multi-Paxos `submit`: the leader puts a command in its next slot, phase 2 only (§3). */
  submit(value: string): void {
    this.proposeInSlot(value);
  }

  /** Phase 1a: a ballot above any seen, Prepare to all; the node's own acceptor promises at once. */
  startPrepare(timerFired = false): void {
    const host = this.host;
    const round = Math.max(this.maxRound, roundOf(this.acceptor.promised), roundOf(this.ballot)) + 1;
    this.maxRound = round;
    this.ballot = ballotOf(round, this.number);
    this.phase = 'preparing';
    this.promises.clear();
    this.proposals.clear();
    this.acceptedBy.clear();
    this.prepareFrom = host.multi ? this.learner.firstUnlearned() : 1;
    this.retryAt = host.multi ? Infinity : host.nowMs + host.retryMs;
    if (host.multi) {
      host.logEvent(paxosText.electionPrepares(this.id, this.ballot, this.prepareFrom, timerFired), 'paxos-prepare', [this.id]);
      this.resetElectionTimer();
    } else host.logEvent(paxosText.prepares(this.id, this.ballot, this.ownValue), 'paxos-prepare', [this.id]);
    // Multi-Paxos bug multipaxos-skip-prepare: lead at once, as if phase 1 had been run.
    if (host.multi && host.bugs.skipPrepare) {
      this.acceptor.prepare(this.ballot, this.prepareFrom);
      this.becomeLeader([this.id], []);
      return;
    }
    const own = this.acceptor.prepare(this.ballot, this.prepareFrom);
    if (own.ok) {
      this.notePromised(this.id, this.ballot, own.previous, own.accepted);
      this.promises.set(this.id, own.accepted);
    }
    const msg: Prepare = { type: 'Prepare', ballot: this.ballot, fromSlot: this.prepareFrom };
    for (const peer of this.peers) host.send(this.id, peer, msg);
    if (this.promises.size >= host.majority) this.phaseTwo();
  }

  private onPromise(src: string, msg: PaxosPromise): void {
    if (this.phase !== 'preparing' || msg.ballot !== this.ballot || this.promises.has(src)) return;
    this.promises.set(src, msg.accepted);
    if (this.promises.size >= this.host.majority) this.phaseTwo();
  }

  /** A majority promised: choose the values P2c allows (or the bug's), and send them in phase 2. */
  private phaseTwo(): void {
    const host = this.host;
    const voters = host.nodeIds.filter((id) => this.promises.has(id));
    const choices = valuesToPropose(this.promises, host.nodeIds, this.prepareFrom);
    const record = host.recordDetails;
    if (!host.multi) {
      const adopted = choices.find((c) => c.slot === 1 && c.source === 'adopted');
      const own = this.ownValue ?? NOOP_VALUE;
      let value = own;
      if (adopted !== undefined) {
        if (host.bugs.ownValue) {
          if (record) this.adoptedDetail(adopted.value, 1, adopted.from, adopted.acceptor, own, true);
        } else {
          value = adopted.value;
          if (record && value !== own) this.adoptedDetail(value, 1, adopted.from, adopted.acceptor, own, false);
        }
      }
      this.phase = 'accepting';
      this.retryAt = host.nowMs + host.retryMs;
      host.logEvent(paxosText.phase2(this.id, this.ballot, voters, value, value !== own), 'paxos-leader', [this.id]);
      this.proposals.set(1, value);
      if (record) this.proposedDetail(1, value, voters, adopted === undefined || host.bugs.ownValue ? 'px.own' : 'px.adopt');
      this.sendAccept([{ slot: 1, value }], null);
      return;
    }
    const recovered: number[] = [];
    const gaps: number[] = [];
    const entries: PaxosSlotValue[] = [];
    for (const c of choices) {
      if (this.learner.chosen.has(c.slot)) continue; // known chosen: the leader's Accepts name it as decided
      let value = c.value;
      if (host.bugs.ownValue && c.source === 'adopted') {
        // The bug: the leader's own value (a waiting command, else a no-op) instead of the accepted one.
        value = this.pending.shift() ?? NOOP_VALUE;
        if (record) this.adoptedDetail(c.value, c.slot, c.from, c.acceptor, value, true);
      } else if (c.source === 'adopted') {
        recovered.push(c.slot);
        if (record) this.adoptedDetail(c.value, c.slot, c.from, c.acceptor, null, false);
      } else {
        gaps.push(c.slot);
        if (record)
          host.detail({
            kind: 'paxos-noop-filled',
            subjects: [this.id],
            values: { node: this.id, ballot: this.ballot, slot: c.slot },
            lines: ['mp.noop'],
          });
      }
      entries.push({ slot: c.slot, value });
    }
    const top = choices.length > 0 ? choices[choices.length - 1].slot : this.prepareFrom - 1;
    this.nextSlot = Math.max(top, this.learner.highestLearned()) + 1;
    this.becomeLeader(voters, entries, recovered, gaps);
  }

  /** Multi-Paxos: phase 1 is done for every slot from prepareFrom on; lead, re-proposing `entries`. */
  private becomeLeader(
    voters: readonly string[],
    entries: readonly PaxosSlotValue[],
    recovered: readonly number[] = [],
    gaps: readonly number[] = [],
  ): void {
    const host = this.host;
    if (host.bugs.skipPrepare && this.promises.size === 0) this.nextSlot = Math.max(this.nextSlot, this.learner.highestLearned() + 1);
    this.phase = 'leading';
    this.leaderId = this.id;
    this.campaignAsked = false;
    this.retryAt = Infinity;
    this.electionDeadline = Infinity;
    this.peerLearned.clear();
    for (const peer of this.peers) this.peerLearned.set(peer, this.prepareFrom - 1);
    host.logEvent(paxosText.leads(this.id, this.ballot, voters, recovered, gaps), 'paxos-leader', [this.id]);
    const all: PaxosSlotValue[] = [...entries];
    for (const value of this.pending.splice(0)) all.push({ slot: this.nextSlot++, value });
    for (const e of all) this.proposals.set(e.slot, e.value);
    this.heartbeatDue = host.nowMs + host.heartbeatMs;
    this.sendAccept(all, null);
  }

  /** Multi-Paxos leader: the next slot, phase 2 at once (§3: phase 1 already covers it). */
  private proposeInSlot(value: string): void {
    const slot = this.nextSlot++;
    this.proposals.set(slot, value);
    if (this.host.recordDetails) this.proposedDetail(slot, value, [], 'mp.lead');
    this.sendAccept([{ slot, value }], null);
  }

  /**
   * Phase 2a: Accept to every peer (to `only`, a heartbeat's resend, when given) and to its own
   * acceptor at once. The leader's Accepts also name what it learned (`decided`).
   */
  private sendAccept(entries: readonly PaxosSlotValue[], only: string | null): void {
    const host = this.host;
    if (only === null) {
      const mine = entries.filter((e) => this.selfAccept(e));
      for (const peer of this.peers) host.send(this.id, peer, this.acceptFor(peer, entries));
      // Single-decree: its own acceptor tells every learner too (§2.3's first way), as every other
      // acceptor does; without it a learner in a bare majority with the proposer never learns.
      if (!host.multi && mine.length > 0) {
        const accepted: Accepted = { type: 'Accepted', ballot: this.ballot, entries: mine, learnedThrough: 0 };
        for (const peer of this.peers) host.send(this.id, peer, accepted);
      }
    } else host.send(this.id, only, this.acceptFor(only, entries));
  }

  private acceptFor(peer: string, entries: readonly PaxosSlotValue[]): Accept {
    return { type: 'Accept', ballot: this.ballot, entries, decided: this.host.multi ? this.decidedFor(peer) : [] };
  }

  /** The chosen slots `peer` has not told us it learned (at most MAX_DECIDED). */
  private decidedFor(peer: string): PaxosSlotValue[] {
    const out: PaxosSlotValue[] = [];
    const from = (this.peerLearned.get(peer) ?? 0) + 1;
    const top = this.learner.highestLearned();
    for (let slot = from; slot <= top && out.length < MAX_DECIDED; slot++) {
      const value = this.learner.chosen.get(slot);
      if (value !== undefined) out.push({ slot, value });
    }
    return out;
  }

  /** Its own acceptor takes the proposal at once; false if it had promised a higher ballot. */
  private selfAccept(e: PaxosSlotValue): boolean {
    const before = this.acceptor.promised;
    if (!this.acceptor.accept(this.ballot, e.slot, e.value, this.host.bugs.acceptBelowPromise)) return false;
    this.host.accepted(this, e.slot, this.ballot, e.value, before);
    if (this.host.recordDetails) this.acceptedDetail(this.id, this.ballot, e.slot, e.value, before);
    this.countAccepted(this.id, this.ballot, e.slot, e.value);
    return true;
  }

  /** A learner (and, in Multi-Paxos, the leader counting for its slots) hears of an acceptance. */
  private countAccepted(acceptor: string, ballot: Ballot, slot: number, value: string): void {
    const host = this.host;
    if (host.multi) {
      if (this.phase !== 'leading' || ballot !== this.ballot) return;
      let by = this.acceptedBy.get(slot);
      if (by === undefined) this.acceptedBy.set(slot, (by = new Set()));
      by.add(acceptor);
      if (by.size >= host.majority && !this.learner.chosen.has(slot)) {
        this.learner.learn(slot, value);
        this.acceptedBy.delete(slot);
        const who = host.nodeIds.filter((id) => by.has(id));
        this.learnedNow(slot, value, ballot, who, null);
      }
      return;
    }
    // Single-decree: the proposer counts the acceptances of its own ballot (it is done at a
    // majority even when its learner had learned the value before), and every learner counts.
    if (this.phase === 'accepting' && ballot === this.ballot) {
      let by = this.acceptedBy.get(slot);
      if (by === undefined) this.acceptedBy.set(slot, (by = new Set()));
      by.add(acceptor);
      if (by.size >= host.majority) {
        this.phase = 'done';
        this.retryAt = Infinity;
      }
    }
    const who = this.learner.heard(acceptor, ballot, slot, value, host.majority);
    if (who !== null) this.learnedNow(slot, value, ballot, who, null);
  }

  private learnedNow(slot: number, value: string, ballot: Ballot, acceptors: readonly string[], from: string | null): void {
    const host = this.host;
    if (host.recordDetails)
      host.detail({
        kind: 'paxos-learned',
        subjects: [this.id],
        values: { node: this.id, ballot, slot, value, acceptors, from },
        lines: ['px.learn'],
      });
    host.learned(this, slot, value, ballot, acceptors);
    // Single-decree: a proposer whose own learner saw the value chosen has nothing left to do
    // (§2.2: "a proposer can abandon a proposal at any time"), whatever phase it is in.
    if (!host.multi && this.phase !== 'idle' && this.phase !== 'done') {
      this.phase = 'done';
      this.retryAt = Infinity;
    }
    this.applyLearned();
  }

  /** Applies learned slots in order, stopping at the first gap (§3). */
  private applyLearned(): void {
    const machine = this.machine;
    const record = this.host.recordDetails;
    while (machine.applied < this.learner.learnedThrough) {
      const slot = machine.applied + 1;
      const value = this.learner.chosen.get(slot) as string;
      machine.apply(value);
      if (record)
        this.host.detail({
          kind: 'paxos-applied',
          subjects: [this.id],
          values: { node: this.id, slot, value, state: machine.text() },
          lines: ['mp.apply'],
        });
    }
  }

  /** A Nack for our ballot: beaten (px.preempted). Prepare again at once, after a back-off, or (a leader) step down. */
  private onNack(src: string, msg: Nack): void {
    this.seeBallot(msg.promised);
    if (msg.ballot !== this.ballot) return;
    const phase = this.phase;
    if (phase !== 'preparing' && phase !== 'accepting' && phase !== 'leading') return;
    this.beaten(src, msg.promised, msg.phase);
  }

  private beaten(by: string, promised: Ballot, phase: 1 | 2): void {
    const host = this.host;
    const leading = this.phase === 'leading';
    host.logEvent(paxosText.preempted(this.id, this.ballot, by, promised, leading), 'paxos-preempted', [this.id, by]);
    if (host.recordDetails)
      host.detail({
        kind: 'paxos-preempted',
        subjects: [this.id, by],
        values: { node: this.id, ballot: this.ballot, promised, by, phase },
        lines: [leading ? 'mp.stepdown' : 'px.preempted'],
      });
    this.proposals.clear();
    this.acceptedBy.clear();
    this.promises.clear();
    if (host.multi && !this.campaignAsked) {
      this.stepDown();
      return;
    }
    if (host.multi) this.phase = 'idle';
    const wait = host.randomBackoff();
    if (wait === null) {
      this.startPrepare();
      return;
    }
    this.phase = 'backoff';
    this.retryAt = host.nowMs + wait;
    if (host.recordDetails)
      host.detail({
        kind: 'paxos-backoff',
        subjects: [this.id],
        values: { node: this.id, ballot: this.ballot, waitMs: wait, range: host.backoffRange as readonly [number, number] },
        lines: ['px.backoff'],
      });
  }

  /** Multi-Paxos: a higher ballot is about; follow it (the election timer runs again). */
  private stepDown(): void {
    this.phase = 'idle';
    this.retryAt = Infinity;
    this.heartbeatDue = Infinity;
    this.proposals.clear();
    this.acceptedBy.clear();
    this.promises.clear();
    if (this.leaderId === this.id) this.leaderId = null;
    this.resetElectionTimer();
  }

  private seeBallot(ballot: Ballot): void {
    const round = roundOf(ballot);
    if (round > this.maxRound) this.maxRound = round;
  }

  // -- the acceptor ---------------------------------------------------------------------

  private onPrepare(src: string, msg: Prepare): void {
    const host = this.host;
    this.seeBallot(msg.ballot);
    const answer = this.acceptor.prepare(msg.ballot, msg.fromSlot);
    if (!answer.ok) {
      if (host.recordDetails)
        host.detail({
          kind: 'paxos-prepare-refused',
          subjects: [this.id, src],
          values: { node: this.id, proposer: src, ballot: msg.ballot, promised: answer.promised },
          lines: ['px.refuse.prepare'],
        });
      host.send(this.id, src, { type: 'Nack', ballot: msg.ballot, promised: answer.promised, phase: 1 });
      return;
    }
    this.notePromised(src, msg.ballot, answer.previous, answer.accepted);
    host.send(this.id, src, { type: 'Promise', ballot: msg.ballot, accepted: answer.accepted });
    if (!host.multi) return; // a single-decree proposer hears of a higher ballot only by a Nack (§2.2)
    // Multi-Paxos: a leader or candidate that promised a higher ballot yields to it (mp.stepdown);
    // anyone else waits for the new leader, as granting a vote does in Raft.
    const phase = this.phase;
    if ((phase === 'preparing' || phase === 'leading') && msg.ballot > this.ballot) this.beaten(src, msg.ballot, 1);
    else this.resetElectionTimer();
  }

  private notePromised(proposer: string, ballot: Ballot, previous: Ballot, accepted: PaxosPromise['accepted']): void {
    if (!this.host.recordDetails) return;
    let top = 0;
    for (const a of accepted) if (a.ballot > top) top = a.ballot;
    this.host.detail({
      kind: 'paxos-promised',
      subjects: [this.id, proposer],
      values: { node: this.id, proposer, ballot, previous, accepted: top },
      lines: ['px.promise'],
    });
  }

  private onAccept(src: string, msg: Accept): void {
    const host = this.host;
    this.seeBallot(msg.ballot);
    const acceptor = this.acceptor;
    const record = host.recordDetails;
    const done: PaxosSlotValue[] = [];
    let refused = false;
    for (const e of msg.entries) {
      const before = acceptor.promised;
      if (acceptor.accept(msg.ballot, e.slot, e.value, host.bugs.acceptBelowPromise)) {
        host.accepted(this, e.slot, msg.ballot, e.value, before);
        if (record) this.acceptedDetail(src, msg.ballot, e.slot, e.value, before);
        done.push(e);
      } else {
        refused = true;
        if (record)
          host.detail({
            kind: 'paxos-accept-refused',
            subjects: [this.id, src],
            values: { node: this.id, proposer: src, ballot: msg.ballot, slot: e.slot, value: e.value, promised: before },
            lines: ['px.refuse.accept'],
          });
      }
    }
    const heartbeatRefused = msg.entries.length === 0 && msg.ballot < acceptor.promised;
    if (refused || heartbeatRefused) {
      host.send(this.id, src, { type: 'Nack', ballot: msg.ballot, promised: acceptor.promised, phase: 2 });
      if (done.length === 0) return;
    }
    if (!host.multi) {
      // Single-decree: each acceptor tells every learner (§2.3's first way), itself at once.
      if (done.length === 0) return;
      const accepted: Accepted = { type: 'Accepted', ballot: msg.ballot, entries: done, learnedThrough: 0 };
      for (const id of host.nodeIds) {
        if (id === this.id) for (const e of done) this.countAccepted(this.id, msg.ballot, e.slot, e.value);
        else host.send(this.id, id, accepted);
      }
      return;
    }
    // Multi-Paxos: the sender leads this ballot; follow it and learn what it names as chosen.
    this.leaderId = src;
    if (this.phase !== 'idle' && msg.ballot > this.ballot) {
      if (this.phase === 'leading')
        host.logEvent(paxosText.followsLeader(this.id, this.ballot, src, msg.ballot), 'paxos-preempted', [this.id, src]);
      this.campaignAsked = false;
      this.stepDown();
      this.leaderId = src;
    } else this.resetElectionTimer();
    for (const d of msg.decided) {
      if (this.learner.chosen.has(d.slot)) continue;
      this.learner.learn(d.slot, d.value);
      if (record)
        host.detail({
          kind: 'paxos-learned',
          subjects: [this.id, src],
          values: { node: this.id, ballot: msg.ballot, slot: d.slot, value: d.value, acceptors: [], from: src },
          lines: ['px.learn'],
        });
      host.learned(this, d.slot, d.value, msg.ballot, []);
    }
    this.applyLearned();
    host.send(this.id, src, { type: 'Accepted', ballot: msg.ballot, entries: done, learnedThrough: this.learner.learnedThrough });
  }

  private onAccepted(src: string, msg: Accepted): void {
    const host = this.host;
    if (host.multi) {
      if (this.phase !== 'leading' || msg.ballot !== this.ballot) return;
      this.peerLearned.set(src, msg.learnedThrough);
    }
    for (const e of msg.entries) this.countAccepted(src, msg.ballot, e.slot, e.value);
  }

  // -- time -------------------------------------------------------------------------------

  tick(): void {
    if (!this.alive) return;
    const host = this.host;
    const now = host.nowMs;
    if (now >= this.retryAt) {
      // Single-decree: no majority in time, or the back-off is over; Multi-Paxos: the back-off.
      if (this.phase === 'backoff' || this.phase === 'preparing' || this.phase === 'accepting') this.startPrepare();
      else this.retryAt = Infinity;
    }
    if (!host.multi) return;
    if (this.phase === 'leading') {
      if (now >= this.heartbeatDue) this.heartbeat();
    } else if (now >= this.electionDeadline && this.phase !== 'backoff') {
      this.leaderId = null;
      this.startPrepare(true);
    }
  }

  /** Multi-Paxos leader: an Accept to each peer with what it lacks of this ballot's open slots, and what is chosen. */
  private heartbeat(): void {
    const host = this.host;
    this.heartbeatDue = host.nowMs + host.heartbeatMs;
    for (const peer of this.peers) {
      const resend: PaxosSlotValue[] = [];
      for (const [slot, by] of this.acceptedBy) {
        if (by.has(peer) || this.learner.chosen.has(slot)) continue;
        resend.push({ slot, value: this.proposals.get(slot) as string });
        if (resend.length >= MAX_RESEND) break;
      }
      resend.sort((a, b) => a.slot - b.slot);
      this.sendAccept(resend, peer);
    }
  }

  resetElectionTimer(): void {
    const host = this.host;
    this.electionTimerStart = host.nowMs;
    this.electionDeadline = host.nowMs + host.randomElectionTimeout();
  }

  // -- messages and faults ----------------------------------------------------------------

  onMessage(src: string, msg: PaxosMessage): void {
    switch (msg.type) {
      case 'Prepare':
        this.onPrepare(src, msg);
        break;
      case 'Promise':
        this.onPromise(src, msg);
        break;
      case 'Accept':
        this.onAccept(src, msg);
        break;
      case 'Accepted':
        this.onAccepted(src, msg);
        break;
      case 'Nack':
        this.onNack(src, msg);
        break;
    }
  }

  /**
   * Back from a crash: the acceptor's promise and accepted values persist (§2.3; the bug
   * paxos-forget-promise loses them); the proposer, the learner and the state machine are
   * volatile and start over (a Multi-Paxos node learns again from the leader's Accepts).
   */
  restart(): void {
    this.alive = true;
    if (this.host.bugs.forgetPromise) this.acceptor.forget();
    this.phase = 'idle';
    this.ownValue = null;
    this.pending.length = 0;
    this.promises.clear();
    this.proposals.clear();
    this.acceptedBy.clear();
    this.peerLearned.clear();
    this.retryAt = Infinity;
    this.heartbeatDue = Infinity;
    this.leaderId = null;
    this.campaignAsked = false;
    this.learner.forget();
    this.machine.reset();
    if (this.host.multi) this.resetElectionTimer();
  }

  // -- detail helpers -----------------------------------------------------------------------

  private acceptedDetail(proposer: string, ballot: Ballot, slot: number, value: string, promised: Ballot): void {
    this.host.detail({
      kind: 'paxos-accepted',
      subjects: [this.id, proposer],
      values: { node: this.id, proposer, ballot, slot, value, promised },
      lines: ['px.accepts'],
    });
  }

  private adoptedDetail(value: string, slot: number, from: Ballot, acceptor: string, own: string | null, ignored: boolean): void {
    this.host.detail({
      kind: 'paxos-adopted',
      subjects: [this.id, acceptor],
      values: { node: this.id, ballot: this.ballot, slot, value, from, acceptor, own, ...(ignored ? { ignored: true as const } : {}) },
      lines: [ignored ? 'px.own' : this.host.multi ? 'mp.recover' : 'px.adopt'],
    });
  }

  private proposedDetail(slot: number, value: string, promises: readonly string[], line: PaxosPseudocodeId): void {
    this.host.detail({
      kind: 'paxos-proposed',
      subjects: [this.id],
      values: { node: this.id, ballot: this.ballot, slot, value, promises },
      lines: [line],
    });
  }
}
