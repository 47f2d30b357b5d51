/**
 * The versioned JSON trace (`RunTrace`): built by running a fresh simulation with a recorder,
 * written canonically (keys in one fixed order, two-space indent, a final newline) so the CLI's
 * `--trace FILE` and the page's Export give the same bytes for the same run, and read back with
 * one sentence for anything that is not a trace this version reads.
 */
import { featuresOf, type SimConfig } from '../model/config';
import { invariant as say } from '../model/describe';
import { detailJson } from './report';
import { formatSchedule, type Action } from '../model/schedule';
import { newRun } from '../run/run';
import { MESSAGE_TYPES } from './traceColumns';
import { TraceRecorder } from './traceRecorder';
import { TRACE_VERSION, type RunStop, type RunTrace } from './traceTypes';

export const TRACE_FORMAT = 'lockstep-trace';

/**
 * Runs (config, schedule) to `untilMs` exactly as the sim CLI does, with a recorder and detail
 * events on, and returns the run as a trace. A run that throws ends there, and the trace says so
 * (`run.stopped`); `stop` is where the caller's own run of it stopped (its checker may have thrown,
 * which this run, checking nothing, would not), so the trace ends where that run ended.
 */
export function buildRunTrace(
  config: SimConfig,
  schedule: readonly Action[],
  untilMs: number,
  submitEveryMs: number | null = null,
  stop: RunStop | null = null,
): RunTrace {
  const sim = newRun(config, [], { submitEveryMs, recordDetails: true });
  const recorder = TraceRecorder.attach(sim);
  let stopped = stop !== null && stop.atMs < untilMs ? stop : null;
  try {
    sim.replaceFutureActions(schedule);
    sim.applyDue();
    sim.advanceTo(stopped?.atMs ?? untilMs);
  } catch (error) {
    stopped = { atMs: sim.nowMs, reason: say.engineThrew(say.thrown(error)) };
  }
  recorder.detach();
  const { untilMs: _until, ...record } = recorder.record();
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    run: {
      seed: String(config.seed),
      config: {
        nodeIds: [...config.nodeIds],
        electionTimeoutMs: [config.electionTimeoutMs[0], config.electionTimeoutMs[1]],
        heartbeatMs: config.heartbeatMs,
        latencyMs: [config.latencyMs[0], config.latencyMs[1]],
        clientIds: [...config.clientIds],
        bugs: [...config.bugs],
        // Only when some are on, so a trace of the chapter's Raft is the bytes it always was.
        ...(featuresOf(config).length > 0 ? { features: [...featuresOf(config)] } : {}),
        ...(config.snapshotEvery !== undefined ? { snapshotEvery: config.snapshotEvery } : {}),
        // Paxos runs only (a Raft trace keeps its bytes).
        ...(config.protocol !== undefined ? { protocol: config.protocol } : {}),
        ...(config.backoffMs !== undefined ? { backoffMs: [config.backoffMs[0], config.backoffMs[1]] as const } : {}),
        // Issue 28, only when set: the network's model and the failure detector.
        ...(config.latencyLognormal !== undefined ? { latencyLognormal: config.latencyLognormal } : {}),
        ...(config.regions !== undefined ? { regions: config.regions } : {}),
        ...(config.detector !== undefined ? { detector: config.detector } : {}),
        ...(config.persistMs !== undefined ? { persistMs: config.persistMs } : {}),
      },
      schedule: formatSchedule(schedule),
      untilMs,
      submitEveryMs,
      // Only when it stopped early, so the trace of every run that did not is the bytes it was.
      ...(stopped !== null ? { stopped: { atMs: stopped.atMs, reason: stopped.reason } } : {}),
    },
    events: sim.cluster.events.map(({ t, kind, subjects, text, line }) => ({ t, kind, subjects: [...subjects], text, line })),
    details: sim.cluster.details.map(detailJson),
    ...record,
  };
}

/** The one function the CLI and the page call, so both write the same bytes for the same run. */
export function runTraceJson(
  config: SimConfig,
  schedule: readonly Action[],
  untilMs: number,
  submitEveryMs: number | null = null,
  stop: RunStop | null = null,
): string {
  return traceToJson(buildRunTrace(config, schedule, untilMs, submitEveryMs, stop));
}

/** The trace as canonical JSON: keys in a fixed order, one record per line in the lists, a final newline. */
export function traceToJson(trace: RunTrace): string {
  const r = trace.run;
  const c = r.config;
  const canonical = {
    format: trace.format,
    version: trace.version,
    run: {
      seed: String(r.seed),
      config: {
        nodeIds: c.nodeIds,
        electionTimeoutMs: c.electionTimeoutMs,
        heartbeatMs: c.heartbeatMs,
        latencyMs: c.latencyMs,
        clientIds: c.clientIds,
        bugs: c.bugs,
        ...(c.features !== undefined && c.features.length > 0 ? { features: c.features } : {}),
        ...(c.snapshotEvery !== undefined ? { snapshotEvery: c.snapshotEvery } : {}),
        ...(c.protocol !== undefined ? { protocol: c.protocol } : {}),
        ...(c.backoffMs !== undefined ? { backoffMs: c.backoffMs } : {}),
        ...(c.latencyLognormal !== undefined ? { latencyLognormal: c.latencyLognormal } : {}),
        ...(c.regions !== undefined ? { regions: c.regions } : {}),
        ...(c.detector !== undefined ? { detector: c.detector } : {}),
        ...(c.persistMs !== undefined ? { persistMs: c.persistMs } : {}),
      },
      schedule: r.schedule,
      untilMs: r.untilMs,
      submitEveryMs: r.submitEveryMs,
      ...(r.stopped !== undefined ? { stopped: { atMs: r.stopped.atMs, reason: r.stopped.reason } } : {}),
    },
    actors: { nodes: trace.actors.nodes, clients: trace.actors.clients, stores: trace.actors.stores },
    events: trace.events.map((e) => ({ t: e.t, kind: e.kind, subjects: e.subjects, text: e.text, line: e.line })),
    details: trace.details.map((d) => ({
      t: d.t,
      kind: d.kind,
      subjects: d.subjects,
      values: sortedKeys(d.values),
      lines: d.lines,
      text: d.text,
    })),
    messages: trace.messages.map((m) => ({
      id: m.id,
      type: m.type,
      from: m.from,
      to: m.to,
      fields: sortedKeys(m.fields),
      sentAt: m.sentAt,
      dueAt: m.dueAt,
      deliveredAt: m.deliveredAt,
      droppedAt: m.droppedAt,
      dropReason: m.dropReason,
      cause: m.cause,
      heartbeat: m.heartbeat,
      ...(m.copyOf !== undefined ? { copyOf: m.copyOf } : {}),
    })),
    nodeSpans: trace.nodeSpans.map((s) => ({ node: s.node, from: s.from, to: s.to, state: s.state, term: s.term })),
    clientSpans: trace.clientSpans.map((s) => ({ client: s.client, from: s.from, to: s.to, state: s.state })),
    partitions: trace.partitions.map((s) => ({ from: s.from, to: s.to, groups: s.groups })),
    leases: trace.leases.map((s) => ({
      side: s.side,
      holder: s.holder,
      owner: s.owner,
      key: s.key,
      token: s.token,
      from: s.from,
      to: s.to,
      ended: s.ended,
    })),
    storeMarks: trace.storeMarks.map((s) => ({
      store: s.store,
      t: s.t,
      message: s.message,
      client: s.client,
      key: s.key,
      value: s.value,
      token: s.token,
      accepted: s.accepted,
      highestBefore: s.highestBefore,
      leaseEnded: s.leaseEnded,
      reason: s.reason,
    })),
  };
  return layout(canonical);
}

const noBigint = (_key: string, value: unknown) => (typeof value === 'bigint' ? String(value) : value);

/**
 * Two-space indented JSON, except that every record of a top-level list sits on one line: a
 * 10-minute run has over a hundred thousand messages, and one per line keeps the file a third the
 * size of fully indented JSON while staying readable and line-diffable.
 */
function layout(canonical: Record<string, unknown>): string {
  const fields = Object.entries(canonical).map(([key, value]) => {
    const name = JSON.stringify(key);
    if (!Array.isArray(value)) return `  ${name}: ${JSON.stringify(value, noBigint, 2).replace(/\n/g, '\n  ')}`;
    if (value.length === 0) return `  ${name}: []`;
    return `  ${name}: [\n${value.map((v) => `    ${JSON.stringify(v, noBigint)}`).join(',\n')}\n  ]`;
  });
  return `{\n${fields.join(',\n')}\n}\n`;
}

/** Payloads and detail values with `type` first, then the other keys in code-point order, all the way down. */
function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source).sort((a, b) => (a === 'type' ? -1 : b === 'type' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = sortedKeys(source[key]);
  return out as T;
}

type Shape = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'number?' | 'string?';

const RUN_SHAPE: Record<string, Shape> = {
  seed: 'string',
  config: 'object',
  schedule: 'string',
  untilMs: 'number',
  submitEveryMs: 'number?',
};
const CONFIG_SHAPE: Record<string, Shape> = {
  nodeIds: 'array',
  electionTimeoutMs: 'array',
  heartbeatMs: 'number',
  latencyMs: 'array',
  clientIds: 'array',
  bugs: 'array',
};
const LISTS: Record<string, Record<string, Shape>> = {
  events: { t: 'number', kind: 'string', subjects: 'array', text: 'string', line: 'string' },
  details: { t: 'number', kind: 'string', subjects: 'array', values: 'object', lines: 'array', text: 'string' },
  messages: {
    id: 'number',
    type: 'string',
    from: 'string',
    to: 'string',
    fields: 'object',
    sentAt: 'number',
    dueAt: 'number',
    deliveredAt: 'number?',
    droppedAt: 'number?',
    dropReason: 'string?',
    cause: 'number?',
    heartbeat: 'boolean',
  },
  nodeSpans: { node: 'string', from: 'number', to: 'number?', state: 'string', term: 'number' },
  clientSpans: { client: 'string', from: 'number', to: 'number?', state: 'string' },
  partitions: { from: 'number', to: 'number?', groups: 'array' },
  leases: {
    side: 'string',
    holder: 'string',
    owner: 'string',
    key: 'string',
    token: 'number',
    from: 'number',
    to: 'number?',
    ended: 'string?',
  },
  storeMarks: {
    store: 'string',
    t: 'number',
    message: 'number?',
    client: 'string',
    key: 'string',
    value: 'string',
    token: 'number?',
    accepted: 'boolean',
    highestBefore: 'number?',
    leaseEnded: 'boolean',
    reason: 'string?',
  },
};
const SINGULAR: Record<string, string> = {
  events: 'event',
  details: 'detail',
  messages: 'message',
  nodeSpans: 'node span',
  clientSpans: 'client span',
  partitions: 'partition',
  leases: 'lease',
  storeMarks: 'store mark',
};

function fits(value: unknown, shape: Shape): boolean {
  switch (shape) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'number?':
      return value === null || fits(value, 'number');
    case 'string?':
      return value === null || typeof value === 'string';
  }
}

/** The first field of `record` that does not have its shape, or null. */
function misfit(record: unknown, shape: Record<string, Shape>): string | null {
  if (!fits(record, 'object')) return 'it is not an object';
  const r = record as Record<string, unknown>;
  for (const [key, kind] of Object.entries(shape)) if (!fits(r[key], kind)) return `"${key}" is missing or not ${describeShape(kind)}`;
  return null;
}

function describeShape(shape: Shape): string {
  switch (shape) {
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    case 'number?':
      return 'a number or null';
    case 'string?':
      return 'a string or null';
    default:
      return `a ${shape}`;
  }
}

/** Reads a trace written by `traceToJson`: the trace, or one sentence saying what is wrong. */
export function traceFromJson(text: string): RunTrace | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return 'This file is not a Lockstep trace: it is not JSON.';
  }
  if (!fits(data, 'object')) return 'This file is not a Lockstep trace: it is not a JSON object.';
  const d = data as Record<string, unknown>;
  if (d.format !== TRACE_FORMAT) return `This file is not a Lockstep trace: its "format" is not "${TRACE_FORMAT}".`;
  if (typeof d.version !== 'number' || !Number.isInteger(d.version))
    return 'This file is not a Lockstep trace: it has no whole-number "version".';
  if (d.version !== TRACE_VERSION) return `This trace is version ${d.version}; this Lockstep reads version ${TRACE_VERSION}.`;
  const run = misfit(d.run, RUN_SHAPE) ?? misfit((d.run as Record<string, unknown>).config, CONFIG_SHAPE);
  if (run !== null) return `This trace is damaged: in its run, ${run}.`;
  const stopped = (d.run as Record<string, unknown>).stopped;
  if (stopped !== undefined) {
    const problem = misfit(stopped, { atMs: 'number', reason: 'string' });
    if (problem !== null) return `This trace is damaged: in its run's "stopped", ${problem}.`;
  }
  const actors = misfit(d.actors, { nodes: 'array', clients: 'array', stores: 'array' });
  if (actors !== null) return `This trace is damaged: in its actors, ${actors}.`;
  for (const [list, shape] of Object.entries(LISTS)) {
    const items = d[list];
    if (!Array.isArray(items)) return `This trace is damaged: "${list}" is missing or not a list.`;
    for (let i = 0; i < items.length; i++) {
      const problem = misfit(items[i], shape);
      if (problem !== null) return `This trace is damaged: in ${SINGULAR[list]} ${i + 1}, ${problem}.`;
    }
  }
  const types = new Set<string>(MESSAGE_TYPES);
  const messages = d.messages as { type: string; copyOf?: unknown }[];
  const badCopy = messages.findIndex((m) => m.copyOf !== undefined && !fits(m.copyOf, 'number'));
  if (badCopy !== -1) return `This trace is damaged: in message ${badCopy + 1}, "copyOf" is not a number.`;
  const odd = messages.findIndex((m) => !types.has(m.type));
  if (odd !== -1) return `This trace is damaged: message ${odd + 1} has unknown type "${messages[odd].type}".`;
  return data as RunTrace;
}
