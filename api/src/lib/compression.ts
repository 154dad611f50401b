import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Compression of the api's JSON answers (issue 22): a 200-row quarantine page is ~60 KB of JSON,
 * ~7 KB compressed. Done here with zlib rather than @fastify/compress, whose global hooks would also
 * touch the static files (already pre-compressed by the build and negotiated by @fastify/static),
 * downloads and streams, and which decompresses request bodies (a gzip bomb through the ingest
 * upload). Only what this hook can see whole is compressed: a JSON string or Buffer. Not touched:
 * streams (static files, anything piped), downloads (message/rfc822, images: an exact
 * Content-Length for the save dialog, and images are compressed already), answers that already
 * carry a Content-Encoding.
 */

/** Below this, the headers and the extra round of CPU cost more than the bytes saved. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Cheap settings: a dynamic answer is compressed on every call. Brotli 4 is near gzip 6's speed with
 * a smaller result; 11 (the default) is for build-time assets and costs ~100× more.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): the highest
 * q-value among br and gzip, br on a tie; `*` stands for any not listed; q=0 refuses.
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q: Record<string, number> = {};
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) value = Number(m[1]);
    }
    q[name === 'x-gzip' ? 'gzip' : name] = Number.isFinite(value) ? value : 0;
  }
  const of = (name: Encoding) => q[name] ?? q['*'] ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

export function compress(body: Buffer | string, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: GZIP_LEVEL });
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    },
  });
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

const isJson = (type: unknown) => typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);

/**
 * Registers the onSend hook on the root instance. `isApi(request)` says which requests are the
 * api's (the console's pages and files are left to @fastify/static and its pre-compressed copies).
 */
export function registerCompression(app: FastifyInstance, isApi: (request: FastifyRequest) => boolean) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApi(request) || !isJson(reply.getHeader('content-type'))) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // a stream: as it is
    addVary(reply); // the answer depends on Accept-Encoding, whichever way it goes this time
    if (reply.hasHeader('content-encoding') || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (Buffer.byteLength(payload) < COMPRESS_THRESHOLD) return payload;
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = await compress(payload, encoding);
    reply.header('content-encoding', encoding).removeHeader('content-length');
    return body;
  });
}
