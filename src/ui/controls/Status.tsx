/** One line of what the run is doing now: who leads, messages in flight, partitions, loss. */
import { memo } from 'react';
import { useLab } from '../labContext';
import { selectStatus } from '../store/selectors';

export const Status = memo(function Status() {
  const text = useLab(selectStatus);
  return (
    <p className="status" data-testid="status">
      {text}
    </p>
  );
});
