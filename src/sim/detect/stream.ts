/**
 * The failure detectors' own stream (docs/semantics.md, "Failure detectors"): CPython's
 * `random.Random(2**130 + seed)`. The run's main stream keeps drawing exactly what it draws in a
 * fixed-timeout run of the same configuration — election timeouts and one latency per message —
 * and everything only a detector decides (a campaign's stagger, gossip peers and round phases)
 * comes from here, so choosing a detector moves no other draw until the runs diverge by behaviour.
 */
import { CPythonRandom, parseSeed, type Seed } from '../model/prng';

export function detectorRandom(seed: Seed): CPythonRandom {
  const base = parseSeed(seed);
  if (typeof base === 'string') throw new RangeError(base.charAt(0).toUpperCase() + base.slice(1) + '.');
  return new CPythonRandom((1n << 130n) + base);
}
