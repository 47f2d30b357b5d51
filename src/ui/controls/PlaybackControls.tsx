/** Play/pause, stepping 1 ms either way, speed, the clock and "go to" (events and landmarks are on the scrubber). */
import { memo, useState } from 'react';
import { CAP_NAME, MAX_SEEK_MS, SPEED_CHOICES } from '../../sim/model/limits';
import { speedLabel } from '../../worker/protocol';
import { useBridge, useLab, useLabPanel, useLabStore } from '../labContext';
import { selectNow, selectPlaying, selectSpeed, selectStopAt } from '../store/selectors';
import { FieldError } from './FieldError';

/** The clock on its own: it changes every frame, and nothing else in the bar should re-render with it. */
const Clock = memo(function Clock() {
  const now = useLabPanel(selectNow);
  const stopAt = useLabPanel(selectStopAt);
  return (
    <output className="clock" aria-label="Simulated time" data-testid="clock" data-now={now}>
      t = {now} ms
      {/* The run's end, quieter than the time itself (and narrower, so a 1280 px top bar keeps one line). */}
      {stopAt !== null && now <= stopAt && <span className="clock-end"> / {stopAt}</span>}
      {now >= MAX_SEEK_MS ? ` · end of ${CAP_NAME}` : ''}
    </output>
  );
});

export const PlaybackControls = memo(function PlaybackControls() {
  const bridge = useBridge();
  const store = useLabStore();
  const playing = useLab(selectPlaying);
  const speed = useLab(selectSpeed);
  const stopAt = useLab(selectStopAt);
  const [goTo, setGoTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const go = () => {
    const text = goTo.trim();
    if (!/^\d{1,9}$/.test(text) || Number(text) > MAX_SEEK_MS) {
      setProblem(`A time is a whole number of ms from 0 to ${MAX_SEEK_MS}, not "${goTo}".`);
      return;
    }
    setProblem(null);
    // Going to a time pauses there, as dragging the scrubber does: it lands exactly.
    bridge.goTo(Number(text));
  };
  const choices: number[] = SPEED_CHOICES.includes(speed as (typeof SPEED_CHOICES)[number])
    ? [...SPEED_CHOICES]
    : [...SPEED_CHOICES, speed].sort((a, b) => a - b);
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button type="button" className="primary play" onClick={() => bridge.togglePlay()} aria-keyshortcuts="Space">
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button
        type="button"
        onClick={() => bridge.goTo(Math.max(0, selectNow(store.getState()) - 1))}
        aria-keyshortcuts="ArrowLeft"
        aria-label="Step back 1 ms"
        title="Step back 1 ms (replays the run)"
      >
        {/* On a phone the unit folds away (the button's name keeps it), so Tours fits in the first row. */}◀ 1
        <span className="step-unit"> ms</span>
      </button>
      <button
        type="button"
        onClick={() => bridge.stepMs(1)}
        aria-keyshortcuts="ArrowRight"
        aria-label="Step 1 ms"
        title="Step forward 1 ms"
      >
        1<span className="step-unit"> ms</span> ▶
      </button>
      <label className="speed">
        {/* The choices read "0.1×", so the word is for screen readers: the 1280 px top bar has no room for it. */}
        <span className="visually-hidden">Speed</span>
        <select value={speed} onChange={(e) => bridge.setSpeed(Number(e.target.value))}>
          {choices.map((s) => (
            <option key={s} value={s}>
              {speedLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <Clock />
      <label className="goto">
        {/* The field says what it takes; the label is for screen readers (a projector's 1280 px top bar has no room for both). */}
        <span className="visually-hidden">Go to ms</span>
        <input
          value={goTo}
          onChange={(e) => setGoTo(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && go()}
          size={6}
          inputMode="numeric"
          placeholder="go to ms"
        />
      </label>
      <button type="button" onClick={go}>
        Go
      </button>
      {stopAt !== null && (
        <button type="button" onClick={() => bridge.goTo(stopAt)} title="Jump to where this preset ends">
          To end
        </button>
      )}
      <FieldError problem={problem} />
    </div>
  );
});
