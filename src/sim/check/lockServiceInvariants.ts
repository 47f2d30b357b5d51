/**
 * The other lock services' invariants (issue 26), checked after every millisecond from outside
 * their servers: each service's own (an ephemeral znode outlives no session, a key outlives no
 * lease, only the holder's value is deleted, ...), the fenced store's rule, and two every service
 * with a promise shares — no two clients hold one lock within their own leases (the consistent
 * services, while no clock drifts), and tokens increase from holder to holder. The chapter's own
 * service has its checkers in invariants.ts and clientInvariants.ts.
 */
import type { Cluster } from '../net/cluster';
import { consistentRun, hasTokens } from '../model/config';
import { lockServiceInvariant as say, invariant as sayStore } from '../model/describe';
import type { LockService } from '../service/lockService';
import type { HoldRecord } from '../service/holds';
import type { InvariantId } from '../model/features';
import { AdvisoryBackend } from '../locks/advisory/backend';
import { RedisBackend } from '../locks/redis/backend';
import { RedlockBackend } from '../locks/redlock/backend';
import { anyDrift } from '../locks/common/host';
import { GossipBackend, type GossipMember } from '../locks/gossip/backend';
import { ZooKeeperBackend, lockNode, type ZkTree } from '../locks/zookeeper/backend';
import { EtcdBackend, lockPrefix, type EtcdStore } from '../locks/etcd/backend';

type Violate = (id: InvariantId, who: readonly string[], sentence: string) => void;

/** Which of them a service checks lives in ids.ts, which the page reads without the checkers. */
export { lockServiceInvariantIds } from './ids';

export class LockServiceChecker {
  private readonly consistent: boolean;
  private readonly tokens: boolean;
  private fencedCursor = 0;
  private readonly fencedHighest = new Map<string, number>();
  private holdCursor = 0;
  /** Per key: the last holder's token and client (tokens must grow). */
  private readonly lastToken = new Map<string, { readonly token: number; readonly client: string }>();
  private readonly reported = new Set<string>();
  private cursor = 0;

  constructor(
    private readonly service: LockService,
    private readonly cluster: Cluster,
    private readonly violate: Violate,
  ) {
    this.consistent = consistentRun(cluster.config);
    this.tokens = hasTokens(cluster.config);
  }

  check(): void {
    this.checkFencedStore();
    this.checkHolds();
    const b = this.service.backend;
    if (b instanceof RedisBackend) this.checkRedis(b);
    else if (b instanceof RedlockBackend) this.checkRedlock(b);
    else if (b instanceof AdvisoryBackend) this.checkAdvisory(b);
    else if (b instanceof GossipBackend) this.checkGossip(b);
    else if (b instanceof ZooKeeperBackend) this.checkZooKeeper(b);
    else if (b instanceof EtcdBackend) this.checkEtcd(b);
  }

  private zkCursor = 0;

  private checkZooKeeper(b: ZooKeeperBackend): void {
    b.machines.forEach((tree: ZkTree, i) => {
      for (const z of tree.znodes.values()) {
        if (tree.sessions.has(z.session)) continue;
        const id = `z ${i} ${z.path}`;
        if (this.reported.has(id)) continue;
        this.reported.add(id);
        this.violate(
          'zk-ephemeral-session',
          [this.cluster.nodes[i].id, z.client],
          say.ephemeralOutlives(this.cluster.nodes[i].id, z.path, z.session, z.client),
        );
      }
    });
    // A client told it holds a lock has the lowest child (while its child still exists: lower ones are never made later).
    const holds = this.service.holds.holds;
    const tree = b.machineOf(b.mostApplied());
    while (this.zkCursor < holds.length) {
      const h = holds[this.zkCursor++];
      const children = tree.children(lockNode(h.key));
      const at = children.findIndex((z) => z.zxid === h.token);
      if (at > 0) this.violate('zk-holder-lowest', [h.client], say.holderNotLowest(h.client, h.key, children[at].path, children[0].path));
    }
  }

  private etcdCursor = 0;
  private readonly revisions: (EtcdStore | number)[][] = [];

  private checkEtcd(b: EtcdBackend): void {
    b.machines.forEach((store: EtcdStore, i) => {
      const seen = this.revisions[i];
      if (seen === undefined || seen[0] !== store) this.revisions[i] = [store, store.revision];
      else {
        if (store.revision < (seen[1] as number))
          this.violate(
            'etcd-revision',
            [this.cluster.nodes[i].id],
            say.revisionBack(this.cluster.nodes[i].id, seen[1] as number, store.revision),
          );
        seen[1] = store.revision;
      }
      for (const k of store.keys.values()) {
        if (store.leases.has(k.lease)) continue;
        const id = `e ${i} ${k.key}`;
        if (this.reported.has(id)) continue;
        this.reported.add(id);
        this.violate(
          'etcd-lease-keys',
          [this.cluster.nodes[i].id, k.client],
          say.keyOutlivesLease(this.cluster.nodes[i].id, k.key, k.lease),
        );
      }
    });
    const holds = this.service.holds.holds;
    const store = b.machineOf(b.mostApplied());
    while (this.etcdCursor < holds.length) {
      const h = holds[this.etcdCursor++];
      const under = store.under(lockPrefix(h.key));
      const at = under.findIndex((k) => k.createRevision === h.token);
      if (at > 0) this.violate('etcd-holder-lowest', [h.client], say.holderNotLowest(h.client, h.key, under[at].key, under[0].key));
    }
  }

  /** Per viewer and member: the counter last seen (a restart or a crash starts the viewer afresh). */
  private readonly beats = new Map<string, number>();
  private readonly viewers = new Map<string, GossipMember>();

  private checkGossip(b: GossipBackend): void {
    const members = [...b.relays, ...b.agents.values()];
    for (const m of members) {
      if (this.viewers.get(m.id) !== m) {
        // A fresh table (after a restart): its counters start over.
        this.viewers.set(m.id, m);
        for (const [id, e] of m.table) this.beats.set(`${m.id} ${id}`, e.heartbeat);
        continue;
      }
      for (const [id, e] of m.table) {
        const slot = `${m.id} ${id}`;
        const last = this.beats.get(slot) ?? 0;
        if (e.heartbeat < last) this.violate('gossip-heartbeats', [m.id, id], say.heartbeatBack(m.id, id, last, e.heartbeat));
        this.beats.set(slot, e.heartbeat);
      }
    }
  }

  /** The chapter's rule at the resource: refuse no token or a token below the highest accepted, and nothing else. */
  private checkFencedStore(): void {
    const store = this.service.fenced;
    const writes = store.writes;
    while (this.fencedCursor < writes.length) {
      const w = writes[this.fencedCursor++];
      const highest = this.fencedHighest.get(w.key);
      const acceptable = w.token !== null && (highest === undefined || w.token >= highest);
      if (w.accepted && !acceptable && highest !== undefined)
        this.violate('fencing', [w.client, 'fenced'], sayStore.fencedWentBack(w.client, w.key, w.token, highest));
      if (!w.accepted && acceptable && store.checksTokens)
        this.violate(
          'fenced-store-exact',
          [w.client, 'fenced'],
          sayStore.fencedRefusedCurrent(w.client, w.key, w.token as number, highest),
        );
      if (w.accepted && w.token !== null && (highest === undefined || w.token > highest)) this.fencedHighest.set(w.key, w.token);
    }
  }

  /** Exclusion from the clients' own view, and tokens from holder to holder. */
  private checkHolds(): void {
    const tracker = this.service.holds;
    const holds = tracker.holds;
    while (this.holdCursor < holds.length) {
      const h = holds[this.holdCursor++];
      if (this.tokens && h.token !== null) this.checkToken(h);
    }
    if (!this.consistent || anyDrift(this.cluster)) return;
    const now = this.cluster.nowMs;
    const byKey = new Map<string, HoldRecord[]>();
    for (const h of holds) {
      if (h.to !== null && h.to <= now - 1) continue;
      if (h.deadline <= now) continue;
      let list = byKey.get(h.key);
      if (list === undefined) byKey.set(h.key, (list = []));
      list.push(h);
    }
    for (const [key, list] of byKey) {
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i];
          const b = list[j];
          if (a.client === b.client || a.to !== null || b.to !== null) continue;
          const id = `x ${key} ${a.client}@${a.from} ${b.client}@${b.from}`;
          if (this.reported.has(id)) continue;
          this.reported.add(id);
          this.violate('lock-exclusive', [a.client, b.client], say.twoHolders(key, a.client, a.deadline, b.client, b.deadline));
        }
    }
  }

  private checkToken(h: HoldRecord): void {
    const token = h.token as number;
    const last = this.lastToken.get(h.key);
    this.lastToken.set(h.key, { token, client: h.client });
    if (last === undefined) return;
    if (token > last.token || (token === last.token && last.client === h.client)) return;
    // With a replica, a failover can hand out a version the old primary already gave (asynchronous replication): a finding.
    if (!this.consistent) return;
    this.violate('lock-tokens', [last.client, h.client], say.tokenBack(h.key, last.client, last.token, h.client, token));
  }

  private checkRedis(b: RedisBackend): void {
    const list = b.deletes;
    while (this.cursor < list.length) {
      const d = list[this.cursor++];
      if (d.removed !== null && !d.removed.startsWith(`${d.by}-`))
        this.violate('redis-compare-delete', [d.server, d.by], say.deletedOthers(d.server, d.key, d.by, d.removed));
    }
  }

  private checkRedlock(b: RedlockBackend): void {
    const list = b.grants;
    while (this.cursor < list.length) {
      const g = list[this.cursor++];
      if (g.exactClocks && g.liveOn >= b.quorum && g.validOn < b.quorum)
        this.violate('redlock-validity', [g.client], say.redlockOutlives(g.client, g.key, g.deadline, g.validOn, b.quorum));
    }
  }

  private checkAdvisory(b: AdvisoryBackend): void {
    const list = b.unlocks;
    while (this.cursor < list.length) {
      const u = list[this.cursor++];
      if (u.holder !== null && u.holder !== u.session)
        this.violate('advisory-unlock-owner', [u.server], say.unlockedOthers(u.server, u.key, u.session, u.holder));
    }
    for (const s of b.servers) {
      for (const [key, session] of s.locks) {
        if (s.sessions.has(session)) continue;
        const id = `s ${s.id} ${key} ${session}`;
        if (this.reported.has(id)) continue;
        this.reported.add(id);
        this.violate('advisory-session-locks', [s.id], say.lockWithoutSession(s.id, key, session));
      }
    }
  }
}
