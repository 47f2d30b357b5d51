/**
 * A precise network's latency draws (docs/semantics.md, "Time" and "Network models"): one draw
 * per message sent, from the run's one stream, as the chapter draws one `randint` per message, in
 * whole microseconds. The chapter's whole-millisecond uniform range never comes here: the cluster
 * draws it itself, exactly as before.
 *
 * - uniform `A-B` with a fraction: `randint(A·1000, B·1000)` µs; a range of whole ms in a precise
 *   run draws `randint(A, B)` whole ms (so such a run is the chapter's run, draw for draw);
 * - lognormal(median m, spread s): CPython's `lognormvariate(ln m, s)` (its `normalvariate`, the
 *   Kinderman–Monahan ratio method, two or more `random()` per draw), rounded to µs and cut at
 *   m·e^(4s) so every latency has a bound;
 * - regions: half the round trip of the two ends' regions, ±10%: `randint(0.9·rtt/2, 1.1·rtt/2)` µs.
 */
import type { SimConfig } from '../model/config';
import { LOGNORMAL_CUT_SIGMAS, MAX_LATENCY_MS, REGION_JITTER, placeActors } from '../model/network';
import type { CPythonRandom } from '../model/prng';

/** CPython's NV_MAGICCONST: 4·e^(-1/2)/√2. */
const NV_MAGICCONST = (4 * Math.exp(-0.5)) / Math.sqrt(2);

/** CPython's `random.normalvariate(mu, sigma)`, draw for draw. */
export function normalvariate(rng: CPythonRandom, mu: number, sigma: number): number {
  for (;;) {
    const u1 = rng.random();
    const u2 = 1 - rng.random();
    const z = (NV_MAGICCONST * (u1 - 0.5)) / u2;
    const zz = (z * z) / 4;
    if (zz <= -Math.log(u2)) return mu + z * sigma;
  }
}

/** CPython's `random.lognormvariate(mu, sigma)`. */
export function lognormvariate(rng: CPythonRandom, mu: number, sigma: number): number {
  return Math.exp(normalvariate(rng, mu, sigma));
}

type Mode =
  | { readonly kind: 'uniform-ms'; readonly a: number; readonly b: number }
  | { readonly kind: 'uniform-us'; readonly a: number; readonly b: number }
  | { readonly kind: 'lognormal'; readonly mu: number; readonly sigma: number; readonly capUs: number }
  | {
      readonly kind: 'regions';
      readonly regionIndex: ReadonlyMap<string, number>;
      /** Where an actor the placement does not know sits: a server added later (membership) joins the first region written. */
      readonly first: number;
      readonly lo: Int32Array;
      readonly hi: Int32Array;
      readonly n: number;
    };

export class LatencyDraws {
  private readonly mode: Mode;

  constructor(config: SimConfig) {
    if (config.regions !== undefined) {
      const { matrix, regionOf } = placeActors(config.regions, config.nodeIds, config.clientIds);
      const names = matrix.regions;
      const n = names.length;
      const lo = new Int32Array(n * n);
      const hi = new Int32Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const oneWayUs = ((matrix.rttMs(names[i], names[j]) ?? 0) * 1000) / 2;
          lo[i * n + j] = Math.round(oneWayUs * (1 - REGION_JITTER));
          hi[i * n + j] = Math.round(oneWayUs * (1 + REGION_JITTER));
        }
      }
      const regionIndex = new Map<string, number>();
      for (const [id, region] of regionOf) regionIndex.set(id, names.indexOf(region));
      const first = Math.max(0, names.indexOf(config.regions.places[0]?.region ?? names[0]));
      this.mode = { kind: 'regions', regionIndex, first, lo, hi, n };
    } else if (config.latencyLognormal !== undefined) {
      const { medianMs, spread } = config.latencyLognormal;
      const capMs = Math.min(MAX_LATENCY_MS, medianMs * Math.exp(LOGNORMAL_CUT_SIGMAS * spread));
      this.mode = { kind: 'lognormal', mu: Math.log(medianMs), sigma: spread, capUs: Math.round(capMs * 1000) };
    } else {
      const [a, b] = config.latencyMs;
      this.mode =
        Number.isInteger(a) && Number.isInteger(b)
          ? { kind: 'uniform-ms', a, b }
          : { kind: 'uniform-us', a: Math.round(a * 1000), b: Math.round(b * 1000) };
    }
  }

  /** One message's latency from `src` to `dst`, in µs. */
  drawUs(rng: CPythonRandom, src: string, dst: string): number {
    const m = this.mode;
    switch (m.kind) {
      case 'uniform-ms':
        return rng.randint(m.a, m.b) * 1000;
      case 'uniform-us':
        return rng.randint(m.a, m.b);
      case 'lognormal': {
        const us = Math.round(lognormvariate(rng, m.mu, m.sigma) * 1000);
        return us > m.capUs ? m.capUs : us;
      }
      case 'regions': {
        const i = m.regionIndex.get(src) ?? m.first;
        const j = m.regionIndex.get(dst) ?? m.first;
        const k = i * m.n + j;
        return rng.randint(m.lo[k], m.hi[k]);
      }
    }
  }
}
