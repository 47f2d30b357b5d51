/**
 * The other lock services' sentences (issue 26, src/sim/locks/): their event lines. Apart from
 * describe.ts only so the page's first load does not carry them: the services run in the engine.
 */
/** The other lock services' lines (issue 26): their servers' and clients' own words, never the chapter's. */
export const lockServices = {
  // Redis and Redlock's instances.
  redisSet: (server: string, key: string, value: string, pxMs: number, client: string) =>
    `${server} SET ${key} ${value} NX PX ${pxMs} -> OK (${client})`,
  redisBusy: (server: string, key: string, client: string, held: string) =>
    `${server} SET ${key} NX for ${client} -> nil: it holds ${held}`,
  redisReleased: (server: string, key: string, value: string, client: string, plain: boolean) =>
    plain
      ? `${server} DEL ${key} for ${client}: deletes ${value}, whoever set it`
      : `${server} deletes ${key} for ${client}: it held ${value}`,
  redisKept: (server: string, key: string, held: string | null, client: string) =>
    held === null
      ? `${server} has no ${key} to delete for ${client}`
      : `${server} keeps ${key} for ${client}: it holds ${held}, not ${client}'s value`,
  redisExpired: (server: string, key: string, value: string, wallMs: number, expiresAtMs: number) =>
    `${server} expires ${key} (${value}) by its wall clock: ${Math.round(wallMs)} >= ${Math.round(expiresAtMs)} ms`,
  redisForgot: (server: string, keys: readonly string[]) =>
    `${server} restarts without persistence and forgets ${keys.length === 1 ? keys[0] : `${keys.length} keys (${keys.join(', ')})`}`,
  redisFailover: (server: string, old: string, epoch: number, silentMs: number) =>
    `${server} takes over as primary (epoch ${epoch}): it heard nothing from ${old} for ${silentMs} ms`,
  redisDemoted: (server: string, primary: string, epoch: number) =>
    `${server} learns ${primary} is primary of epoch ${epoch}: it becomes a replica and copies ${primary} afresh`,
  redisResynced: (server: string, primary: string, lost: readonly string[]) =>
    `${server} copies ${primary}'s dataset and loses ${lost.join(', ')}`,
  // The database.
  pgLocked: (server: string, key: string, client: string, session: number, version: number) =>
    `${server} pg_try_advisory_lock(${key}) for ${client} (session ${session}) -> t, row version ${version}`,
  pgBusy: (server: string, key: string, client: string, holder: string) =>
    `${server} pg_try_advisory_lock(${key}) for ${client} -> f: ${holder}'s session holds it`,
  pgUnlocked: (server: string, key: string, client: string) => `${server} pg_advisory_unlock(${key}) for ${client} -> t`,
  pgNotHeld: (server: string, key: string, client: string) =>
    `${server} pg_advisory_unlock(${key}) for ${client} -> f: its session does not hold it`,
  pgSessionEnded: (
    server: string,
    client: string,
    session: number,
    why: 'closed' | 'timed-out',
    freed: readonly string[],
    timeoutMs: number,
  ) =>
    `${server} ends ${client}'s session ${session}: ${why === 'closed' ? 'its connection closed' : `no keep-alive answer for ${timeoutMs} ms`}${freed.length > 0 ? `; frees ${freed.join(', ')}` : ''}`,
  pgRestarted: (server: string, sessions: number, freed: readonly string[]) =>
    `${server} restarts: its ${sessions} session${sessions === 1 ? '' : 's'} and ${freed.length === 0 ? 'no advisory lock' : `the advisory lock${freed.length === 1 ? '' : 's'} on ${freed.join(', ')}`} are gone`,
  pgFailover: (server: string, old: string, timeline: number, silentMs: number, freed: readonly string[]) =>
    `${server} promotes itself to primary (timeline ${timeline}) after ${silentMs} ms without WAL from ${old}${freed.length > 0 ? `; advisory locks are not replicated, so ${freed.join(', ')} ${freed.length === 1 ? 'is' : 'are'} free here` : ''}`,
  pgDemoted: (server: string, primary: string, timeline: number) =>
    `${server} learns ${primary} is primary on timeline ${timeline}: it becomes a replica and closes its sessions`,
  // ZooKeeper.
  zkCreated: (node: string, path: string, client: string, zxid: number) => `${node} creates ${path} for ${client} (zxid ${zxid})`,
  zkDeleted: (node: string, path: string, client: string) => `${node} deletes ${path} for ${client}`,
  zkExpiring: (node: string, client: string, session: number, timeoutMs: number) =>
    `${node} hears no ping from ${client}'s session ${session} for ${timeoutMs} ms: it proposes to close it`,
  zkClosed: (node: string, session: number, reason: string, client: string, removed: readonly string[]) =>
    `${node} closes ${client}'s session ${session} (${reason})${removed.length > 0 ? ` and deletes its ephemeral ${removed.join(', ')}` : ''}`,
  zkWatchFired: (node: string, client: string, path: string, event: 'deleted' | 'children') =>
    `${node} fires ${client}'s watch: ${event === 'deleted' ? `${path} was deleted` : `the children of ${path} changed`}`,
  // etcd.
  etcdPut: (node: string, key: string, client: string, revision: number) =>
    `${node} puts ${key} for ${client} (create revision ${revision})`,
  etcdDeleted: (node: string, key: string, client: string) => `${node} deletes ${key} for ${client}`,
  etcdExpiring: (node: string, client: string, lease: number, ttlMs: number) =>
    `${node} hears no keep-alive for ${client}'s lease ${lease} in ${ttlMs} ms: it proposes to revoke it`,
  etcdRevoked: (node: string, lease: number, removed: readonly string[]) =>
    `${node} revokes lease ${lease}${removed.length > 0 ? ` and deletes ${removed.join(', ')}` : ''}`,
  etcdWatchFired: (node: string, client: string, key: string, revision: number) =>
    `${node} tells ${client}'s watch: ${key} deleted at revision ${revision}`,
  // Gossip.
  gossipSuspects: (member: string, other: string, failMs: number) =>
    `${member} takes ${other} for dead: its heartbeat has not grown for ${failMs} ms`,
  gossipRevives: (member: string, other: string) => `${member} hears ${other}'s heartbeat grow again: alive`,
  gossipLeads: (client: string, key: string) => `${client} is the lowest contender for ${key} it believes alive: it leads`,
  validityRanOut: (client: string, key: string, oks: number, elapsedMs: number, driftMs: number, ttlMs: number) =>
    `${client} got ${key} on ${oks} instances, but its validity ran out: ${ttlMs} - ${elapsedMs} elapsed - ${driftMs} drift allowance <= 0 ms; it unlocks all`,
};
