/** Small text helpers shared by panels. */

/** "850 ms", "8.2 s", "-2.5 s" — short enough for a table cell, exact enough to compare. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(abs < 10_000 ? 1 : 0)} s`;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** Tableau 10, the term palette: each term its own colour in the logs. */
const TERM_COLOURS = ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#bab0ab'];

export function termColour(term: number): string {
  return TERM_COLOURS[(term - 1 + TERM_COLOURS.length * 1000) % TERM_COLOURS.length];
}
