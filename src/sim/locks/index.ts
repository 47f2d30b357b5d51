/**
 * The lock services other than the chapter's (issue 26), one folder each: their servers and
 * their clients' drivers. A run picks one by its configuration's `lock` (src/sim/run/ asks here);
 * the chapter's own service, `raft`, is src/sim/service/lockService.ts itself.
 */
import type { LockServiceName } from '../model/lockServices';
import type { LockBackendFactory } from '../net/lockPlug';
import { RedisBackend } from './redis/backend';
import { RedlockBackend } from './redlock/backend';
import { AdvisoryBackend } from './advisory/backend';
import { GossipBackend } from './gossip/backend';
import { ZooKeeperBackend } from './zookeeper/backend';
import { EtcdBackend } from './etcd/backend';

const FACTORIES: Partial<Record<LockServiceName, LockBackendFactory>> = {
  redis: (host) => new RedisBackend(host),
  redlock: (host) => new RedlockBackend(host),
  advisory: (host) => new AdvisoryBackend(host),
  gossip: (host) => new GossipBackend(host),
  zookeeper: (host) => new ZooKeeperBackend(host),
  etcd: (host) => new EtcdBackend(host),
};

/** The backend a run of `name` needs, or null for the chapter's service (no backend: LockService is it). */
export function lockBackendFor(name: LockServiceName): LockBackendFactory | null {
  if (name === 'raft') return null;
  const factory = FACTORIES[name];
  if (factory === undefined) throw new RangeError(`The lock service ${name} is not built yet.`);
  return factory;
}
