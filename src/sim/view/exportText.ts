/**
 * Text exports of a run: the event log as a Markdown table or as RFC 4180 CSV (chapter lines,
 * optionally with the detail stream interleaved), and the trace as a ShiViz log
 * (https://bestchai.bitbucket.io/shiviz/) with a vector clock on every line, so the run can be
 * read in a space-time diagram outside Lockstep. Pure functions of their input.
 */
import { describeDetail } from '../model/describe';
import type { DetailEvent } from '../model/events';
import { messageLabel } from './traceRecorder';
import type { RunTrace, TraceMessage } from './traceTypes';

/** A chapter event as the exports need it (a SimEvent, or an event of a RunTrace). */
export interface EventRow {
  readonly t: number;
  readonly kind: string;
  readonly subjects: readonly string[];
  readonly text: string;
}

export interface EventLogOptions {
  readonly seed: string | number | bigint;
  readonly untilMs: number;
}

interface Row {
  readonly t: number;
  readonly stream: 'event' | 'detail';
  readonly kind: string;
  readonly subjects: string;
  readonly text: string;
}

/** Chapter events with detail events merged in where they happened (as `--verbose` merges them). */
function rows(events: readonly EventRow[], details: readonly DetailEvent[]): Row[] {
  const out: Row[] = [];
  const detailRow = (d: DetailEvent): Row => ({
    t: d.t,
    stream: 'detail',
    kind: d.kind,
    subjects: d.subjects.join(' '),
    text: describeDetail(d),
  });
  let d = 0;
  for (let i = 0; i < events.length; i++) {
    while (d < details.length && details[d].afterEvent <= i) out.push(detailRow(details[d++]));
    const e = events[i];
    out.push({ t: e.t, stream: 'event', kind: e.kind, subjects: e.subjects.join(' '), text: e.text });
  }
  while (d < details.length) out.push(detailRow(details[d++]));
  return out;
}

/** A Markdown cell: pipes escaped, line breaks and backslashes made harmless. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, ' ');
}

/**
 * The event log as a Markdown table (`| t (ms) | kind | subjects | event |`) under a title
 * naming the run; detail events, when given, are rows marked `·`.
 */
export function eventLogMarkdown(
  events: readonly EventRow[],
  details: readonly DetailEvent[] | null | undefined,
  options: EventLogOptions,
): string {
  const lines = [
    `# Lockstep event log: seed ${cell(String(options.seed))}, until ${options.untilMs} ms`,
    '',
    '| t (ms) | kind | subjects | event |',
    '| ---: | --- | --- | --- |',
  ];
  for (const row of rows(events, details ?? [])) {
    const text = row.stream === 'detail' ? `· ${row.text}` : row.text;
    lines.push(`| ${row.t} | ${cell(row.kind)} | ${cell(row.subjects)} | ${cell(text)} |`);
  }
  return lines.join('\n') + '\n';
}

/** An RFC 4180 field: quoted when it holds a comma, a quote or a line break. */
function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The event log as RFC 4180 CSV (CRLF line ends, header first): `t_ms,kind,subjects,text`, or
 * with details given `t_ms,stream,kind,subjects,text` where stream is `event` or `detail`.
 * Subjects are separated by spaces.
 */
export function eventLogCsv(events: readonly EventRow[], details?: readonly DetailEvent[] | null): string {
  const withDetails = details !== undefined && details !== null;
  const lines = [withDetails ? 't_ms,stream,kind,subjects,text' : 't_ms,kind,subjects,text'];
  for (const row of rows(events, details ?? [])) {
    const cells = withDetails
      ? [String(row.t), row.stream, row.kind, row.subjects, row.text]
      : [String(row.t), row.kind, row.subjects, row.text];
    lines.push(cells.map(field).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** The regular expression ShiViz parses each entry with: a host, its vector clock, then a line of text. */
export const SHIVIZ_REGEX = '(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)';

/** Where an event with no subject (heal, loss, calm, …) goes in the ShiViz log. */
export const SHIVIZ_NETWORK_HOST = 'network';

type Clock = Record<string, number>;

/**
 * The trace as a ShiViz log: the parser's regular expression, an empty line, then two lines per
 * event (`host {vector clock}` and what happened). Every send is an event on its sender, every
 * delivery one on its receiver (merging the sender's clock at send), every chapter event one on
 * its first subject's host. A dropped message has no receive: its send line says so. Entries
 * are in an order that happened-before respects, ms by ms: deliveries (each followed by what it
 * made its receiver send), then the chapter's events, then the other sends.
 */
export function shivizLog(trace: RunTrace): string {
  const deliveriesAt = new Map<number, TraceMessage[]>();
  const plainSendsAt = new Map<number, TraceMessage[]>();
  const causedBy = new Map<number, TraceMessage[]>();
  const eventsAt = new Map<number, RunTrace['events'][number][]>();
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  const deliveredAt = new Map<number, number>();
  for (const m of trace.messages) {
    if (m.deliveredAt !== null) {
      push(deliveriesAt, m.deliveredAt, m);
      deliveredAt.set(m.id, m.deliveredAt);
    }
  }
  for (const m of trace.messages) {
    if (m.cause !== null && deliveredAt.get(m.cause) === m.sentAt) push(causedBy, m.cause, m);
    else push(plainSendsAt, m.sentAt, m);
  }
  for (const e of trace.events) push(eventsAt, e.t, e);
  const times = [...new Set([...deliveriesAt.keys(), ...plainSendsAt.keys(), ...eventsAt.keys()])].sort((a, b) => a - b);

  const clocks = new Map<string, Clock>();
  const clockOf = (host: string): Clock => {
    let clock = clocks.get(host);
    if (clock === undefined) clocks.set(host, (clock = {}));
    return clock;
  };
  const atSend = new Map<number, Clock>();
  const out: string[] = [SHIVIZ_REGEX, ''];
  const entry = (host: string, clock: Clock, text: string) => {
    out.push(`${host} ${JSON.stringify(clock)}`, text.replace(/\r?\n|\r/g, ' '));
  };
  const tick = (host: string): Clock => {
    const clock = clockOf(host);
    clock[host] = (clock[host] ?? 0) + 1;
    return clock;
  };
  const send = (m: TraceMessage) => {
    const clock = tick(m.from);
    atSend.set(m.id, { ...clock });
    const fate =
      m.droppedAt !== null
        ? `; dropped at t=${m.droppedAt} ms (${dropText(m)})`
        : m.deliveredAt === null
          ? '; still in flight at the end'
          : '';
    entry(m.from, clock, `t=${m.sentAt} ms send #${m.id} ${messageLabel(m.fields)} to ${m.to}${fate}`);
  };
  const receive = (m: TraceMessage) => {
    const clock = clockOf(m.to);
    const sent = atSend.get(m.id);
    if (sent !== undefined) for (const host in sent) if ((clock[host] ?? 0) < sent[host]) clock[host] = sent[host];
    tick(m.to);
    entry(m.to, clock, `t=${m.deliveredAt} ms receive #${m.id} ${messageLabel(m.fields)} from ${m.from}`);
  };
  const byDelivery = (a: TraceMessage, b: TraceMessage) => a.dueAt - b.dueAt || a.id - b.id;
  for (const t of times) {
    for (const m of (deliveriesAt.get(t) ?? []).sort(byDelivery)) {
      receive(m);
      for (const s of causedBy.get(m.id) ?? []) send(s);
    }
    for (const e of eventsAt.get(t) ?? []) {
      const host = e.subjects.length > 0 ? e.subjects[0] : SHIVIZ_NETWORK_HOST;
      entry(host, tick(host), `t=${e.t} ms ${e.text}`);
    }
    for (const m of plainSendsAt.get(t) ?? []) send(m);
  }
  return out.join('\n') + '\n';
}

function dropText(m: TraceMessage): string {
  return m.dropReason === 'down' ? `${m.to} is down` : m.dropReason === 'partition' ? 'partitioned' : 'lost in flight';
}
