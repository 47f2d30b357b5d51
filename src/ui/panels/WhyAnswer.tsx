/**
 * The Why panel's answer (see WhyPanel.tsx): loaded on demand the first time a question is
 * asked, with the explanations (sim/teach/why.ts), so the page's first paint does not wait for
 * the longest text it holds.
 */
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { explain } from '../../sim/teach/why';
import { useLabPanel, useLabStore } from '../labContext';
import { selectDetails, selectEvents, selectRunView, selectWhySubject } from '../store/selectors';
import { whyPlace } from './whyPlace';

export const WhyAnswer = memo(function WhyAnswer({ place }: { place: 'side' | 'diagram' }) {
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
