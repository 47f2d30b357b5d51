// Reads (issue 14's last feature, issue 15's register model): put and get on the replicated
// key-value map, answered through the log, by ReadIndex (§6.4) or from the leader's lease
// (§6.4.1), and the register verdict over the clients' history. Rules are named by section.
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { DEFAULT_CONFIG, checkConfig, configFromFields, type SimConfig } from '../src/sim/model/config';
import { fuzzRun } from '../src/sim/check/fuzz/swarm';
import type { HistoryOp } from '../src/sim/model/history';
import { attachInvariants } from '../src/sim/check/invariants';
import { checkHistory, verdictStake, violatedVerdicts } from '../src/sim/check/linearizability/check';
import { findPreset } from '../src/sim/run/presets';
import { LEASE_DRIFT_MARGIN_PCT, leaseMsOf } from '../src/sim/service/reads';
import { checkSchedule, formatSchedule, parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import { decodeLink, encodeLink } from '../src/share/link';
import { describeDetail } from '../src/sim/model/describe';
import { takeRunView } from '../src/sim/view/runView';
import { DISSERTATION, explain } from '../src/sim/teach/why';

const READS: SimConfig = { ...DEFAULT_CONFIG, clientIds: ['A', 'B'], features: ['reads'] };
const STALE = findPreset('stale-read');
const STALE_INDEX = findPreset('stale-read-index');

function run(config: SimConfig, schedule: string, untilMs: number) {
  const sim = new Simulation(config, parseSchedule(schedule), { recordDetails: true });
  const checker = attachInvariants(sim);
  sim.advanceTo(untilMs);
  const ops = sim.lockService?.history.ops ?? [];
  return { sim, checker, ops, report: checkHistory(ops), lines: sim.cluster.events.map((e) => e.text) };
}

const gets = (ops: readonly HistoryOp[]) => ops.filter((o) => o.op === 'get');

describe('put and get (the schedule verbs)', () => {
  it('parse and print back, with an optional read mode per get', () => {
    const text = '@100 client A put x=1; @200 client B get x; @300 client B get x read-index; @400 client A get y lease';
    expect(formatSchedule(parseSchedule(text))).toBe(text);
  });

  it('a bad put or read mode gets one sentence naming what is allowed', () => {
    expect(() => parseSchedule('@100 client A put x')).toThrow(
      'Action 1 ("@100 client A put x", at character 1) is not of the form "client A put <key>=<value>".',
    );
    expect(() => parseSchedule('@100 client A get x fast')).toThrow('has read mode "fast"; the read modes are log, read-index, lease.');
  });

  it('are refused with one sentence in a run without the feature', () => {
    const actions = parseSchedule('@100 client A put x=1');
    expect(checkSchedule(actions, { ...READS, features: [] })).toBe(
      'Action 1 ("@100 client A put x=1") is a put, which needs the feature reads; switch on reads (Settings ▸ Protocol, --features reads or features=reads in a link).',
    );
    expect(checkSchedule(actions, READS)).toBeNull();
  });
});

describe('the read mode (a config field, --read-mode, read= in links)', () => {
  it('is checked with one sentence, and needs the feature', () => {
    expect(configFromFields(READS, { readMode: 'fast' })).toBe('The read mode must be one of log, read-index, lease, not "fast".');
    expect(configFromFields(DEFAULT_CONFIG, { readMode: 'lease' })).toBe('The read mode needs the feature reads; switch on reads too.');
    expect(checkConfig({ ...DEFAULT_CONFIG, readMode: 'lease' })).toBe('A read mode needs the feature reads; switch on reads too.');
    const c = configFromFields(READS, { readMode: 'lease' });
    expect(typeof c === 'string' ? c : c.readMode).toBe('lease');
    // log is the default and is left out, so the configuration is the one without the field.
    const log = configFromFields(READS, { readMode: 'log' });
    expect(typeof log === 'string' ? log : 'readMode' in log).toBe(false);
  });

  it('--read-mode on the command line: the header names it, a bad one exits 2', () => {
    const ok = runSimCli(['--features', 'reads', '--read-mode', 'read-index', '--until', '100']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toMatch(/, features reads, read mode read-index$/);
    const bad = runSimCli(['--features', 'reads', '--read-mode', 'quick']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('--read-mode must be one of log, read-index, lease, not "quick".\n');
  });

  it('read= in a share link round-trips, and a bad one gets one sentence', () => {
    const config: SimConfig = { ...READS, readMode: 'lease' };
    const link = encodeLink({ config, schedule: parseSchedule('@100 client A get x'), atMs: 500 });
    expect(link).toContain('read=lease');
    const back = decodeLink(link);
    expect(back.ok && back.spec.config.readMode).toBe('lease');
    const bad = decodeLink('?v=1&seed=42&features=reads&read=slow');
    expect(bad.ok ? null : bad.error).toBe(
      'This link\'s configuration is invalid: The read mode must be one of log, read-index, lease, not "slow".',
    );
  });
});

describe('§6.4 reads through the log', () => {
  it('a log get is an entry like a write, answered with the value when it applies', () => {
    const r = run(READS, '@500 client A put x=1; @700 client B get x', 1200);
    const leader = r.sim.cluster.leader();
    expect(leader?.log.map((e) => (typeof e.command === 'string' ? e.command : e.command.type))).toEqual(['put', 'get']);
    expect(gets(r.ops).map((o) => [o.value, o.result, o.readMode])).toEqual([['1', 'ok', 'log']]);
    expect(r.report.register).toEqual({ linearizable: true });
  });

  it('a retried put applies once (§6.3 sessions): the map ignores a copy already applied', () => {
    const r = run(READS, '@500 client A put x=1; @700 client B put x=2; @900 client A get x', 1500);
    expect(gets(r.ops)[0].value).toBe('2');
    expect(r.report.register).toEqual({ linearizable: true });
  });
});

describe('§6.4 ReadIndex', () => {
  it('the leader records its commit index, sends a heartbeat round and answers once a majority answered it', () => {
    const r = run({ ...READS, readMode: 'read-index' }, '@500 client A put x=1; @700 client B get x', 1200);
    const recorded = r.sim.cluster.details.find((d) => d.kind === 'read-index-recorded');
    const served = r.sim.cluster.details.find((d) => d.kind === 'read-served');
    expect(recorded?.kind === 'read-index-recorded' && recorded.values.round).toBeGreaterThan(0);
    expect(served?.kind === 'read-served' && [served.values.mode, served.values.value, served.values.round]).toEqual([
      'read-index',
      '1',
      recorded?.kind === 'read-index-recorded' ? recorded.values.round : -1,
    ]);
    expect(served!.t).toBeGreaterThan(recorded!.t); // a round trip later, not at once
    // The read is no log entry: the leader's log holds only the put.
    expect(r.sim.cluster.leader()?.log.length).toBe(1);
  });

  it('a new leader with no entry of its term first appends a no-op and commits it', () => {
    const r = run({ ...READS, readMode: 'read-index' }, '@700 client B get x', 1200);
    const log = r.sim.cluster.leader()?.log ?? [];
    expect(log.map((e) => (typeof e.command === 'string' ? e.command : e.command.type))).toEqual(['noop']);
    expect(gets(r.ops)[0]).toMatchObject({ result: 'ok', value: null });
  });

  it('stale-read-index: the cut-off leader never confirms its leadership, so the read is answered by the new leader (register ✓)', () => {
    if (!STALE_INDEX) throw new Error('no stale-read-index preset');
    const r = run(STALE_INDEX.config, STALE_INDEX.schedule, STALE_INDEX.untilMs);
    const read = gets(r.ops)[0];
    expect(read).toMatchObject({ value: '2', result: 'ok', readMode: 'read-index' });
    expect(r.lines).toContain('A hears nothing from n2 in 300 ms; tries n3');
    expect(r.report.register).toEqual({ linearizable: true });
    expect(r.checker.violations).toEqual([]);
  });

  it('with the bug read-index-skips-heartbeat the cut-off leader answers stale, a violation naming the get (negative control)', () => {
    if (!STALE_INDEX) throw new Error('no stale-read-index preset');
    const config: SimConfig = { ...STALE_INDEX.config, bugs: ['read-index-skips-heartbeat'] };
    const r = run(config, STALE_INDEX.schedule, STALE_INDEX.untilMs);
    const read = gets(r.ops)[0];
    expect(read.value).toBe('1');
    const v = r.report.register;
    expect(v).toMatchObject({ linearizable: false, key: 'x', staleRead: read.id });
    expect(v?.linearizable === false && v.leaseRead).toBeUndefined();
    expect(violatedVerdicts(r.report)).toEqual(['register']);
    expect(r.checker.checkHistory()).not.toBeNull();
    expect(r.checker.first?.invariant).toBe('linearizable-register');
  });
});

describe('§6.4.1 lease reads', () => {
  it('the lease is the shortest election timeout less the drift margin', () => {
    expect(LEASE_DRIFT_MARGIN_PCT).toBe(10);
    expect(leaseMsOf(150)).toBe(135);
  });

  it('a leader holding its lease answers at once from its own state, with no round trip to the followers', () => {
    const r = run({ ...READS, readMode: 'lease' }, '@500 client A put x=1; @700 client B get x', 1200);
    const served = r.sim.cluster.details.find((d) => d.kind === 'read-served');
    expect(served?.kind === 'read-served' && served.values.mode).toBe('lease');
    expect(served?.kind === 'read-served' && served.values.leaseLeftMs).toBeGreaterThan(0);
    expect(r.report.register).toEqual({ linearizable: true });
  });

  it('without drift the cut-off leader’s lease runs out before a new leader can be elected: no stale read', () => {
    if (!STALE) throw new Error('no stale-read preset');
    const r = run(STALE.config, STALE.schedule.replace('@700 drift n2 -90; ', ''), STALE.untilMs);
    expect(gets(r.ops)[0]).toMatchObject({ value: '2', result: 'ok' });
    expect(r.report.register).toEqual({ linearizable: true });
  });

  it('issue 15: a lease-read run with drift: register ✗ naming the stale read, a finding (stale-read)', () => {
    if (!STALE) throw new Error('no stale-read preset');
    const r = run(STALE.config, STALE.schedule, STALE.untilMs);
    const read = gets(r.ops)[0];
    const put2 = r.ops.find((o) => o.op === 'put' && o.value === '2');
    expect(read).toMatchObject({ client: 'A', value: '1', readMode: 'lease' });
    expect(put2?.completeMs).toBeLessThan(read.invokeMs); // x=2 was acknowledged before A asked
    const v = r.report.register;
    expect(v).toEqual({ linearizable: false, subset: [put2!.id, read.id], key: 'x', minimal: true, staleRead: read.id, leaseRead: true });
    expect(verdictStake('register', v)).toBe('finding');
    expect(violatedVerdicts(r.report)).toEqual([]);
    expect(r.checker.violations).toEqual([]);
  });

  it('the CLI prints the register verdict with the stale read, and --json carries put and get in the history', () => {
    const text = runSimCli(['--preset', 'stale-read']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('register NO (#1 #2 on x; stale read #2, a lease read: a finding)');
    const json = runSimCli(['--preset', 'stale-read', '--json']);
    const out = JSON.parse(json.stdout) as {
      history: { op: string; value: string | null; readMode?: string }[];
      linearizable: { register: { linearizable: boolean } };
    };
    expect(out.history.map((o) => o.op)).toEqual(['put', 'put', 'get']);
    expect(out.history[2]).toMatchObject({ op: 'get', value: '1', readMode: 'lease' });
    expect(out.linearizable.register.linearizable).toBe(false);
  });
});

describe('time travel with reads', () => {
  it('a checkpoint copy answers reads from its own state machines, exactly as the original run does', () => {
    if (!STALE) throw new Error('no stale-read preset');
    const sim = new Simulation(STALE.config, parseSchedule(STALE.schedule));
    sim.advanceTo(1500);
    const copy = sim.clone();
    sim.advanceTo(STALE.untilMs);
    // The original's map moves on; the copy must not read it.
    sim.lockService?.machineOf(sim.cluster.node('n2')).kv.set('x', 'tampered');
    copy.advanceTo(STALE.untilMs);
    expect(gets(copy.lockService?.history.ops ?? []).map((o) => o.value)).toEqual(['1']);
  });
});

describe('Why and the detail events for reads', () => {
  it('the stale lease read is told as served from the lease by the slow clock; Why on the client cites §6.4 and §6.4.1', () => {
    if (!STALE) throw new Error('no stale-read preset');
    const r = run(STALE.config, STALE.schedule, STALE.untilMs);
    const served = r.sim.cluster.details.filter((d) => d.kind === 'read-served');
    expect(served.map((d) => describeDetail(d))).toEqual([
      expect.stringMatching(/^n2 answers A's get x with x=1: from its lease, [\d.]+ ms left by its clock \(local [\d.]+ ms, §6\.4\.1\)$/),
    ]);
    const why = explain({ kind: 'client', id: 'A' }, takeRunView(r.sim), r.sim.cluster.events);
    expect(why.answer.join(' ')).toContain("A's last put or get: get x -> 1. A get through the log or by ReadIndex is linearizable");
    expect(why.rule).toContain(DISSERTATION.reads);
    // Without the feature's answers there is no such paragraph.
    const plain = new Simulation({ ...DEFAULT_CONFIG, clientIds: ['A'] }, parseSchedule('@400 client A acquire k 1000'));
    plain.advanceTo(800);
    expect(explain({ kind: 'client', id: 'A' }, takeRunView(plain)).rule).not.toContain(DISSERTATION.reads);
  });

  it('the ReadIndex bug is told as answering without a heartbeat round', () => {
    if (!STALE_INDEX) throw new Error('no stale-read-index preset');
    const r = run({ ...STALE_INDEX.config, bugs: ['read-index-skips-heartbeat'] }, STALE_INDEX.schedule, STALE_INDEX.untilMs);
    const texts = r.sim.cluster.details
      .filter((d) => d.kind === 'read-index-recorded' || d.kind === 'read-served')
      .map((d) => describeDetail(d));
    expect(texts).toEqual([
      "n2 records readIndex 1 for A's get x and answers without a heartbeat round (ReadIndex, §6.4)",
      "n2 answers A's get x with x=1: at readIndex 1, leadership never confirmed",
    ]);
  });
});

describe('the swarm fuzzer and reads', () => {
  it('draws put and get only in runs with the feature', () => {
    const has = (features: readonly ('reads' | 'pre-vote')[]) =>
      [0, 1, 2, 3, 4, 5].some((i) =>
        fuzzRun(3, i, [], 2000, features).schedule.some((a) => a.verb === 'client' && (a.intent.op === 'put' || a.intent.op === 'get')),
      );
    expect(has([])).toBe(false);
    expect(has(['pre-vote'])).toBe(false);
    expect(has(['reads'])).toBe(true);
  });

  it('finds read-index-skips-heartbeat within 200 runs with the register checker, and its replay fails the same way', () => {
    let found = -1;
    for (let i = 0; i < 200 && found < 0; i++) {
      const outcome = fuzzRun(1, i, ['read-index-skips-heartbeat']);
      if (outcome.violation !== null) {
        expect(outcome.violation.invariant).toBe('linearizable-register');
        const replay = new Simulation(outcome.config, parseSchedule(outcome.violation.schedule));
        const checker = attachInvariants(replay);
        replay.advanceTo(outcome.untilMs);
        checker.checkHistory();
        expect(checker.first?.invariant).toBe('linearizable-register');
        found = i;
      }
    }
    expect(found).toBeGreaterThanOrEqual(0);
  });
});
