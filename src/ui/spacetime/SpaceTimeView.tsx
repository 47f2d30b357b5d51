/**
 * The space-time (sequence) diagram of a run: one column per actor, time running down, every
 * message an arrow from its sender at its send time to its receiver at its delivery (or a cross
 * where it was dropped). A pure props component: the page wires the trace, the cursor and the
 * callbacks, so it renders in jsdom with a hand-built trace.
 *
 * The bands, arrows, bars and marks are painted on a canvas (one rAF per change); an SVG overlay
 * above holds the lane headers, the cursor, the brush and, for tests and assistive technology, one
 * invisible but hittable line per visible arrow and one mark per store write. Those DOM elements
 * follow the view only when it settles (a gesture's end, or a change while idle), so zooming and
 * panning stay a canvas redraw. d3-zoom drives the time axis only.
 */
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { select, zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import type { TraceView } from '../../sim/view/traceColumns';
import {
  followWindow,
  MIN_WINDOW_MS,
  nearestSegment,
  panWindow,
  tOf,
  clampWindow,
  viewExtentMs,
  yOf,
  zoomWindow,
  type TimeScale,
  type TimeWindow,
} from './geometry';
import { AXIS_GUTTER, defaultLaneIds, foldNodes, laneLayout, SERVICE_LANE, type LaneLayout } from './lanes';
import { paintScene } from './paint';
import { buildScene, type HeartbeatMode, type MessageFilter, type Scene, type SceneArrow, type SceneMark } from './scene';
import { MARK_PATHS } from './marks';
import { OP_GEOMETRY, type SceneHistory } from './historyBars';
import { arrowSummary, FONT, ms, windowText } from './style';
import { LIGHT_THEME, readTheme, type SpaceTimeTheme } from './theme';
import { Legend } from '../diagram/Legend';

export interface SpaceTimeViewProps {
  /** A Paxos run: the lanes' bands carry ballots ("ballot 2.5"), not terms. */
  readonly ballots?: boolean;
  readonly trace: TraceView | null;
  /** The scrubber's time: the cursor. */
  readonly nowMs: number;
  /** The lanes to show, in order (actor ids, or 'service' for all nodes folded); default every actor. */
  readonly lanes?: readonly string[];
  /** The first window shown; default the whole run. */
  readonly window?: TimeWindow;
  /** A click on empty space: the time under it. */
  readonly onSeek: (t: number) => void;
  /** A click on an arrow: its message id and send time (the page seeks there and opens Why). */
  readonly onMessage: (id: number, sentAt: number) => void;
  /** "Play this window" after a window is brushed. */
  readonly onPlayWindow?: (t0: number, t1: number) => void;
  /** A fixed size (px) instead of measuring the frame (tests, exports). */
  readonly size?: { readonly width: number; readonly height: number };
  readonly heartbeats?: HeartbeatMode;
  /** Start with quiet stretches folded (a figure whose bursts are seconds apart). */
  readonly compress?: boolean;
  /** Only the messages the event log's filters keep (its "who" and "kind"); absent: every message. */
  readonly filter?: MessageFilter;
  /** Told what the view shows whenever it changes (the page's exports draw the same). */
  readonly onViewChange?: (view: SpaceTimeViewState) => void;
  /** The clients' operations to draw beside their lanes, with a failed verdict's subset; absent: none. */
  readonly history?: SceneHistory | null;
  /** Marks on the lanes (an imported file's commits, configuration changes, violations, nemesis events). */
  readonly marks?: readonly SceneMark[];
  /**
   * An imported file rather than Lockstep's own run: no cursor to follow and no leases, so no
   * Follow button and no run legend (the import screen has its own key); a history has no
   * messages either, so no heartbeat or quiet-time folding.
   */
  readonly imported?: 'history' | 'trace';
}

/** What the view shows: enough to draw the same picture elsewhere (an SVG or PNG export). */
export interface SpaceTimeViewState {
  readonly window: TimeWindow;
  readonly lanes: readonly string[];
  readonly heartbeats: HeartbeatMode;
  readonly compress: boolean;
  readonly filter: MessageFilter | null;
  readonly width: number;
  readonly height: number;
  readonly theme: SpaceTimeTheme;
  readonly history: SceneHistory | null;
  readonly marks: readonly SceneMark[] | null;
}

/** The headers' band above the lanes (px). */
export const HEADER_HEIGHT = 40;
const BOTTOM_PAD = 8;
/** The size used when the frame cannot be measured (jsdom): the diagram pane at 1280×720. */
export const FALLBACK_SIZE = { width: 850, height: 550 } as const;
/** DOM arrows beyond this many are left to the canvas and its hit-test (zoom in to list them). */
export const DOM_ARROW_LIMIT = 600;
/** How often (ms of wall time) the DOM marks catch up with a trace that keeps growing. */
const DOM_TRACE_MS = 250;
/** Pixels a press may move and still count as a click. */
const CLICK_SLOP = 4;

const sameWindow = (a: TimeWindow, b: TimeWindow) => a[0] === b[0] && a[1] === b[1];

export const SpaceTimeView = memo(function SpaceTimeView(props: SpaceTimeViewProps) {
  const { trace, nowMs, onSeek, onMessage, onPlayWindow } = props;
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  // ---- size and theme ------------------------------------------------------------------
  const [measured, setMeasured] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame || props.size) return;
    const measure = () => {
      const width = frame.clientWidth;
      const height = frame.clientHeight;
      setMeasured((m) => (width > 0 && height > 0 && (m?.width !== width || m?.height !== height) ? { width, height } : m));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    return () => observer.disconnect();
  }, [props.size]);
  const size = props.size ?? measured ?? FALLBACK_SIZE;
  const { width, height } = size;
  const top = HEADER_HEIGHT;
  const plotH = Math.max(40, size.height - HEADER_HEIGHT - BOTTOM_PAD);

  const [theme, setTheme] = useState<SpaceTimeTheme>(LIGHT_THEME);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    setTheme(readTheme(frame));
    if (typeof matchMedia === 'undefined') return;
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setTheme(readTheme(frame));
    scheme.addEventListener('change', onChange);
    return () => scheme.removeEventListener('change', onChange);
  }, []);

  // ---- lanes ---------------------------------------------------------------------------
  const [chosenLanes, setChosenLanes] = useState<readonly string[] | null>(null);
  // Keyed by content, so a page passing a fresh array each render neither resets the picker nor re-lays the lanes.
  const lanesKey = props.lanes?.join('\u0000') ?? null;
  const propLanes = useMemo(() => props.lanes, [lanesKey]);
  useEffect(() => setChosenLanes(null), [lanesKey]);
  const actors = trace?.actors ?? null;
  const laneIds = useMemo(() => chosenLanes ?? propLanes ?? (actors ? defaultLaneIds(actors) : []), [chosenLanes, propLanes, actors]);
  const layout: LaneLayout | null = useMemo(
    () => (trace ? laneLayout(trace.actorIds, trace.actors, size.width, laneIds) : null),
    [trace?.actorIds, trace?.actors, size.width, laneIds],
  );

  // ---- the window ----------------------------------------------------------------------
  const run = viewExtentMs(trace?.untilMs ?? 0, props.nowMs);
  const [live, setLive] = useState<TimeWindow>(() => clampWindow(props.window ?? [0, run], run));
  const [moving, setMoving] = useState(false);
  const [brushed, setBrushed] = useState<TimeWindow | null>(null);
  const windowRef = useRef(live);
  windowRef.current = live;
  /** Fitted views keep fitting as a live run grows. */
  const fittedRef = useRef(props.window === undefined);
  const geomRef = useRef({ run, top, plotH });
  geomRef.current = { run, top, plotH };
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const pendingRef = useRef<TimeWindow | null>(null);
  /** The page's window, until it is shown whole or a person moves the view. */
  const initialRef = useRef<TimeWindow | null>(props.window ?? null);

  // The DOM marks (hittable arrows, store marks) follow the view when it settles: at once after
  // a person's action, else (a run playing, a live run growing) at most every DOM_TRACE_MS, since
  // the canvas already shows every frame and thousands of lines need not be rebuilt sixty times a second.
  const [dom, setDom] = useState<{ trace: TraceView | null; window: TimeWindow }>(() => ({ trace, window: live }));
  const traceRef = useRef(trace);
  traceRef.current = trace;
  const domTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const domStamp = useRef(-Infinity);
  const settle = useCallback((now: boolean) => {
    const clock = () => (typeof performance === 'undefined' ? 0 : performance.now());
    const apply = () => {
      domTimer.current = null;
      domStamp.current = clock();
      setDom({ trace: traceRef.current, window: windowRef.current });
    };
    if (now) {
      if (domTimer.current) clearTimeout(domTimer.current);
      apply();
      return;
    }
    // A pending update reads the refs when it fires, so it brings the latest along.
    if (domTimer.current) return;
    const wait = Math.max(0, domStamp.current + DOM_TRACE_MS - clock());
    if (wait === 0) apply();
    else domTimer.current = setTimeout(apply, wait);
  }, []);
  useEffect(
    () => () => {
      if (domTimer.current) clearTimeout(domTimer.current);
    },
    [],
  );

  const transformFor = useCallback((w: TimeWindow) => {
    const g = geomRef.current;
    const k = g.run / Math.max(w[1] - w[0], 1e-9);
    return zoomIdentity.translate(0, g.top - k * (g.top + (w[0] * g.plotH) / g.run)).scale(k);
  }, []);

  /** Moves the view to `w` (clamped) through d3-zoom, so its state and ours agree. */
  const applyWindow = useCallback(
    (w: TimeWindow, fitted = false, now = true) => {
      const next = clampWindow(w, geomRef.current.run);
      fittedRef.current = fitted;
      if (now) initialRef.current = null;
      const svg = svgRef.current;
      const z = zoomRef.current;
      if (svg && z) {
        pendingRef.current = next;
        select(svg).call(z.transform, transformFor(next));
        pendingRef.current = null;
      }
      if (!sameWindow(next, windowRef.current)) {
        windowRef.current = next;
        setLive(next);
      }
      settle(now);
    },
    [transformFor, settle],
  );

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const z = zoom<SVGSVGElement, unknown>()
      .filter(
        (event: globalThis.MouseEvent & WheelEvent) =>
          event.type === 'wheel' || (!event.ctrlKey && !event.button && !event.shiftKey && !brushModeRef.current),
      )
      .clickDistance(CLICK_SLOP)
      .on('start', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        if (event.sourceEvent) setMoving(true);
      })
      .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        if (pendingRef.current) return;
        const g = geomRef.current;
        const t = event.transform;
        const tAt = (y: number) => (((y - t.y) / t.k - g.top) * g.run) / g.plotH;
        const w = clampWindow([tAt(g.top), tAt(g.top + g.plotH)], g.run);
        fittedRef.current = false;
        windowRef.current = w;
        setLive(w);
        if (event.sourceEvent) {
          initialRef.current = null;
          setBrushed(null);
        }
      })
      .on('end', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        if (!event.sourceEvent) return;
        setMoving(false);
        settle(true);
      });
    zoomRef.current = z;
    select(svg).call(z).on('dblclick.zoom', null);
    return () => {
      select(svg).on('.zoom', null);
      zoomRef.current = null;
    };
  }, [settle]);

  // Extents follow the run and the size; the window stays put in time (or keeps fitting).
  useEffect(() => {
    const z = zoomRef.current;
    if (z) {
      const box: [[number, number], [number, number]] = [
        [0, top],
        [size.width, top + plotH],
      ];
      z.extent(box)
        .translateExtent(box)
        .scaleExtent([1, run / MIN_WINDOW_MS]);
    }
    // The page's window (a chapter figure) is shown as soon as there is a trace, and kept while
    // the run has not yet reached its end (it fills in as the run plays), until a person moves the view.
    const initial = initialRef.current;
    if (initial && trace) {
      applyWindow(initial, false, false);
      if (run >= initial[1]) initialRef.current = null;
      return;
    }
    applyWindow(fittedRef.current ? [0, run] : windowRef.current, fittedRef.current, false);
  }, [run, top, plotH, size.width, applyWindow, trace === null]);

  // A new trace shows at once; the same trace grown catches up on the throttle.
  const traceIdRef = useRef(trace?.traceId);
  useEffect(() => {
    const fresh = trace?.traceId !== traceIdRef.current;
    traceIdRef.current = trace?.traceId;
    settle(fresh);
  }, [trace, settle]);

  // A new initial window from the page.
  const initial = props.window;
  useEffect(() => {
    initialRef.current = initial ?? null;
    if (initial && trace) applyWindow(initial, false, false);
  }, [initial?.[0], initial?.[1]]);

  const [follow, setFollow] = useState(false);
  useEffect(() => {
    if (!follow || !trace) return;
    const w = followWindow(windowRef.current, nowMs, run);
    if (!sameWindow(w, windowRef.current)) applyWindow(w);
  }, [follow, nowMs, run, trace, applyWindow]);

  // ---- scenes --------------------------------------------------------------------------
  const [heartbeats, setHeartbeats] = useState<HeartbeatMode>(props.heartbeats ?? 'fold');
  const [compress, setCompress] = useState(props.compress ?? false);
  const filter = props.filter;
  const history = props.history ?? null;
  const marks = props.marks ?? null;
  const liveScene = useMemo(
    () =>
      trace && layout
        ? buildScene(trace, layout, {
            window: live,
            top,
            height: plotH,
            heartbeats,
            compress,
            ...(filter ? { filter } : {}),
            ...(history ? { history } : {}),
            ...(props.ballots === true ? { ballots: true } : {}),
            ...(marks ? { marks } : {}),
          })
        : null,
    [trace, layout, live, top, plotH, heartbeats, compress, filter, history, props.ballots, marks],
  );
  const settledScene = useMemo(
    () =>
      dom.trace === trace && sameWindow(dom.window, live)
        ? liveScene
        : dom.trace && layout && dom.trace.actorIds === trace?.actorIds
          ? buildScene(dom.trace, layout, {
              window: dom.window,
              top,
              height: plotH,
              heartbeats,
              compress,
              ...(filter ? { filter } : {}),
              ...(history ? { history } : {}),
              ...(props.ballots === true ? { ballots: true } : {}),
              ...(marks ? { marks } : {}),
            })
          : null,
    [dom, layout, top, plotH, heartbeats, compress, filter, history, props.ballots, marks],
  );
  const onViewChange = props.onViewChange;
  useEffect(() => {
    onViewChange?.({
      window: live,
      lanes: laneIds,
      heartbeats,
      compress,
      filter: filter ?? null,
      width: size.width,
      height: size.height,
      theme,
      history,
      marks,
    });
  }, [onViewChange, live, laneIds, heartbeats, compress, filter, size.width, size.height, theme, history, marks]);
  const sceneRef = useRef<Scene | null>(liveScene);
  sceneRef.current = liveScene;

  // ---- the canvas: one paint per animation frame, only when something changed -----------
  const paintRef = useRef(0);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !liveScene || !layout) return;
    const paint = () => {
      paintRef.current = 0;
      let ctx: CanvasRenderingContext2D | null;
      try {
        ctx = canvas.getContext('2d');
      } catch {
        ctx = null;
      }
      // jsdom has no 2D context: nothing to paint, the DOM overlay still works.
      if (!ctx) return;
      const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
      const w = Math.round(width * dpr);
      const h = Math.round(height * dpr);
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paintScene(ctx, liveScene, layout, theme, { width, height });
    };
    if (typeof requestAnimationFrame === 'undefined') {
      paint();
      return;
    }
    if (paintRef.current) cancelAnimationFrame(paintRef.current);
    paintRef.current = requestAnimationFrame(paint);
    return () => {
      if (paintRef.current) cancelAnimationFrame(paintRef.current);
      paintRef.current = 0;
    };
  }, [liveScene, layout, theme, width, height]);

  // ---- pointer: click to seek or open a message, hover for a tooltip, shift-drag to brush --
  const [brushMode, setBrushMode] = useState(false);
  const brushModeRef = useRef(brushMode);
  brushModeRef.current = brushMode;
  const [brush, setBrush] = useState<{ y0: number; y1: number } | null>(null);
  const suppressClick = useRef(false);
  const [hover, setHover] = useState<{ x: number; y: number; arrow: SceneArrow } | null>(null);
  // The scene's scale: time to scale, or with quiet stretches folded (compress).
  const scale: TimeScale = liveScene?.scale ?? { t0: live[0], t1: live[1], top, height: plotH };

  const local = (e: { clientX: number; clientY: number }) => {
    const rect = svgRef.current?.getBoundingClientRect();
    return { x: e.clientX - (rect?.left ?? 0), y: e.clientY - (rect?.top ?? 0) };
  };
  const inPlot = (y: number) => y >= top && y <= top + plotH;

  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    const target = e.target as Element;
    const id = target.getAttribute?.('data-msg-id');
    if (id !== null && id !== undefined) {
      onMessage(Number(id), Number(target.getAttribute('data-sent-at')));
      return;
    }
    const opEnd = target.getAttribute?.('data-op-end');
    if (opEnd !== null && opEnd !== undefined) {
      // An operation: to the moment it was answered (or the last moment seen while it is open).
      onSeek(Number(opEnd));
      return;
    }
    const p = local(e);
    if (!inPlot(p.y)) return;
    const hit = sceneRef.current ? nearestSegment(sceneRef.current.arrows, p.x, p.y) : null;
    if (hit) {
      onMessage(hit.id, hit.sentAt);
      return;
    }
    onSeek(Math.min(Math.max(0, tOf(scale, p.y)), trace?.untilMs ?? 0));
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0 || !(e.shiftKey || brushMode)) return;
    const p = local(e);
    if (!inPlot(p.y)) return;
    setBrush({ y0: p.y, y1: p.y });
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const p = local(e);
    if (brush) {
      setBrush({ y0: brush.y0, y1: Math.min(Math.max(p.y, top), top + plotH) });
      return;
    }
    if (moving) return;
    const hit = inPlot(p.y) && sceneRef.current ? nearestSegment(sceneRef.current.arrows, p.x, p.y) : null;
    setHover((h) => (hit ? (h?.arrow === hit ? h : { x: p.x, y: p.y, arrow: hit }) : null));
  };
  const onPointerUp = () => {
    if (!brush) return;
    const [ya, yb] = brush.y0 < brush.y1 ? [brush.y0, brush.y1] : [brush.y1, brush.y0];
    setBrush(null);
    if (yb - ya < CLICK_SLOP) return;
    suppressClick.current = true;
    const w = clampWindow([tOf(scale, ya), tOf(scale, yb)], run);
    applyWindow(w);
    setBrushed(w);
    setBrushMode(false);
  };

  // ---- keyboard and buttons ------------------------------------------------------------
  const zoomBy = (factor: number) => {
    setBrushed(null);
    applyWindow(zoomWindow(live, factor, (live[0] + live[1]) / 2, run));
  };
  const fit = () => {
    setBrushed(null);
    applyWindow([0, run], true);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const act: Record<string, () => void> = {
      ArrowUp: () => applyWindow(panWindow(live, -0.1, run)),
      ArrowDown: () => applyWindow(panWindow(live, 0.1, run)),
      PageUp: () => applyWindow(panWindow(live, -0.9, run)),
      PageDown: () => applyWindow(panWindow(live, 0.9, run)),
      '+': () => zoomBy(2),
      '=': () => zoomBy(2),
      '-': () => zoomBy(0.5),
      _: () => zoomBy(0.5),
      '0': fit,
    };
    const f = act[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  };

  // ---- lane picker ---------------------------------------------------------------------
  const folded = laneIds.includes(SERVICE_LANE);
  const toggleLane = (id: string, on: boolean) => {
    if (!actors) return;
    const order = defaultLaneIds(actors);
    const base = folded ? foldNodes(order, actors) : order;
    const current = new Set(laneIds);
    if (on) current.add(id);
    else current.delete(id);
    // Checked lanes keep the current order; a lane turned back on goes where it stands by default.
    const kept = laneIds.filter((l) => current.has(l));
    for (const l of base) if (current.has(l) && !kept.includes(l)) kept.splice(insertAt(kept, l, base), 0, l);
    setChosenLanes(kept);
  };
  const toggleFold = (on: boolean) => {
    if (!actors) return;
    if (on) setChosenLanes(foldNodes(laneIds.length ? laneIds : defaultLaneIds(actors), actors));
    else setChosenLanes(laneIds.flatMap((l) => (l === SERVICE_LANE ? actors.nodes : [l])));
  };

  const domBase = domTimeBase(dom.window);
  const pxPerMs = plotH / Math.max(live[1] - live[0], 1e-9);
  const cursorY = nowMs >= live[0] && nowMs <= live[1] ? yOf(scale, nowMs) : null;
  const arrowsShown = settledScene ? settledScene.arrows.length + settledScene.merged : 0;
  const label = trace
    ? `Space-time diagram, ${windowText(live).replace(' – ', ' to ')}: lanes ${layout?.lanes.map((l) => l.label).join(', ')}; ${arrowsShown} message${arrowsShown === 1 ? '' : 's'} in view. Arrow keys pan, plus and minus zoom, 0 fits the run; click to seek.`
    : 'Space-time diagram: no trace yet.';

  return (
    <div className={`spacetime${moving ? ' is-moving' : ''}`} data-testid="spacetime" role="group" aria-label={label}>
      <div className="spacetime-controls" role="toolbar" aria-label="Space-time view">
        {props.imported !== 'history' && (
          <button type="button" aria-pressed={heartbeats === 'fold'} onClick={() => setHeartbeats((h) => (h === 'fold' ? 'show' : 'fold'))}>
            Heartbeats: {heartbeats === 'fold' ? 'folded' : 'shown'}
          </button>
        )}
        {props.imported !== 'history' && (
          <button
            type="button"
            aria-pressed={compress}
            onClick={() => setCompress((c) => !c)}
            title="Fold stretches where nothing but heartbeats happens into short breaks, so bursts seconds apart can be read together"
          >
            Quiet time: {compress ? 'folded' : 'to scale'}
          </button>
        )}
        <button type="button" onClick={fit} disabled={!trace}>
          Fit
        </button>
        <button type="button" aria-label="Zoom in" title="Zoom in (+)" onClick={() => zoomBy(2)} disabled={!trace}>
          +
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out (−)" onClick={() => zoomBy(0.5)} disabled={!trace}>
          −
        </button>
        {props.imported === undefined && (
          <button type="button" aria-pressed={follow} onClick={() => setFollow((f) => !f)}>
            Follow cursor
          </button>
        )}
        <button
          type="button"
          aria-pressed={brushMode}
          onClick={() => setBrushMode((b) => !b)}
          title="Drag to select a time window (or Shift+drag)"
        >
          Select window
        </button>
        {actors && (
          <details className="spacetime-lanes">
            <summary>Lanes</summary>
            <fieldset>
              <legend className="visually-hidden">Lanes to show</legend>
              {[...actors.nodes, ...actors.clients, ...actors.stores].map((id) => {
                const isNode = actors.nodes.includes(id);
                return (
                  <label key={id}>
                    <input
                      type="checkbox"
                      checked={laneIds.includes(id)}
                      disabled={isNode && folded}
                      onChange={(e) => toggleLane(id, e.currentTarget.checked)}
                    />
                    {actors.clients.includes(id) ? `client ${id}` : actors.stores.includes(id) ? `${id} store` : id}
                  </label>
                );
              })}
              <label className="spacetime-fold">
                <input type="checkbox" checked={folded} onChange={(e) => toggleFold(e.currentTarget.checked)} />
                fold nodes into one service lane
              </label>
            </fieldset>
          </details>
        )}
        {actors && props.imported === undefined && (
          <details className="spacetime-key">
            <summary>Legend</summary>
            <div className="spacetime-key-body">
              <Legend />
              <ul className="legend" aria-label="Lanes, leases and stores">
                <li>
                  <span className="key-swatch key-lease-client" aria-hidden="true" />
                  the client's lease, as it counts it (left of its lane)
                </li>
                <li>
                  <span className="key-swatch key-lease-service" aria-hidden="true" />
                  the lease as the leader's clock counts it (right of its lane)
                </li>
                <li>
                  <span className="key-dots" aria-hidden="true">
                    ⋮
                  </span>
                  a client acting after its own lease ran out
                </li>
                <li>
                  <span className="key-swatch key-op" aria-hidden="true" />a client's operations, invoked to answered (right of its lane:
                  lock, fenced, unfenced); outlined: a set no order explains
                </li>
                <li>
                  <span className="key-ok" aria-hidden="true">
                    ✓
                  </span>
                  /
                  <span className="key-bad" aria-hidden="true">
                    ✗
                  </span>{' '}
                  a store accepted / refused a write (token comparison)
                </li>
                <li>
                  <span aria-hidden="true">╌</span> dashed lane: node down; ⋯ later ⋯: quiet time folded
                </li>
              </ul>
            </div>
          </details>
        )}
        {brushed && onPlayWindow && (
          <button type="button" className="primary" onClick={() => onPlayWindow(brushed[0], brushed[1])}>
            Play this window
          </button>
        )}
        {filter && (
          <span className="spacetime-filter" title="The event log's who/kind filters apply here too">
            only {filter.actor ?? 'matching'}
            {filter.types ? ` · ${[...filter.types].join(', ')}` : ''}
          </span>
        )}
        <span className="spacetime-window">{windowText(live)}</span>
      </div>
      <div
        ref={frameRef}
        className="spacetime-frame"
        tabIndex={0}
        onKeyDown={onKeyDown}
        role="group"
        aria-label="Time axis: arrow keys pan, + and − zoom, 0 fits the whole run"
        aria-keyshortcuts="ArrowUp ArrowDown PageUp PageDown + - 0"
        style={props.size ? { width: props.size.width, height: props.size.height } : undefined}
      >
        <canvas ref={canvasRef} className="spacetime-canvas" aria-hidden="true" style={{ width: size.width, height: size.height }} />
        <svg
          ref={svgRef}
          className={`spacetime-overlay${brushMode ? ' is-brushing' : ''}`}
          width={size.width}
          height={size.height}
          onClick={onClick}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => setHover(null)}
        >
          <rect
            className="spacetime-hit"
            data-testid="spacetime-plot"
            x={AXIS_GUTTER}
            y={top}
            width={Math.max(0, size.width - AXIS_GUTTER)}
            height={plotH}
          />
          <g className="spacetime-headers">
            {liveScene && (
              <text className="spacetime-unit" x={AXIS_GUTTER - 8} y={top - 13} textAnchor="end" fontSize={FONT.axis}>
                {liveScene.axisUnit}
              </text>
            )}
            {layout?.lanes.map((lane) => (
              <text
                key={lane.id}
                x={lane.x}
                y={top - 13}
                textAnchor="middle"
                fontSize={Math.min(FONT.header, lane.headerPx)}
                data-lane={lane.id}
              >
                {lane.header !== lane.label && <title>{lane.label}</title>}
                {lane.header}
              </text>
            ))}
          </g>
          {settledScene && (
            // With quiet time folded, ms do not map to pixels by one scale: the lines are placed in pixels.
            <g
              className="spacetime-arrows"
              data-count={settledScene.arrows.length}
              {...(settledScene.folds.length > 0
                ? {}
                : { transform: `translate(0 ${top - (live[0] - domBase) * pxPerMs}) scale(1 ${pxPerMs})` })}
            >
              <DomArrows scene={settledScene} base={domBase} untilMs={dom.trace?.untilMs ?? 0} px={settledScene.folds.length > 0} />
            </g>
          )}
          {settledScene && <DomStoreMarks scene={settledScene} />}
          {settledScene && settledScene.ops.length > 0 && <DomOps scene={settledScene} />}
          {settledScene && settledScene.marks.length > 0 && <DomMarks scene={settledScene} width={size.width} />}
          {cursorY !== null && (
            <g className="spacetime-cursor" aria-hidden="true">
              <line x1={AXIS_GUTTER} x2={size.width} y1={cursorY} y2={cursorY} />
              <text x={size.width - 6} y={cursorY - 7 < top + 12 ? cursorY + 17 : cursorY - 7} textAnchor="end" fontSize={FONT.axis}>
                {ms(nowMs)}
              </text>
            </g>
          )}
          {brush && (
            <rect
              className="spacetime-brush"
              x={AXIS_GUTTER}
              width={size.width - AXIS_GUTTER}
              y={Math.min(brush.y0, brush.y1)}
              height={Math.abs(brush.y1 - brush.y0)}
            />
          )}
        </svg>
        {hover && (
          <div className="spacetime-tooltip" role="tooltip" style={{ left: Math.min(hover.x + 14, size.width - 260), top: hover.y + 14 }}>
            {arrowSummary(hover.arrow)}
          </div>
        )}
        {!trace && <p className="spacetime-empty">No trace yet: play the run to record one.</p>}
      </div>
    </div>
  );
});

/** Where `id` goes in `kept` so the default order `base` is respected. */
function insertAt(kept: readonly string[], id: string, base: readonly string[]): number {
  const rank = base.indexOf(id);
  const i = kept.findIndex((k) => base.indexOf(k) > rank);
  return i < 0 ? kept.length : i;
}

/**
 * The time origin of the DOM arrows' coordinates: the settled window's start rounded down to a
 * power of ten at least its length, so coordinates stay small (SVG geometry is single precision)
 * and change only when the view moves far, not on every pan.
 */
export function domTimeBase(w: TimeWindow): number {
  const q = 10 ** Math.ceil(Math.log10(Math.max(1, w[1] - w[0])));
  return Math.floor(w[0] / q) * q;
}

/**
 * The settled scene's arrows as DOM: invisible, hittable, labelled. x in pixels, y in ms from
 * `base`; the parent group maps ms to pixels for the current window, so panning and zooming
 * change one transform instead of thousands of attributes (measured: rebuilding 2,000 lines'
 * positions cost ~100 ms per update in headless Chromium). Memoised on the scene.
 */
const DomArrows = memo(function DomArrows({ scene, base, untilMs, px }: { scene: Scene; base: number; untilMs: number; px: boolean }) {
  const arrows = scene.arrows.length > DOM_ARROW_LIMIT ? domArrowsOf(scene.arrows) : scene.arrows;
  return (
    <>
      {arrows.map((a) => (
        <line
          key={a.row}
          x1={a.x1}
          y1={px ? a.y1 : a.sentAt - base}
          x2={a.x2}
          y2={px ? a.y2 : (a.endAt ?? untilMs) - base}
          data-msg-id={a.id}
          data-msg-type={a.type}
          data-from={a.from}
          data-to={a.to}
          data-sent-at={a.sentAt}
          data-fate={a.dropReason ?? (a.endAt === null ? 'in-flight' : 'delivered')}
          aria-label={arrowSummary(a)}
          role="img"
        />
      ))}
    </>
  );
});

/**
 * Past DOM_ARROW_LIMIT arrows (a zoomed-out window) the DOM keeps the ones that tell the story
 * (votes, entries, client requests and replies, store writes) before heartbeats, in time order;
 * the canvas still draws and hit-tests every arrow. Thousands of elements cost hundreds of ms to
 * build after every gesture and help nobody read the run.
 */
function domArrowsOf(all: readonly SceneArrow[]): SceneArrow[] {
  const out: SceneArrow[] = [];
  for (const a of all) if (a.kind !== 'heartbeat' && out.length < DOM_ARROW_LIMIT) out.push(a);
  if (out.length < DOM_ARROW_LIMIT) for (const a of all) if (a.kind === 'heartbeat' && out.length < DOM_ARROW_LIMIT) out.push(a);
  return out.sort((a, b) => a.row - b.row);
}

/** The settled scene's client operations as DOM: hittable, titled, named for tests and screen readers. */
const DomOps = memo(function DomOps({ scene }: { scene: Scene }) {
  return (
    <g className="spacetime-ops">
      {scene.ops.map((b) => (
        <rect
          key={b.id}
          x={b.x - OP_GEOMETRY.width / 2 - 2}
          y={b.y1}
          width={OP_GEOMETRY.width + 4}
          height={b.y2 - b.y1}
          data-op-id={b.id}
          data-op-end={b.endMs}
          data-in-subset={b.inSubset ? 'true' : undefined}
          data-tone={b.tone}
          role="img"
          aria-label={b.label}
        >
          <title>{b.label}</title>
        </rect>
      ))}
    </g>
  );
});

/** The settled scene's lane marks as DOM: hittable, titled (the hover shows the whole sentence). */
const DomMarks = memo(function DomMarks({ scene, width }: { scene: Scene; width: number }) {
  return (
    <g className="spacetime-marks">
      {scene.marks.map((m, i) =>
        m.kind === 'nemesis' ? (
          <rect
            key={i}
            x={AXIS_GUTTER}
            y={m.y - 4}
            width={Math.max(0, width - AXIS_GUTTER)}
            height={8}
            data-mark-kind={m.kind}
            role="img"
            aria-label={m.text}
          >
            <title>{m.text}</title>
          </rect>
        ) : (
          <path
            key={i}
            transform={`translate(${m.x} ${m.y}) scale(1.4)`}
            d={MARK_PATHS[m.kind]}
            data-mark-kind={m.kind}
            data-lane={m.lane}
            role="img"
            aria-label={m.text}
          >
            <title>{m.text}</title>
          </path>
        ),
      )}
    </g>
  );
});

/** The settled scene's store marks as DOM (few: placed in pixels, hidden mid-gesture). */
const DomStoreMarks = memo(function DomStoreMarks({ scene }: { scene: Scene }) {
  return (
    <g className="spacetime-store-marks">
      {scene.storeMarks.map((m, i) => (
        <circle
          key={`${m.store}-${m.t}-${i}`}
          cx={m.x}
          cy={m.y}
          r={10}
          data-store={m.store}
          data-accepted={String(m.accepted)}
          data-token={m.token ?? ''}
          role="img"
          aria-label={`${m.store} store at ${ms(m.t)}: write from ${m.client}, ${m.text}`}
        />
      ))}
    </g>
  );
});
