/**
 * When each client believed it held each lock, from its own view (issue 26's `overlaps`): a hold
 * begins when the client takes a grant, and ends when it releases (or asks to), crashes, learns
 * the lock is gone, or its own count of the lease — from when it asked — runs out. A process
 * paused past that count cannot see its clock: it wakes with no idea time passed (the chapter's
 * point), so its belief lasts until it wakes, and the writes it sends on waking are sent believing.
 *
 * Pure observation: the tracker reads the clients after every millisecond's tick and after every
 * client action, and changes nothing, draws nothing, sends nothing.
 */

/** What the tracker reads of a client. */
export interface HoldSource {
  readonly id: string;
  readonly alive: boolean;
  paused(now: number): boolean;
  readonly holdings: ReadonlyMap<string, { readonly token: number | null; readonly deadline: number }>;
  readonly currentLockKey: string | null;
  readonly currentGrant: number | null;
  /** The request the client is waiting on, if any: a release in flight ends its belief in that lock. */
  readonly outstanding: { readonly intent: { readonly op: string; readonly key?: string } } | null;
}

/** The key a client has asked to release and not yet heard back on: it no longer acts under that lock. */
function releasing(c: HoldSource): string | null {
  const o = c.outstanding;
  return o !== null && o.intent.op === 'release' ? (o.intent.key ?? null) : null;
}

export interface HoldRecord {
  readonly client: string;
  readonly key: string;
  /** The fencing token, or null with a service that has none. */
  readonly token: number | null;
  /** A service without tokens: the grant's number in the history. */
  readonly grant: number | null;
  readonly from: number;
  /** The client's own count of its lease (renewals move it on). */
  deadline: number;
  /** When the belief ended; null while it lasts. */
  to: number | null;
  /** Why it ended. */
  ended: 'released' | 'crashed' | 'ran-out' | 'woke-past-lease' | 'renewed' | null;
}

/** Two or more clients believed they held `key` from `fromMs` to `toMs`. */
export interface Overlap {
  readonly key: string;
  readonly clients: readonly string[];
  readonly fromMs: number;
  readonly toMs: number;
  /**
   * Some of it lay inside every one of those clients' own leases: the service gave a lock away
   * while its holder's count still ran (not a pause that outlasted a lease).
   */
  readonly inLease: boolean;
}

export class HoldTracker {
  readonly holds: HoldRecord[] = [];
  /** Per client and key, the open hold. */
  private readonly open = new Map<string, HoldRecord>();
  /** A hold whose count ran out stays closed while the client keeps the same holding. */
  private readonly spent = new Map<string, string>();

  observe(clients: Iterable<HoldSource>, now: number): void {
    for (const c of clients) {
      const holdings = c.holdings;
      const letGo = releasing(c);
      for (const key of holdings.keys()) if (key !== letGo) this.see(c, key, now);
      // Holds whose holding is gone, or being released.
      for (const [slot, h] of this.open) {
        if (h.client !== c.id || (holdings.has(h.key) && h.key !== letGo)) continue;
        this.close(slot, h, now, c.alive ? 'released' : 'crashed');
      }
      for (const slot of this.spent.keys())
        if (slot.startsWith(`${c.id} `) && !holdings.has(slot.slice(c.id.length + 1))) this.spent.delete(slot);
    }
  }

  private see(c: HoldSource, key: string, now: number): void {
    const holding = c.holdings.get(key);
    if (holding === undefined) return;
    const slot = `${c.id} ${key}`;
    const grant = c.currentLockKey === key ? c.currentGrant : null;
    const identity = `${holding.token ?? 'g' + String(grant)}`;
    let h = this.open.get(slot);
    if (h !== undefined && (h.token !== holding.token || h.grant !== grant)) {
      // A renewal with a new token (the chapter's service) or a new grant: a new hold, continuously believed.
      this.close(slot, h, now, 'renewed');
      h = undefined;
    }
    if (h === undefined) {
      if (this.spent.get(slot) === `${identity} ${holding.deadline}`) return;
      this.spent.delete(slot);
      h = { client: c.id, key, token: holding.token, grant, from: now, deadline: holding.deadline, to: null, ended: null };
      this.holds.push(h);
      this.open.set(slot, h);
    }
    if (holding.deadline > h.deadline) h.deadline = holding.deadline;
    if (now >= h.deadline && !c.paused(now)) {
      this.close(slot, h, now, now > h.deadline ? 'woke-past-lease' : 'ran-out');
      this.spent.set(slot, `${identity} ${holding.deadline}`);
    }
  }

  private close(slot: string, h: HoldRecord, now: number, why: NonNullable<HoldRecord['ended']>): void {
    h.to = now;
    h.ended = why;
    this.open.delete(slot);
  }

  /** The open holds of `key`, now. */
  openHolds(key: string): HoldRecord[] {
    return [...this.open.values()].filter((h) => h.key === key);
  }
}

/**
 * The overlaps in a list of holds (open ones count to `now`): maximal intervals in which two or
 * more clients believed they held one key, with who did.
 */
export function overlapsOf(holds: readonly HoldRecord[], now: number): Overlap[] {
  const byKey = new Map<string, HoldRecord[]>();
  for (const h of holds) {
    let list = byKey.get(h.key);
    if (list === undefined) byKey.set(h.key, (list = []));
    list.push(h);
  }
  const out: Overlap[] = [];
  for (const [key, list] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // Sweep the interval ends; count distinct clients believing at each instant.
    const points = [...new Set(list.flatMap((h) => [h.from, h.to ?? now]))].sort((a, b) => a - b);
    let current: { from: number; to: number; clients: Set<string>; inLease: boolean } | null = null;
    for (let i = 0; i + 1 < points.length; i++) {
      const a = points[i];
      const b = points[i + 1];
      const active = list.filter((h) => h.from <= a && (h.to ?? now) >= b && b > a);
      const clients = new Set(active.map((h) => h.client));
      if (clients.size >= 2) {
        const inLease = new Set(active.filter((h) => h.deadline > a).map((h) => h.client)).size >= 2;
        if (current !== null && current.to === a) {
          current.to = b;
          for (const c of clients) current.clients.add(c);
          current.inLease ||= inLease;
        } else {
          if (current !== null) out.push(done(key, current));
          current = { from: a, to: b, clients, inLease };
        }
      } else if (current !== null) {
        out.push(done(key, current));
        current = null;
      }
    }
    if (current !== null) out.push(done(key, current));
  }
  return out;
}

function done(key: string, c: { from: number; to: number; clients: Set<string>; inLease: boolean }): Overlap {
  return { key, clients: [...c.clients].sort(), fromMs: c.from, toMs: c.to, inLease: c.inLease };
}
