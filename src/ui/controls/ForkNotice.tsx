/**
 * Said when a person's action changed the run's past (a click on a node while viewing an earlier
 * moment): where it forked, how many scheduled actions it set aside, and Undo to take it back.
 */
import { memo, useState } from 'react';
import type { ForkView } from '../../worker/protocol';
import { useBridge, useLab } from '../labContext';
import { selectFork, selectRunId, selectSchedule } from '../store/selectors';

/** The notice's sentence for the last action, when it forked the run. */
export function forkSentence(last: NonNullable<ForkView['last']>): string {
  const n = last.setAside;
  if (n === 0) return `You changed the past at t=${last.atMs} ms: what follows it is computed afresh.`;
  return `You changed the past at t=${last.atMs} ms: ${n} later action${n === 1 ? ' was' : 's were'} set aside.`;
}

/** The scenario's label with the fork, e.g. "The chapter's demo (forked at 1200 ms)". */
export function forkedLabel(title: string, fork: ForkView | null): string {
  return fork === null ? title : `${title} (forked at ${fork.atMs} ms)`;
}

export const ForkNotice = memo(function ForkNotice() {
  const bridge = useBridge();
  const fork = useLab(selectFork);
  const runId = useLab(selectRunId);
  const actions = useLab(selectSchedule).length;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const last = fork?.last ?? null;
  if (last === null) return null;
  const key = `${runId}:${last.atMs}:${last.setAside}:${actions}`;
  if (dismissed === key) return null;
  return (
    <div className="fork-notice" role="status" data-testid="fork-notice">
      <span>{forkSentence(last)}</span>
      <button type="button" onClick={() => bridge.undo()} title="Take the action back; the actions it set aside come back">
        Undo
      </button>
      <button type="button" onClick={() => setDismissed(key)} aria-label="Dismiss the notice">
        ×
      </button>
    </div>
  );
});
