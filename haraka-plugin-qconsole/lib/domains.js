'use strict';
// The console's domain list on the wire and on disk: GET <api>/api/mailstack/domains/ (service
// token, If-None-Match) and the file that keeps the last good list across restarts. Anything that
// is not a whole, valid answer is an error here, so that a truncated or foreign answer can never be
// taken for "the console has no domains".

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { domainToASCII } = require('node:url');

/** 100,000 domains of 60 characters fit; a larger answer is not the console's. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** A lower-case A-label (punycode) name with at least two labels, as the api sends them. */
const A_LABEL_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The A-label, lower-case form of a recipient's domain (a U-label such as bücher.example becomes
 * xn--bcher-kva.example), or '' when it is not a domain name (an address literal, garbage).
 */
function toALabel(host) {
  if (typeof host !== 'string') return '';
  const name = host.trim().replace(/\.$/, '');
  if (!name || name.startsWith('[')) return '';
  const ascii = domainToASCII(name);
  return A_LABEL_DOMAIN.test(ascii) ? ascii : '';
}

/** {"domains": [...]} → the sorted list; throws on anything else (never guesses an empty list). */
function parseDomainsDocument(doc) {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray(doc.domains)) {
    throw new Error('the answer has no "domains" array');
  }
  for (const d of doc.domains) {
    if (typeof d !== 'string' || !A_LABEL_DOMAIN.test(d)) {
      throw new Error(`not a lower-case A-label domain in the answer: ${JSON.stringify(d)?.slice(0, 100)}`);
    }
  }
  return [...new Set(doc.domains)].sort();
}

function parseDomainsBody(body) {
  let doc;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new Error(`the answer is not JSON (${body.length ? `${body.length} bytes, cut short?` : 'empty'})`);
  }
  return parseDomainsDocument(doc);
}

/**
 * One GET of the list. Resolves with {domains, etag} (200) or {notModified: true} (304, only when
 * `etag` was sent); rejects on a network error, the timeout (the whole exchange), any other status,
 * an answer that is not complete JSON of the right shape, or one larger than MAX_ANSWER_BYTES.
 *
 * @param {{url: URL, token: string, timeoutMs: number, etag?: string, signal?: AbortSignal, userAgent?: string}} o
 * @returns {Promise<{domains: string[], etag: string} | {notModified: true}>}
 */
function fetchDomains({ url, token, timeoutMs, etag = '', signal, userAgent = 'haraka-plugin-qconsole' }) {
  return new Promise((resolve, reject) => {
    let req = null;
    let settled = false;
    const finish = (err, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req?.destroy();
        reject(err);
      } else resolve(value);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': userAgent };
      if (etag) headers['if-none-match'] = etag;
      // agent: false → one short connection per poll; no idle keep-alive socket between polls.
      req = (url.protocol === 'https:' ? https : http).request(url, { method: 'GET', headers, agent: false, signal });
      req.on('error', (err) => finish(err));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status === 304 && etag) {
          res.resume();
          return finish(null, { notModified: true });
        }
        if (status !== 200) {
          res.resume();
          return finish(new Error(`the api answered HTTP ${status}`));
        }
        const type = String(res.headers['content-type'] ?? '');
        if (!/^application\/json\s*(;|$)/i.test(type)) {
          res.resume();
          return finish(new Error(`the answer is not JSON (content-type "${type.slice(0, 60)}")`));
        }
        const chunks = [];
        let size = 0;
        res.on('data', (c) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) finish(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('error', (err) => finish(new Error(`the answer was cut short (${err.message})`)));
        // A body cut short (connection closed before Content-Length or the last chunk) ends here.
        res.on('close', () => finish(new Error('the answer was cut short (connection closed)')));
        res.on('end', () => {
          if (!res.complete) return finish(new Error('the answer was cut short'));
          try {
            const domains = parseDomainsBody(Buffer.concat(chunks).toString('utf8'));
            finish(null, { domains, etag: String(res.headers.etag ?? '') });
          } catch (err) {
            finish(err);
          }
        });
      });
      req.end();
    } catch (err) {
      finish(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** The saved list, or null when there is no file; throws when the file is there but not valid. */
function readStateFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  const domains = parseDomainsDocument(doc);
  return {
    domains,
    etag: typeof doc.etag === 'string' ? doc.etag : '',
    savedAt: typeof doc.saved_at === 'string' ? doc.saved_at : '',
  };
}

/** Writes the list atomically (temp file + rename): a crash mid-write leaves the old file whole. */
async function writeStateFile(file, { domains, etag }) {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const body = `${JSON.stringify({ domains, etag, saved_at: new Date().toISOString() })}\n`;
  try {
    const handle = await fs.promises.open(tmp, 'w', 0o644);
    try {
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

module.exports = {
  A_LABEL_DOMAIN,
  MAX_ANSWER_BYTES,
  fetchDomains,
  parseDomainsBody,
  readStateFile,
  toALabel,
  writeStateFile,
};
