/**
 * The Why panel: a plain-words answer for whatever was asked about (a node, an entry, a message,
 * a vote, a client, a lock, a store write, or "no leader"), with the concrete values and the
 * rule it follows. The subject lives in the store; the answer is recomputed from the current
 * snapshot, so it follows the run while it plays. Esc or the close button closes it and gives
 * focus back to where the question was asked.
 *
 * It never hides what it explains: a question about something on the ring (a node, a message, a
 * vote, "no leader") is answered over the side panels, one about something in a side panel (a log
 * entry, a lock, a store write, a client) over the diagram. On a phone the first kind is a sheet at
 * the bottom of the screen, under the ring.
 */
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { explain, type WhySubject } from '../../sim/teach/why';
import { useLabPanel, useLabStore } from '../labContext';
import { selectDetails, selectEvents, selectLeader, selectRunView, selectWhySubject } from '../store/selectors';

/** Where the panel goes for a subject: over the side panels for what the ring shows, else over the diagram. */
export function whyPlace(subject: WhySubject): 'side' | 'diagram' {
  switch (subject.kind) {
    case 'node':
    case 'message':
    case 'vote':
    case 'no-leader':
      return 'side';
    default:
      return 'diagram';
  }
}

/** A small "?" that opens the Why panel on `subject`; `label` is the question, for screen readers and the tooltip. */
export function WhyButton({ subject, label, text = '?' }: { subject: WhySubject; label: string; text?: string }) {
  const store = useLabStore();
  return (
    <button
      type="button"
      className="why-button"
      // A worded button ("Why no leader?") is named by its words, so speech matches what is seen;
      // a bare "?" is named by its question.
      aria-label={text === '?' ? label : undefined}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        store.getState().askWhy(subject);
      }}
    >
      {text}
    </button>
  );
}

/** Shown only while no node leads: the most asked question when the diagram has no hexagon. */
export const WhyNoLeaderButton = memo(function WhyNoLeaderButton() {
  const leader = useLabPanel(selectLeader);
  const hasSnapshot = useLabPanel((s) => s.frame.snapshot !== null);
  if (leader !== null || !hasSnapshot) return null;
  return <WhyButton subject={{ kind: 'no-leader' }} label="Why is there no leader?" text="Why no leader?" />;
});

export const WhyPanel = memo(function WhyPanel({ place }: { place: 'side' | 'diagram' }) {
  const asked = useLabPanel(selectWhySubject);
  const subject = asked !== null && whyPlace(asked) === place ? asked : null;
  const snapshot = useLabPanel(selectRunView);
  const events = useLabPanel(selectEvents);
  const details = useLabPanel(selectDetails);
  const store = useLabStore();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const opener = useRef<Element | null>(null);
  const why = useMemo(
    () => (subject && snapshot ? explain(subject, snapshot, events, details) : null),
    [subject, snapshot, events, details],
  );
  const open = why !== null;

  const close = useCallback(() => {
    store.getState().closeWhy();
    const back = opener.current;
    if (back instanceof HTMLElement || back instanceof SVGElement) back.focus();
  }, [store]);

  useEffect(() => {
    if (!open) return;
    // Focus moves once per opening, not on every new answer while the run plays.
    opener.current = document.activeElement;
    headingRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);

  if (!why) return null;
  return (
    <section
      className={`why-panel at-${place}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby="why-title"
      data-testid="why-panel"
      data-place={place}
    >
      <header className="why-head">
        <h2 id="why-title" ref={headingRef} tabIndex={-1}>
          {why.title}
        </h2>
        <button type="button" className="why-close" onClick={close} aria-label="Close the Why panel">
          ✕
        </button>
      </header>
      <div className="why-body" data-testid="why-answer">
        {why.answer.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      <p className="why-rule" data-testid="why-rule">
        <span className="why-rule-label">Rule: </span>
        {why.rule}
      </p>
      {why.facts && why.facts.length > 0 && (
        <dl className="why-facts">
          {why.facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
});
