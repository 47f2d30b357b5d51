/**
 * Settings ▸ Failure detector and regions (issue 28): what decides that a leader or a lock holder
 * is gone (the chapter's fixed timeout, phi-accrual or gossip, with their parameters), and where
 * the nodes and clients stand (regions with a round-trip matrix). Fixed with no takeover
 * threshold and no regions is the chapter's run. A change starts a new run with the recorded
 * actions, replayed to now; the link carries it (`detector=`, `regions=`, `rtt=`, …).
 */
import { memo, useState } from 'react';
import { configFromFields, type SimConfig } from '../../sim/model/config';
import { DETECTORS, detectorNameOf, detectorToFields, type DetectorName } from '../../sim/model/detector';
import { formatRegions, formatRtt, parseRegionsText, parseRttText, rttMatrix } from '../../sim/model/network';
import { useBridge, useLab, useLabPanel } from '../labContext';
import { selectConfig, selectNow, selectPlaying, selectSchedule } from '../store/selectors';
import { FieldError } from './FieldError';
import { keepValidActions } from './keepValidActions';

/** Each detector's own fields, with the label a person reads and the default it falls back to. */
const PARAMS: Readonly<
  Record<DetectorName, readonly { field: 'phi' | 'window' | 'fanout' | 'round' | 'suspect' | 'takeover'; label: string; hint: string }[]>
> = {
  fixed: [{ field: 'takeover', label: 'Takeover threshold ms', hint: 'none: only the lease frees a lock' }],
  'phi-accrual': [
    { field: 'phi', label: 'Threshold Φ', hint: '8' },
    { field: 'window', label: 'Window (heartbeats)', hint: '100' },
  ],
  gossip: [
    { field: 'fanout', label: 'Fanout', hint: '3' },
    { field: 'round', label: 'Round ms', hint: 'the heartbeat' },
    { field: 'suspect', label: 'Suspect after ms', hint: 'shortest timeout' },
  ],
};

const WHAT: Readonly<Record<DetectorName, string>> = {
  fixed: 'The chapter’s: a follower campaigns when its randomized election timer runs out, reset by every heartbeat.',
  'phi-accrual':
    'Suspicion φ from the recent heartbeat inter-arrival times: a slower but steady network raises the timeout with the mean, a jittery one with σ.',
  gossip:
    'Each round every node tells a few random peers its heartbeat counters; a member whose counter stops growing is suspected, and suspicion spreads.',
};

function initial(config: SimConfig): Record<string, string> {
  const d = detectorToFields(config.detector);
  return {
    detector: detectorNameOf(config.detector),
    phi: d.phi ?? '',
    window: d.window ?? '',
    fanout: d.fanout ?? '',
    round: d.round ?? '',
    suspect: d.suspect ?? '',
    takeover: d.takeover ?? '',
    regions: config.regions !== undefined ? formatRegions(config.regions.places) : '',
    rtt: config.regions !== undefined ? formatRtt(config.regions.rtt) : 'us',
  };
}

function DetectorForm({ config }: { config: SimConfig }) {
  const bridge = useBridge();
  const schedule = useLab(selectSchedule);
  const playing = useLab(selectPlaying);
  const now = useLabPanel(selectNow);
  const [f, setF] = useState(() => initial(config));
  const [problem, setProblem] = useState<string | null>(null);
  const kind = f.detector as DetectorName;
  const apply = () => {
    // From the run without its detector and regions, so an emptied field means the default.
    const { detector: _d, regions: _r, ...plain } = config;
    const fields: Record<string, string> = {};
    if (kind !== 'fixed') fields.detector = kind;
    for (const p of PARAMS[kind]) if (f[p.field].trim() !== '') fields[p.field] = f[p.field];
    if (f.regions.trim() !== '') {
      fields.regions = f.regions;
      fields.rtt = f.rtt.trim() === '' ? 'us' : f.rtt;
    }
    const next = configFromFields(plain as SimConfig, fields);
    if (typeof next === 'string') return setProblem(next);
    const { kept, dropped } = keepValidActions(schedule, next);
    bridge.load(next, kept, { startAtMs: now, playing, label: 'custom' });
    setProblem(
      dropped.length > 0
        ? `The new run leaves out ${dropped.length} recorded action${dropped.length === 1 ? '' : 's'} it cannot replay.`
        : null,
    );
  };
  const input = (name: string, props: { size: number; placeholder: string }) => (
    <input value={f[name]} onChange={(e) => setF({ ...f, [name]: e.target.value })} data-field={name} {...props} />
  );
  return (
    <form
      className="settings-form"
      data-testid="detector-settings"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <fieldset>
        <legend>Failure detector and regions</legend>
        <label>
          Failure detector{' '}
          <select
            value={kind}
            onChange={(e) => setF({ ...f, detector: e.target.value })}
            aria-label="Failure detector"
            data-testid="detector"
          >
            {DETECTORS.map((d) => (
              <option key={d} value={d}>
                {d}
                {d === 'fixed' ? ' (the chapter’s)' : ''}
              </option>
            ))}
          </select>
        </label>
        <p className="hint" data-testid="detector-explanation">
          {WHAT[kind]}
        </p>
        <div className="settings-grid">
          {PARAMS[kind].map((p) => (
            <label key={p.field}>
              {p.label} {input(p.field, { size: 6, placeholder: p.hint })}
            </label>
          ))}
        </div>
        <div className="settings-grid">
          <label className="settings-wide">
            Regions {input('regions', { size: 30, placeholder: 'us-east=n1,n2,A; us-west=n3,n4; eu-west=n5,B' })}
          </label>
          <label>Round trips {input('rtt', { size: 10, placeholder: 'datacenter, us or world' })}</label>
        </div>
        <PlacePicker
          ids={[...config.nodeIds, ...config.clientIds]}
          regionsText={f.regions}
          rttText={f.rtt}
          onChange={(regions) => setF({ ...f, regions, rtt: f.rtt.trim() === '' ? 'us' : f.rtt })}
        />
        <div className="button-row">
          <button type="submit">Apply detector and regions</button>
        </div>
        <FieldError problem={problem} testId="detector-error" />
      </fieldset>
    </form>
  );
}

/**
 * The place picker: one menu per node and client, choosing its region from the round-trip matrix
 * (a preset's regions, or a custom matrix's). It writes the Regions field, which stays the one
 * truth (and what the link carries); a field the picker cannot read leaves the menus on "—".
 */
function PlacePicker({
  ids,
  regionsText,
  rttText,
  onChange,
}: {
  ids: readonly string[];
  regionsText: string;
  rttText: string;
  onChange: (regions: string) => void;
}) {
  const rtt = parseRttText(rttText.trim() === '' ? 'us' : rttText, 'Round trips');
  const regions = typeof rtt === 'string' ? [] : rttMatrix(rtt.rtt).regions;
  const parsed = regionsText.trim() === '' ? [] : parseRegionsText(regionsText, 'Regions');
  const places = typeof parsed === 'string' ? [] : parsed;
  const regionOf = new Map<string, string>();
  for (const p of places) for (const id of p.ids) regionOf.set(id, p.region);
  const place = (id: string, region: string) => {
    const next = new Map(regionOf);
    if (region === '') next.delete(id);
    else next.set(id, region);
    // Regions in the matrix's order, then any the matrix lacks (the check names them); ids in the run's order.
    const order = [...regions, ...places.map((p) => p.region).filter((r) => !regions.includes(r))];
    const known = [...ids, ...[...next.keys()].filter((x) => !ids.includes(x))];
    const out = order.map((r) => ({ region: r, ids: known.filter((x) => next.get(x) === r) })).filter((p) => p.ids.length > 0);
    onChange(out.length === 0 ? '' : formatRegions(out));
  };
  if (regions.length === 0) return null;
  return (
    <div className="place-picker" data-testid="place-picker" role="group" aria-label="Place each node and client in a region">
      {ids.map((id) => (
        <label key={id}>
          {id}{' '}
          <select value={regionOf.get(id) ?? ''} onChange={(e) => place(id, e.target.value)} data-place={id} aria-label={`Region of ${id}`}>
            <option value="">—</option>
            {regions.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}

export const DetectorSettings = memo(function DetectorSettings() {
  const config = useLab(selectConfig);
  // Re-seeded from the run whenever its configuration changes (a new load).
  return <DetectorForm key={JSON.stringify(config, (_k, v) => (typeof v === 'bigint' ? String(v) : v))} config={config} />;
});
