import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { lazy, Suspense, useCallback, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { PageLoading } from './PageStates';

/** A remote module that did not load (network, missing container, missing expose...). */
export class RemoteLoadError extends Error {
  readonly remoteId: string;
  constructor(remoteId: string, cause?: unknown) {
    super(`Remote module ${remoteId} could not be loaded${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.name = 'RemoteLoadError';
    this.remoteId = remoteId;
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/**
 * Whether an error means code did not arrive (as opposed to code that threw): a remote that did not
 * load, webpack's ChunkLoadError ("Loading chunk 12 failed"), a failed dynamic import, a Module
 * Federation runtime load failure. Looks through `cause` too.
 */
export function isLoadFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (error instanceof RemoteLoadError || error.name === 'ChunkLoadError') return true;
  if (
    /Loading (CSS )?chunk \S+ failed|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Failed to load script|ScriptExternalLoadError|RUNTIME-00[1378]/i.test(
      error.message,
    )
  )
    return true;
  return isLoadFailure((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * Whether a remote refused to load because the console offers an older shared singleton than it was
 * built for (Module Federation's strict singleton check: "Version 1.2.0 from host of shared singleton
 * module @qc/auth does not satisfy the requirement of remote_x which needs ^2.0.0"). Retry cannot fix
 * it: the console or the remote must be redeployed.
 */
export function isIncompatibleRemote(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (/of shared singleton module \S+ does not satisfy the requirement/.test(error.message)) return true;
  return isIncompatibleRemote((error as { cause?: unknown }).cause, depth + 1);
}

export type RemoteLoader = () => Promise<{ default: ComponentType } | null | undefined>;

type LazyModule = ReturnType<typeof lazy<ComponentType>>;

/**
 * One lazy per loader (each module id has one, made once), kept across visits: a page visited again
 * renders at once instead of suspending (a spinner flash) on a new lazy. One that failed is
 * dropped, so the next visit tries again; Retry replaces it at once.
 */
const lazies = new WeakMap<RemoteLoader, LazyModule>();
/**
 * Remotes refused as built for a newer console, until the page is reloaded: loading one again (a
 * remount, a Retry) must not reach the runtime, which then hands back the module without its
 * refused singletons, and the page crashes instead of saying why.
 */
const refused = new WeakMap<RemoteLoader, RemoteLoadError>();

function makeLazy(id: string, load: RemoteLoader): LazyModule {
  // React.lazy caches a rejection forever, so Retry builds a new lazy (notes, "Runtime remote loading").
  const made: LazyModule = lazy(async () => {
    const before = refused.get(load);
    if (before) throw before;
    let mod: Awaited<ReturnType<RemoteLoader>>;
    try {
      mod = await load();
    } catch (e) {
      if (lazies.get(load) === made) lazies.delete(load);
      const error = new RemoteLoadError(id, e);
      if (isIncompatibleRemote(e)) refused.set(load, error);
      throw error;
    }
    if (!mod || (typeof mod.default !== 'function' && typeof mod.default !== 'object')) {
      if (lazies.get(load) === made) lazies.delete(load);
      throw new RemoteLoadError(id);
    }
    return { default: mod.default };
  });
  lazies.set(load, made);
  return made;
}

const lazyFor = (id: string, load: RemoteLoader) => lazies.get(load) ?? makeLazy(id, load);

export type RemoteFailureKind = 'load' | 'render' | 'incompatible';

const FAILURE_TEXTS: Record<
  RemoteFailureKind,
  { status: 'warning' | 'error'; title: string; description: string; testId: string }
> = {
  load: {
    status: 'warning',
    title: 'remote.load_failed_title',
    description: 'remote.load_failed_description',
    testId: 'remote-load-error',
  },
  render: {
    status: 'error',
    title: 'remote.render_failed_title',
    description: 'remote.render_failed_description',
    testId: 'remote-render-error',
  },
  incompatible: {
    status: 'warning',
    title: 'remote.incompatible_title',
    description: 'remote.incompatible_description',
    testId: 'remote-incompatible',
  },
};

export const failureKind = (error: unknown): RemoteFailureKind =>
  isIncompatibleRemote(error) ? 'incompatible' : isLoadFailure(error) ? 'load' : 'render';

export interface RemoteFailureProps {
  kind: RemoteFailureKind;
  name: string;
  onRetry: () => void;
}

export function RemoteFailure({ kind, name, onRetry }: RemoteFailureProps) {
  const { t } = useTranslation('common');
  const texts = FAILURE_TEXTS[kind];
  return (
    <Result
      status={texts.status}
      title={t(texts.title)}
      subTitle={t(texts.description, { name })}
      data-testid={texts.testId}
      role="alert"
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('actions.retry')}
        </Button>
      }
    />
  );
}

export interface RemoteModuleProps {
  /** e.g. 'remote_mail/Dashboard' */
  id: string;
  /** Shown in the failure texts. */
  name: string;
  load: RemoteLoader;
  fallback?: ReactNode;
  /**
   * Which visit of the remote this is (the router location's key): going anywhere, the same page
   * included, clears a render error, as a page that crashed on one e-mail or one filter must not
   * keep the whole remote down.
   */
  location?: string;
}

/**
 * Loads a remote page behind ONE boundary that handles both "did not load" (lazy rejection, or a
 * chunk of the page that did not arrive: ChunkLoadError) and "threw while rendering", each with a
 * translated Result and a Retry that re-creates the lazy and renders again (a retryableLazy inside
 * the page then imports its chunk again).
 */
export function RemoteModule({ id, name, load, fallback, location }: RemoteModuleProps) {
  const [Comp, setComp] = useState(() => lazyFor(id, load));
  const retry = useCallback(() => setComp(() => makeLazy(id, load)), [id, load]);
  return (
    <ErrorBoundary
      resetKeys={[Comp, location]}
      fallbackRender={({ error, resetErrorBoundary }) => (
        <RemoteFailure
          kind={failureKind(error)}
          name={name}
          onRetry={() => {
            retry();
            resetErrorBoundary();
          }}
        />
      )}
    >
      <Suspense fallback={fallback ?? <PageLoading />}>
        <Comp />
      </Suspense>
    </ErrorBoundary>
  );
}
