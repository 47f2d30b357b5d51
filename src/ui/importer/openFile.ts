/**
 * A file a person drops on the page or picks with "Import…": a Lockstep run file replays its run
 * (as before); anything else opens as another tool's file (a Jepsen history or log, Porcupine
 * data, an etcd raft trace), read and checked by the lazily loaded importer. A file that is none
 * of those gets its sentence there, with the current run kept.
 */
import { runFromJson } from '../../share/link';
import type { HostBridge } from '../bridge/hostBridge';
import { runFromSpec } from '../runs';
import { openImportedFile } from './importStore';

/** The largest file the page reads (a long Jepsen history is tens of MB; more would stall the tab). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export async function openAnyFile(file: File, bridge: HostBridge): Promise<void> {
  if (file.size > MAX_IMPORT_BYTES) {
    bridge.store.setState({
      error: `${file.name} is ${(file.size / 1024 / 1024).toFixed(0)} MB; the page reads files up to ${MAX_IMPORT_BYTES / 1024 / 1024} MB (npm run check reads any size). The current run is kept.`,
    });
    return;
  }
  const text = await file.text();
  // A run file is JSON with Lockstep's own shape; everything else goes to the importer.
  if (/^\s*\{/.test(text) && text.includes('"lockstep-run"')) {
    const decoded = runFromJson(text);
    if (!decoded.ok) {
      bridge.store.setState({ error: `${file.name}: ${decoded.error} The current run is kept.` });
      return;
    }
    const run = runFromSpec(decoded.spec);
    bridge.setSpeed(run.speed);
    bridge.load(run.config, run.schedule, { startAtMs: run.startAtMs, stopAtMs: run.stopAtMs, playing: false, label: run.label });
    return;
  }
  openImportedFile(file.name, text);
}

/** Files dropped anywhere on the page open as `openAnyFile` opens them. Returns the cleanup. */
export function listenForDroppedFiles(bridge: HostBridge): () => void {
  const hasFiles = (e: DragEvent) => e.dataTransfer !== null && Array.from(e.dataTransfer.types).includes('Files');
  const over = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  };
  const drop = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    const file = e.dataTransfer?.files[0];
    if (file) void openAnyFile(file, bridge);
  };
  window.addEventListener('dragover', over);
  window.addEventListener('drop', drop);
  return () => {
    window.removeEventListener('dragover', over);
    window.removeEventListener('drop', drop);
  };
}
