// Off means exact: with no protocol feature on, every draw, event line and message is what the
// engine did before features existed. The fixture was made by replaying 80 fuzz-drawn runs
// (crashes, partitions, loss, drift, clients, duplicates, reordering ...) on commit f5b0546;
// here the same runs are drawn again and replayed, with `features` absent and with it empty.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandText } from '../src/sim/model/describe';
import { fuzzRun } from '../src/sim/check/fuzz';
import { formatSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import type { SimConfig } from '../src/sim/model/config';

interface ReferenceRun {
  readonly run: number;
  readonly seed: string;
  readonly untilMs: number;
  readonly schedule: string;
  readonly digest: string;
}

const reference = JSON.parse(readFileSync(new URL('./fixtures/features-off-reference.json', import.meta.url), 'utf8')) as {
  runs: ReferenceRun[];
};

/** Every chapter line, message count, drop, node state and the PRNG's next draw, hashed. */
function digest(sim: Simulation): string {
  const c = sim.cluster;
  const parts = [
    c.events.map((e) => e.line).join('\n'),
    JSON.stringify(c.sent),
    String(c.dropped),
    c.nodes
      .map(
        (n) =>
          `${n.id} ${n.alive} ${n.term} ${n.votedFor} ${n.role} ${n.commitIndex} ${n.lastApplied} ${n.log.map((e) => `${e.term}:${commandText(e.command)}`).join(',')}`,
      )
      .join('\n'),
    String(c.rng.random()),
  ];
  return createHash('sha256').update(parts.join('\n#\n')).digest('hex').slice(0, 24);
}

/** Issue 24's draws (shared names, targeted stories) out: the runs are then exactly the fixture's. */
const OLD_DRAWS = { sharedNames: false, targeted: false } as const;

function replayDigest(config: SimConfig, run: ReturnType<typeof fuzzRun>, untilMs: number): string {
  const sim = new Simulation(config, run.schedule);
  sim.advanceTo(untilMs);
  return digest(sim);
}

describe('with no feature on, runs are what they were before features (80 fuzz-drawn runs)', () => {
  it('has the reference runs', () => {
    expect(reference.runs.length).toBe(80);
  });

  it.each(reference.runs.map((r) => [r.run, r]))('run %i: the same schedule, draws, events and final state', (_n, ref) => {
    const r = ref as ReferenceRun;
    const outcome = fuzzRun(7, r.run, [], 4000, [], [], OLD_DRAWS);
    expect(outcome.config.features).toBeUndefined();
    expect(String(outcome.config.seed)).toBe(r.seed);
    expect(formatSchedule(outcome.schedule)).toBe(r.schedule);
    expect(outcome.untilMs).toBe(r.untilMs);
    expect(replayDigest(outcome.config, outcome, r.untilMs)).toBe(r.digest);
    expect(replayDigest({ ...outcome.config, features: [] }, outcome, r.untilMs)).toBe(r.digest);
  });

  it('a feature on does change runs (the comparison can fail)', () => {
    const r = reference.runs.find((x) => x.untilMs > 3000 && x.schedule.includes('partition')) as ReferenceRun;
    const outcome = fuzzRun(7, r.run, [], 4000, [], [], OLD_DRAWS);
    const changed = (['pre-vote', 'check-quorum', 'leader-noop'] as const).filter(
      (f) => replayDigest({ ...outcome.config, features: [f] }, outcome, r.untilMs) !== r.digest,
    );
    expect(changed).toEqual(['pre-vote', 'check-quorum', 'leader-noop']);
  });
});
