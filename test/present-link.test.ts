// Presenter mode, the embed frame and the console in links: `=1` or left out, one sentence otherwise.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/sim/model/config';
import { decodeLink, encodeLink, type RunSpec } from '../src/share/link';
import { linkQuery, runFromQuery } from '../src/ui/runs';
import { embedCode } from '../src/ui/present/embedCode';

describe('presenter, embed and console fields in links', () => {
  it('round-trips present=1 and embed=1 and leaves them out when off', () => {
    const spec: RunSpec = { config: DEFAULT_CONFIG, schedule: [], atMs: 900, present: true };
    expect(encodeLink(spec)).toBe('v=1&seed=42&t=900&present=1');
    expect(decodeLink('v=1&seed=42&t=900&present=1')).toEqual({ ok: true, spec });
    expect(decodeLink('v=1&seed=42&t=5&embed=1')).toEqual({
      ok: true,
      spec: { config: DEFAULT_CONFIG, schedule: [], atMs: 5, embed: true },
    });
    expect(encodeLink({ config: DEFAULT_CONFIG, schedule: [], atMs: 5, present: false })).toBe('v=1&seed=42&t=5');
    const run = runFromQuery('?v=1&seed=42&t=5&view=ring&present=1');
    expect(run).toMatchObject({ present: true, view: 'ring', startAtMs: 5, playing: false });
    expect(linkQuery({ config: DEFAULT_CONFIG, schedule: [], nowMs: 7, speed: 0.1, embed: true })).toBe('v=1&seed=42&t=7&embed=1');
  });

  it('reads console=1 (the presenter console window)', () => {
    expect(runFromQuery('?v=1&seed=42&t=5&console=1')).toMatchObject({ console: true });
  });

  it('refuses a bad value, or present and embed together, with one sentence', () => {
    expect(decodeLink('v=1&seed=42&present=yes')).toEqual({
      ok: false,
      error: 'This link\'s present "yes" must be 1 (or leave "present" out).',
    });
    expect(decodeLink('v=1&seed=42&embed=0')).toEqual({ ok: false, error: 'This link\'s embed "0" must be 1 (or leave "embed" out).' });
    expect(decodeLink('v=1&seed=42&present=1&embed=1')).toEqual({
      ok: false,
      error: 'This link asks for both present=1 and embed=1; a page is either a presenter screen or an embedded frame.',
    });
    expect(decodeLink('v=1&seed=42&present=1&present=1')).toEqual({ ok: false, error: 'This link gives "present" more than once.' });
  });

  it('makes an iframe snippet that names the preset and escapes the link', () => {
    const code = embedCode('https://x.test/lab/?v=1&seed=42&t=5&embed=1', 'chapter');
    expect(code).toBe(
      '<iframe src="https://x.test/lab/?v=1&amp;seed=42&amp;t=5&amp;embed=1" width="800" height="560" title="Lockstep: The chapter&#39;s demo" style="border:0" loading="lazy"></iframe>'.replace(
        '&#39;',
        "'",
      ),
    );
    expect(embedCode('https://x.test/?v=1&seed=1&embed=1', 'link')).toContain('title="Lockstep: a Raft and lock-service run"');
  });
});
