import type { Cluster } from '../../net/cluster';
import type { SimConfig } from '../../model/config';
import type { CPythonRandom } from '../../model/prng';
import type { ActionBody, ClientIntent } from '../../model/schedule';
import type { Simulation } from '../../run/simulation';
import { after, type StoryDriver, type StoryGen } from './driver';
import type { SwarmDraw } from './draw';
import type { SwarmNames } from './names';
import { majorityOf } from '../../raft/quorum';
import { latencyBoundsMs } from '../../model/network';

/**
 * What a fault or story of one fuzz run works with: the run's PRNG, the live simulation, the
 * drawn options, and small helpers. Every change goes through `act`, so it lands in the run's
 * schedule and replays exactly.
 */
export class RunContext {
  readonly config: SimConfig;
  readonly keys: readonly string[];
  /**
   * The longest one-way latency the network draws, in whole ms (issue 28: a fraction, a lognormal's
   * cut or a region's round trip; the chapter's uniform range is its own bound), for stories that
   * wait about one message's trip.
   */
  readonly latencyMaxMs: number;
  private valueCounter = 0;

  constructor(
    readonly rng: CPythonRandom,
    draw: SwarmDraw,
    readonly sim: Simulation,
    private readonly driver: StoryDriver,
    /** The run ends here; a story that repeats checks it. */
    readonly durationMs: number,
    /** Names the run shares (names.ts): whether a partition names clients too; null: it never does. */
    readonly names: SwarmNames | null = null,
  ) {
    this.config = draw.config;
    this.keys = draw.keys;
    this.latencyMaxMs = Math.ceil(latencyBoundsMs(draw.config)[1]);
  }

  get cluster(): Cluster {
    return this.sim.cluster;
  }

  get nowMs(): number {
    return this.sim.nowMs;
  }

  act(body: ActionBody): void {
    this.sim.act(body);
  }

  client(id: string, intent: ClientIntent): void {
    this.act({ verb: 'client', client: id, intent });
  }

  /**
   * Runs `story` alongside the caller, which goes on at once; the story runs until its first wait
   * now. Write it as a module-level `function*` and pass its generator: a `function*` expression
   * inside a story made V8 keep each run alive long enough to be promoted, and cost the fuzzer
   * about a fifth of its throughput in garbage collection.
   */
  spawn(story: StoryGen): void {
    this.driver.start(story);
  }

  /** Applies `body` after `ms`, while the caller goes on. */
  actLater(ms: number, body: ActionBody): void {
    this.spawn(actAfter(this, ms, body));
  }

  /** Crashes `id` if it is up, and restarts it after `downMs` unless that is null. */
  crashAndRestart(id: string, downMs: number | null): void {
    if (!this.cluster.node(id).alive) return;
    this.act({ verb: 'crash', node: id });
    if (downMs !== null) this.actLater(downMs, { verb: 'restart', node: id });
  }

  pick<T>(items: readonly T[]): T {
    return items[this.rng.randbelow(items.length)];
  }

  chance(p: number): boolean {
    return this.rng.random() < p;
  }

  randint(a: number, b: number): number {
    return this.rng.randint(a, b);
  }

  /** A fresh value for a submit or a write: `v1`, `A2`, ... numbered across the run. */
  value(prefix: string): string {
    return `${prefix}${++this.valueCounter}`;
  }

  aliveNodes(): string[] {
    return this.cluster.nodes.filter((n) => n.alive).map((n) => n.id);
  }

  leaderId(): string | null {
    return this.cluster.leader()?.id ?? null;
  }

  /** True when a majority would still be up after one more crash. */
  majorityAlive(): boolean {
    const alive = this.aliveNodes().length;
    return alive - 1 >= majorityOf(this.config.nodeIds.length);
  }

  /** Two different clients, or null when the run has fewer than two. */
  twoClients(): [string, string] | null {
    const ids = this.config.clientIds;
    if (ids.length < 2) return null;
    const a = this.pick(ids);
    let b = this.pick(ids);
    while (b === a) b = this.pick(ids);
    return [a, b];
  }
}

function* actAfter(ctx: RunContext, ms: number, body: ActionBody): StoryGen {
  yield after(ms);
  ctx.act(body);
}
