import fs from 'node:fs/promises';
import path from 'node:path';

const ALWAYS_REVALIDATE = new Set(['index.html', 'remoteEntry.js', 'mf-manifest.json', 'remotes.json']);
// webpack's [contenthash]: a run of hex digits right before the extension (main.3f2a9c81.js, 12.ab34cd56ef.css).
const CONTENT_HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

export const NO_CACHE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Entry points must be revalidated (they name the hashed files); hashed files never change. */
export function cacheControlFor(filePath: string): string {
  // A precompressed sibling (main.3f2a9c81.js.br) is cached like the file it encodes.
  const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
  if (ALWAYS_REVALIDATE.has(name) || name.endsWith('.html')) return NO_CACHE;
  return CONTENT_HASHED.test(name) ? IMMUTABLE : NO_CACHE;
}

/** Client-side routes (/dashboard, /mail/42) get the shell; API and remote paths never do. */
export function wantsSpaShell(method: string, urlPath: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (urlPath === '/api' || urlPath.startsWith('/api/')) return false;
  if (urlPath === '/remotes' || urlPath.startsWith('/remotes/') || urlPath === '/remotes.json') return false;
  return (accept ?? '').includes('text/html');
}

export const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quarantine Console</title></head>' +
  '<body><h1>Quarantine Console is not built</h1><p>The API is running, but the web console has not been built ' +
  'yet. Run <code>npm run build</code> (or <code>npm start</code>) and reload this page.</p></body></html>\n';

/** index.html of the host build, or null when the console is not built. */
export async function readShell(staticDir: string): Promise<Buffer | null> {
  return fs.readFile(path.join(staticDir, 'index.html')).catch(() => null);
}
