/**
 * The clients' history on the space-time view's lanes (issue 15): the fencing preset's operations
 * as bars right of their clients' lanes, the unfenced verdict's minimal subset outlined, and the
 * SVG export drawing the same bars.
 */
import { describe, expect, it } from 'vitest';
import { historyJson } from '../src/sim/model/history';
import { checkHistory } from '../src/sim/check/linearizability/check';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { Simulation } from '../src/sim/run/simulation';
import { TraceRecorder, traceView } from '../src/sim/view/traceRecorder';
import { shownSubset } from '../src/ui/panels/historyLanes';
import { OP_GEOMETRY, opBars, type SceneHistory } from '../src/ui/spacetime/historyBars';
import { foldNodes, defaultLaneIds, laneLayout } from '../src/ui/spacetime/lanes';
import { buildScene, LANE_GEOMETRY } from '../src/ui/spacetime/scene';
import { traceToSvg } from '../src/ui/spacetime/svgExport';
import { LIGHT_THEME } from '../src/ui/spacetime/theme';

function fencingRun() {
  const preset = findPreset('fencing');
  if (!preset) throw new Error('no fencing preset');
  const sim = new Simulation(preset.config, [], { recordDetails: true });
  const recorder = TraceRecorder.attach(sim);
  sim.replaceFutureActions(presetActions(preset));
  sim.applyDue();
  sim.advanceTo(preset.untilMs);
  const ops = historyJson((sim.lockService as NonNullable<Simulation['lockService']>).history.ops);
  const verdicts = checkHistory(ops);
  const trace = traceView(recorder, 1);
  const history: SceneHistory = { ops, subset: new Set(shownSubset(verdicts)), atMs: preset.untilMs };
  return { trace, ops, verdicts, history };
}

describe('space-time: the clients’ operations beside their lanes', () => {
  const { trace, ops, verdicts, history } = fencingRun();
  const layout = laneLayout(trace.actorIds, trace.actors, 1200);
  const window = [0, trace.untilMs] as const;
  const scene = buildScene(trace, layout, { window, top: 40, height: 600, heartbeats: 'fold', history });

  it('draws one bar per client operation right of its client’s lane, lock first, then the fenced and unfenced store', () => {
    const clientOps = ops.filter((o) => o.op !== 'expire' && o.op !== 'ghost-release');
    const bars = scene.ops.filter((b) => b.tone !== 'service');
    expect(bars.map((b) => b.id)).toEqual(clientOps.map((o) => o.id));
    for (const b of bars) {
      const op = ops[b.id];
      const lane = layout.byId.get(op.client)!;
      expect(lane.kind).toBe('client');
      const track = op.store === 'fenced' ? 1 : op.store === 'unfenced' ? 2 : 0;
      expect(b.x).toBe(lane.x + OP_GEOMETRY.first + track * OP_GEOMETRY.step);
      // Right of the lane, clear of the client's own lease bar on its left.
      expect(b.x - OP_GEOMETRY.width / 2).toBeGreaterThan(lane.x + LANE_GEOMETRY.band / 2);
      expect(b.y2).toBeGreaterThan(b.y1);
    }
  });

  it('puts a lease expiry on the lane of the node whose clock ended it, beyond its lease bar', () => {
    const expiry = scene.ops.find((b) => b.tone === 'service');
    if (!expiry) throw new Error('the fencing preset has an expiry');
    const lane = layout.byId.get(ops[expiry.id].client)!;
    expect(lane.kind).toBe('node');
    expect(expiry.x - OP_GEOMETRY.width / 2).toBeGreaterThan(lane.x + LANE_GEOMETRY.lease + LANE_GEOMETRY.leaseWidth / 2);
  });

  it('outlines the unfenced verdict’s minimal subset and dims the rest', () => {
    const unfenced = verdicts.unfenced;
    if (unfenced?.linearizable !== false) throw new Error('the unfenced store fails in the fencing preset');
    expect(
      scene.ops
        .filter((b) => b.inSubset)
        .map((b) => b.id)
        .sort((a, b) => a - b),
    ).toEqual([...unfenced.subset].sort((a, b) => a - b));
    expect(scene.ops.filter((b) => !b.inSubset).every((b) => b.dimmed)).toBe(true);
    // The stale write is named in its bar's label.
    const stale = scene.ops.find((b) => b.inSubset && ops[b.id].op === 'write')!;
    expect(stale.label).toMatch(/A writes .* with token 1 to unfenced → accepted/);
  });

  it('leaves operations outside the window out, and clips the ones that cross its edges', () => {
    const first = ops[0];
    const t0 = first.invokeMs + 1;
    const t1 = (first.completeMs as number) + 1;
    const clipped = buildScene(trace, layout, { window: [t0, t1], top: 40, height: 600, heartbeats: 'fold', history });
    expect(clipped.ops.map((b) => b.id)).toContain(first.id);
    const bar = clipped.ops.find((b) => b.id === first.id)!;
    expect(bar.y1).toBe(40);
    expect(clipped.ops.every((b) => ops[b.id].invokeMs <= t1)).toBe(true);
    expect(opBars(undefined, layout, trace.actorIds, ...window, (t) => t)).toEqual([]);
  });

  it('folds the nodes’ operations onto the service lane when the nodes are folded', () => {
    const folded = laneLayout(trace.actorIds, trace.actors, 1200, foldNodes(defaultLaneIds(trace.actors), trace.actors));
    const s = buildScene(trace, folded, { window, top: 40, height: 600, heartbeats: 'fold', history });
    const expiry = s.ops.find((b) => b.tone === 'service')!;
    expect(expiry.lane).toBe('service');
  });

  it('the SVG export draws the same bars, the subset outlined, with a legend entry', () => {
    const svg = traceToSvg(trace, { theme: LIGHT_THEME, width: 1200, height: 700, window, seed: 'fencing', history });
    const rects = [...svg.matchAll(/<rect class="op"[^>]*data-op-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(rects).toEqual(scene.ops.map((b) => b.id));
    expect((svg.match(/<rect class="op"[^>]*stroke=/g) ?? []).length).toBe(scene.ops.filter((b) => b.inSubset).length);
    expect(svg).toContain('operations no order explains');
    expect(traceToSvg(trace, { theme: LIGHT_THEME, width: 1200, height: 700, window, seed: 'fencing' })).not.toContain('class="op"');
  });
});
