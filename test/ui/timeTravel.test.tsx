// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/sim/model/config';
import { BUGS } from '../../src/sim/model/features';
import { parseSchedule } from '../../src/sim/model/schedule';
import { CHAPTER_SCHEDULE } from '../../src/sim/run/presets';
import { Scrubber, thinMarks } from '../../src/ui/controls/Scrubber';
import { ScheduleEditor } from '../../src/ui/controls/ScheduleEditor';
import { runFileText, ShareControls } from '../../src/ui/controls/ShareControls';
import { BugsMenu, InvariantBadge, InvariantsPanel } from '../../src/ui/panels/InvariantsPanel';
import { renderLab } from './labHarness';

afterEach(cleanup);

const chapter = { config: DEFAULT_CONFIG, schedule: CHAPTER_SCHEDULE, untilMs: 2253, viewAtMs: 1500 };

describe('timeline scrubber', () => {
  it('marks every landmark with its own look and name, and a click seeks to it', () => {
    const { container, sent } = renderLab(<Scrubber />, chapter);
    const marks = [...container.querySelectorAll('.scrub-lane .mark')];
    expect(marks.map((m) => `${m.getAttribute('data-t')} ${m.getAttribute('data-look')}`)).toEqual([
      '168 leader',
      '1168 crash',
      '1360 leader',
      '1360 restart',
      '1560 partition',
      '1753 leader',
      '1953 heal',
    ]);
    const crash = screen.getByRole('button', { name: 't=1168 ms: n2 crashes' });
    expect(crash.getAttribute('title')).toBe('t=1168 ms: n2 crashes');
    fireEvent.click(crash);
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1168 });
    // Marks sit at their share of the track; the track ends at the horizon.
    expect(screen.getByTestId('scrubber').getAttribute('data-end')).toBe('2253');
    expect((crash as HTMLElement).style.left).toBe(`${(1168 / 2253) * 100}%`);
    // Recorded actions are ticked under the track.
    expect(container.querySelectorAll('.scrub-actions .action-tick')).toHaveLength(6);
  });

  it('drags: the thumb follows and each move is a seek; stepping and landmark buttons send the right messages', () => {
    const { sent, store } = renderLab(<Scrubber />, chapter);
    const range = screen.getByRole('slider', { name: 'Time in the run' }) as HTMLInputElement;
    expect(range.value).toBe('1500');
    expect(range.getAttribute('aria-valuetext')).toBe('t = 1500 ms of 2253 ms');
    fireEvent.change(range, { target: { value: '900' } });
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 900 });
    expect(range.value).toBe('900');
    fireEvent.click(screen.getByRole('button', { name: 'Previous landmark' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1360 });
    fireEvent.click(screen.getByRole('button', { name: 'Next landmark' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1560 });
    fireEvent.click(screen.getByRole('button', { name: 'Previous event' }));
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event', direction: -1 });
    fireEvent.click(screen.getByRole('button', { name: 'Next event' }));
    expect(sent.at(-1)).toEqual({ type: 'step', by: 'event' });
    // Playing, a seek pauses first.
    act(() => store.setState((s) => ({ frame: { ...s.frame, playing: true } })));
    fireEvent.change(range, { target: { value: '100' } });
    expect(sent.slice(-2)).toEqual([{ type: 'pause' }, { type: 'seek', toMs: 100 }]);
  });

  it('undo and redo are enabled only when there is something to undo or redo', () => {
    const { sent, store } = renderLab(<Scrubber />, chapter);
    const undo = screen.getByRole('button', { name: /Undo/ }) as HTMLButtonElement;
    const redo = screen.getByRole('button', { name: /Redo/ }) as HTMLButtonElement;
    expect([undo.disabled, redo.disabled]).toEqual([true, true]);
    act(() => store.setState((s) => ({ frame: { ...s.frame, canUndo: true, canRedo: true } })));
    fireEvent.click(undo);
    expect(sent.at(-1)).toEqual({ type: 'undo' });
    fireEvent.click(redo);
    expect(sent.at(-1)).toEqual({ type: 'redo' });
  });

  it('flags the first invariant violation on the track', () => {
    const { store, sent } = renderLab(<Scrubber />, chapter);
    act(() =>
      store.setState((s) => ({
        frame: {
          ...s.frame,
          check: {
            checkedToMs: 2253,
            staleWrites: 0,
            violation: {
              invariant: 'election-safety',
              title: 'Election Safety',
              t: 1700,
              nodes: ['n1', 'n3'],
              sentence: 'n1 and n3 were both elected leader of term 2.',
              line: '',
            },
          },
        },
      })),
    );
    fireEvent.click(screen.getByRole('button', { name: 't=1700 ms: Election Safety violated' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1700 });
  });

  it('thins marks so a long run stays readable, saying how many a mark stands for', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ t: i * 10, kind: 'crash' as const, text: `n1 crashes` }));
    const thin = thinMarks(many, 10_000, 100);
    expect(thin).toHaveLength(100);
    expect(thin[0].label).toBe('t=0 ms: n1 crashes (and 9 more)');
  });
});

describe('schedule editor', () => {
  it('shows the recorded schedule one action per line', () => {
    renderLab(<ScheduleEditor />, chapter);
    const text = screen.getByTestId('schedule-text') as HTMLTextAreaElement;
    expect(text.value.split('\n')).toHaveLength(8);
    expect(text.value.split('\n')[0]).toBe('@1168 crash n2');
    expect(screen.getByText(/\(8 actions\)/)).toBeTruthy();
  });

  it('shows a bad schedule’s one sentence inline, and keeps the run', () => {
    const { sent } = renderLab(<ScheduleEditor />, chapter);
    const text = screen.getByTestId('schedule-text');
    fireEvent.change(text, { target: { value: '@100 crash n2\n@200 explode n1' } });
    expect(screen.getByTestId('schedule-error').textContent).toBe(
      'Action 2 ("@200 explode n1", at character 15) has unknown verb "explode"; the verbs are crash, restart, partition, heal, submit, client, drift, loss, delay, duplicate, reorder, calm, timeout, transfer, add, remove, propose, clockjump, slow.',
    );
    expect(text.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Apply schedule' }));
    expect(sent).toEqual([]);
    fireEvent.change(text, { target: { value: '@100 crash n8' } });
    expect(screen.getByTestId('schedule-error').textContent).toMatch(
      /names node "n8", which is not in the cluster; the nodes are n1, n2, n3, n4, n5\.$/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }));
    expect((text as HTMLTextAreaElement).value.split('\n')[0]).toBe('@1168 crash n2');
    expect(screen.queryByTestId('schedule-error')).toBeNull();
  });

  it('applies an edited schedule as the same run replayed to the same time', () => {
    const { sent } = renderLab(<ScheduleEditor />, chapter);
    fireEvent.change(screen.getByTestId('schedule-text'), { target: { value: '@1168 crash n2\n\n@1300   restart n2 ' } });
    expect(screen.queryByTestId('schedule-error')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply schedule' }));
    expect(sent.at(-1)).toEqual({
      type: 'load',
      config: DEFAULT_CONFIG,
      schedule: parseSchedule('@1168 crash n2; @1300 restart n2'),
      startAtMs: 1500,
      playing: false,
      label: 'custom',
    });
  });
});

describe('share controls', () => {
  it('copy link shows the link in a selected field when the clipboard is not available', async () => {
    renderLab(<ShareControls />, chapter);
    fireEvent.click(screen.getByRole('button', { name: /Copy link/ }));
    const field = (await screen.findByTestId('share-url')) as HTMLInputElement;
    expect(field.value).toBe(
      `${location.origin}${location.pathname}?v=1&seed=42&s=${encodeURIComponent(CHAPTER_SCHEDULE).replace(/%20/g, '+')}&t=1500`,
    );
    expect(await screen.findByText('Selected: press Ctrl+C (⌘C) to copy it.')).toBeTruthy();
  });

  it('exports the run as a small JSON file and imports one, with one sentence for a bad file', async () => {
    const { store, sent } = renderLab(<ShareControls />, chapter);
    const text = runFileText(store.getState());
    expect(JSON.parse(text)).toMatchObject({
      format: 'lockstep-run',
      version: 1,
      seed: '42',
      t: 1500,
      schedule: CHAPTER_SCHEDULE.split('; '),
    });
    const input = screen.getByTestId('import-file');
    fireEvent.change(input, {
      target: { files: [new File(['{"format":"lockstep-run","version":1,"seed":"42","nodes":12}'], 'broken.json')] },
    });
    await waitFor(() =>
      expect(store.getState().error).toBe(
        'broken.json: This run file\'s configuration is invalid: The number of nodes must be a whole number from 1 to 9, not "12". The current run is kept.',
      ),
    );
    expect(sent).toEqual([]);
    fireEvent.change(input, { target: { files: [new File([text.replace('"t": 1500', '"t": 900')], 'good.json')] } });
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({
        type: 'load',
        config: DEFAULT_CONFIG,
        schedule: parseSchedule(CHAPTER_SCHEDULE),
        startAtMs: 900,
        stopAtMs: 2253,
        playing: false,
        label: 'chapter',
      }),
    );
  });

  it('lists the keyboard shortcuts', () => {
    renderLab(<ShareControls />);
    fireEvent.click(screen.getByRole('button', { name: /Keys/ }));
    const help = screen.getByRole('table', { name: /Keyboard shortcuts/ });
    expect(within(help).getByText('next event')).toBeTruthy();
    expect(within(help).getByText('Ctrl+Z')).toBeTruthy();
  });
});

describe('invariants panel, bugs menu and counterexample search', () => {
  it('is green while every invariant holds, naming each one, with stale writes counted apart', () => {
    const { container, store } = renderLab(
      <>
        <InvariantsPanel />
        <InvariantBadge />
      </>,
      chapter,
    );
    expect(screen.getByTestId('invariant-verdict').textContent).toBe('✓ All 23 invariants hold for every millisecond up to t=2253 ms.');
    expect([...container.querySelectorAll('.invariant-list li')].map((li) => li.textContent?.slice(2))).toEqual([
      'Election Safety',
      'Log Matching',
      'Leader Completeness',
      'State Machine Safety',
      'Leader Append-Only',
      'Applied index never moves back',
      'At most one holder per key',
      'Tokens increase and agree',
      'Expire needs a matching token',
      'Fenced store never goes back',
      'Commit index never moves back',
      'Only the holder releases',
      'Answers match the applied entry',
      'Clients hold only their own tokens',
      'One client per token',
      "A client's lease ends no later than the service's",
      'The service honours a running lease',
      'Fenced store accepts the current token',
      "A leader's matchIndex is on its peer",
      'Entries go only for a conflict',
      'Live again once faults stop',
      'The network stays bounded',
      'The engine never throws',
    ]);
    expect(screen.getByTestId('stale-writes').textContent).toMatch(/^Stale writes accepted by the unfenced store: 0/);
    expect(screen.getByTestId('invariant-badge').textContent).toBe('✓ 23 invariants hold');
    fireEvent.click(screen.getByTestId('invariant-badge'));
    expect(store.getState().sideTab).toBe('invariants');
  });

  it('points at the first violation and jumps the scrubber to its time', () => {
    const { store, sent } = renderLab(<InvariantsPanel />, chapter);
    act(() =>
      store.setState((s) => ({
        frame: {
          ...s.frame,
          check: {
            checkedToMs: 2253,
            staleWrites: 2,
            violation: {
              invariant: 'fencing',
              title: 'Fenced store never goes back',
              t: 1950,
              nodes: ['C', 'fenced'],
              sentence: 'the fenced store accepted a write with no token for k1 from C after accepting token 1.',
              line: '',
            },
          },
        },
      })),
    );
    const verdict = screen.getByTestId('invariant-verdict');
    expect(verdict.textContent).toContain('✗ Fenced store never goes back violated at t=1950 ms, involving C, fenced.');
    expect(verdict.textContent).toContain('the fenced store accepted a write with no token for k1 from C after accepting token 1.');
    expect(screen.getByTestId('stale-writes').textContent).toMatch(/: 2/);
    fireEvent.click(screen.getByRole('button', { name: 'Jump to t=1950 ms' }));
    expect(sent.at(-1)).toEqual({ type: 'seek', toMs: 1950 });
  });

  it('switches a bug on as a new run of the same schedule, replayed to now', () => {
    const { sent } = renderLab(<BugsMenu />, chapter);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Bugs: none/ }));
    // One per bug, the engine's then each protocol feature's, each with its manifest's blurb.
    expect(screen.getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual(
      BUGS.map((b) => `${b.name} ${b.blurb}`),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: /no-fencing/ }));
    expect(sent.at(-1)).toEqual({
      type: 'load',
      config: { ...DEFAULT_CONFIG, bugs: ['no-fencing'] },
      schedule: parseSchedule(CHAPTER_SCHEDULE),
      startAtMs: 1500,
      playing: false,
      label: 'custom',
    });
  });

  it('searches with the run’s protocol features', () => {
    const { sent } = renderLab(<InvariantsPanel />, { ...chapter, config: { ...DEFAULT_CONFIG, features: ['pre-vote', 'leader-noop'] } });
    expect(screen.getByTestId('fuzz').textContent).toContain("with this run's protocol features (pre-vote, leader-noop)");
    fireEvent.click(screen.getByRole('button', { name: 'Find a counterexample' }));
    expect(sent.at(-1)).toEqual({ type: 'fuzz', seed: 42, runs: 200, bugs: [], features: ['pre-vote', 'leader-noop'] });
  });

  it('starts a search with the run’s bugs, shows progress and can cancel it', () => {
    const { sent, store } = renderLab(<InvariantsPanel />, { ...chapter, config: { ...DEFAULT_CONFIG, bugs: ['figure8'] } });
    fireEvent.change(screen.getByLabelText('runs'), { target: { value: 'many' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find a counterexample' }));
    expect(screen.getByRole('alert').textContent).toBe('The number of runs is a whole number from 1 to 10000, not "many".');
    fireEvent.change(screen.getByLabelText('runs'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find a counterexample' }));
    // The search keeps to the run's protocol: no features here, so none in any of its runs.
    expect(sent.at(-1)).toEqual({ type: 'fuzz', seed: 42, runs: 50, bugs: ['figure8'], features: [] });
    expect(screen.getByTestId('fuzz').textContent).toContain("the chapter's Raft with no protocol features");
    act(() =>
      store.setState({
        fuzzProgress: { type: 'fuzz-progress', phase: 'search', runsDone: 12, runs: 50, runsPerSec: 20.5, shrinkAttempts: 0 },
      }),
    );
    expect(screen.getByTestId('fuzz-progress').textContent).toContain('12 of 50 runs · 20.5 runs/s');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel search' }));
    expect(sent.at(-1)).toEqual({ type: 'fuzz-cancel' });
    act(() =>
      store.setState({
        fuzzRunning: false,
        fuzzDone: {
          type: 'fuzz-done',
          runsDone: 2,
          runs: 50,
          cancelled: false,
          seconds: 0.4,
          found: {
            run: 1,
            actions: 12,
            schedule: [],
            violation: { invariant: 'leader-completeness', title: 'Leader Completeness', t: 4505, nodes: ['n4'], sentence: '', line: '' },
          },
        },
      }),
    );
    expect(screen.getByTestId('fuzz-result').textContent).toBe(
      'Found in run 2 of 50 (0.4 s): Leader Completeness at t=4505 ms, shrunk to 12 actions. The run is loaded, paused there.',
    );
  });
});
