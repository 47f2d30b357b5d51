/**
 * Keeps the page's URL holding the run (history.replaceState): at once when paused (after a
 * seek, a step or an action) unless the last write was under 100 ms ago (a dragged scrubber;
 * browsers throttle replaceState), and at most every 2 s while playing. Reloading the page,
 * or opening the URL anywhere, reproduces the run paused at that time.
 */
import { defaultViewFor, linkQuery, type LinkState } from './runs';
import type { LabState, LabStore } from './store/labStore';
import { tourPlaceOfRun } from './tour';

/** While playing: the address bar's time lags a little (Copy link is always exact), and replaceState costs the main thread a few ms each time. */
export const URL_EVERY_MS = 2000;
export const URL_EVERY_MS_PAUSED = 100;

export interface UrlSyncOptions {
  /** Puts the query string (without `?`) in the address bar. */
  readonly replace: (query: string) => void;
  readonly now: () => number;
}

export function linkStateOf(s: LabState): LinkState | null {
  const f = s.frame;
  if (!f.snapshot) return null;
  const tour = tourPlaceOfRun(s);
  const view = s.mainView !== defaultViewFor(f.label) ? s.mainView : undefined;
  return {
    config: f.config,
    schedule: f.schedule,
    nowMs: f.snapshot.now,
    // Slowed by a tour's pace or around an event, the link keeps the speed the person chose.
    speed: f.chosenSpeed,
    ...(tour !== undefined ? { tour } : {}),
    ...(view !== undefined ? { view } : {}),
    ...(s.presenting ? { present: true } : {}),
    ...(s.pageMode === 'embed' ? { embed: true } : {}),
  };
}

/** The query string for the store's run now, or null before the first snapshot. */
export function currentLink(s: LabState): string | null {
  const state = linkStateOf(s);
  return state ? linkQuery(state) : null;
}

export function startUrlSync(store: LabStore, options: UrlSyncOptions): () => void {
  let written: LinkState | null = null;
  let writtenAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const same = (a: LinkState | null, b: LinkState) =>
    a !== null &&
    a.config === b.config &&
    a.schedule === b.schedule &&
    a.nowMs === b.nowMs &&
    a.speed === b.speed &&
    a.tour === b.tour &&
    a.view === b.view &&
    a.present === b.present &&
    a.embed === b.embed;
  const write = () => {
    timer = null;
    const state = linkStateOf(store.getState());
    if (state === null || same(written, state)) return;
    written = state;
    writtenAt = options.now();
    options.replace(linkQuery(state));
  };
  const onChange = (s: LabState) => {
    const state = linkStateOf(s);
    if (state === null || same(written, state)) return;
    const wait = (s.frame.playing ? URL_EVERY_MS : URL_EVERY_MS_PAUSED) - (options.now() - writtenAt);
    if (wait <= 0) {
      if (timer !== null) clearTimeout(timer);
      write();
    } else if (timer === null) {
      timer = setTimeout(write, wait);
    }
  };
  const unsubscribe = store.subscribe(onChange);
  onChange(store.getState());
  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
  };
}

/** The page's own address for a query string. */
export function pageUrl(query: string): string {
  return `${location.origin}${location.pathname}?${query}`;
}
