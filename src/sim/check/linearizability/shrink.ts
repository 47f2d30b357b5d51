/**
 * From a history that cannot be linearized to a minimal part of it that still cannot: first
 * what the search never looked at goes (operations invoked after its reach), then one operation
 * at a time, latest first, as long as the rest still fails. Removing an operation removes those
 * that need it too (a write with token t needs the grant of t), so the subset stays readable: a
 * write is never shown without the grant it claims. `fixed` operations (a lease's expiry, a
 * fact of the service rather than a client's claim) are never removed.
 */
import { linearize, type Budget, type CheckOp, type Model, type SearchOptions } from './search';

export interface Shrunk {
  readonly ids: readonly number[];
  /** False when the budget ran out first: the subset fails, but might lose more. */
  readonly minimal: boolean;
}

export function shrinkFailing<S, I>(
  model: Model<S, I>,
  ops: readonly CheckOp<I>[],
  reach: number,
  needs: ReadonlyMap<number, readonly number[]>,
  fixed: ReadonlySet<number>,
  budget: Budget,
): Shrunk {
  let current = ops.filter((o) => o.call <= reach);
  const dependents = new Map<number, number[]>();
  for (const [id, list] of needs) {
    for (const need of list) {
      let d = dependents.get(need);
      if (!d) dependents.set(need, (d = []));
      d.push(id);
    }
  }
  const closure = (id: number): Set<number> => {
    const out = new Set<number>([id]);
    const todo = [id];
    while (todo.length > 0) {
      for (const d of dependents.get(todo.pop() as number) ?? []) {
        if (!out.has(d)) {
          out.add(d);
          todo.push(d);
        }
      }
    }
    return out;
  };
  const candidates = current.filter((o) => !fixed.has(o.id)).sort((a, b) => b.call - a.call);
  for (const c of candidates) {
    if (!current.some((o) => o.id === c.id)) continue;
    const gone = closure(c.id);
    const trial = current.filter((o) => !gone.has(o.id));
    const r = linearize(model, trial, budget);
    if (r.result === 'unknown') return { ids: current.map((o) => o.id), minimal: false };
    if (r.result === 'fail') current = trial.filter((o) => o.call <= r.reach);
  }
  return { ids: current.map((o) => o.id), minimal: true };
}

/**
 * The same goal for a history with no dependencies between operations (other tools' histories),
 * by removing chunks before single operations (Zeller's delta debugging): halves, quarters, …,
 * then one at a time, keeping every removal after which the rest still fails (and dropping what
 * the failing search never reached). It ends 1-minimal, as `shrinkFailing` does, after far fewer
 * searches when most of the history is irrelevant to the failure, as it usually is.
 */
export function shrinkByChunks<S, I>(
  model: Model<S, I>,
  ops: readonly CheckOp<I>[],
  budget: Budget,
  options: SearchOptions<I> = {},
  /** Whether a subset still reads (a read keeps a write of its value when the history had one); default any. */
  readable: (ops: readonly CheckOp<I>[]) => boolean = () => true,
): Shrunk {
  let current = [...ops];
  let chunk = Math.max(1, Math.ceil(current.length / 2));
  for (;;) {
    let removed = false;
    // Latest first: what happened after the failure is the likeliest to be irrelevant.
    let end = current.length;
    while (end > 0) {
      const start = Math.max(0, end - chunk);
      const trial = [...current.slice(0, start), ...current.slice(end)];
      if (trial.length === 0 || !readable(trial)) {
        end = start;
        continue;
      }
      const r = linearize(model, trial, budget, options);
      if (r.result === 'unknown') return { ids: current.map((o) => o.id), minimal: false };
      if (r.result === 'fail') {
        // Operations are in call order: what the search never reached is a suffix (dropped
        // unless that would leave a subset the caller cannot read, say one without its culprit).
        const reached = trial.filter((o) => o.call <= r.reach);
        current = reached.length < trial.length && readable(reached) ? reached : trial;
        removed = true;
        end = Math.min(start, current.length);
      } else end = start;
    }
    if (!removed) {
      if (chunk === 1) return { ids: current.map((o) => o.id), minimal: true };
      chunk = Math.max(1, Math.floor(chunk / 2));
    }
  }
}
