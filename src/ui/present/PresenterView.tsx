/**
 * Presenter mode: the ring fills the window at projector sizes, with a slim bar of controls on
 * top, the tour's narration as a caption at the bottom, the side panels folded away (a toggle
 * brings them back), and a black screen on B. The root carries data-testid="presenter".
 */
import { memo, type CSSProperties, type ReactNode } from 'react';
import { useBridge, useLab, useLabPanel, useLabStore } from '../labContext';
import { Diagram } from '../diagram/Diagram';
import { selectNow, selectPlaying, selectTour } from '../store/selectors';
import { useTourNamed } from '../tour';
import { linkQuery } from '../runs';
import { linkStateOf, pageUrl } from '../urlSync';
import { presentNext, presentPrev, toggleBlank } from './actions';
import { DiagramTextContext } from './diagramText';
import { narrationNodes } from './Narration';
import { PRESENT_TEXT_SCALES } from './presentSlice';
import { PresenterFacts } from './PresenterFacts';
import { SPEED_CHOICES } from '../../sim/model/limits';
import { speedLabel } from '../../worker/protocol';

/** The console's address: this run's link with `console=1` (it shows the projector's state, not its own run). */
export function consoleUrl(query: string): string {
  return `${pageUrl(query.replace(/&?present=1/, ''))}&console=1`;
}

const CaptionBar = memo(function CaptionBar() {
  const place = useLab(selectTour);
  const tour = useTourNamed(place?.name ?? null);
  if (!place || !tour) return null;
  const beat = tour.beats[place.beat - 1];
  return (
    <section className="presenter-caption" aria-label="Narration">
      <span className="caption-count">
        {place.beat}/{tour.beats.length}
      </span>
      <p data-testid="presenter-caption" data-beat={place.beat} aria-live="polite">
        {narrationNodes(beat.beat.narration)}
      </p>
    </section>
  );
});

/** The clock on its own, at the panels' pace while playing: the rest of the bar should not re-render with it. */
const PresenterClock = memo(function PresenterClock() {
  const now = useLabPanel(selectNow);
  return (
    <output className="presenter-clock" aria-label="Simulated time" data-testid="presenter-clock">
      t = {now} ms
    </output>
  );
});

/**
 * Speed in presenter mode (also − and + on the keyboard): the speed playing at now, which a tour's
 * slow motion lowers at its key moments; choosing one makes it the speed from then on.
 */
export const PresenterSpeed = memo(function PresenterSpeed() {
  const bridge = useBridge();
  const speed = useLab((s) => s.frame.speed);
  const choices: number[] = SPEED_CHOICES.includes(speed as (typeof SPEED_CHOICES)[number])
    ? [...SPEED_CHOICES]
    : [...SPEED_CHOICES, speed].sort((a, b) => a - b);
  return (
    <label className="presenter-speed" title="Playback speed (− slower, + faster)">
      {/* The box reads "0.1×" on its own; the word would push the bar to two rows at 1280×720. */}
      <span className="visually-hidden">Speed</span>
      <select value={speed} aria-keyshortcuts="- +" onChange={(e) => bridge.setSpeed(Number(e.target.value))} data-testid="presenter-speed">
        {choices.map((c) => (
          <option key={c} value={c}>
            {speedLabel(c)}
          </option>
        ))}
      </select>
    </label>
  );
});

const PresenterBar = memo(function PresenterBar() {
  const bridge = useBridge();
  const store = useLabStore();
  const playing = useLab(selectPlaying);
  const hasTour = useLab((s) => s.tour !== null);
  const panels = useLab((s) => s.presentPanels);
  const text = useLab((s) => s.presentText);
  const pauseAt = useLab((s) => s.pauseAtLandmarks);
  const slow = useLab((s) => s.slowAroundEvents);
  const set = store.getState().setPresent;
  const what = hasTour ? 'beat' : 'landmark';
  const openConsole = () => {
    const state = linkStateOf(store.getState());
    if (state === null) return;
    window.open(consoleUrl(linkQuery(state)), 'lockstep-console', 'popup,width=900,height=640');
  };
  return (
    <header className="presenter-bar">
      <h1 className="visually-hidden">Lockstep, presenter mode</h1>
      <button type="button" onClick={() => set({ presenting: false })} aria-keyshortcuts="P" title="Leave presenter mode (P)">
        ✕ Exit
      </button>
      <div className="presenter-group" role="group" aria-label="Playback">
        <button
          type="button"
          onClick={() => presentPrev(bridge)}
          aria-keyshortcuts="PageUp ArrowLeft"
          title={`Previous ${what} (PageUp or ←)`}
        >
          {/* Short words, so the bar stays one row at 1280×720 playing or paused; the name says the rest. */}◀ Back
          <span className="visually-hidden"> to the previous {what}</span>
        </button>
        <button type="button" className="primary" onClick={() => bridge.togglePlay()}>
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button
          type="button"
          onClick={() => presentNext(bridge)}
          aria-keyshortcuts="PageDown ArrowRight"
          title={`Next ${what} (PageDown or →)`}
        >
          Next<span className="visually-hidden"> {what}</span> ▶
        </button>
        <PresenterClock />
        <PresenterSpeed />
      </div>
      <div className="presenter-group" role="group" aria-label="Text size">
        <button type="button" onClick={() => set({ presentText: text - 1 })} disabled={text <= 0} aria-label="A− smaller text">
          A−
        </button>
        <button
          type="button"
          onClick={() => set({ presentText: text + 1 })}
          disabled={text >= PRESENT_TEXT_SCALES.length - 1}
          aria-label="A+ larger text"
        >
          A+
        </button>
      </div>
      <label className="presenter-check">
        <input type="checkbox" checked={pauseAt} onChange={(e) => set({ pauseAtLandmarks: e.target.checked })} />
        Pause at landmarks
      </label>
      <label className="presenter-check">
        <input
          type="checkbox"
          checked={slow}
          onChange={(e) => {
            set({ slowAroundEvents: e.target.checked });
            bridge.setSlowAround(e.target.checked);
          }}
        />
        Slow around events
      </label>
      <button type="button" aria-pressed={panels} onClick={() => set({ presentPanels: !panels })} title="Show or fold away the side panels">
        Panels
      </button>
      <button type="button" onClick={() => toggleBlank(bridge)} aria-keyshortcuts="B" title="Blank the screen (B; B or Esc brings it back)">
        Blank
      </button>
      <button
        type="button"
        onClick={openConsole}
        aria-label="Open presenter console"
        title="Open the presenter console in a second window: notes, next beat, time and controls"
      >
        Console ↗
      </button>
    </header>
  );
});

export function PresenterView({ panels }: { panels: ReactNode }) {
  const store = useLabStore();
  const showPanels = useLab((s) => s.presentPanels);
  const text = useLab((s) => s.presentText);
  const blank = useLab((s) => s.blank);
  const scale = PRESENT_TEXT_SCALES[text] ?? 1;
  return (
    <div
      className={`presenter${showPanels ? ' with-panels' : ''}${blank ? ' is-blank' : ''}`}
      data-testid="presenter"
      data-text-scale={scale}
      style={{ '--present-scale': scale } as CSSProperties}
    >
      <PresenterBar />
      <main className="presenter-main">
        <div className="presenter-stage">
          {/* The ring only: the space-time view's lanes are too dense to read from the back of a room. */}
          <section className="presenter-diagram" aria-label="Cluster">
            <DiagramTextContext.Provider value={{ scale }}>
              <Diagram />
            </DiagramTextContext.Provider>
          </section>
          {!showPanels && <PresenterFacts />}
          {showPanels && panels}
        </div>
        <CaptionBar />
        {blank && (
          <div className="presenter-blank" data-testid="blank" onClick={() => store.getState().setPresent({ blank: false })}>
            <p className="visually-hidden" role="status">
              The screen is blank. Press B or Esc to show it again.
            </p>
          </div>
        )}
      </main>
    </div>
  );
}
