/**
 * A button that opens a small panel under it; Escape or a click elsewhere closes it. The panel
 * is drawn in a portal with fixed position, because the bars it hangs from contain their paint
 * (so a ticking clock never repaints the page) and would clip it. Outside those bars, the panel
 * is a named region of its own, so nothing on the page sits outside a landmark.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

/** Closes an open popover on a pointer press outside its button and panel, or on Escape. */
export function useDismiss(
  open: boolean,
  setOpen: (open: boolean) => void,
  root: RefObject<HTMLElement | null>,
  panel: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!root.current?.contains(target) && !panel.current?.contains(target)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
}

export function FloatingPanel({
  anchor,
  align,
  className,
  id,
  panelRef,
  label,
  children,
}: {
  anchor: RefObject<HTMLElement | null>;
  /** The region's name, e.g. "Keyboard shortcuts". */
  label: string;
  align: 'left' | 'right';
  className?: string;
  id?: string;
  panelRef?: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}) {
  const [place, setPlace] = useState<{ top: number; left?: number; right?: number } | null>(null);
  useLayoutEffect(() => {
    const measure = () => {
      const r = anchor.current?.getBoundingClientRect();
      if (!r) return;
      setPlace(
        align === 'left'
          ? { top: r.bottom + 4, left: Math.max(4, r.left) }
          : { top: r.bottom + 4, right: Math.max(4, document.documentElement.clientWidth - r.right) },
      );
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [anchor, align]);
  return createPortal(
    <div
      className={`popover-panel ${className ?? ''}`}
      id={id}
      ref={panelRef}
      role="region"
      aria-label={label}
      style={place ? { position: 'fixed', ...place } : { visibility: 'hidden' }}
    >
      {children}
    </div>,
    document.body,
  );
}

export function Popover({
  label,
  className,
  align = 'right',
  testId,
  panelLabel,
  children,
}: {
  label: ReactNode;
  /** The open panel's name (a region); the button's label when that is plain text. */
  panelLabel?: string;
  className?: string;
  align?: 'left' | 'right';
  testId?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useDismiss(open, setOpen, root, panel);
  return (
    <div className={`popover ${className ?? ''}`} ref={root}>
      <button type="button" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)} data-testid={testId}>
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <FloatingPanel
          anchor={root}
          align={align}
          id={id}
          panelRef={panel}
          className={className}
          label={panelLabel ?? (typeof label === 'string' ? label : 'Menu')}
        >
          {children}
        </FloatingPanel>
      )}
    </div>
  );
}
