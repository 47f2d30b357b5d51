// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { laneLayout, SERVICE_LANE } from '../src/ui/spacetime/lanes';
import { buildScene } from '../src/ui/spacetime/scene';
import { escapeXml, exportTitle, sceneToSvg, traceToSvg } from '../src/ui/spacetime/svgExport';
import { svgSize } from '../src/ui/spacetime/pngFromSvg';
import { DARK_THEME, LIGHT_THEME, themeFrom } from '../src/ui/spacetime/theme';
import { traceView } from './helpers/traceFixture';

const trace = traceView({
  untilMs: 2000,
  messages: [
    { type: 'ClientRequest', from: 'A', to: 'n1', sentAt: 100, endAt: 120 },
    { type: 'ClientReply', from: 'n1', to: 'A', sentAt: 130, endAt: 150 },
    { type: 'StoreWrite', from: 'B', to: 'fenced', sentAt: 1310, endAt: 1320 },
    { type: 'StoreWrite', from: 'A', to: 'fenced', sentAt: 1500, endAt: 1510 },
    { type: 'AppendEntries', from: 'n1', to: 'n2', sentAt: 1600, endAt: 1650, fate: 'partition' },
  ],
  leases: [
    { side: 'client', holder: 'A', owner: 'A', key: 'job', token: 1, from: 150, to: 1200, ended: 'ran-out' },
    { side: 'service', holder: 'n1', owner: 'A', key: 'job', token: 1, from: 125, to: 900, ended: 'expired' },
  ],
  storeMarks: [
    {
      store: 'fenced',
      t: 1320,
      message: 3,
      client: 'B',
      key: 'job',
      value: 'b',
      token: 2,
      accepted: true,
      highestBefore: 1,
      leaseEnded: false,
      reason: null,
    },
    {
      store: 'fenced',
      t: 1510,
      message: 4,
      client: 'A',
      key: 'job',
      value: 'a',
      token: 1,
      accepted: false,
      highestBefore: 2,
      leaseEnded: true,
      reason: 'below',
    },
  ],
});

function exported(theme = LIGHT_THEME, lanes?: string[]) {
  const layout = laneLayout(trace.actorIds, trace.actors, 850, lanes);
  const scene = buildScene(trace, layout, { window: [0, 2000], top: 40, height: 500, heartbeats: 'show', nowMs: 1000 });
  return sceneToSvg(scene, layout, { theme, width: 850, height: 550, title: exportTitle(7, [0, 2000]), cursorLabel: 't = 1,000 ms' });
}

describe('space-time SVG export', () => {
  it('is a well-formed standalone SVG with a title, lane headers, marks and a legend', () => {
    const svg = exported(LIGHT_THEME, ['A', SERVICE_LANE, 'B', 'fenced']);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.documentElement.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    const texts = [...doc.getElementsByTagName('text')].map((t) => t.textContent);
    expect(texts[0]).toBe('Lockstep, seed 7: 0 ms to 2,000 ms');
    expect(texts).toEqual(
      expect.arrayContaining([
        'client A',
        'lease service',
        'client B',
        'fenced store',
        'token 2',
        'ok',
        'token 1 < 2',
        'refused',
        't = 1,000 ms',
        'ms',
      ]),
    );
    expect(texts).toEqual(
      expect.arrayContaining([
        'client request',
        'client reply',
        "client's lease (left of lane)",
        "service's lease (right of lane)",
        'acting after its lease ended',
        'write accepted',
        'write refused',
      ]),
    );
    expect(svgSize(svg)).toEqual({ width: 850, height: Number(doc.documentElement.getAttribute('height')) });
  });

  it('carries its colours inline, so the dark and light themes both export', () => {
    const light = exported(LIGHT_THEME);
    const dark = exported(DARK_THEME);
    expect(light).toContain(`fill="${LIGHT_THEME.panel}"`);
    expect(dark).toContain(`fill="${DARK_THEME.panel}"`);
    expect(dark).toContain(DARK_THEME.kind['client-request']);
    expect(light).not.toContain('var(--');
    expect(dark).toContain('partitioned');
  });

  it('reads a theme from CSS variables, falling back to the light values', () => {
    const theme = themeFrom((name) => (name === '--msg-vote' ? ' #123456 ' : ''));
    expect(theme.kind['vote-request']).toBe('#123456');
    expect(theme.panel).toBe(LIGHT_THEME.panel);
    expect(escapeXml(`a<b & "c"`)).toBe('a&lt;b &amp; &quot;c&quot;');
  });

  it('exports a trace in one call, the same as building the scene by hand', () => {
    const svg = traceToSvg(trace, {
      theme: LIGHT_THEME,
      width: 850,
      height: 548,
      window: [0, 2000],
      seed: 7,
      nowMs: 1000,
      heartbeats: 'show',
    });
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.querySelector('title')?.textContent).toBe('Lockstep, seed 7: 0 ms to 2,000 ms');
    expect(svg).toContain('t = 1,000 ms');
    expect(exportTitle('abc', [0, 600_000])).toBe('Lockstep, seed abc: 0 s to 600 s');
  });
});

describe('space-time text', () => {
  it('writes times in ms with thousands separators and tenths only when they matter', async () => {
    const { ms, windowText } = await import('../src/ui/spacetime/style');
    expect([ms(0), ms(12), ms(12.04), ms(12.25), ms(1234), ms(1_234_567.89), ms(-1500)]).toEqual([
      '0 ms',
      '12 ms',
      '12 ms',
      '12.3 ms',
      '1,234 ms',
      '1,234,567.9 ms',
      '-1,500 ms',
    ]);
    expect(windowText([250.4, 750.6])).toBe('250 ms – 751 ms');
    expect(windowText([100.25, 105.25])).toBe('100.3 ms – 105.3 ms');
    expect(windowText([300_000, 312_000])).toBe('300.0 s – 312.0 s');
    expect(windowText([0, 600_000])).toBe('0 s – 600 s');
  });
});
