/**
 * The swarm's membership changes (feature membership, §4.1), drawn only in runs with the feature
 * and from a stream of their own — CPython's `random.Random(2**129 + (seed << 32) + run)` — so a
 * run's own stream, and every other fault it draws, is the same with the feature on or off.
 *
 * Every so often (a gap drawn from that stream) the leader is asked to add a server (an id of
 * n1..n9 outside its configuration), to remove one of its voters, or — the story that shows why
 * §4.1 allows one change at a time — to add two servers at once and to cut the cluster, the
 * moment the first configuration entry appears, between the old configuration's majority and the
 * leader with the two new servers; the leader then crashes and comes back. With the changes
 * serialized the leader's side has no majority of any configuration in force; with the
 * `config-changes-at-once` bug both sides do, and they elect two leaders in one term.
 */
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import { MAX_NODES } from '../../model/config';
import { isConfigCommand } from '../../raft/membership';
import { majorityOf } from '../../raft/quorum';
import type { LogEntry } from '../../model/types';
import type { RunContext } from './context';
import { after, until, type StoryGen } from './driver';

/** The membership stream of run `run`. */
export function membershipRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 129n) + (base << 32n) + BigInt(run));
}

/** Gaps between membership changes, in ms (uniform, inclusive). */
export const MEMBERSHIP_GAP_MS: readonly [number, number] = [300, 2000];

const SERVER_IDS = Array.from({ length: MAX_NODES }, (_, i) => `n${i + 1}`);

/** One membership change, chosen against the live state; `raceWeight` is the story's chance. */
export function membershipChange(ctx: RunContext, raceWeight: number): StoryGen | void {
  const leader = ctx.cluster.leader();
  const roll = ctx.rng.random();
  if (leader === null || leader.membership === null) return;
  const voters = leader.membership.voters;
  const spare = SERVER_IDS.filter((id) => !voters.includes(id));
  if (roll < raceWeight) return configRace(ctx);
  if (roll < raceWeight + (1 - raceWeight) * 0.55 && spare.length > 0) ctx.act({ verb: 'add', node: ctx.pick(spare) });
  else ctx.act({ verb: 'remove', node: ctx.pick(voters) });
}

function* configRace(ctx: RunContext): StoryGen {
  const leader = ctx.cluster.leader();
  const m = leader?.membership ?? null;
  if (leader === null || m === null) return;
  const voters = m.voters;
  const spare = SERVER_IDS.filter((id) => !voters.includes(id) && (!ctx.cluster.nodeById.has(id) || ctx.cluster.nodes.length < MAX_NODES));
  if (voters.length < 3 || voters.length % 2 === 0 || spare.length < 2 || ctx.cluster.nodes.length + 2 > MAX_NODES) return;
  const a = spare[ctx.rng.randbelow(spare.length)];
  const rest = spare.filter((id) => id !== a);
  const b = rest[ctx.rng.randbelow(rest.length)];
  ctx.act({ verb: 'add', node: a });
  ctx.act({ verb: 'add', node: b });
  // Global indexes: with snapshots the stored log may have been compacted meanwhile.
  const index = leader.lastLogIndex;
  const appended = () => {
    for (let i = leader.lastLogIndex; i > index && i > leader.snapshotIndex; i--)
      if (isConfigCommand((leader.entryAt(i) as LogEntry).command)) return true;
    return false;
  };
  yield until(appended, { everyMs: 1, giveUpAfterMs: 400 });
  if (!leader.alive || leader.role !== 'leader') return;
  // The old configuration's majority on one side; the leader, the rest and the new servers on the other.
  const others = voters.filter((id) => id !== leader.id);
  const majority = majorityOf(voters.length);
  const oldSide = others.slice(0, majority);
  ctx.act({ verb: 'partition', groups: [oldSide] });
  yield after(ctx.randint(5, 40));
  ctx.crashAndRestart(leader.id, ctx.randint(10, 200));
  ctx.actLater(ctx.randint(1000, 3000), { verb: 'heal' });
}
