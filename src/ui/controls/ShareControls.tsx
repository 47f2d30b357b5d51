/**
 * Sharing the run: copy its link (the URL always holds it), import a run file (the Export menu
 * saves one), and the keyboard help. A link or file replays the exact run, paused at its time.
 */
import { memo, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { runToJson } from '../../share/link';
import { useBridge, useLabStore } from '../labContext';
import { FloatingPanel, Popover } from './Popover';
import type { LabState } from '../store/labStore';
import { SHORTCUTS } from '../useKeyboardShortcuts';
import { currentLink, linkStateOf, pageUrl } from '../urlSync';
import { linkQuery, runSpecOf } from '../runs';
import { openAnyFile } from '../importer/openFile';
import { embedCode } from '../present/embedCode';
import { downloadText } from '../export/download';
import { registerExport } from '../export/exportActions';

/** Clipboard writes can hang or be refused (no focus, no permission); then the field is selected. */
async function writeClipboard(text: string): Promise<boolean> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clipboard?.writeText) return false;
  try {
    return await Promise.race([clipboard.writeText(text).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000))]);
  } catch {
    return false;
  }
}

function fileName(s: LabState): string {
  return `lockstep-seed${String(s.frame.config.seed)}-t${s.frame.snapshot?.now ?? 0}ms.json`;
}

/** The run file for the store's run now. */
export function runFileText(s: LabState): string {
  const f = s.frame;
  return runToJson(runSpecOf({ config: f.config, schedule: f.schedule, nowMs: f.snapshot?.now ?? 0, speed: f.speed }));
}

export const ShareControls = memo(function ShareControls() {
  const bridge = useBridge();
  const store = useLabStore();
  const [shown, setShown] = useState<{ url: string; copied: boolean | null; label?: string } | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const group = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (shown && shown.copied === false) field.current?.select();
  }, [shown]);

  const copy = async () => {
    const query = currentLink(store.getState());
    if (query === null) return;
    const url = pageUrl(query);
    setShown({ url, copied: null });
    const copied = await writeClipboard(url);
    setShown((s) => (s && s.url === url ? { ...s, copied } : s));
  };

  // The same run in the embed frame, as an <iframe> snippet for a course page.
  const copyEmbed = async () => {
    const s = store.getState();
    const state = linkStateOf(s);
    if (state === null) return;
    const { present: _present, ...rest } = state;
    const code = embedCode(pageUrl(linkQuery({ ...rest, embed: true })), s.frame.label);
    setShown({ url: code, copied: null, label: 'Embed code for a course page' });
    const copied = await writeClipboard(code);
    setShown((v) => (v && v.url === code ? { ...v, copied } : v));
  };

  // The run file is saved from the Export menu, with every other export; Import… reads it back.
  useEffect(
    () =>
      registerExport('run-file', {
        label: 'Run file (JSON, for Import…)',
        available: () => store.getState().frame.snapshot !== null,
        run: () => {
          const s = store.getState();
          downloadText(fileName(s), runFileText(s), 'application/json');
        },
      }),
    [store],
  );

  // A run file replays its run; another tool's file (a Jepsen history, Porcupine data, an etcd trace) is imported.
  const importRun = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    await openAnyFile(file, bridge);
  };

  return (
    <div className="share" role="group" aria-label="Share" ref={group}>
      <button type="button" onClick={() => void copy()} title="Copy a link that reopens this run, paused at this moment">
        Copy link
      </button>
      <button
        type="button"
        onClick={() => void copyEmbed()}
        aria-label="Copy embed code"
        title="Copy an <iframe> snippet that shows this run (diagram, play/pause, timeline) on a course page"
      >
        Embed
      </button>
      <button
        type="button"
        onClick={() => fileInput.current?.click()}
        title="Open a run file saved with Export ▸ Run file, or another tool's file: a Jepsen history (EDN or line log), Porcupine data or an etcd raft trace (or drop it on the page)"
      >
        Import…
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".json,.edn,.log,.txt,.ndjson,.jsonl,.html,application/json"
        hidden
        onChange={(e) => void importRun(e)}
        aria-label="File to import (a run file, a Jepsen history, Porcupine data or an etcd trace)"
        data-testid="import-file"
      />
      <Popover className="keys-help" label="Keys" panelLabel="Keyboard shortcuts">
        <table>
          <caption>Keyboard shortcuts (not while typing in a field)</caption>
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <th scope="row">
                  <kbd>{keys}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Popover>
      {shown && (
        <FloatingPanel anchor={group} align="right" className="share-popover" label="Link to this moment">
          <label>
            {shown.label ?? 'Link to this moment'}
            <input
              ref={field}
              readOnly
              value={shown.url}
              data-testid={shown.label ? 'embed-code' : 'share-url'}
              size={36}
              onFocus={(e) => e.target.select()}
            />
          </label>
          <span className="hint" role="status">
            {shown.copied === null ? 'Copying…' : shown.copied ? 'Copied to the clipboard.' : 'Selected: press Ctrl+C (⌘C) to copy it.'}
          </span>
          <button type="button" onClick={() => setShown(null)}>
            Close
          </button>
        </FloatingPanel>
      )}
    </div>
  );
});
