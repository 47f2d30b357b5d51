/**
 * Checking imported histories (issue 27): the field's models with hand-worked verdicts (CAS
 * register, key-value map per key, Knossos's ownerless mutex and Lockstep's mutex with owners,
 * Knossos's multi-register, the initial value), the explanation (the operation that can never be
 * placed, in one sentence; the longest linearizable prefix; a minimal failing subset), and a
 * property test that the fast search (memo, bitsets, symmetry, dominance) agrees with a plain
 * exhaustive check on random small histories.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkImported } from '../src/sim/import/checkImported';
import { readJepsenEdn } from '../src/sim/import/jepsenEdn';
import { readJepsenLog } from '../src/sim/import/jepsenLog';
import { syntheticCorpus, syntheticEdn } from '../src/sim/import/synthetic';
import {
  casRegisterModel,
  multiRegisterModel,
  ownedMutexModel,
  ownerlessMutexModel,
  registerSymmetry,
  mutexSymmetry,
  type MicroOp,
  type MutexOp,
  type RegisterOp,
} from '../src/sim/check/linearizability/fieldModels';
import { linearize, type CheckOp, type Model } from '../src/sim/check/linearizability/search';
import { exhaustivelyLinearizable } from './helpers/exhaustiveLinearizability';

/** A history in EDN from `[process type f value]` rows (one map per line, as Jepsen writes them). */
const edn = (rows: readonly (readonly [number | string, string, string, string])[]) =>
  rows.map(([p, t, f, v]) => `{:process ${p}, :type :${t}, :f :${f}, :value ${v}}`).join('\n');

const check = (rows: Parameters<typeof edn>[0], options: Parameters<typeof checkImported>[1] = {}) =>
  checkImported(readJepsenEdn(edn(rows)), options);

describe('CAS register (read, write, cas [expected new])', () => {
  it('a read sees the last write: write 1 then read 1 is linearizable, read 2 is not', () => {
    expect(
      check([
        [0, 'invoke', 'write', '1'],
        [0, 'ok', 'write', '1'],
        [1, 'invoke', 'read', 'nil'],
        [1, 'ok', 'read', '1'],
      ]).linearizable,
    ).toBe(true);
    expect(
      check([
        [0, 'invoke', 'write', '1'],
        [0, 'ok', 'write', '1'],
        [1, 'invoke', 'read', 'nil'],
        [1, 'ok', 'read', '2'],
      ]).linearizable,
    ).toBe(false);
  });

  it('a read concurrent with a write may see the old or the new value', () => {
    const h = (v: string) =>
      check([
        [0, 'invoke', 'write', '1'],
        [0, 'ok', 'write', '1'],
        [1, 'invoke', 'read', 'nil'],
        [2, 'invoke', 'write', '2'],
        [1, 'ok', 'read', v],
        [2, 'ok', 'write', '2'],
      ]).linearizable;
    expect([h('1'), h('2'), h('3')]).toEqual([true, true, false]);
  });

  it("a successful cas needs the expected value; a failed cas means the register held another value (Porcupine's reading)", () => {
    const base = [
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
    ] as const;
    const mismatch = { failedCas: 'mismatch' } as const;
    expect(
      check([...base, [1, 'invoke', 'cas', '[1 2]'], [1, 'ok', 'cas', '[1 2]'], [2, 'invoke', 'read', 'nil'], [2, 'ok', 'read', '2']])
        .linearizable,
    ).toBe(true);
    expect(check([...base, [1, 'invoke', 'cas', '[3 2]'], [1, 'ok', 'cas', '[3 2]']]).linearizable).toBe(false);
    // The register held 1, the expected value: the compare should have matched.
    const failed = check([...base, [1, 'invoke', 'cas', '[1 2]'], [1, 'fail', 'cas', '[1 2]']], mismatch);
    expect(failed.linearizable).toBe(false);
    expect(failed.failedCasText).toBe('a failed cas found another value, as Porcupine reads it');
    expect(check([...base, [1, 'invoke', 'cas', '[3 2]'], [1, 'fail', 'cas', '[3 2]']], mismatch).linearizable).toBe(true);
  });

  it("Knossos's reading, an EDN history's default: a failed operation did not happen, so a failed cas constrains nothing", () => {
    // Knossos removes every :fail before it checks (history/without-failures); its corpus's
    // memstress histories from 0 are linearizable only so.
    const h = [
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
      [1, 'invoke', 'cas', '[1 2]'],
      [1, 'fail', 'cas', '[1 2]'],
    ] as const;
    const v = check(h);
    expect(v.linearizable).toBe(true);
    expect(v.failedCas).toBe('no-effect');
    expect(v.failedCasText).toBe('a failed cas did not happen, as Knossos reads it');
    // Nothing to name where no cas failed.
    expect(check(h.slice(0, 2)).failedCasText).toBeUndefined();
  });

  it("a Jepsen line log (Porcupine's corpus) reads a failed cas Porcupine's way by default", () => {
    const log = [
      'INFO  jepsen.util - 0\t:invoke\t:write\t1',
      'INFO  jepsen.util - 0\t:ok\t:write\t1',
      'INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]',
      'INFO  jepsen.util - 1\t:fail\t:cas\t[1 2]',
    ].join('\n');
    const v = checkImported(readJepsenLog(log));
    expect(v.failedCas).toBe('mismatch');
    expect(v.linearizable).toBe(false);
  });

  it('an indeterminate write may take effect or not, at any time after its invocation, even after its :info', () => {
    const h = (later: string) =>
      check([
        [0, 'invoke', 'write', '1'],
        [0, 'info', 'write', ':timed-out'],
        [1, 'invoke', 'read', 'nil'],
        [1, 'ok', 'read', 'nil'],
        [2, 'invoke', 'read', 'nil'],
        [2, 'ok', 'read', later],
      ]).linearizable;
    expect(h('1')).toBe(true); // it took effect after the first read
    expect(h('nil')).toBe(true); // it never did
    expect(h('2')).toBe(false);
  });

  it('a failed write did not happen (Knossos): a read of its value is not linearizable', () => {
    // Knossos's data/cas-register/bad/immediate-failure shape, written out by hand.
    const v = check(
      [
        [1, 'invoke', 'read', 'nil'],
        [101, 'invoke', 'write', '3'],
        [101, 'fail', 'write', '3'],
        [1, 'ok', 'read', '3'],
      ],
      { initial: 0, initialGiven: true },
    );
    expect(v.linearizable).toBe(false);
  });

  it("the initial value is the user's: nil by default, 0 for suites that start there, with a hint when 0 would pass", () => {
    const rows = [
      [0, 'invoke', 'read', 'nil'],
      [0, 'ok', 'read', '0'],
    ] as const;
    const fromNil = check(rows);
    expect(fromNil.linearizable).toBe(false);
    expect(fromNil.initial).toBe('nil');
    expect(fromNil.notes.join(' ')).toContain('From 0 it is linearizable');
    const fromZero = check(rows, { initial: 0, initialGiven: true });
    expect(fromZero.linearizable).toBe(true);
    expect(fromZero.initial).toBe('0');
  });

  it('from 0, a read of nil (which the register never holds) observed nothing, as Knossos reads it, and says so', () => {
    const v = check(
      [
        [0, 'invoke', 'read', 'nil'],
        [0, 'ok', 'read', 'nil'],
      ],
      { initial: 0, initialGiven: true },
    );
    expect(v.linearizable).toBe(true);
    expect(v.notes.join(' ')).toContain('1 read returned nil');
  });

  it('explains a failure: the read that can never be placed, what the register held then, and that nobody wrote the value', () => {
    // formats.md's example: 1 or 2 would be fine, 7 is not.
    const v = check([
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
      [1, 'invoke', 'read', 'nil'],
      [2, 'invoke', 'cas', '[1 2]'],
      [1, 'ok', 'read', '7'],
      [2, 'info', 'cas', '[1 2]'],
    ]);
    expect(v.linearizable).toBe(false);
    expect(v.sentence).toBe('read of 7 at line 5: the register held 1 or 2 then; nobody wrote 7');
    expect(v.culprit).toBe(1);
    expect(v.prefix?.line).toBe(4);
    expect(v.prefix?.sentence).toBe('The history is linearizable up to line 4; the completion on line 5 cannot be placed.');
    expect(v.subset).toEqual([1]);
    expect(v.minimal).toBe(true);
  });

  it("names the time from :time when the file has it (the issue's example sentence)", () => {
    const text = `[{:process 0, :type :invoke, :f :write, :value 0, :time 1000000}
 {:process 0, :type :ok, :f :write, :value 0, :time 2000000}
 {:process 1, :type :invoke, :f :read, :value nil, :time 1100000000}
 {:process 2, :type :invoke, :f :write, :value 4, :time 1150000000}
 {:process 1, :type :ok, :f :read, :value 3, :time 1204000000}
 {:process 2, :type :ok, :f :write, :value 4, :time 1250000000}]`;
    const v = checkImported(readJepsenEdn(text), { initial: 0, initialGiven: true });
    expect(v.sentence).toBe('read of 3 at 1,204 ms: the register held 0 or 4 then; nobody wrote 3');
  });

  it('a stale read: the write of its value was overwritten by a write that completed before the read began', () => {
    const v = check([
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
      [0, 'invoke', 'write', '2'],
      [0, 'ok', 'write', '2'],
      [1, 'invoke', 'read', 'nil'],
      [1, 'ok', 'read', '1'],
    ]);
    expect(v.linearizable).toBe(false);
    expect(v.sentence).toBe(
      'read of 1 at line 6: the register held 2 then; no write of 1 (line 1) can be ordered just before it without breaking another operation',
    );
    // The minimal subset keeps the write of 1 (a read alone, with nobody writing its value, would
    // fail too, but would not say why it was stale), the write that overwrote it and the read.
    expect(v.subset).toEqual([0, 1, 2]);
    expect(v.minimal).toBe(true);
  });

  it('the subset is shrunk within the failing prefix: a write of the value after it does not keep the whole prefix "minimal"', () => {
    // The read of 2 returns (line 8) before the only write of 2 begins (line 9): the failing prefix
    // holds no writer of 2, so the read alone is the subset, not everything before it.
    const v = check([
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
      [1, 'invoke', 'cas', '[0 3]'],
      [1, 'fail', 'cas', '[0 3]'],
      [2, 'invoke', 'write', '4'],
      [2, 'ok', 'write', '4'],
      [3, 'invoke', 'read', 'nil'],
      [3, 'ok', 'read', '2'],
      [0, 'invoke', 'write', '2'],
      [0, 'ok', 'write', '2'],
    ]);
    expect(v.sentence).toBe('read of 2 at line 8: the register held 4 then; the only write of 2 (line 9) began after it returned');
    expect(v.subset).toEqual([3]);
    expect(v.minimal).toBe(true);
  });

  it("the subset keeps the sentence's operation, not another failure the prefix also holds", () => {
    // A generated history whose failing prefix holds two failures: the read of 3 the search is
    // stuck on (every write of 3 began after it returned), and a read of 4 whose only source is an
    // indeterminate cas from 3. The subset is about the sentence's read, not the other one.
    const v = checkImported(readJepsenEdn(syntheticEdn({ seed: 6, ops: 40, threads: 5, corrupt: true })));
    expect(v.sentence).toMatch(/^read of 3 at [\d.]+ ms: .*every write of 3 began after it returned$/);
    expect(v.subset).toEqual([v.culprit]);
    expect(v.minimal).toBe(true);
  });

  it('the linearization found gives each operation the state before and after it', () => {
    const v = check([
      [0, 'invoke', 'write', '1'],
      [0, 'ok', 'write', '1'],
      [1, 'invoke', 'cas', '[1 5]'],
      [1, 'ok', 'cas', '[1 5]'],
    ]);
    expect(v.linearization).toEqual([
      { op: 0, before: 'nil', after: '1' },
      { op: 1, before: '1', after: '5' },
    ]);
  });
});

describe('key-value map, each key a register (P-compositionality)', () => {
  const kv = (rows: Parameters<typeof edn>[0]) => check(rows);
  it('independent [key value] tuples are checked per key; the failing key is named', () => {
    const v = kv([
      [0, 'invoke', 'write', '[:x 1]'],
      [0, 'ok', 'write', '[:x 1]'],
      [1, 'invoke', 'write', '[:y 2]'],
      [1, 'ok', 'write', '[:y 2]'],
      [2, 'invoke', 'read', '[:x nil]'],
      [2, 'ok', 'read', '[:x 1]'],
      [3, 'invoke', 'read', '[:y nil]'],
      [3, 'ok', 'read', '[:y 1]'],
    ]);
    expect(v.model).toBe('kv');
    expect(v.objects).toBe(2);
    expect(v.linearizable).toBe(false);
    expect(v.key).toBe(':y');
    expect(v.sentence).toContain('read of 1');
  });

  it('each key is its own object: a value written to one key never explains a read of another (the map-key regression)', () => {
    // Read as one register this history would pass (x=1 written, then read 1 under :y).
    const v = kv([
      [0, 'invoke', 'write', '[:x 1]'],
      [0, 'ok', 'write', '[:x 1]'],
      [1, 'invoke', 'read', '[:y nil]'],
      [1, 'ok', 'read', '[:y 1]'],
    ]);
    expect(v.linearizable).toBe(false);
    expect(v.key).toBe(':y');
    expect(v.objectKeys).toEqual([':x', ':y']);
  });

  it('a keyed cas carries [key [expected new]]; a plain [1 2] cas stays a CAS register', () => {
    expect(
      kv([
        [0, 'invoke', 'cas', '[:k [nil 3]]'],
        [0, 'ok', 'cas', '[:k [nil 3]]'],
      ]).model,
    ).toBe('kv');
    expect(
      kv([
        [0, 'invoke', 'cas', '[1 2]'],
        [0, 'fail', 'cas', '[1 2]'],
      ]).model,
    ).toBe('cas-register');
  });
});

describe("mutexes: Knossos's ownerless one and Lockstep's with owners", () => {
  const rows = [
    [1, 'invoke', 'acquire', 'nil'],
    [1, 'ok', 'acquire', 'nil'],
    [2, 'invoke', 'release', 'nil'],
    [2, 'ok', 'release', 'nil'],
    [3, 'invoke', 'acquire', 'nil'],
    [3, 'ok', 'acquire', 'nil'],
  ] as const;

  it('a file of acquires and releases does not say which mutex: the checker asks', () => {
    expect(() => check(rows)).toThrow(/choose --model mutex .* or --model owned-mutex/);
  });

  it("Knossos's mutex lets any release free the lock; Lockstep's only the holder's, and the verdict names which was used", () => {
    const knossos = check(rows, { model: 'mutex' });
    expect(knossos.linearizable).toBe(true);
    expect(knossos.modelText).toContain('ownerless');
    const owned = check(rows, { model: 'owned-mutex' });
    expect(owned.linearizable).toBe(false);
    expect(owned.modelText).toContain('owners');
    expect(owned.sentence).toBe('release by process 2 at line 4: the lock was held by 1 then, never held by 2');
  });

  it('two acquires with no release between are not linearizable in either', () => {
    const both = [
      [1, 'invoke', 'acquire', 'nil'],
      [1, 'ok', 'acquire', 'nil'],
      [2, 'invoke', 'acquire', 'nil'],
      [2, 'ok', 'acquire', 'nil'],
    ] as const;
    expect(check(both, { model: 'mutex' }).linearizable).toBe(false);
    expect(check(both, { model: 'owned-mutex' }).sentence).toBe(
      'acquire by process 2 at line 4: the lock was held by process 1 then, and no release could come first',
    );
  });

  it('an indeterminate release may have freed the lock', () => {
    const h = [
      [1, 'invoke', 'acquire', 'nil'],
      [1, 'ok', 'acquire', 'nil'],
      [1, 'invoke', 'release', 'nil'],
      [1, 'info', 'release', 'nil'],
      [2, 'invoke', 'acquire', 'nil'],
      [2, 'ok', 'acquire', 'nil'],
    ] as const;
    expect(check(h, { model: 'owned-mutex' }).linearizable).toBe(true);
  });
});

describe("Knossos's multi-register (:txn)", () => {
  const txn = (rows: readonly (readonly [number, string, string])[]) =>
    rows.map(([p, t, v]) => `{:process ${p}, :type :${t}, :f :txn, :value ${v}}`).join('\n');
  it("transactions over several registers are atomic; from 0 as Knossos's suite starts", () => {
    const ok = txn([
      [0, 'invoke', '[[:write :x 1] [:write :y 1]]'],
      [0, 'ok', '[[:write :x 1] [:write :y 1]]'],
      [1, 'invoke', '[[:read :x nil] [:read :y nil]]'],
      [1, 'ok', '[[:read :x 1] [:read :y 1]]'],
    ]);
    expect(checkImported(readJepsenEdn(ok), { initial: 0, initialGiven: true })).toMatchObject({
      model: 'multi-register',
      linearizable: true,
      objects: 1,
    });
    const torn = txn([
      [0, 'invoke', '[[:write :x 1] [:write :y 1]]'],
      [1, 'invoke', '[[:read :x nil] [:read :y nil]]'],
      [1, 'ok', '[[:read :x 1] [:read :y 0]]'],
      [0, 'ok', '[[:write :x 1] [:write :y 1]]'],
    ]);
    expect(checkImported(readJepsenEdn(torn), { initial: 0, initialGiven: true }).linearizable).toBe(false);
  });

  it('transactions that each touch one register are checked per register', () => {
    const h = txn([
      [0, 'invoke', '[[:write :x 1]]'],
      [0, 'ok', '[[:write :x 1]]'],
      [1, 'invoke', '[[:read :y nil]]'],
      [1, 'ok', '[[:read :y 0]]'],
    ]);
    expect(checkImported(readJepsenEdn(h), { initial: 0, initialGiven: true })).toMatchObject({ linearizable: true, objects: 2 });
  });
});

describe('the search agrees with a plain exhaustive check (property)', () => {
  /** Random small histories: each process runs one operation at a time; some never return. */
  function arbHistory<I>(input: fc.Arbitrary<I>, maxOps = 7): fc.Arbitrary<CheckOp<I>[]> {
    return fc
      .array(
        fc.record({
          input,
          process: fc.integer({ min: 0, max: 2 }),
          gap: fc.integer({ min: 0, max: 3 }),
          length: fc.integer({ min: 0, max: 6 }),
          pending: fc.boolean(),
        }),
        {
          minLength: 1,
          maxLength: maxOps,
        },
      )
      .map((rows) => {
        const freeAt = [0, 0, 0];
        return rows.map((r, id) => {
          const call = freeAt[r.process] + r.gap;
          const pending = r.pending && id % 3 === 0;
          const ret = pending ? null : call + r.length;
          freeAt[r.process] = ret === null ? Infinity : ret + 1;
          // A process whose operation never returned is replaced: a new one continues.
          if (ret === null) freeAt[r.process] = call + 1;
          return { id, input: r.input, call, ret };
        });
      });
  }
  const value = fc.integer({ min: 0, max: 2 });
  const registerOp: fc.Arbitrary<RegisterOp> = fc.oneof(
    value.map((v) => ({ kind: 'read' as const, value: v })),
    value.map((v) => ({ kind: 'write' as const, value: v })),
    fc.tuple(value, value, fc.constantFrom(true, false, null)).map(([from, to, ok]) => ({ kind: 'cas' as const, from, to, ok })),
  );
  const agree = <S, I>(model: Model<S, I>, h: CheckOp<I>[], symmetry?: (i: I) => string | null) => {
    const expected = exhaustivelyLinearizable(model, h);
    const plain = linearize(model, h, { steps: 1e7 }).result;
    const fast = linearize(model, h, { steps: 1e7 }, { dominance: true, ...(symmetry ? { symmetry } : {}) }).result;
    return plain === (expected ? 'ok' : 'fail') && fast === (expected ? 'ok' : 'fail');
  };

  it('CAS register from nil and from 0', () => {
    fc.assert(
      fc.property(arbHistory(registerOp), fc.constantFrom(0, 1), (h, init) => agree(casRegisterModel(init), h, registerSymmetry)),
      { numRuns: 600 },
    );
  });

  it('both mutexes', () => {
    const mutexOp: fc.Arbitrary<MutexOp> = fc.record({
      kind: fc.constantFrom('acquire' as const, 'release' as const),
      owner: fc.integer({ min: 0, max: 2 }),
    });
    fc.assert(
      fc.property(
        arbHistory(mutexOp),
        (h) => agree(ownerlessMutexModel, h, mutexSymmetry(false)) && agree(ownedMutexModel, h, mutexSymmetry(true)),
      ),
      { numRuns: 400 },
    );
  });

  it('multi-register transactions', () => {
    const micro: fc.Arbitrary<MicroOp> = fc.record({
      kind: fc.constantFrom('read' as const, 'write' as const),
      register: fc.integer({ min: 0, max: 1 }),
      value: value,
    });
    fc.assert(
      fc.property(arbHistory(fc.array(micro, { minLength: 1, maxLength: 2 }), 6), (h) => agree(multiRegisterModel([0, 0]), h)),
      { numRuns: 300 },
    );
  });
});

describe("a corpus shaped like Porcupine's Jepsen etcd corpus", () => {
  it('the generated histories get the verdict they were made with (a corrupted read is not linearizable by construction)', () => {
    const corpus = syntheticCorpus(12);
    const verdicts = corpus.map((c) => checkImported(readJepsenLog(c.text), { explain: false }).linearizable);
    expect(verdicts).toEqual(corpus.map((c) => c.linearizable));
    // About 165 lines each, with timed-out (indeterminate) operations among them.
    const lines = corpus.map((c) => c.text.split('\n').length - 1);
    expect(Math.min(...lines)).toBeGreaterThan(140);
    expect(corpus.every((c) => c.text.includes(':info'))).toBe(true);
  });
});

describe("Porcupine's key-value model (get, put, append on :key), each key alone", () => {
  const line = (p: number, type: string, f: string, key: string, value: string) =>
    `{:process ${p}, :type :${type}, :f :${f}, :key "${key}", :value ${value}}`;
  const kv = (lines: string[]) => checkImported(readJepsenEdn(lines.join('\n')));

  it('an append adds to the end, a get returns the whole string; the model is chosen from the file', () => {
    const seq = [
      line(0, 'invoke', 'append', 'k', '"a"'),
      line(0, 'ok', 'append', 'k', '"a"'),
      line(0, 'invoke', 'append', 'k', '"b"'),
      line(0, 'ok', 'append', 'k', '"b"'),
    ];
    const read = (v: string) => [line(1, 'invoke', 'get', 'k', 'nil'), line(1, 'ok', 'get', 'k', `"${v}"`)];
    const ok = kv([...seq, ...read('ab')]);
    expect(ok.model).toBe('append-kv');
    expect(ok.linearizable).toBe(true);
    // The appends were one after the other: "ba" is no order of them.
    const bad = kv([...seq, ...read('ba')]);
    expect(bad.linearizable).toBe(false);
    expect(bad.sentence).toMatch(/^get "ba" on key "k" at line 6: the key held "ab" then/);
    // The subset keeps the appends the get's value is made of.
    expect(bad.subset).toEqual([0, 1, 2]);
  });

  it('concurrent appends land in either order; a put replaces the value; a key starts empty; keys are separate objects', () => {
    const both = [
      line(0, 'invoke', 'append', 'k', '"a"'),
      line(1, 'invoke', 'append', 'k', '"b"'),
      line(0, 'ok', 'append', 'k', '"a"'),
      line(1, 'ok', 'append', 'k', '"b"'),
    ];
    for (const v of ['ab', 'ba'])
      expect(kv([...both, line(2, 'invoke', 'get', 'k', 'nil'), line(2, 'ok', 'get', 'k', `"${v}"`)]).linearizable).toBe(true);
    const put = [
      line(0, 'invoke', 'append', 'k', '"a"'),
      line(0, 'ok', 'append', 'k', '"a"'),
      line(0, 'invoke', 'put', 'k', '"z"'),
      line(0, 'ok', 'put', 'k', '"z"'),
    ];
    expect(kv([...put, line(1, 'invoke', 'get', 'k', 'nil'), line(1, 'ok', 'get', 'k', '"z"')]).linearizable).toBe(true);
    expect(kv([...put, line(1, 'invoke', 'get', 'k', 'nil'), line(1, 'ok', 'get', 'k', '"az"')]).linearizable).toBe(false);
    const other = kv([
      line(0, 'invoke', 'append', 'k', '"a"'),
      line(0, 'ok', 'append', 'k', '"a"'),
      line(1, 'invoke', 'get', 'j', 'nil'),
      line(1, 'ok', 'get', 'j', '""'),
    ]);
    expect(other.linearizable).toBe(true);
    expect(other.objects).toBe(2);
  });

  it('an indeterminate append may take effect or not; a failed one did not', () => {
    const info = [line(0, 'invoke', 'append', 'k', '"a"'), line(0, 'info', 'append', 'k', '"a"')];
    for (const v of ['', 'a'])
      expect(kv([...info, line(1, 'invoke', 'get', 'k', 'nil'), line(1, 'ok', 'get', 'k', `"${v}"`)]).linearizable).toBe(true);
    const fail = [line(0, 'invoke', 'append', 'k', '"a"'), line(0, 'fail', 'append', 'k', '"a"')];
    expect(kv([...fail, line(1, 'invoke', 'get', 'k', 'nil'), line(1, 'ok', 'get', 'k', '"a"')]).linearizable).toBe(false);
  });
});
