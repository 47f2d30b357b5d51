/**
 * Fault stories: fault patterns that wait for the right moment (a leader with a fresh entry, a
 * vote just cast, a lease about to run out), written as straight-line generators over the story
 * driver. A story draws from the run's PRNG as it goes, so the order of its draws and waits is
 * part of every fuzz run's identity: reorder nothing without meaning to change every run.
 */
import type { RaftNode } from '../../raft/node';
import type { Command } from '../../model/types';
import { majorityOf } from '../../raft/quorum';
import type { RunContext } from './context';
import { after, until, type StoryGen } from './driver';

/**
 * Figure 8's raw material: the leader takes an entry and crashes before it reaches everyone,
 * then comes back; repeated, different leaders leave different entries at one index.
 */
export function* leaderChurn(ctx: RunContext): StoryGen {
  const leader = ctx.leaderId();
  if (leader === null) return;
  const n = ctx.randint(1, 2);
  for (let i = 0; i < n; i++) ctx.act({ verb: 'submit', command: ctx.value('v'), target: null });
  yield after(ctx.randint(1, ctx.latencyMaxMs + 2));
  ctx.crashAndRestart(leader, ctx.randint(20, 600));
}

/**
 * The paper's Figure 8: a leader cut off with a minority takes an entry and crashes; the next
 * leader takes another entry at that index and crashes before sending it; the first comes back,
 * leads again and spreads its old entry to a majority; then it crashes and the second returns.
 */
export function* figure8Story(ctx: RunContext): StoryGen {
  const first = ctx.cluster.leader();
  if (first === null || ctx.config.nodeIds.length < 3) return;
  const majority = majorityOf(ctx.config.nodeIds.length);
  const others = ctx.config.nodeIds.filter((id) => id !== first.id);
  ctx.act({ verb: 'partition', groups: [[first.id, ...others.slice(0, ctx.randint(0, majority - 2))]] });
  ctx.act({ verb: 'submit', command: ctx.value('v'), target: first.id });
  const index = first.lastLogIndex;
  yield after(ctx.latencyMaxMs + ctx.randint(1, 20));
  ctx.crashAndRestart(first.id, null);
  const newLeader = () => {
    const l = ctx.cluster.leader();
    return l !== null && l !== first;
  };
  yield until(newLeader, { everyMs: 10, giveUpAfterMs: 2000 });
  const second = ctx.cluster.leader();
  if (second === null) return;
  ctx.act({ verb: 'partition', groups: [[second.id]] });
  ctx.act({ verb: 'submit', command: ctx.value('v'), target: second.id });
  yield after(ctx.randint(1, 5));
  ctx.crashAndRestart(second.id, null);
  yield after(ctx.randint(1, 30));
  ctx.act({ verb: 'restart', node: first.id });
  if (!(yield* handOverTo(ctx, first.id, 6, false))) return;
  // Let it spread the old entry (and, with figure8, commit it by counting).
  yield until(() => first.commitIndex >= index || !first.alive, { everyMs: 5, giveUpAfterMs: 400 });
  ctx.crashAndRestart(first.id, ctx.randint(300, 1000));
  ctx.act({ verb: 'restart', node: second.id });
  ctx.act({ verb: 'heal' });
  yield* handOverTo(ctx, second.id, 6, false);
}

/** A voter that crashes and restarts right after voting, while the election is still open. */
export function* voteFlap(ctx: RunContext): StoryGen {
  const flaps = ctx.randint(1, 4);
  // Start an election by taking the leader away for a while, then watch for votes.
  const leader = ctx.leaderId();
  if (leader !== null && ctx.majorityAlive()) ctx.crashAndRestart(leader, ctx.randint(300, 1500));
  yield after(1);
  for (let done = 0; ;) {
    const voter = voterOfOpenElection(ctx);
    if (voter !== null) {
      ctx.crashAndRestart(voter, ctx.randint(1, 8));
      done++;
    }
    if (done >= flaps || ctx.nowMs >= ctx.durationMs) return;
    yield after(voter !== null ? 30 : 2);
  }
}

function voterOfOpenElection(ctx: RunContext): string | null {
  for (const c of ctx.cluster.nodes) {
    if (!c.alive || c.role !== 'candidate') continue;
    for (const v of ctx.cluster.nodes) {
      if (v !== c && v.alive && v.term === c.term && v.votedFor === c.id) return v.id;
    }
  }
  return null;
}

/** A holder paused past its lease writes after the next holder did (the chapter's fencing story). */
export function* leaseSteal(ctx: RunContext): StoryGen {
  const pair = ctx.twoClients();
  if (pair === null) return;
  const [a, b] = pair;
  const key = ctx.pick(ctx.keys);
  const leaseMs = ctx.randint(200, 1500);
  ctx.client(a, { op: 'acquire', key, leaseMs });
  ctx.client(a, { op: 'write', key, value: ctx.value(a) });
  const pauseAfter = ctx.randint(50, 300);
  const bAfter = leaseMs + ctx.randint(100, 600);
  ctx.spawn(pauseThenWrite(ctx, a, key, pauseAfter, bAfter));
  yield after(bAfter);
  ctx.client(b, { op: 'acquire', key, leaseMs: ctx.randint(500, 3000) });
  ctx.client(b, { op: 'write', key, value: ctx.value(b) });
}

/** A pauses `pauseAfter` into the story until past `bAfter`, then writes with its old token. */
function* pauseThenWrite(ctx: RunContext, a: string, key: string, pauseAfter: number, bAfter: number): StoryGen {
  yield after(pauseAfter);
  ctx.client(a, { op: 'pause', ms: bAfter - pauseAfter + ctx.randint(100, 1500) });
  ctx.client(a, { op: 'write', key, value: ctx.value(a) });
}

/**
 * Followers whose clocks run fast (or a leader whose clock runs slow) see a lease end early;
 * the leader then fails inside that window and a follower takes over.
 */
export function* driftFailover(ctx: RunContext): StoryGen {
  const pair = ctx.twoClients();
  const leader = ctx.leaderId();
  if (pair === null || leader === null) return;
  const [a, b] = pair;
  const key = ctx.pick(ctx.keys);
  if (ctx.chance(0.5)) {
    for (const id of ctx.config.nodeIds) if (id !== leader) ctx.act({ verb: 'drift', node: id, pct: ctx.randint(40, 90) });
  } else {
    ctx.act({ verb: 'drift', node: leader, pct: -ctx.randint(30, 60) });
  }
  const leaseMs = ctx.randint(500, 2000);
  ctx.client(a, { op: 'acquire', key, leaseMs });
  yield after(Math.floor(leaseMs * (0.6 + 0.3 * ctx.rng.random())));
  ctx.crashAndRestart(leader, ctx.chance(0.5) ? ctx.randint(200, 2000) : null);
  yield after(ctx.randint(150, 500));
  ctx.client(b, { op: 'acquire', key, leaseMs: ctx.randint(500, 3000) });
  ctx.client(b, { op: 'write', key, value: ctx.value(b) });
}

/**
 * A follower cut off while A holds the key misses the release and B's grant; every other node
 * restarts (forgetting what was committed), one of them leads and hands the follower those
 * entries without their commit; the follower then leads with A's lease in its applied state.
 */
export function* staleLeader(ctx: RunContext): StoryGen {
  const pair = ctx.twoClients();
  const leader = ctx.leaderId();
  if (pair === null || leader === null) return;
  const [a, b] = pair;
  const key = ctx.pick(ctx.keys);
  const followers = ctx.config.nodeIds.filter((id) => id !== leader && ctx.cluster.node(id).alive);
  if (followers.length === 0) return;
  const f = ctx.pick(followers);
  ctx.client(a, { op: 'acquire', key, leaseMs: ctx.randint(200, 1000) });
  yield after(ctx.randint(250, 500));
  ctx.act({ verb: 'partition', groups: [[f]] });
  ctx.client(a, { op: 'release', key });
  yield after(ctx.randint(150, 400));
  ctx.client(b, { op: 'acquire', key, leaseMs: ctx.randint(3000, 8000) });
  yield after(ctx.randint(200, 400));
  for (const id of ctx.config.nodeIds) if (id !== f) ctx.crashAndRestart(id, ctx.randint(1, 30));
  yield after(ctx.randint(300, 600));
  ctx.act({ verb: 'heal' });
  yield* handOverTo(ctx, f, ctx.randint(3, 8));
}

/**
 * An index reused by another leader's entry for a different client: A's Grant reaches only the
 * leader, which is cut off at once; B asks the new majority's leader, whose Grant takes that
 * index; the heal overwrites A's entry on the old leader.
 */
export function* indexReuse(ctx: RunContext): StoryGen {
  const pair = ctx.twoClients();
  const leader = ctx.cluster.leader();
  if (pair === null || leader === null || ctx.config.nodeIds.length < 3) return;
  const [a, b] = pair;
  const key = ctx.pick(ctx.keys);
  ctx.client(a, { op: 'acquire', key, leaseMs: ctx.randint(300, 3000) });
  const proposed = () => leader.lastLogIndex > leader.commitIndex && lastGrantsTo(leader, a);
  yield until(proposed, { everyMs: 1, giveUpAfterMs: 600 });
  ctx.act({ verb: 'partition', groups: [[leader.id]] });
  ctx.client(b, { op: 'acquire', key, leaseMs: ctx.randint(300, 3000) });
  ctx.client(b, { op: 'write', key, value: ctx.value(b) });
  yield after(ctx.randint(300, 1500));
  ctx.act({ verb: 'heal' });
}

/** Whether the leader's last entry (one it still stores, not compacted) grants to `client`. */
function lastGrantsTo(leader: RaftNode, client: string): boolean {
  const last = leader.log.length > 0 ? leader.log[leader.log.length - 1] : undefined;
  return last !== undefined && grantsTo(last.command, client);
}

function grantsTo(command: Command, client: string): boolean {
  return typeof command !== 'string' && command.type === 'grant' && command.owner === client;
}

/**
 * A stale reply that arrives after its sender was re-elected: the leader answers A's grant
 * while A's messages crawl, loses leadership, and leads again before the answer lands.
 */
export function* staleReply(ctx: RunContext): StoryGen {
  const leader = ctx.cluster.leader();
  const clients = ctx.config.clientIds;
  if (leader === null || clients.length === 0 || ctx.config.nodeIds.length < 3) return;
  const a = ctx.pick(clients);
  ctx.client(a, { op: 'acquire', key: ctx.pick(ctx.keys), leaseMs: ctx.randint(300, 3000) });
  yield until(() => lastGrantsTo(leader, a), { everyMs: 1, giveUpAfterMs: 600 });
  const tMax = ctx.config.electionTimeoutMs[1];
  ctx.act({ verb: 'delay', target: a, ms: ctx.randint(tMax, 3 * tMax) });
  yield after(ctx.randint(1, ctx.latencyMaxMs + 5));
  ctx.crashAndRestart(leader.id, ctx.randint(20, 200));
  yield* handOverTo(ctx, leader.id, 4);
  ctx.act({ verb: 'delay', target: a, ms: 0 });
}

/**
 * Crashes whoever leads (once `f` has caught up with it, if `catchUp`) until `f` leads, and
 * returns true then; false once `attempts` crashes have not done it. Ends the story if no
 * suitable leader shows up for 1.5 s.
 */
export function* handOverTo(ctx: RunContext, f: string, attempts: number, catchUp = true): StoryGen<boolean> {
  const target = ctx.cluster.node(f);
  for (let left = attempts; ; left--) {
    yield until(
      () => {
        const leader = ctx.cluster.leader();
        return leader !== null && (leader === target || !catchUp || target.lastLogIndex >= leader.lastLogIndex);
      },
      { everyMs: 10, giveUpAfterMs: 1500 },
    );
    const leader = ctx.cluster.leader();
    if (leader === null || left <= 0) return false;
    if (leader === target) return true;
    ctx.crashAndRestart(leader.id, ctx.randint(50, 300));
    yield after(20);
  }
}
