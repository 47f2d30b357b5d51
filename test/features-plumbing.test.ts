// The feature plumbing: one list of names, checked at every edge (config, CLI, link, run file)
// with one sentence naming what is allowed; runs with features replay exactly.
import { describe, expect, it } from 'vitest';
import { runSimCli } from '../src/cli/simCli';
import { decodeLink, encodeLink, runFromJson, runToJson } from '../src/share/link';
import { DEFAULT_CONFIG, checkConfig, configFromFields } from '../src/sim/model/config';
import { FEATURES, FEATURE_NAMES } from '../src/sim/model/features';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';

// Every sentence about a bad name lists what is allowed, in the list's order (pinned just below).
const ALLOWED = `the features are ${FEATURE_NAMES.join(', ')}.`;

describe('the features field', () => {
  it('is one list of names', () => {
    expect(FEATURE_NAMES).toEqual([
      'pre-vote',
      'check-quorum',
      'leader-noop',
      'snapshots',
      'reads',
      'fast-backup',
      'transfer',
      'membership',
    ]);
  });

  it('reads a comma list into the list order, each once', () => {
    const c = configFromFields(DEFAULT_CONFIG, { features: 'leader-noop, pre-vote,pre-vote' });
    expect(typeof c === 'string' ? c : c.features).toEqual(['pre-vote', 'leader-noop']);
  });

  it.each([
    [{ features: 'prevote' }, `Unknown feature "prevote" in the list of features; ${ALLOWED}`],
    [{ bugs: 'pre-vote-raises-term' }, 'Bug "pre-vote-raises-term" is a bug of the feature pre-vote; switch on pre-vote too.'],
  ])('refuses %j with one sentence', (fields, sentence) => {
    expect(configFromFields(DEFAULT_CONFIG, fields)).toBe(sentence);
  });

  it('checkConfig refuses an unknown or repeated feature in a config object', () => {
    expect(checkConfig({ ...DEFAULT_CONFIG, features: ['fast' as never] })).toBe(`Unknown feature "fast"; ${ALLOWED}`);
    expect(checkConfig({ ...DEFAULT_CONFIG, features: ['pre-vote', 'pre-vote'] })).toBe('Each feature may be named only once.');
  });
});

describe('--features on the command line', () => {
  it('switches features on and names them in the header', () => {
    const r = runSimCli(['--features', 'pre-vote,check-quorum', '--until', '500']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      '5 nodes, election timeout 150-300 ms, heartbeat every 50 ms, latency 5-15 ms, seed 42, features pre-vote, check-quorum',
    );
  });

  it('a bad name exits 2 with one sentence naming the flag', () => {
    const r = runSimCli(['--features', 'pre-vote,joint-consensus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Unknown feature "joint-consensus" in --features; ${ALLOWED}\n`);
  });

  it('cannot be combined with --link', () => {
    const r = runSimCli(['--link', '?v=1&seed=42&t=10', '--features', 'pre-vote']);
    expect(r.stderr).toBe('--link already gives the run, so it cannot be combined with --features.\n');
  });

  it("the header of a run without features is the chapter's", () => {
    expect(runSimCli(['--until', '10']).stdout.split('\n')[0]).toBe(
      '5 nodes, election timeout 150-300 ms, heartbeat every 50 ms, latency 5-15 ms, seed 42',
    );
  });
});

describe('features= in share links', () => {
  const spec = {
    config: { ...DEFAULT_CONFIG, features: ['pre-vote', 'leader-noop'] as const },
    schedule: parseSchedule('@500 crash n2'),
    atMs: 900,
  };

  it('round-trips, and a link without features decodes exactly as before', () => {
    const text = encodeLink({ ...spec, config: { ...spec.config, features: [...spec.config.features] } });
    expect(text).toContain('features=pre-vote%2Cleader-noop');
    const back = decodeLink(text);
    expect(back.ok && back.spec.config.features).toEqual(['pre-vote', 'leader-noop']);
    const old = decodeLink('?v=1&seed=42&s=@1168+crash+n2&t=1500');
    expect(old.ok && old.spec.config).toEqual(DEFAULT_CONFIG);
    expect(old.ok && 'features' in old.spec.config).toBe(false);
    expect(encodeLink({ config: DEFAULT_CONFIG, schedule: [], atMs: 0 })).not.toContain('features');
  });

  it('a bad feature gets one sentence', () => {
    const d = decodeLink('?v=1&seed=42&features=pre-vote,joint-consensus');
    expect(d.ok ? null : d.error).toBe(
      `This link's configuration is invalid: Unknown feature "joint-consensus" in the list of features; ${ALLOWED}`,
    );
  });

  it('run files carry features too', () => {
    const json = runToJson({ ...spec, config: { ...spec.config, features: [...spec.config.features] } });
    expect(JSON.parse(json).features).toBe('pre-vote,leader-noop');
    const back = runFromJson(json);
    expect(back.ok && back.spec.config.features).toEqual(['pre-vote', 'leader-noop']);
  });

  it('a run with features replays exactly from its link', () => {
    const config = { ...DEFAULT_CONFIG, features: [...FEATURE_NAMES] };
    const schedule = parseSchedule('@600 partition n1 | n2,n3,n4,n5; @1500 heal; @1700 submit x=1');
    const a = new Simulation(config, schedule);
    a.advanceTo(3000);
    const d = decodeLink(encodeLink({ config, schedule, atMs: 3000 }));
    if (!d.ok) throw new Error(d.error);
    const b = new Simulation(d.spec.config, d.spec.schedule);
    b.advanceTo(d.spec.atMs);
    expect(b.cluster.events.map((e) => e.line)).toEqual(a.cluster.events.map((e) => e.line));
    expect(b.cluster.rng.random()).toBe(a.cluster.rng.random());
  });
});

describe("a feature's invariants", () => {
  it('count only in runs with the feature on', async () => {
    const { INVARIANT_IDS, invariantsFor } = await import('../src/sim/check/invariants');
    const { LOCK_INVARIANTS } = await import('../src/sim/model/lockServices');
    // The other lock services' invariants (issue 26) are checked only in their runs, never in the chapter's.
    const chapters = INVARIANT_IDS.filter((id) => !LOCK_INVARIANTS.some((l) => l.id === id));
    expect(invariantsFor(DEFAULT_CONFIG)).toHaveLength(chapters.length - FEATURES.flatMap((f) => f.invariants.map((i) => i.id)).length);
    expect(invariantsFor({ ...DEFAULT_CONFIG, features: ['check-quorum'] })).toContain('check-quorum-step-down');
    expect(invariantsFor({ ...DEFAULT_CONFIG, features: ['check-quorum'] })).not.toContain('pre-vote-term');
    expect(invariantsFor({ ...DEFAULT_CONFIG, features: [...FEATURE_NAMES] })).toEqual(chapters);
  });
});
