/**
 * What a beat's narration names on the page — a panel ("the History tab", "the logs", "the lock
 * table"), or marks the ring draws ("the arc around it") — so the page can open or show each one
 * while the beat is on screen, and a test can check that nothing named is out of sight. Words are
 * matched, not meanings: a narration that says "log" means the nodes' logs in every tour we have.
 */
import type { Beat, Shown, ShownPanel, Tour } from './types';

const WORDS: readonly (readonly [Shown, RegExp])[] = [
  ['history', /\bHistory (tab|view)\b|\bverdicts?\b|\blinearizab/i],
  ['invariants', /\bInvariants?\b(?! of)|\bLeader Completeness\b/],
  ['locks', /\block table\b/i],
  ['logs', /\blogs?\b(?<!replicated log)|\bnextIndex\b|\bInstallSnapshot\b/i],
  // "the store", "the fenced store", "both stores" — not the verb ("the nodes store and commit it").
  ['stores', /\b(the|fenced|unfenced)\s+store\b|\bstores\b/i],
  ['timers', /\b(election )?timers?\b|\bthe arc\b/i],
];

/** The places a text names, in the order of WORDS. */
export function mentionsIn(text: string): Shown[] {
  const plain = text.replace(/`[^`]*`/g, '').replace(/\*\*/g, '');
  return WORDS.filter(([, re]) => re.test(plain)).map(([shown]) => shown);
}

/**
 * Which panel the page opens for a beat, most specific first: the one the beat highlights, else
 * the first its narration (or `shows`) names — a verdict before the invariants before the logs —
 * else none (the panel stays as it is). The stores and timers are drawn on the ring itself.
 */
const PANEL_ORDER: readonly ShownPanel[] = ['history', 'invariants', 'locks', 'logs', 'clients', 'stores'];

/** Everything a beat names or shows; beat 1 also speaks the tour's intro. */
export function beatShows(tour: Tour, beat: Beat, number: number): Shown[] {
  const text = number === 1 ? `${tour.intro} ${beat.narration}` : beat.narration;
  const out = new Set<Shown>(mentionsIn(text));
  for (const s of beat.shows ?? []) out.add(s);
  const h = beat.highlight;
  if (h && 'panel' in h) out.add(h.panel);
  return [...out];
}

export function beatPanel(beat: Beat, shows: readonly Shown[]): ShownPanel | null {
  const h = beat.highlight;
  if (h && 'panel' in h) {
    // A panel named in words wins over a highlight that would hide it (the History tab over Stores).
    const named = PANEL_ORDER.find((p) => shows.includes(p) && p !== 'stores' && PANEL_ORDER.indexOf(p) < PANEL_ORDER.indexOf(h.panel));
    return named ?? h.panel;
  }
  return PANEL_ORDER.find((p) => p !== 'stores' && shows.includes(p)) ?? null;
}
