/** A beat's narration as plain elements: **bold**, {n2} (an actor's name) and `code`. */
import type { ReactNode } from 'react';

const PIECES = /(\*\*[^*]+\*\*|\{[A-Za-z][A-Za-z0-9]{0,7}\}|`[^`]+`)/;

export function narrationNodes(text: string): ReactNode[] {
  return text.split(PIECES).map((piece, i) => {
    if (piece.startsWith('**') && piece.endsWith('**') && piece.length > 4)
      return <strong key={i}>{narrationNodes(piece.slice(2, -2))}</strong>;
    if (piece.startsWith('{') && piece.endsWith('}'))
      return (
        <b key={i} className="caption-actor">
          {piece.slice(1, -1)}
        </b>
      );
    if (piece.startsWith('`') && piece.endsWith('`')) return <code key={i}>{piece.slice(1, -1)}</code>;
    return piece;
  });
}

/** The narration as plain text (for a heading or a title): markup removed. */
export function narrationText(text: string): string {
  return text
    .replace(/\*\*/g, '')
    .replace(/\{([A-Za-z][A-Za-z0-9]{0,7})\}/g, '$1')
    .replace(/`/g, '');
}

/** The first sentence of a narration, to stand for its beat ("the next beat's title"). */
export function beatTitle(text: string): string {
  const plain = narrationText(text).trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(plain);
  const first = m ? m[1] : plain;
  return first.length > 110 ? `${first.slice(0, 107)}…` : first;
}
