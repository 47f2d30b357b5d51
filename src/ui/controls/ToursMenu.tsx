/**
 * Every tour, one click from anywhere (the top bar). Choosing one opens it at beat 1. The list
 * itself (ToursList.tsx: what each teaches, its beats and running time) comes with the tours' text
 * in a chunk of its own, fetched when the pointer reaches the button.
 */
import { memo, useRef, useState } from 'react';
import { useBridge, useLab } from '../labContext';
import { OnDemand } from '../lazyView';
import { toursList } from '../lazyViews';
import { openTourBeat } from '../tour';
import { FloatingPanel, useDismiss } from './Popover';

export const ToursMenu = memo(function ToursMenu({ className }: { className?: string }) {
  const bridge = useBridge();
  const current = useLab((s) => s.tour?.name ?? null);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(open, setOpen, root, panel);
  const choose = (name: string) => {
    setOpen(false);
    void openTourBeat(bridge, { name, beat: 1 }, 'play');
  };
  return (
    <div className={`popover tours-menu ${className ?? ''}`} ref={root}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? 'tours-list' : undefined}
        data-testid="tours-button"
        title="Every guided tour: what it teaches, its beats and its running time"
        onPointerEnter={() => void toursList.preload()}
        onFocus={() => void toursList.preload()}
        onClick={() => setOpen(!open)}
      >
        Tours <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <FloatingPanel anchor={root} align="left" id="tours-list" panelRef={panel} className="tours-panel" label="Guided tours">
          <OnDemand what="the tours" retry={toursList.retry}>
            <toursList.View current={current} choose={choose} />
          </OnDemand>
        </FloatingPanel>
      )}
    </div>
  );
});
