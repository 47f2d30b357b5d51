/**
 * Whether an imported file (issue 27) is open, and which. Its own tiny store, loaded with the
 * page: everything that reads, checks and draws the file (ImportView.tsx, the import worker) is
 * loaded only when a person drops or imports one, so it adds nothing to the page's first load.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface ImportFile {
  readonly name: string;
  readonly text: string;
  /** Changes with every file opened, so the view starts over even for the same name. */
  readonly serial: number;
}

export interface ImportState {
  readonly file: ImportFile | null;
}

export const importStore = createStore<ImportState>(() => ({ file: null }));

let serial = 0;

export function openImportedFile(name: string, text: string): void {
  importStore.setState({ file: { name, text, serial: ++serial } });
}

export function closeImportedFile(): void {
  importStore.setState({ file: null });
}

export function useImportedFile(): ImportFile | null {
  return useStore(importStore, (s) => s.file);
}
