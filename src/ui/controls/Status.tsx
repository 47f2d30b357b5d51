/** One line of what the run is doing now: who leads, messages in flight, partitions, loss. */
import { memo } from 'react';
import { useLabPanel } from '../labContext';
import { selectStatus } from '../store/selectors';

export const Status = memo(function Status() {
  // Text, not a drawing: it catches up with a playing run at the panels' pace (labContext's useLabPanel).
  const text = useLabPanel(selectStatus);
  return (
    <p className="status" data-testid="status">
      {text}
    </p>
  );
});
