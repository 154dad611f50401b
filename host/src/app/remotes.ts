import { registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemotesManifest } from '@qc/contracts';
import { create } from 'zustand';

/**
 * Runtime remotes (DESIGN §3): /remotes.json maps container names to their mf-manifest.json URLs
 * (absolute or same-origin relative). Nothing is baked into the host build; nothing of a remote
 * is downloaded before its route is visited.
 */
export const REMOTES_URL = '/remotes.json';

export type RemotesStatus = 'loading' | 'ready' | 'failed';

export interface RemotesState {
  status: RemotesStatus;
  /** container name → absolute manifest URL */
  remotes: Record<string, string>;
}

export const useRemotes = create<RemotesState>()(() => ({ status: 'loading', remotes: {} }));

const NAME = /^remote_[a-z]+$/;

/** Same rule as RemotesManifest in @qc/contracts, without bundling zod into the host's first chunk. */
export function parseRemotesManifest(json: unknown, base: string): Record<string, string> {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('remotes.json is not an object');
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(json as RemotesManifest)) {
    if (!NAME.test(name) || typeof url !== 'string' || url.length === 0) continue;
    out[name] = new URL(url, base).href;
  }
  return out;
}

/**
 * How long /remotes.json and a remote's mf-manifest.json may take. A server that accepts the
 * connection and never answers would otherwise leave an endless spinner; past this the page says
 * "could not be loaded" with Retry. (The MF runtime gives a remote's entry script 20 s by itself, and
 * the remote's own chunks have output.chunkLoadTimeout.)
 */
export const REMOTES_TIMEOUT_MS = 15_000;

/** fetch given up (rejected like a network error) after `ms`. */
export async function fetchWithin(url: string, init: RequestInit = {}, ms = REMOTES_TIMEOUT_MS): Promise<Response> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`GET ${url}: no answer within ${ms / 1000} s`)), ms);
  try {
    return await fetch(url, { ...init, signal: abort.signal });
  } finally {
    clearTimeout(timer);
  }
}

let loading: Promise<RemotesState> | null = null;
/** A remote failed to load since /remotes.json was read: the next loadRemotes() reads it again. */
let stale = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let pluginOn = false;

/** MF runtime plugin: timeouts on manifests, and a failed remote makes /remotes.json worth re-reading. */
function installRuntimePlugin() {
  if (pluginOn) return;
  pluginOn = true;
  registerPlugins([
    {
      name: 'qc-remote-loading',
      fetch: (url: string, init: RequestInit) => fetchWithin(url, init),
      errorLoadRemote: () => {
        stale = true;
        return undefined; // the error goes on to the page's boundary ("could not be loaded", Retry)
      },
    },
  ]);
}

async function readRemotesFile(): Promise<Record<string, string>> {
  const res = await fetchWithin(REMOTES_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${REMOTES_URL}: ${res.status}`);
  return parseRemotesManifest(await res.json(), window.location.href);
}

/** Registers what changed: a moved remote replaces the old registration (and its cache). */
function register(remotes: Record<string, string>, previous: Record<string, string>) {
  const added = Object.entries(remotes).filter(([name]) => !(name in previous));
  const moved = Object.entries(remotes).filter(([name, entry]) => name in previous && previous[name] !== entry);
  if (added.length)
    registerRemotes(
      added.map(([name, entry]) => ({ name, entry })),
      { force: false },
    );
  if (moved.length)
    registerRemotes(
      moved.map(([name, entry]) => ({ name, entry })),
      { force: true },
    );
}

/** A /remotes.json that could not be read is tried again by itself: every 30 s, and when back online. */
function scheduleRetry() {
  if (retryTimer) return;
  const again = () => {
    clearTimeout(retryTimer!);
    retryTimer = null;
    window.removeEventListener('online', again);
    void loadRemotes();
  };
  retryTimer = setTimeout(again, 30_000);
  window.addEventListener('online', again);
}

/**
 * Fetch /remotes.json (no-cache, REMOTES_TIMEOUT_MS) and register every remote with the MF runtime.
 * Read once; read again when the previous read failed or a remote has failed to load since (so a
 * corrected file is picked up by the page's Retry, without a reload).
 */
export function loadRemotes(): Promise<RemotesState> {
  if (loading && stale) {
    const previous = loading;
    stale = false;
    loading = previous.then(async (before) => {
      try {
        const remotes = await readRemotesFile();
        register(remotes, before.remotes);
        const state: RemotesState = { status: 'ready', remotes };
        useRemotes.setState(state);
        return state;
      } catch (e) {
        console.error('[remotes] /remotes.json could not be read again; keeping the previous list.', e);
        return before;
      }
    });
    return loading;
  }
  if (!loading) {
    installRuntimePlugin();
    stale = false;
    loading = (async (): Promise<RemotesState> => {
      try {
        const remotes = await readRemotesFile();
        register(remotes, {});
        const state: RemotesState = { status: 'ready', remotes };
        useRemotes.setState(state);
        return state;
      } catch (e) {
        console.error('[remotes] /remotes.json could not be loaded; the shell runs without remotes.', e);
        const state: RemotesState = { status: 'failed', remotes: {} };
        useRemotes.setState(state);
        loading = null; // the next call (a Retry, or the scheduled one) reads it again
        scheduleRetry();
        return state;
      }
    })();
  }
  return loading;
}

/** For tests. */
export function resetRemotesForTests() {
  loading = null;
  stale = false;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  useRemotes.setState({ status: 'loading', remotes: {} });
}
