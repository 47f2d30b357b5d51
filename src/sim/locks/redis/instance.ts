/**
 * One Redis instance's dataset as a lock needs it (redis.io: SET with NX and PX, key expiry, the
 * Redlock page's release script). A key's expiry is an absolute time on the instance's own wall
 * clock (Redis stores expires as Unix times and compares them with the clock it reads), so a
 * clock jump forward ends every lease early; drift stretches or shrinks them.
 */

export interface RedisKey {
  readonly value: string;
  /** Absolute expiry, by the wall clock of the instance that set it (PXAT). */
  readonly expiresAtMs: number;
  /** The grant's number in the clients' history (bookkeeping; Redis has no such thing). */
  readonly seq: number;
}

export class RedisInstance {
  readonly keys = new Map<string, RedisKey>();
  role: 'primary' | 'replica';
  /** Sentinel's configuration epoch: raised by each failover, so the newest primary wins. */
  epoch = 0;
  /** Changes at every restart (Redis's run id): a replica that sees a new one resynchronises. */
  runId = 1;
  /** A replica: the run id of the primary it copied, and when (by its monotonic clock) it last heard it. */
  primaryRunId = 1;
  lastHeardPrimaryMs = 0;
  /** A primary: its next heartbeat to the others, by its monotonic clock. */
  nextPingMs = 0;

  constructor(
    readonly id: string,
    role: 'primary' | 'replica',
  ) {
    this.role = role;
  }

  /** The key's entry if it has not expired by `wallMs`. */
  live(key: string, wallMs: number): RedisKey | undefined {
    const k = this.keys.get(key);
    return k !== undefined && wallMs < k.expiresAtMs ? k : undefined;
  }

  /** SET key value NX PX pxMs: true (OK) when the key was absent or expired. */
  setNx(key: string, value: string, pxMs: number, wallMs: number, seq: number): boolean {
    if (this.live(key, wallMs) !== undefined) return false;
    this.keys.set(key, { value, expiresAtMs: wallMs + pxMs, seq });
    return true;
  }

  /** The release script: delete the key only if it still holds `value`. */
  compareAndDelete(key: string, value: string, wallMs: number): boolean {
    const k = this.live(key, wallMs);
    if (k === undefined || k.value !== value) return false;
    this.keys.delete(key);
    return true;
  }

  /** Keys whose expiry has come by `wallMs` (Redis's active expiry cycle, taken every millisecond here). */
  expired(wallMs: number): [string, RedisKey][] {
    const out: [string, RedisKey][] = [];
    for (const [key, k] of this.keys) if (wallMs >= k.expiresAtMs) out.push([key, k]);
    return out;
  }

  /** Every key that has not expired, in key order (a full sync's dataset). */
  liveKeys(wallMs: number): { key: string; value: string; expiresAtMs: number; seq: number }[] {
    return [...this.keys]
      .filter(([, k]) => wallMs < k.expiresAtMs)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, k]) => ({ key, value: k.value, expiresAtMs: k.expiresAtMs, seq: k.seq }));
  }
}
