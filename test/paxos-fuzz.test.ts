// The Paxos swarm (check/fuzz/paxos.ts): each Paxos bug is found within 200 runs with a replay
// that reproduces it (the bar), and a short clean swarm holds every Paxos invariant.
// The long clean runs belong to `npm run fuzz -- --protocol paxos|multi-paxos`.
import { describe, expect, it } from 'vitest';
import { paxosBugsOf } from '../src/sim/model/features';
import { paxosFuzz, paxosReplay } from '../src/sim/check/fuzz/paxos';
import { decodeLink, encodeLink } from '../src/share/link';
import { runFuzzCli } from '../src/cli/fuzzCli';

describe('the Paxos swarm', () => {
  for (const protocol of ['paxos', 'multi-paxos'] as const) {
    for (const bug of paxosBugsOf(protocol)) {
      it(`finds ${bug} in ${protocol} within 200 runs, and its shrunk schedule replays the violation through a share link`, () => {
        const { counterexample: cx, runs } = paxosFuzz(1, 200, protocol, [bug]);
        expect(cx).not.toBeNull();
        if (cx === null) return;
        expect(runs).toBeLessThanOrEqual(200);
        const link = decodeLink(encodeLink({ config: cx.config, schedule: cx.schedule, atMs: cx.untilMs }));
        expect(link.ok).toBe(true);
        if (!link.ok) return;
        const again = paxosReplay(link.spec.config, link.spec.schedule, link.spec.atMs + 1);
        expect(again?.invariant).toBe(cx.violation.invariant);
        expect(again?.t).toBe(cx.violation.t);
      });
    }
    it(`holds every invariant over 25 clean ${protocol} runs`, () => {
      expect(paxosFuzz(7, 25, protocol).counterexample).toBeNull();
    });
  }

  it('the fuzz command takes --protocol and names a wrong bug in one sentence', () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), progress: () => {}, tty: false, clock: () => 0 };
    expect(runFuzzCli(['--protocol', 'paxos', '--bug', 'figure8'], io)).toBe(2);
    expect(out[0]).toBe(
      'Unknown bug "figure8" in --bug; the bugs of paxos are paxos-own-value, paxos-accept-below-promise, paxos-forget-promise.',
    );
    out.length = 0;
    expect(runFuzzCli(['--protocol', 'paxos', '--bug', 'paxos-own-value', '--runs', '5'], io)).toBe(1);
    expect(out[0]).toMatch(/^VIOLATION of /);
    expect(out.find((l) => l.startsWith('replay: npm run sim -- '))).toContain('--protocol paxos');
  });
});
