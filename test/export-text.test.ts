// Text exports: the event log as Markdown and CSV (escaping, quoting, detail rows), and the ShiViz
// log checked for what ShiViz needs: the parser line, host/clock/text entries, each host's own
// clock component counting its events one by one, and every receive after its send.
import { describe, expect, it } from 'vitest';
import { describeDetail } from '../src/sim/model/describe';
import type { DetailEvent } from '../src/sim/model/events';
import { SHIVIZ_NETWORK_HOST, SHIVIZ_REGEX, eventLogCsv, eventLogMarkdown, shivizLog, type EventRow } from '../src/sim/view/exportText';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { buildRunTrace } from '../src/sim/view/traceJson';
import type { RunTrace } from '../src/sim/view/traceTypes';

const EVENTS: EventRow[] = [
  { t: 5, kind: 'election', subjects: ['n1'], text: 'n1 election timeout, candidate in term 1' },
  { t: 9, kind: 'partition', subjects: ['n1', 'n2'], text: 'partition [n1] | [n2, "n3"]' },
];

function presetTrace(name: string): RunTrace {
  const p = findPreset(name);
  if (p === null) throw new Error(name);
  return buildRunTrace(p.config, presetActions(p), p.untilMs);
}

describe('event log as Markdown', () => {
  it('is a table under a title naming the run, with pipes escaped', () => {
    const text = eventLogMarkdown(EVENTS, null, { seed: 42n, untilMs: 2253 });
    expect(text).toBe(
      [
        '# Lockstep event log: seed 42, until 2253 ms',
        '',
        '| t (ms) | kind | subjects | event |',
        '| ---: | --- | --- | --- |',
        '| 5 | election | n1 | n1 election timeout, candidate in term 1 |',
        '| 9 | partition | n1 n2 | partition [n1] \\| [n2, "n3"] |',
        '',
      ].join('\n'),
    );
  });

  it('interleaves detail events where they happened, marked ·', () => {
    const sim = new Simulation(findPreset('chapter')!.config, parseSchedule('@200 submit x=1; @300 crash n2'), { recordDetails: true });
    sim.advanceTo(400);
    const { events, details } = sim.cluster;
    const text = eventLogMarkdown(events, details, { seed: 42, untilMs: 400 });
    const rows = text.split('\n').slice(4, -1);
    expect(details.length).toBeGreaterThan(3);
    expect(rows).toHaveLength(events.length + details.length);
    const firstDetail = details[0];
    const at = rows.findIndex((r) => r.includes(`· ${describeDetail(firstDetail)}`.replace(/\|/g, '\\|')));
    expect(at).toBe(firstDetail.afterEvent);
  });
});

describe('event log as CSV', () => {
  it('quotes fields with commas and quotes and ends lines with CRLF', () => {
    expect(eventLogCsv(EVENTS)).toBe(
      't_ms,kind,subjects,text\r\n' +
        '5,election,n1,"n1 election timeout, candidate in term 1"\r\n' +
        '9,partition,n1 n2,"partition [n1] | [n2, ""n3""]"\r\n',
    );
  });

  it('has a stream column when details are given', () => {
    const detail = {
      kind: 'dropped',
      t: 7,
      afterEvent: 1,
      subjects: ['n1', 'n2'],
      values: { from: 'n1', to: 'n2', message: 'RequestVote', reason: 'loss', sentAt: 5 },
      lines: ['net.drop.loss'],
    } as DetailEvent;
    const lines = eventLogCsv(EVENTS, [detail]).split('\r\n');
    expect(lines[0]).toBe('t_ms,stream,kind,subjects,text');
    expect(lines[1]).toBe('5,event,election,n1,"n1 election timeout, candidate in term 1"');
    expect(lines[2]).toBe(`7,detail,dropped,n1 n2,${describeDetail(detail)}`);
    expect(lines[3].startsWith('9,event,partition,')).toBe(true);
    expect(lines).toHaveLength(5);
  });
});

interface Entry {
  readonly host: string;
  readonly clock: Record<string, number>;
  readonly text: string;
}

/** Reads the log the way ShiViz does: its own first line is the parser. */
function parseShiviz(log: string): Entry[] {
  const lines = log.split('\n');
  expect(lines[0]).toBe(SHIVIZ_REGEX);
  expect(lines[1]).toBe('');
  expect(lines[lines.length - 1]).toBe('');
  const body = lines.slice(2, -1).join('\n');
  const parser = new RegExp(lines[0], 'g');
  const entries: Entry[] = [];
  let consumed = 0;
  for (const m of body.matchAll(parser)) {
    const g = m.groups as { host: string; clock: string; event: string };
    entries.push({ host: g.host, clock: JSON.parse(g.clock) as Record<string, number>, text: g.event });
    consumed += 2;
  }
  expect(consumed).toBe(lines.length - 3);
  return entries;
}

describe('ShiViz log', () => {
  for (const name of ['fencing', 'chapter', 'ghost-lock']) {
    it(`${name}: vector clocks ShiViz accepts`, () => {
      const trace = presetTrace(name);
      const entries = parseShiviz(shivizLog(trace));
      const delivered = trace.messages.filter((m) => m.deliveredAt !== null).length;
      expect(entries).toHaveLength(trace.messages.length + delivered + trace.events.length);
      const hosts = new Set([...trace.actors.nodes, ...trace.actors.clients, ...trace.actors.stores, SHIVIZ_NETWORK_HOST]);
      const last = new Map<string, Record<string, number>>();
      const sends = new Map<number, Record<string, number>>();
      let lastTime = 0;
      for (const e of entries) {
        expect(hosts.has(e.host)).toBe(true);
        const before = last.get(e.host) ?? {};
        // Own component: exactly one more per event on the host; the others never go back.
        expect(e.clock[e.host]).toBe((before[e.host] ?? 0) + 1);
        for (const [h, v] of Object.entries(before)) if (h !== e.host) expect(e.clock[h] ?? 0).toBeGreaterThanOrEqual(v);
        last.set(e.host, e.clock);
        const t = Number(/^t=(\d+) ms/.exec(e.text)?.[1]);
        expect(t).toBeGreaterThanOrEqual(lastTime);
        lastTime = t;
        const send = /^t=\d+ ms send #(\d+) /.exec(e.text);
        if (send) sends.set(Number(send[1]), e.clock);
        const receive = /^t=\d+ ms receive #(\d+) /.exec(e.text);
        if (receive) {
          const sent = sends.get(Number(receive[1]));
          expect(sent).toBeDefined();
          for (const [h, v] of Object.entries(sent ?? {})) expect(e.clock[h] ?? 0).toBeGreaterThanOrEqual(v);
          expect(e.clock[e.host]).toBeGreaterThan(0);
        }
      }
      expect(sends.size).toBe(trace.messages.length);
    });
  }

  it('notes a drop on the send, and a dropped message has no receive', () => {
    const trace = presetTrace('chapter');
    const dropped = trace.messages.find((m) => m.dropReason === 'down');
    expect(dropped).toBeDefined();
    const log = shivizLog(trace);
    expect(log).toContain(`send #${dropped?.id} `);
    expect(log).toMatch(new RegExp(`send #${dropped?.id} .*; dropped at t=${dropped?.droppedAt} ms \\(${dropped?.to} is down\\)`));
    expect(log).not.toContain(`receive #${dropped?.id} `);
  });

  it('orders a reply sent during a delivery after that delivery, within the same ms', () => {
    // Zero latency: a reply can arrive in the millisecond its request did.
    const base = findPreset('chapter')!.config;
    const trace = buildRunTrace({ ...base, latencyMs: [0, 2] }, [], 600);
    const entries = parseShiviz(shivizLog(trace));
    expect(trace.messages.some((m) => m.deliveredAt === m.sentAt)).toBe(true);
    const seen = new Set<number>();
    for (const e of entries) {
      const receive = /receive #(\d+) /.exec(e.text);
      if (receive) expect(seen.has(Number(receive[1]))).toBe(true);
      const send = /send #(\d+) /.exec(e.text);
      if (send) seen.add(Number(send[1]));
    }
  });
});
