import { RemotesManifest, REMOTE_NAMES, type RemoteName } from '@qc/contracts';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { HttpError } from '../../lib/http-error';

/** Container name (snake_case) → folder (kebab-case), DESIGN §3. */
export const REMOTE_FOLDERS: Record<RemoteName, string> = {
  remote_mail: 'remote-mail',
  remote_admin: 'remote-admin',
  remote_rspamd: 'remote-rspamd',
  remote_haraka: 'remote-haraka',
};

export interface RemotesSource {
  /** The current /remotes.json content; 503 when QC_REMOTES_FILE is unreadable or invalid. */
  manifest(): Promise<RemotesManifest>;
  /** Origins of absolute remote URLs, for the CSP ([] when the file is missing or invalid). */
  origins(): Promise<string[]>;
}

// Same-origin paths or http(s) URLs only: anything else (javascript:, data:…) is refused.
function originOf(value: string): string | null | undefined {
  if (value.startsWith('/') && !value.startsWith('//')) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

interface Parsed {
  stamp: string;
  manifest: RemotesManifest | null;
  origins: string[];
  error?: string;
}

function parse(stamp: string, text: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { stamp, manifest: null, origins: [], error: 'not valid JSON' };
  }
  const result = RemotesManifest.safeParse(json);
  if (!result.success) return { stamp, manifest: null, origins: [], error: 'not a remotes manifest' };
  const origins = new Set<string>();
  for (const [name, value] of Object.entries(result.data)) {
    const origin = originOf(value);
    if (origin === undefined) return { stamp, manifest: null, origins: [], error: `bad URL for ${name}` };
    if (origin) origins.add(origin);
  }
  return { stamp, manifest: result.data, origins: [...origins] };
}

/** QC_REMOTES_FILE, re-read whenever its mtime/size/inode change: edits apply without a restart. */
function fileSource(file: string, log: { warn(obj: object, msg: string): void }): RemotesSource {
  let cached: Parsed | null = null;
  const current = async (): Promise<Parsed> => {
    let stamp: string;
    try {
      const st = await fs.stat(file);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return { stamp: 'missing', manifest: null, origins: [], error: 'file not found' };
    }
    if (cached?.stamp === stamp) return cached;
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    const next = text === null ? { stamp, manifest: null, origins: [], error: 'unreadable' } : parse(stamp, text);
    if (next.error) log.warn({ file, error: next.error }, 'QC_REMOTES_FILE is not usable');
    cached = next;
    return next;
  };
  return {
    async manifest() {
      const p = await current();
      if (!p.manifest) throw new HttpError(503, 'remotes_unavailable', `The remotes file is not usable (${p.error}).`);
      return p.manifest;
    },
    async origins() {
      return (await current()).origins;
    },
  };
}

/** No file: the remotes this server serves itself, only those that are built. */
function builtInSource(remotesDir: string): RemotesSource {
  return {
    async manifest() {
      const entries = await Promise.all(
        REMOTE_NAMES.map(async (name) => {
          const folder = REMOTE_FOLDERS[name];
          const built = await fs
            .access(path.join(remotesDir, folder, 'dist', 'mf-manifest.json'))
            .then(() => true)
            .catch(() => false);
          return built ? ([name, `/remotes/${folder}/mf-manifest.json`] as const) : null;
        }),
      );
      return Object.fromEntries(entries.filter((e) => e !== null));
    },
    origins: async () => [],
  };
}

export function createRemotesSource(
  config: Pick<Config, 'remotesFile' | 'remotesDir'>,
  log: { warn(obj: object, msg: string): void },
): RemotesSource {
  return config.remotesFile ? fileSource(config.remotesFile, log) : builtInSource(config.remotesDir);
}
