/**
 * The Paxos family's experiments (issue 29, items 2 and 5), each run a pure function of its seed
 * so its link replays it:
 *
 * - `duel`: two single-decree proposers start at once (the chapter's FLP story: each pre-empts
 *   the other's ballot); swept over the randomized back-off range, it measures the time until a
 *   value is chosen and how many pre-emptions it took.
 * - `side-by-side`: the same workload and fault on Raft (the chapter's engine) and Multi-Paxos —
 *   a command every 100 ms to the leader from 1000 ms on, the leader crashed at 2000 ms — and
 *   per run: messages per committed command (by kind: election or phase 1, replication or
 *   phase 2, heartbeats included), the median commit latency, and the failover time.
 */
import { ballotText } from '../model/ballot';
import type { SimConfig } from '../model/config';
import { makeConfig } from '../model/config';
import type { Action } from '../model/schedule';
import { PaxosSimulation } from '../run/paxosSimulation';
import { newRun } from '../run/run';
import { Simulation } from '../run/simulation';
import { summarize, type Summary } from './stats';

/** One run's result: its values and the run itself as data (config, schedule, end), for a link. */
export interface PaxosExperimentRun {
  readonly label: string;
  readonly seed: number;
  readonly values: Readonly<Record<string, number | null>>;
  readonly run: { readonly config: SimConfig; readonly schedule: readonly Action[]; readonly atMs: number };
}

// -- item 2: dueling proposers and the back-off range ------------------------------------

/** The back-off ranges swept by default ("none": prepare again at once). */
export const DUEL_BACKOFFS: readonly (readonly [number, number] | null)[] = [null, [0, 10], [0, 25], [0, 50], [0, 100], [0, 200], [0, 400]];

export const DUEL_LIMIT_MS = 10_000;

export function backoffLabel(range: readonly [number, number] | null): string {
  return range === null ? 'none' : `${range[0]}-${range[1]}`;
}

/** One duel: n1 and n5 propose different values at 10 ms; until a value is chosen (or DUEL_LIMIT_MS). */
export function duelRun(seed: number, backoff: readonly [number, number] | null, base: Partial<SimConfig> = {}): PaxosExperimentRun {
  const config = makeConfig({ seed, protocol: 'paxos', ...base, ...(backoff !== null ? { backoffMs: backoff } : {}) });
  const last = config.nodeIds[config.nodeIds.length - 1];
  const schedule: Action[] = [
    { at: 10, verb: 'propose', value: 'v=1', node: config.nodeIds[0] },
    { at: 10, verb: 'propose', value: 'v=2', node: last },
  ];
  const sim = new PaxosSimulation(config, schedule);
  const c = sim.cluster;
  while (sim.nowMs < DUEL_LIMIT_MS && c.chosen.length === 0) sim.advanceTo(Math.min(DUEL_LIMIT_MS, sim.nowMs + 10));
  const chosen = c.chosen[0];
  return {
    label: backoffLabel(backoff),
    seed,
    values: {
      chosenMs: chosen === undefined ? null : chosen.atMs - 10,
      preemptions: c.events.filter((e) => e.kind === 'paxos-preempted').length,
      ballots: c.events.filter((e) => e.kind === 'paxos-prepare').length,
      messages: Object.values(c.sent).reduce((a, b) => a + b, 0),
    },
    run: { config, schedule, atMs: sim.nowMs },
  };
}

// -- item 5: Raft and Multi-Paxos side by side ----------------------------------------------

export const SIDE_LOAD_FROM_MS = 1000;
export const SIDE_CRASH_AT_MS = 2000;
export const SIDE_END_MS = 5000;
const SIDE_EVERY_MS = 100;

/** The same workload and fault on either protocol: commands every 100 ms, the leader crashed at 2000 ms. */
export function sideBySideRun(seed: number, protocol: 'raft' | 'multi-paxos', base: Partial<SimConfig> = {}): PaxosExperimentRun {
  const config = makeConfig({ seed, ...base, ...(protocol === 'multi-paxos' ? { protocol } : {}) });
  const submitAt = new Map<string, number>();
  const committedAt = new Map<string, number>();
  let crashed: string | null = null;
  let failoverMs: number | null = null;
  let sentAtLoad = 0;
  const sentTotal = (sent: Readonly<Record<string, number>>) => Object.values(sent).reduce((a, b) => a + b, 0);
  const byKind = { election: 0, replication: 0 };
  let kindBase = { election: 0, replication: 0 };
  const kinds = (sent: Readonly<Record<string, number>>) =>
    protocol === 'raft'
      ? { election: (sent.RequestVote ?? 0) + (sent.VoteReply ?? 0), replication: (sent.AppendEntries ?? 0) + (sent.AppendReply ?? 0) }
      : { election: (sent.Prepare ?? 0) + (sent.Promise ?? 0) + (sent.Nack ?? 0), replication: (sent.Accept ?? 0) + (sent.Accepted ?? 0) };
  const sim = newRun(config);
  if (sim instanceof Simulation) {
    // Raft: a command is committed when the first node (the leader) applies it.
    const c = sim.cluster;
    c.addApplyObserver((_node, _index, entry) => {
      const text = typeof entry.command === 'string' ? entry.command : '';
      if (submitAt.has(text) && !committedAt.has(text)) committedAt.set(text, c.nowMs);
    });
  }
  const cluster = sim.cluster;
  const leaderId = (): string | null => cluster.leader()?.id ?? null;
  let i = 0;
  while (sim.nowMs < SIDE_END_MS) {
    sim.step();
    const now = sim.nowMs;
    if (now === SIDE_LOAD_FROM_MS) {
      sentAtLoad = sentTotal(cluster.sent);
      kindBase = kinds(cluster.sent);
    }
    if (now === SIDE_CRASH_AT_MS) {
      const leader = leaderId();
      if (leader !== null) {
        crashed = leader;
        sim.act({ verb: 'crash', node: leader });
      }
    }
    const leader = leaderId();
    if (crashed !== null && failoverMs === null && leader !== null && leader !== crashed) failoverMs = now - SIDE_CRASH_AT_MS;
    if (now >= SIDE_LOAD_FROM_MS && now < SIDE_END_MS - 1000 && now % SIDE_EVERY_MS === 0 && leader !== null) {
      const command = `x=${i++}`;
      sim.act({ verb: 'submit', command, target: null });
      submitAt.set(command, now);
    }
  }
  if (sim instanceof PaxosSimulation)
    for (const chosen of sim.cluster.chosen)
      if (submitAt.has(chosen.value) && !committedAt.has(chosen.value)) committedAt.set(chosen.value, chosen.atMs);
  const k = kinds(cluster.sent);
  byKind.election = k.election - kindBase.election;
  byKind.replication = k.replication - kindBase.replication;
  sentAtLoad = sentTotal(cluster.sent) - sentAtLoad;
  const schedule = sim.schedule;
  const endMs = sim.nowMs;
  const latencies = [...committedAt].map(([command, t]) => t - (submitAt.get(command) as number));
  const committed = committedAt.size;
  return {
    label: protocol,
    seed,
    values: {
      committed,
      messagesPerCommand: committed > 0 ? sentAtLoad / committed : null,
      electionMessagesPerCommand: committed > 0 ? byKind.election / committed : null,
      replicationMessagesPerCommand: committed > 0 ? byKind.replication / committed : null,
      commitLatencyMs: latencies.length > 0 ? summarize(latencies).p50 : null,
      failoverMs,
    },
    run: { config, schedule, atMs: endMs },
  };
}

/** Per label (a back-off range, a protocol), the summary of each value over its runs. */
export function summarizeRuns(runs: readonly PaxosExperimentRun[]): Map<string, Record<string, Summary>> {
  const out = new Map<string, Record<string, Summary>>();
  const labels = [...new Set(runs.map((r) => r.label))];
  for (const label of labels) {
    const mine = runs.filter((r) => r.label === label);
    const keys = Object.keys(mine[0].values);
    out.set(label, Object.fromEntries(keys.map((k) => [k, summarize(mine.map((r) => r.values[k]))])));
  }
  return out;
}

export { ballotText };
