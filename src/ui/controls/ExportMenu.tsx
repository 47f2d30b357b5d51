/**
 * The Export menu: pictures and logs of the run as files. Its items come from the export
 * registry (`../export/exportActions`), so each view provides its own formats; a format nobody
 * provides yet is listed but disabled. A disclosure: the button shows a group of plain buttons, one
 * per format; arrows, Home and End move between them, Escape closes and gives focus back.
 */
import { memo, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLabStore } from '../labContext';
import { useExportItems, type ExportItem } from '../export/exportActions';
import { preloadRingWriter, registerRingExports } from '../export/ringActions';
import { FloatingPanel } from './Popover';

/** The error banner's sentence for a failed export. */
export function exportErrorSentence(label: string, e: unknown): string {
  const reason = (e instanceof Error ? e.message : String(e)).trim().replace(/[.\s]+$/, '');
  return `Could not export ${label}${reason ? `: ${reason}` : ''}.`;
}

export const ExportMenu = memo(function ExportMenu() {
  const store = useLabStore();
  const items = useExportItems();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => registerRingExports(store), [store]);

  const menuItems = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    // The panel is placed (and so focusable) just after it mounts.
    const focusFirst = setTimeout(() => menuItems()[0]?.focus(), 0);
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!root.current?.contains(target) && !menu.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => {
      clearTimeout(focusFirst);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);

  const onMenuKey = (e: KeyboardEvent) => {
    const list = menuItems();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const to =
      e.key === 'ArrowDown'
        ? (at + 1) % list.length
        : e.key === 'ArrowUp'
          ? at <= 0
            ? list.length - 1
            : at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? list.length - 1
              : null;
    // Keys the menu uses are not also the page's shortcuts (arrows step time).
    if (to !== null || e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.stopPropagation();
    if (to !== null) {
      e.preventDefault();
      list[to]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };

  const run = async (item: ExportItem) => {
    const action = item.action;
    if (!action || !action.available()) return;
    close(true);
    try {
      await action.run();
    } catch (e) {
      store.setState({ error: exportErrorSentence(item.label, e) });
    }
  };

  return (
    <div className="export" ref={root}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
        onPointerEnter={preloadRingWriter}
        onFocus={preloadRingWriter}
        onKeyDown={onButtonKey}
        title="Save the diagrams, the trace or the event log of this moment as files"
      >
        Export <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <FloatingPanel anchor={root} align="right" className="export-menu" label="Export">
          <div role="group" id={id} aria-label="Export formats" data-testid="export-menu" ref={menu} onKeyDown={onMenuKey}>
            {items.map((item) => {
              const enabled = item.action !== null && item.action.available();
              return (
                <button
                  key={item.id}
                  type="button"
                  aria-disabled={enabled ? undefined : true}
                  title={enabled ? undefined : 'not available yet'}
                  data-export-id={item.id}
                  onClick={() => void run(item)}
                >
                  {item.label}
                </button>
              );
            })}
          </div>
        </FloatingPanel>
      )}
    </div>
  );
});
