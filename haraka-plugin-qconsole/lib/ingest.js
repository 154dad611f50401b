'use strict';
// POSTs meta (JSON) + the raw message (message/rfc822) as multipart/form-data to the api's ingest
// endpoint, streaming the message from Haraka's message_stream (chunked transfer encoding, so a
// 25 MiB message is never held in memory). Resolves with {status, body} once the answer has been
// read; rejects on any network error, on a stream error, and when the exchange makes no progress
// (no byte of the message taken by the api, no byte of its answer) for timeoutMs: an idle timeout,
// not a deadline, so a large message on a busy machine is not cut off while it moves, and a hung
// or stalled api is given up on after the same time whatever the size.

const crypto = require('node:crypto');
const http = require('node:http');
const https = require('node:https');
const { PassThrough } = require('node:stream');

const MAX_ANSWER_BYTES = 64 * 1024;
const MIB = 1024 * 1024;

function multipartParts(boundary, meta, filename) {
  const head =
    `--${boundary}\r\n` +
    'Content-Disposition: form-data; name="meta"\r\n' +
    'Content-Type: application/json; charset=utf-8\r\n\r\n' +
    `${JSON.stringify(meta)}\r\n` +
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="message"; filename="${filename.replace(/[^\w.@-]/g, '_')}"\r\n` +
    'Content-Type: message/rfc822\r\n\r\n';
  return { head: Buffer.from(head, 'utf8'), tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8') };
}

/**
 * @param {object} o
 * @param {URL} o.url
 * @param {string} o.token
 * @param {number} o.timeoutMs  idle timeout: the longest time without progress
 * @param {object} o.meta
 * @param {{pipe: Function, unpipe?: Function, on: Function, removeListener: Function}} o.messageStream
 * @param {string} [o.userAgent]
 * @returns {Promise<{status: number, body: string}>}
 */
function postIngest({ url, token, timeoutMs, meta, messageStream, userAgent = 'haraka-plugin-qconsole' }) {
  return new Promise((resolve, reject) => {
    const boundary = `qconsole-${crypto.randomBytes(16).toString('hex')}`;
    const { head, tail } = multipartParts(boundary, meta, `${meta.uuid}.eml`);
    const client = url.protocol === 'https:' ? https : http;
    let req = null;
    let timer = null;
    let bodySent = false;
    let settled = false;
    let sent = 0;
    const phase = () => (bodySent ? 'waiting for the answer' : `${sent} bytes of the message sent`);
    // Every sign of progress starts the wait again.
    const progress = (ms = timeoutMs) => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(() => finish(new Error(`no progress for ${ms} ms (${phase()})`)), ms);
    };

    const onStreamError = (err) => finish(err instanceof Error ? err : new Error(String(err)));
    const finish = (err, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      messageStream.removeListener('error', onStreamError);
      if (err || !bodySent) {
        // stop reading the spool before the socket goes (haraka/message-stream#22)
        try {
          messageStream.unpipe?.();
        } catch {
          /* already torn down */
        }
        req?.destroy();
      }
      if (err) reject(err);
      else resolve(value);
    };

    try {
      progress();
      req = client.request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          accept: 'application/json',
          'user-agent': userAgent,
        },
      });
      req.on('error', (err) => finish(err));
      req.on('finish', () => {
        bodySent = true;
        // All of it is in the socket, not yet read by the api (the socket buffers hold megabytes,
        // out of our sight): it gets the idle time plus a second per whole MiB to read and store it.
        progress(timeoutMs + Math.floor(sent / MIB) * 1000);
      });
      req.on('response', (res) => {
        progress();
        const chunks = [];
        let size = 0;
        res.on('data', (c) => {
          progress();
          if (size >= MAX_ANSWER_BYTES) return;
          chunks.push(c);
          size += c.length;
        });
        res.on('error', (err) => finish(err));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          // A 2xx before the api has the whole message cannot mean it stored it.
          if (status >= 200 && status < 300 && !bodySent) {
            finish(new Error(`HTTP ${status} before the message was fully sent`));
            return;
          }
          finish(null, { status, body: Buffer.concat(chunks).toString('utf8') });
        });
      });

      req.write(head);
      const body = new PassThrough();
      // A chunk moves on only once the socket took the previous ones (pipe's back-pressure): an api
      // that stops reading stops these, once the socket buffers are full.
      body.on('data', (c) => {
        sent += c.length;
        progress();
      });
      body.on('end', () => {
        if (!settled) req.end(tail);
      });
      body.on('error', (err) => finish(err));
      body.pipe(req, { end: false });
      messageStream.on('error', onStreamError);
      // Defaults: CRLF line endings, SMTP dot-stuffing removed = the message as the sender wrote it,
      // plus the headers Haraka and the rspamd plugin added (Received, X-Rspamd-*).
      messageStream.pipe(body);
    } catch (err) {
      finish(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * The id the api gave the stored mail, or '' when the answer is not the api's "stored": 201 with a
 * JSON body holding a non-empty string id (DESIGN §4). Anything else is a doubt, hence a 4xx.
 */
function storedId(status, body) {
  if (status !== 201) return '';
  try {
    const { id } = JSON.parse(body);
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

module.exports = { postIngest, multipartParts, storedId };
