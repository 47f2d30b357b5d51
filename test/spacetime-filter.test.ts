import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { TraceRecorder, traceView } from '../src/sim/view/traceRecorder';
import { messageFilterOf } from '../src/ui/spacetime/ConnectedSpaceTime';
import { laneLayout } from '../src/ui/spacetime/lanes';
import { buildScene } from '../src/ui/spacetime/scene';

describe("the event log's filters on the space-time view", () => {
  const sim = new Simulation(DEFAULT_CONFIG, parseSchedule(CHAPTER_SCHEDULE));
  const recorder = TraceRecorder.attach(sim);
  sim.advanceTo(2253);
  const trace = traceView(recorder, 1);
  const layout = laneLayout(trace.actorIds, trace.actors, 850);
  const opts = { window: [1100, 1500] as const, top: 40, height: 500, heartbeats: 'show' as const };

  it('maps "who" and "kind" to the messages they concern, and "all" to none', () => {
    expect(messageFilterOf('all', 'all')).toBeNull();
    expect(messageFilterOf('n3', 'all')).toEqual({ actor: 'n3', types: null });
    // Paxos's phase 1 (Prepare, Promise, a Nack) is its election; a Raft run sends none of them.
    expect([...(messageFilterOf('all', 'election')?.types ?? [])]).toEqual(['RequestVote', 'VoteReply', 'Prepare', 'Promise', 'Nack']);
    // A category about no message (a crash) filters by actor only.
    expect(messageFilterOf('n2', 'crash')).toEqual({ actor: 'n2', types: null });
  });

  it('keeps only the arrows from or to the chosen actor, of the chosen types', () => {
    const all = buildScene(trace, layout, opts);
    const n3 = buildScene(trace, layout, { ...opts, filter: { actor: 'n3', types: null } });
    expect(n3.arrows.length).toBeGreaterThan(0);
    expect(n3.arrows.length).toBeLessThan(all.arrows.length);
    for (const a of n3.arrows) expect(a.from === 'n3' || a.to === 'n3').toBe(true);
    const votes = buildScene(trace, layout, { ...opts, filter: messageFilterOf('all', 'election') ?? undefined });
    expect(new Set(votes.arrows.map((a) => a.type))).toEqual(new Set(['RequestVote', 'VoteReply']));
  });
});
