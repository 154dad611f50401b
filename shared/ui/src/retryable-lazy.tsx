import { lazy, type ComponentProps, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';

/* eslint-disable @typescript-eslint/no-explicit-any -- the same constraint as React.lazy's */
type AnyComponent = ComponentType<any>;

export interface RetryableLazy<T extends AnyComponent> {
  (props: ComponentProps<T>): ReactElement;
  displayName?: string;
  /** Starts the download now (e.g. when a sign-in is submitted); a failure is forgotten. */
  preload: () => Promise<void>;
}

function lazyElement<T extends AnyComponent>(Comp: LazyExoticComponent<T>, props: ComponentProps<T>): ReactElement {
  const C = Comp as unknown as ComponentType<ComponentProps<T>>;
  return <C {...props} />;
}

/**
 * A failed import is tried again only by a render at least this long after the failure. React
 * renders once more, synchronously, right after an error (to recover from it); a new import there
 * would hide the error and, offline, loop on failing requests instead of showing the boundary.
 */
export const RETRY_AFTER_MS = 500;

/**
 * React.lazy that forgets a failed import. React.lazy keeps a rejection forever, so after a short
 * network loss a page built on a module-level `lazy(() => import(...))` stays broken until a full
 * reload. Here a failed import is dropped: the next render (the boundary's Retry, or coming back to
 * the page) calls `load` again (webpack forgets a chunk that failed, so it is requested anew). The
 * rejection still goes to the nearest error boundary, which shows "did not load" for it (see
 * isLoadFailure in RemoteBoundary).
 */
export function retryableLazy<T extends AnyComponent>(load: () => Promise<{ default: T }>): RetryableLazy<T> {
  let failedAt: number | null = null;
  let current: LazyExoticComponent<T> = make();

  function make(): LazyExoticComponent<T> {
    failedAt = null;
    const made = lazy(() =>
      load().catch((error: unknown) => {
        if (current === made) failedAt = Date.now();
        throw error;
      }),
    );
    return made;
  }

  const Retryable = ((props: ComponentProps<T>) => {
    if (failedAt !== null && Date.now() - failedAt >= RETRY_AFTER_MS) current = make();
    return lazyElement(current, props);
  }) as RetryableLazy<T>;
  Retryable.preload = () =>
    load().then(
      () => undefined,
      () => undefined,
    );
  return Retryable;
}
