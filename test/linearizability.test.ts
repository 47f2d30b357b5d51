/**
 * The linearizability checker (issue 15): the models as sequential specifications, the
 * Wing–Gong–Lowe search on hand-written histories, the shrinker's minimal subsets, property
 * tests, and the verdicts on the lock-service presets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHistory, type CheckedOp } from '../src/sim/check/linearizability/check';
import {
  exclusiveModel,
  lockModel,
  orderModel,
  registerModel,
  UNKNOWN_TOKEN,
  type LockInput,
  type RegisterInput,
} from '../src/sim/check/linearizability/models';
import { LockStateMachine } from '../src/sim/service/lockStateMachine';
import { linearize, type CheckOp, type Model } from '../src/sim/check/linearizability/search';
import { findPreset, presetActions } from '../src/sim/run/presets';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { attachInvariants } from '../src/sim/check/invariants';

/** Runs inputs through a model one after another: the state after each, or null where it refused. */
function run<S, I>(model: Model<S, I>, inputs: readonly I[]): (S | null)[] {
  let s: S | null = model.init();
  return inputs.map((i) => (s = s === null ? null : model.step(s, i)));
}

const ops = <I>(list: readonly [I, number, number | null][]): CheckOp<I>[] =>
  list.map(([input, call, ret], id) => ({ id, input, call, ret }));
const big = { steps: 1_000_000 };

describe('sequential models', () => {
  const acquire = (client: string, token: number | null, result: 'granted' | 'busy' | null = 'granted'): LockInput => ({
    kind: 'acquire',
    client,
    result,
    token,
  });
  const release = (client: string, token: number | null, result: 'released' | 'not-found' | 'not-holder' | 'busy' | null): LockInput => ({
    kind: 'release',
    client,
    result,
    token,
  });

  it('lock service: a grant needs the key free (or held by the asker) and a newer token', () => {
    expect(run(lockModel, [acquire('A', 1), acquire('B', 2)])[1]).toBeNull();
    expect(run(lockModel, [acquire('A', 1), acquire('A', 2)])[1]).toEqual({ holder: 'A', token: 2, last: 2 });
    expect(run(lockModel, [acquire('A', 2), release('A', 2, 'released'), acquire('B', 1)])[2]).toBeNull();
    expect(run(lockModel, [acquire('A', 1), acquire('B', null, 'busy')])[1]).toEqual({ holder: 'A', token: 1, last: 1 });
  });

  it('lock service: only the holder releases; expiry frees the token it names or an older one', () => {
    expect(run(lockModel, [acquire('A', 1), release('B', null, 'released')])[1]).toBeNull();
    expect(run(lockModel, [acquire('A', 1), release('A', 1, 'released'), acquire('B', 2)])[2]).toEqual({ holder: 'B', token: 2, last: 2 });
    expect(run(lockModel, [acquire('A', 1), { kind: 'expire', token: 1 }, acquire('B', 2)])[2]).toEqual({ holder: 'B', token: 2, last: 2 });
    // A renewal nobody was told about (token 2) expired: the hold with token 1 ended before it.
    expect(run(lockModel, [acquire('A', 1), { kind: 'expire', token: 2 }])[1]).toEqual({ holder: null, token: 0, last: 1 });
    // An expiry of an older token leaves a newer grant alone.
    expect(run(lockModel, [acquire('A', 3), { kind: 'expire', token: 2 }])[1]).toEqual({ holder: 'A', token: 3, last: 3 });
    // A pending acquire may have been granted with a token nobody saw; its expiry frees it.
    expect(run(lockModel, [acquire('A', null, null), { kind: 'expire', token: 5 }, acquire('B', 6)])[2]).toEqual({
      holder: 'B',
      token: 6,
      last: 6,
    });
  });

  it("lock service: a release frees a hold only naming the holder's token or none, as the lock table does; a token nobody was told matches none", () => {
    // A's renewal never completed: A holds with a token it was never told.
    const renewing = [acquire('A', 1), acquire('A', null, null)];
    expect(run(lockModel, [...renewing, release('A', 1, 'released')])[2]).toBeNull();
    expect(run(lockModel, [...renewing, release('A', 1, null)])[2]).toEqual({ holder: 'A', token: UNKNOWN_TOKEN, last: 1 });
    expect(run(lockModel, [...renewing, release('A', null, 'released')])[2]).toEqual({ holder: null, token: 0, last: 1 });
    expect(run(lockModel, [...renewing, { kind: 'expire', token: 2 }])[2]).toEqual({ holder: null, token: 0, last: 1 });
    // The lock table: after a renewal (token 2) a release naming token 1 removes nothing.
    const table = new LockStateMachine();
    table.apply({ type: 'grant', key: 'k', leaseMs: 10, owner: 'A' }, 0);
    table.apply({ type: 'grant', key: 'k', leaseMs: 10, owner: 'A' }, 0);
    expect(table.apply({ type: 'release', key: 'k', owner: 'A', token: 1 }, 0)).toEqual({ type: 'NotHolder', holder: 'A', token: 2 });
    expect(table.apply({ type: 'release', key: 'k', owner: 'A', token: null }, 0)).toEqual({ type: 'Released' });
  });

  it('strict mutual exclusion: a write takes effect only while its writer holds its token', () => {
    const write = (client: string, token: number | null) => ({ kind: 'write', client, token }) as const;
    expect(run(exclusiveModel, [acquire('A', 1), write('A', 1)])[1]).not.toBeNull();
    expect(run(exclusiveModel, [acquire('A', 1), { kind: 'expire', token: 1 }, write('A', 1)])[2]).toBeNull();
    expect(run(exclusiveModel, [acquire('A', 1), write('B', 1)])[1]).toBeNull();
    expect(run(exclusiveModel, [write('A', null)])[0]).toBeNull();
  });

  it('fencing order: accepted tokens never go back and were granted to the writer; refusals only below the highest', () => {
    const grant = (client: string, token: number) => ({ kind: 'grant', client, token }) as const;
    const write = (client: string, token: number | null, accepted: boolean) => ({ kind: 'write', client, token, accepted }) as const;
    expect(run(orderModel, [grant('A', 1), write('A', 1, true), grant('B', 2), write('B', 2, true), write('A', 1, false)])[4]).toEqual({
      highest: 2,
      granted: ['A:1', 'B:2'],
    });
    expect(run(orderModel, [grant('A', 1), grant('B', 2), write('B', 2, true), write('A', 1, true)])[3]).toBeNull();
    expect(run(orderModel, [grant('A', 1), write('B', 1, true)])[1]).toBeNull();
    expect(run(orderModel, [grant('A', 1), write('A', 1, false)])[1]).toBeNull();
    expect(run(orderModel, [write('A', null, false)])[0]).toEqual({ highest: 0, granted: [] });
  });

  it('register: a get returns the last value put', () => {
    const put = (value: string): RegisterInput => ({ kind: 'put', value });
    const get = (value: string | null): RegisterInput => ({ kind: 'get', value });
    expect(run(registerModel, [get(null), put('1'), get('1'), put('2'), get('2')]).every((s) => s !== null)).toBe(true);
    expect(run(registerModel, [put('1'), put('2'), get('1')])[2]).toBeNull();
  });
});

describe('Wing–Gong–Lowe search', () => {
  const put = (value: string): RegisterInput => ({ kind: 'put', value });
  const get = (value: string | null): RegisterInput => ({ kind: 'get', value });

  it('accepts a sequential history and rejects one whose read went back', () => {
    expect(
      linearize(
        registerModel,
        ops([
          [put('1'), 0, 1],
          [get('1'), 2, 3],
          [put('2'), 4, 5],
          [get('2'), 6, 7],
        ]),
        big,
      ).result,
    ).toBe('ok');
    expect(
      linearize(
        registerModel,
        ops([
          [put('1'), 0, 1],
          [put('2'), 2, 3],
          [get('1'), 4, 5],
        ]),
        big,
      ).result,
    ).toBe('fail');
  });

  it('finds the one order that works among concurrent operations', () => {
    // put(1) and put(2) overlap; the later read of 1 forces put(2) first, and the read of 2 in
    // the middle must fall between them.
    const h = ops([
      [put('1'), 0, 10],
      [put('2'), 1, 11],
      [get('2'), 2, 3],
      [get('1'), 12, 13],
    ]);
    expect(linearize(registerModel, h, big).result).toBe('ok');
    // Reading 2 after having read 1 after both puts completed: no order works.
    const bad = ops([
      [put('1'), 0, 10],
      [put('2'), 1, 11],
      [get('1'), 12, 13],
      [get('2'), 14, 15],
    ]);
    expect(linearize(registerModel, bad, big).result).toBe('fail');
  });

  it('lets a pending operation take effect, or not', () => {
    expect(
      linearize(
        registerModel,
        ops([
          [put('1'), 0, null],
          [get('1'), 5, 6],
        ]),
        big,
      ).result,
    ).toBe('ok');
    expect(
      linearize(
        registerModel,
        ops([
          [put('1'), 0, null],
          [get(null), 5, 6],
        ]),
        big,
      ).result,
    ).toBe('ok');
    expect(
      linearize(
        registerModel,
        ops([
          [put('1'), 7, null],
          [get('1'), 5, 6],
        ]),
        big,
      ).result,
    ).toBe('fail');
  });

  it('concurrent acquires: only the order matching the tokens works', () => {
    const a = (client: string, token: number): LockInput => ({ kind: 'acquire', client, result: 'granted', token });
    const r = (client: string, token: number): LockInput => ({ kind: 'release', client, result: 'released', token });
    // B's acquire overlaps A's whole hold: B must come after A's release, token 2 after token 1.
    expect(
      linearize(
        lockModel,
        ops([
          [a('A', 1), 0, 2],
          [a('B', 2), 1, 10],
          [r('A', 1), 3, 4],
        ]),
        big,
      ).result,
    ).toBe('ok');
    // The same with the tokens swapped cannot be ordered: B's grant (token 1) would follow token 2.
    expect(
      linearize(
        lockModel,
        ops([
          [a('A', 2), 0, 2],
          [a('B', 1), 1, 10],
          [r('A', 2), 3, 4],
        ]),
        big,
      ).result,
    ).toBe('fail');
  });

  it('answers unknown when its budget runs out, and a clock deadline stops it too', () => {
    const h = ops([
      [put('1'), 0, 10],
      [put('2'), 1, 11],
      [get('2'), 2, 3],
      [get('1'), 12, 13],
    ]);
    expect(linearize(registerModel, h, { steps: 3 }).result).toBe('unknown');
    // Twenty overlapping puts and a read of a value nobody put: every subset of puts is a state.
    const puts: [RegisterInput, number, number | null][] = Array.from({ length: 20 }, (_, i) => [put(`v${i}`), i, 100]);
    const hard = ops([...puts, [get('never'), 50, 60]]);
    let now = 0;
    const clock = () => (now += 1000);
    const budget = { steps: 100_000_000, clock, deadline: 10_000 };
    expect(linearize(registerModel, hard, budget).result).toBe('unknown');
    // Stopped by the clock (read every 4,096 steps) within a few reads of the deadline, long
    // before its 100 million steps ran out.
    expect(now).toBeGreaterThanOrEqual(10_000);
    expect(now).toBeLessThanOrEqual(12_000);
  });
});

/** A hand-written history operation, with defaults for what the case does not care about. */
function op(id: number, client: string, kind: CheckedOp['op'], fields: Partial<CheckedOp>): CheckedOp {
  return {
    id,
    client,
    op: kind,
    key: 'job',
    value: null,
    token: null,
    store: null,
    lockKey: null,
    invokeMs: 0,
    completeMs: null,
    result: null,
    ...fields,
  };
}

describe('checkHistory', () => {
  it('passes a correct lock history and names the two grants that overlap', () => {
    const good = [
      op(0, 'A', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'A', 'release', { invokeMs: 20, completeMs: 30, result: 'released', token: 1 }),
      op(2, 'B', 'acquire', { invokeMs: 25, completeMs: 40, result: 'granted', token: 2 }),
    ];
    expect(checkHistory(good).locks).toEqual({ linearizable: true });
    const bad = [
      op(0, 'A', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'C', 'acquire', { invokeMs: 1, completeMs: 5, result: 'busy' }),
      op(2, 'B', 'acquire', { invokeMs: 20, completeMs: 30, result: 'granted', token: 2 }),
      op(3, 'A', 'release', { invokeMs: 40, completeMs: 50, result: 'released', token: 1 }),
    ];
    // The release needs the grant it names, so the subset never shows it without A's grant.
    expect(checkHistory(bad).locks).toEqual({ linearizable: false, subset: [0, 2], key: 'job', minimal: true });
  });

  it('a retried release answered not-holder may have freed the key through an earlier copy; its id appears once', () => {
    const h = [
      op(0, 'A', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'A', 'release', { invokeMs: 20, completeMs: 90, result: 'not-holder', token: 1 }),
      op(2, 'B', 'acquire', { invokeMs: 30, completeMs: 40, result: 'granted', token: 2 }),
      op(3, 'C', 'acquire', { invokeMs: 50, completeMs: 60, result: 'granted', token: 3 }),
    ];
    // B's grant needs A's release to have taken effect (it may have); C's grant while B holds cannot be ordered.
    // Shrinking (latest first) drops the release, and then A's and B's grants alone already fail.
    const v = checkHistory(h).locks;
    expect(v).toMatchObject({ linearizable: false, key: 'job' });
    if (v?.linearizable !== false) throw new Error('expected a failure');
    expect(new Set(v.subset).size).toBe(v.subset.length);
    expect(v.subset).toEqual([0, 2]);
    expect(checkHistory(h.slice(0, 3)).locks).toEqual({ linearizable: true });
  });

  it('keeps the key-value map apart from the lock table: a put or get of a lock key is no release (issue 24)', () => {
    // The engine's map sits beside the lock table (lockStateMachine.ts), so A's put x=1 leaves A
    // holding x: its write with token 1 is fine under strict exclusion at both stores.
    const h = [
      op(0, 'A', 'acquire', { key: 'x', invokeMs: 500, completeMs: 560, result: 'granted', token: 1 }),
      op(1, 'A', 'put', { key: 'x', value: '1', invokeMs: 700, completeMs: 744, result: 'ok' }),
      op(2, 'A', 'get', { key: 'x', value: '1', invokeMs: 750, completeMs: 790, result: 'ok' }),
      op(3, 'A', 'write', {
        key: 'r',
        value: '1',
        token: 1,
        store: 'fenced',
        lockKey: 'x',
        invokeMs: 900,
        completeMs: 909,
        result: 'accepted',
      }),
      op(4, 'A', 'write', {
        key: 'r',
        value: '1',
        token: 1,
        store: 'unfenced',
        lockKey: 'x',
        invokeMs: 900,
        completeMs: 906,
        result: 'accepted',
      }),
    ];
    const v = checkHistory(h);
    expect(v.locks).toEqual({ linearizable: true });
    expect(v.fenced).toEqual({ linearizable: true });
    expect(v.unfenced).toEqual({ linearizable: true });
    expect(v.register).toEqual({ linearizable: true });
    // Nor may a put hide a double grant: a put never answered once counted as a release that may
    // have freed x, so B's grant while A holds x passed.
    const double = [
      op(0, 'A', 'acquire', { key: 'x', invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'A', 'put', { key: 'x', value: '1', invokeMs: 20 }),
      op(2, 'B', 'acquire', { key: 'x', invokeMs: 30, completeMs: 40, result: 'granted', token: 2 }),
    ];
    expect(checkHistory(double).locks).toEqual({ linearizable: false, subset: [0, 2], key: 'x', minimal: true });
  });

  it('a release answered busy freed nothing: no earlier copy excuses it, as the leader never answers a release busy', () => {
    const h = [
      op(0, 'C', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'C', 'release', { invokeMs: 20, completeMs: 90, result: 'busy', token: 1 }),
      op(2, 'B', 'acquire', { invokeMs: 100, completeMs: 110, result: 'granted', token: 2 }),
    ];
    expect(checkHistory(h).locks).toEqual({ linearizable: false, subset: [0, 2], key: 'job', minimal: true });
    // Answered not-holder instead, an earlier copy may have freed the key (the test above).
    const notHolder = h.map((o) => (o.id === 1 ? { ...o, result: 'not-holder' as const } : o));
    expect(checkHistory(notHolder).locks).toEqual({ linearizable: true });
  });

  it("a pending renewal's unknown token does not let a release naming another token through", () => {
    // A names token 7, which is not the token it holds: the lock table answers not-holder, so
    // "released" is a broken promise whether or not A's pending renewal took effect.
    const h = [
      op(0, 'A', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'A', 'acquire', { invokeMs: 20 }),
      op(2, 'A', 'release', { invokeMs: 30, completeMs: 40, result: 'released', token: 7 }),
      op(3, 'B', 'acquire', { invokeMs: 50, completeMs: 60, result: 'granted', token: 2 }),
    ];
    expect(checkHistory(h).locks).toMatchObject({ linearizable: false, key: 'job' });
    const named = h.map((o) => (o.id === 2 ? { ...o, token: 1 } : o));
    expect(checkHistory(named).locks).toEqual({ linearizable: true });
  });

  it('keeps each key its own object', () => {
    const h = [
      op(0, 'A', 'acquire', { key: 'x', invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'B', 'acquire', { key: 'y', invokeMs: 0, completeMs: 10, result: 'granted', token: 2 }),
    ];
    expect(checkHistory(h).locks).toEqual({ linearizable: true });
  });

  it('says register is n/a while the service has no reads', () => {
    expect(checkHistory([]).register?.linearizable).toBe('n/a');
  });

  it('reports unknown, not a verdict, when the budget runs out', () => {
    const h = [
      op(0, 'A', 'acquire', { invokeMs: 0, completeMs: 10, result: 'granted', token: 1 }),
      op(1, 'B', 'acquire', { invokeMs: 0, completeMs: 10, result: 'busy' }),
    ];
    expect(checkHistory(h, { steps: 1 }).locks).toMatchObject({ linearizable: 'unknown', reason: 'the search gave up after 1 steps' });
  });
});

/** A sequential register execution: ops at random times, each taking effect at a point inside its interval. */
const registerHistory = fc
  .array(
    fc.record({
      put: fc.boolean(),
      start: fc.integer({ min: 0, max: 1000 }),
      before: fc.integer({ min: 0, max: 30 }),
      after: fc.integer({ min: 0, max: 30 }),
    }),
    { minLength: 1, maxLength: 14 },
  )
  .map((specs) => {
    // Effect points are distinct and in the order of `start`; invoke/complete lie around them.
    const sorted = specs.map((s, i) => ({ ...s, point: s.start * 100 + i })).sort((a, b) => a.point - b.point);
    let value: string | null = null;
    return sorted.map((s, i) => {
      const input: RegisterInput = s.put ? { kind: 'put', value: (value = `v${i}`) } : { kind: 'get', value };
      return { id: i, input, call: s.point - s.before, ret: s.point + s.after } as CheckOp<RegisterInput>;
    });
  });

describe('properties', () => {
  it('a history produced by a sequential execution is always linearizable', () => {
    fc.assert(
      fc.property(registerHistory, (h) => linearize(registerModel, h, { steps: 1_000_000 }).result === 'ok'),
      { numRuns: 300 },
    );
  });

  it('the same history with one read corrupted is not, when the operations do not overlap', () => {
    fc.assert(
      fc.property(registerHistory, fc.nat(), (h, pick) => {
        // Intervals shrunk to their effect point: the real-time order is the execution's order.
        const seq = h.map((o) => ({ ...o, call: (o.call + (o.ret as number)) / 2, ret: (o.call + (o.ret as number)) / 2 + 0.5 }));
        const reads = seq.filter((o) => o.input.kind === 'get');
        fc.pre(reads.length > 0);
        const victim = reads[pick % reads.length];
        const corrupted = seq.map((o) =>
          o === victim ? { ...o, input: { kind: 'get', value: `${o.input.value ?? 'none'}-wrong` } as RegisterInput } : o,
        );
        return linearize(registerModel, corrupted, { steps: 1_000_000 }).result === 'fail';
      }),
      { numRuns: 300 },
    );
  });

  it('a lock history from a sequential execution is linearizable; one grant corrupted to a used token is not', () => {
    const steps = fc.array(fc.record({ client: fc.constantFrom('A', 'B', 'C'), what: fc.constantFrom('acquire', 'release') }), {
      minLength: 1,
      maxLength: 16,
    });
    fc.assert(
      fc.property(steps, fc.nat(), (list, pick) => {
        let holder: string | null = null;
        let holderToken = 0;
        let next = 1;
        const h: CheckOp<LockInput>[] = list.map((s, i): CheckOp<LockInput> => {
          let input: LockInput;
          if (s.what === 'acquire') {
            if (holder === null || holder === s.client) {
              holder = s.client;
              holderToken = next++;
              input = { kind: 'acquire', client: s.client, result: 'granted', token: holderToken };
            } else input = { kind: 'acquire', client: s.client, result: 'busy', token: null };
          } else if (holder === s.client) {
            input = { kind: 'release', client: s.client, result: 'released', token: holderToken };
            holder = null;
          } else input = { kind: 'release', client: s.client, result: holder === null ? 'not-found' : 'not-holder', token: null };
          return { id: i, input, call: i * 10, ret: i * 10 + 5 };
        });
        if (linearize(lockModel, h, big).result !== 'ok') return false;
        const grants = h.filter((o) => o.input.kind === 'acquire' && o.input.result === 'granted');
        if (grants.length < 2) return true;
        // A later grant handed a token that was already given out: tokens never repeat.
        const victim = grants[1 + (pick % (grants.length - 1))];
        const corrupted = h.map((o) => (o === victim ? { ...o, input: { ...(o.input as LockInput & { kind: 'acquire' }), token: 1 } } : o));
        return linearize(lockModel, corrupted, big).result === 'fail';
      }),
      { numRuns: 300 },
    );
  });
});

function historyOf(config: Simulation['cluster']['config'], schedule: string, untilMs: number) {
  const sim = new Simulation(config, parseSchedule(schedule));
  sim.advanceTo(untilMs);
  const ops = (sim.lockService as NonNullable<Simulation['lockService']>).history.ops;
  return { ops, verdicts: checkHistory(ops) };
}

describe('the lock-service presets', () => {
  for (const name of ['fencing', 'clock-drift']) {
    it(`${name}: fenced store passes strict exclusion, the unfenced one fails naming A's stale token-1 write and B's grant`, () => {
      const preset = findPreset(name);
      if (!preset) throw new Error(name);
      const { ops, verdicts } = historyOf(preset.config, preset.schedule, preset.untilMs);
      expect(verdicts.locks).toEqual({ linearizable: true });
      expect(verdicts.fenced).toEqual({ linearizable: true });
      expect(verdicts.fencedOrder).toEqual({ linearizable: true });
      const unfenced = verdicts.unfenced;
      if (unfenced?.linearizable !== false) throw new Error(`unfenced: ${JSON.stringify(unfenced)}`);
      const subset = unfenced.subset.map((id) => ops[id]);
      expect(subset.map((o) => `${o.client} ${o.op} ${o.token} ${o.result}`)).toEqual([
        'A acquire 1 granted',
        'n2 expire 1 expired',
        'B acquire 2 granted',
        'A write 1 accepted',
      ]);
      expect(subset[3]).toMatchObject({ store: 'unfenced', value: 'A-second' });
      expect(verdicts.unfencedOrder?.linearizable).toBe(false);
    });
  }

  it("a stale write that reaches the fenced store before the new holder's first write: strict fails at both stores, fencing order holds", () => {
    const fencing = findPreset('fencing');
    if (!fencing) throw new Error('fencing');
    const { ops, verdicts } = historyOf(
      fencing.config,
      '@1000 client A acquire job:42 10000; @1000 client A write result=A-first; @2500 client A pause 11000; ' +
        '@13000 client B acquire job:42 10000; @13000 client A write result=A-second; @14000 client B write result=B-first',
      15000,
    );
    const staleFenced = ops.find((o) => o.store === 'fenced' && o.value === 'A-second');
    expect(staleFenced?.result).toBe('accepted');
    expect(verdicts.fenced).toMatchObject({ linearizable: false, key: 'job:42' });
    expect(verdicts.unfenced).toMatchObject({ linearizable: false, key: 'job:42' });
    expect(verdicts.fenced?.linearizable === false && verdicts.fenced.subset).toContain(staleFenced?.id);
    expect(verdicts.fencedOrder).toEqual({ linearizable: true });
    expect(verdicts.unfencedOrder).toEqual({ linearizable: true });
    expect(verdicts.locks).toEqual({ linearizable: true });
  });

  it('recording the history changes nothing: the same events with a checkpoint copy in between', () => {
    const fencing = findPreset('fencing');
    if (!fencing) throw new Error('fencing');
    const a = new Simulation(fencing.config, presetActions(fencing));
    a.advanceTo(8000);
    const copy = a.clone();
    a.advanceTo(fencing.untilMs);
    copy.advanceTo(fencing.untilMs);
    expect(copy.cluster.events.map((e) => e.line)).toEqual(a.cluster.events.map((e) => e.line));
    expect(copy.lockService?.history.ops).toEqual(a.lockService?.history.ops);
    // Completed operations are frozen, so a checkpoint shares them instead of copying them.
    expect(Object.isFrozen(a.lockService?.history.ops[0])).toBe(true);
  });
});

describe('the checker as the fuzzer uses it', () => {
  it('turns a failed lock-service verdict into a violation naming the operations; findings stay findings', () => {
    const fencing = findPreset('fencing');
    if (!fencing) throw new Error('fencing');
    const sim = new Simulation(fencing.config, presetActions(fencing));
    const checker = attachInvariants(sim, { maxViolations: 1 });
    sim.advanceTo(fencing.untilMs);
    // The real history: the unfenced store's strict-exclusion failure is a finding, not a violation.
    checker.checkHistory();
    expect(checker.violations).toEqual([]);
    // A forged answer at the end: A told it holds job:42 with token 7 while B still holds it.
    const history = (sim.lockService as NonNullable<Simulation['lockService']>).history;
    const forged = history.invoke('A', 'acquire', 'job:42', 14_000);
    history.complete(forged, 14_100, 'granted', 7);
    checker.checkHistory();
    expect(checker.first?.invariant).toBe('linearizable-locks');
    expect(checker.first?.sentence).toContain('B acquire job:42 → granted 2 (13000-13045 ms)');
    expect(checker.first?.sentence).toContain(`#${forged.id} A acquire job:42 → granted 7 (14000-14100 ms)`);
  });
});
