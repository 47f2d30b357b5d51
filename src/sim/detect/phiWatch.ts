/**
 * Phi-accrual for elections (issue 28): each follower keeps the inter-arrival times of its
 * leader's AppendEntries (the chapter's heartbeat) and campaigns once φ reaches Φ — at the last
 * heartbeat plus mean + y(Φ)·σ — and then a random 0..stagger ms later, stagger being the run's
 * election-timeout spread (tMax − tMin), so followers that suspect together do not split the vote
 * (the randomness Raft's timeouts have for the same reason, §5.2). The stagger is drawn from the
 * detectors' stream, one draw per heartbeat as the chapter draws one timeout per reset.
 */
import type { LeaderWatch, PhiParams } from '../model/detector';
import type { CPythonRandom } from '../model/prng';
import { ArrivalWindow, crossingY } from './phi';

export class PhiLeaderWatch implements LeaderWatch {
  private readonly windows: (ArrivalWindow | null)[] = [];
  /** Whose heartbeats each node's window holds (a new leader starts a new window). */
  private readonly leaderOf: (string | null)[] = [];
  private readonly y: number;

  constructor(
    readonly params: PhiParams,
    private readonly heartbeatMs: number,
    private readonly rng: CPythonRandom,
  ) {
    this.y = crossingY(params.threshold);
  }

  heardLeader(index: number, leader: string, nowMs: number, exactMs: number): number {
    let w = this.windows[index] ?? null;
    if (w === null || this.leaderOf[index] !== leader) {
      w = new ArrivalWindow(this.params.window, this.heartbeatMs);
      this.windows[index] = w;
      this.leaderOf[index] = leader;
    }
    w.heartbeat(exactMs);
    const stagger = this.params.staggerMs > 0 ? this.rng.randint(0, this.params.staggerMs) : 0;
    const suspectAt = Math.ceil(exactMs + w.timeoutMs(this.y, this.params.minStdMs));
    return (suspectAt > nowMs ? suspectAt : nowMs + 1) + stagger;
  }

  /** A restarted node forgot its leader's heartbeats (volatile). */
  forget(index: number): void {
    this.windows[index] = null;
    this.leaderOf[index] = null;
  }

  /** For the page and the Why answers: node `index`'s φ of its leader now, with the window's numbers; null before any heartbeat. */
  reading(
    index: number,
    nowMs: number,
  ): { leader: string; phi: number; meanMs: number; stdMs: number; timeoutMs: number; lastMs: number } | null {
    const w = this.windows[index] ?? null;
    const leader = this.leaderOf[index] ?? null;
    if (w === null || leader === null) return null;
    const minStd = this.params.minStdMs;
    return {
      leader,
      phi: w.phiAt(nowMs, minStd),
      meanMs: w.meanMs,
      stdMs: w.stdMs(minStd),
      timeoutMs: w.timeoutMs(this.y, minStd),
      lastMs: w.lastMs,
    };
  }
}
