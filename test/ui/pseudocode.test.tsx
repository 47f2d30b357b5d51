// @vitest-environment jsdom
// The pseudocode panel: every line a detail event can cite is on it, what the followed node just
// did is lit, and a click on a line filters the event log to what that line produced.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { PSEUDOCODE_LINE_IDS } from '../../src/sim/teach/pseudocode';
import { PSEUDOCODE_IDS } from '../../src/sim/model/pseudocodeIds';
import { EventLogPanel } from '../../src/ui/panels/EventLogPanel';
import { PseudocodePanel } from '../../src/ui/panels/PseudocodePanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

describe('pseudocode panel', () => {
  it('has a line for every id a detail event can name', () => {
    for (const id of PSEUDOCODE_IDS) expect(PSEUDOCODE_LINE_IDS).toContain(id);
    expect(new Set(PSEUDOCODE_LINE_IDS).size).toBe(PSEUDOCODE_LINE_IDS.length);
  });

  it('lights what the leader just did, and a click filters the event log to that line', () => {
    // The chapter's leader n3 takes x=1 and x=2 at 1410 ms; view the run just after.
    const { store } = renderLab(
      <>
        <PseudocodePanel />
        <EventLogPanel />
      </>,
      { config: DEFAULT_CONFIG, schedule: '@1168 crash n2; @1360 restart n2; @1410 submit x=1; @1410 submit x=2', untilMs: 1430 },
    );
    expect(store.getState().frame.snapshot?.leader).toBe('n3');
    const append = document.querySelector('[data-line-id="leader.append"]')!;
    expect(append.getAttribute('data-active')).toBe('true');
    expect(document.querySelector('[data-line-id="rv.refuse.stale-term"]')?.getAttribute('data-active')).toBeNull();
    fireEvent.click(append.querySelector('button')!);
    expect(store.getState().eventLine).toBe('leader.append');
    const rows = [...screen.getByTestId('event-log').querySelectorAll('li')];
    expect(rows.length).toBeGreaterThan(0);
    for (const li of rows) expect(li.getAttribute('data-kind')).toBe('leader-append');
    fireEvent.click(screen.getByTestId('line-filter'));
    expect(store.getState().eventLine).toBeNull();
  });

  it('lights the leader’s heartbeat rule while it only sends heartbeats', () => {
    renderLab(<PseudocodePanel />, { config: DEFAULT_CONFIG, schedule: '', untilMs: 1000 });
    expect(document.querySelector('[data-line-id="leader.heartbeat"]')?.getAttribute('data-active')).toBe('true');
    expect(screen.getByTestId('rules-hint').textContent).toContain('what n2 did');
  });

  it('follows the node chosen in its box (no click on the ring, which would crash it), else the tour’s node', () => {
    const { store, sent } = renderLab(<PseudocodePanel />, { config: DEFAULT_CONFIG, schedule: '', untilMs: 1000 });
    const box = screen.getByTestId('rules-follow') as HTMLSelectElement;
    expect(box.options[0].textContent).toBe('the leader (n2)');
    const before = sent.length;
    fireEvent.change(box, { target: { value: 'n4' } });
    expect(screen.getByTestId('rules-hint').textContent).toContain('what n4 did');
    // A follower sends no heartbeats; and following sent nothing to the run.
    expect(document.querySelector('[data-line-id="leader.heartbeat"]')?.getAttribute('data-active')).toBeNull();
    expect(sent.slice(before).filter((m) => m.type === 'action')).toEqual([]);
    fireEvent.change(box, { target: { value: '' } });
    act(() => store.getState().setTour({ name: 'first-election', beat: 2 }, 'n3'));
    expect(screen.getByTestId('rules-hint').textContent).toContain('what n3 did');
    expect(box.options[0].textContent).toBe('the tour’s node (n3)');
  });
});
