/**
 * Porcupine's visualization data (formats.md §3), read and written. Porcupine (Go) writes an
 * HTML page whose data is one JSON value, `{"Partitions": [{"History": [{"ClientId", "Start",
 * "End", "Description"}], "PartialLinearizations": [[{"Index", "StateDescription"}]],
 * "Largest": {...}}], "Annotations": [...]}`. Reading it opens a Porcupine report in Lockstep
 * (its verdict is Porcupine's own: a partition is linearizable iff a partial linearization
 * places every operation); writing it lets a history Lockstep checked open in that viewer.
 */
import { EdnSeq, printEdn, untag } from './edn';
import { HistoryBuilder, ImportError, type ImportedHistory, type ImportedOp } from './history';
import type { ImportVerdict } from './checkImported';

export interface PorcupineOp {
  readonly ClientId: number;
  readonly Start: number;
  readonly End: number;
  readonly Description: string;
}

export interface PorcupineStep {
  readonly Index: number;
  readonly StateDescription: string;
}

export interface PorcupinePartition {
  readonly History: readonly PorcupineOp[];
  readonly PartialLinearizations: readonly (readonly PorcupineStep[])[];
  readonly Largest: Readonly<Record<string, number>>;
}

export interface PorcupineAnnotation {
  readonly ClientId: number;
  readonly Tag: string;
  readonly Start: number;
  readonly End: number;
  readonly Description: string;
  readonly Details: string;
  readonly Annotation: true;
  readonly TextColor: string;
  readonly BackgroundColor: string;
}

export interface PorcupineData {
  readonly Partitions: readonly PorcupinePartition[];
  readonly Annotations: readonly PorcupineAnnotation[];
}

/** A Porcupine report as Lockstep reads it: the history, and the verdict Porcupine recorded. */
export interface PorcupineReport {
  readonly kind: 'porcupine';
  readonly history: ImportedHistory;
  readonly data: PorcupineData;
  /** Per partition: whether a partial linearization places every operation. */
  readonly partitionOk: readonly boolean[];
  /** Per partition: the largest partial linearization's length. */
  readonly placed: readonly number[];
  /** Op ids (in `history.ops`) of each partition's History elements, in order. */
  readonly opIds: readonly (readonly number[])[];
}

/** The JSON value that starts at `start` (an object), by brace matching outside strings. */
function jsonObjectAt(text: string, start: number): string {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return text.slice(start);
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

function field(v: unknown, name: string, where: string, kind: 'number' | 'string' | 'array'): unknown {
  const x = (v as Record<string, unknown> | null)?.[name];
  const ok = kind === 'array' ? Array.isArray(x) : typeof x === kind;
  if (!ok)
    throw new ImportError(
      0,
      `${where}: expected "${name}" to be ${kind === 'array' ? 'a list' : `a ${kind}`}, found ${x === undefined ? 'nothing' : JSON.stringify(x).slice(0, 40)}.`,
    );
  return x;
}

/** Reads Porcupine's data from its HTML page or from the bare JSON. */
export function readPorcupine(text: string): PorcupineReport {
  const m = /\{\s*"Partitions"\s*:/.exec(text);
  if (!m)
    throw new ImportError(
      0,
      'No Porcupine data in the file: expected a JSON object with "Partitions" (the data in the HTML page Porcupine writes).',
    );
  const json = jsonObjectAt(text, m.index);
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    const line = lineAt(text, m.index);
    throw new ImportError(
      line,
      `line ${line}: the Porcupine data does not parse as JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const partitions = field(raw, 'Partitions', 'Porcupine data', 'array') as unknown[];
  const annotationsRaw = ((raw as Record<string, unknown>).Annotations ?? []) as unknown[];
  const parts: PorcupinePartition[] = partitions.map((p, i) => {
    const where = `partition ${i}`;
    const history = (field(p, 'History', where, 'array') as unknown[]).map((o, j) => ({
      ClientId: field(o, 'ClientId', `${where}, operation ${j}`, 'number') as number,
      Start: field(o, 'Start', `${where}, operation ${j}`, 'number') as number,
      End: field(o, 'End', `${where}, operation ${j}`, 'number') as number,
      Description: String((o as Record<string, unknown>).Description ?? ''),
    }));
    const partials = (((p as Record<string, unknown>).PartialLinearizations ?? []) as unknown[]).map((l, j) => {
      if (!Array.isArray(l)) throw new ImportError(0, `${where}: expected partial linearization ${j} to be a list.`);
      return l.map((s, k) => {
        const index = field(s, 'Index', `${where}, partial linearization ${j}, step ${k}`, 'number') as number;
        if (index < 0 || index >= history.length)
          throw new ImportError(
            0,
            `${where}: partial linearization ${j} names operation ${index}, but the partition has ${history.length}.`,
          );
        return { Index: index, StateDescription: String((s as Record<string, unknown>).StateDescription ?? '') };
      });
    });
    return {
      History: history,
      PartialLinearizations: partials,
      Largest: ((p as Record<string, unknown>).Largest ?? {}) as Record<string, number>,
    };
  });
  const annotations = annotationsRaw.map((a) => {
    const r = a as Record<string, unknown>;
    return {
      ClientId: Number(r.ClientId ?? 0),
      Tag: String(r.Tag ?? ''),
      Start: Number(r.Start ?? 0),
      End: Number(r.End ?? r.Start ?? 0),
      Description: String(r.Description ?? ''),
      Details: String(r.Details ?? ''),
      Annotation: true as const,
      TextColor: String(r.TextColor ?? ''),
      BackgroundColor: String(r.BackgroundColor ?? ''),
    };
  });
  const data: PorcupineData = { Partitions: parts, Annotations: annotations };

  // Times are Porcupine's units (often nanoseconds): shown in ms from the first call.
  const all = parts.flatMap((p) => p.History);
  const t0 = all.length === 0 ? 0 : all.reduce((m, o) => Math.min(m, o.Start), Infinity);
  const t1 = all.length === 0 ? 0 : all.reduce((m, o) => Math.max(m, o.End), -Infinity);
  const scale = t1 - t0 > 1e9 ? 1e-6 : 1;
  // Events in time order; at equal times a call comes first (Porcupine counts them concurrent).
  type Ev = { t: number; call: boolean; p: number; j: number };
  const evs: Ev[] = [];
  parts.forEach((p, i) =>
    p.History.forEach((o, j) => {
      evs.push({ t: o.Start, call: true, p: i, j });
      evs.push({ t: o.End, call: false, p: i, j });
    }),
  );
  evs.sort((a, b) => a.t - b.t || (a.call === b.call ? 0 : a.call ? -1 : 1) || a.p - b.p || a.j - b.j);
  const b = new HistoryBuilder('porcupine');
  const ids = parts.map((p) => p.History.map(() => -1));
  let next = 0;
  // Several partitions reuse client ids: one process per (partition, client).
  for (const e of evs) {
    const o = parts[e.p].History[e.j];
    const proc = parts.length === 1 ? String(o.ClientId) : `${o.ClientId}/${e.p}`;
    const f = /^\s*([A-Za-z_][\w-]*)/.exec(o.Description)?.[1] ?? 'op';
    const ms = (e.t - t0) * scale;
    if (e.call) {
      ids[e.p][e.j] = next++;
      b.invoke(proc, f, o.Description, 0, ms);
    } else b.complete(proc, 'ok', f, o.Description, 0, ms, null);
  }
  for (const a of annotations)
    b.annotate({
      line: 0,
      ms: (a.Start - t0) * scale,
      process: a.Tag || `client ${a.ClientId}`,
      type: 'info',
      f: a.Description,
      value: a.Details,
    });
  const history = b.build();
  const placed = parts.map((p) => Math.max(0, ...p.PartialLinearizations.map((l) => l.length)));
  return {
    kind: 'porcupine',
    history,
    data,
    partitionOk: parts.map((p, i) => placed[i] === p.History.length),
    placed,
    opIds: ids,
  };
}

/** Porcupine's wording of an operation (its etcd model's): `read() -> 3`, `write(3)`, `cas(1, 2) -> ok`. */
export function porcupineDescription(o: ImportedOp): string {
  const v = o.value;
  const u = untag(o.invokeValue);
  switch (o.f) {
    case 'read':
      return `read() -> ${o.type === 'ok' ? printEdn(v) : 'unknown'}`;
    case 'write':
      return `write(${printEdn(o.invokeValue)})${o.type === 'ok' ? '' : ' -> unknown'}`;
    case 'cas':
      if (u instanceof EdnSeq && u.length === 2) {
        return `cas(${printEdn(u[0])}, ${printEdn(u[1])}) -> ${o.type === 'ok' ? 'ok' : o.type === 'fail' ? 'fail' : 'unknown'}`;
      }
      return `cas(${printEdn(o.invokeValue)})`;
    default:
      return `${o.f}(${o.invokeValue === null ? '' : printEdn(o.invokeValue)})${o.type === 'ok' ? (o.value === o.invokeValue ? '' : ` -> ${printEdn(v)}`) : ` -> ${o.type === 'fail' ? 'fail' : 'unknown'}`}`;
  }
}

/**
 * The history and its verdict in Porcupine's visualization shape: one partition per object the
 * checker split it into, the linearization found as the partial linearization, nemesis events
 * as annotations. Times in ns (from the file's :time, else one microsecond per event).
 */
export function toPorcupine(h: ImportedHistory, verdict: ImportVerdict): PorcupineData {
  const ns = (ms: number | null, pos: number) => (h.timed && ms !== null ? Math.round(ms * 1e6) : pos * 1000);
  const end = ns(Math.max(0, ...h.ops.map((o) => o.retMs ?? o.callMs ?? 0)), h.events.length) + 1000;
  const keyOf = new Map<number, string>();
  verdict.objectKeys.forEach((k, id) => {
    if (k !== null) keyOf.set(id, k);
  });
  const groups = new Map<string, ImportedOp[]>();
  for (const o of h.ops) {
    const k = keyOf.get(o.id);
    if (k === undefined) continue;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(o);
  }
  const numeric = (p: string, i: number) => (/^\d+$/.test(p) ? Number(p) : 1_000_000 + i);
  const processes = [...new Set(h.ops.map((o) => o.process))];
  const steps = new Map(verdict.linearization.map((s) => [s.op, s]));
  const partitions: PorcupinePartition[] = [...groups.values()].map((ops) => {
    const index = new Map(ops.map((o, i) => [o.id, i]));
    const History = ops.map((o) => ({
      ClientId: numeric(o.process, processes.indexOf(o.process)),
      Start: ns(o.callMs, o.call),
      // An operation that never returned runs to the end, as Porcupine's own parsers give it.
      End: o.type === 'ok' || o.type === 'fail' ? ns(o.retMs, o.ret ?? o.call) : end,
      Description: porcupineDescription(o),
    }));
    const partial = verdict.linearization
      .filter((s) => index.has(s.op))
      .map((s) => ({ Index: index.get(s.op) as number, StateDescription: (steps.get(s.op) as { after: string }).after }));
    const Largest: Record<string, number> = {};
    for (const s of partial) Largest[String(s.Index)] = 0;
    return { History, PartialLinearizations: partial.length > 0 ? [partial] : [], Largest };
  });
  const Annotations: PorcupineAnnotation[] = h.annotations.map((a) => ({
    ClientId: 0,
    Tag: a.process,
    Start: ns(a.ms, a.at),
    End: ns(a.ms, a.at),
    Description: `${a.type} ${a.f}`,
    Details: a.value,
    Annotation: true,
    TextColor: '',
    BackgroundColor: '',
  }));
  return { Partitions: partitions, Annotations };
}
