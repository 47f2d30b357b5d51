// The presenter console's protocol over two real BroadcastChannel instances (Node has them):
// the projector broadcasts its state on every change and on hello, and obeys the console.
import { afterEach, describe, expect, it } from 'vitest';
import { isPresentMessage, openPresentLink, PRESENT_CHANNEL, type PresentLink, type PresentMessage } from '../src/ui/present/channel';
import { projectorState, startProjector } from '../src/ui/present/projector';
import { HostBridge } from '../src/ui/bridge/hostBridge';
import { createLabStore, EMPTY_FRAME } from '../src/ui/store/labStore';
import type { HostEndpoint, HostToWorker } from '../src/worker/protocol';
import { takeRunView } from '../src/sim/view/runView';
import { Timeline } from '../src/sim/run/timeline';
import { DEFAULT_CONFIG } from '../src/sim/model/config';

const opened: PresentLink[] = [];
afterEach(() => {
  for (const l of opened.splice(0)) l.close();
});

function pair(name = `${PRESENT_CHANNEL}-test-${Math.random()}`) {
  const a = openPresentLink(new BroadcastChannel(name))!;
  const b = openPresentLink(new BroadcastChannel(name))!;
  opened.push(a, b);
  return [a, b] as const;
}

function nextMessage(
  link: PresentLink,
  type: PresentMessage['type'],
  test: (m: PresentMessage) => boolean = () => true,
): Promise<PresentMessage> {
  return new Promise((resolve) => {
    const stop = link.listen((m) => {
      if (m.type !== type || !test(m)) return;
      stop();
      resolve(m);
    });
  });
}

function lab() {
  const timeline = new Timeline(DEFAULT_CONFIG, []);
  timeline.advanceTo(1500);
  const store = createLabStore();
  store.setState({
    frame: { ...EMPTY_FRAME, runId: 1, snapshot: takeRunView(timeline.current), config: DEFAULT_CONFIG, horizonMs: 1500 },
    landmarks: timeline.landmarks(),
  });
  const sent: HostToWorker[] = [];
  const endpoint: HostEndpoint = { postMessage: (m) => sent.push(m), addEventListener: () => {}, removeEventListener: () => {} };
  const bridge = new HostBridge(endpoint, store, { scheduleFlush: (f) => f() });
  return { store, bridge, sent };
}

describe('the presenter channel', () => {
  it('checks messages: only well-formed states and known commands pass', () => {
    expect(isPresentMessage({ type: 'hello' })).toBe(true);
    expect(isPresentMessage({ type: 'command', command: 'next' })).toBe(true);
    expect(isPresentMessage({ type: 'command', command: 'format-disk' })).toBe(false);
    expect(
      isPresentMessage({
        type: 'state',
        nowMs: 1,
        playing: false,
        blank: false,
        tour: null,
        label: null,
        landmarksBefore: 0,
        landmarksAfter: 0,
      }),
    ).toBe(true);
    expect(isPresentMessage({ type: 'state', nowMs: '1' })).toBe(false);
    expect(isPresentMessage(null)).toBe(false);
    expect(isPresentMessage('next')).toBe(false);
  });

  it('passes typed messages between two channel instances and drops junk', async () => {
    const [a, b] = pair();
    const got: PresentMessage[] = [];
    b.listen((m) => got.push(m));
    a.send({ type: 'command', command: 'blank' });
    await nextMessage(b, 'command');
    expect(got).toEqual([{ type: 'command', command: 'blank' }]);
  });

  it('the projector answers hello with its state, broadcasts changes, and obeys commands', async () => {
    const [projectorEnd, consoleEnd] = pair();
    const { store, bridge, sent } = lab();
    const stop = startProjector(bridge, projectorEnd);
    const hello = nextMessage(consoleEnd, 'state');
    consoleEnd.send({ type: 'hello' });
    const state = await hello;
    expect(state).toEqual(projectorState(store.getState()));
    expect(state).toMatchObject({ type: 'state', nowMs: 1500, blank: false, tour: null });
    expect((state as { landmarksBefore: number }).landmarksBefore).toBeGreaterThan(0);

    // A change on the projector reaches the console.
    store.getState().setPresent({ presenting: true });
    const blanked = nextMessage(consoleEnd, 'state', (m) => m.type === 'state' && m.blank);
    consoleEnd.send({ type: 'command', command: 'blank' });
    expect(await blanked).toMatchObject({ blank: true });
    expect(store.getState().blank).toBe(true);

    // Previous (no tour): the landmark before now.
    const before = store
      .getState()
      .landmarks.filter((m) => m.t < 1500)
      .at(-1)!;
    const moved = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (sent.some((m) => m.type === 'seek')) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    consoleEnd.send({ type: 'command', command: 'prev' });
    await moved;
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: before.t });

    consoleEnd.send({ type: 'command', command: 'toggle-play' });
    await new Promise((r) => setTimeout(r, 30));
    expect(store.getState().frame.playing).toBe(true);
    stop();
  });
});

describe('a projector with no console', () => {
  it('posts nothing on changes until a console says hello', async () => {
    const [projectorEnd, consoleEnd] = pair();
    const { store, bridge } = lab();
    const got: PresentMessage[] = [];
    consoleEnd.listen((m) => got.push(m));
    const stop = startProjector(bridge, projectorEnd);
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(1); // the announcement on start
    store.getState().setPresent({ presenting: true, blank: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(1);
    consoleEnd.send({ type: 'hello' });
    await new Promise((r) => setTimeout(r, 20));
    store.getState().setPresent({ blank: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(got.map((m) => m.type === 'state' && m.blank)).toEqual([false, true, false]);
    stop();
  });
});
