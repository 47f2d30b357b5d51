/**
 * What clients are told must agree with what the replicated log did. The replicated-state
 * invariants cannot see a client that believes a lock it does not hold, so these watch the
 * service from the clients' side, event by event (no scan of every client every millisecond):
 *
 * - on the first apply of each committed index, anywhere: which token was granted to whom for
 *   which key, and the committed lock table that follows;
 * - whenever a client takes an answer: the answer matches the entry applied at the index it
 *   names, no two clients hold one token for a key, the client's lease does not outlast the
 *   lease the service granted, and the committed table gives the key to the client while its
 *   lease runs;
 * - on every fenced-store write: the client writes with a token the log granted it, and the store
 *   accepts exactly what the fencing rule accepts.
 */
import type { ClientActor } from '../service/clientActor';
import { commandText, invariant as say } from '../model/describe';
import type { LockService } from '../service/lockService';
import type { StoreWriteRecord } from '../model/types';
import { isKvCommand, isLockCommand, type ApplyResult, type ClientReply, type LogEntry } from '../model/types';

export type ClientInvariantId =
  'client-reply' | 'client-token' | 'client-token-unique' | 'client-lease' | 'client-lease-honoured' | 'fencing' | 'fenced-store-exact';

/** A client's lease that the service did not honour while clock drift was configured: a finding. */
export interface LeaseDriftFinding {
  readonly t: number;
  readonly client: string;
  readonly key: string;
  readonly deadline: number;
  /**
   * Issue 28: `takeover` when the service's failure detector handed the lock over before the lease
   * ran out (a takeover threshold below the TTL: two holders, the chapter's hazard); absent: drift.
   */
  readonly why?: 'takeover';
}

interface GrantRecord {
  readonly owner: string;
  readonly key: string;
  readonly index: number;
  /** Simulated ms at which the grant was first applied (committed): the service's lease starts here. */
  readonly appliedAt: number;
  readonly leaseMs: number;
}

/** The first apply of a committed index anywhere: the entry and what applying it gave. */
export interface FirstApply {
  readonly entry: LogEntry;
  readonly result: ApplyResult | null;
}

type Violate = (id: ClientInvariantId, who: readonly string[], sentence: string) => void;

export class ClientViewChecker {
  readonly findings: LeaseDriftFinding[] = [];
  private readonly service: LockService;
  private readonly violate: Violate;
  private readonly grants = new Map<number, GrantRecord>();
  /** The lock table the committed log implies: key → owner. */
  private readonly committed = new Map<string, string>();
  /** `key token` → the client first told it holds that token. */
  private readonly told = new Map<string, string>();
  private readonly fencedHighest = new Map<string, number>();
  /** Clock drift was set on some node: a lease the leader ends early is then a finding. */
  drift = false;

  /** Index → its first apply anywhere; the replicated-state checker already records it. */
  private readonly firstApply: (index: number) => FirstApply | undefined;

  constructor(service: LockService, violate: Violate, firstApply: (index: number) => FirstApply | undefined) {
    this.service = service;
    this.violate = violate;
    this.firstApply = firstApply;
  }

  /** The first apply of committed index `index` on any node, in index order. */
  onFirstApply(index: number, entry: LogEntry, result: ApplyResult | null, now: number): void {
    const c = entry.command;
    if (!isLockCommand(c) || result === null) return;
    if (c.type === 'grant' && result.type === 'Granted') {
      this.grants.set(result.token, { owner: c.owner, key: c.key, index, appliedAt: now, leaseMs: c.leaseMs });
      const before = this.committed.get(c.key);
      this.committed.set(c.key, c.owner);
      if (before !== undefined && before !== c.owner) this.leaseEnded(c.key, now, `the committed log gave ${c.key} to ${c.owner}`);
    } else if (
      (c.type === 'release' && result.type === 'Released') ||
      (c.type === 'expire' && result.type === 'Expired' && result.existed)
    ) {
      this.committed.delete(c.key);
      // Issue 28: an expiry the leader's failure detector proposed before the lease ran out.
      const takeover = c.type === 'expire' && this.service.takenOver.has(c.token);
      this.leaseEnded(c.key, now, `the committed log freed ${c.key} (${commandText(c)})`, takeover);
    }
  }

  /** `key` left its holder in the committed table: no client may still be counting a lease on it. */
  private leaseEnded(key: string, now: number, what: string, takeover = false): void {
    for (const client of this.service.clients.values()) {
      const holding = client.holdings.get(key);
      if (holding === undefined || holding.deadline <= now || !client.alive) continue;
      if (this.committed.get(key) === client.id) continue;
      // Issue 28: a holding the failure detector took over was a finding when it was taken; a
      // later change of the key (the next holder's grant or expiry) is not a second break of it.
      if (!takeover && holding.token !== null && this.service.takenOver.has(holding.token)) continue;
      // A client that asked to release the key gave it up when it asked.
      const o = client.outstanding;
      if (o !== null && o.intent.op === 'release' && o.intent.key === key) continue;
      this.leaseBroken(client.id, key, holding.deadline, now, what, takeover);
    }
  }

  private leaseBroken(client: string, key: string, deadline: number, now: number, what: string, takeover = false): void {
    if (takeover) {
      this.findings.push({ t: now, client, key, deadline, why: 'takeover' });
      return;
    }
    if (this.drift) {
      this.findings.push({ t: now, client, key, deadline });
      return;
    }
    this.violate('client-lease-honoured', [client], say.leaseNotHonoured(client, key, deadline, what));
  }

  /** A client took an answer (after a pause, when it wakes); `deadline` is its lease as it counts it. */
  onTold(client: ClientActor, src: string, reply: ClientReply, now: number): void {
    const id = client.id;
    const { key, index, outcome } = reply;
    if (outcome === 'not-leader') return;
    if (index !== null) this.checkAgainstEntry(id, src, reply, index);
    if (outcome !== 'granted' || reply.token === null) return;
    const token = reply.token;
    const tokenKey = `${key} ${token}`;
    const other = this.told.get(tokenKey);
    if (other === undefined) this.told.set(tokenKey, id);
    else if (other !== id) this.violate('client-token-unique', [other, id], say.tokenToldTwice(key, token, other, id));
    const grant = this.grants.get(token);
    if (grant === undefined || grant.owner !== id || grant.key !== key) {
      this.violate('client-token', [id, src], say.toldForeignToken(id, key, token, grant ? `${grant.key} to ${grant.owner}` : null));
      return;
    }
    const deadline = client.holdings.get(key)?.deadline ?? now;
    const serviceEnd = grant.appliedAt + grant.leaseMs;
    if (deadline > serviceEnd) this.violate('client-lease', [id], say.leaseOutlasts(id, key, token, deadline, serviceEnd));
    if (deadline > now && this.committed.get(key) !== id) {
      // Issue 28: the failure detector may have taken this very grant over before its answer
      // arrived (a takeover threshold below the TTL): the chapter's hazard, a finding.
      this.leaseBroken(id, key, deadline, now, `the committed log does not give ${key} to ${id}`, this.service.takenOver.has(token));
    }
  }

  /** An answer that names an index must describe the entry applied there. */
  private checkAgainstEntry(client: string, src: string, reply: ClientReply, index: number): void {
    const applied = this.firstApply(index);
    const c = applied?.entry.command;
    const r = applied?.result ?? null;
    let matches = false;
    if (c !== undefined && isLockCommand(c) && r !== null && c.key === reply.key) {
      if (reply.op === 'acquire' && c.type === 'grant' && c.owner === client) {
        matches =
          reply.outcome === 'granted'
            ? r.type === 'Granted' && r.token === reply.token
            : reply.outcome === 'busy' && r.type === 'GrantRejected';
      } else if (reply.op === 'release' && c.type === 'release' && c.owner === client) {
        const expected = r.type === 'Released' ? 'released' : r.type === 'NotHolder' ? 'not-holder' : 'not-found';
        matches = reply.outcome === expected;
      }
    }
    if (c !== undefined && isKvCommand(c) && r !== null && c.key === reply.key && c.client === client && c.type === reply.op) {
      // Reads (§6.4): a put is answered once its entry applied; a log read with the value it read.
      matches = c.type === 'put' ? r.type === 'Put' : r.type === 'Got' && r.value === (reply.value ?? null);
    }
    if (!matches) {
      const what =
        c === undefined ? 'nothing committed' : `${commandText(c)}${r !== null && r.type === 'Granted' ? ` (token ${r.token})` : ''}`;
      this.violate(
        'client-reply',
        [client, src],
        say.replyMismatch(client, src, reply.op, reply.key, reply.outcome, reply.token, index, what),
      );
    }
  }

  /** One write to the fenced store, as it landed. */
  onFencedWrite(w: StoreWriteRecord, fencedChecksTokens: boolean): void {
    const highest = this.fencedHighest.get(w.key);
    // The fencing rule: refuse a write with no token or a lower token than the highest accepted.
    const acceptable = w.token !== null && (highest === undefined || w.token >= highest);
    if (w.accepted && !acceptable && highest !== undefined) {
      this.violate('fencing', [w.client, 'fenced'], say.fencedWentBack(w.client, w.key, w.token, highest));
    }
    if (!w.accepted && acceptable && fencedChecksTokens) {
      this.violate('fenced-store-exact', [w.client, 'fenced'], say.fencedRefusedCurrent(w.client, w.key, w.token as number, highest));
    }
    if (w.accepted && w.token !== null && (highest === undefined || w.token > highest)) this.fencedHighest.set(w.key, w.token);
    if (w.token !== null) {
      const grant = this.grants.get(w.token);
      if (grant === undefined || grant.owner !== w.client || (w.lockKey !== null && grant.key !== w.lockKey)) {
        this.violate(
          'client-token',
          [w.client],
          say.wroteForeignToken(w.client, w.key, w.token, grant ? `${grant.key} to ${grant.owner}` : null),
        );
      }
    }
  }
}
