/**
 * The open tour: its title, which beat, the narration (names of nodes and clients outline them on
 * the diagram while the pointer is over them), and Back / Next / Exit. → / ← and PageDown /
 * PageUp do the same (useKeyboardShortcuts).
 */
import { memo, type ReactNode } from 'react';
import { useBridge, useLab, useLabStore } from '../labContext';
import { selectTour } from '../store/selectors';
import { closeTour, tourNext, tourPrev, useTourNamed, useTours } from '../tour';

const ACTOR = /(\{[A-Za-z][A-Za-z0-9]{0,7}\}|`[^`]+`)/;

/** `**bold**`, `{n2}` (an actor) and `code` in narration text, as elements. */
function Narration({ text, onActor }: { text: string; onActor: (id: string | null) => void }) {
  const inline = (part: string, key: string): ReactNode[] =>
    part.split(ACTOR).map((piece, i) => {
      if (piece.startsWith('{') && piece.endsWith('}')) {
        const id = piece.slice(1, -1);
        return (
          <span
            key={`${key}-${i}`}
            className="tour-actor"
            data-actor={id}
            onMouseEnter={() => onActor(id)}
            onMouseLeave={() => onActor(null)}
          >
            {id}
          </span>
        );
      }
      if (piece.startsWith('`') && piece.endsWith('`')) return <code key={`${key}-${i}`}>{piece.slice(1, -1)}</code>;
      return piece;
    });
  return (
    <>{text.split('**').map((part, i) => (i % 2 === 1 ? <strong key={i}>{inline(part, String(i))}</strong> : inline(part, String(i))))}</>
  );
}

export const TourBar = memo(function TourBar() {
  const place = useLab(selectTour);
  const playing = useLab((s) => s.frame.playing);
  const slowMotion = useLab((s) => s.tourSlowMotion);
  const startHere = useLab((s) => s.tourStartHere);
  const bridge = useBridge();
  const store = useLabStore();
  const tour = useTourNamed(place?.name ?? null);
  const { loading } = useTours();
  if (!place || !tour) {
    // The tours come in a chunk of their own the first time one opens (tour.ts): a quiet line meanwhile.
    if (loading === null) return null;
    return (
      <section className="tour-bar tour-loading" aria-label="Guided tour" aria-busy="true" data-testid="tour-loading">
        <p className="lazy-note" role="status">
          Loading the tour…
        </p>
      </section>
    );
  }
  const beat = tour.beats[place.beat - 1];
  const count = tour.beats.length;
  const onActor = (id: string | null) => store.getState().setTourHover(id);
  // The tour's title is the scenario picker's (the run bar above): this bar is the story, so the
  // ring below keeps its height at a projector's 1280×720.
  return (
    <section className={startHere ? 'tour-bar start-here' : 'tour-bar'} aria-label={`Guided tour: ${tour.tour.title}`}>
      <div className="tour-text">
        {startHere && place.beat === 1 && (
          <p className="tour-start" data-testid="start-here">
            <strong>Start here:</strong> a guided tour of Raft, one beat at a time. Press <kbd>Next →</kbd> to play each beat; every other
            tour is under <strong>Tours</strong> at the top.
          </p>
        )}
        {/* The blurb gives way while a tour is open (App's RunBar): the first beat opens with the tour's intro. */}
        {place.beat === 1 && !startHere && <p className="tour-intro">{tour.tour.intro}</p>}
        <p className="tour-narration" data-testid="tour-narration" data-tour={place.name} data-beat={place.beat} aria-live="polite">
          <Narration text={beat.beat.narration} onActor={onActor} />
        </p>
      </div>
      <div className="tour-side">
        <p className="tour-head">
          <span className="tour-count">
            Beat {place.beat} of {count}
          </span>
          {beat.beat.branch && <span className="tour-branch">What if…</span>}
          <span className="tour-state" data-testid="tour-state">
            {playing ? 'playing…' : 'paused'}
          </span>
          <label className="tour-slow" title="Play each beat's key moment slowly enough to follow every message (about 1.5 s each)">
            <input type="checkbox" checked={slowMotion} onChange={(e) => store.getState().setTourSlowMotion(e.target.checked)} />
            slow motion
          </label>
        </p>
        <div className="tour-buttons">
          <button
            type="button"
            data-testid="tour-prev"
            disabled={place.beat <= 1}
            onClick={() => tourPrev(bridge)}
            title="Back to the end of the previous beat (← or PageUp)"
          >
            ← Back
          </button>
          <button
            type="button"
            data-testid="tour-next"
            disabled={place.beat >= count}
            onClick={() => tourNext(bridge)}
            title="Play the next beat (→ or PageDown)"
          >
            Next →
          </button>
          <button type="button" className="tour-exit" onClick={() => closeTour(bridge)} title="Close the tour; the run stays as it is">
            Exit tour
          </button>
        </div>
      </div>
    </section>
  );
});
