import { registerRemotes } from '@module-federation/enhanced/runtime';
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

let loading: Promise<RemotesState> | null = null;

/** Fetch /remotes.json (no-cache) once and register every remote with the MF runtime. */
export function loadRemotes(): Promise<RemotesState> {
  if (!loading) {
    loading = (async (): Promise<RemotesState> => {
      try {
        const res = await fetch(REMOTES_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } });
        if (!res.ok) throw new Error(`GET ${REMOTES_URL}: ${res.status}`);
        const remotes = parseRemotesManifest(await res.json(), window.location.href);
        registerRemotes(
          Object.entries(remotes).map(([name, entry]) => ({ name, entry })),
          { force: false },
        );
        const state: RemotesState = { status: 'ready', remotes };
        useRemotes.setState(state);
        return state;
      } catch (e) {
        console.error('[remotes] /remotes.json could not be loaded; the shell runs without remotes.', e);
        const state: RemotesState = { status: 'failed', remotes: {} };
        useRemotes.setState(state);
        return state;
      }
    })();
  }
  return loading;
}
