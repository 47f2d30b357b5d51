/**
 * Saving a file from the page: a Blob behind a temporary <a download>. The object URL is
 * revoked a little later, once the browser has started the download.
 */

/** `lockstep-seed42-t1360ms-ring.svg`: the seed and simulated time say which moment it shows. */
export function exportFileName(kind: string, seed: number | bigint | string, tMs: number, ext: string): string {
  const t = Number.isFinite(tMs) ? Math.max(0, Math.floor(tMs)) : 0;
  return `lockstep-seed${String(seed)}-t${t}ms-${kind}.${ext.replace(/^\./, '')}`;
}

export function downloadBlob(name: string, blob: Blob): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export function downloadText(name: string, text: string, mime: string): void {
  downloadBlob(name, new Blob([text], { type: mime }));
}
