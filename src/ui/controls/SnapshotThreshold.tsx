/**
 * Settings ▸ Protocol, with snapshots on (§5): how many applied entries a node gathers before it
 * compacts them. A change starts a new run replayed to now, as the feature boxes do; the link
 * carries it (`snapshot=`). A bad value gets one sentence and changes nothing.
 */
import { memo, useState } from 'react';
import { configFromFields, snapshotEveryOf } from '../../sim/model/config';
import { useLab } from '../labContext';
import { selectConfig } from '../store/selectors';
import { useReplayWith } from './replayWith';
import { FieldError } from './FieldError';

export const SnapshotThreshold = memo(function SnapshotThreshold() {
  const replayWith = useReplayWith();
  const config = useLab(selectConfig);
  const [text, setText] = useState<{ from: typeof config; value: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const value = text !== null && text.from === config ? text.value : String(snapshotEveryOf(config));
  const apply = () => {
    if (value === String(snapshotEveryOf(config))) return;
    const next = configFromFields(config, { snapshotEvery: value });
    if (typeof next === 'string') {
      setProblem(next);
      return;
    }
    setProblem(null);
    replayWith(next);
  };
  return (
    <div className="snapshot-threshold">
      <label>
        Compact after{' '}
        <input
          type="text"
          inputMode="numeric"
          size={5}
          value={value}
          aria-describedby={problem !== null ? 'snapshot-threshold-error' : undefined}
          data-testid="snapshot-threshold"
          onChange={(e) => setText({ from: config, value: e.target.value })}
          onBlur={apply}
          onKeyDown={(e) => {
            if (e.key === 'Enter') apply();
          }}
        />{' '}
        applied entries (snapshots)
      </label>
      <FieldError problem={problem} id="snapshot-threshold-error" testId="snapshot-threshold-error" />
    </div>
  );
});
