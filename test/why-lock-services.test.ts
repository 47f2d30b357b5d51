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
