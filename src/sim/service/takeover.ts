/**
 * The lock service's failure detector (issue 28): when the leader stops believing a holder is
 * alive, it hands the holder's lock over (an Expire through the log) even if the lease has not run
 * out. The chapter's rule: "the takeover threshold must exceed the TTL, or two nodes hold the same
 * resource" — a holder that pauses past the threshold but not past its lease wakes believing it
 * still holds a lock someone else now has.
 *
 * - `fixed` with `takeoverMs`: the leader has heard no keep-alive from the holder for that long.
 * - `phi-accrual`: φ of the holder's keep-alive inter-arrivals (Hayashibara et al.) reaches Φ.
 * - `gossip`: the leader's gossip view suspects the holder (src/sim/detect/gossip.ts).
 * - `fixed` without a threshold (the chapter's): never; only the lease's end frees a lock.
 *
 * Holders send keep-alives (fixed with a threshold, phi-accrual) every heartbeat interval while
 * they believe they hold a lock; under gossip they gossip their counter instead. A leader that has
 * not heard from a holder yet (just elected, or the grant just applied) counts from the first time
 * it looks: a new leader gives every holder a whole threshold. What a node heard is volatile.
 */
import { phiParams, type PhiParams } from '../model/detector';
import type { SimConfig } from '../model/config';
import type { GossipMembership } from '../detect/gossip';
import { ArrivalWindow, crossingY } from '../detect/phi';

/** Why the leader now believes a holder is gone: how long it has been silent, and φ under phi-accrual. */
export interface Suspected {
  readonly silentMs: number;
  readonly phi: number | null;
}

interface Heard {
  lastMs: number;
  readonly window: ArrivalWindow | null;
}

export class HolderWatch {
  /** Per node position: what it heard from each client. */
  private readonly heard: Map<string, Heard>[] = [];
  private readonly phi: PhiParams | null;
  private readonly y: number;

  constructor(
    readonly kind: 'fixed' | 'phi-accrual' | 'gossip',
    private readonly takeoverMs: number,
    readonly keepAliveMs: number,
    config: SimConfig,
    private readonly gossip: GossipMembership | null,
  ) {
    this.phi = config.detector?.kind === 'phi-accrual' ? phiParams(config.detector, config) : null;
    this.y = this.phi !== null ? crossingY(this.phi.threshold) : 0;
  }

  private of(node: number): Map<string, Heard> {
    let m = this.heard[node];
    if (m === undefined) this.heard[node] = m = new Map();
    return m;
  }

  private record(node: number, client: string, nowMs: number): Heard {
    const m = this.of(node);
    let h = m.get(client);
    if (h === undefined) {
      h = { lastMs: nowMs, window: this.phi !== null ? new ArrivalWindow(this.phi.window, this.keepAliveMs) : null };
      h.window?.heartbeat(nowMs);
      m.set(client, h);
    }
    return h;
  }

  /** Node `node` received a keep-alive from `client` at `atMs`. */
  keptAlive(node: number, client: string, atMs: number): void {
    const m = this.of(node);
    const h = m.get(client);
    if (h === undefined) {
      this.record(node, client, atMs);
      return;
    }
    h.lastMs = atMs;
    h.window?.heartbeat(atMs);
  }

  /** Whether leader `node` now suspects `client`, the holder of a lock; null while it believes it alive. */
  suspects(node: number, client: string, nowMs: number): Suspected | null {
    if (this.kind === 'gossip') {
      const g = this.gossip;
      if (g === null || !g.suspects(node, client)) return null;
      return { silentMs: g.silenceMs(node, client) ?? 0, phi: null };
    }
    const h = this.record(node, client, nowMs);
    const silentMs = nowMs - h.lastMs;
    if (this.phi !== null && h.window !== null) {
      const timeout = h.window.timeoutMs(this.y, this.keepAliveMs / 10);
      return silentMs >= timeout ? { silentMs, phi: h.window.phiAt(nowMs, this.keepAliveMs / 10) } : null;
    }
    return silentMs >= this.takeoverMs ? { silentMs, phi: null } : null;
  }

  /** A restarted node heard nothing (volatile). */
  forget(node: number): void {
    this.heard[node]?.clear();
  }
}

/** The run's holder watch, or null when only a lease's end frees a lock (the chapter's). */
export function holderWatchFor(config: SimConfig, gossip: GossipMembership | null): HolderWatch | null {
  const d = config.detector;
  if (d === undefined) return null;
  if (d.kind === 'fixed') return new HolderWatch('fixed', d.takeoverMs, config.heartbeatMs, config, null);
  if (d.kind === 'phi-accrual') return new HolderWatch('phi-accrual', 0, config.heartbeatMs, config, null);
  return new HolderWatch('gossip', 0, 0, config, gossip);
}
