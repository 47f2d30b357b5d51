/**
 * A plain exhaustive linearizability check, the definition written out (Herlihy & Wing 1990):
 * some order of all completed operations and any of the pending ones, respecting real time (an
 * operation that returned before another was called comes first), is legal for the model. No
 * memo, no symmetry, no pruning: the reference the fast search is compared with on small histories.
 */
import type { CheckOp, Model } from '../../src/sim/check/linearizability/search';

export function exhaustivelyLinearizable<S, I>(model: Model<S, I>, ops: readonly CheckOp<I>[]): boolean {
  const done = new Array<boolean>(ops.length).fill(false);
  const go = (state: S, left: number): boolean => {
    if (left === 0) return true;
    for (let i = 0; i < ops.length; i++) {
      if (done[i]) continue;
      // Every completed operation that returned before this one was called must already be placed.
      const blocked = ops.some((a, j) => !done[j] && a.ret !== null && a.ret < ops[i].call);
      if (blocked) continue;
      const next = model.step(state, ops[i].input);
      if (next === null) continue;
      done[i] = true;
      const ok = go(next, left - (ops[i].ret !== null ? 1 : 0));
      done[i] = false;
      if (ok) return true;
    }
    return false;
  };
  return go(model.init(), ops.filter((o) => o.ret !== null).length);
}
