/**
 * Issue 26 item 4: the chapter's table, measured. The rules each check are the services' own:
 * a lock that lives as long as its connection survives a pause its kernel keeps answering
 * probes through; a TTL without a token lets the woken holder's write land after the new one's;
 * a token lets the fenced store refuse it. Each cell's link replays the run that shows it.
 */
import { describe, expect, it } from 'vitest';
import { runCompareLocksCli, isCompareLocks } from '../src/cli/compareLocksCli';
import { compareLocks, runScenario } from '../src/sim/experiments/compareLocks';
import { decodeLink } from '../src/share/link';
import { Simulation } from '../src/sim/run/simulation';
import { lockMeasures } from '../src/sim/view/lockMeasures';

describe('compare-locks (issue 26 item 4)', () => {
  const rows = compareLocks(2, 1);
  const row = (name: string) => {
    const r = rows.find((x) => x.service === name);
    if (r === undefined) throw new Error(name);
    return r;
  };

  it('has one row per lock service, in the registry’s order, with the chapter’s words', () => {
    expect(rows.map((r) => r.service)).toEqual(['raft', 'zookeeper', 'etcd', 'advisory', 'redis', 'redlock', 'gossip']);
    expect(row('redis').chapter.safeWhenPaused).toBe('No');
    expect(row('raft').chapter.writeCost).toContain('500 µs');
  });

  it('a pause past the TTL: the services with a token keep the fenced store in order; without one the fenced store cannot help', () => {
    for (const s of ['raft', 'zookeeper', 'etcd']) {
      expect(row(s).unfenced.runs, s).toBe(2);
      expect(row(s).fenced?.runs, s).toBe(0);
    }
    for (const s of ['redis', 'redlock', 'gossip']) {
      expect(row(s).fenced, s).toBeNull();
      expect(row(s).unfenced.runs, s).toBe(2);
      expect(row(s).overlap.runs, s).toBe(2);
    }
  });

  it('the advisory lock lives as long as the connection, which the paused client’s kernel keeps alive: no overlap', () => {
    expect(row('advisory').overlap.runs).toBe(0);
    expect(row('advisory').unfenced.runs).toBe(0);
  });

  it('failover after a holder crash: the connection closes at once for advisory, the TTL runs out for the others', () => {
    expect(row('advisory').failover.medianMs as number).toBeLessThan(500);
    for (const s of ['raft', 'zookeeper', 'etcd', 'redis', 'redlock']) expect(row(s).failover.medianMs as number, s).toBeGreaterThan(1000);
  });

  it('one Redis acquire is one round trip of two messages; a majority costs more', () => {
    expect(row('redis').messagesPerAcquire.median).toBe(2);
    expect(row('redis').roundTripsPerAcquire).toBe(1);
    expect(row('raft').messagesPerAcquire.median as number).toBeGreaterThan(2);
  });

  it('a cell’s link replays the run that shows it', () => {
    const { run, measures } = runScenario('redis', 'pause', 1);
    expect(measures.unfencedOutOfOrder).toBe(1);
    const text = runCompareLocksCli(['--template', 'compare-locks', '--seeds', '1']).stdout;
    const line = text.split('\n').find((l) => l.includes('lock=redis&') && l.includes('pause'));
    expect(line).toBeDefined();
    const d = decodeLink((line as string).trim().replace(/^run: /, ''));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.spec.config).toEqual(run.config);
    const sim = new Simulation(d.spec.config, d.spec.schedule);
    sim.advanceTo(d.spec.atMs);
    expect(lockMeasures(sim)?.unfencedOutOfOrder).toBe(1);
  });

  it('the CLI: the template is recognised, bad flags are one sentence, --json writes the table', () => {
    expect(isCompareLocks(['--template', 'compare-locks'])).toBe(true);
    expect(isCompareLocks(['--template', 'crash-leader'])).toBe(false);
    const bad = runCompareLocksCli(['--template', 'compare-locks', '--sweep', 'nodes=3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('Unknown flag "--sweep"; compare-locks takes --seeds, --first-seed and --json.\n');
    expect(runCompareLocksCli(['--template', 'compare-locks', '--seeds', '0']).code).toBe(2);
    const r = runCompareLocksCli(['--template', 'compare-locks', '--seeds', '1', '--json', 'out.json']);
    const json = JSON.parse(r.file?.text ?? '{}') as { rows: { service: string; unfenced: { link: string } }[] };
    expect(json.rows).toHaveLength(7);
    expect(json.rows[4].unfenced.link).toContain('lock=redis');
  });
});
