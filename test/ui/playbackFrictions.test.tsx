// @vitest-environment jsdom
/**
 * The classroom frictions as a person meets them in the page: go-to pauses, the scrubber's extent
 * is the run's end and shows the page's cap, a fork is announced with Undo and named in the
 * scenario label, and schedules past the cap are refused with a sentence.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { CHAPTER_SCHEDULE } from '../../src/sim/run/presets';
import { PlaybackControls } from '../../src/ui/controls/PlaybackControls';
import { PresetBlurb, PresetPicker } from '../../src/ui/controls/PresetPicker';
import { ScheduleEditor } from '../../src/ui/controls/ScheduleEditor';
import { Scrubber } from '../../src/ui/controls/Scrubber';
import { decodeLink, encodeLink, runFromJson } from '../../src/share/link';
import { parseSchedule } from '../../src/sim/model/schedule';
import { MAX_SEEK_MS, scheduleCapProblem } from '../../src/sim/model/limits';
import { PRESETS, presetActions } from '../../src/sim/run/presets';
import { TOURS } from '../../src/sim/teach/tours/tours';
import { resolvedTour } from '../../src/sim/teach/tours/runner';
import { renderLab } from './labHarness';

afterEach(cleanup);

const chapter = { config: DEFAULT_CONFIG, schedule: CHAPTER_SCHEDULE, untilMs: 2253, viewAtMs: 1500 };

describe('go to', () => {
  it('while playing, Go and To end pause first, then go to the time', () => {
    const { sent, store } = renderLab(<PlaybackControls />, chapter);
    act(() => store.setState((s) => ({ frame: { ...s.frame, playing: true, stopAtMs: 2253 } })));
    fireEvent.change(screen.getByLabelText('Go to ms'), { target: { value: '1000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(sent.slice(-2)).toEqual([{ type: 'pause' }, { type: 'seek', toMs: 1000 }]);
    expect(store.getState().frame.playing).toBe(false);
    act(() => store.setState((s) => ({ frame: { ...s.frame, playing: true } })));
    fireEvent.click(screen.getByRole('button', { name: 'To end' }));
    expect(sent.slice(-2)).toEqual([{ type: 'pause' }, { type: 'seek', toMs: 2253 }]);
  });
});

describe("the scrubber's extent", () => {
  it("is the run's end the worker reports, not a margin past it", () => {
    const { store } = renderLab(<Scrubber />, chapter);
    act(() => store.setState((s) => ({ frame: { ...s.frame, endMs: 2253 } })));
    expect(screen.getByTestId('scrubber').getAttribute('data-end')).toBe('2253');
    const range = screen.getByRole('slider', { name: 'Time in the run' });
    expect(range.getAttribute('max')).toBe('2253');
    expect(screen.queryByTestId('scrub-cap')).toBeNull();
  });

  it("shows the page's cap when the run reaches it", () => {
    const { store } = renderLab(<Scrubber />, chapter);
    act(() => store.setState((s) => ({ frame: { ...s.frame, endMs: MAX_SEEK_MS } })));
    expect(screen.getByTestId('scrub-cap').textContent).toBe("end of the page's 600 s");
    expect(screen.getByRole('slider', { name: 'Time in the run' }).getAttribute('aria-valuetext')).toBe(
      "t = 1500 ms of 600000 ms, the end of the page's 600 s",
    );
  });

  it("the clock says so at the cap, and shows a preset's end only before it", () => {
    const { store } = renderLab(<PlaybackControls />, chapter);
    act(() => store.setState((s) => ({ frame: { ...s.frame, stopAtMs: 2253 } })));
    expect(screen.getByTestId('clock').textContent).toBe('t = 1500 ms / 2253');
    // Gone to a time past the preset's end, the clock does not claim the end is behind it.
    act(() => store.setState((s) => ({ frame: { ...s.frame, stopAtMs: 1000 } })));
    expect(screen.getByTestId('clock').textContent).toBe('t = 1500 ms');
    act(() => store.setState((s) => ({ frame: { ...s.frame, stopAtMs: null, snapshot: { ...s.frame.snapshot!, now: MAX_SEEK_MS } } })));
    expect(screen.getByTestId('clock').textContent).toBe("t = 600000 ms · end of the page's 600 s");
  });
});

describe('a fork of the run', () => {
  it('shows a notice with Undo, and the scenario label says it was forked', () => {
    const { store, sent } = renderLab(
      <>
        <PresetPicker />
        <PresetBlurb />
        <Scrubber />
      </>,
      chapter,
    );
    act(() => store.setState((s) => ({ frame: { ...s.frame, label: 'chapter', canUndo: true } })));
    const picker = screen.getByLabelText('Scenario') as HTMLSelectElement;
    expect(picker.selectedOptions[0].textContent).toBe("The chapter's demo");
    expect(screen.queryByTestId('fork-notice')).toBeNull();

    act(() => store.setState((s) => ({ frame: { ...s.frame, fork: { atMs: 1200, last: { atMs: 1200, setAside: 6 } } } })));
    const notice = screen.getByTestId('fork-notice');
    expect(notice.getAttribute('role')).toBe('status');
    expect(within(notice).getByText('You changed the past at t=1200 ms: 6 later actions were set aside.')).toBeTruthy();
    expect(picker.selectedOptions[0].textContent).toBe("The chapter's demo (forked at 1200 ms)");
    expect(screen.getByTestId('preset-blurb').querySelector('strong')?.textContent).toBe("The chapter's demo (forked at 1200 ms).");
    fireEvent.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(sent.at(-1)).toEqual({ type: 'undo' });

    // Undone, the worker reports no fork: the notice goes and the label is the scenario's again.
    act(() => store.setState((s) => ({ frame: { ...s.frame, fork: null } })));
    expect(screen.queryByTestId('fork-notice')).toBeNull();
    expect(picker.selectedOptions[0].textContent).toBe("The chapter's demo");
  });

  it('the notice can be dismissed; the label keeps saying forked while the fork stands', () => {
    const { store } = renderLab(
      <>
        <PresetPicker />
        <Scrubber />
      </>,
      chapter,
    );
    act(() => store.setState((s) => ({ frame: { ...s.frame, label: 'chapter', fork: { atMs: 700, last: { atMs: 700, setAside: 1 } } } })));
    expect(screen.getByTestId('fork-notice').textContent).toContain('You changed the past at t=700 ms: 1 later action was set aside.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the notice' }));
    expect(screen.queryByTestId('fork-notice')).toBeNull();
    expect((screen.getByLabelText('Scenario') as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      "The chapter's demo (forked at 700 ms)",
    );
  });
});

describe("schedules past the page's cap", () => {
  it("every preset and tour beat fits in the page's cap (the chapter's reference runs are unchanged)", () => {
    for (const p of PRESETS) expect(scheduleCapProblem(presetActions(p)), p.name).toBeNull();
    for (const t of TOURS)
      for (const b of resolvedTour(t).beats) expect(scheduleCapProblem(b.lineSchedule), `${t.name} ${b.number}`).toBeNull();
  });

  it('the schedule editor refuses @700000 with a sentence and loads nothing', () => {
    const { sent } = renderLab(<ScheduleEditor />, chapter);
    fireEvent.change(screen.getByTestId('schedule-text'), { target: { value: '@1168 crash n2\n@700000 restart n2' } });
    expect(screen.getByTestId('schedule-error').textContent).toBe(
      `Action 2 ("@700000 restart n2") is past the end of the page's 600 s: the page plays runs up to ${MAX_SEEK_MS} ms (the command line goes further).`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Apply schedule' }));
    expect(sent.filter((m) => m.type === 'load')).toEqual([]);
  });

  it('links and run files past the cap are refused in the page; the command line keeps its own limit', () => {
    const spec = { config: DEFAULT_CONFIG, schedule: parseSchedule('@700000 crash n1'), atMs: 0 };
    const query = encodeLink(spec);
    const page = decodeLink(query);
    expect(page.ok).toBe(false);
    expect(!page.ok && page.error).toBe(
      `This link's schedule is invalid: Action 1 ("@700000 crash n1") is past the end of the page's 600 s: the page plays runs up to ${MAX_SEEK_MS} ms (the command line goes further).`,
    );
    expect(decodeLink(query, { pageCap: false }).ok).toBe(true);
    const file = runFromJson(JSON.stringify({ format: 'lockstep-run', version: 1, seed: '42', t: 0, schedule: ['@700000 crash n1'] }));
    expect(!file.ok && file.error).toMatch(
      /^This run file's schedule is invalid: Action 1 \("@700000 crash n1"\) is past the end of the page's 600 s/,
    );
    // At the cap itself is fine.
    expect(decodeLink(encodeLink({ ...spec, schedule: parseSchedule(`@${MAX_SEEK_MS} crash n1`) })).ok).toBe(true);
  });
});
