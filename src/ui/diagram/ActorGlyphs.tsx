/** Clients (left) and the two stores (right) on the diagram. */
import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useLab } from '../labContext';
import { clientGlyphFields, disagreeingKeys, selectTourHighlight, storeGlyphFields } from '../store/selectors';
import { CLIENT_SIZE, RING_FONT, STORE_SIZE, type Point } from '../../paint/layout';
import { PRESENTER_CLIENT_SIZE, PRESENTER_FONT, PRESENTER_STORE_SIZE, useDiagramText } from '../present/diagramText';

export const ClientGlyph = memo(function ClientGlyph({ id, at }: { id: string; at: Point }) {
  const c = useLab(useShallow((s) => clientGlyphFields(s, id)));
  const highlighted = useLab((s) => selectTourHighlight(s) === id);
  const presenter = useDiagramText();
  const ps = presenter?.scale ?? 1;
  const { w, h } = presenter ? PRESENTER_CLIENT_SIZE : CLIENT_SIZE;
  const state = !c.alive ? 'down' : c.paused ? 'paused' : 'up';
  return (
    <g
      className={`client client-${state}${highlighted ? ' tour-highlight' : ''}`}
      transform={`translate(${at.x},${at.y})`}
      data-client-id={id}
      role="img"
      aria-label={`client ${id}, ${c.status}${c.token !== null ? `, token ${c.token}` : ''}`}
    >
      <rect x={-w / 2} y={-h / 2} width={w} height={h} rx={12} />
      <text className="client-id" y={presenter ? -13 * ps : -11} fontSize={presenter ? PRESENTER_FONT.clientId * ps : RING_FONT.clientId}>
        client {id}
      </text>
      <text
        className="client-token"
        y={presenter ? 16 * ps : 15}
        fontSize={presenter ? PRESENTER_FONT.clientToken * ps : RING_FONT.clientToken}
      >
        {!c.alive ? 'CRASHED' : c.paused ? 'PAUSED' : c.token !== null ? `token ${c.token}` : 'no token'}
      </text>
    </g>
  );
});

export const StoreGlyph = memo(function StoreGlyph({ id, at }: { id: 'fenced' | 'unfenced'; at: Point }) {
  const v = useLab(useShallow((s) => storeGlyphFields(s, id)));
  const presenter = useDiagramText();
  const { w, h } = presenter ? PRESENTER_STORE_SIZE : STORE_SIZE;
  const font = presenter
    ? { name: PRESENTER_FONT.storeName * presenter.scale, value: PRESENTER_FONT.storeValue * presenter.scale }
    : { name: RING_FONT.storeName, value: RING_FONT.storeValue };
  const top = presenter ? 34 : 33;
  // Lines a little more than a line apart, so their boxes never touch.
  const nameStep = font.name * 1.2;
  const valueStep = font.value * 1.25;
  const maxChars = presenter ? 11 : 15;
  // The value a person reads at a glance: key=value while it fits, else a single key's value
  // alone (the key is in the name read out, and in the Stores tab), cut only if still too long.
  const shown = v.text.length > maxChars && v.value !== null ? v.value : v.text;
  const ry = 10;
  const d = `M${-w / 2},${-h / 2 + ry}A${w / 2},${ry} 0 0 1 ${w / 2},${-h / 2 + ry}V${h / 2 - ry}A${w / 2},${ry} 0 0 1 ${-w / 2},${h / 2 - ry}Z`;
  return (
    <g
      className={`store store-${id}${v.disagree ? ' disagree' : ''}`}
      transform={`translate(${at.x},${at.y})`}
      role="img"
      aria-label={`${id} store: ${v.text}`}
    >
      <path d={d} />
      <path className="store-lid" d={`M${-w / 2},${-h / 2 + ry}A${w / 2},${ry} 0 0 0 ${w / 2},${-h / 2 + ry}`} />
      {/* The name on two lines so it fits the cylinder at a readable size, then the value. */}
      <text className="store-name" y={-h / 2 + top} fontSize={font.name}>
        {id}
      </text>{' '}
      <text className="store-name" y={-h / 2 + top + nameStep} fontSize={font.name}>
        store
      </text>{' '}
      <text className="store-value" y={-h / 2 + top + nameStep + valueStep} fontSize={font.value}>
        {shown.length > maxChars ? shown.slice(0, maxChars - 1) + '…' : shown}
      </text>
    </g>
  );
});

export const DisagreeMark = memo(function DisagreeMark({ between }: { between: [Point, Point] }) {
  const keys = useLab(useShallow(disagreeingKeys));
  if (keys.length === 0) return null;
  const x = between[0].x;
  const y = (between[0].y + between[1].y) / 2;
  return (
    <g className="disagree-mark" transform={`translate(${x},${y})`}>
      <circle r={22} />
      <text y={9} fontSize={28}>
        ≠
      </text>
    </g>
  );
});
