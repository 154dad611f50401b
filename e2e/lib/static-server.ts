import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A tiny static file server standing in for "another origin" (a CDN or a remote's own container):
 * each mount maps a URL prefix to a folder. CORS is open (remotes on another origin need it) and
 * nothing is cached, so a test sees exactly what is on disk. Used by the remote-moved and
 * remote-throwing specs; not a production server.
 */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  origin: string;
  /** Every path requested so far (for assertions on what was fetched from this origin). */
  requests: string[];
  close(): Promise<void>;
}

export async function startStaticServer(mounts: Record<string, string>, host = '127.0.0.1'): Promise<StaticServer> {
  const requests: string[] = [];
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = http.createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    const prefix = prefixes.find((p) => url.pathname.startsWith(p));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (prefix === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    const root = path.resolve(mounts[prefix]!);
    const file = path.resolve(root, '.' + decodeURIComponent(url.pathname.slice(prefix.length - 1)));
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) throw new Error('not a file');
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': stat.size,
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
