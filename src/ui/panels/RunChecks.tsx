/**
 * The run bar's checks: the invariant badge (green while every invariant holds, red at the first
 * violation; a click opens the Invariants tab) and the bugs menu. The Invariants tab itself
 * (InvariantsPanel.tsx) loads on demand with the other later tabs.
 */
import { memo, useState } from 'react';
import { BUG_FEATURE, BUG_NAMES, featuresOf, type BugName, type SimConfig } from '../../sim/model/config';
import { BUG_BLURBS, PAXOS_BUGS, PAXOS_INVARIANT_IDS, canonicalFeatures, paxosBugsOf } from '../../sim/model/features';
import { invariantsFor } from '../../sim/check/ids';
import { Popover } from '../controls/Popover';
import { useReplayWith } from '../controls/replayWith';
import { useLab, useLabPanel, useLabStore } from '../labContext';
import { selectCheck, selectConfig } from '../store/selectors';

/** The fuzz seed for a run: its own seed, folded to 32 bits. */
export function fuzzSeedOf(config: SimConfig): number {
  try {
    return Number(BigInt(config.seed) % 2n ** 32n);
  } catch {
    return 1;
  }
}

/** The invariants checked in this run: Raft's (and its features'), or the Paxos family's. */
export function checkedFor(config: SimConfig): readonly string[] {
  return config.protocol !== undefined ? PAXOS_INVARIANT_IDS : invariantsFor(config);
}

/** One line for the header: green while every invariant holds, red at the first violation. */
export const InvariantBadge = memo(function InvariantBadge() {
  // A protocol feature's invariants count only in runs that switch it on.
  const checked = checkedFor(useLabPanel(selectConfig));
  const check = useLabPanel(selectCheck);
  const store = useLabStore();
  // Beside a tour's narration the run bar keeps one row: the invariant's name is in the tab.
  const touring = useLab((s) => s.tour !== null);
  if (!check) return null;
  const v = check.violation;
  const full = v ? `✗ ${v.title} violated at t=${v.t} ms` : `✓ ${checked.length} invariants hold`;
  return (
    <button
      type="button"
      className={`invariant-badge ${v ? 'bad' : 'ok'}`}
      data-testid="invariant-badge"
      data-state={v ? 'violated' : 'holding'}
      onClick={() => store.getState().setSideTab('invariants')}
      title={v && touring ? `${full.slice(2)}: open the invariants panel` : 'Open the invariants panel'}
    >
      {v && touring ? `✗ an invariant fails at t=${v.t} ms` : full}
    </button>
  );
});

export const BugsMenu = memo(function BugsMenu() {
  const replayWith = useReplayWith();
  const config = useLabPanel(selectConfig);
  // The box shows what was asked for until the new run arrives from the worker.
  const [asked, setAsked] = useState<{ from: SimConfig; bugs: readonly BugName[] } | null>(null);
  const shown = asked && asked.from === config ? asked.bugs : config.bugs;
  // A Paxos run lists the Paxos family's bugs for its protocol (features/paxos.ts).
  const names: readonly string[] = config.protocol !== undefined ? paxosBugsOf(config.protocol) : BUG_NAMES;
  const blurb = (b: string) => (BUG_BLURBS as Record<string, string>)[b] ?? PAXOS_BUGS.find((x) => x.name === b)?.blurb ?? '';
  const toggle = (bug: string, on: boolean) => {
    const bugs = names.filter((b) => (b === bug ? on : (shown as readonly string[]).includes(b))) as BugName[];
    setAsked({ from: config, bugs });
    // A feature's bug needs its feature: switching the bug on switches the feature on too.
    const needs = on ? BUG_FEATURE[bug as BugName] : undefined;
    const features =
      needs !== undefined && !featuresOf(config).includes(needs) ? canonicalFeatures([...featuresOf(config), needs]) : config.features;
    // A new run with the same schedule, replayed to now: the bug changes what the run does.
    replayWith({ ...config, bugs, ...(features !== undefined ? { features } : {}) });
  };
  return (
    <Popover
      align="right"
      className={`bugs-menu ${config.bugs.length > 0 ? 'bugs-on' : ''}`}
      testId="bugs-summary"
      panelLabel="Bugs to switch on"
      label={config.bugs.length > 0 ? `Bugs on: ${config.bugs.join(', ')}` : 'Bugs: none'}
    >
      <fieldset>
        <legend>Switch a bug on (a new run, replayed to now; carried in the link)</legend>
        {names.map((b) => (
          <label key={b} className="bug-option">
            <input type="checkbox" checked={(shown as readonly string[]).includes(b)} onChange={(e) => toggle(b, e.target.checked)} />
            <code>{b}</code> <span className="muted">{blurb(b)}</span>
          </label>
        ))}
      </fieldset>
    </Popover>
  );
});
