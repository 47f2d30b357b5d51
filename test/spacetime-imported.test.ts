// @vitest-environment jsdom
/**
 * The space-time view drawing imported files (issue 27): an imported history's operations on its
 * process lanes with their own tones (an indeterminate one dashed, not by colour alone) and
 * labels (the state before and after), lane marks (commits, configuration changes, violations,
 * nemesis events) placed on their lanes, and both in the SVG export with its legend.
 */
import { describe, expect, it } from 'vitest';
import { laneLayout } from '../src/ui/spacetime/lanes';
import { buildScene } from '../src/ui/spacetime/scene';
import { traceToSvg } from '../src/ui/spacetime/svgExport';
import { LIGHT_THEME } from '../src/ui/spacetime/theme';
import type { SceneHistory } from '../src/ui/spacetime/historyBars';
import { historyTraceView, etcdTraceView, etcdMarks, historyMarks, processLanes } from '../src/sim/import/etcdView';
import { readJepsenEdn } from '../src/sim/import/jepsenEdn';
import { readEtcdTrace } from '../src/sim/import/etcdTrace';
import { syntheticRaftTrace } from '../src/sim/import/synthetic';
import { importedView } from '../src/sim/import/view';

const h = readJepsenEdn(`[{:process :nemesis, :type :info, :f :start, :value nil}
 {:process 0, :type :invoke, :f :write, :value 1}
 {:process 0, :type :ok, :f :write, :value 1}
 {:process 1, :type :invoke, :f :cas, :value [1 2]}
 {:process 1, :type :info, :f :cas, :value [1 2]}]`);

describe('an imported history on the space-time view', () => {
  const trace = historyTraceView(h);
  const layout = laneLayout(trace.actorIds, trace.actors, 600);
  const history: SceneHistory = {
    ops: [
      { id: 0, client: 'p0', store: null, invokeMs: 1, completeMs: 2, op: 'write' },
      { id: 1, client: 'p1', store: null, invokeMs: 3, completeMs: 4, op: 'cas' },
    ],
    subset: new Set([1]),
    atMs: trace.untilMs,
    toneOf: (o) => (o.id === 1 ? 'info' : 'ok'),
    labelOf: (o) => `op ${o.id}: before nil, after 1`,
  };
  const marks = historyMarks(h, 'p0');
  const scene = buildScene(trace, layout, { window: [0, trace.untilMs], top: 40, height: 400, heartbeats: 'fold', history, marks });

  it('one lane per process, in file order when the file has no times', () => {
    expect(trace.actors.clients).toEqual(['p0', 'p1']);
    // Four client events: positions 0 to 3, the axis to 4.
    expect(trace.untilMs).toBe(4);
  });

  it("bars take the importer's tones and labels; the subset is outlined", () => {
    expect(scene.ops.map((b) => [b.lane, b.tone, b.inSubset, b.label])).toEqual([
      ['p0', 'ok', false, 'op 0: before nil, after 1'],
      ['p1', 'info', true, 'op 1: before nil, after 1'],
    ]);
  });

  it('a nemesis event is a mark across the lanes', () => {
    expect(scene.marks.map((m) => [m.kind, m.text])).toEqual([['nemesis', 'nemesis info :start']]);
  });

  it('the SVG export draws the indeterminate bar dashed and names it in the legend', () => {
    const svg = traceToSvg(trace, {
      theme: LIGHT_THEME,
      width: 600,
      height: 450,
      window: [0, trace.untilMs],
      seed: '',
      title: 'Lockstep: h.edn',
      history,
      marks,
    });
    expect(svg).toContain('<title>Lockstep: h.edn</title>');
    expect(svg).toMatch(/data-op-id="1"[^>]*>|stroke-dasharray="3 2"/);
    expect(svg).toContain('indeterminate (:info): may or may not have taken effect');
    expect(svg).toContain('nemesis event');
  });
});

describe('many processes share lanes as threads', () => {
  // Process 1 reads the whole time; beside it, processes 0, 2, 3, … 13 each write once and crash
  // (:info), the next taking over — as Jepsen replaces a crashed process with a new number.
  const rows = ['{:process 1, :type :invoke, :f :read, :value nil}'];
  const crashed = [0, ...Array.from({ length: 12 }, (_, i) => i + 2)];
  for (const p of crashed)
    rows.push(`{:process ${p}, :type :invoke, :f :write, :value ${p}}`, `{:process ${p}, :type :info, :f :write, :value ${p}}`);
  rows.push('{:process 1, :type :ok, :f :read, :value nil}');
  const many = readJepsenEdn(rows.join('\n'));

  it('up to 12 processes keep a lane each; beyond, a process takes the lane of one that has finished', () => {
    expect(processLanes(h)).toEqual(
      new Map([
        ['0', 'p0'],
        ['1', 'p1'],
      ]),
    );
    const lanes = processLanes(many);
    expect(lanes.get('1')).toBe('t0');
    expect(new Set(crashed.map((p) => lanes.get(String(p))))).toEqual(new Set(['t1']));
    expect(historyTraceView(many).actors.clients).toEqual(['t0', 't1']);
  });

  it("the page's view says so, and each operation keeps its own process", () => {
    const v = importedView('many.edn', rows.join('\n'));
    expect(v.processes).toEqual(['t0', 't1']);
    expect(v.ops.find((o) => o.process === '13')?.lane).toBe('t1');
    expect(v.verdict.notes).toContain(
      "14 processes on 2 lanes (t0–t1): a process that replaced a crashed one takes a lane whose process has finished, as Jepsen's worker threads do; each operation names its process.",
    );
  });
});

describe('an etcd raft trace on the space-time view', () => {
  const t = readEtcdTrace(syntheticRaftTrace({ seed: 3, twoLeaders: true }));
  const trace = etcdTraceView(t);
  const layout = laneLayout(trace.actorIds, trace.actors, 700);
  const scene = buildScene(trace, layout, { window: [0, trace.untilMs], top: 40, height: 600, heartbeats: 'show', marks: etcdMarks(t) });

  it('draws every matched message as an arrow and an unmatched send as dropped; rows in send order', () => {
    const sent = [...trace.messages.sentAt.subarray(0, trace.messages.count)];
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(scene.arrows.filter((a) => a.dropReason === 'loss').length).toBe(
      t.messages.filter((m) => m.receivedAt === null && m.msg.from !== m.msg.to).length,
    );
  });

  it('marks the commits on their node and the violation as a landmark', () => {
    expect(scene.marks.some((m) => m.kind === 'commit' && m.lane === 'n1')).toBe(true);
    const v = scene.marks.filter((m) => m.kind === 'violation');
    expect(v.map((m) => m.lane)).toEqual(['n3', 'n3']);
    const svg = traceToSvg(trace, {
      theme: LIGHT_THEME,
      width: 700,
      height: 650,
      window: [0, trace.untilMs],
      seed: '',
      marks: etcdMarks(t),
    });
    expect(svg).toContain('data-mark-kind="violation"');
    expect(svg).toContain('invariant violated (see Why)');
  });

  it("the page's view of the file carries the verdict, the violations and the parsed file", () => {
    const v = importedView('raft.ndjson', syntheticRaftTrace({ seed: 3, twoLeaders: true }));
    expect(v.kind).toBe('trace');
    expect(v.verdict.linearizable).toBe(false);
    expect(v.violations.map((x) => x.invariant)).toEqual(['one-vote-per-term', 'one-leader-per-term']);
    expect(JSON.parse(v.parsedJson).nodes).toEqual(['n1', 'n2', 'n3']);
    // Structured clone (the worker's postMessage) keeps everything the page reads.
    expect(structuredClone(v).trace.messages.count).toBe(v.trace.messages.count);
  });
});
