/**
 * `npm run check -- FILE... [--model M] [--initial V] [--json]` (issue 27), called as the pure
 * function it is: one verdict line per file, several files in one process, the exit codes (0 all
 * linearizable, 1 one is not, 2 bad input, 3 unknown within the time limit), --json's list, the
 * etcd trace's invariants as its verdict, and the Porcupine export.
 */
import { describe, expect, it } from 'vitest';
import { runCheckCli } from '../src/cli/checkCli';
import { syntheticLog } from '../src/sim/import/synthetic';

function run(argv: string[], files: Record<string, string>, clock: () => number = () => 0) {
  const out: string[] = [];
  const err: string[] = [];
  const written: Record<string, string> = {};
  const code = runCheckCli(argv, {
    readFile: (p) => {
      if (!(p in files)) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT' });
      return files[p];
    },
    writeFile: (p, t) => (written[p] = t),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    clock,
  });
  return { code, out, err, written };
}

const good = `[{:process 0, :type :invoke, :f :write, :value 1}
 {:process 0, :type :ok, :f :write, :value 1}
 {:process 1, :type :invoke, :f :read, :value nil}
 {:process 1, :type :ok, :f :read, :value 1}]`;
const bad = good.replace(':ok, :f :read, :value 1', ':ok, :f :read, :value 3');
const trace = [
  '{"ts":1.0,"msg":"trace","event":{"name":"BecomeLeader","nid":"1","state":{"term":2,"vote":"1","commit":0},"role":"StateLeader","log":1,"conf":[["1","2","3"],[]]}}',
  '{"ts":1.1,"msg":"trace","event":{"name":"BecomeLeader","nid":"2","state":{"term":2,"vote":"2","commit":0},"role":"StateLeader","log":1,"conf":[["1","2","3"],[]]}}',
].join('\n');

describe('npm run check', () => {
  it('prints one verdict line per file and exits 0 when every file is linearizable', () => {
    const r = run(['good.edn', 'p.log'], { 'good.edn': good, 'p.log': syntheticLog({ seed: 2 }) });
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(2);
    expect(r.out[0]).toBe('good.edn: linearizable (CAS register from nil, 2 operations)');
    expect(r.out[1]).toMatch(
      /^p\.log: linearizable \(CAS register from nil, 82 operations; a failed cas found another value, as Porcupine reads it\)/,
    );
  });

  it("--failed-cas picks Porcupine's or Knossos's reading of a failed cas; anything else is one sentence, exit 2", () => {
    const failed = `[{:process 0, :type :invoke, :f :write, :value 1}
 {:process 0, :type :ok, :f :write, :value 1}
 {:process 1, :type :invoke, :f :cas, :value [1 2]}
 {:process 1, :type :fail, :f :cas, :value [1 2]}]`;
    const files = { 'f.edn': failed };
    expect(run(['f.edn'], files).out[0]).toBe(
      'f.edn: linearizable (CAS register from nil, 2 operations; a failed cas did not happen, as Knossos reads it)',
    );
    const strict = run(['f.edn', '--failed-cas', 'mismatch'], files);
    expect(strict.code).toBe(1);
    expect(strict.out[0]).toMatch(
      /^f\.edn: NOT linearizable \(CAS register from nil, 2 operations; a failed cas found another value, as Porcupine reads it\) — failed cas from 1 to 2/,
    );
    const bad = run(['f.edn', '--failed-cas', 'maybe'], files);
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe('--failed-cas is mismatch or no-effect, not "maybe".');
  });

  it('exits 1 when one is not, with the sentence, the minimal subset and the longest prefix on its line', () => {
    const r = run(['good.edn', 'bad.edn'], { 'good.edn': good, 'bad.edn': bad });
    expect(r.code).toBe(1);
    expect(r.out[1]).toBe(
      "bad.edn: NOT linearizable (CAS register from nil, 2 operations) — read of 3 at line 4: the register held 1 then; nobody wrote 3. Minimal failing subset: process 1's :read (line 3). The history is linearizable up to line 3; the completion on line 4 cannot be placed.",
    );
  });

  it('--json prints a list with one object per file carrying file and linearizable', () => {
    const r = run(['good.edn', 'bad.edn', 'trace.ndjson', 'gone.edn', '--json'], {
      'good.edn': good,
      'bad.edn': bad,
      'trace.ndjson': trace,
    });
    expect(r.code).toBe(2);
    const list = JSON.parse(r.out.join('\n')) as Record<string, unknown>[];
    expect(list.map((o) => [o.file, o.linearizable])).toEqual([
      ['good.edn', true],
      ['bad.edn', false],
      ['trace.ndjson', false],
      ['gone.edn', 'unknown'],
    ]);
    expect(list[1]).toMatchObject({
      model: 'cas-register',
      sentence: 'read of 3 at line 4: the register held 1 then; nobody wrote 3',
      minimal: true,
    });
    expect(list[1].subset).toEqual([{ id: 1, process: '1', f: 'read', line: 3, returnLine: 4, type: 'ok' }]);
    expect(list[1].prefix).toMatchObject({ line: 3 });
    expect(list[3].error).toBe('gone.edn: cannot be read (no such file).');
  });

  it('an etcd trace is "linearizable" when no Raft invariant is violated; a violation is its verdict line', () => {
    const r = run(['trace.ndjson'], { 'trace.ndjson': trace });
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(
      /^trace\.ndjson: NOT linearizable \(etcd raft trace: 5 Raft invariants over 2 nodes, 2 events\) — 1 violation: n1 \(from line 1\) and n2 \(at line 2\) both lead term 2/,
    );
    expect(run(['t.ndjson'], { 't.ndjson': trace.split('\n')[0] }).code).toBe(0);
  });

  it('exits 2 for bad input, with one sentence naming what is wrong', () => {
    expect(run([], {}).err[0]).toBe(
      'Give at least one FILE to check (a Jepsen history, a Jepsen line log, Porcupine data or an etcd raft trace).',
    );
    expect(run(['a', '--model', 'queue'], {}).err[0]).toBe(
      'Unknown model "queue" in --model; the models are cas-register, kv, append-kv, multi-register, mutex, owned-mutex.',
    );
    expect(run(['a', '--initial', '[1'], {}).err[0]).toMatch(/^--initial must be one EDN value such as nil, 0 or "a", not "\[1"/);
    const broken = run(['b.edn'], {
      'b.edn': '[{:process 0, :type :invoke, :f :read}\n {:process 0, :type :ok, :f :read, :value 1}\n {:process 0 :type :bogus}]',
    });
    expect(broken.code).toBe(2);
    expect(broken.err[0]).toBe('b.edn: line 3: expected :type to be :invoke, :ok, :fail or :info, found the keyword :bogus.');
    const mutex = run(['m.edn'], { 'm.edn': '{:process 0, :type :invoke, :f :acquire}\n{:process 0, :type :ok, :f :acquire}' });
    expect(mutex.code).toBe(2);
    expect(mutex.err[0]).toMatch(/choose --model mutex/);
    expect(
      run(['m.edn', '--model', 'mutex'], { 'm.edn': '{:process 0, :type :invoke, :f :acquire}\n{:process 0, :type :ok, :f :acquire}' })
        .out[0],
    ).toBe("m.edn: linearizable (Knossos's mutex (ownerless: any release frees it), 1 operation)");
  });

  it("--initial 0 starts the registers at 0, as Knossos's suites do", () => {
    const h = '{:process 0, :type :invoke, :f :read, :value nil}\n{:process 0, :type :ok, :f :read, :value 0}';
    const fromNil = run(['k.edn'], { 'k.edn': h });
    expect(fromNil.code).toBe(1);
    expect(fromNil.out[0]).toContain("From 0 it is linearizable: Knossos's suites start registers at 0 (give --initial 0).");
    expect(run(['k.edn', '--initial', '0'], { 'k.edn': h }).code).toBe(0);
  });

  it('exits 3 when the search reaches the time limit: the verdict says unknown, never a wrong answer', () => {
    let now = 0;
    const clock = () => (now += 5_000);
    const r = run(['big.log', '--time-limit', '1'], { 'big.log': syntheticLog({ seed: 5, ops: 6000 }) }, clock);
    expect(r.code).toBe(3);
    expect(r.out[0]).toMatch(
      /^big\.log: unknown \(CAS register from nil, 6000 operations; a failed cas found another value, as Porcupine reads it\) — the search reached its time limit of 1,000 ms before a verdict/,
    );
  });

  it("--porcupine writes the history and its linearization as Porcupine's visualization data", () => {
    const r = run(['good.edn', '--porcupine', 'out.json'], { 'good.edn': good });
    expect(r.code).toBe(0);
    const data = JSON.parse(r.written['out.json']) as { Partitions: { History: unknown[]; PartialLinearizations: unknown[][] }[] };
    expect(data.Partitions[0].History).toHaveLength(2);
    expect(data.Partitions[0].PartialLinearizations[0]).toHaveLength(2);
    expect(run(['a', 'b', '--porcupine', 'o'], {}).err[0]).toBe(
      "--porcupine writes one history's data: give exactly one FILE with it, not 2.",
    );
  });
});
