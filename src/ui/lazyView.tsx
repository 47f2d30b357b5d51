/**
 * Views the page loads on demand (issue 24, item 7): the space-time view, the Experiments view,
 * the Why panel, presenter mode. Each comes in a chunk of its own the first time it is shown,
 * so the page's first paint of the ring does not wait for them. While a chunk loads, a quiet
 * line says what is coming; if it cannot be fetched (offline, or the site was updated under the
 * page), one sentence says so and offers to try again. The run, the store and the rest of the
 * page are untouched either way: a view that failed to load is only a view not shown yet.
 */
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';

export interface LazyView<P extends object> {
  /** Renders the view once its chunk is here (inside an OnDemand boundary). */
  readonly View: ComponentType<P>;
  /** Forgets a failed fetch, so the next render asks for the chunk again. */
  readonly retry: () => void;
  /** Fetches the chunk without showing the view (say, when the pointer nears its button). */
  readonly preload: () => Promise<unknown>;
}

/** A view's chunk could not be fetched; other errors in a view are not the boundary's to explain. */
export class ChunkLoadError extends Error {}

const everyView = new Set<() => Promise<unknown>>();

/** Fetches every lazy view defined so far (the unit tests, which check the views and not their loading). */
export function preloadLazyViews(): Promise<void> {
  return Promise.all([...everyView].map((preload) => preload())).then(() => undefined);
}

export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetchView = () => {
    pending ??= load().then(
      (view) => (loaded = view),
      (e: unknown) => {
        pending = null;
        throw new ChunkLoadError(e instanceof Error ? e.message : String(e));
      },
    );
    return pending;
  };
  // A view already fetched is handed over at once (a thenable that resolves as it is asked), so
  // React renders it without showing the loading line for a frame.
  const make = () =>
    lazy(() =>
      loaded !== null
        ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: loaded as ComponentType<P> }) } as Promise<{
            default: ComponentType<P>;
          }>)
        : fetchView().then((view) => ({ default: view })),
    );
  let Lazy = make();
  function View(props: P) {
    return <Lazy {...props} />;
  }
  const preload = () => fetchView().catch(() => undefined);
  everyView.add(preload);
  return {
    View,
    retry: () => {
      Lazy = make();
    },
    preload,
  };
}

interface OnDemandProps {
  /** What is loading, as the middle of a sentence: "the space-time view". */
  readonly what: string;
  readonly retry: () => void;
  readonly className?: string;
  /** A view that covers others (the Why panel) can be closed while it loads or after it failed to. */
  readonly close?: () => void;
  readonly children: ReactNode;
}

interface OnDemandState {
  readonly error: unknown;
}

/** Says that a view could not be loaded, and offers to try again; catches only its own view's failure. */
class LoadBoundary extends Component<OnDemandProps, OnDemandState> {
  override state: OnDemandState = { error: null };

  static getDerivedStateFromError(error: unknown): OnDemandState {
    return { error };
  }

  override render() {
    const { what, retry, className, close, children } = this.props;
    const { error } = this.state;
    if (error === null) return children;
    // A bug in the view itself goes on up, as it would without the boundary.
    if (!(error instanceof ChunkLoadError)) throw error;
    return (
      <div className={`lazy-note lazy-failed ${className ?? ''}`} role="alert" data-testid="lazy-failed">
        <p>
          {capitalize(what)} could not be loaded: the page could not fetch it (is it offline?). The run is unchanged; try again when the
          page is back online.
        </p>
        <div className="button-row">
          <button
            type="button"
            onClick={() => {
              retry();
              this.setState({ error: null });
            }}
          >
            Try again
          </button>
          {close && (
            <button type="button" onClick={close}>
              Close
            </button>
          )}
        </div>
      </div>
    );
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The boundary around a lazy view: "Loading the space-time view…" while it loads, one sentence if it cannot. */
export function OnDemand({ what, retry, className, close, children }: OnDemandProps) {
  return (
    <LoadBoundary what={what} retry={retry} className={className} close={close}>
      <Suspense
        fallback={
          <div className={`lazy-note ${className ?? ''}`} role="status" aria-busy="true" data-testid="lazy-loading">
            <p>Loading {what}…</p>
            {close && (
              <div className="button-row">
                <button type="button" onClick={close}>
                  Close
                </button>
              </div>
            )}
          </div>
        }
      >
        {children}
      </Suspense>
    </LoadBoundary>
  );
}
