/**
 * Deep copy of a simulation's object graph, keeping prototypes (so a cloned Cluster is still a
 * Cluster), cycles (node.host → cluster) and typed arrays (the PRNG state). Frozen objects and
 * functions are shared: log entries and events are frozen when made, since they never change.
 * Time travel keeps such copies as checkpoints and replays from the nearest one.
 */
export function deepClone<T>(root: T): T {
  const memo = new Map<object, unknown>();
  const visit = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Object.isFrozen(value)) return value;
    const seen = memo.get(value);
    if (seen !== undefined) return seen;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      memo.set(value, out);
      for (let i = 0; i < value.length; i++) out[i] = visit(value[i]);
      return out;
    }
    if (value instanceof Map) {
      const out = new Map();
      memo.set(value, out);
      for (const [k, v] of value) out.set(visit(k), visit(v));
      return out;
    }
    if (value instanceof Set) {
      const out = new Set();
      memo.set(value, out);
      for (const v of value) out.add(visit(v));
      return out;
    }
    if (ArrayBuffer.isView(value)) {
      const out = (value as unknown as { slice(): unknown }).slice();
      memo.set(value, out);
      return out;
    }
    const out = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
    memo.set(value, out);
    const source = value as Record<string, unknown>;
    for (const key of Object.keys(source)) out[key] = visit(source[key]);
    return out;
  };
  return visit(root) as T;
}
