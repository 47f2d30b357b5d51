/**
 * The readers of other tools' files (issue 27, formats.md): the EDN reader, Jepsen/Knossos
 * histories in EDN (a vector, a list, one map per line, old tuples, comments, records, the
 * nemesis, crashed and replaced processes), Jepsen's line log, Porcupine's visualization data
 * read and written, format sniffing, and one sentence naming the line for every broken file.
 */
import { describe, expect, it } from 'vitest';
import { EdnError, EdnMap, EdnSeq, Keyword, Tagged, printEdn, readEdn, readOneEdn } from '../src/sim/import/edn';
import { readJepsenEdn } from '../src/sim/import/jepsenEdn';
import { readJepsenLog, stampMs } from '../src/sim/import/jepsenLog';
import { readPorcupine, toPorcupine } from '../src/sim/import/porcupine';
import { ImportError, readImported, skippedSentence, sniffFormat } from '../src/sim/import';
import { checkImported } from '../src/sim/import/checkImported';
import { syntheticEdn, syntheticLog } from '../src/sim/import/synthetic';

const sentenceOf = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    if (error instanceof ImportError) return error.sentence;
    throw error;
  }
  throw new Error('expected an ImportError');
};

describe('the EDN reader', () => {
  it('reads the values histories use: nil, booleans, integers, strings, keywords, vectors, lists, maps', () => {
    const v = readOneEdn('{:process 0, :type :invoke, :f :cas, :value [1 "two" nil true -3 (4 5)]}');
    expect(v).toBeInstanceOf(EdnMap);
    const m = v as EdnMap;
    expect(m.get('process')).toBe(0);
    expect(m.get('type')).toEqual(new Keyword('invoke'));
    const value = m.get('value') as EdnSeq;
    expect([...value.slice(0, 5)]).toEqual([1, 'two', null, true, -3]);
    expect((value[5] as EdnSeq).kind).toBe('list');
  });

  it('reads the rest of EDN so that no nemesis value stops a file: sets, tags, chars, floats, big integers, symbols, discards', () => {
    const v = readOneEdn('[#{:n1 :n2} #inst "2024-01-01" \\a \\space 1.5 2.5M 12345678901234567890N 1/2 foo/bar #_ ignored ##Inf]');
    expect(printEdn(v)).toBe('[#{:n1 :n2} #inst "2024-01-01" \\a \\space 1.5 2.5 12345678901234567890N 0.5 foo/bar ##Inf]');
    expect(readOneEdn('#jepsen.history.Op{:index 0}')).toBeInstanceOf(Tagged);
  });

  it("treats commas as whitespace and ; as a comment to the end of the line; keeps each form's line", () => {
    const { forms } = readEdn('; a comment\n{:a 1,,, :b 2} ; another\n\n[1 2]');
    expect(forms.map((f) => f.line)).toEqual([2, 4]);
  });

  it('prints canonically: equal maps print equal whatever their order', () => {
    expect(printEdn(readOneEdn('{:b 2 :a 1}'))).toBe(printEdn(readOneEdn('{:a 1, :b 2}')));
  });

  it('names the line and column of every error and what was expected', () => {
    const err = (t: string) => {
      try {
        readEdn(t);
      } catch (e) {
        return e instanceof EdnError ? e.message : String(e);
      }
      return 'no error';
    };
    expect(err('[1 2\n 3')).toBe('line 2, column 3: the vector opened at line 1, column 1 is never closed with "]"');
    expect(err('{:a 1 :b}')).toBe('line 1, column 1: the map opened here has a key without a value (3 forms)');
    expect(err('[1 2)')).toBe('line 1, column 5: expected "]" to close the vector opened at line 1, found ")"');
    expect(err('"abc')).toBe('line 1, column 5: the string opened at line 1, column 1 is never closed');
  });
});

describe('Jepsen/Knossos histories in EDN', () => {
  const ops = `{:process 0, :type :invoke, :f :write, :value 1}
{:process 0, :type :ok, :f :write, :value 1}
{:process 1, :type :invoke, :f :read, :value nil}
{:process 1, :type :ok, :f :read, :value 1}`;

  it('reads a vector, a list and one map per line the same way', () => {
    for (const text of [`[${ops}]`, `(${ops})`, ops]) {
      const h = readJepsenEdn(text);
      expect(h.ops.map((o) => [o.process, o.f, o.type, printEdn(o.value)])).toEqual([
        ['0', 'write', 'ok', '1'],
        ['1', 'read', 'ok', '1'],
      ]);
    }
  });

  it('reads old [process type f value] tuples and records such as #jepsen.history.Op{…}', () => {
    const h = readJepsenEdn('[[0 :invoke :read nil] [0 :ok :read 3]]');
    expect(printEdn(h.ops[0].value)).toBe('3');
    const r = readJepsenEdn(
      '#jepsen.history.Op{:index 0, :time 5000000, :type :invoke, :process 0, :f :read, :value nil}\n#jepsen.history.Op{:index 1, :time 9000000, :type :ok, :process 0, :f :read, :value 2}',
    );
    expect(r.ops[0]).toMatchObject({ callMs: 5, retMs: 9, callLine: 1, retLine: 2 });
    expect(r.timed).toBe(true);
  });

  it('keeps the nemesis as annotations, not client operations', () => {
    const h = readJepsenEdn(`[{:process :nemesis, :type :info, :f :start, :value nil}
 {:process :nemesis, :type :info, :f :start, :value [:isolated {"n1" #{"n2"}}]}
 ${ops}]`);
    expect(h.ops).toHaveLength(2);
    expect(h.annotations.map((a) => [a.process, a.f, a.line])).toEqual([
      ['nemesis', 'start', 1],
      ['nemesis', 'start', 2],
    ]);
  });

  it('a crashed process (:info) is replaced by a new number; its operation stays indeterminate', () => {
    const h = readJepsenEdn(`[{:process 3, :type :invoke, :f :write, :value 2}
 {:process 3, :type :info, :f :write, :value 2, :error :timeout}
 {:process 8, :type :invoke, :f :read, :value nil}
 {:process 8, :type :ok, :f :read, :value 2}
 {:process 1, :type :invoke, :f :cas, :value [2 4]}]`);
    expect(h.ops.map((o) => o.type)).toEqual(['info', 'ok', 'pending']);
    expect(h.ops[0].error).toBe(':timeout');
  });

  it('names the line and what was expected for a broken history; nothing is half-loaded', () => {
    expect(sentenceOf(() => readJepsenEdn('[{:process 0, :type :invoke, :f :read}\n {:process 0, :type :done, :f :read}]'))).toBe(
      'line 2: expected :type to be :invoke, :ok, :fail or :info, found the keyword :done.',
    );
    expect(sentenceOf(() => readJepsenEdn('[{:process 0, :type :ok, :f :read, :value 1}]'))).toBe(
      'line 1: process 0 completes a :read (:ok) it never invoked; expected an :invoke by process 0 before it.',
    );
    expect(
      sentenceOf(() => readJepsenEdn('[{:process 0, :type :invoke, :f :read}\n{:process 0, :type :invoke, :f :write, :value 1}]')),
    ).toBe(
      'line 2: process 0 invokes :write while its :read from line 1 is still open; a process runs one operation at a time (expected a completion of that :read first).',
    );
    expect(sentenceOf(() => readJepsenEdn('[{:process 0, :type :invoke, :f :read}\n 42]'))).toBe(
      'line 2: expected an operation (a map with :process, :type and :f, or a [process type f value] tuple), found the number 42.',
    );
    expect(sentenceOf(() => readJepsenEdn('[{:process 0, :type :invoke :f :read}\n {:process 1 :type'))).toMatch(
      /^line 2, column \d+: .* \(expected EDN, the notation Jepsen writes histories in\)\.$/,
    );
  });
});

describe("Jepsen's line log", () => {
  const log = `2015-05-05 10:22:31,563{GMT}	INFO	[jepsen nemesis] jepsen.util: :nemesis	:info	:start	nil
INFO  jepsen.util - 3	:invoke	:cas	[1 4]
INFO  jepsen.util - 3	:fail	:cas	[1 4]
INFO  jepsen.core - Worker 2 starting
INFO  jepsen.util - 0	:invoke	:read	nil
INFO  jepsen.util - 0	:ok	:read	2
INFO  jepsen.util - 1  :invoke  :write  3
INFO  jepsen.util - 1	:info	:write	:timed-out
INFO  jepsen.util - 4	:invoke	:read	nil
INFO  jepsen.util - 4	:fail	:read	:timed-out
`;
  it('reads the operation events (tabs or runs of spaces) and counts the other lines as skipped', () => {
    const h = readJepsenLog(log);
    expect(h.ops.map((o) => `${o.process} ${o.f} ${o.type} ${printEdn(o.value)}`)).toEqual([
      '3 cas fail [1 4]',
      '0 read ok 2',
      '1 write info 3',
      '4 read fail nil',
    ]);
    expect(h.ops[2].error).toBe(':timed-out');
    expect(h.annotations).toHaveLength(1);
    expect(h.skipped).toEqual({ count: 1, reasons: { 'other log output': 1 } });
    expect(skippedSentence(h.skipped)).toBe('1 line skipped (1 other log output).');
  });

  it("checks like Porcupine's etcd model: a failed cas read another value, a timed-out read observed nothing", () => {
    // The register is nil: cas [1 4] failing is right; read 2 is not (nobody wrote 2).
    expect(checkImported(readJepsenLog(log)).linearizable).toBe(false);
    expect(checkImported(readJepsenLog(log.replace(':ok	:read	2', ':ok	:read	nil'))).linearizable).toBe(true);
  });

  it('reads timestamps without Date (days from the civil date)', () => {
    expect(stampMs('1970-01-02 00:00:01,250')).toBe(86_401_250);
    expect(stampMs('2015-05-05 10:22:31,563')).toBe(1430821351563);
  });

  it('names a line whose value does not read as EDN', () => {
    expect(sentenceOf(() => readJepsenLog('INFO  jepsen.util - 3\t:invoke\t:cas\t[1 4'))).toBe(
      'line 1: the value "[1 4" of this :invoke does not read as EDN (the vector opened at line 1, column 1 is never closed with "]"); expected nil, a number, a string or a vector such as [1 4].',
    );
  });
});

describe("Porcupine's visualization data, read and written", () => {
  const data = {
    Partitions: [
      {
        History: [
          { ClientId: 0, Start: 0, End: 100, Description: "put('100')" },
          { ClientId: 1, Start: 25, End: 75, Description: "get() -> '100'" },
          { ClientId: 2, Start: 30, End: 60, Description: "get() -> '0'" },
        ],
        PartialLinearizations: [
          [
            { Index: 2, StateDescription: '0' },
            { Index: 0, StateDescription: '100' },
            { Index: 1, StateDescription: '100' },
          ],
        ],
        Largest: { '0': 0, '1': 0, '2': 0 },
      },
      {
        History: [{ ClientId: 0, Start: 200, End: 300, Description: "get() -> '7'" }],
        PartialLinearizations: [],
        Largest: {},
      },
    ],
    Annotations: [{ Tag: 'server 1', Start: 50, End: 80, Description: 'partitioned', Details: '', TextColor: '', BackgroundColor: '' }],
  };

  it('reads the JSON, bare or inside the HTML page Porcupine writes, with its own verdict per partition', () => {
    const html = `<!doctype html><html><body><script>\n function render(){}\n const data = ${JSON.stringify(data)}\n\n render(data)</script></body></html>`;
    for (const text of [JSON.stringify(data), html]) {
      expect(sniffFormat(text)).toBe('porcupine');
      const r = readPorcupine(text);
      expect(r.partitionOk).toEqual([true, false]);
      expect(r.placed).toEqual([3, 0]);
      expect(r.history.ops).toHaveLength(4);
      expect(r.history.annotations[0]).toMatchObject({ process: 'server 1' });
    }
  });

  it('writes a checked history in that shape: partitions per key, the linearization with its states, the nemesis as annotations', () => {
    const h = readJepsenEdn(`[{:process :nemesis, :type :info, :f :start, :value nil}
 {:process 0, :type :invoke, :f :write, :value [:x 1], :time 1000}
 {:process 0, :type :ok, :f :write, :value [:x 1], :time 2000}
 {:process 1, :type :invoke, :f :read, :value [:y nil], :time 3000}
 {:process 1, :type :ok, :f :read, :value [:y nil], :time 4000}]`);
    const v = checkImported(h);
    const out = toPorcupine(h, v);
    expect(out.Partitions).toHaveLength(2);
    expect(out.Partitions[0].History).toEqual([{ ClientId: 0, Start: 1000, End: 2000, Description: 'write([:x 1])' }]);
    expect(out.Partitions[0].PartialLinearizations).toEqual([[{ Index: 0, StateDescription: '1' }]]);
    expect(out.Annotations[0]).toMatchObject({ Tag: 'nemesis', Annotation: true });
    // And Lockstep reads its own export back with the same verdicts.
    const back = readPorcupine(JSON.stringify(out));
    expect(back.partitionOk).toEqual([true, true]);
  });

  it('names what is wrong with broken data', () => {
    expect(sentenceOf(() => readPorcupine('{"Partitions": [{"History": [{"ClientId": "a"}]}]}'))).toBe(
      'partition 0, operation 0: expected "ClientId" to be a number, found "a".',
    );
    expect(sentenceOf(() => readPorcupine('{"Partitions": [ {"History": ['))).toMatch(/^line 1: the Porcupine data does not parse as JSON/);
  });
});

describe('which format a file is', () => {
  it('is told by its content, not its name', () => {
    expect(sniffFormat(syntheticLog({ seed: 1 }))).toBe('jepsen-log');
    expect(sniffFormat(syntheticEdn({ seed: 1 }))).toBe('jepsen-edn');
    expect(sniffFormat('{:process 0, :type :invoke, :f :read, :value nil}')).toBe('jepsen-edn');
    expect(sniffFormat('{"ts": 1.0, "msg": "trace", "event": {}}')).toBe('etcd-trace');
    expect(sniffFormat('hello world')).toBeNull();
  });

  it('a file that is none of them gets one sentence naming line 1 and every format allowed', () => {
    expect(sentenceOf(() => readImported('hello world\nmore'))).toBe(
      'line 1 ("hello world") is none of the formats Lockstep reads: expected a Jepsen history in EDN ([{:process 0, :type :invoke, …}]), Jepsen\'s line log (INFO jepsen.util - 0 :invoke :read nil), Porcupine\'s visualization data ({"Partitions": …}) or etcd raft\'s trace (one JSON object per line).',
    );
    expect(sentenceOf(() => readImported('   \n'))).toMatch(/^The file is empty/);
  });

  it('the EDN and the line log of one run give the same verdict', () => {
    for (const seed of [3, 4]) {
      const a = checkImported(readJepsenLog(syntheticLog({ seed, corrupt: seed === 4 })), { explain: false }).linearizable;
      const b = checkImported(readJepsenEdn(syntheticEdn({ seed, corrupt: seed === 4 })), { explain: false }).linearizable;
      expect(a).toBe(b);
    }
  });
});
