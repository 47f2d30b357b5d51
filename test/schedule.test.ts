// The schedule language and configuration checks: every bad input gets one sentence naming
// the action (by number, text and position) or the setting, and what is allowed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../src/sim/net/cluster';
import { ConfigError, DEFAULT_CONFIG, checkConfig, type SimConfig } from '../src/sim/model/config';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { ScheduleError, checkSchedule, formatAction, formatSchedule, parseSchedule, type Action } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

function parseError(text: string): string {
  try {
    parseSchedule(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ScheduleError);
    return (error as Error).message;
  }
  throw new Error(`"${text}" parsed without an error`);
}

describe('parseSchedule', () => {
  it("parses the chapter's demo into eight actions", () => {
    const actions = parseSchedule(CHAPTER_SCHEDULE);
    expect(actions).toHaveLength(8);
    expect(actions[0]).toEqual({ at: 1168, verb: 'crash', node: 'n2' });
    expect(actions[4]).toEqual({ at: 1560, verb: 'partition', groups: [['n2', 'n3']] });
    expect(actions[5]).toEqual({ at: 1753, verb: 'submit', command: 'x=3', target: 'n3' });
    expect(actions[7]).toEqual({ at: 1953, verb: 'heal' });
  });

  it('accepts newlines as separators, extra spaces and an empty schedule', () => {
    expect(parseSchedule('')).toEqual([]);
    expect(parseSchedule(' ; ;\n')).toEqual([]);
    expect(parseSchedule('@10   crash   n1\n@20 partition n1 , n2 |n3')).toEqual([
      { at: 10, verb: 'crash', node: 'n1' },
      { at: 20, verb: 'partition', groups: [['n1', 'n2'], ['n3']] },
    ]);
  });

  const errors: { name: string; text: string; message: RegExp }[] = [
    {
      name: 'an unknown verb',
      text: '@100 explode n1',
      message:
        /^Action 1 \("@100 explode n1", at character 1\) has unknown verb "explode"; the verbs are crash, restart, partition, heal, submit, client, drift, loss, delay, duplicate, reorder, calm, timeout, transfer, add, remove, propose, clockjump, slow\.$/,
    },
    {
      name: 'a missing @time',
      text: 'crash n1',
      message: /^Action 1 \("crash n1", at character 1\) must start with @ and a time in ms, like "@1168 crash n2"\.$/,
    },
    {
      name: 'a time that is not a number',
      text: '@1x crash n1',
      message: /^Action 1 .* has time "@1x"; a time is a whole number of ms from 0 to 100000000\.$/,
    },
    { name: 'a negative time', text: '@-5 crash n1', message: /has time "@-5"; a time is a whole number of ms from 0/ },
    {
      name: 'a time past the limit',
      text: '@100000001 crash n1',
      message: /has time "@100000001"; a time is a whole number of ms from 0 to 100000000\./,
    },
    { name: 'no verb', text: '@7', message: /^Action 1 \("@7", at character 1\) has no verb; the verbs are crash,/ },
    {
      name: 'a crash without a node',
      text: '@5 crash',
      message: /^Action 1 \("@5 crash", at character 1\) is not of the form "@<ms> crash <node>"\.$/,
    },
    { name: 'a crash of two nodes', text: '@5 crash n1 n2', message: /is not of the form "@<ms> crash <node>"/ },
    { name: 'heal with an argument', text: '@5 heal now', message: /is not of the form "@<ms> heal"/ },
    {
      name: 'a partition without groups',
      text: '@5 partition',
      message: /names no groups; write it like "@<ms> partition n1,n2 \| n3,n4"\./,
    },
    {
      name: 'a partition with an empty name',
      text: '@5 partition n1,,n2',
      message: /has an empty name in a group; write groups of node or client ids/,
    },
    { name: 'a partition with an empty group', text: '@5 partition n1 |', message: /has an empty name in a group/ },
    { name: 'a partition with a malformed id', text: '@5 partition n1,n-2', message: /has "n-2" in a group/ },
    {
      name: 'a node in two groups',
      text: '@5 partition n1,n2 | n2,n3',
      message:
        /^Action 1 \("@5 partition n1,n2 \| n2,n3", at character 1\) names n2 in more than one group; each node may be in one group\.$/,
    },
    { name: 'a submit without a command', text: '@5 submit', message: /is not of the form "@<ms> submit <command> \[to <node>\]"/ },
    { name: 'a submit to nobody', text: '@5 submit x=1 to', message: /is not of the form "@<ms> submit <command> \[to <node>\]"/ },
    { name: 'a loss past 100%', text: '@5 loss 150', message: /has loss "150"; it must be a number of percent from 0 to 100\./ },
    { name: 'a drift past -90%', text: '@5 drift n1 -95', message: /has drift "-95"; it must be a number of percent from -90 to 90\./ },
  ];
  for (const e of errors) {
    it(`names the action and what is allowed for ${e.name}`, () => {
      expect(parseError(e.text)).toMatch(e.message);
    });
  }

  const positions: { text: string; action: number; quoted: string; at: number }[] = [
    { text: '@1 heal; @2 bogus', action: 2, quoted: '@2 bogus', at: 10 },
    { text: '@1 heal;\n  @2 crash', action: 2, quoted: '@2 crash', at: 12 },
    { text: ';; @1 heal ;   @3 explode', action: 2, quoted: '@3 explode', at: 16 },
  ];
  for (const p of positions) {
    it(`counts actions and characters: ${JSON.stringify(p.text)} fails at action ${p.action}, character ${p.at}`, () => {
      expect(parseError(p.text)).toMatch(new RegExp(`^Action ${p.action} \\("${p.quoted}", at character ${p.at}\\)`));
      expect(p.text.slice(p.at - 1).startsWith(p.quoted)).toBe(true);
    });
  }

  it('shortens a long action in the message', () => {
    const long = `@5 submit ${'x'.repeat(100)} extra`;
    const message = parseError(long);
    expect(message).toMatch(/^Action 1 \("@5 submit x+\.\.\.", at character 1\)/);
    expect(message.length).toBeLessThan(250);
  });
});

describe('checkSchedule against a configuration', () => {
  const cases: { name: string; text: string; problem: string | null }[] = [
    { name: 'the chapter demo on 5 nodes', text: CHAPTER_SCHEDULE, problem: null },
    {
      name: 'a crash of an unknown node',
      text: '@5 crash n9',
      problem: 'Action 1 ("@5 crash n9") names node "n9", which is not in the cluster; the nodes are n1, n2, n3, n4, n5.',
    },
    {
      name: 'a submit to an unknown node',
      text: '@1 heal; @5 submit x=1 to n7',
      problem: 'Action 2 ("@5 submit x=1 to n7") names node "n7", which is not in the cluster; the nodes are n1, n2, n3, n4, n5.',
    },
    {
      name: 'an unknown node in a partition',
      text: '@5 partition n1,n9',
      problem: 'Action 1 ("@5 partition n1,n9") names "n9", which is no node or client of this run; the nodes are n1, n2, n3, n4, n5.',
    },
    {
      name: 'a client the run does not have',
      text: '@5 client A acquire k',
      problem: 'Action 1 ("@5 client A acquire k 10000") names client A, which this run does not have; add it with --clients.',
    },
  ];
  for (const c of cases) {
    it(`${c.problem === null ? 'accepts' : 'refuses'} ${c.name}`, () => {
      expect(checkSchedule(parseSchedule(c.text), DEFAULT_CONFIG)).toBe(c.problem);
    });
  }

  it('a Simulation refuses an unchecked schedule with the same sentence', () => {
    expect(() => new Simulation(DEFAULT_CONFIG, parseSchedule('@5 crash n9'))).toThrow(/names node "n9", which is not in the cluster/);
  });
});

describe('formatSchedule and parseSchedule round-trip', () => {
  const texts = [
    CHAPTER_SCHEDULE,
    '@0 heal',
    '@5 partition n1 | n2,n3 | n4',
    '@10 drift n3 -12.5; @10 loss 2.25; @20 drift n1 50',
    '@1000 client A acquire job:42 10000; @1001 client A write result=A-first; @1002 client B release job:42',
    '@3 client C pause 11000; @4 client C crash; @5 client C restart',
  ];
  for (const text of texts) {
    it(`"${text.slice(0, 50)}${text.length > 50 ? '...' : ''}" formats back to itself`, () => {
      const actions = parseSchedule(text);
      expect(formatSchedule(actions)).toBe(text);
      expect(parseSchedule(formatSchedule(actions))).toEqual(actions);
    });
  }

  it('a client acquire without a lease gets the default lease, written out', () => {
    expect(formatSchedule(parseSchedule('@1 client A acquire k'))).toBe('@1 client A acquire k 10000');
  });

  const id = fc.constantFrom('n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9');
  const actionArb: fc.Arbitrary<Action> = fc.oneof(
    fc.record({ at: fc.nat({ max: 100_000_000 }), verb: fc.constantFrom('crash' as const, 'restart' as const), node: id }),
    fc.record({ at: fc.nat({ max: 100_000_000 }), verb: fc.constant('heal' as const) }),
    fc.record({
      at: fc.nat({ max: 100_000_000 }),
      verb: fc.constant('partition' as const),
      groups: fc
        .uniqueArray(id, { minLength: 1, maxLength: 9 })
        .chain((ids) =>
          fc.integer({ min: 1, max: ids.length }).map((cut) => (cut === ids.length ? [ids] : [ids.slice(0, cut), ids.slice(cut)])),
        ),
    }),
    fc.record({
      at: fc.nat({ max: 100_000_000 }),
      verb: fc.constant('submit' as const),
      command: fc.stringMatching(/^[a-z][a-z0-9=._-]{0,20}$/),
      target: fc.option(id, { nil: null }),
    }),
    fc.record({
      at: fc.nat({ max: 100_000_000 }),
      verb: fc.constant('loss' as const),
      pct: fc.integer({ min: 0, max: 10000 }).map((n) => n / 100),
    }),
    fc.record({
      at: fc.nat({ max: 100_000_000 }),
      verb: fc.constant('drift' as const),
      node: id,
      pct: fc.integer({ min: -9000, max: 9000 }).map((n) => n / 100),
    }),
  );

  it('holds for arbitrary action lists (property)', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 30 }), (actions) => {
        const text = formatSchedule(actions);
        expect(parseSchedule(text)).toEqual(actions);
        expect(formatSchedule(parseSchedule(text))).toBe(text);
        expect(actions.map(formatAction).join('; ')).toBe(text);
      }),
      { numRuns: 500, seed: 42 },
    );
  });
});

describe('configuration checks', () => {
  const config = (partial: Partial<SimConfig>): SimConfig => ({ ...DEFAULT_CONFIG, ...partial });
  const cases: { name: string; config: SimConfig; problem: RegExp | null }[] = [
    { name: 'the default (the chapter)', config: DEFAULT_CONFIG, problem: null },
    { name: 'one node', config: config({ nodeIds: ['n1'] }), problem: null },
    { name: 'nine nodes', config: config({ nodeIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] }), problem: null },
    { name: 'no nodes', config: config({ nodeIds: [] }), problem: /^A cluster has 1 to 9 nodes, not 0\.$/ },
    {
      name: 'ten nodes',
      config: config({ nodeIds: Array.from({ length: 10 }, (_, i) => `n${i}`) }),
      problem: /^A cluster has 1 to 9 nodes, not 10\.$/,
    },
    { name: 'duplicate ids', config: config({ nodeIds: ['n1', 'n2', 'n1'] }), problem: /^Node ids must be distinct\.$/ },
    { name: 'a malformed id', config: config({ nodeIds: ['N1'] }), problem: /^Node id "N1" must be a lowercase letter/ },
    {
      name: 'a zero timeout',
      config: config({ electionTimeoutMs: [0, 300] }),
      problem: /^Election timeout range must be positive and ordered .*not 0-300\.$/,
    },
    {
      name: 'a reversed timeout range',
      config: config({ electionTimeoutMs: [300, 150] }),
      problem: /^Election timeout range must be positive and ordered \(min <= max, at most 60000 ms\), not 300-150\.$/,
    },
    { name: 'equal timeouts (the split-vote control)', config: config({ electionTimeoutMs: [200, 200] }), problem: null },
    {
      name: 'a heartbeat as long as the minimum timeout',
      config: config({ heartbeatMs: 150 }),
      problem: /^Heartbeat interval must be .*shorter than the minimum election timeout \(150 ms\), not 150\.$/,
    },
    { name: 'a zero heartbeat', config: config({ heartbeatMs: 0 }), problem: /^Heartbeat interval must be a whole number of ms, positive/ },
    { name: 'a fractional heartbeat', config: config({ heartbeatMs: 2.5 }), problem: /^Heartbeat interval must be a whole number/ },
    {
      name: 'a negative latency',
      config: config({ latencyMs: [-1, 5] }),
      problem: /^Latency range must be non-negative and ordered .*not -1-5\.$/,
    },
    {
      name: 'a reversed latency range',
      config: config({ latencyMs: [15, 5] }),
      problem: /^Latency range must be non-negative and ordered \(min <= max, at most 60000 ms\), not 15-5\.$/,
    },
    { name: 'zero latency', config: config({ latencyMs: [0, 0] }), problem: null },
    { name: 'a negative seed', config: config({ seed: -1 }), problem: /^A seed must be a non-negative integer/ },
    { name: 'an unknown bug', config: config({ bugs: ['nope' as never] }), problem: /^Unknown bug "nope"; the bugs are figure8, / },
  ];
  for (const c of cases) {
    it(`${c.problem === null ? 'accepts' : 'refuses'} ${c.name}`, () => {
      const problem = checkConfig(c.config);
      if (c.problem === null) {
        expect(problem).toBeNull();
        expect(() => new Cluster(c.config)).not.toThrow();
      } else {
        expect(problem).toMatch(c.problem);
        expect(problem?.split(/(?<=\.) /)).toHaveLength(1); // one sentence
        expect(() => new Cluster(c.config)).toThrow(ConfigError);
        expect(() => new Simulation(c.config)).toThrow(problem as string);
      }
    });
  }
});
