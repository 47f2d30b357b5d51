/**
 * From a history that cannot be linearized to a minimal part of it that still cannot: first
 * what the search never looked at goes (operations invoked after its reach), then one operation
 * at a time, latest first, as long as the rest still fails. Removing an operation removes those
 * that need it too (a write with token t needs the grant of t), so the subset stays readable: a
 * write is never shown without the grant it claims. `fixed` operations (a lease's expiry, a
 * fact of the service rather than a client's claim) are never removed.
 */
import { linearize, type Budget, type CheckOp, type Model } from './search';

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
