import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, nodeIdsFor, type SimConfig } from '../src/sim/model/config';
import { CHAPTER_SCHEDULE } from '../src/sim/run/presets';
import { formatSchedule, parseSchedule, type Action } from '../src/sim/model/schedule';
import { MAX_SEEK_MS } from '../src/sim/model/limits';
import {
  MAX_LINK_CHARS,
  decodeLink,
  encodeLink,
  fromBase64Url,
  runFromJson,
  runToJson,
  toBase64Url,
  type RunSpec,
} from '../src/share/link';

const nodeId = (n: number) => fc.integer({ min: 1, max: n }).map((i) => `n${i}`);
const key = fc.constantFrom('job:42', 'k', 'lock/a', 'result');

function actionArb(nodes: number, clients: readonly string[]): fc.Arbitrary<Action> {
  const at = fc.integer({ min: 0, max: 20_000 });
  const bodies: fc.Arbitrary<Record<string, unknown>>[] = [
    nodeId(nodes).map((node) => ({ verb: 'crash', node })),
    nodeId(nodes).map((node) => ({ verb: 'restart', node })),
    fc.constant({ verb: 'heal' }),
    fc
      .tuple(fc.constantFrom('x=1', 'y=2', 'hello', 'a:b'), fc.option(nodeId(nodes), { nil: null }))
      .map(([command, target]) => ({ verb: 'submit', command, target })),
    fc
      .shuffledSubarray(nodeIdsFor(nodes), { minLength: 1 })
      .chain((ids) =>
        fc
          .integer({ min: 1, max: ids.length })
          .map((cut) => ({ verb: 'partition', groups: cut < ids.length ? [ids.slice(0, cut), ids.slice(cut)] : [ids] })),
      ),
    fc.tuple(nodeId(nodes), fc.integer({ min: -90, max: 90 })).map(([node, pct]) => ({ verb: 'drift', node, pct })),
    fc.integer({ min: 0, max: 100 }).map((pct) => ({ verb: 'loss', pct })),
  ];
  if (clients.length > 0) {
    const client = fc.constantFrom(...clients);
    bodies.push(
      fc
        .tuple(client, key, fc.integer({ min: 1, max: 100_000 }))
        .map(([c, k, leaseMs]) => ({ verb: 'client', client: c, intent: { op: 'acquire', key: k, leaseMs } })),
      fc
        .tuple(client, key, fc.constantFrom('A-first', 'v', ''))
        .map(([c, k, value]) => ({ verb: 'client', client: c, intent: { op: 'write', key: k, value } })),
      fc.tuple(client, key).map(([c, k]) => ({ verb: 'client', client: c, intent: { op: 'release', key: k } })),
      fc.tuple(client, fc.integer({ min: 1, max: 50_000 })).map(([c, ms]) => ({ verb: 'client', client: c, intent: { op: 'pause', ms } })),
      client.map((c) => ({ verb: 'client', client: c, intent: { op: 'crash' } })),
      client.map((c) => ({ verb: 'client', client: c, intent: { op: 'restart' } })),
    );
  }
  return fc.tuple(at, fc.oneof(...bodies)).map(([t, body]) => ({ at: t, ...body }) as unknown as Action);
}

const specArb: fc.Arbitrary<RunSpec> = fc
  .record({
    nodes: fc.integer({ min: 1, max: 9 }),
    seed: fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: 2n ** 100n })),
    tMin: fc.integer({ min: 2, max: 500 }),
    spread: fc.integer({ min: 0, max: 500 }),
    lMin: fc.integer({ min: 0, max: 50 }),
    lSpread: fc.integer({ min: 0, max: 50 }),
    clients: fc.constantFrom([], ['A'], ['A', 'B'], ['A', 'B', 'C', 'D']),
    bugs: fc.subarray(['figure8', 'no-fencing', 'forget-vote'] as const),
    t: fc.integer({ min: 0, max: MAX_SEEK_MS }),
    speed: fc.option(fc.constantFrom(0.01, 0.1, 0.25, 1, 2.5, 100), { nil: undefined }),
  })
  .chain((r) => {
    const config: SimConfig = {
      seed: typeof r.seed === 'bigint' && r.seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r.seed) : r.seed,
      nodeIds: nodeIdsFor(r.nodes),
      electionTimeoutMs: [r.tMin, r.tMin + r.spread],
      heartbeatMs: Math.max(1, r.tMin - 1),
      latencyMs: [r.lMin, r.lMin + r.lSpread],
      clientIds: r.clients,
      bugs: r.bugs,
    };
    return fc
      .array(actionArb(r.nodes, r.clients), { maxLength: 60 })
      .map((schedule): RunSpec =>
        r.speed === undefined ? { config, schedule, atMs: r.t } : { config, schedule, atMs: r.t, speed: r.speed },
      );
  });

describe('share links', () => {
  it('the chapter run makes a short, human-readable link', () => {
    const link = encodeLink({ config: DEFAULT_CONFIG, schedule: parseSchedule(CHAPTER_SCHEDULE), atMs: 2253 });
    expect(link.startsWith('v=1&seed=42&s=')).toBe(true);
    expect(link).toContain('crash+n2');
    expect(link.endsWith('&t=2253')).toBe(true);
    expect(link.length).toBeLessThan(300);
  });

  it('link → run → link round-trips exactly for random runs (fast-check)', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const link = encodeLink(spec);
        const decoded = decodeLink(link);
        if (!decoded.ok) throw new Error(`${decoded.error}\n${link}`);
        expect(formatSchedule(decoded.spec.schedule)).toBe(formatSchedule(spec.schedule));
        expect(String(decoded.spec.config.seed)).toBe(String(spec.config.seed));
        expect(decoded.spec.config.nodeIds).toEqual(spec.config.nodeIds);
        expect(decoded.spec.config.electionTimeoutMs).toEqual(spec.config.electionTimeoutMs);
        expect(decoded.spec.config.latencyMs).toEqual(spec.config.latencyMs);
        expect(decoded.spec.config.heartbeatMs).toBe(spec.config.heartbeatMs);
        expect(decoded.spec.config.clientIds).toEqual(spec.config.clientIds);
        expect(decoded.spec.config.bugs).toEqual(spec.config.bugs);
        expect(decoded.spec.atMs).toBe(spec.atMs);
        expect(decoded.spec.speed).toBe(spec.speed);
        expect(encodeLink(decoded.spec)).toBe(link);
      }),
      { numRuns: 500 },
    );
  });

  it('long schedules are compressed and still round-trip', () => {
    const schedule = parseSchedule(Array.from({ length: 400 }, (_, i) => `@${i * 10} submit x=${i}`).join('; '));
    const link = encodeLink({ config: DEFAULT_CONFIG, schedule, atMs: 5 });
    expect(link).toContain('z=');
    expect(link).not.toContain('s=');
    expect(link.length).toBeLessThan(formatSchedule(schedule).length / 2);
    const decoded = decodeLink(link);
    expect(decoded.ok && formatSchedule(decoded.spec.schedule)).toBe(formatSchedule(schedule));
  });

  it.each([
    ['garbage', '%%%garbage', /unknown field|no format version/],
    ['empty', '', /no format version/],
    ['wrong version', 'v=9&seed=1', /format version "9"; this Lockstep reads version 1/],
    ['no seed', 'v=1', /no seed/],
    ['bad seed', 'v=1&seed=-4', /seed must be a non-negative integer, not "-4"/],
    ['unknown verb', 'v=1&seed=1&s=%401+explode+n1', /unknown verb "explode"/],
    ['unknown node', 'v=1&seed=1&s=%401+crash+n7', /node "n7", which is not in the cluster/],
    ['too many nodes', 'v=1&seed=1&nodes=12', /number of nodes must be a whole number from 1 to 9, not "12"/],
    ['heartbeat too long', 'v=1&seed=1&heartbeat=400', /Heartbeat interval must be/],
    ['backwards timeout', 'v=1&seed=1&timeout=300-150', /Election timeout range must be positive and ordered/],
    ['time out of range', 'v=1&seed=1&t=99999999999', /time "99999999999" must be a whole number of ms from 0 to 600000/],
    ['unknown bug', 'v=1&seed=1&bugs=typo', /Unknown bug "typo"/],
    ['truncated compressed schedule', 'v=1&seed=1&z=eJzT', /damaged or truncated/],
    ['both s and z', 'v=1&seed=1&s=%401+heal&z=abc', /both a plain \(s\) and a compressed \(z\)/],
    ['duplicate field', 'v=1&seed=1&seed=2', /gives "seed" more than once/],
    ['oversized', 'v=1&seed=1&s=' + 'a'.repeat(MAX_LINK_CHARS), /at most 65536 are allowed/],
  ])('%s → one clear sentence', (_name, link, message) => {
    const decoded = decodeLink(link);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.error).toMatch(message);
      expect(decoded.error).not.toMatch(/\n/);
      // One sentence, even when it lists every allowed value (the unknown bug's names 24 bugs).
      expect(decoded.error.length).toBeLessThan(700);
    }
  });

  it('a zip bomb is refused, not expanded', () => {
    const bomb = toBase64Url(new Uint8Array(gzipLikeBomb()));
    const decoded = decodeLink(`v=1&seed=1&z=${bomb}`);
    expect(decoded.ok).toBe(false);
  });

  it('never throws on 10,000 random and mutated links (fast-check)', () => {
    const valid = encodeLink({
      config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'] },
      schedule: parseSchedule(CHAPTER_SCHEDULE + '; @2000 client A acquire job:42 5000'),
      atMs: 2253,
    });
    const mutated = fc
      .tuple(fc.nat({ max: valid.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 12 }), fc.constantFrom('cut', 'replace', 'insert'))
      .map(([at, len, text, how]) =>
        how === 'cut'
          ? valid.slice(0, at)
          : how === 'insert'
            ? valid.slice(0, at) + text + valid.slice(at)
            : valid.slice(0, at) + text + valid.slice(at + len),
      );
    const anything = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 200 }), mutated, mutated);
    fc.assert(
      fc.property(anything, (link) => {
        const decoded = decodeLink(link);
        if (decoded.ok) {
          // Whatever decodes must encode again to a link that decodes to the same run.
          const again = decodeLink(encodeLink(decoded.spec));
          expect(again.ok).toBe(true);
        } else {
          expect(typeof decoded.error).toBe('string');
          expect(decoded.error.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 10_000 },
    );
  });

  it('exports and imports a run file with the same content as the link', () => {
    const spec: RunSpec = {
      config: { ...DEFAULT_CONFIG, clientIds: ['A', 'B'], seed: 7 },
      schedule: parseSchedule('@10 client A acquire job:42 100; @20 crash n1'),
      atMs: 99,
    };
    const file = runToJson(spec);
    expect(JSON.parse(file)).toMatchObject({
      format: 'lockstep-run',
      version: 1,
      seed: '7',
      clients: 'AB',
      schedule: ['@10 client A acquire job:42 100', '@20 crash n1'],
      t: 99,
    });
    const back = runFromJson(file);
    expect(back.ok && encodeLink(back.spec)).toBe(encodeLink(spec));
    expect(runFromJson('not json')).toMatchObject({ ok: false, error: expect.stringMatching(/not JSON/) });
    expect(runFromJson('{"format":"other"}')).toMatchObject({ ok: false, error: expect.stringMatching(/not a Lockstep run file/) });
    expect(runFromJson('{"format":"lockstep-run","version":1,"seed":"1","schedule":[3]}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/list of actions/),
    });
  });

  it('carries the playback speed as an optional view field, and refuses a bad one', () => {
    const spec: RunSpec = { config: DEFAULT_CONFIG, schedule: [], atMs: 10, speed: 0.25 };
    const link = encodeLink(spec);
    expect(link).toBe('v=1&seed=42&t=10&speed=0.25');
    expect(decodeLink(link)).toEqual({ ok: true, spec });
    expect(decodeLink('v=1&seed=42&t=10')).toEqual({ ok: true, spec: { config: DEFAULT_CONFIG, schedule: [], atMs: 10 } });
    for (const bad of ['0', '101', 'fast', '-1', '1e2', '0.0001']) {
      expect(decodeLink(`v=1&seed=42&speed=${bad}`)).toEqual({
        ok: false,
        error: `This link's speed "${bad}" must be a number from 0.002 to 100 (simulated ms per real ms).`,
      });
    }
    const back = runFromJson(runToJson(spec));
    expect(back.ok && back.spec.speed).toBe(0.25);
  });

  it('carries the diagram view (ring, both, space-time) as an optional view field, and refuses a bad one', () => {
    const spec: RunSpec = { config: DEFAULT_CONFIG, schedule: [], atMs: 1200, view: 'time' };
    const link = encodeLink(spec);
    expect(link).toBe('v=1&seed=42&t=1200&view=time');
    expect(decodeLink(link)).toEqual({ ok: true, spec });
    expect(decodeLink('v=1&seed=42&t=5&speed=2&view=split')).toEqual({
      ok: true,
      spec: { config: DEFAULT_CONFIG, schedule: [], atMs: 5, speed: 2, view: 'split' },
    });
    expect(decodeLink('v=1&seed=42&view=3d')).toEqual({ ok: false, error: 'This link\'s view "3d" must be one of ring, split, time.' });
  });

  it('base64url round-trips bytes and rejects impossible lengths', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
    );
    expect(fromBase64Url('A')).toBeNull();
  });
});

/** 2 MB of one character deflates to a couple of KB. */
function gzipLikeBomb(): Uint8Array {
  return deflateSync(new Uint8Array(2_000_000).fill(64));
}
