/**
 * The lock services (issue 26): the chapter's trade-off table as runs. `raft` is the chapter's
 * own service and the default (a configuration without `lock` is a raft run, exactly as before);
 * the others are manifests here, their servers in src/sim/locks/. A new service is a manifest and
 * a line in LOCK_SERVICES.
 */
import { advisory } from './advisory';
import { etcd } from './etcd';
import { gossip } from './gossip';
import { raftLocks } from './raft';
import { redis } from './redis';
import { redlock } from './redlock';
import type { InvariantManifest } from '../features/types';
import type { LockServiceManifest } from './types';
import { zookeeper } from './zookeeper';

export type { ChapterRow, LockOptionManifest, LockServiceManifest } from './types';

/** In this order everywhere: the picker, `--lock`, the Compare view's rows (the chapter's table, Redlock after Redis). */
export const LOCK_SERVICES = [raftLocks, zookeeper, etcd, advisory, redis, redlock, gossip] as const;

type Service = (typeof LOCK_SERVICES)[number];

export type LockServiceName = Service['name'];

export const LOCK_SERVICE_NAMES: readonly LockServiceName[] = LOCK_SERVICES.map((s) => s.name);

export const DEFAULT_LOCK_SERVICE: LockServiceName = 'raft';

export function isLockServiceName(text: string): text is LockServiceName {
  return (LOCK_SERVICE_NAMES as readonly string[]).includes(text);
}

export function lockServiceManifest(name: LockServiceName): LockServiceManifest {
  return LOCK_SERVICES.find((s) => s.name === name) as LockServiceManifest;
}

export type LockOptionName = Service['options'][number]['name'];

export const LOCK_OPTION_NAMES: readonly LockOptionName[] = [...new Set(LOCK_SERVICES.flatMap((s) => s.options.map((o) => o.name)))];

/** The options a service takes, by name. */
export function optionsOf(name: LockServiceName): readonly LockOptionName[] {
  return lockServiceManifest(name).options.map((o) => o.name as LockOptionName);
}

export type LockBug = Service['bugs'][number];
export type LockBugName = LockBug['name'];

/** Every service's bugs (the chapter's service has its own in features/core.ts). */
export const LOCK_BUGS: readonly LockBug[] = LOCK_SERVICES.flatMap((s): readonly LockBug[] => s.bugs);

/** The service a service's bug needs. */
export const BUG_LOCK_SERVICE: Readonly<Record<LockBugName, LockServiceName>> = Object.fromEntries(
  LOCK_SERVICES.flatMap((s) => s.bugs.map((b) => [b.name, s.name])),
) as Record<LockBugName, LockServiceName>;

/**
 * Invariants every service but the chapter's checks (src/sim/check/lockServiceInvariants.ts):
 * the clients' own view of exclusion for the consistent ones, and their tokens' order.
 */
export const LOCK_COMMON_INVARIANTS = [
  { id: 'lock-exclusive', title: 'No two clients hold a lock within their own leases' },
  { id: 'lock-tokens', title: 'Tokens increase from holder to holder' },
] as const satisfies readonly InvariantManifest[];

type LockInvariant = Service['invariants'][number] | (typeof LOCK_COMMON_INVARIANTS)[number];

export const LOCK_INVARIANTS: readonly LockInvariant[] = [
  ...LOCK_COMMON_INVARIANTS,
  ...LOCK_SERVICES.flatMap((s): readonly LockInvariant[] => s.invariants),
];

export type LockInvariantId = LockInvariant['id'];

/** The service whose runs check an invariant of one service (the common ones: every service but raft). */
export const INVARIANT_LOCK_SERVICE: Readonly<Partial<Record<LockInvariantId, LockServiceName>>> = Object.fromEntries(
  LOCK_SERVICES.flatMap((s) => s.invariants.map((i) => [i.id, s.name])),
);

/** Server ids of a service with `count` servers: n1..nN for the Raft-based ones and gossip, r1.. for Redis, db1.. for the database. */
export function serverIdsFor(name: LockServiceName, count: number): string[] {
  const prefix = lockServiceManifest(name).prefix;
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}
