'use strict';
// A real HTTP server standing in for the api's POST /api/haraka/logs/ingest/: it checks the token,
// refuses batches over `maxBatch` with 413, stores each (hostname, id) once like the api does, and
// can be stopped and started again on the same port (an api restart).

const http = require('node:http');

/**
 * `mode`: 202 (store), 'hang' (never answers), 'store-then-503' (stores, then answers 503), or a
 * status code answered without storing.
 */
async function startLogApi({ token, maxBatch = 5000, mode = 202 } = {}) {
  const api = {
    mode,
    maxBatch,
    token,
    requests: [], // {at, status, lines}
    stored: [], // in the order stored
    duplicates: 0,
    url: '',
    port: 0,
  };
  const seen = new Set();
  const sockets = new Set();
  let server = null;

  const handle = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let lines = [];
      try {
        lines = JSON.parse(Buffer.concat(chunks).toString('utf8')).lines ?? [];
      } catch {
        /* recorded as empty */
      }
      const record = { at: Date.now(), url: req.url, auth: req.headers.authorization, lines, status: 0 };
      api.requests.push(record);
      const answer = (status, body) => {
        record.status = status;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (api.mode === 'hang') return;
      if (req.headers.authorization !== `Bearer ${api.token}`) return answer(401, { code: 'unauthorized' });
      if (lines.length > api.maxBatch) return answer(413, { code: 'too_large' });
      if (typeof api.mode === 'number' && api.mode !== 202) return answer(api.mode, { code: 'x' });
      let accepted = 0;
      let duplicates = 0;
      for (const l of lines) {
        const key = `${l.hostname}\n${l.id}`;
        if (seen.has(key)) {
          duplicates++;
          continue;
        }
        seen.add(key);
        api.stored.push(l);
        accepted++;
      }
      api.duplicates += duplicates;
      if (api.mode === 'store-then-503') return answer(503, { code: 'unavailable' });
      answer(202, { accepted, duplicates, refused: 0 });
    });
  };

  api.start = async () => {
    server = http.createServer(handle);
    server.keepAliveTimeout = 60_000;
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise((resolve) => server.listen(api.port, '127.0.0.1', resolve));
    api.port = server.address().port;
    api.url = `http://127.0.0.1:${api.port}`;
  };
  /** Closes the port: requests are refused (ECONNREFUSED) until start(). */
  api.stop = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  await api.start();
  return api;
}

/** Resolves once `check()` is truthy; rejects after `ms`. */
async function waitFor(check, ms = 5000, what = 'condition') {
  const t0 = Date.now();
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

module.exports = { startLogApi, waitFor };
