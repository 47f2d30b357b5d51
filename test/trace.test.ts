// The trace recorder observes only (a run with one is byte for byte the run without), records every
// message once with its fate, cause and heartbeat flag, and samples the spans the space-time view
// draws; the JSON trace is versioned, canonical and read back with one sentence per bad file.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type SimConfig } from '../src/sim/model/config';
import { CPythonRandom } from '../src/sim/model/prng';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { runReport, sentCounts } from '../src/sim/view/report';
import { parseSchedule, type Action } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { FATE, MESSAGE_TYPES, fateCode } from '../src/sim/view/traceColumns';
import { buildRunTrace, runTraceJson, traceFromJson, traceToJson } from '../src/sim/view/traceJson';
import { TraceRecorder, traceView } from '../src/sim/view/traceRecorder';
import { TRACE_VERSION, type TraceRecord } from '../src/sim/view/traceTypes';

interface Run {
  readonly config: SimConfig;
  readonly schedule: readonly Action[];
  readonly untilMs: number;
  readonly submitEveryMs?: number | null;
}

function preset(name: string): Run {
  const p = findPreset(name);
  if (p === null) throw new Error(`no preset ${name}`);
  return { config: p.config, schedule: presetActions(p), untilMs: p.untilMs };
}

/** Runs as the sim CLI does, with or without a recorder. */
function play(run: Run, record: boolean) {
  const sim = new Simulation(run.config, [], { submitEveryMs: run.submitEveryMs ?? null, recordDetails: true });
  const recorder = record ? TraceRecorder.attach(sim) : null;
  sim.replaceFutureActions(run.schedule);
  sim.applyDue();
  sim.advanceTo(run.untilMs);
  return { sim, recorder };
}

/** A random but reproducible run: faults of every kind the network and the schedule have. */
function randomRun(seed: number, withDuplicates: boolean): Run {
  const rng = new CPythonRandom(seed);
  const n = 3 + rng.randbelow(3);
  const nodes = Array.from({ length: n }, (_, i) => `n${i + 1}`);
  const clients = rng.random() < 0.6 ? ['A', 'B'] : [];
  const pick = <T>(items: readonly T[]): T => items[rng.randbelow(items.length)];
  const verbs = ['crash', 'restart', 'partition', 'heal', 'loss', 'delay', 'reorder', 'drift', 'timeout', 'submit'];
  if (withDuplicates) verbs.push('duplicate');
  const lines: string[] = [];
  let t = 0;
  for (let i = 0; i < 14; i++) {
    t += 50 + rng.randbelow(400);
    const useClient = clients.length > 0 && rng.random() < 0.4;
    if (useClient) {
      const c = pick(clients);
      const op = pick(['acquire', 'acquire', 'write', 'release', 'pause', 'crash', 'restart']);
      const arg =
        op === 'acquire'
          ? `job:1 ${500 + rng.randbelow(2000)}`
          : op === 'write'
            ? `k=v${i}`
            : op === 'release'
              ? 'job:1'
              : op === 'pause'
                ? String(100 + rng.randbelow(1500))
                : '';
      lines.push(`@${t} client ${c} ${op} ${arg}`.trim());
      continue;
    }
    const verb = pick(verbs);
    const node = pick(nodes);
    switch (verb) {
      case 'partition':
        lines.push(`@${t} partition ${nodes.slice(0, 1 + rng.randbelow(n - 1)).join(',')}`);
        break;
      case 'heal':
        lines.push(`@${t} heal`);
        break;
      case 'loss':
      case 'reorder':
      case 'duplicate':
        lines.push(`@${t} ${verb} ${rng.randbelow(40)}`);
        break;
      case 'delay':
        lines.push(`@${t} delay ${rng.random() < 0.5 ? `${node} ` : ''}${rng.randbelow(60)}`);
        break;
      case 'drift':
        lines.push(`@${t} drift ${node} ${rng.randbelow(60)}`);
        break;
      case 'submit':
        lines.push(`@${t} submit x=${i}`);
        break;
      default:
        lines.push(`@${t} ${verb} ${node}`);
    }
  }
  if (rng.random() < 0.5) lines.push(`@${t + 100} calm`);
  const config: SimConfig = { ...DEFAULT_CONFIG, seed: seed * 7919, nodeIds: nodes, clientIds: clients };
  return { config, schedule: parseSchedule(lines.join('; ')), untilMs: t + 1500, submitEveryMs: rng.random() < 0.5 ? 97 : null };
}

const PRESET_RUNS = ['chapter', 'fencing', 'clock-drift', 'ghost-lock', 'failover-lease', 'split-vote'];
const RANDOM_SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);

describe('a recorder changes nothing', () => {
  const cases: [string, Run][] = [
    ...PRESET_RUNS.map((name) => [name, preset(name)] as [string, Run]),
    ...RANDOM_SEEDS.map((seed) => [`random run ${seed}`, randomRun(seed, true)] as [string, Run]),
  ];
  for (const [name, run] of cases) {
    it(name, () => {
      const without = play(run, false).sim;
      const withRec = play(run, true).sim;
      expect(JSON.stringify(runReport(withRec.cluster, withRec.lockService))).toBe(
        JSON.stringify(runReport(without.cluster, without.lockService)),
      );
      expect(withRec.cluster.details).toEqual(without.cluster.details);
      // The same state of the random stream: the next draws agree.
      const next = (sim: Simulation) => [sim.cluster.rng.random(), sim.cluster.rng.random(), sim.cluster.rng.random()];
      expect(next(withRec)).toEqual(next(without));
    });
  }
});

/** Every message once, with a fate that matches the cluster's own counts. */
function checkAccounting(sim: Simulation, rec: TraceRecord, duplicates: boolean): void {
  const c = sim.cluster;
  // A network duplicate is marked with the message it copies; the rest are what senders sent, the
  // counts `--json` reports per type (issue 24: it left some types out, and nothing marked copies).
  const originals = rec.messages.filter((m) => m.copyOf === undefined);
  const copies = rec.messages.filter((m) => m.copyOf !== undefined);
  const perType: Record<string, number> = {};
  for (const m of originals) perType[m.type] = (perType[m.type] ?? 0) + 1;
  const reported = sentCounts(c.sent);
  expect(Object.fromEntries(Object.entries(reported).filter(([, n]) => n > 0))).toEqual(perType);
  if (!duplicates) expect(copies).toEqual([]);
  for (const copy of copies) {
    // Queued right after its original, with the same ends, payload and send time (its own latency).
    const original = rec.messages[copy.copyOf as number];
    expect(copy.copyOf).toBe(copy.id - 1);
    expect(original.copyOf).toBeUndefined();
    expect([copy.type, copy.from, copy.to, copy.sentAt, copy.cause]).toEqual([
      original.type,
      original.from,
      original.to,
      original.sentAt,
      original.cause,
    ]);
    expect(copy.fields).toBe(original.fields);
  }
  rec.messages.forEach((m, i) => expect(m.id).toBe(i));
  const delivered = rec.messages.filter((m) => m.deliveredAt !== null);
  const dropped = rec.messages.filter((m) => m.droppedAt !== null);
  const inFlight = rec.messages.filter((m) => m.deliveredAt === null && m.droppedAt === null);
  expect(dropped.length).toBe(c.dropped);
  expect(delivered.length + dropped.length + inFlight.length).toBe(rec.messages.length);
  expect(inFlight.length).toBe(c.inflight.size);
  expect(delivered.every((m) => m.droppedAt === null && m.dropReason === null)).toBe(true);
  // Each drop the detail stream saw is one dropped message with the same reason.
  const key = (t: number, from: string, to: string, type: string, sentAt: number, reason: string) =>
    `${t} ${from} ${to} ${type} ${sentAt} ${reason}`;
  const fromDetails = c.details.flatMap((d) =>
    d.kind === 'dropped' ? [key(d.t, d.values.from, d.values.to, d.values.message, d.values.sentAt, d.values.reason)] : [],
  );
  const fromTrace = dropped.map((m) => key(m.droppedAt as number, m.from, m.to, m.type, m.sentAt, m.dropReason as string));
  expect(fromTrace.sort()).toEqual(fromDetails.sort());
  for (const m of rec.messages) {
    expect(m.dueAt).toBeGreaterThanOrEqual(m.sentAt);
    if (m.deliveredAt !== null) expect(m.deliveredAt).toBe(m.dueAt);
  }
}

describe('every message is recorded once, with its fate', () => {
  for (const name of PRESET_RUNS) {
    it(name, () => {
      const { sim, recorder } = play(preset(name), true);
      checkAccounting(sim, (recorder as TraceRecorder).record(), false);
    });
  }
  for (const seed of RANDOM_SEEDS) {
    it(`random run ${seed}`, () => {
      const run = randomRun(seed, seed % 3 === 0);
      const { sim, recorder } = play(run, true);
      const record = (recorder as TraceRecorder).record();
      checkAccounting(sim, record, seed % 3 === 0);
      expect(record.messages.some((m) => m.dropReason !== null) || sim.cluster.dropped === 0).toBe(true);
    });
  }

  it('a network duplicate is marked as the copy of its original, in the JSON and in the space-time label; other traces have no copyOf', () => {
    const run = { ...preset('chapter'), schedule: parseSchedule('@100 duplicate 30; @700 duplicate 0'), untilMs: 900 };
    const { sim, recorder } = play(run, true);
    const rec = (recorder as TraceRecorder).record();
    checkAccounting(sim, rec, true);
    const copies = rec.messages.filter((m) => m.copyOf !== undefined);
    expect(copies.length).toBeGreaterThan(5);
    expect(copies.every((m) => m.sentAt >= 100 && m.sentAt < 700)).toBe(true);
    const json = traceToJson(buildRunTrace(run.config, run.schedule, run.untilMs));
    const line = json.split('\n').find((l) => l.includes(`"id":${copies[0].id},`)) ?? '';
    expect(line).toMatch(new RegExp(`"heartbeat":(true|false),"copyOf":${copies[0].copyOf}}`));
    const back = traceFromJson(json);
    if (typeof back === 'string') throw new Error(back);
    expect(back.messages.filter((m) => m.copyOf !== undefined).map((m) => m.id)).toEqual(copies.map((m) => m.id));
    const { columns } = (recorder as TraceRecorder).columnsFrom(0);
    expect(columns.label[copies[0].id]).toMatch(new RegExp(` \\(a network copy of #${copies[0].copyOf}\\)$`));
    expect(columns.label[copies[0].copyOf as number]).not.toMatch(/copy/);
    expect(traceToJson(buildRunTrace(run.config, [], run.untilMs))).not.toMatch(/copyOf/);
  });

  it('mid-run, messages still in flight have null fates and columns match the objects', () => {
    const run = { ...preset('fencing'), untilMs: 1070 };
    const { sim, recorder } = play(run, true);
    const rec = recorder as TraceRecorder;
    const record = rec.record();
    expect(record.untilMs).toBe(1070);
    const open = record.messages.filter((m) => m.deliveredAt === null && m.droppedAt === null);
    expect(open.length).toBe(sim.cluster.inflight.size);
    expect(open.length).toBeGreaterThan(0);
    const first = rec.firstOpenRow;
    expect(record.messages.slice(0, first).every((m) => m.deliveredAt !== null || m.droppedAt !== null)).toBe(true);
    expect(record.messages[first].deliveredAt).toBeNull();
    const { from, columns } = rec.columnsFrom(first);
    expect(from).toBe(first);
    expect(columns.count).toBe(record.messages.length - first);
    for (let i = 0; i < columns.count; i++) {
      const m = record.messages[first + i];
      expect(columns.id[i]).toBe(m.id);
      expect(MESSAGE_TYPES[columns.type[i]]).toBe(m.type);
      expect(columns.fate[i]).toBe(fateCode(m));
      expect(columns.sentAt[i]).toBe(m.sentAt);
      if (columns.fate[i] === FATE.inFlight) expect(columns.endAt[i]).toBeNaN();
      else expect(columns.endAt[i]).toBe(m.deliveredAt ?? m.droppedAt);
      expect(columns.cause[i]).toBe(m.cause ?? -1);
      expect(columns.heartbeat[i]).toBe(m.heartbeat ? 1 : 0);
      expect(columns.label[i].startsWith(m.type)).toBe(true);
    }
    const longest = Math.max(...record.messages.map((m) => (m.deliveredAt ?? m.droppedAt ?? 1070) - m.sentAt));
    expect(columns.maxSpanMs).toBe(longest);
    const view = traceView(rec, 7);
    expect(view.traceId).toBe(7);
    expect(view.actorIds).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'A', 'B', 'fenced', 'unfenced']);
    expect(view.messages.count).toBe(record.messages.length);
    expect(view.actorIds[view.messages.from[0]]).toBe(record.messages[0].from);
  });

  it('labels read like the protocol', () => {
    const { recorder } = play(preset('fencing'), true);
    const labels = (recorder as TraceRecorder).columnsFrom(0).columns.label;
    expect(labels).toContain('ClientRequest acquire job:42 (lease 10000 ms) #1');
    expect(labels).toContain('ClientReply granted job:42 token 1');
    expect(labels).toContain('StoreWrite result=A-first token 1');
    expect(labels.some((l) => /^AppendEntries term 1, prev \d+\/\d+, 1 entry, commit \d+$/.test(l))).toBe(true);
    expect(labels).toContain('VoteReply term 1 granted');
  });
});

describe('heartbeats and causes', () => {
  for (const name of ['chapter', 'fencing']) {
    it(`${name}: a reply's cause is the request it answers`, () => {
      const record = (play(preset(name), true).recorder as TraceRecorder).record();
      const byId = new Map(record.messages.map((m) => [m.id, m]));
      let replies = 0;
      for (const m of record.messages) {
        if (m.type === 'AppendEntries') expect(m.heartbeat).toBe(m.fields.type === 'AppendEntries' && m.fields.entries.length === 0);
        if (m.type !== 'AppendReply' && m.type !== 'VoteReply') continue;
        replies++;
        const cause = byId.get(m.cause as number);
        expect(cause?.type).toBe(m.type === 'AppendReply' ? 'AppendEntries' : 'RequestVote');
        expect(cause?.from).toBe(m.to);
        expect(cause?.to).toBe(m.from);
        expect(cause?.deliveredAt).toBe(m.sentAt);
        if (m.type === 'AppendReply') expect(m.heartbeat).toBe(cause?.heartbeat);
        else expect(m.heartbeat).toBe(false);
      }
      expect(replies).toBeGreaterThan(10);
      expect(record.messages.some((m) => m.type === 'AppendReply' && m.heartbeat)).toBe(true);
      expect(record.messages.some((m) => m.type === 'AppendReply' && !m.heartbeat)).toBe(true);
      // Timers and schedule actions cause nothing: the first RequestVotes have no cause.
      expect(record.messages[0].type).toBe('RequestVote');
      expect(record.messages[0].cause).toBeNull();
    });
  }

  it('a client answer to a request it can give at once has the request as its cause', () => {
    const record = (play(preset('fencing'), true).recorder as TraceRecorder).record();
    const redirect = record.messages.find((m) => m.fields.type === 'ClientReply' && m.fields.outcome === 'not-leader');
    expect(redirect).toBeDefined();
    const request = record.messages.find((m) => m.id === redirect?.cause);
    expect(request?.type).toBe('ClientRequest');
  });
});

describe('spans', () => {
  it('chapter: n2 leads term 1 until its crash at 1168, n3 leads term 2 from 1360', () => {
    const record = (play(preset('chapter'), true).recorder as TraceRecorder).record();
    const n2 = record.nodeSpans.filter((s) => s.node === 'n2');
    expect(n2).toContainEqual({ node: 'n2', from: 168, to: 1168, state: 'leader', term: 1 });
    expect(n2).toContainEqual({ node: 'n2', from: 1168, to: 1360, state: 'down', term: 1 });
    expect(record.nodeSpans.find((s) => s.node === 'n3' && s.state === 'leader')).toMatchObject({ from: 1360, term: 2 });
    // One open span per node at the end, and spans of a node tile time with no gap.
    for (const id of DEFAULT_CONFIG.nodeIds) {
      const spans = record.nodeSpans.filter((s) => s.node === id);
      expect(spans[0].from).toBe(0);
      expect(spans.filter((s) => s.to === null).length).toBe(1);
      for (let i = 1; i < spans.length; i++) expect(spans[i].from).toBe(spans[i - 1].to);
    }
    expect(record.partitions).toEqual([
      {
        from: 1560,
        to: 1953,
        groups: [
          ['n2', 'n3'],
          ['n1', 'n4', 'n5'],
        ],
      },
    ]);
    expect(record.clientSpans).toEqual([]);
    expect(record.leases).toEqual([]);
    expect(record.storeMarks).toEqual([]);
  });

  it('fencing: both sides of lease 1, the fenced refusal and A paused', () => {
    const record = (play(preset('fencing'), true).recorder as TraceRecorder).record();
    const clientLease = record.leases.find((l) => l.side === 'client' && l.holder === 'A' && l.token === 1);
    expect(clientLease).toMatchObject({ owner: 'A', key: 'job:42', to: 11000, ended: 'ran-out' });
    const serviceLease = record.leases.find((l) => l.side === 'service' && l.token === 1);
    expect(serviceLease).toMatchObject({ holder: 'n2', owner: 'A', key: 'job:42', to: 11060, ended: 'ran-out' });
    expect(record.leases.find((l) => l.side === 'service' && l.token === 2)).toMatchObject({ owner: 'B', to: null, ended: null });
    const refused = record.storeMarks.filter((m) => !m.accepted);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ store: 'fenced', client: 'A', token: 1, highestBefore: 2, leaseEnded: true });
    expect(refused[0].t).toBeGreaterThanOrEqual(13500);
    expect(refused[0].t).toBeLessThan(13530);
    const carrier = record.messages.find((m) => m.id === refused[0].message);
    expect(carrier).toMatchObject({ type: 'StoreWrite', from: 'A', to: 'fenced', deliveredAt: refused[0].t });
    const staleAccepted = record.storeMarks.find((m) => m.store === 'unfenced' && m.value === 'A-second');
    expect(staleAccepted).toMatchObject({ accepted: true, highestBefore: 2, leaseEnded: true });
    expect(record.clientSpans).toContainEqual({ client: 'A', from: 2500, to: 13500, state: 'paused' });
  });

  it('clock drift: the service lease ends before the client believes its own does', () => {
    const record = (play(preset('clock-drift'), true).recorder as TraceRecorder).record();
    const service = record.leases.find((l) => l.side === 'service' && l.token === 1);
    const client = record.leases.find((l) => l.side === 'client' && l.token === 1);
    expect(service?.ended).toBe('ran-out');
    expect(client?.ended).toBe('ran-out');
    expect(service?.to as number).toBeLessThan(client?.to as number);
  });

  it('failover: the service lease moves to the new leader when the old one crashes', () => {
    const record = (play(preset('failover-lease'), true).recorder as TraceRecorder).record();
    const first = record.leases.find((l) => l.side === 'service' && l.token === 1 && l.holder === 'n2');
    expect(first).toMatchObject({ to: 1500, ended: 'deposed' });
    const next = record.leases.find((l) => l.side === 'service' && l.token === 1 && l.holder !== 'n2');
    expect(next).toBeDefined();
    expect(next?.ended).toBe('ran-out');
  });

  it('ghost lock: a grant the leader frees at once ends released', () => {
    const record = (play(preset('ghost-lock'), true).recorder as TraceRecorder).record();
    const ghost = record.leases.find((l) => l.side === 'service' && l.owner === 'A');
    expect(ghost?.ended).toBe('released');
    expect(record.clientSpans).toContainEqual({ client: 'A', from: 1040, to: null, state: 'crashed' });
  });

  it('a checkpoint is made without the recorder and does not feed it', () => {
    const sim = new Simulation(preset('fencing').config, [], {});
    const rec = TraceRecorder.attach(sim);
    sim.replaceFutureActions(preset('fencing').schedule);
    sim.advanceTo(1500);
    const copy = sim.clone();
    expect(copy.cluster.tracer).toBeNull();
    expect(sim.cluster.tracer).toBe(rec);
    const count = rec.messageCount;
    copy.advanceTo(3000);
    expect(rec.messageCount).toBe(count);
    expect(() => TraceRecorder.attach(sim)).toThrow('This run already has a trace recorder.');
  });
});

describe('trace JSON', () => {
  const fencing = preset('fencing');

  it('is versioned, canonical and survives a round trip', () => {
    const trace = buildRunTrace(fencing.config, fencing.schedule, fencing.untilMs);
    const text = traceToJson(trace);
    expect(text.startsWith('{\n  "format": "lockstep-trace",\n  "version": 1,\n  "run": {\n    "seed": "42",')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(trace.version).toBe(TRACE_VERSION);
    expect(trace.run.schedule).toBe(findPreset('fencing')?.schedule);
    const back = traceFromJson(text);
    if (typeof back === 'string') throw new Error(back);
    expect(back).toEqual(JSON.parse(JSON.stringify(trace)));
    expect(back).toEqual(trace);
    expect(traceToJson(back)).toBe(text);
    expect(runTraceJson(fencing.config, fencing.schedule, fencing.untilMs)).toBe(text);
    expect(trace.events.length).toBeGreaterThan(10);
    expect(trace.details.length).toBeGreaterThan(10);
  });

  it('writes a bigint seed as its digits', () => {
    const chapter = preset('chapter');
    const trace = buildRunTrace({ ...chapter.config, seed: 2n ** 70n }, chapter.schedule, 600, 100);
    const text = traceToJson(trace);
    expect(trace.run.seed).toBe('1180591620717411303424');
    expect(trace.run.submitEveryMs).toBe(100);
    const back = traceFromJson(text);
    expect(typeof back === 'string' ? back : traceToJson(back)).toBe(text);
  });

  it('keeps the order of keys whatever order the objects have', () => {
    const trace = buildRunTrace(fencing.config, fencing.schedule, 3000);
    const shuffled = JSON.parse(traceToJson(trace), function (this: unknown, _key, value: unknown) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      return Object.fromEntries(Object.entries(value).reverse());
    }) as typeof trace;
    expect(traceToJson(shuffled)).toBe(traceToJson(trace));
  });

  const good = JSON.parse(traceToJson(buildRunTrace(DEFAULT_CONFIG, [], 300))) as Record<string, unknown>;
  const bad: [string, string, RegExp][] = [
    ['not JSON', '{"format": ', /^This file is not a Lockstep trace: it is not JSON\.$/],
    ['an array', '[]', /^This file is not a Lockstep trace: it is not a JSON object\.$/],
    [
      'another format',
      JSON.stringify({ ...good, format: 'chrome-trace' }),
      /^This file is not a Lockstep trace: its "format" is not "lockstep-trace"\.$/,
    ],
    [
      'no version',
      JSON.stringify({ ...good, version: undefined }),
      /^This file is not a Lockstep trace: it has no whole-number "version"\.$/,
    ],
    ['a later version', JSON.stringify({ ...good, version: 7 }), /^This trace is version 7; this Lockstep reads version 1\.$/],
    ['no run', JSON.stringify({ ...good, run: 3 }), /^This trace is damaged: in its run, it is not an object\.$/],
    ['no messages', JSON.stringify({ ...good, messages: undefined }), /^This trace is damaged: "messages" is missing or not a list\.$/],
    [
      'a damaged message',
      JSON.stringify({ ...good, messages: [(good.messages as object[])[0], { ...(good.messages as object[])[1], sentAt: 'soon' }] }),
      /^This trace is damaged: in message 2, "sentAt" is missing or not a number\.$/,
    ],
    [
      'a damaged stop',
      JSON.stringify({ ...good, run: { ...(good.run as object), stopped: { atMs: 'early' } } }),
      /^This trace is damaged: in its run's "stopped", "atMs" is missing or not a number\.$/,
    ],
    [
      'a damaged copy mark',
      JSON.stringify({ ...good, messages: [{ ...(good.messages as object[])[0], copyOf: 'the first' }] }),
      /^This trace is damaged: in message 1, "copyOf" is not a number\.$/,
    ],
    [
      'an unknown message type',
      JSON.stringify({ ...good, messages: [{ ...(good.messages as object[])[0], type: 'Gossip' }] }),
      /^This trace is damaged: message 1 has unknown type "Gossip"\.$/,
    ],
  ];
  for (const [name, text, sentence] of bad) {
    it(`refuses ${name} with one sentence`, () => {
      const result = traceFromJson(text);
      expect(typeof result).toBe('string');
      expect(result).toMatch(sentence);
    });
  }
});
