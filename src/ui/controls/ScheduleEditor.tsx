/**
 * The run's schedule as text: every action taken in the page is recorded here at the simulated
 * time it happened. Editing it and applying replays the run with the new schedule and stays at
 * the same time; a bad schedule gets one sentence inline and the run is kept.
 */
import { memo, useId, useMemo, useState } from 'react';
import type { SimConfig } from '../../sim/model/config';
import { scheduleCapProblem } from '../../sim/model/limits';
import { checkSchedule, formatAction, parseSchedule, ScheduleError, VERBS, type Action } from '../../sim/model/schedule';
import { useBridge, useLab, useLabPanel } from '../labContext';
import { selectCanRedo, selectConfig, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { FieldError } from './FieldError';
import { scheduleWarnings } from '../../sim/run/scheduleWarnings';

/** The schedule one action per line (the language takes `;` or new lines between actions). */
export function scheduleLines(actions: readonly Action[]): string {
  return actions.map(formatAction).join('\n');
}

/** The edited text as actions for this configuration and the page's cap, or one sentence saying what is wrong. */
export function scheduleFromText(text: string, config: SimConfig): Action[] | string {
  try {
    const actions = parseSchedule(text);
    return checkSchedule(actions, config) ?? scheduleCapProblem(actions) ?? actions;
  } catch (e) {
    return e instanceof ScheduleError ? e.message : String(e);
  }
}

/** Null when the text is a valid schedule for this configuration, else one sentence. */
export function scheduleProblem(text: string, config: SimConfig): string | null {
  const result = scheduleFromText(text, config);
  return typeof result === 'string' ? result : null;
}

export const ScheduleEditor = memo(function ScheduleEditor() {
  const bridge = useBridge();
  const schedule = useLab(selectSchedule);
  const config = useLab(selectConfig);
  const now = useLabPanel(selectNow);
  const playing = useLab(selectPlaying);
  const canRedo = useLab(selectCanRedo);
  const [draft, setDraft] = useState<string | null>(null);
  const [shownProblem, setShownProblem] = useState<string | null>(null);
  const errorId = useId();
  const recorded = useMemo(() => scheduleLines(schedule), [schedule]);
  const text = draft ?? recorded;
  const count = schedule.length;
  const liveProblem = useMemo(() => (draft === null ? null : scheduleProblem(draft, config)), [draft, config]);
  const problem = shownProblem ?? liveProblem;
  // What a valid schedule will not do as written (a crash of a crashed node, a bare heal…): said, not refused.
  const warnings = useMemo(() => {
    const actions = scheduleFromText(text, config);
    return typeof actions === 'string' ? [] : scheduleWarnings(actions, config);
  }, [text, config]);

  const apply = () => {
    if (draft === null) return;
    const actions = scheduleFromText(draft, config);
    if (typeof actions === 'string') {
      setShownProblem(actions);
      return;
    }
    setShownProblem(null);
    setDraft(null);
    bridge.load(config, actions, { startAtMs: now, playing, label: 'custom' });
  };

  return (
    <section className="panel schedule-panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <p className="hint">
        Everything you do is recorded here at the simulated time it happened ({count} action{count === 1 ? '' : 's'}). Acting in the past
        forks the run: later actions are set aside{canRedo ? ' — Redo brings them back' : ''}. Edit and apply to replay the run with your
        schedule, staying at t = {now} ms.
      </p>
      <label className="schedule-field">
        Actions, one per line: @ms verb args
        <textarea
          value={text}
          onChange={(e) => {
            setDraft(e.target.value);
            setShownProblem(null);
          }}
          rows={8}
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem ? errorId : undefined}
          data-testid="schedule-text"
          placeholder={'@1168 crash n2\n@1360 restart n2\n@1410 submit x=1'}
        />
      </label>
      <FieldError problem={problem} id={errorId} testId="schedule-error" />
      {warnings.length > 0 && (
        <ul className="field-warnings" data-testid="schedule-warnings" aria-label="What will not happen as written">
          {warnings.map((w) => (
            <li key={w} className="field-warning">
              <span aria-hidden="true">⚠ </span>
              {w}
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        <button type="button" className="primary" onClick={apply} disabled={draft === null}>
          Apply schedule
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(null);
            setShownProblem(null);
          }}
          disabled={draft === null}
        >
          Revert
        </button>
        {draft !== null && <span className="hint">edited — the run still follows the recorded schedule until you apply</span>}
      </div>
      <details className="schedule-help">
        <summary>The schedule language</summary>
        <p className="hint">
          Verbs: {VERBS.join(', ')}. Examples: <code>@1168 crash n2</code>, <code>@1360 restart n2</code>,{' '}
          <code>@1560 partition n2,n3 | n1,n4,n5</code>, <code>@1953 heal</code>, <code>@1410 submit x=1</code>,{' '}
          <code>@1753 submit x=3 to n3</code>, <code>@1000 client A acquire job:42 10000</code>,{' '}
          <code>@1000 client A write result=A-first</code>, <code>@2500 client A pause 11000</code>, <code>@500 drift n3 20</code>,{' '}
          <code>@500 loss 10</code>.
        </p>
      </details>
    </section>
  );
});
