/** The `<iframe>` snippet that puts a run's embed frame (`&embed=1`) on a course page. */
import { ALL_PRESETS } from '../runs';

export const EMBED_WIDTH = 800;
export const EMBED_HEIGHT = 560;

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The snippet for `src` (a link with embed=1); the title names the preset when there is one. */
export function embedCode(src: string, label: string | null): string {
  const preset = ALL_PRESETS.find((p) => p.name === label);
  const title = `Lockstep: ${preset && preset.name !== 'default' ? preset.title : 'a Raft and lock-service run'}`;
  return `<iframe src="${escapeAttr(src)}" width="${EMBED_WIDTH}" height="${EMBED_HEIGHT}" title="${escapeAttr(title)}" style="border:0" loading="lazy"></iframe>`;
}
