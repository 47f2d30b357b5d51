/**
 * Issue 28's models under the fuzzer (`npm run fuzz -- --network`): a run's network (latencies in
 * fractions of a ms, a lognormal, or regions over a round-trip preset), its failure detector
 * (phi-accrual, gossip, or the fixed timeout with a lock takeover threshold), a persist delay
 * before replies, and slow phases of the network. All of it is drawn from a stream of its own —
 * CPython's `random.Random(2**131 + (seed << 32) + run)` — after the swarm's own draws, so the
 * run's cluster, timings and faults are the ones it had without it, and a run without `--network`
 * is what it was, draw for draw. Only for the chapter's lock service, which the detectors belong to.
 */
import { checkConfig, type SimConfig } from '../../model/config';
import type { DetectorConfig } from '../../model/detector';
import { RTT_PRESETS } from '../../model/network';
import { CPythonRandom, parseSeed, type Seed } from '../../model/prng';
import type { ActionBody } from '../../model/schedule';

/** Slow phases come this far apart (ms), each this long, with one of these factors. */
const SLOW_GAP_MS: readonly [number, number] = [500, 4000];
const SLOW_FOR_MS: readonly [number, number] = [100, 2500];
const SLOW_FACTORS: readonly number[] = [1.5, 2, 3, 5];

export function networkRandom(seed: Seed, run: number): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 131n) + (base << 32n) + BigInt(run));
}

/** CPython's `uniform(a, b)`. */
const uniform = (rng: CPythonRandom, a: number, b: number) => a + (b - a) * rng.random();

/** Microseconds, as the precise network keeps them. */
const us = (ms: number) => Math.round(ms * 1000) / 1000;

/** A run's network, detector and persist delay, and the slow phases it will meet. */
export class NetworkDraws {
  readonly config: SimConfig;
  /** What was drawn, in words, for the fuzzer's report. */
  readonly parts: readonly string[];
  nextAtMs: number;

  constructor(
    private readonly rng: CPythonRandom,
    base: SimConfig,
  ) {
    const parts: string[] = [];
    let config: SimConfig = base;
    // The network: one of four, the chapter's uniform whole-ms range kept a quarter of the time.
    const net = rng.randint(0, 3);
    if (net === 1) {
      const lo = us(uniform(rng, 0.05, 5));
      config = { ...config, latencyMs: [lo, us(lo + uniform(rng, 0, 5))] };
      parts.push('fractional latency');
    } else if (net === 2) {
      config = {
        ...config,
        latencyLognormal: { medianMs: us(uniform(rng, 0.2, 20)), spread: Math.round(uniform(rng, 0.1, 1.5) * 100) / 100 },
      };
      parts.push('lognormal latency');
    } else if (net === 3) {
      config = { ...config, regions: { rtt: RTT_PRESETS[rng.randint(0, RTT_PRESETS.length - 1)], places: [] } };
      parts.push('regions');
    }
    // The detector: none (the chapter's timer), phi-accrual, gossip, or a takeover threshold.
    const kind = rng.randint(0, 3);
    let detector: DetectorConfig | undefined;
    if (kind === 1) detector = { kind: 'phi-accrual', threshold: rng.randint(1, 12), window: rng.randint(5, 100) };
    else if (kind === 2) detector = { kind: 'gossip', fanout: rng.randint(1, 4) };
    else if (kind === 3 && config.clientIds.length > 0) detector = { kind: 'fixed', takeoverMs: rng.randint(50, 3000) };
    if (detector !== undefined) {
      config = { ...config, detector };
      parts.push(`detector ${detector.kind}`);
    }
    if (rng.random() < 0.3) {
      config = { ...config, persistMs: us(uniform(rng, 0.2, 10)) };
      parts.push('persist');
    }
    // A draw the lab refuses (none is expected) falls back to the run as the swarm drew it.
    if (checkConfig(config) !== null) {
      config = base;
      parts.length = 0;
    }
    this.config = config;
    this.parts = parts;
    this.nextAtMs = rng.randint(SLOW_GAP_MS[0], SLOW_GAP_MS[1]);
  }

  /** The slow phase due now, and when the next one is. */
  take(nowMs: number): ActionBody {
    const factor = SLOW_FACTORS[this.rng.randint(0, SLOW_FACTORS.length - 1)];
    const forMs = this.rng.randint(SLOW_FOR_MS[0], SLOW_FOR_MS[1]);
    this.nextAtMs = nowMs + forMs + this.rng.randint(SLOW_GAP_MS[0], SLOW_GAP_MS[1]);
    return { verb: 'slow', factor, forMs };
  }
}
