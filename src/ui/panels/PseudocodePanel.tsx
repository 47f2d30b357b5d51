/**
 * Raft's rules and the lock service's as pseudocode, with the lines that just ran lit for one
 * node: the one chosen in the tab's "Follow" box, else the node a tour's beat points at, else the
 * focused node, else the leader. (Choosing in the box is safe: a click on a node would crash it.)
 * "Just ran" means a detail event (or a chapter event) that node itself produced (its first
 * subject) in the last LIT_WINDOW_MS of simulated time, or, for a leader, its heartbeat round
 * (Figure 2: "repeat during idle periods"), which sends no event of its own. A click on a line
 * filters the event log to what that line produced.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { lineOfEventKind } from '../../sim/teach/pseudocode';
import { pseudocodeFor } from '../../sim/teach/pseudocodeSections';
import { DETECTOR_LINE_SOURCES } from '../../sim/teach/detectorLines';
import { useLab, useLabPanel, useLabStore } from '../labContext';
import {
  selectNodeIds,
  selectNodes,
  selectConfig,
  selectDetails,
  selectEventFilter,
  selectEvents,
  selectFocusedNode,
  selectLeader,
  selectNow,
  selectPlaying,
} from '../store/selectors';

/** How far back a line counts as having just run, in simulated ms. */
export const LIT_WINDOW_MS = 60;

/** The node whose rules are lit: the one chosen to follow, the tour's, the focused one, the leader. */
export function followedNode(
  chosen: string | null,
  tourFocus: string | null,
  nodeIds: readonly string[],
  focused: string | null,
  leader: string | null,
) {
  if (chosen !== null && nodeIds.includes(chosen)) return chosen;
  if (tourFocus !== null && nodeIds.includes(tourFocus)) return tourFocus;
  return focused ?? leader;
}

export const PseudocodePanel = memo(function PseudocodePanel() {
  const now = useLabPanel(selectNow);
  const focused = useLabPanel(selectFocusedNode);
  const leader = useLabPanel(selectLeader);
  const nodeIds = useLab(useShallow(selectNodeIds));
  const chosen = useLab((s) => s.ruleNode);
  const tourFocus = useLab((s) => (s.tour !== null ? s.tourFocus : null));
  const nodes = useLabPanel(selectNodes);
  const details = useLabPanel(selectDetails);
  const events = useLabPanel(selectEvents);
  const filter = useLabPanel(useShallow(selectEventFilter));
  const store = useLabStore();
  const playing = useLabPanel(selectPlaying);
  const root = useRef<HTMLElement>(null);
  const node = followedNode(chosen, tourFocus, nodeIds, focused, leader);
  const config = useLabPanel(selectConfig);
  const view = nodes.find((n) => n.id === node) ?? null;
  // A leader's heartbeat round logs nothing: it ran when its next one was set (heartbeatDue).
  const heartbeatAt = view !== null && view.alive && view.role === 'leader' ? view.heartbeatDue - config.heartbeatMs : null;
  // A protocol feature's rules appear only in runs that switch it on.
  // A Paxos run shows the paper's rules for its protocol instead.
  const sections = useMemo(() => pseudocodeFor(config), [config]);

  const lit = useMemo(() => {
    const out = new Map<string, number>();
    if (node === null) return out;
    const from = now - LIT_WINDOW_MS;
    for (let i = details.length - 1; i >= 0 && details[i].t > from; i--) {
      const d = details[i];
      if (d.t > now || d.subjects[0] !== node) continue; // the first subject is the one that ran the line
      for (const id of d.lines) out.set(id, (out.get(id) ?? 0) + 1);
    }
    for (let i = events.length - 1; i >= 0 && events[i].t > from; i--) {
      const e = events[i];
      const id = lineOfEventKind(e.kind);
      if (id === null || e.t > now || e.subjects[0] !== node) continue;
      out.set(id, (out.get(id) ?? 0) + 1);
    }
    if (heartbeatAt !== null && heartbeatAt > from && heartbeatAt <= now)
      out.set('leader.heartbeat', (out.get('leader.heartbeat') ?? 0) + 1);
    // Issue 28: a detector's lines light where the chapter's lines they replace fire; gossip's
    // suspicion while the node's view suspects someone.
    if (config.detector !== undefined) {
      for (const [id, sources] of Object.entries(DETECTOR_LINE_SOURCES)) {
        const count = sources.reduce((n, src) => n + (out.get(src) ?? 0), 0);
        if (count > 0) out.set(id, count);
      }
      const watch = view?.watch;
      if (watch?.kind === 'gossip' && watch.suspects.length > 0) out.set('detect-gossip.suspect', watch.suspects.length);
      const heard = watch?.kind === 'phi-accrual' ? (watch.reading?.lastMs ?? null) : null;
      if (heard !== null && heard > from && heard <= now) for (const id of ['detect-phi.heard', 'detect-phi.window']) out.set(id, 1);
    }
    return out;
  }, [details, events, now, node, heartbeatAt, config.detector, view?.watch]);

  // Paused on a moment, bring its first lit line into view (not while playing: it would jump),
  // but only when the moment changes: the tab itself opens at its top, like every tab.
  const litKey = [...lit.keys()].join(' ');
  const atOpening = useRef<string | null>(litKey);
  useEffect(() => {
    if (atOpening.current === litKey) return;
    atOpening.current = null;
    if (playing || litKey === '') return;
    root.current?.querySelector('[data-active="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [litKey, playing]);

  return (
    <section className="panel pseudocode-panel" aria-labelledby="code-title" ref={root}>
      <h2 id="code-title">Rules as they run</h2>
      <div className="code-follow">
        <label>
          Follow{' '}
          <select
            value={chosen ?? ''}
            data-testid="rules-follow"
            onChange={(e) => store.getState().setRuleNode(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">
              {tourFocus !== null && nodeIds.includes(tourFocus)
                ? `the tour’s node (${tourFocus})`
                : leader !== null && focused === null
                  ? `the leader (${leader})`
                  : focused !== null
                    ? `the selected node (${focused})`
                    : 'the leader (none now)'}
            </option>
            {nodeIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <p className="hint" data-testid="rules-hint">
          {node === null
            ? 'There is no leader now: pick a node to follow.'
            : `Lit: what ${node} did in the last ${LIT_WINDOW_MS} ms. Click a line to see only the events it produced.`}
        </p>
      </div>
      {sections.map((section) => (
        <div key={section.id} className="code-section">
          <h3>
            {section.title} <span className="source">{section.source}</span>
          </h3>
          <ol className="code-lines">
            {section.lines.map((l, i) => {
              const count = l.id !== null ? (lit.get(l.id) ?? 0) : 0;
              const selected = l.id !== null && filter.line === l.id;
              return (
                <li
                  key={l.id ?? `${section.id}-${i}`}
                  data-line-id={l.id ?? undefined}
                  data-active={count > 0 ? 'true' : undefined}
                  className={`code-line depth-${l.depth}${count > 0 ? ' active' : ''}${selected ? ' selected' : ''}`}
                >
                  {l.id === null ? (
                    <span className="code-text">{l.text}</span>
                  ) : (
                    <button
                      type="button"
                      className="code-text"
                      aria-pressed={selected}
                      title="Show only the events this line produced"
                      onClick={() => store.getState().setEventFilter({ line: selected ? null : l.id })}
                    >
                      {l.text}
                      {count > 1 ? <span className="times"> ×{count}</span> : null}
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
      ))}
    </section>
  );
});
