/**
 * The Why panel: a plain-words answer for whatever was asked about (a node, an entry, a message,
 * a vote, a client, a lock, a store write, or "no leader"), with the concrete values and the
 * rule it follows. The subject lives in the store; the answer is recomputed from the current
 * snapshot, so it follows the run while it plays. Esc or the close button closes it and gives
 * focus back to where the question was asked. The answers (WhyAnswer.tsx, with every explanation
 * the page can give) load on demand, the first time a question is asked. It never hides what it
 * explains (whyPlace.ts): the page has two places for it, over the side panels and over the diagram.
 */
import { memo } from 'react';
import type { WhySubject } from '../../sim/teach/why';
import { useLabPanel, useLabStore } from '../labContext';
import { lazyView, OnDemand } from '../lazyView';
import { selectLeader, selectRunsRaft, selectWhySubject } from '../store/selectors';
import { whyPlace } from './whyPlace';

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
      onPointerEnter={() => void answer.preload()}
      onFocus={() => void answer.preload()}
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
  // A service without Raft has no leader to miss; nor has single-decree Paxos: any node may propose (paxosWhy.ts says so if asked).
  const raft = useLabPanel(selectRunsRaft);
  const leaderless = useLabPanel((s) => s.frame.snapshot?.protocol === 'paxos');
  if (leader !== null || !hasSnapshot || !raft || leaderless) return null;
  return <WhyButton subject={{ kind: 'no-leader' }} label="Why is there no leader?" text="Why no leader?" />;
});

const answer = lazyView(() => import('./WhyAnswer').then((m) => m.WhyAnswer));

export const WhyPanel = memo(function WhyPanel({ place }: { place: 'side' | 'diagram' }) {
  const asked = useLabPanel((s) => {
    const subject = selectWhySubject(s);
    return subject !== null && whyPlace(subject) === place;
  });
  const store = useLabStore();
  if (!asked) return null;
  return (
    <OnDemand
      what="the Why panel’s answer"
      retry={answer.retry}
      className={`why-panel why-pending at-${place}`}
      close={() => store.getState().closeWhy()}
    >
      <answer.View place={place} />
    </OnDemand>
  );
});
