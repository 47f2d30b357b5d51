/**
 * Issue 26 item 5: a Why for every new event of the other lock services — session expired,
 * lease revoked, validity ran out, key lost on restart, key expired, connection lost — each built
 * from a run that logs it, naming the event and citing the system's own documents.
 */
import { describe, expect, it } from 'vitest';
import { decodeLink } from '../src/share/link';
import { Simulation } from '../src/sim/run/simulation';
import { SERVICE_WHY_KINDS, explain, whyServiceEvent } from '../src/sim/teach/why';
import { takeRunView } from '../src/sim/view/runView';

function run(flags: string, schedule: string, untilMs: number): Simulation {
  const d = decodeLink(`?v=1&${flags}&s=${encodeURIComponent(schedule)}&t=${untilMs}`, { pageCap: false });
  if (!d.ok) throw new Error(d.error);
  const sim = new Simulation(d.spec.config, d.spec.schedule);
  sim.advanceTo(untilMs);
  return sim;
}

const cases: [string, string, string, number, RegExp][] = [
  [
    'session-expired',
    'seed=3&clients=AB&lock=zookeeper',
    '@500 client A acquire job 1000; @900 client A pause 3000',
    3500,
    /ZooKeeper Sessions/,
  ],
  ['lease-revoked', 'seed=3&clients=AB&lock=etcd', '@500 client A acquire job 1000; @900 client A pause 3000', 3500, /"Lease"/],
  ['key-expired', 'seed=3&nodes=1&clients=AB&lock=redis', '@500 client A acquire job 1000', 2000, /Redlock algorithm/],
  [
    'key-lost',
    'seed=3&nodes=1&clients=AB&lock=redis',
    '@500 client A acquire job 5000; @1000 crash r1; @1100 restart r1',
    2000,
    /persistence/,
  ],
  [
    'connection-lost',
    'seed=3&nodes=1&clients=AB&lock=advisory',
    '@500 client A acquire job 1000; @900 client A crash',
    2000,
    /Advisory Locks/,
  ],
  ['validity-ran-out', 'seed=3&clients=AB&lock=redlock', '@500 client A acquire job 10', 1500, /validity time/],
];

describe('Why for the other lock services’ events (issue 26)', () => {
  it('covers every kind it lists', () => {
    expect(cases.map((c) => c[0]).sort()).toEqual([...SERVICE_WHY_KINDS].sort());
  });

  it.each(cases)('%s: the run logs it, and its Why names the event and cites the rule', (kind, flags, schedule, until, source) => {
    const sim = run(flags, schedule, until);
    const e = sim.cluster.events.find((x) => x.kind === kind);
    expect(e, `${kind} in ${sim.cluster.events.map((x) => x.line).join('\n')}`).toBeDefined();
    if (e === undefined) return;
    const why = whyServiceEvent(e);
    expect(why?.answer[0]).toBe(`At t=${e.t} ms: ${e.text}`);
    expect(why?.answer.length).toBeGreaterThan(1);
    expect(why?.rule).toMatch(source);
  });

  it('a client’s Why ends with why its service’s last event about it happened', () => {
    const sim = run('seed=3&clients=AB&lock=zookeeper', '@500 client A acquire job 1000; @900 client A pause 3000', 3500);
    const why = explain({ kind: 'client', id: 'A' }, takeRunView(sim), sim.cluster.events);
    expect(why.answer.join(' ')).toContain('closed the session through the log');
    expect(why.rule).toContain('ZooKeeper Programmer’s Guide');
  });

  it('other events have no service Why', () => {
    expect(whyServiceEvent({ t: 1, kind: 'crash', subjects: ['n1'], text: 'n1 crashes', line: '' })).toBeNull();
  });
});

describe('a server of a service without Raft is drawn and explained as what it is, not as a Raft follower in term 0', () => {
  it('a Redis primary: its part and the key it holds, in the run view and its Why', () => {
    const sim = run('seed=3&nodes=1&clients=AB&lock=redis', '@500 client A acquire job 5000', 1000);
    const view = takeRunView(sim);
    expect(view.nodes[0].server).toEqual({
      role: 'primary',
      holds: 'job: A-1',
      line: expect.stringContaining('r1: primary (epoch 0), job=A-1'),
    });
    const why = explain({ kind: 'node', id: 'r1' }, view, sim.cluster.events);
    expect(why.title).toBe('What is r1?');
    expect(why.answer.join(' ')).toContain('It is the Redis primary');
    expect(why.answer.join(' ')).not.toContain('term 0');
    expect(why.rule).toContain('Distributed Locks with Redis');
    expect(why.facts).toContainEqual(['holds', 'job: A-1']);
  });

  it('Redlock instances, a database primary and replica, gossip members: each its own part; a replica is told apart', () => {
    const redlock = takeRunView(run('seed=3&clients=AB&lock=redlock', '@500 client A acquire job 5000', 1000));
    expect(redlock.nodes.map((n) => n.server?.role)).toEqual(['instance', 'instance', 'instance', 'instance', 'instance']);
    expect(redlock.nodes.filter((n) => n.server?.holds === 'job: A-1').length).toBeGreaterThanOrEqual(3);
    const pg = takeRunView(run('seed=3&nodes=2&clients=AB&lock=advisory', '@500 client A acquire job 5000', 1000));
    expect(pg.nodes.map((n) => [n.server?.role, n.server?.holds])).toEqual([
      ['primary', 'job: A'],
      ['replica', 'no locks'],
    ]);
    const gossip = takeRunView(run('seed=3&nodes=3&clients=AB&lock=gossip', '@500 client A acquire job 5000', 1500));
    expect(gossip.nodes.map((n) => n.server?.role)).toEqual(['member', 'member', 'member']);
    expect(gossip.nodes[0].server?.holds).toBe('5/5 alive');
  });

  it('services on the Raft engine, and the chapter, keep Raft roles: no server facts', () => {
    for (const flags of ['seed=3&clients=AB', 'seed=3&clients=AB&lock=zookeeper', 'seed=3&clients=AB&lock=etcd']) {
      const view = takeRunView(run(flags, '@500 client A acquire job 5000', 1000));
      expect(view.nodes.every((n) => n.server === undefined)).toBe(true);
    }
  });
});

describe("the Locks panel's table for another service is that service's own state, in its terms", () => {
  const queue = '@500 client A acquire job 20000; @800 client B acquire job 20000; @800 client C acquire job 20000';
  it('ZooKeeper: the lowest child holds with its zxid, each other waits watching the child before its own (or, with herd, the parent)', () => {
    const rows = takeRunView(run('seed=3&clients=ABC&lock=zookeeper', queue, 1400)).lockRows ?? [];
    expect(rows.map((r) => r.state)).toEqual(['holds', 'waits', 'waits']);
    expect(rows[0]).toMatchObject({ key: 'job', client: 'A', server: null, token: expect.stringMatching(/^zxid \d+$/) });
    expect(rows[1].note).toMatch(/^lock-0000000001, watches lock-0000000000$/);
    expect(rows[2].note).toMatch(/^lock-0000000002, watches lock-0000000001$/);
    const herd = takeRunView(run('seed=3&clients=ABC&lock=zookeeper&lockopts=herd', queue, 1400)).lockRows ?? [];
    expect(herd.slice(1).map((r) => r.note.replace(/^lock-\d+, /, ''))).toEqual(['watches /locks/job', 'watches /locks/job']);
  });

  it('etcd: the lowest create revision holds, each other watches the key before its own', () => {
    const rows = takeRunView(run('seed=3&clients=ABC&lock=etcd', queue, 1400)).lockRows ?? [];
    expect(rows.map((r) => [r.client, r.state])).toEqual([
      ['A', 'holds'],
      [rows[1].client, 'waits'],
      [rows[2].client, 'waits'],
    ]);
    expect(rows[2].note).toContain(`watches /lock/job/`);
  });

  it('Redis: the key on its instance, whose value it holds and when its own clock expires it; gone once it has', () => {
    const held = takeRunView(run('seed=3&nodes=1&clients=AB&lock=redis', '@500 client A acquire job 2000', 1000)).lockRows ?? [];
    expect(held).toEqual([
      {
        key: 'job',
        server: 'r1',
        client: 'A',
        state: 'holds',
        token: 'none',
        note: expect.stringMatching(/^value A-1, expires in 1\d{3} ms by r1's clock$/),
      },
    ]);
    expect(takeRunView(run('seed=3&nodes=1&clients=AB&lock=redis', '@500 client A acquire job 2000', 3000)).lockRows).toEqual([]);
  });

  it("the chapter's service has no such table: its Locks panel is Raft's lock state machine, node by node", () => {
    expect(takeRunView(run('seed=3&clients=AB', '@500 client A acquire job 2000', 1000)).lockRows).toBeUndefined();
  });
});
