/**
 * Issue 28's failure detectors (docs/semantics.md, "Failure detectors"): phi-accrual's suspicion
 * comes from the window of heartbeat inter-arrival times (Hayashibara et al. 2004), so a slower
 * but steady network raises latency without raising suspicion; gossip spreads suspicion from view
 * to view (van Renesse et al. 1998, SWIM's suspicion); a detector draws from its own stream, so a
 * run where the leader never fails is the fixed run's, line for line.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../src/sim/run/simulation';
import { DEFAULT_CONFIG, configFromFields, type ConfigFields } from '../src/sim/model/config';
import { parseSchedule } from '../src/sim/model/schedule';
import { ArrivalWindow, crossingY, normalTail, phiOf } from '../src/sim/detect/phi';
import { runSimCli } from '../src/cli/simCli';
import { takeRunView } from '../src/sim/view/runView';
import { explain } from '../src/sim/teach/why';
import { gossipConvergence } from '../src/sim/experiments/gossipScale';

const config = (fields: ConfigFields) => {
  const c = configFromFields(DEFAULT_CONFIG, fields);
  if (typeof c === 'string') throw new Error(c);
  return c;
};
const schedule = (text: string) => parseSchedule(text);

describe('phi-accrual: suspicion from the inter-arrival window', () => {
  it('φ is −log10 of the chance a heartbeat is merely late: 0.3 at the mean, growing with the silence', () => {
    expect(normalTail(0)).toBeCloseTo(0.5, 10);
    expect(phiOf(100, 100, 10)).toBeCloseTo(-Math.log10(0.5), 10);
    expect(phiOf(120, 100, 10)).toBeGreaterThan(phiOf(110, 100, 10));
    // The crossing point of Φ is where φ equals Φ.
    const y = crossingY(8);
    expect(phiOf(100 + y * 10, 100, 10)).toBeCloseTo(8, 6);
  });

  it('a slower but steady network raises the mean, not the suspicion; a jittery one raises σ and the timeout', () => {
    const steady = (gap: number) => {
      const w = new ArrivalWindow(20, 50);
      for (let i = 0; i <= 40; i++) w.heartbeat(i * gap);
      return w;
    };
    const fast = steady(50);
    const slow = steady(150);
    expect(fast.meanMs).toBeCloseTo(50, 6);
    expect(slow.meanMs).toBeCloseTo(150, 6);
    // 150 ms of silence: damning on the 50 ms network, ordinary on the 150 ms one.
    expect(fast.phiAt(fast.lastMs + 150, 5)).toBeGreaterThan(8);
    expect(slow.phiAt(slow.lastMs + 150, 5)).toBeLessThan(1);
    const y = crossingY(8);
    expect(slow.timeoutMs(y, 5) - fast.timeoutMs(y, 5)).toBeCloseTo(100, 6);
    const jitter = new ArrivalWindow(20, 50);
    for (let i = 0, t = 0; i <= 40; i++, t += i % 2 === 0 ? 30 : 70) jitter.heartbeat(t);
    expect(jitter.meanMs).toBeCloseTo(50, 0);
    expect(jitter.timeoutMs(y, 5)).toBeGreaterThan(fast.timeoutMs(y, 5) + 50);
  });

  it('the window keeps only the last N inter-arrivals: old fast heartbeats are forgotten', () => {
    const w = new ArrivalWindow(10, 50);
    let t = 0;
    for (let i = 0; i < 30; i++) w.heartbeat((t += 50));
    for (let i = 0; i < 10; i++) w.heartbeat((t += 200));
    expect(w.meanMs).toBeCloseTo(200, 6);
  });
});

describe('a detector draws from its own stream', () => {
  it('with no failure, phi-accrual and gossip runs are the fixed run: its lines, commits and the main stream’s next draw', () => {
    const lines = (fields: ConfigFields) => {
      const sim = new Simulation(config(fields), schedule('@400 submit x=1; @900 submit y=2'));
      sim.advanceTo(3000);
      const c = sim.cluster;
      // The chapter's lines, what each node committed, and the main stream's next draw.
      return { lines: c.events.map((e) => e.line), commits: c.nodes.map((n) => n.commitIndex), next: c.rng.random() };
    };
    const fixed = lines({});
    expect(fixed.lines.length).toBeGreaterThanOrEqual(2);
    expect(fixed.commits).toEqual([2, 2, 2, 2, 2]);
    expect(lines({ detector: 'phi-accrual' })).toEqual(fixed);
    expect(lines({ detector: 'gossip' })).toEqual(fixed);
  });

  it('phi-accrual: a follower campaigns Φ’s adaptive timeout after the crashed leader’s last heartbeat, sooner than the chapter’s timer at Φ 1', () => {
    const firstCampaign = (fields: ConfigFields) => {
      const sim = new Simulation(config(fields), schedule('@1000 crash n2'));
      sim.advanceTo(4000);
      const e = sim.cluster.events.find((x) => x.t > 1000 && x.line.includes('election timeout'));
      if (e === undefined) throw new Error('no election after the crash');
      return e.t;
    };
    const low = firstCampaign({ detector: 'phi-accrual', phi: '1' });
    const high = firstCampaign({ detector: 'phi-accrual', phi: '16' });
    expect(low).toBeLessThan(high);
    // The last heartbeat reached the followers before 1000 ms + latency; Φ 1 is about 1 σ past the mean.
    expect(low - 1000).toBeLessThan(50 + 15 + 150 + 1);
  });
});

describe('gossip: suspicion spreads from view to view', () => {
  it('a crashed node is suspected by every live node within a few rounds, some of them told by gossip', () => {
    const sim = new Simulation(config({ nodes: '60', detector: 'gossip', suspect: '400' }), schedule('@1000 crash n7'));
    sim.advanceTo(2500);
    const g = sim.cluster.gossip;
    expect(g).not.toBeNull();
    if (g === null) return;
    const of7 = g.suspicions.filter((s) => s.member === 'n7');
    expect(g.suspectedBy('n7')).toEqual({ by: 59, of: 59 });
    expect(of7.some((s) => s.how === 'gossip')).toBe(true);
    // Told by gossip before its own silence ran out: the first suspicion comes ≥ 400 ms after the
    // crash, and everyone has it less than the 400 ms more a node's own silence would take.
    const first = Math.min(...of7.map((s) => s.t));
    const last = Math.max(...of7.map((s) => s.t));
    expect(first).toBeGreaterThanOrEqual(1400);
    expect(last - first).toBeLessThan(400);
    // Nobody suspects a live node.
    expect(g.suspicions.filter((s) => s.member !== 'n7' && s.t < 2500)).toEqual([]);
  });

  it('bad detector input is one sentence naming the field', () => {
    const r = runSimCli(['--detector', 'heartbeat']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/detector must be one of fixed, phi-accrual, gossip/i);
    const p = runSimCli(['--phi', '3']);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/phi-accrual/);
  });
});

describe('the TTL rule: a takeover threshold must exceed the TTL', () => {
  const run = (takeoverMs: number) =>
    runSimCli(['--preset', 'takeover-ttl', '--detector', 'fixed', '--takeover', String(takeoverMs), '--json']).stdout;

  it('below the TTL a paused holder wakes to find its lock taken over: two holders, in text and JSON', () => {
    const text = runSimCli(['--preset', 'takeover-ttl']).stdout;
    expect(text).toMatch(/n2 suspects A \(fixed: silent 3\d\d\d ms\) and takes job:42 \(token 1\) over \d+ ms before its lease ends/);
    expect(text).toContain('findings: two holders');
    const json = JSON.parse(run(3000)) as { invariants: { twoHolders?: number } };
    expect(json.invariants.twoHolders).toBe(1);
  });

  it('a grant taken over before its answer arrives is the same finding, not a broken lease (fuzz --network, run 23, seed 1)', () => {
    // C's grant (lease 849 ms) commits at 347 ms; its answer is delayed 314 ms, so gossip suspects C
    // and the leader takes k1 over at 383 ms; C is told it holds k1 at 686 ms, its lease running to 1074.
    const link =
      '?v=1&seed=2945683834&timeout=134-205&heartbeat=34&latency=lognormal%3A18.832%3A1.35&clients=ABC&features=pre-vote%2Ccheck-quorum%2Cleader-noop%2Csnapshots%2Creads%2Cfast-backup%2Ctransfer%2Cmembership&snapshot=7&detector=gossip&fanout=1&s=%40225+client+C+acquire+k1+849%3B+%40277+delay+C+314&t=687';
    const out = runSimCli(['--link', link, '--until', '1200']).stdout;
    expect(out).toContain('n3 suspects C (gossip: silent 129 ms) and takes k1 (token 1) over');
    expect(out).toContain('C acquires k1 -> token 1, its lease ends by t=1074 ms');
    expect(out).toContain('invariants: every invariant held at every millisecond');
    expect(out).toContain('findings: two holders');
  });

  it('a holding taken over stays one finding when the next holder’s lease ends (fuzz --network, run 39, seed 1)', () => {
    // D's token 1 is taken over at 2116 ms while D counts its lease to 9592 ms; A's token 2 is granted and expires at 6767 ms.
    const out = runSimCli([
      ...['--seed', '4216652404', '--nodes', '9', '--timeout', '298-393', '--heartbeat', '95', '--latency', '3.08-6.67'],
      ...['--clients', 'A,B,C,D', '--detector', 'phi-accrual', '--phi', '1', '--phi-window', '86', '--until', '7000'],
      ...['--schedule', '@1622 client D acquire k1 7970; @1868 restart n7; @6699 client A acquire k1 34'],
    ]).stdout;
    expect(out).toMatch(/suspects D \(phi-accrual: silent \d+ ms, φ [\d.]+\) and takes k1 \(token 1\) over/);
    expect(out).toMatch(/expires k1 \(token 2\)/);
    expect(out).toContain('invariants: every invariant held at every millisecond');
    expect(out).toContain('findings: two holders');
  });

  it('above the TTL nobody takes the lock over: no two holders', () => {
    const json = JSON.parse(run(12000)) as { invariants: { twoHolders?: number }; events: string[] };
    expect(json.invariants.twoHolders).toBeUndefined();
    expect(json.events.some((l) => l.includes('takes job:42'))).toBe(false);
    expect(json.events.some((l) => l.includes('refuses job:42 to B: busy (held by A)'))).toBe(true);
  });
});

describe('Why? for the detectors’ messages', () => {
  const firstOf = (fields: ConfigFields, text: string, type: string, untilMs: number) => {
    const sim = new Simulation(config(fields), schedule(text));
    for (let t = 1; t <= untilMs; t++) {
      sim.advanceTo(t);
      const snap = takeRunView(sim);
      const m = snap.messages.find((x) => x.type === type);
      if (m !== undefined) return explain({ kind: 'message', seq: m.seq }, snap);
    }
    throw new Error(`no ${type} in flight by ${untilMs} ms`);
  };

  it('a Gossip message says what the view carries and how suspicion spreads, citing van Renesse et al.', () => {
    const e = firstOf({ detector: 'gossip' }, '', 'Gossip', 200);
    expect(e.title).toMatch(/^Gossip n\d → n\d$/);
    expect(e.answer.join(' ')).toMatch(/highest heartbeat counter it has heard of for \d+ members?/);
    expect(e.answer.join(' ')).toMatch(/logarithmic number of rounds/);
    expect(e.rule).toMatch(/van Renesse/);
  });

  it('a keep-alive names the keys and the TTL rule', () => {
    const e = firstOf({ clients: 'A,B', detector: 'fixed', takeover: '3000' }, '@1000 client A acquire job:42 10000', 'KeepAlive', 1500);
    expect(e.title).toMatch(/^Keep-alive A → n\d$/);
    expect(e.answer.join(' ')).toContain('believes it holds job:42');
    expect(e.rule).toContain('the takeover threshold must exceed the TTL');
  });
});

describe('Why? for a node names the run’s failure detector', () => {
  const followerWhy = (fields: ConfigFields, text: string, atMs: number) => {
    const sim = new Simulation(config(fields), schedule(text));
    sim.advanceTo(atMs);
    const snap = takeRunView(sim);
    const f = snap.nodes.find((n) => n.alive && n.role === 'follower' && n.leaderId !== null);
    if (f === undefined) throw new Error('no follower with a leader');
    return { e: explain({ kind: 'node', id: f.id }, snap), node: f };
  };

  it('phi-accrual: the follower’s φ of its leader, the window’s mean and σ, and Φ, citing Hayashibara et al.', () => {
    const { e, node } = followerWhy({ detector: 'phi-accrual', phi: '5' }, '', 3000);
    const text = e.answer.join(' ');
    expect(node.watch?.kind).toBe('phi-accrual');
    expect(text).toMatch(/failure detector is phi-accrual, not a fixed timer/);
    expect(text).toMatch(/mean [\d.]+ ms, σ [\d.]+ ms/);
    expect(text).toContain('once φ reaches Φ = 5');
    expect(text).not.toContain('The timeout is random per node');
    expect(e.rule).toMatch(/Hayashibara/);
    expect(e.facts).toContainEqual(['failure detector', 'phi-accrual (Φ 5, window 100)']);
  });

  it('gossip: whom the view suspects — a crashed node, by every live follower a few rounds later', () => {
    const before = followerWhy({ detector: 'gossip' }, '', 2000);
    expect(before.e.answer.join(' ')).toContain('Its view suspects nobody.');
    expect(before.e.rule).toMatch(/van Renesse/);
    // Crash a follower other than the one asked about: its counter stops, and views suspect it.
    const leader = before.node.leaderId as string;
    const other = ['n1', 'n2', 'n3', 'n4', 'n5'].find((id) => id !== leader && id !== before.node.id) as string;
    const after = followerWhy({ detector: 'gossip' }, `@2000 crash ${other}`, 3500);
    expect(after.e.answer.join(' ')).toContain(`Its view suspects ${other}.`);
    expect(after.e.facts).toContainEqual(['suspects', other]);
  });

  it('the chapter’s fixed timer keeps its own sentence and no detector fact', () => {
    const { e, node } = followerWhy({}, '', 2000);
    expect(node.watch).toBeUndefined();
    expect(e.answer.join(' ')).toContain('The timeout is random per node');
    expect((e.facts ?? []).map(([k]) => k)).not.toContain('failure detector');
  });
});

describe('gossip at scale: suspicion spreads in about log N rounds', () => {
  it('at 16 and 128 nodes every live node suspects a crashed follower, most told by gossip, the spread within log2 N rounds', () => {
    for (const n of [16, 128]) {
      const r = gossipConvergence(n, 3);
      expect(r.rounds, `${n} nodes`).not.toBeNull();
      expect(r.spreadRounds as number).toBeLessThanOrEqual(Math.log2(n));
      expect(r.toldByGossip).toBeGreaterThan((n - 1) / 2);
    }
  });
});
