/**
 * The embed frame (`&embed=1`) for an iframe on a course page: the diagram, play/pause, the clock
 * and the scrubber, and "Open in Lockstep" to carry on in the full lab. An embed of a tour is the
 * tour: its narration under the diagram, the beat count and Back / Next (→ / ← too). The link
 * still holds the whole run, so the frame replays it exactly.
 */
import { memo } from 'react';
import { useBridge, useLab, useLabPanel, useLabStore } from '../labContext';
import { Diagram } from '../diagram/Diagram';
import { Scrubber } from '../controls/Scrubber';
import { selectNow, selectPlaying, selectTour } from '../store/selectors';
import { tourNamed, tourNext, tourPrev } from '../tour';
import { linkQuery } from '../runs';
import { linkStateOf, pageUrl } from '../urlSync';
import { narrationNodes } from './Narration';

/** The full lab's address for what the frame shows now (its link without embed=1). */
function fullLabHref(query: string | null): string {
  return query === null ? pageUrl('') : pageUrl(query.replace(/&?embed=1/, ''));
}

const EmbedClock = memo(function EmbedClock() {
  const now = useLabPanel(selectNow);
  return (
    <output className="embed-clock" aria-label="Simulated time" data-testid="clock" data-now={now}>
      t = {now} ms
    </output>
  );
});

const EmbedTour = memo(function EmbedTour() {
  const bridge = useBridge();
  const place = useLab(selectTour);
  const tour = place ? tourNamed(place.name) : null;
  if (!place || !tour) return null;
  const beat = tour.beats[place.beat - 1];
  return (
    <section className="embed-tour" aria-label={`Guided tour: ${tour.tour.title}`}>
      <p className="embed-narration" data-testid="tour-narration" data-tour={place.name} data-beat={place.beat} aria-live="polite">
        <strong className="embed-tour-title">{tour.tour.title}</strong>{' '}
        <span className="embed-count">
          {place.beat}/{tour.beats.length}
        </span>{' '}
        {narrationNodes(beat.beat.narration)}
      </p>
      <div className="embed-tour-buttons">
        <button type="button" data-testid="tour-prev" disabled={place.beat <= 1} onClick={() => tourPrev(bridge)}>
          ← Back
        </button>
        <button type="button" data-testid="tour-next" disabled={place.beat >= tour.beats.length} onClick={() => tourNext(bridge)}>
          Next →
        </button>
      </div>
    </section>
  );
});

export function EmbedView() {
  const bridge = useBridge();
  const playing = useLab(selectPlaying);
  const label = useLab((s) => s.frame.label);
  const store = useLabStore();
  // The address is made as the pointer or focus reaches the link (not every frame while playing):
  // where the run is then, paused, in the full lab.
  const refresh = (e: { currentTarget: HTMLAnchorElement }) => {
    const state = linkStateOf(store.getState());
    e.currentTarget.href = fullLabHref(state ? linkQuery(state) : null);
  };
  return (
    <main className="embed" data-testid="embed">
      <h1 className="visually-hidden">Lockstep{label && label !== 'link' ? `: ${label}` : ''}</h1>
      <section className="embed-diagram" aria-label="Cluster">
        <Diagram />
      </section>
      <EmbedTour />
      <div className="embed-controls">
        <button type="button" className="primary play" onClick={() => bridge.togglePlay()} aria-keyshortcuts="Space">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <EmbedClock />
        <Scrubber />
        <a
          className="embed-open"
          href={fullLabHref(location.search.replace(/^\?/, '') || null)}
          target="_blank"
          rel="noopener"
          data-testid="embed-open"
          onPointerEnter={refresh}
          onPointerDown={refresh}
          onFocus={refresh}
        >
          Open in Lockstep ↗
        </a>
      </div>
    </main>
  );
}
