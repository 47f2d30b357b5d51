/**
 * The phi-accrual failure detector's arithmetic (Hayashibara, Défago, Yared and Katayama, "The φ
 * Accrual Failure Detector", SRDS 2004). A watcher keeps the last `window` inter-arrival times of
 * a peer's heartbeats and, at any moment, outputs
 *
 *   φ(t) = −log10(P(a heartbeat arrives later than t after the last one))
 *
 * under a normal distribution with the window's mean and standard deviation: φ = 1 means a 10%
 * chance the peer is only late, φ = 8 one in 10^8. Callers pick the threshold Φ. The normal's tail
 * is taken from Bowling et al.'s logistic approximation (J. Industrial Engineering and
 * Management 2009), as Akka's detector does: P(Y > y) ≈ 1 / (1 + e^(1.5976·y + 0.070566·y³)).
 *
 * Since φ depends on the elapsed time only through y = (elapsed − mean) / σ, the moment φ crosses
 * Φ is mean + y(Φ)·σ after the last heartbeat: an adaptive timeout. A slower but steady network
 * raises the mean and leaves σ alone, so it "raises latency without raising suspicion"; a jittery
 * one raises σ and with it the timeout.
 */

/** P(Y > y) for a standard normal Y, by the logistic approximation. */
export function normalTail(y: number): number {
  return 1 / (1 + Math.exp(1.5976 * y + 0.070566 * y * y * y));
}

/** φ after `elapsedMs` without a heartbeat, for inter-arrivals of this mean and standard deviation. */
export function phiOf(elapsedMs: number, meanMs: number, stdMs: number): number {
  const tail = normalTail((elapsedMs - meanMs) / stdMs);
  // Past ~1e-300 the double underflows: φ is then as large as it gets.
  return tail <= 0 ? Infinity : -Math.log10(tail);
}

/** The y at which φ reaches `threshold` (φ grows with y, so bisection finds it to 1e-9). */
export function crossingY(threshold: number): number {
  let lo = -20;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-9; i++) {
    const mid = (lo + hi) / 2;
    if (-Math.log10(normalTail(mid)) >= threshold) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The last `size` inter-arrival times, with their running sum and sum of squares. Seeded as
 * Akka's is at the first heartbeat: two samples one quarter of the expected interval either side
 * of it (mean = the interval, σ = a quarter of it), until real ones replace them.
 */
export class ArrivalWindow {
  private readonly samples: number[] = [];
  private next = 0;
  private sum = 0;
  private sumSq = 0;
  /** The last heartbeat's time (ms, to the µs), or -1 before the first. */
  lastMs = -1;

  constructor(
    private readonly size: number,
    expectedMs: number,
  ) {
    this.add(expectedMs - expectedMs / 4);
    this.add(expectedMs + expectedMs / 4);
  }

  private add(sample: number): void {
    if (this.samples.length < this.size) this.samples.push(sample);
    else {
      const old = this.samples[this.next];
      this.sum -= old;
      this.sumSq -= old * old;
      this.samples[this.next] = sample;
      this.next = (this.next + 1) % this.size;
    }
    this.sum += sample;
    this.sumSq += sample * sample;
  }

  /** A heartbeat arrived at `atMs`: the gap since the last one joins the window. */
  heartbeat(atMs: number): void {
    if (this.lastMs >= 0) this.add(atMs - this.lastMs);
    this.lastMs = atMs;
  }

  get meanMs(): number {
    return this.sum / this.samples.length;
  }

  /** σ of the window, never below `minStdMs` (so a perfectly regular peer is not convicted by a microsecond's delay). */
  stdMs(minStdMs: number): number {
    const n = this.samples.length;
    const mean = this.sum / n;
    const variance = Math.max(0, this.sumSq / n - mean * mean);
    return Math.max(minStdMs, Math.sqrt(variance));
  }

  /** How long after the last heartbeat φ reaches the threshold whose crossing is at `y`. */
  timeoutMs(y: number, minStdMs: number): number {
    return this.meanMs + y * this.stdMs(minStdMs);
  }

  /** φ at `nowMs`. */
  phiAt(nowMs: number, minStdMs: number): number {
    return this.lastMs < 0 ? 0 : phiOf(nowMs - this.lastMs, this.meanMs, this.stdMs(minStdMs));
  }
}
