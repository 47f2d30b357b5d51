/**
 * The embed frame (`&embed=1`): the diagram, play/pause and the scrubber, nothing else, for an
 * iframe on a course page. The link still holds the whole run, so the frame replays it exactly.
 */
import { useBridge, useLab } from '../labContext';
import { Diagram } from '../diagram/Diagram';
import { Scrubber } from '../controls/Scrubber';
import { selectPlaying } from '../store/selectors';

export function EmbedView() {
  const bridge = useBridge();
  const playing = useLab(selectPlaying);
  const label = useLab((s) => s.frame.label);
  return (
    <main className="embed" data-testid="embed">
      <h1 className="visually-hidden">Lockstep{label && label !== 'link' ? `: ${label}` : ''}</h1>
      <section className="embed-diagram" aria-label="Cluster">
        <Diagram />
      </section>
      <div className="embed-controls">
        <button type="button" className="primary play" onClick={() => bridge.togglePlay()} aria-keyshortcuts="Space">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <Scrubber />
      </div>
    </main>
  );
}
