/**
 * The space-time view's public surface, for the page that wires it: the component, and the pure
 * pieces (lanes, scene, geometry, export) for anything else that draws or exports a trace.
 * `pngFromSvg` is browser-only and lives in ./pngFromSvg.
 */
export { SpaceTimeView, HEADER_HEIGHT, type SpaceTimeViewProps } from './SpaceTimeView';
export { defaultLaneIds, foldNodes, laneLayout, laneOf, SERVICE_LANE, type Lane, type LaneLayout } from './lanes';
export { buildScene, storeMarkText, type HeartbeatMode, type Scene, type SceneArrow, type SceneOptions } from './scene';
export { clampWindow, MIN_WINDOW_MS, nearestSegment, tOf, yOf, zoomWindow, type TimeWindow } from './geometry';
export { exportTitle, sceneToSvg, traceToSvg, type SvgExportOptions, type TraceSvgOptions } from './svgExport';
export { DARK_THEME, LIGHT_THEME, readTheme, themeFrom, type SpaceTimeTheme } from './theme';
