// A client follows only the redirect that answers its latest send. Before, a duplicated
// not-leader answer from the node the request was with moved it again, so under the duplicate
// fault a request forked into copies that multiplied; in a one-node cluster (the next node is the
// same node) the copies grew exponentially until the fuzzer ran out of memory (seed 45, run 29).
import { describe, expect, it } from 'vitest';
import { ClientActor, type ClientHost } from '../src/sim/service/clientActor';
import { makeConfig, nodeIdsFor } from '../src/sim/model/config';
import { fuzzRun } from '../src/sim/check/fuzz';
import { History } from '../src/sim/model/history';
import { parseSchedule } from '../src/sim/model/schedule';
import { Simulation } from '../src/sim/run/simulation';
import type { ClientReply, ClientRequest, StoreWrite } from '../src/sim/model/types';

function oneNodeClient(): { client: ClientActor; sent: ClientRequest[]; host: ClientHost & { nowMs: number } } {
  const sent: ClientRequest[] = [];
  const host = {
    nowMs: 0,
    config: { nodeIds: ['n1'] },
    send: (_src: string, _dst: string, msg: ClientRequest | StoreWrite) => {
      if (msg.type === 'ClientRequest') sent.push(msg);
    },
    logEvent: () => {},
  };
  return { client: new ClientActor('A', host, null, new History()), sent, host };
}

const notLeader = (attempt: number | undefined): ClientReply => ({
  type: 'ClientReply',
  id: 1,
  op: 'acquire',
  key: 'k',
  outcome: 'not-leader',
  token: null,
  leaderHint: null,
  index: null,
  ...(attempt === undefined ? {} : { attempt }),
});

describe('client redirects answer one send each', () => {
  it('every send of a request carries the next attempt number', () => {
    const { client, sent, host } = oneNodeClient();
    client.request({ op: 'acquire', key: 'k', leaseMs: 1000 });
    host.nowMs = 300;
    client.tick(300); // nothing heard: retried
    expect(sent.map((m) => [m.id, m.attempt])).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it('a not-leader answer to an earlier send (a duplicate or a late copy) is ignored; the answer to the latest send is followed', () => {
    const { client, sent, host } = oneNodeClient();
    client.request({ op: 'acquire', key: 'k', leaseMs: 1000 });
    host.nowMs = 10;
    client.receive('n1', notLeader(1));
    expect(sent).toHaveLength(2); // followed: sent again, attempt 2
    client.receive('n1', notLeader(1)); // the same answer once more (duplicated in flight)
    expect(sent).toHaveLength(2);
    client.receive('n1', notLeader(2));
    expect(sent.map((m) => m.attempt)).toEqual([1, 2, 3]);
  });

  it('a node that is not the leader echoes the attempt it answers', () => {
    const sim = new Simulation(makeConfig({ nodeIds: nodeIdsFor(3), clientIds: ['A'] }), parseSchedule('@10 client A acquire k 1000'));
    const replies: ClientReply[] = [];
    sim.cluster.tracer = null;
    const send = sim.cluster.send.bind(sim.cluster);
    sim.cluster.send = (src, dst, msg) => {
      if (msg.type === 'ClientReply' && msg.outcome === 'not-leader') replies.push(msg);
      send(src, dst, msg);
    };
    sim.advanceTo(60); // no leader yet at 10 ms: n1 redirects
    expect(replies.length).toBeGreaterThan(0);
    expect(replies[0].attempt).toBe(1);
  });

  it('one node, no leader for a while, 40% duplication: the request goes round the node a bounded number of times', () => {
    // n1 restarts as a follower and has no leader until its election timer fires (up to 300 ms).
    const sim = new Simulation(
      makeConfig({ nodeIds: ['n1'], clientIds: ['A', 'B'] }),
      parseSchedule('@500 duplicate 40; @1000 crash n1; @1100 restart n1; @1100 client A acquire k 1000; @1100 client B acquire k 1000'),
    );
    sim.advanceTo(1500);
    // One send per round trip (at least 2 ms) per client: at most ~2 × 400 / 2, never thousands.
    expect(sim.cluster.sent.ClientRequest).toBeLessThan(450);
    expect(sim.cluster.events.some((e) => e.kind === 'client-redirected')).toBe(true);
  });

  it('the fuzz run that ran out of memory (seed 45, run 29: one node, duplicates) now finishes', () => {
    const outcome = fuzzRun(45, 29);
    expect(outcome.config.nodeIds).toEqual(['n1']);
    expect(outcome.violation).toBeNull();
    expect(outcome.untilMs).toBeGreaterThanOrEqual(10_000);
  });
});
