/**
 * What in a valid schedule will not happen as written, one sentence each: an action written after
 * a later one (it runs when its turn comes, DESIGN.md's "in the order written"), a crash of a node
 * already down, a restart of one that is up, a heal with no partition, a timeout on the leader or
 * a down node; and settings under which no leader can ever be elected. None of these is refused —
 * each is legal and runs exactly as the engine says — but a student who wrote them meant something
 * else. The state-based ones replay the run (it is a pure function of its inputs) up to the last
 * action, checking the state just before each one.
 */
import type { SimConfig } from '../model/config';
import { formatAction, type Action, type ActionBody } from '../model/schedule';
import { Simulation } from './simulation';

/** Replays at most this far (simulated ms) to check the state before each action; past it, only the written order is checked. */
export const WARN_REPLAY_MAX_MS = 120_000;

/** A sentence when these settings can never elect a leader, else null. */
export function configWarning(config: SimConfig): string | null {
  const [lMin, lMax] = config.latencyMs;
  const [tMin, tMax] = config.electionTimeoutMs;
  // A candidate's RequestVote and the reply take at least 2 × the smallest latency; if that is
  // longer than the longest election timeout, every candidate times out again before any vote
  // comes back (Raft paper §5.6: broadcastTime ≪ electionTimeout).
  // The vote's reply also waits the voter's persist delay, when the run has one (issue 28, Figure 16).
  const persist = config.persistMs ?? 0;
  const persistText = persist > 0 ? ` and a ${persist} ms persist before replies` : '';
  if (2 * lMin + persist >= tMax)
    return `With latency ${lMin}–${lMax} ms${persistText} and election timeouts ${tMin}–${tMax} ms, a vote's round trip (at least ${Math.round((2 * lMin + persist) * 1000) / 1000} ms) outlasts every election timeout, so no candidate ever collects a majority: no leader can be elected. Raft needs messages much faster than the timeout (§5.6).`;
  return null;
}

/** One sentence per action (and setting) that will not do what it says; empty when all will. */
export function scheduleWarnings(actions: readonly Action[], config: SimConfig): string[] {
  const out: string[] = [];
  const setting = configWarning(config);
  if (setting !== null) out.push(setting);
  const what = (i: number) => `Action ${i + 1} ("${formatAction(actions[i])}")`;
  let latest = -Infinity;
  let latestIndex = -1;
  actions.forEach((a, i) => {
    if (a.at < latest)
      out.push(
        `${what(i)} is written after ${what(latestIndex)}: actions run in the order written, so it runs at ${latest} ms, not at ${a.at} ms.`,
      );
    if (a.at > latest) {
      latest = a.at;
      latestIndex = i;
    }
  });
  if (actions.length === 0 || latest > WARN_REPLAY_MAX_MS) return out;
  let sim: Simulation;
  try {
    sim = new Simulation(config);
  } catch {
    return out;
  }
  const c = sim.cluster;
  actions.forEach((a, i) => {
    if (a.at > c.nowMs) sim.advanceTo(a.at);
    const t = c.nowMs;
    const down = (id: string) => {
      const n = c.nodes.find((x) => x.id === id);
      return n !== undefined && !n.alive;
    };
    switch (a.verb) {
      case 'crash':
        if (down(a.node)) out.push(`${what(i)} does nothing: ${a.node} is already down at ${t} ms.`);
        break;
      case 'restart':
        if (c.nodes.some((n) => n.id === a.node) && !down(a.node)) out.push(`${what(i)} does nothing: ${a.node} is up at ${t} ms.`);
        break;
      case 'heal':
        if (c.groups.length === 0) out.push(`${what(i)} does nothing: there is no partition to heal at ${t} ms.`);
        break;
      case 'timeout': {
        const leader = c.leader();
        if (down(a.node)) out.push(`${what(i)} is refused: ${a.node} is down at ${t} ms.`);
        else if (leader !== null && leader.id === a.node)
          out.push(`${what(i)} is refused: ${a.node} leads term ${leader.term} at ${t} ms, and a leader has no election timer to fire.`);
        break;
      }
      default:
        break;
    }
    // The action as the run takes it, now: the state after it is the run's.
    const { at: _at, ...body } = a;
    sim.act(body as ActionBody);
  });
  return out;
}
