/**
 * What each fault kind does when the swarm picks it. The one-shot faults are here (some undo
 * themselves later through `actLater`); the waiting stories are in `stories.ts`. Faults are
 * chosen against the live state (crash *the leader*), and each draws from the run's PRNG in a
 * fixed order, which is part of every fuzz run's identity.
 */
import type { RunContext } from './context';
import type { StoryGen } from './driver';
import { driftFailover, figure8Story, indexReuse, leaderChurn, leaseSteal, staleLeader, staleReply, voteFlap } from './stories';
import type { FaultKind } from './draw';

/** A fault: acts at once, and may return a story that goes on waiting. */
export type Fault = (ctx: RunContext) => StoryGen | void;

function crash(ctx: RunContext): void {
  const alive = ctx.aliveNodes();
  if (alive.length === 0 || (!ctx.majorityAlive() && ctx.chance(0.8))) return;
  const leader = ctx.leaderId();
  const id = leader !== null && ctx.chance(0.5) ? leader : ctx.pick(alive);
  ctx.crashAndRestart(id, ctx.chance(0.85) ? ctx.randint(20, 2500) : null);
}

function partition(ctx: RunContext): void {
  if (ctx.config.nodeIds.length < 2) return;
  const shuffled = [...ctx.config.nodeIds];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = ctx.rng.randbelow(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const cut = ctx.randint(1, shuffled.length - 1);
  const named = shuffled.slice(0, cut);
  // Clients in the groups come from the names stream (names.ts), so this fault's own draws stay as they were.
  const groups =
    ctx.names !== null
      ? ctx.names.partitionGroups(
          named,
          ctx.cluster.nodes.map((n) => n.id).filter((id) => !named.includes(id)),
          ctx.config.clientIds,
        )
      : [named];
  ctx.act({ verb: 'partition', groups });
  ctx.actLater(ctx.randint(100, 3000), { verb: 'heal' });
}

function loss(ctx: RunContext): void {
  ctx.act({ verb: 'loss', pct: ctx.randint(5, 35) });
  ctx.actLater(ctx.randint(200, 3000), { verb: 'loss', pct: 0 });
}

function drift(ctx: RunContext): void {
  ctx.act({ verb: 'drift', node: ctx.pick(ctx.config.nodeIds), pct: ctx.chance(0.5) ? ctx.randint(20, 90) : -ctx.randint(20, 60) });
}

function clientPause(ctx: RunContext): void {
  if (ctx.config.clientIds.length === 0) return;
  const c = ctx.pick(ctx.config.clientIds);
  ctx.client(c, { op: 'pause', ms: ctx.randint(100, 4000) });
  ctx.client(c, { op: 'write', key: ctx.pick(ctx.keys), value: ctx.value(c) });
}

function clientCrash(ctx: RunContext): void {
  if (ctx.config.clientIds.length === 0) return;
  const c = ctx.pick(ctx.config.clientIds);
  ctx.client(c, { op: 'crash' });
  ctx.actLater(ctx.randint(50, 2000), { verb: 'client', client: c, intent: { op: 'restart' } });
}

function locks(ctx: RunContext): void {
  if (ctx.config.clientIds.length === 0) return;
  const c = ctx.pick(ctx.config.clientIds);
  const key = ctx.pick(ctx.keys);
  const roll = ctx.rng.random();
  if (roll < 0.5) {
    ctx.client(c, { op: 'acquire', key, leaseMs: ctx.randint(200, 3000) });
    ctx.client(c, { op: 'write', key, value: ctx.value(c) });
  } else if (roll < 0.8) {
    ctx.client(c, { op: 'write', key, value: ctx.value(c) });
  } else {
    ctx.client(c, { op: 'release', key });
  }
}

function submits(ctx: RunContext): void {
  const n = ctx.randint(1, 3);
  for (let i = 0; i < n; i++) {
    const target = ctx.chance(0.8) ? null : ctx.pick(ctx.config.nodeIds);
    ctx.act({ verb: 'submit', command: ctx.value('v'), target });
  }
}

/** A slow spell longer than an election timeout, for everyone or around one actor. */
function delaySpike(ctx: RunContext): void {
  const actors = [...ctx.config.nodeIds, ...ctx.config.clientIds];
  const target = ctx.chance(0.5) ? null : ctx.pick(actors);
  const tMax = ctx.config.electionTimeoutMs[1];
  ctx.act({ verb: 'delay', target, ms: ctx.randint(tMax, 3 * tMax) });
  ctx.actLater(ctx.randint(50, 1500), { verb: 'delay', target, ms: 0 });
}

function duplicates(ctx: RunContext): void {
  ctx.act({ verb: 'duplicate', pct: ctx.randint(5, 40) });
  ctx.actLater(ctx.randint(200, 3000), { verb: 'duplicate', pct: 0 });
}

function reorder(ctx: RunContext): void {
  ctx.act({ verb: 'reorder', pct: ctx.randint(5, 40) });
  ctx.actLater(ctx.randint(200, 3000), { verb: 'reorder', pct: 0 });
}

export const FAULTS: Readonly<Record<FaultKind, Fault>> = {
  crash,
  partition,
  loss,
  drift,
  'client-pause': clientPause,
  'client-crash': clientCrash,
  locks,
  submits,
  'leader-churn': leaderChurn,
  'figure8-story': figure8Story,
  'vote-flap': voteFlap,
  'lease-steal': leaseSteal,
  'drift-failover': driftFailover,
  'stale-leader': staleLeader,
  'delay-spike': delaySpike,
  duplicates,
  reorder,
  'index-reuse': indexReuse,
  'stale-reply': staleReply,
};
