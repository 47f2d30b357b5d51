/**
 * The presenter console (`&console=1`), a second window on the presenter's screen: the current
 * beat's notes, the next beat, the time, and the controls. It runs no simulation of its own; it
 * shows what the projector window broadcasts and sends it commands (channel.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTourNamed } from '../tour';
import { openPresentLink, type PresentCommand, type PresentLink, type ProjectorState } from './channel';
import { beatTitle, narrationNodes } from './Narration';

const pad = (n: number) => String(n).padStart(2, '0');

export function PresenterConsole({ link: given }: { link?: PresentLink | null }) {
  const link = useMemo(() => (given !== undefined ? given : openPresentLink()), [given]);
  const [state, setState] = useState<ProjectorState | null>(null);
  const [opened] = useState(() => Date.now());
  const [clock, setClock] = useState(() => Date.now());

  useEffect(() => {
    if (!link) return;
    let heard = false;
    const stop = link.listen((m) => {
      if (m.type !== 'state') return;
      // A projector that started after this console announced itself: say hello so it keeps us posted.
      if (!heard) link.send({ type: 'hello' });
      heard = true;
      setState(m);
    });
    link.send({ type: 'hello' });
    return stop;
  }, [link]);
  useEffect(() => {
    const timer = setInterval(() => setClock(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const send = (command: PresentCommand) => link?.send({ type: 'command', command });
  // The console is a page of its own: it fetches the tours when the projector opens one.
  const tour = useTourNamed(state?.tour?.name ?? null);
  const beat = tour && state?.tour ? tour.beats[state.tour.beat - 1] : null;
  const next = tour && state?.tour ? tour.beats[state.tour.beat] : null;
  const what = tour ? 'beat' : 'landmark';
  const elapsed = Math.max(0, Math.floor((clock - opened) / 1000));
  const wall = new Date(clock);

  return (
    <main className="console" data-testid="console">
      <h1>Presenter console</h1>
      <p className="console-status" role="status">
        {!link
          ? 'This browser has no BroadcastChannel; the console cannot reach the projector window.'
          : state === null
            ? 'Waiting for the projector window (open it in presenter mode on this machine)…'
            : state.blank
              ? 'The projector shows a blank screen.'
              : 'Connected to the projector window.'}
      </p>
      <div className="console-times">
        <span data-testid="console-now">
          t = {state?.nowMs ?? 0} ms{state?.playing ? ' (playing)' : ''}
        </span>
        <time dateTime={wall.toISOString()}>
          {pad(wall.getHours())}:{pad(wall.getMinutes())}
        </time>
        <span>
          elapsed {Math.floor(elapsed / 60)}:{pad(elapsed % 60)}
        </span>
      </div>
      <section className="console-notes" aria-label="Notes">
        <h2>{tour && state?.tour ? `${tour.tour.title}: beat ${state.tour.beat} of ${tour.beats.length}` : 'No tour open'}</h2>
        <p data-testid="console-notes">
          {beat
            ? narrationNodes(beat.beat.narration)
            : state
              ? `Next and Previous go to the run's landmarks: ${state.landmarksBefore} before now, ${state.landmarksAfter} after.`
              : ''}
        </p>
      </section>
      <section className="console-next" aria-label="Next">
        <h2>Next</h2>
        <p data-testid="console-next">
          {next
            ? `Beat ${(state?.tour?.beat ?? 0) + 1}: ${beatTitle(next.beat.narration)}`
            : tour
              ? 'This is the last beat.'
              : state && state.landmarksAfter > 0
                ? 'The next landmark.'
                : 'No landmark after now yet.'}
        </p>
      </section>
      <div className="console-controls" role="group" aria-label="Controls">
        <button type="button" onClick={() => send('prev')} disabled={!state}>
          ◀ Previous {what}
        </button>
        <button type="button" className="primary" onClick={() => send('toggle-play')} disabled={!state}>
          {state?.playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button type="button" onClick={() => send('next')} disabled={!state} data-testid="console-next-button">
          Next {what} ▶
        </button>
        <button type="button" aria-pressed={state?.blank ?? false} onClick={() => send('blank')} disabled={!state}>
          Blank
        </button>
      </div>
    </main>
  );
}
