/**
 * One server on the ring. Role shows three ways — colour, shape (follower circle, candidate
 * rounded square, leader hexagon) and the word — with the term inside, a draining election
 * timer (painted around it on the message canvas: src/paint/timerArc.ts), vote marks, and a crossed-out
 * grey glyph when the node is down. It subscribes to its own node only.
 */
import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useBridge, useLab, useLabStore } from '../labContext';
import { glyphFields, majorityOf, type GlyphFields } from '../store/selectors';
import { RING_FONT, RING_GEOMETRY, VIEW_H, VIEW_W, type NodeLabelPlace, type Point } from '../../paint/layout';
import { PRESENTER_FONT, PRESENTER_GEOMETRY, useDiagramText } from '../present/diagramText';

export function roleShapePath(role: string, r: number): string {
  if (role === 'leader') {
    const R = r * 1.1;
    const pts = Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 3) * i;
      return `${(R * Math.cos(a)).toFixed(1)},${(R * Math.sin(a)).toFixed(1)}`;
    });
    return `M${pts.join('L')}Z`;
  }
  if (role === 'candidate') {
    const h = r * 0.92;
    const c = r * 0.32;
    return `M${-h + c},${-h}H${h - c}Q${h},${-h} ${h},${-h + c}V${h - c}Q${h},${h} ${h - c},${h}H${-h + c}Q${-h},${h} ${-h},${h - c}V${-h + c}Q${-h},${-h} ${-h + c},${-h}Z`;
  }
  return `M${r},0A${r},${r} 0 1 1 ${-r},0A${r},${r} 0 1 1 ${r},0Z`;
}

export function nodeLabel(
  id: string,
  f: Pick<GlyphFields, 'alive' | 'role' | 'term' | 'votedFor' | 'selected' | 'driftPct'> &
    Partial<Pick<GlyphFields, 'serverRole' | 'serverHolds' | 'termText' | 'paxosWord'>>,
): string {
  // The words follow the glyph's visible text in order, so speech and sight agree.
  if (f.paxosWord !== undefined && f.paxosWord !== null) {
    const part = f.alive ? f.paxosWord : `crashed (was ${f.paxosWord})`;
    return `${id}, ${part}, ${f.termText ?? ''}${f.selected ? ', selected' : ''}`;
  }
  if (f.serverRole) {
    const part = f.alive ? f.serverRole : `crashed (was ${f.serverRole})`;
    return `${id}, ${part}, ${f.serverHolds ?? ''}${f.driftPct !== 0 ? `, clock ${f.driftPct > 0 ? '+' : ''}${f.driftPct}%` : ''}${f.selected ? ', selected' : ''}`;
  }
  const state = f.alive ? f.role : `crashed (was ${f.role})`;
  const vote = f.alive && f.role === 'follower' && f.votedFor ? `, voted ${f.votedFor}` : '';
  const drift = f.driftPct !== 0 ? `, clock ${f.driftPct > 0 ? '+' : ''}${f.driftPct}%` : '';
  return `${id}, ${state}, term ${f.term}${vote}${drift}${f.selected ? ', selected' : ''}`;
}

interface Props {
  readonly id: string;
  readonly at: Point;
  readonly radius: number;
  readonly label: NodeLabelPlace;
}

export const NodeGlyph = memo(function NodeGlyph({ id, at, radius: r, label }: Props) {
  const f = useLab(useShallow((s) => glyphFields(s, id)));
  const store = useLabStore();
  const bridge = useBridge();
  const presenter = useDiagramText();

  const crashOrRestart = () => bridge.act({ verb: f.alive ? 'crash' : 'restart', node: id });
  const onClick = (e: MouseEvent) => {
    // Alt-click asks Why instead of acting; a plain click still crashes or restarts.
    if (e.altKey) {
      store.getState().askWhy({ kind: 'node', id });
      return;
    }
    if (e.shiftKey || e.metaKey || e.ctrlKey) {
      store.getState().toggleSelected(id);
      return;
    }
    store.getState().focusNode(id);
    crashOrRestart();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      store.getState().focusNode(id);
      crashOrRestart();
    } else if (e.key === '?') {
      e.preventDefault();
      store.getState().askWhy({ kind: 'node', id });
    } else if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      store.getState().toggleSelected(id);
    } else if ((e.key === 'x' || e.key === 'X') && f.member !== null) {
      // Membership runs: ask the leader to remove this server (§4.1).
      e.preventDefault();
      bridge.act({ verb: 'remove', node: id });
    }
  };
  const k = r / 52;
  // Text keeps its readable size on the smaller glyphs of a big cluster, shrinking only a little.
  const t = Math.max(0.92, r / 54);
  // Label sizes and places: scaled with the glyph, or presenter mode's projector sizes.
  const ps = presenter?.scale ?? 1;
  // The words inside a node stay at the size its shape holds ("candidate" at 22 units already
  // fills a 5-node glyph): A+ grows the words around the ring, the caption and the facts instead,
  // as at its top step the node's words spilled out of its shape.
  const size = presenter
    ? {
        id: PRESENTER_FONT.nodeId,
        role: PRESENTER_FONT.role,
        term: PRESENTER_FONT.term,
        side: PRESENTER_FONT.side * ps,
        idY: -27.5,
        roleY: 2,
        termY: 30,
        line: PRESENTER_GEOMETRY.sideLine * ps,
      }
    : {
        id: RING_FONT.nodeId * t,
        role: RING_FONT.role * t,
        term: RING_FONT.term * t,
        side: RING_FONT.side,
        idY: -24 * t,
        roleY: 2.5 * t,
        termY: 25.5 * t,
        line: RING_GEOMETRY.sideLine,
      };
  const role =
    f.member === 'removed' && f.role !== 'leader'
      ? 'removed'
      : f.member === 'learner'
        ? 'learner'
        : !f.alive
          ? 'crashed'
          : (f.paxosWord ?? f.serverRole ?? f.role);
  const majority = majorityOf(f.clusterSize);
  const showVotes = f.alive && f.role !== 'follower' && f.clusterSize > 1;
  const dot = 6 * k;
  // Vote marks go on the node's outer side, unless there they would reach the diagram's edge
  // (the top node's marks were cut off by the frame): then on its inner side, toward the ring's middle.
  const voteAngle = (() => {
    const R = r * 1.1 + 22 * k;
    const margin = dot + 8;
    const fits = Array.from({ length: f.clusterSize }, (_, i) => label.angle + (i - (f.clusterSize - 1) / 2) * 0.21).every((th) => {
      const x = at.x + R * Math.cos(th);
      const y = at.y + R * Math.sin(th);
      return x >= margin && x <= VIEW_W - margin && y >= margin && y <= VIEW_H - margin;
    });
    return fits ? label.angle : label.angle + Math.PI;
  })();
  const voteText = f.alive && f.role === 'follower' && f.votedFor ? `voted ${f.votedFor}` : null;
  const driftText = f.driftPct !== 0 ? `clock ${f.driftPct > 0 ? '+' : ''}${f.driftPct}%` : null;
  const lines = [showVotes ? null : voteText, driftText].filter((t): t is string => t !== null);
  const lineHeight = size.line;
  const firstLineY =
    label.dy +
    (showVotes && voteAngle === label.angle ? (label.dy < -5 ? -lineHeight : lineHeight) : 0) -
    (label.dy < -5 ? (lines.length - 1) * lineHeight : 0);
  return (
    <g
      className={`node role-${f.alive ? f.role : 'down'}${f.selected ? ' selected' : ''}${f.focused ? ' focused' : ''}${f.tourHighlight ? ' tour-highlight' : ''}${f.member !== null && f.member !== 'voter' ? ` member-${f.member}` : ''}`}
      transform={`translate(${at.x.toFixed(1)},${at.y.toFixed(1)})`}
      data-node-id={id}
      data-role={f.role}
      data-server-role={f.serverRole ?? undefined}
      data-term={f.term}
      data-alive={String(f.alive)}
      data-commit-index={f.commitIndex}
      data-log-length={f.logLength}
      role="button"
      tabIndex={0}
      aria-label={nodeLabel(id, f)}
      aria-description={`Click or press Enter to ${f.alive ? 'crash' : 'restart'} ${id}; shift-click or press S to select it for isolating; Alt-click or press ? to ask why it is ${f.alive ? (f.serverRole ?? f.role) : 'down'}${f.member !== null ? `; press X to remove it from the configuration` : ''}.`}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onFocus={() => store.getState().focusNode(id)}
    >
      <circle className="focus-ring" r={r * 1.1 + 20} />
      {f.tourHighlight && <circle className="tour-ring" r={r * 1.1 + 14} />}
      {f.selected && <circle className="select-ring" r={r * 1.1 + 18} />}
      <path className="node-shape" d={roleShapePath(f.role, r)} />
      {/* The crash cross is four strokes from the glyph's corners toward its middle, stopping short
          of the words ("n2 / crashed / term 1" fill the middle), so it never crosses them. */}
      {!f.alive && (
        <g className="down-cross">
          {[
            [-1, -1],
            [1, -1],
            [1, 1],
            [-1, 1],
          ].map(([sx, sy]) => (
            <line key={`${sx}${sy}`} x1={sx * r * 0.85} y1={sy * r * 0.85} x2={sx * r * 0.6} y2={sy * r * 0.6} />
          ))}
        </g>
      )}
      {/* Spaces between the text elements are not drawn, but keep the words apart for accessibility checks. */}
      <text className="node-id" y={size.idY} fontSize={size.id}>
        {id}
      </text>{' '}
      <text className="node-role" y={size.roleY} fontSize={size.role}>
        {role}
      </text>{' '}
      <text className="node-term" y={size.termY} fontSize={size.term}>
        {f.serverHolds ?? f.termText}
      </text>{' '}
      {showVotes && (
        // Vote marks hug the node on its outer side, one per server, filled for each vote won.
        // A click on the vote marks asks Why this node has these votes (not a crash).
        <g
          className="votes"
          onClick={(e) => {
            e.stopPropagation();
            store.getState().askWhy({ kind: 'vote', node: id });
          }}
        >
          {Array.from({ length: f.clusterSize }, (_, i) => {
            const theta = voteAngle + (i - (f.clusterSize - 1) / 2) * 0.21;
            const R = r * 1.1 + 22 * k;
            return (
              <circle key={i} className={i < f.votes ? 'vote got' : 'vote'} cx={R * Math.cos(theta)} cy={R * Math.sin(theta)} r={dot} />
            );
          })}
          {(() => {
            const theta = voteAngle + (majority - 0.5 - (f.clusterSize - 1) / 2) * 0.21;
            const R = r * 1.1 + 22 * k;
            return (
              <line
                className="vote-majority"
                x1={(R - 10) * Math.cos(theta)}
                y1={(R - 10) * Math.sin(theta)}
                x2={(R + 10) * Math.cos(theta)}
                y2={(R + 10) * Math.sin(theta)}
              />
            );
          })()}
        </g>
      )}
      {lines.map((text, i) => (
        <text
          key={text}
          className={text.startsWith('clock') ? 'node-side node-drift' : 'node-side node-vote'}
          x={label.dx}
          y={firstLineY + i * lineHeight}
          fontSize={size.side}
          style={{ textAnchor: label.anchor }}
        >
          {text}
        </text>
      ))}{' '}
    </g>
  );
});
