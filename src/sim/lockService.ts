import type { Cluster } from './cluster';
import type { ClientIntent } from './schedule';
export class LockService {
  constructor(readonly cluster: Cluster, readonly clientIds: readonly string[]) {}
  clientIntent(_client: string, _intent: ClientIntent): void {}
  report(): Record<string, unknown> { return {}; }
  summaryLines(): string[] { return []; }
}
