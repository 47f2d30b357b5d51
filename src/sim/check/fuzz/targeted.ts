/**
 * Targeted stories (issue 24): each builds, on purpose, a situation that one property needs and
 * that random faults rarely reach, so a slip breaking that property shows up in `npm run fuzz`
 * and not only in a unit test. Which stories a run has, when each starts and every draw the
 * stories make come from a stream of their own — CPython's `random.Random(2**131 + (seed << 32) +
 * run)` — so a run's own stream (its cluster, timings and random faults) is what it was without
 * them; the stories act through `Simulation.act`, so the schedule replays them like any fault.
 *
 * Every story is a module-level `function*` (see RunContext.spawn) that gives up quietly when the
 * cluster is not in a shape it can use.
 */
import type { BugName } from '../../model/config';
import type { FeatureName } from '../../model/features';
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import type { RaftNode } from '../../raft/node';
import type { RunContext } from './context';
import { after, until, type StoryGen } from './driver';
import { TARGETED_KINDS, type SwarmKind, type TargetedKind } from './draw';
import { handOverTo } from './stories';

/** The targeted stream of run `run`. */
export function targetedRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 131n) + (base << 32n) + BigInt(run));
}

/** What a story needs of the run to be of any use (a story that cannot act is left out). */
interface Needs {
  readonly feature?: FeatureName;
  readonly minNodes: number;
  readonly clients?: boolean;
}

const NEEDS: Readonly<Record<TargetedKind, Needs>> = {
  rejoin: { feature: 'pre-vote', minNodes: 3 },
  'stale-pre-vote': { feature: 'pre-vote', minNodes: 3 },
  'backup-race': { feature: 'fast-backup', minNodes: 5 },
  'transfer-lagging': { feature: 'transfer', minNodes: 2 },
  'snapshot-race': { feature: 'snapshots', minNodes: 3 },
  'remove-leader': { feature: 'membership', minNodes: 2 },
  'lease-edge': { feature: 'reads', minNodes: 3, clients: true },
  'stale-append-reply': { minNodes: 4 },
  'reelected-reuse': { minNodes: 3, clients: true },
};

/** Gaps between targeted stories, in ms (uniform, inclusive); the first comes after the first of these. */
export const TARGETED_GAP_MS: readonly [number, number] = [400, 2500];

/** One run's targeted stories: which kinds are in (swarm style), and when the next one starts. */
export class TargetedStories {
  readonly rng: CPythonRandom;
  readonly kinds: readonly TargetedKind[];
  private readonly weights: readonly number[];
  nextAtMs: number;

  constructor(
    seed: Seed,
    run: number,
    features: readonly FeatureName[],
    nodes: number,
    clients: number,
    bugs: readonly BugName[],
    bugKinds: (bug: BugName) => readonly SwarmKind[],
  ) {
    this.rng = targetedRandom(seed, run);
    const biased = new Set<SwarmKind>(bugs.flatMap(bugKinds));
    const kinds: TargetedKind[] = [];
    const weights: number[] = [];
    // One draw per kind, in order, whether or not the run can use it: the stream does not depend on the run's shape.
    for (const k of TARGETED_KINDS) {
      const drawn = this.rng.random() < (biased.size === 0 ? 0.35 : biased.has(k) ? 0.95 : 0.1);
      const needs = NEEDS[k];
      const usable =
        nodes >= needs.minNodes && (needs.feature === undefined || features.includes(needs.feature)) && (!needs.clients || clients >= 2);
      if (drawn && usable) {
        kinds.push(k);
        weights.push(biased.has(k) ? 3 : 1);
      }
    }
    this.kinds = kinds;
    this.weights = weights;
    this.nextAtMs = kinds.length > 0 ? this.rng.randint(TARGETED_GAP_MS[0], TARGETED_GAP_MS[1]) : Infinity;
  }

  /** The story due now (its kind picked by weight), and when the next one is. */
  next(ctx: RunContext): StoryGen | void {
    let total = 0;
    for (const w of this.weights) total += w;
    let r = this.rng.randbelow(total);
    let i = 0;
    while (r >= this.weights[i]) r -= this.weights[i++];
    this.nextAtMs = ctx.nowMs + this.rng.randint(TARGETED_GAP_MS[0], TARGETED_GAP_MS[1]);
    return TARGETED[this.kinds[i]](ctx);
  }
}

// -- the stories ---------------------------------------------------------------------------

/**
 * Pre-vote's point (§9.6): a follower cut off for longer than an election timeout rejoins and,
 * up to date again, asks for pre-votes (its timer forced to fire) while the leader still leads;
 * every node that hears the leader must say no.
 */
function* rejoin(ctx: RunContext): StoryGen {
  const leader = ctx.leaderId();
  if (leader === null) return;
  const followers = ctx.aliveNodes().filter((id) => id !== leader);
  if (followers.length === 0) return;
  const f = ctx.pick(followers);
  const tMax = ctx.config.electionTimeoutMs[1];
  ctx.act({ verb: 'partition', groups: [[f]] });
  yield after(ctx.randint(tMax + 1, 3 * tMax));
  ctx.act({ verb: 'heal' });
  const node = ctx.cluster.node(f);
  // Caught up with whoever leads now, it asks: only "hears a leader" can stop it.
  yield until(
    () => {
      const l = ctx.cluster.leader();
      return l !== null && l !== node && node.alive && node.leaderId === l.id && node.lastLogIndex >= l.lastLogIndex;
    },
    { everyMs: 2, giveUpAfterMs: 600 },
  );
  yield after(ctx.randint(1, ctx.config.heartbeatMs));
  if (node.alive && node.role !== 'leader') ctx.act({ verb: 'timeout', node: f });
}

/**
 * A yes that arrives a round late (three nodes). With the leader down, P asks for pre-votes and
 * V's answer is held back (a long delay on V); the old leader W comes back and says yes, so P
 * campaigns, and W crashes at once, so the campaign fails; P's next pre-vote round is for a later
 * term when V's yes for the first one finally arrives. Counting it would start an election that
 * only P's own vote backs.
 */
function* stalePreVote(ctx: RunContext): StoryGen {
  if (ctx.cluster.nodes.length !== 3) return;
  const w = ctx.cluster.leader();
  if (w === null) return;
  const [p, v] = ctx.cluster.nodes.filter((n) => n !== w && n.alive);
  if (p === undefined || v === undefined) return;
  const tMax = ctx.config.electionTimeoutMs[1];
  if (ctx.chance(0.5)) ctx.act({ verb: 'timeout', node: p.id }); // P asks first (else whoever's timer fires)
  ctx.crashAndRestart(w.id, null);
  yield until(() => p.preCandidate || v.preCandidate, { everyMs: 1, giveUpAfterMs: 2 * tMax });
  const [asker, voter] = p.preCandidate ? [p, v] : [v, p];
  ctx.act({ verb: 'delay', target: voter.id, ms: ctx.randint(2 * tMax, 4 * tMax) });
  yield after(ctx.randint(1, ctx.latencyMaxMs + 2));
  ctx.act({ verb: 'restart', node: w.id });
  yield until(() => asker.role === 'candidate' || !asker.alive, { everyMs: 1, giveUpAfterMs: 3 * tMax });
  if (asker.role === 'candidate') ctx.crashAndRestart(w.id, ctx.randint(3 * tMax, 5 * tMax));
  yield after(ctx.randint(4 * tMax, 6 * tMax));
  ctx.act({ verb: 'delay', target: voter.id, ms: 0 });
}

/**
 * Figure 8's shape, wider (five or more nodes), then a noisy heal: L1 with one follower G takes
 * entries the others never see; the others elect L2, which with one follower F takes entries of
 * its own at the same indexes; the first side elects L1 again (it holds the newest log there),
 * and with duplicates and reordering on the partition heals, so L1 backs F up over two terms with
 * hints arriving late, twice and out of order — and over entries of an older term than the one F
 * names.
 */
function* backupRace(ctx: RunContext): StoryGen {
  const l1 = ctx.cluster.leader();
  if (l1 === null) return;
  const others = ctx.aliveNodes().filter((id) => id !== l1.id);
  if (others.length < 4) return;
  const g = ctx.pick(others);
  ctx.act({ verb: 'partition', groups: [[l1.id, g]] });
  for (let i = ctx.randint(2, 4); i > 0; i--) ctx.act({ verb: 'submit', command: ctx.value('a'), target: l1.id });
  yield until(
    () => {
      const l = ctx.cluster.leader();
      return l !== null && l !== l1 && l.id !== g;
    },
    { everyMs: 5, giveUpAfterMs: 2000 },
  );
  const l2 = ctx.cluster.leader() as RaftNode;
  const side = ctx.aliveNodes().filter((id) => id !== l1.id && id !== g && id !== l2.id);
  if (side.length === 0) return;
  const f = ctx.pick(side);
  ctx.act({ verb: 'partition', groups: [[l2.id, f]] });
  for (let i = ctx.randint(2, 5); i > 0; i--) ctx.act({ verb: 'submit', command: ctx.value('b'), target: l2.id });
  yield after(ctx.latencyMaxMs + 2);
  if (!(yield* handOverTo(ctx, l1.id, 4, false))) return;
  ctx.act({ verb: 'submit', command: ctx.value('c'), target: l1.id });
  ctx.act({ verb: 'duplicate', pct: ctx.randint(30, 70) });
  ctx.act({ verb: 'reorder', pct: ctx.randint(20, 60) });
  ctx.act({ verb: 'heal' });
  yield after(ctx.randint(800, 2000));
  ctx.act({ verb: 'duplicate', pct: 0 });
  ctx.act({ verb: 'reorder', pct: 0 });
}

/**
 * A transfer asked for the moment the leader took new entries (and, half the time, while the
 * target's messages crawl), so the target lags: TimeoutNow must wait until it has caught up.
 */
function* transferLagging(ctx: RunContext): StoryGen {
  const leader = ctx.leaderId();
  if (leader === null) return;
  const followers = ctx.aliveNodes().filter((id) => id !== leader);
  if (followers.length === 0) return;
  const t = ctx.pick(followers);
  const slow = ctx.chance(0.5) ? ctx.randint(ctx.latencyMaxMs, 4 * ctx.latencyMaxMs + 20) : 0;
  if (slow > 0) ctx.act({ verb: 'delay', target: t, ms: slow });
  for (let i = ctx.randint(1, 3); i > 0; i--) ctx.act({ verb: 'submit', command: ctx.value('t'), target: leader });
  ctx.act({ verb: 'transfer', node: t });
  if (slow > 0) yield after(slow + ctx.randint(1, 100));
  if (slow > 0) ctx.act({ verb: 'delay', target: t, ms: 0 });
}

/**
 * A snapshot that arrives after the entries past it: F's messages crawl while the leader takes a
 * burst of entries, commits them with the others and compacts past what F has acknowledged, so
 * it sends F a snapshot right behind AppendEntries that already carry everything after it. F
 * holds the snapshot's last entry when the snapshot lands, and must keep what follows (§5.1).
 */
function* snapshotRace(ctx: RunContext): StoryGen {
  const leader = ctx.cluster.leader();
  if (leader === null) return;
  const followers = ctx.aliveNodes().filter((id) => id !== leader.id);
  if (followers.length === 0) return;
  const f = ctx.pick(followers);
  const lMax = ctx.latencyMaxMs;
  const slow = ctx.randint(3 * lMax + 20, 8 * lMax + 60);
  ctx.act({ verb: 'delay', target: f, ms: slow });
  const every = ctx.cluster.snapshotEvery;
  for (let round = ctx.randint(1, 3); round > 0; round--) {
    for (let i = ctx.randint(every, 2 * every + 2); i > 0; i--) ctx.act({ verb: 'submit', command: ctx.value('s'), target: leader.id });
    yield after(ctx.randint(2, ctx.config.heartbeatMs + lMax));
    if (!leader.alive || leader.role !== 'leader') break;
  }
  yield after(slow + ctx.randint(1, 2 * lMax + 2));
  ctx.act({ verb: 'delay', target: f, ms: 0 });
}

/**
 * The leader removes itself (§4.2.2): it leads on until the configuration without it commits,
 * then steps down. Asked again a few times while a change is still under way (it is refused then).
 */
function* removeLeader(ctx: RunContext): StoryGen {
  for (let attempt = ctx.randint(2, 6); attempt > 0; attempt--) {
    const leader = ctx.cluster.leader();
    if (leader !== null && leader.membership !== null && leader.membership.voters.length > 1) {
      // A new leader must have committed an entry of its term before a change (the 2015 fix).
      if (leader.commitIndex === 0 || leader.termAt(leader.commitIndex) !== leader.term)
        ctx.act({ verb: 'submit', command: ctx.value('m'), target: leader.id });
      else {
        ctx.act({ verb: 'remove', node: leader.id });
        if (leader.membership.changePending(leader.commitIndex)) return;
      }
    }
    yield after(ctx.randint(30, 200));
  }
}

/**
 * A lease read at the end of the lease (§6.4.1): the leader's clock runs slow by less than the
 * lease's drift margin, it is cut off alone, and clients ask it for lease reads until after the
 * lease must have run out. A leader that counts its lease right stops answering before anyone
 * else could have been elected.
 */
function* leaseEdge(ctx: RunContext): StoryGen {
  const leader = ctx.cluster.leader();
  const clients = ctx.config.clientIds;
  if (leader === null || clients.length === 0) return;
  ctx.act({ verb: 'drift', node: leader.id, pct: -ctx.randint(1, 10) });
  // A key of the map only (the names stream shares lock keys with the map; this story is about the lease).
  const key = 'x';
  ctx.client(ctx.pick(clients), { op: 'put', key, value: ctx.value('p') });
  for (const c of clients) ctx.client(c, { op: 'get', key, mode: 'lease' });
  yield after(ctx.randint(50, 300));
  if (!leader.alive || leader.role !== 'leader') return;
  ctx.act({ verb: 'partition', groups: [[leader.id]] });
  const tMin = ctx.config.electionTimeoutMs[0];
  const until = ctx.nowMs + Math.ceil(tMin * 1.25);
  while (ctx.nowMs < until) {
    ctx.client(ctx.pick(clients), { op: 'get', key, mode: 'lease' });
    yield after(ctx.randint(1, 4));
  }
  yield after(ctx.randint(100, 600));
  ctx.act({ verb: 'heal' });
}

/**
 * An AppendReply from an older term reaching the same leader re-elected. L takes entries with
 * only F beside it (cut off together), and F's answers crawl; the others elect M, which takes
 * fewer entries at those indexes; once healed, F and L take M's log; then L is made leader again
 * before F's old answers — for entries nobody holds any more — arrive.
 */
function* staleAppendReply(ctx: RunContext): StoryGen {
  const l = ctx.cluster.leader();
  if (l === null) return;
  const followers = ctx.aliveNodes().filter((id) => id !== l.id);
  if (followers.length < 3) return;
  const f = ctx.pick(followers);
  const tMax = ctx.config.electionTimeoutMs[1];
  ctx.act({ verb: 'partition', groups: [[l.id, f]] });
  for (let i = ctx.randint(3, 5); i > 0; i--) ctx.act({ verb: 'submit', command: ctx.value('e'), target: l.id });
  // F gets them at once (sent before); its answers from here on crawl.
  ctx.act({ verb: 'delay', target: f, ms: ctx.randint(4 * tMax, 8 * tMax) });
  yield after(ctx.latencyMaxMs + 1);
  ctx.act({ verb: 'delay', target: f, ms: 0 });
  yield until(
    () => {
      const m = ctx.cluster.leader();
      return m !== null && m !== l && m.id !== f;
    },
    { everyMs: 5, giveUpAfterMs: 3 * tMax },
  );
  const m = ctx.cluster.leader();
  if (m === null || m === l) return;
  if (ctx.chance(0.5)) ctx.act({ verb: 'submit', command: ctx.value('m'), target: m.id });
  ctx.act({ verb: 'heal' });
  yield after(ctx.config.heartbeatMs + 2 * ctx.latencyMaxMs + 2);
  yield* handOverTo(ctx, l.id, 5, false);
}

/**
 * A log index another leader's entry took, applied by the first leader after it is elected again.
 * A's acquire reaches L1's log; L1 and A are cut off; B asks the others' new leader L2, whose Grant
 * lands at the same index; L2 is cut off with L1 at once (the others crashed), so L1 takes that
 * Grant uncommitted; L2 crashes, the others come back, L1 leads again and commits it. The answer
 * L1 still owes A is for its own entry, which is gone: it must not answer A from B's Grant.
 */
function* reelectedReuse(ctx: RunContext): StoryGen {
  const pair = ctx.twoClients();
  const l1 = ctx.cluster.leader();
  if (pair === null || l1 === null) return;
  const [a, b] = pair;
  const key = ctx.pick(ctx.keys);
  ctx.client(a, { op: 'acquire', key, leaseMs: ctx.randint(2000, 6000) });
  const proposed = () => {
    const last = l1.entryAt(l1.lastLogIndex);
    const c = last?.command;
    return l1.lastLogIndex > l1.commitIndex && typeof c === 'object' && c !== null && c.type === 'grant' && c.owner === a;
  };
  yield until(proposed, { everyMs: 1, giveUpAfterMs: 600 });
  if (!l1.alive || l1.role !== 'leader') return;
  const index = l1.lastLogIndex;
  const rest = ctx.cluster.nodes.map((n) => n.id).filter((id) => id !== l1.id);
  ctx.act({
    verb: 'partition',
    groups: [
      [l1.id, a],
      [...rest, b],
    ],
  });
  yield until(
    () => {
      const l = ctx.cluster.leader();
      return l !== null && l !== l1;
    },
    { everyMs: 5, giveUpAfterMs: 2000 },
  );
  const l2 = ctx.cluster.leader();
  if (l2 === null || l2 === l1) return;
  // Line the indexes up: fillers until B's Grant lands where A's is on L1.
  while (l2.lastLogIndex < index - 1) ctx.act({ verb: 'submit', command: ctx.value('f'), target: l2.id });
  if (l2.lastLogIndex !== index - 1) return;
  ctx.client(b, { op: 'acquire', key, leaseMs: ctx.randint(300, 3000) });
  yield until(() => l2.lastLogIndex >= index || !l2.alive || l2.role !== 'leader', { everyMs: 1, giveUpAfterMs: 800 });
  if (l2.lastLogIndex !== index || !l2.alive) return;
  const others = rest.filter((id) => id !== l2.id);
  for (const id of others) ctx.crashAndRestart(id, null);
  ctx.act({ verb: 'partition', groups: [[l1.id, l2.id, a, b]] });
  yield after(ctx.latencyMaxMs + 2);
  ctx.crashAndRestart(l2.id, null);
  for (const id of others) ctx.act({ verb: 'restart', node: id });
  ctx.act({ verb: 'heal' });
  if (!(yield* handOverTo(ctx, l1.id, 5, false))) return;
  ctx.act({ verb: 'submit', command: ctx.value('c'), target: l1.id });
  yield after(ctx.randint(200, 800));
  ctx.act({ verb: 'restart', node: l2.id });
}

/** Each targeted kind's story (the type checks every kind has one). */
export const TARGETED: Readonly<Record<TargetedKind, (ctx: RunContext) => StoryGen | void>> = {
  rejoin,
  'stale-pre-vote': stalePreVote,
  'backup-race': backupRace,
  'transfer-lagging': transferLagging,
  'snapshot-race': snapshotRace,
  'remove-leader': removeLeader,
  'lease-edge': leaseEdge,
  'stale-append-reply': staleAppendReply,
  'reelected-reuse': reelectedReuse,
};
